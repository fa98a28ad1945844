#!/usr/bin/env python3
"""Write repair's Chinese character model from text that is in neither corpus.

The counts come from **langdetect 1.0.9** (Apache-2.0, installed by the ``bench`` extra):
its ``zh-cn`` and ``zh-tw`` profiles (``langdetect/profiles/<code>``, JSON n-gram counts of
Wikipedia text in simplified and in traditional Chinese), and its ``ja`` profile (Japanese: the
other language whose text is written with the characters of GBK's and Big5's double-byte
sequences, kana among them), read as data; langdetect's code is not imported. The visible corpora under ``../shared/corpus`` are not read; nor is lingua,
whose Chinese character frequencies ``scripts/gen_mojibake.py`` draws the generated mojibake
cases from (so bench/repair.py measures the model on text it was not fitted to).

langdetect folds ideographs into classes when it counts (``NGram.KANJI_*`` of its
``utils/messages.properties``: the class's first character stands for all of them), but its
profiles were counted with fewer classes than it ships: a class's first character has the
count of the members that were folded into it, and many members have a count of their own.
So a class's first character's count is shared evenly among it and the members that have no
count of their own; every other ideograph keeps its count.

The unit is a character of the two Chinese pages' double-byte sequences: ideographs, and the
punctuation and symbols the profiles count (``，。、（）：《》；「」－``; langdetect folds the
hiragana and the katakana blocks into ``あ`` and ``ア``, whose counts are shared evenly among the
kana GBK and Big5 encode). Hangul (which neither page encodes) is left out.

Written to ``src/onemail/detect/_tables/chinese.py``:

``CHINESE_CHARS`` (the characters either profile counts, in code point order),
``SIMPLIFIED_COUNTS``, ``TRADITIONAL_COUNTS`` and ``JAPANESE_COUNTS`` (their counts in zh-cn,
zh-tw and ja, rounded, 0 where a profile lacks one), ``SIMPLIFIED_UNSEEN``,
``TRADITIONAL_UNSEEN`` and ``JAPANESE_UNSEEN`` (the count of a character a profile lacks: half the least count it keeps, as D51 does for Korean) and
``PAGE_CHARS`` (how many characters the double-byte sequences of GBK and Big5 decode to: what
a reading of other bytes picks from, counted with CPython's codecs).

Deterministic: sorted output, no timestamps; the header names the package, its version and the
sha256 of the files read.

Usage: ``python scripts/train_chinese.py [--check]``.
"""

from __future__ import annotations

import codecs
import hashlib
import importlib.metadata
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import train_detect  # noqa: E402  (the same way of finding an installed package's files)

REPO = train_detect.REPO
OUT = REPO / "src" / "onemail" / "detect" / "_tables" / "chinese.py"
PROFILES = {"simplified": "zh-cn", "traditional": "zh-tw", "japanese": "ja"}

_read: dict[str, bytes] = {}


def _bytes(path: Path, key: str) -> bytes:
    data = path.read_bytes()
    _read[key] = data
    return data


def classes() -> dict[str, str]:
    """langdetect's ideograph classes: ``{first character: all its characters}``."""
    path = train_detect._package_dir("langdetect") / "utils" / "messages.properties"
    out = {}
    for line in _bytes(path, "langdetect/messages.properties").decode("utf-8").splitlines():
        if line.startswith("NGram.KANJI_"):
            members = codecs.decode(line.split("=", 1)[1], "unicode_escape")
            out[members[0]] = members
    return out


def page_chars() -> set[str]:
    """The characters the double-byte sequences of GBK and Big5 decode to (CPython's codecs)."""
    found = set()
    for codec in ("gbk", "big5"):
        decode = codecs.getdecoder(codec)
        for lead in range(0x81, 0xFF):
            for trail in range(0x40, 0xFF):
                try:
                    ch = decode(bytes((lead, trail)))[0]
                except UnicodeDecodeError:
                    continue
                if len(ch) == 1 and not ch.isascii():
                    found.add(ch)
    return found


#: The blocks langdetect folds into one character each (its ``NGram.normalize``): hiragana
#: into ``あ``, katakana into ``ア``.
KANA_BLOCKS = {"\u3042": ("\u3040", "\u309f"), "\u30a2": ("\u30a0", "\u30ff")}


def counts(code: str, folded: dict[str, str], page: set[str]) -> tuple[dict[str, int], int]:
    """The character counts of langdetect's profile ``code`` (classes and kana blocks shared
    out, see the module docstring) and the count of a character it lacks."""
    path = train_detect._package_dir("langdetect") / "profiles" / code
    freq = json.loads(_bytes(path, f"langdetect/{code}"))["freq"]
    own = {g: n for g, n in freq.items() if len(g) == 1 and not g.isascii() and g in page}
    shared: dict[str, float] = {}
    for g, n in own.items():
        if g in KANA_BLOCKS:
            low, high = KANA_BLOCKS[g]
            members = sorted(ch for ch in page if low <= ch <= high)
        else:
            members = [m for m in folded.get(g, g) if m == g or m not in own]
        for m in members:
            shared[m] = shared.get(m, 0.0) + n / len(members)
    return {ch: max(1, round(n)) for ch, n in shared.items()}, min(own.values()) // 2


def _wrap(name: str, text: str) -> list[str]:
    lines = [f"{name} = ("]
    lines.extend(f'    "{text[i:i + 48]}"' for i in range(0, len(text), 48))
    lines.append(")")
    return lines


def _numbers(name: str, values: list[int]) -> list[str]:
    lines = [f"{name} = ("]
    lines.extend("    " + ", ".join(map(str, values[i:i + 16])) + "," for i in range(0, len(values), 16))
    lines.append(")")
    return lines


def build() -> str:
    """Return the text of the generated module."""
    _read.clear()
    folded = classes()
    page = page_chars()
    tables = {kind: counts(code, folded, page) for kind, code in PROFILES.items()}
    chars = sorted(set().union(*(c for c, _ in tables.values())))
    h = hashlib.sha256()
    for key in sorted(_read):
        h.update(key.encode() + b"\0" + hashlib.sha256(_read[key]).digest())
    lines = [
        f"# GENERATED by scripts/train_chinese.py from the zh-cn, zh-tw and ja profiles of langdetect "
        f"{importlib.metadata.version('langdetect')}",
        f"# (Apache-2.0; {len(_read)} files, sha256 {h.hexdigest()[:16]}): character counts of Wikipedia text, no text.",
        "# Neither corpus under ../shared/corpus was read, nor lingua (the generated cases' source). DO NOT EDIT - regenerate.",
        '"""Generated Chinese character model; see the header and scripts/train_chinese.py."""',
        "",
        "# The characters either profile counts, in code point order.",
        *_wrap("CHINESE_CHARS", "".join(chars)),
        "# Their counts in simplified (zh-cn) and traditional (zh-tw) Chinese and in Japanese (ja) text, 0: not counted there.",
    ]
    for kind in PROFILES:
        lines += _numbers(f"{kind.upper()}_COUNTS", [tables[kind][0].get(ch, 0) for ch in chars])
    lines.append("# The count of an ideograph a profile lacks (half the least count it keeps).")
    for kind in PROFILES:
        lines.append(f"{kind.upper()}_UNSEEN = {tables[kind][1]}")
    lines.append("# The characters of GBK's and Big5's double-byte sequences (CPython's codecs).")
    lines.append(f"PAGE_CHARS = {len(page)}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    return train_detect.write_or_check(build, OUT, "scripts/train_chinese.py", argv, __doc__.splitlines()[0])


if __name__ == "__main__":
    sys.exit(main())
