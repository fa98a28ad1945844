#!/usr/bin/env python3
"""Charset decoding speed: onemail's decoders against CPython's nearest C codec, in one run.

For every charset of the detection corpus (``../shared/corpus/detect/``, files grouped by the
decoder their ``MANIFEST.tsv`` encoding reaches; BOM-sniffing sets such as ``utf-16`` and
binary files left out) the files are concatenated and decoded with onemail
(``Charset.decode(data, issues)``: with an issue list, the realistic call) and with CPython's
nearest codec (``bytes.decode(codec, "replace")``). Best wall time of several runs, each run long
enough to time, the two interleaved; times are CPU time of this process (``time.process_time``:
a neighbour's load on a shared machine does not count). MB/s are of input bytes (10**6);
``ratio`` is onemail's speed / CPython's.
``same`` says whether the two texts are equal (they differ where WHATWG and CPython disagree,
e.g. shift_jis vs cp932 on a few pairs, or big5 vs big5hkscs).

Goals (issue 2): valid text, UTF-8 and single-byte >= 0.9, CJK >= 0.7. Then the damaged-text
lines (1 MB and 4 MB: same MB/s means linear time) and ``for_label`` per call (goal < 1 us).

Run: ``python bench/charsets.py [--min-time SECONDS]``. Installs nothing; needs only CPython.
"""

from __future__ import annotations

import argparse
import csv
import random
import sys
import time
import timeit
from collections import defaultdict
from pathlib import Path

from onemail.text import for_label

ROOT = Path(__file__).resolve().parent.parent
CORPUS = (ROOT / ".." / "shared" / "corpus" / "detect").resolve()

# Manifest encodings without a label of their own in onemail's tables (Python codec names).
LABELS = {"mac-roman": "macintosh", "mac-cyrillic": "x-mac-cyrillic"}
SKIP = {"binary", "utf-16", "utf-32", "utf-8-sig"}  # BOM-sniffing sets and non-text
# onemail decoder key -> CPython's nearest codec.
NEAREST = {
    "utf-8": "utf-8", "utf-16le": "utf-16-le", "utf-16be": "utf-16-be",
    "utf-32le": "utf-32-le", "utf-32be": "utf-32-be",
    "macintosh": "mac-roman", "x-mac-cyrillic": "mac-cyrillic", "koi8-r": "koi8-r", "koi8-u": "koi8-u",
    "windows-874": "cp874", "gbk": "gbk", "gb18030": "gb18030", "big5": "big5hkscs",
    "euc-jp": "euc_jp", "shift_jis": "cp932", "euc-kr": "cp949", "johab": "johab",
    "iso-2022-jp": "iso2022_jp", "iso-2022-kr": "iso2022_kr", "hz-gb-2312": "hz", "utf-7": "utf-7",
}
CJK = {"gbk", "gb18030", "big5", "euc-jp", "shift_jis", "euc-kr", "johab"}
# Issue 2's goals on valid text; the stateful families (ISO-2022, HZ, UTF-7) have their own issue.
STATEFUL = {"iso-2022-jp", "iso-2022-kr", "hz-gb-2312", "utf-7", "cp50220", "cp50221", "cp50222",
            "iso-2022-jp-1", "iso-2022-jp-2", "iso-2022-jp-3"}


def goal(key: str) -> float | None:
    if key in STATEFUL:
        return None
    return 0.7 if key in CJK else 0.9


def nearest(key: str) -> str:
    if key in NEAREST:
        return NEAREST[key]
    if key.startswith("windows-"):
        return "cp" + key[8:]
    if key.startswith("ibm"):
        return "cp" + key[3:]
    if key.startswith("iso-8859-"):
        return "iso8859_" + key[9:].removesuffix("-i")
    return key


