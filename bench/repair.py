#!/usr/bin/env python3
"""Mojibake repair: onemail vs ftfy, in one run.

* ``synthetic.jsonl`` (``../shared/corpus/mojibake``): exact repairs per chain type, and "clean
  kept": the originals, which must come back unchanged.
* ``ftfy-cases/``: the real-world cases (in-the-wild, language-names, synthetic) scored against
  ``fixed-encoding`` (else ``fixed``), and the negative cases, which must not change.
  onemail is compared on encoding repair only, so ftfy is run as ``ftfy.fix_encoding``.

CPU time (``time.process_time``) of the repair calls, same inputs, same run.

Usage: ``python bench/repair.py [--failures TYPE]``. Needs ftfy (``pip install -e '.[bench]'``);
installs nothing; without ftfy only onemail is measured.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MOJIBAKE = (ROOT / ".." / "shared" / "corpus" / "mojibake").resolve()
REAL = ("in-the-wild", "language-names", "synthetic")


def synthetic() -> list[dict]:
    with open(MOJIBAKE / "synthetic.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def ftfy_cases(name: str) -> list[dict]:
    return json.loads((MOJIBAKE / "ftfy-cases" / f"{name}.json").read_text(encoding="utf-8"))


def expected(case: dict) -> str:
    return case.get("fixed-encoding", case["fixed"])


def fixers():
    from onemail.detect import repair

    out = [("onemail", lambda t: repair(t).text)]
    try:
        import ftfy

        out.append((f"ftfy {ftfy.__version__}", ftfy.fix_encoding))
    except ImportError:
        print("ftfy not installed: skipped", file=sys.stderr)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--failures", metavar="TYPE", help="list onemail's failures of this chain type")
    args = ap.parse_args(argv)
    cases = synthetic()
    real = [c for n in REAL for c in ftfy_cases(n)]
    negative = ftfy_cases("negative")
    fx = fixers()
    by_type = defaultdict(list)
    for i, c in enumerate(cases):
        by_type[c["type"]].append(i)
    results = {}
    for name, fn in fx:
        t0 = time.process_time()
        fixed = [fn(c["mojibake"]) for c in cases]
        kept = [fn(c["original"]) == c["original"] for c in cases]
        real_ok = [fn(c["original"]) == expected(c) for c in real]
        neg_ok = [fn(c["original"]) == c["original"] for c in negative]
        cpu = time.process_time() - t0
        results[name] = (fixed, kept, real_ok, neg_ok, cpu)
    names = [n for n, _ in fx]
    print(f"{'chain type':24} {'n':>4} " + " ".join(f"{n:>14}" for n in names))
    for t in sorted(by_type):
        idx = by_type[t]
        cells = " ".join(
            f"{sum(results[n][0][i] == cases[i]['original'] for i in idx) / len(idx):>14.1%}" for n in names)
        print(f"{t:24} {len(idx):>4} {cells}")
    rows = [("clean originals kept", lambda r: sum(r[1]) / len(r[1])),
            ("ftfy real-world", lambda r: sum(r[2]) / len(r[2])),
            ("ftfy negative kept", lambda r: sum(r[3]) / len(r[3]))]
    for label, f in rows:
        print(f"{label:24} {'':>4} " + " ".join(f"{f(results[n]):>14.1%}" for n in names))
    print(f"{'real-world cases':24} {len(real):>4}; negative {len(negative)}")
    for n in names:
        print(f"{n}: cpu {results[n][4]:.3f} s")
    if len(names) > 1:
        print(f"speed ratio {names[1]} / onemail: {results[names[1]][4] / results['onemail'][4]:.2f}x")
    if args.failures:
        from onemail.detect import render_chain, repair

        for i in by_type.get(args.failures, []):
            c = cases[i]
            r = repair(c["mojibake"])
            if r.text != c["original"]:
                print(f"  {c['id']} {render_chain(r.steps)!r}: {c['mojibake'][:50]!r} -> {r.text[:40]!r} "
                      f"want {c['original'][:40]!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
