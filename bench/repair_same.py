#!/usr/bin/env python3
"""Same answers: the mojibake repair of this checkout against the one of an earlier commit.

Every generated case of ``scripts/gen_mojibake.py`` (every chain, both sizes, the mojibake and
its clean original) for several seeds, every case of ``synthetic.jsonl`` and of the visible
``ftfy-cases`` (``../shared/corpus/mojibake``; mojibake, original and fixed texts) is repaired
by the ``src`` of this checkout and by the ``src`` of ``--old`` (a git revision, exported with
``git archive`` to a temporary folder), each in a process of its own. The text and the steps
(``render_chain``) of every answer are compared; speed work must show zero differences.

Usage: ``python bench/repair_same.py [--old REV] [--seeds 17,1,2] [--per-chain N]``
(default ``main``); exit status 1 when an answer differs.
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
MOJIBAKE = (ROOT / ".." / "shared" / "corpus" / "mojibake").resolve()

_DUMP = r"""
import json, sys
from onemail.detect import render_chain, repair
texts = json.load(sys.stdin)
out = []
for t in texts:
    r = repair(t)
    out.append([r.text, render_chain(r.steps)])
json.dump(out, sys.stdout)
"""


def inputs(seeds: list[int], per_chain: int) -> list[str]:
    """Every text to repair, in a fixed order (repeats kept once)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import gen_mojibake

    texts: list[str] = []
    for seed in seeds:
        for c in gen_mojibake.cases(seed, per_chain):
            texts += [c["mojibake"], c["original"]]
    with open(MOJIBAKE / "synthetic.jsonl", encoding="utf-8") as f:
        for line in f:
            c = json.loads(line)
            texts += [c["mojibake"], c["original"]]
    for path in sorted((MOJIBAKE / "ftfy-cases").glob("*.json")):
        for c in json.loads(path.read_text(encoding="utf-8")):
            texts += [c[k] for k in ("original", "fixed", "fixed-encoding") if isinstance(c.get(k), str)]
    return list(dict.fromkeys(texts))


def answers(src: Path, texts: list[str]) -> list[list[str]]:
    """Run the dump with ``src`` first on ``sys.path`` in a fresh process."""
    done = subprocess.run([sys.executable, "-c", _DUMP], check=True, capture_output=True,
                          input=json.dumps(texts).encode(), env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"})
    result: list[list[str]] = json.loads(done.stdout)
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", default="main", help="git revision to compare with (default main)")
    ap.add_argument("--seeds", default="17,1,2", help="gen_mojibake seeds, comma-separated")
    ap.add_argument("--per-chain", type=int, default=20, help="generated cases per chain and size")
    args = ap.parse_args(argv)
    texts = inputs([int(s) for s in args.seeds.split(",")], args.per_chain)
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.old, "src"], check=True,
                                 capture_output=True).stdout
        with tarfile.open(fileobj=BytesIO(archive)) as tar:
            tar.extractall(tmp, filter="data")
        old = answers(Path(tmp) / "src", texts)
    new = answers(ROOT / "src", texts)
    differ = 0
    for t, a, b in zip(texts, old, new, strict=True):
        if a != b:
            differ += 1
            if differ <= 20:
                print(f"DIFFERS {t[:50]!r}: {a[1]!r} {a[0][:40]!r} -> {b[1]!r} {b[0][:40]!r}")
    print(f"{len(texts)} texts repaired by {args.old} and this checkout (gen_mojibake seeds {args.seeds}, "
          f"per chain {args.per_chain}, both sizes; synthetic.jsonl; ftfy-cases): {differ} differ in text or steps")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
