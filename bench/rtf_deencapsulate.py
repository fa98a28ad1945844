"""Benchmark RTF de-encapsulation: onemail against RTFDE (and rtf-stream-parser with Node).

Runs every anchor on the same files in one run (the encapsulated RTF of
``../shared/corpus/rtf/rtf/``, or the files given) and prints MB/s (input bytes, 10**6 per
second) and onemail's ratio to each anchor. RTFDE is installed by ``pip install -e '.[bench]'``;
rtf-stream-parser by ``npm install`` in ``tools/rtf-oracle/node`` (skipped without Node).

    python bench/rtf_deencapsulate.py [--rounds N] [FILE...]
"""

from __future__ import annotations

import argparse
import json
import logging
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CORPUS_RTF = REPO.parent / "shared" / "corpus" / "rtf" / "rtf"
NODE_SCRIPT = REPO / "tools" / "rtf-oracle" / "node" / "deencapsulate.js"


def _files(paths: list[str]) -> list[Path]:
    from onemail.rtf import is_encapsulated

    candidates = [Path(p) for p in paths] if paths else sorted(CORPUS_RTF.glob("*.rtf"))
    return [p for p in candidates if is_encapsulated(p.read_bytes())]


def _time(func, inputs: list[bytes], rounds: int) -> tuple[float, int]:
    """Return (seconds, failures) for ``rounds`` passes over ``inputs``."""
    failures = 0
    start = time.perf_counter()
    for _ in range(rounds):
        for data in inputs:
            try:
                func(data)
            except Exception:  # an anchor failing on a file is counted, not fatal
                failures += 1
    return time.perf_counter() - start, failures


def _onemail(data: bytes) -> str:
    from onemail.rtf import deencapsulate

    return deencapsulate(data).text


def _rtfde(data: bytes):
    from RTFDE.deencapsulate import DeEncapsulator

    reader = DeEncapsulator(data)
    reader.deencapsulate()
    return reader.content


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="passes for onemail and Node")
    parser.add_argument("files", nargs="*", help="RTF files (default: the corpus)")
    args = parser.parse_args(argv)
    files = _files(args.files)
    inputs = [p.read_bytes() for p in files]
    size = sum(map(len, inputs))
    print(f"{len(files)} encapsulated RTF files, {size / 1e6:.2f} MB")

    seconds, failed = _time(_onemail, inputs, args.rounds)
    ours = size * args.rounds / seconds / 1e6
    print(f"onemail            {ours:8.2f} MB/s  ({failed} failed)")

    try:
        import RTFDE  # noqa: F401
    except ImportError:
        print("RTFDE              not installed (pip install -e '.[bench]')")
    else:
        logging.disable(logging.CRITICAL)  # RTFDE logs every file
        seconds, failed = _time(_rtfde, inputs, 1)  # RTFDE is slow: one pass
        theirs = size / seconds / 1e6
        print(f"RTFDE              {theirs:8.2f} MB/s  ({failed} failed)  "
              f"onemail/RTFDE = {ours / theirs:.1f}x")

    node = shutil.which("node")
    if node is None or not (NODE_SCRIPT.parent / "node_modules").exists():
        print("rtf-stream-parser  skipped (needs node and npm install in tools/rtf-oracle/node)")
    else:
        out = subprocess.run([node, str(NODE_SCRIPT), "bench", str(args.rounds),
                              *map(str, files)], capture_output=True, text=True, check=True)
        result = json.loads(out.stdout)
        theirs = result["bytes"] / result["seconds"] / 1e6
        print(f"rtf-stream-parser  {theirs:8.2f} MB/s  ({result['failed']} failed)  "
              f"onemail/rtf-stream-parser = {ours / theirs:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
