"""The design's code-page tables and the reference decoder over them (spec 004 "Table layout").

All five double-byte code pages share one flat layout, ``index = (lead - 0x81) * 191 +
(trail - 0x40)`` (24 066 slots, U+0000 = unmapped); EUC-JP keeps JIS X 0212 (behind ``0x8F``)
in a second 94 x 94 table; half-width katakana are computed, ``U+FF61 + (byte - 0xA1)``.
The tables are generated from CPython's codecs by ``scripts/gen/detect.py`` and equal them
(tested pair by pair), which is why detection scores with the C codecs themselves;
:func:`reference_decode` is the design's decoder, kept as the executable statement of the
layout and for audits.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["PAGES", "SLOTS", "pair_table", "jisx0212_table", "slot", "reference_decode"]

PAGES = ("gbk", "big5", "shift_jis", "euc_kr", "euc_jp")
SLOTS = (0xFE - 0x81 + 1) * (0xFE - 0x40 + 1)

_cache: dict[str, str] = {}


def _build(runs: Iterable[tuple[int, str]]) -> str:
    table = ["\0"] * SLOTS
    for start, chars in runs:
        table[start : start + len(chars)] = chars
    return "".join(table)


def pair_table(page: str) -> str:
    """Return the flat 24 066-character table of ``page`` (one of :data:`PAGES`)."""
    t = _cache.get(page)
    if t is None:
        from ._tables import pairs

        t = _cache[page] = _build(getattr(pairs, f"RUNS_{page.upper()}"))
    return t


def jisx0212_table() -> str:
    """Return the 94 x 94 JIS X 0212 table (``(row - 0xA1) * 94 + (cell - 0xA1)``)."""
    t = _cache.get("jisx0212")
    if t is None:
        from ._tables import pairs

        table = ["\0"] * (94 * 94)
        for start, chars in pairs.RUNS_JISX0212:
            table[start : start + len(chars)] = chars
        t = _cache["jisx0212"] = "".join(table)
    return t


def slot(lead: int, trail: int) -> int:
    """Return the flat index of a byte pair, or -1 outside ``0x81..0xFE`` x ``0x40..0xFE``."""
    if 0x81 <= lead <= 0xFE and 0x40 <= trail <= 0xFE:
        return (lead - 0x81) * 191 + (trail - 0x40)
    return -1


def reference_decode(data: bytes, page: str) -> tuple[str, int]:
    """Decode ``data`` with the design's table for ``page``; return ``(text, errors)``.

    ASCII passes through; a byte pair the table does not map, or a lead byte without a trail,
    is one error and one U+FFFD (consuming the lead only when the trail is ASCII, as CPython
    does). Shift_JIS ``0xA1..0xDF`` and EUC-JP ``0x8E`` + ``0xA1..0xDF`` are half-width
    katakana, computed.

    >>> reference_decode("日本".encode("euc_jp"), "euc_jp")
    ('日本', 0)
    """
    table = pair_table(page)
    out: list[str] = []
    errors = 0
    i, n = 0, len(data)
    while i < n:
        b = data[i]
        if b < 0x80:
            out.append(chr(b))
            i += 1
            continue
        if page == "shift_jis" and 0xA1 <= b <= 0xDF:
            out.append(chr(0xFF61 + b - 0xA1))
            i += 1
            continue
        if page == "euc_jp" and b in (0x8E, 0x8F) and i + 1 < n:
            if b == 0x8E and 0xA1 <= data[i + 1] <= 0xDF:
                out.append(chr(0xFF61 + data[i + 1] - 0xA1))
                i += 2
                continue
            if b == 0x8F and i + 2 < n and data[i + 1] >= 0xA1 and data[i + 2] >= 0xA1:
                c = jisx0212_table()[(data[i + 1] - 0xA1) * 94 + data[i + 2] - 0xA1]
                if c != "\0":
                    out.append(c)
                    i += 3
                    continue
        if i + 1 < n:
            k = slot(b, data[i + 1])
            c = table[k] if k >= 0 else "\0"
            if c != "\0":
                out.append(c)
                i += 2
                continue
        out.append("\ufffd")
        errors += 1
        i += 1 if i + 1 >= n or data[i + 1] < 0x80 else 2
    return "".join(out), errors
