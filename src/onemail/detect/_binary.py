"""Is this text at all? (spec 004 "The binary rule").

:func:`looks_binary` scans the first 8 KiB for a NUL byte. Real text in every supported
single- and double-byte code page contains none, so a NUL means binary, unless the bytes carry
a byte order mark or are UTF-16/UTF-32 shaped, where NULs are expected.

"Shaped" (decision D4 in ``docs/ambiguities.md``; the design says "the alternating-zero
pattern", which BOM-less UTF-16 of CJK, Cyrillic or Greek text does not show for every unit):

* UTF-32: every fourth byte (offset 3 for LE, 0 for BE) is NUL, in every unit.
* UTF-16: NULs sit almost only on one side of the code units (at most one NUL on the other
  side per 3 on this side: a CJK character U+xx00 puts a NUL on the "wrong" side now and then,
  a binary file's NULs fall evenly), at least 2 and one per 256 code units, and the units
  decode as UTF-16 without a lone surrogate.
* Either way the decoded text holds no C0 control but TAB, LF, FF and CR (a NUL character is
  no text: a JPEG header puts its NULs in a UTF-16 pattern).

Measured on the visible corpus (``../shared/corpus/detect``): all 5 binary files (PNG, JPEG,
WebP, XLSX) are binary; none of the 744 UTF-16/32 files (with and without BOM) is.
"""

from __future__ import annotations

import re

__all__ = ["looks_binary", "bom_charset", "utf16_32_shape"]

#: How much of the input the binary rule reads (spec 004: "the first 8 KiB").
BINARY_WINDOW = 8192

# Four-byte BOMs first: the UTF-32LE BOM FF FE 00 00 starts with the UTF-16LE BOM FF FE
# (spec 004 "The UTF-32 rule": the ordering is load-bearing).
_BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32le"),
    (b"\x00\x00\xfe\xff", "utf-32be"),
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\xff\xfe", "utf-16le"),
    (b"\xfe\xff", "utf-16be"),
)


def bom_charset(data: bytes) -> tuple[str, int] | None:
    """Return ``(charset label, BOM length in bytes)`` for a leading byte order mark, else None.

    Implements spec 004 ``bom_charset``: the four-byte UTF-32 marks are tested before the
    two-byte UTF-16 marks.

    >>> bom_charset(b"\\xff\\xfe\\x00\\x00A\\x00\\x00\\x00")
    ('utf-32le', 4)
    """
    if data[:1] not in _BOM_STARTS:
        return None  # (most data: one test, not five)
    for mark, label in _BOMS:
        if data.startswith(mark):
            return label, len(mark)
    return None


_BOM_STARTS = frozenset(mark[:1] for mark, _ in _BOMS)


def utf16_32_shape(data: bytes) -> str | None:
    """Return ``"utf-32le"``, ``"utf-32be"``, ``"utf-16le"``, ``"utf-16be"`` or None.

    Looks only at where the NUL bytes sit (see the module docstring); the caller decides what
    to do with the answer.

    :param data: raw bytes without a byte order mark.
    """
    n = len(data)
    if n < 4 or not data.count(0):
        return None
    units32 = n // 4
    if units32 and n % 4 == 0:
        if (data[3::4].count(0) == units32 and data[2::4].count(0) * 2 >= units32
                and _clean_utf32(data, "utf-32-le")):
            return "utf-32le"
        if (data[0::4].count(0) == units32 and data[1::4].count(0) * 2 >= units32
                and _clean_utf32(data, "utf-32-be")):
            return "utf-32be"
    even = data[0::2].count(0)
    odd = data[1::2].count(0)
    least = max(2, n // 512)  # one NUL per 256 code units at least
    if odd >= least and odd > even * 3 and _no_lone_surrogate(data, "utf-16-le"):
        return "utf-16le"
    if even >= least and even > odd * 3 and _no_lone_surrogate(data, "utf-16-be"):
        return "utf-16be"
    return None


def _clean_utf32(data: bytes, codec: str) -> bool:
    try:
        return _CONTROL.search(data.decode(codec)) is None
    except UnicodeDecodeError:
        return False


def _no_lone_surrogate(data: bytes, codec: str) -> bool:
    """True when ``data`` decodes as UTF-16 without a lone surrogate or a control character
    (C0 but TAB, LF, FF, CR: a JPEG header's NULs fall in a UTF-16 pattern too)."""
    try:
        text = (data if len(data) % 2 == 0 else data[:-1]).decode(codec)
    except UnicodeDecodeError:
        return False
    return _CONTROL.search(text) is None


_CONTROL = re.compile("[\x00-\x08\x0b\x0e-\x1f]")


def looks_binary(data: bytes | bytearray | memoryview) -> bool:
    """Tell whether ``data`` is binary rather than text (spec 004 "The binary rule").

    :param data: raw bytes (``bytes``, ``bytearray`` or ``memoryview``); only the first
        8 KiB are read.
    :returns: True when the window holds a NUL byte and neither starts with a byte order mark
        nor is UTF-16/UTF-32 shaped.
    :raises TypeError: ``data`` is not bytes-like.

    >>> looks_binary(b"\\x89PNG\\r\\n\\x1a\\n\\x00\\x00\\x00\\rIHDR")
    True
    >>> looks_binary("caf\\u00e9".encode("utf-16-le"))
    False
    """
    if not isinstance(data, bytes):
        if isinstance(data, (bytearray, memoryview)):
            data = bytes(data[:BINARY_WINDOW])
        else:
            raise TypeError(f"data must be bytes-like, not {type(data).__name__}")
    head = data[:BINARY_WINDOW]
    if 0 not in head:
        return False
    if bom_charset(head) is not None:
        return False
    return utf16_32_shape(head[: len(head) & ~3]) is None
