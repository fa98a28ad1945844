"""Generate ``src/onemail/text/_tables/single_byte.py``: 256-character decode tables.

Each table is a ``str`` of 256 characters for :func:`codecs.charmap_decode`; U+FFFE marks a
byte the encoding does not map (charmap_decode treats it as undefined and calls the error
handler).

* WHATWG single-byte encodings: bytes 0x00-0x7F are ASCII, byte ``0x80 + pointer`` is
  ``index-<name>.txt[pointer]`` (Encoding Standard "single-byte decoder").
* x-user-defined: 0x80-0xFF map to U+F780 + (byte - 0x80) (Encoding Standard).
* The DOS code pages (437, 737, 775, 850, 852, 855, 857, 858, 860-865, 869) and the Mac OS
  pages beyond the standard's (Icelandic, Turkish, Greek, Central European): CPython's codecs,
  byte by byte (no WHATWG index exists for them).

Which tables exist and where each comes from is the ``table`` field of
``scripts/data/charsets.toml`` (the one table of charset facts).
"""

from __future__ import annotations

from _common import read_index, wrap_str_literal
from _facts import FACTS_INPUT, read_facts

# Which single-byte tables exist and where each comes from: the facts' "table" field.
_FACTS = [d for d in read_facts() if d.get("table")]
WHATWG_SINGLE_BYTE = [d["key"] for d in _FACTS if d["table"] == "whatwg"]
CPYTHON_SINGLE_BYTE = {d["key"]: d["table"].split(":", 1)[1] for d in _FACTS
                       if d["table"].startswith("cpython:")}


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
    for key, codec in CPYTHON_SINGLE_BYTE.items():
        parts.append(wrap_str_literal(_var(key), _cpython(codec)))
        names.append(key)
    parts.append("TABLES: dict[str, str] = {\n" + "".join(f"    {n!r}: {_var(n)},\n" for n in names) + "}\n")
    return "\n".join(parts)


OUTPUTS = [(
    "src/onemail/text/_tables/single_byte.py",
    [f"index-{n}.txt" for n in WHATWG_SINGLE_BYTE] + [f"cpython:{c}" for c in CPYTHON_SINGLE_BYTE.values()]
    + [FACTS_INPUT],
    body,
)]