def file_sets() -> dict[str, list[bytes]]:
    """Return ``{decoder key: [file bytes, ...]}`` from the corpus manifest."""
    sets: dict[str, list[bytes]] = defaultdict(list)
    with open(CORPUS / "MANIFEST.tsv", encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            enc = row["encoding"]
            if enc in SKIP:
                continue
            cs = for_label(LABELS.get(enc, enc))
            if cs is None:
                print(f"# no onemail charset for {enc}", file=sys.stderr)
                continue
            sets[cs.key].append((CORPUS / row["path"]).read_bytes())
    return dict(sets)


def _timeit(fn, number: int) -> float:
    # CPU time of this process: a neighbour's load on the shared machine does not count.
    return timeit.timeit(fn, number=number, timer=time.process_time)


def _calibrate(fn, min_time: float) -> int:
    """Number of calls of ``fn()`` that take about ``min_time`` CPU seconds."""
    number = 1
    while True:
        t = _timeit(fn, number)
        if t >= min_time / 4 or number > 1_000_000:
            return max(1, int(number * min_time / max(t, 1e-9)))
        number *= 2


def compare(ours, theirs, min_time: float, repeat: int = 9) -> tuple[float, float]:
    """CPU seconds per call of ``ours()`` and ``theirs()``: best of ``repeat`` interleaved runs."""
    n_ours, n_theirs = _calibrate(ours, min_time), _calibrate(theirs, min_time)
    best_ours = best_theirs = float("inf")
    for r in range(repeat):
        if r % 2:
            best_ours = min(best_ours, _timeit(ours, n_ours) / n_ours)
        best_theirs = min(best_theirs, _timeit(theirs, n_theirs) / n_theirs)
        if not r % 2:
            best_ours = min(best_ours, _timeit(ours, n_ours) / n_ours)
    return best_ours, best_theirs


def row(label: str, size: int, ours: float, theirs: float, codec: str, extra: str = "") -> str:
    mb = size / 1e6
    return (f"{label:<28} {size:>9} B  onemail {mb / ours:8.1f} MB/s  cpython {mb / theirs:8.1f} MB/s"
            f" ({codec:<10})  ratio {theirs / ours:5.2f}{extra}")


def bench_valid(min_time: float) -> None:
    print("# valid text from ../shared/corpus/detect (onemail with an issue list; CPython 'replace')")
    for key, files in sorted(file_sets().items()):
        cs = for_label(key)
        codec = nearest(key)
        data = b"".join(files)
        try:
            same = cs.decode(data) == data.decode(codec, "replace")
        except ImportError as e:  # a decoder family not written yet
            print(f"{key}: not available ({e})")
            continue
        ours, theirs = compare(lambda cs=cs, data=data: cs.decode(data, []),
                                      lambda data=data, codec=codec: data.decode(codec, "replace"), min_time)
        want = goal(key)
        flag = "" if want is None or theirs / ours >= want else f"  BELOW GOAL {want}"
        print(row(f"{key} ({len(files)} files)", len(data), ours, theirs, codec,
                  f"  same {'yes' if same else 'no '}{flag}"))


def damage(data: bytes, every: int, rng: random.Random) -> bytes:
    """Insert a random byte 0x80-0xFF about every ``every`` bytes (lead bytes without trails)."""
    out = bytearray()
    i = 0
    while i < len(data):
        step = rng.randrange(1, 2 * every)
        out += data[i:i + step]
        out.append(rng.randrange(0x80, 0x100))
        i += step
    return bytes(out)


def bench_damaged(min_time: float) -> None:
    print("# damaged text: a random byte 0x80-0xFF inserted about every 40 bytes; 1 MB vs 4 MB")
    sets = file_sets()
    for key in ("utf-8", "windows-1252", "utf-16le", "gb18030", "shift_jis", "big5", "euc-kr", "euc-jp"):
        if key not in sets:
            continue
        cs = for_label(key)
        codec = nearest(key)
        base = damage(b"".join(sets[key]), 40, random.Random(key))
        for size in (1_000_000, 4_000_000):
            data = (base * (size // len(base) + 1))[:size]
            try:
                cs.decode(data[:100])
            except ImportError as e:  # a decoder family not written yet
                print(f"{key}: not available ({e})")
                break
            ours, theirs = compare(lambda cs=cs, data=data: cs.decode(data, []),
                                          lambda data=data, codec=codec: data.decode(codec, "replace"),
                                          min_time, repeat=3)
            issues: list = []
            cs.decode(data, issues)
            print(row(f"{key} damaged {size // 1_000_000} MB", size, ours, theirs, codec,
                      f"  issues {len(issues)}"))


def bench_for_label() -> None:
    labels = ["ISO-8859-1", "utf-8", " Shift_JIS ", "cp1252", "x-unknown"]
    for label in labels:
        for_label(label)
    n = 200_000
    for label in labels:
        t = min(timeit.repeat(lambda label=label: for_label(label), number=n, repeat=5,
                              timer=time.process_time)) / n
        print(f"for_label({label!r}): {t * 1e9:.0f} ns per call (cached)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="onemail charset decoders vs CPython codecs")
    ap.add_argument("--min-time", type=float, default=0.03, help="CPU seconds per timed run (default 0.03)")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    bench_valid(args.min_time)
    bench_damaged(args.min_time)
    bench_for_label()
    print(f"# total {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
