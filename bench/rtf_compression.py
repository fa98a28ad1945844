#!/usr/bin/env python3
"""Compressed RTF: onemail vs the PyPI package ``compressed_rtf``, in one run.

Inputs: every stream of ``../shared/corpus/rtf/compressed/`` (with its RTF), and a ~20 MB RTF
made by cycling the corpus RTF (compressed by onemail so that both libraries decompress the
same stream). Speeds are MB/s of raw RTF per CPU second (``time.process_time``), same inputs,
same run; the ratio is onemail's speed over ``compressed_rtf``'s. ``compressed_rtf``'s
compressor scans the whole window for every byte, so it compresses only a prefix that fits
``--budget`` CPU seconds (the files in corpus order, or a prefix of the cycled RTF).
Sizes: our COMPSIZE against Outlook's original COMPSIZE, in total over the corpus ``LZFu``
streams, at both levels, and ``compressed_rtf``'s on the files it compressed.

Usage::

    python bench/rtf_compression.py [--budget SECONDS] [--big-mb MB]

Needs ``compressed_rtf`` (``pip install -e '.[bench]'``) for the comparison; installs nothing.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RTF = (ROOT / ".." / "shared" / "corpus" / "rtf").resolve()
sys.path.insert(0, str(ROOT / "src"))

from onemail.rtf import compress, decompress  # noqa: E402


def load() -> list[tuple[str, bytes, bytes]]:
    """Return ``[(group, stream, rtf)]`` for every compressed stream of the corpus."""
    with open(RTF / "MANIFEST.tsv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    rtf_of = {r["group"]: r["file"] for r in rows if r["kind"] in ("rtf-decompressed", "rtf-file")}
    return [(r["group"], (RTF / r["file"]).read_bytes(), (RTF / rtf_of[r["group"]]).read_bytes())
            for r in rows if r["kind"] == "compressed"]


def cpu(fn, items, repeat: int = 1) -> float:
    """CPU seconds of ``fn(item)`` over ``items`` (the best of ``repeat`` runs)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for item in items:
            fn(item)
        best = min(best, time.process_time() - start)
    return best


def mbps(nbytes: int, seconds: float) -> float:
    return nbytes / seconds / 1e6 if seconds > 0 else float("inf")


def budgeted(fn, items: list[bytes], budget: float) -> tuple[int, float, list[bytes]]:
    """Run ``fn`` on ``items`` in order until ``budget`` CPU seconds are spent.

    :returns: ``(raw bytes done, CPU seconds, outputs)``.
    """
    done, spent, outs = 0, 0.0, []
    for item in items:
        if spent >= budget:
            break
        start = time.process_time()
        outs.append(fn(item))
        spent += time.process_time() - start
        done += len(item)
    return done, spent, outs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", type=float, default=4.0,
                        help="CPU seconds for compressed_rtf's compressor per input set")
    parser.add_argument("--big-mb", type=float, default=20.0, help="size of the cycled RTF")
    args = parser.parse_args(argv)
    try:
        from importlib.metadata import version

        import compressed_rtf

        anchor = f"compressed_rtf {version('compressed_rtf')}"
    except ImportError:
        compressed_rtf = None
        anchor = "compressed_rtf (absent)"

    corpus = load()
    streams = [s for _, s, _ in corpus]
    raw = sum(len(r) for _, _, r in corpus)
    lzfu = [(s, r) for _, s, r in corpus if s[8:12] == b"LZFu"]
    lzfu_rtf = [r for _, r in lzfu]
    lzfu_raw = sum(len(r) for r in lzfu_rtf)
    big = bytearray()
    while len(big) < args.big_mb * 1e6:
        for _, _, rtf in corpus:
            big += rtf
    big = bytes(big[: int(args.big_mb * 1e6)])
    big_stream = compress(big)
    assert decompress(big_stream).data == big

    print(f"onemail vs {anchor}; corpus: {len(corpus)} streams, {raw / 1e6:.2f} MB raw RTF; "
          f"cycled RTF: {len(big) / 1e6:.1f} MB")

    # Decompression: the same streams for both.
    ours = cpu(decompress, streams, repeat=3)
    line = f"decompress corpus: onemail {mbps(raw, ours):.1f} MB/s"
    if compressed_rtf:
        theirs = cpu(compressed_rtf.decompress, streams)
        line += f", compressed_rtf {mbps(raw, theirs):.1f} MB/s, ratio {theirs / ours:.1f}x"
    print(line)
    ours = cpu(decompress, [big_stream])
    line = f"decompress cycled {len(big) / 1e6:.0f} MB: onemail {mbps(len(big), ours):.1f} MB/s"
    if compressed_rtf:
        theirs = cpu(compressed_rtf.decompress, [big_stream])
        line += f", compressed_rtf {mbps(len(big), theirs):.1f} MB/s, ratio {theirs / ours:.1f}x"
    print(line)

    # Compression.
    greedy_t = cpu(compress, lzfu_rtf)
    lazy_t = cpu(lambda r: compress(r, level=2), lzfu_rtf)
    line = (f"compress corpus ({lzfu_raw / 1e6:.2f} MB): onemail greedy "
            f"{mbps(lzfu_raw, greedy_t):.2f} MB/s, lazy {mbps(lzfu_raw, lazy_t):.2f} MB/s")
    anchor_sizes = None
    if compressed_rtf:
        done, spent, outs = budgeted(compressed_rtf.compress, lzfu_rtf, args.budget)
        speed = mbps(done, spent)
        line += (f"; compressed_rtf {speed:.3f} MB/s (first {len(outs)} files, "
                 f"{done / 1e3:.0f} KB); ratio greedy {mbps(lzfu_raw, greedy_t) / speed:.0f}x, "
                 f"lazy {mbps(lzfu_raw, lazy_t) / speed:.0f}x")
        anchor_sizes = (sum(int.from_bytes(o[:4], "little") for o in outs),
                        sum(int.from_bytes(s[:4], "little") for s, _ in lzfu[: len(outs)]))
    print(line)
    greedy_big = cpu(compress, [big])
    line = f"compress cycled {len(big) / 1e6:.0f} MB: onemail greedy {mbps(len(big), greedy_big):.2f} MB/s"
    if compressed_rtf:
        step = 4096
        done, spent = 0, 0.0
        while spent < args.budget / 2 and done + step <= len(big):  # a prefix within budget
            start = time.process_time()
            compressed_rtf.compress(big[: done + step])
            spent = time.process_time() - start
            done += step
            step *= 2
        speed = mbps(done, spent)
        line += (f"; compressed_rtf {speed:.3f} MB/s ({done / 1e3:.0f} KB prefix); "
                 f"ratio {mbps(len(big), greedy_big) / speed:.0f}x")
    print(line)

    # Sizes against Outlook's own streams.
    def compsize(stream: bytes) -> int:
        return int.from_bytes(stream[:4], "little")

    outlook = sum(compsize(s) for s, _ in lzfu)
    greedy = sum(compsize(compress(r)) for r in lzfu_rtf)
    lazy = sum(compsize(compress(r, level=2)) for r in lzfu_rtf)
    line = (f"COMPSIZE vs Outlook's ({len(lzfu)} LZFu streams, {outlook} bytes in total): "
            f"greedy {greedy} ({greedy / outlook:.4f}x), lazy {lazy} ({lazy / outlook:.4f}x)")
    if anchor_sizes:
        line += f"; compressed_rtf {anchor_sizes[0] / anchor_sizes[1]:.4f}x (its files)"
    print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
