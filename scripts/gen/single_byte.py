"""Generate ``src/onemail/text/_tables/single_byte.py``: 256-character decode tables.

Each table is a ``str`` of 256 characters for :func:`codecs.charmap_decode`; U+FFFE marks a
byte the encoding does not map (charmap_decode treats it as undefined and calls the error
handler).

* WHATWG single-byte encodings: bytes 0x00-0x7F are ASCII, byte ``0x80 + pointer`` is
  ``index-<name>.txt[pointer]`` (Encoding Standard "single-byte decoder").
* x-user-defined: 0x80-0xFF map to U+F780 + (byte - 0x80) (Encoding Standard).
* DOS code pages (437, 737, 775, 850, 852, 855, 857, 858, 860-865, 869): CPython's ``cpNNN``
  codecs, byte by byte (no WHATWG index exists for them).
"""

from __future__ import annotations

from _common import read_index, wrap_str_literal

WHATWG_SINGLE_BYTE = [
    "ibm866", "iso-8859-2", "iso-8859-3", "iso-8859-4", "iso-8859-5", "iso-8859-6",
    "iso-8859-7", "iso-8859-8", "iso-8859-10", "iso-8859-13", "iso-8859-14", "iso-8859-15",
    "iso-8859-16", "koi8-r", "koi8-u", "macintosh", "windows-874", "windows-1250",
    "windows-1251", "windows-1252", "windows-1253", "windows-1254", "windows-1255",
    "windows-1256", "windows-1257", "windows-1258", "x-mac-cyrillic",
]
DOS_CODE_PAGES = [437, 737, 775, 850, 852, 855, 857, 858, 860, 861, 862, 863, 864, 865, 869]


def _whatwg(name: str) -> str:
    index = read_index(name)
    return "".join(chr(b) for b in range(128)) + "".join(
        chr(index[p]) if p in index else "\ufffe" for p in range(128)
    )


def _cpython(codec: str) -> str:
    out = []
    for b in range(256):
        try:
            out.append(bytes([b]).decode(codec))
        except UnicodeDecodeError:
            out.append("\ufffe")
    return "".join(out)


def _var(name: str) -> str:
    return "T_" + name.upper().replace("-", "_")


def body() -> str:
    parts = []
    names = []
    for name in WHATWG_SINGLE_BYTE:
        parts.append(wrap_str_literal(_var(name), _whatwg(name)))
        names.append(name)
    parts.append(wrap_str_literal(
        "T_X_USER_DEFINED", "".join(chr(b) for b in range(128)) + "".join(chr(0xF780 + b) for b in range(128))
    ))
    names.append("x-user-defined")
    for cp in DOS_CODE_PAGES:
        parts.append(wrap_str_literal(_var(f"ibm{cp}"), _cpython(f"cp{cp}")))
        names.append(f"ibm{cp}")
    parts.append("TABLES: dict[str, str] = {\n" + "".join(f"    {n!r}: {_var(n)},\n" for n in names) + "}\n")
    return "\n".join(parts)


OUTPUTS = [(
    "src/onemail/text/_tables/single_byte.py",
    [f"index-{n}.txt" for n in WHATWG_SINGLE_BYTE] + [f"cpython:cp{cp}" for cp in DOS_CODE_PAGES],
    body,
)]
