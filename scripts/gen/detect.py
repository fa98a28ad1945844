"""Generate the detector's tables (spec 004 "Table layout", "Generation", "Common-character set").

Outputs, all read from CPython's own codecs (nothing is copied from a third-party library):

* ``src/onemail/detect/_tables/pairs.py``: the five double-byte code pages of the design
  (``gbk``, ``big5``, ``shift_jis``, ``euc_kr``, and JIS X 0208 of ``euc_jp``) in the flat
  layout ``index = (lead - 0x81) * 191 + (trail - 0x40)`` (24 066 slots, U+0000 = unmapped),
  plus JIS X 0212 (EUC-JP ``0x8F`` + two bytes ``0xA1..0xFE``) as its own 94 x 94 table indexed
  ``(row - 1) * 94 + (cell - 1)``. Half-width katakana are not tabulated (computed:
  ``U+FF61 + (byte - 0xA1)``). Byte pairs CPython rejects stay 0 (the design tracks CPython
  exactly). Tables are stored as runs ``(first index, "characters")`` so the zeros cost nothing.
* ``src/onemail/detect/_tables/common.py``: ``COMMON_HAN``, the union of GB2312 level 1 (GBK
  lead ``0xB0..0xD7``, trail ``0xA1..0xFE``) and Big5 level 1 (lead ``0xA4..0xC6``, every trail),
  and ``JIS_LEVEL1``, the JIS X 0208 level-1 kanji (EUC-JP lead ``0xB0..0xCF``, trail
  ``0xA1..0xFE``; rows 16-47), each a sorted ``str`` of ideographs, and ``KS_HANGUL``, the
  2 350 Hangul syllables of KS X 1001 (EUC-KR lead ``0xB0..0xC8``), the Hangul counterpart of
  the common ideographs (an extension of the design, D7).
"""

from __future__ import annotations


def _lit(s: str) -> str:
    """Return a double-quoted literal: printable characters as themselves, the rest escaped."""
    out = []
    for c in s:
        o = ord(c)
        if c in '"\\' or not c.isprintable() or 0xD800 <= o <= 0xDFFF or 0xE000 <= o <= 0xF8FF:
            out.append(f"\\x{o:02x}" if o <= 0xFF else f"\\u{o:04x}" if o <= 0xFFFF else f"\\U{o:08x}")
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


def _wrapped(name: str, s: str, width: int = 48) -> str:
    lines = [f"{name} = ("]
    lines += [f"    {_lit(s[i : i + width])}" for i in range(0, len(s), width)]
    return "\n".join(lines) + "\n)\n"

PAGES = {"gbk": "gbk", "big5": "big5", "shift_jis": "shift_jis", "euc_kr": "euc_kr", "euc_jp": "euc_jp"}
SLOTS = (0xFE - 0x81 + 1) * 191


def _decode_pair(codec: str, lead: int, trail: int) -> str:
    try:
        s = bytes((lead, trail)).decode(codec)
    except UnicodeDecodeError:
        return "\0"
    return s if len(s) == 1 else "\0"


def flat_table(codec: str) -> str:
    """Return the 24 066-character flat table of ``codec`` (U+0000 = unmapped pair)."""
    out = []
    for lead in range(0x81, 0xFF):
        for trail in range(0x40, 0xFF):
            if codec == "euc_jp" and not (lead >= 0xA1 and trail >= 0xA1):
                out.append("\0")  # only JIS X 0208 lives in the pair table (spec 004 "EUC-JP")
            else:
                out.append(_decode_pair(codec, lead, trail))
    return "".join(out)


def jisx0212_table() -> str:
    """Return the 94 x 94 JIS X 0212 table of EUC-JP (``0x8F`` prefix), U+0000 = unmapped."""
    out = []
    for row in range(0xA1, 0xFF):
        for cell in range(0xA1, 0xFF):
            try:
                s = bytes((0x8F, row, cell)).decode("euc_jp")
            except UnicodeDecodeError:
                s = "\0"
            out.append(s if len(s) == 1 else "\0")
    return "".join(out)


def _runs(table: str) -> list[tuple[int, str]]:
    runs, i, n = [], 0, len(table)
    while i < n:
        if table[i] == "\0":
            i += 1
            continue
        j = i
        while j < n and table[j] != "\0":
            j += 1
        runs.append((i, table[i:j]))
        i = j
    return runs


def _runs_literal(name: str, table: str) -> str:
    lines = [f"{name} = ("]
    for start, chars in _runs(table):
        for k in range(0, len(chars), 48):
            lines.append(f"    ({start + k}, {_lit(chars[k : k + 48])}),")
    lines.append(")")
    return "\n".join(lines) + "\n"


def body_pairs() -> str:
    parts = [f"SLOTS = {SLOTS}\n"]
    for name, codec in PAGES.items():
        parts.append(_runs_literal(f"RUNS_{name.upper()}", flat_table(codec)))
    parts.append(_runs_literal("RUNS_JISX0212", jisx0212_table()))
    return "\n".join(parts)


def _cells(codec: str, leads: range, trails) -> set[str]:
    out = set()
    for lead in leads:
        for trail in trails:
            c = _decode_pair(codec, lead, trail)
            if c != "\0" and "\u3400" <= c <= "\u9fff":
                out.add(c)
    return out


def common_han() -> str:
    gb = _cells("gbk", range(0xB0, 0xD8), range(0xA1, 0xFF))
    b5 = _cells("big5", range(0xA4, 0xC7), [*range(0x40, 0x7F), *range(0xA1, 0xFF)])
    return "".join(sorted(gb | b5))


def ks_hangul() -> str:
    """The 2 350 Hangul syllables of KS X 1001 (EUC-KR rows 0xB0..0xC8): the common ones."""
    out = set()
    for lead in range(0xB0, 0xC9):
        for trail in range(0xA1, 0xFF):
            c = _decode_pair("euc_kr", lead, trail)
            if "\uac00" <= c <= "\ud7a3":
                out.add(c)
    return "".join(sorted(out))


def jis_level1() -> str:
    return "".join(sorted(_cells("euc_jp", range(0xB0, 0xD0), range(0xA1, 0xFF))))


def body_common() -> str:
    return (
        "# GB2312 level 1 (GBK B0A1-D7FE) | Big5 level 1 (A440-C6FE): the 'common' ideographs\n"
        + _wrapped("COMMON_HAN", common_han())
        + "\n# JIS X 0208 level 1 (EUC-JP B0A1-CFFE, rows 16-47): the newspaper kanji\n"
        + _wrapped("JIS_LEVEL1", jis_level1())
        + "\n# KS X 1001 Hangul (EUC-KR B0A1-C8FE): the 2 350 syllables in common use\n"
        + _wrapped("KS_HANGUL", ks_hangul())
    )


OUTPUTS = [
    ("src/onemail/detect/_tables/pairs.py", [f"cpython:{c}" for c in PAGES.values()], body_pairs),
    ("src/onemail/detect/_tables/common.py",
     ["cpython:big5", "cpython:euc_jp", "cpython:euc_kr", "cpython:gbk"],
     body_common),
]
