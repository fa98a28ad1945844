#!/usr/bin/env python3
"""Same answers: the detector of this checkout against the one of an earlier commit.

Every file of both visible corpora (``detect``, ``detect-fresh``) and its 64- and 512-byte
prefixes (all of them, informative or not) is detected by the ``src`` of this checkout and by
the ``src`` of ``--old`` (a git revision, exported with ``git archive`` to a temporary folder),
each in a process of its own. The charset and confidence of every answer are compared, and
the two best candidate rows (label, rounded score) and ``looks_binary`` beside them. Speed work
must show zero differences there; rows below the best two may differ where a row stops at its
bound (D16): they are counted apart.

Usage: ``python bench/detect_same.py [--old REV]`` (default ``main``); exit status 1 when an
answer differs.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODES = (None, 64, 512)

_DUMP = r"""
import csv, json, sys
from pathlib import Path
from onemail.detect import detect, looks_binary
out = []
base = Path(sys.argv[1])
for corpus in ("detect", "detect-fresh"):
    with open(base / corpus / "MANIFEST.tsv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    for r in rows:
        data = (base / corpus / r["path"]).read_bytes()
        for mode in (None, 64, 512):
            d = data if mode is None else data[:mode]
            found = detect(d)
            out.append([corpus, r["path"], mode, found.charset, found.confidence,
                        [[c.charset, c.score] for c in found.candidates], looks_binary(d)])
json.dump(out, sys.stdout)
"""


def answers(src: Path) -> list[list]:
    """Run the dump with ``src`` first on ``sys.path`` in a fresh process."""
    corpus = (ROOT / ".." / "shared" / "corpus").resolve()
    done = subprocess.run([sys.executable, "-c", _DUMP, str(corpus)], check=True, capture_output=True,
                          env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"})
    result: list[list] = json.loads(done.stdout)
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", default="main", help="git revision to compare with (default main)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.old, "src"], check=True,
                                 capture_output=True).stdout
        with tarfile.open(fileobj=BytesIO(archive)) as tar:
            tar.extractall(tmp, filter="data")
        old = answers(Path(tmp) / "src")
    new = answers(ROOT / "src")
    assert len(old) == len(new)
    differ = rows_differ = 0
    for a, b in zip(old, new, strict=True):
        assert a[:3] == b[:3]
        if a[3:5] != b[3:5] or a[6] != b[6] or a[5][:2] != b[5][:2]:
            differ += 1
            print(f"DIFFERS {a[0]}/{a[1]} prefix {a[2]}: {a[3]} {a[4]} {a[5][:2]} -> {b[3]} {b[4]} {b[5][:2]}")
        elif a[5] != b[5]:
            rows_differ += 1
    print(f"{len(new)} answers compared with {args.old} (files of detect and detect-fresh, whole and "
          f"64/512-byte prefixes): {differ} differ in charset, confidence, binary or the "
          f"two best candidates; {rows_differ} more in lower candidate rows only (bounds, D16)")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
