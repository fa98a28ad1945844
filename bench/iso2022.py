"""Benchmark: onemail's ISO-2022-JP decoder against CPython's C ``iso2022_jp`` codec.

Same bytes for both (Japanese prose written by CPython's encoder, about 1.7 MB), best of
several runs; prints MB/s and the ratio onemail / CPython. The "+damage" line adds one half-width
katakana escape and one stray byte per line (onemail's general path, which reports them).
Run: ``python bench/iso2022.py``.
"""

from __future__ import annotations

import time
from functools import partial

import _timing

from onemail.text import for_label

LINE = "日本語のテキストをエンコードします。漢字とかなの混じった長い行が続きます abc 123\r\n"

# this script times wall clock, the best of 9 calls
best = partial(_timing.best, repeat=9, clock=time.perf_counter)


def main() -> None:
    cs = for_label("iso-2022-jp")
    text = LINE * 20000
    data = text.encode("iso2022_jp")
    assert cs.decode(data) == text
    damaged = data.replace(b"abc", b"\x1b(I1\x1b(B\x80bc")
    for name, payload in (("iso-2022-jp", data), ("iso-2022-jp+damage", damaged)):
        mb = len(payload) / 1e6
        ours = best(cs.decode, payload)
        theirs = best(lambda d: d.decode("iso2022_jp", "replace"), payload)
        print(f"decode {name:19}: onemail {mb / ours:7.1f} MB/s  cpython {mb / theirs:7.1f} MB/s"
              f"  ratio {theirs / ours:.2f}")


if __name__ == "__main__":
    main()
