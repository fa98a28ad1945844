#!/usr/bin/env python3
"""Mojibake repair: onemail vs ftfy, in one run.

* **Visible cases**: ``synthetic.jsonl`` (``../shared/corpus/mojibake``), exact repairs per
  chain type, and "clean kept": the originals, which must come back unchanged; ``ftfy-cases/``:
  the real-world cases scored against ``fixed-encoding`` (else ``fixed``), and the negative
  cases, which must not change (or change into their ``fixed``: some expect their C1
  controls fixed). onemail is compared on encoding repair only, so ftfy is run
  as ``ftfy.fix_encoding``.
* **Generated cases** (``scripts/gen_mojibake.py``: text sampled from lingua's n-grams, in
  neither corpus; every chain of repair's pairs list, short and long texts), exact repairs per
  chain and size, **cross-validated**: the letters of a case's language are left out of the
  language model (the repair's common letters and letter weights come from the same data as
  the generated text) in a process of its own per language; East Asian languages are not in
  that model, their fold is the plain run (repair's Chinese and Japanese character model, D65,
  comes from langdetect's profiles, not from lingua, so their cases are held out by
  construction). Clean originals kept, in every language.
* **Speed**: CPU time (``time.process_time``, least of ``REPEAT`` passes) of onemail and ftfy
  on the clean generated originals of each language and on all the mojibake, same inputs,
  same run; the ratio is onemail's time over ftfy's (goal: at most 1 on clean text, at most 3
  on mojibake).
* **Memory** (``--memory``): peak memory ``repair`` allocates (``tracemalloc``) in a fresh
  process, on large clean and mojibake texts, as a multiple of the text's own size.

Usage: ``python bench/repair.py [--no-cv] [--memory] [--failures TYPE] [--per-chain N]``.
Needs ftfy and the n-gram packages (``pip install -e '.[bench]'``); installs nothing.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MOJIBAKE = (ROOT / ".." / "shared" / "corpus" / "mojibake").resolve()
REAL = ("in-the-wild", "language-names", "synthetic")
REPEAT = 5
for _sub in ("src", "scripts"):
    if str(ROOT / _sub) not in sys.path:
        sys.path.insert(0, str(ROOT / _sub))


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


def visible(fx) -> None:
    cases = synthetic()
    real = [c for n in REAL for c in ftfy_cases(n)]
    negative = ftfy_cases("negative")
    by_type = defaultdict(list)
    for i, c in enumerate(cases):
        by_type[c["type"]].append(i)
    results = {}
    for name, fn in fx:
        results[name] = ([fn(c["mojibake"]) for c in cases],
                         [fn(c["original"]) == c["original"] for c in cases],
                         [fn(c["original"]) == expected(c) for c in real],
                         [fn(c["original"]) in (c["original"], c.get("fixed")) for c in negative])
    names = [n for n, _ in fx]
    print(f"== visible cases (synthetic.jsonl, ftfy-cases)\n{'chain type':28} {'n':>4} "
          + " ".join(f"{n:>14}" for n in names))
    for t in sorted(by_type):
        idx = by_type[t]
        cells = " ".join(
            f"{sum(results[n][0][i] == cases[i]['original'] for i in idx) / len(idx):>14.1%}" for n in names)
        print(f"{t:28} {len(idx):>4} {cells}")
    rows = [("clean originals kept", 1, len(cases)), ("ftfy real-world", 2, len(real)),
            ("ftfy negative kept", 3, len(negative))]
    for label, k, n in rows:
        print(f"{label:28} {n:>4} " + " ".join(f"{sum(results[m][k]) / n:>14.1%}" for m in names))


def _fold(job: tuple[str | None, list[dict]]) -> list[tuple[str, bool, bool]]:
    """Repair ``cases`` with ``lang`` (lingua code) left out of the language model (its letters,
    common letters, neighbours, pages and ASCII letter frequencies); return
    ``[(id, mojibake repaired exactly, original kept)]``."""
    lang, cases = job
    for sub in ("src", "scripts"):
        if str(ROOT / sub) not in sys.path:
            sys.path.insert(0, str(ROOT / sub))
    if lang is not None:
        import train_detect

        from onemail.detect._tables import language as tables

        name = train_detect.LANGUAGES.get(lang)
        for table in (tables.LANGUAGES, tables.COMMON_LETTERS, tables.CONTEXTS, tables.ASCII_LETTERS):
            table.pop(name, None)
        for page in tables.PAGE_LANGUAGES.values():
            page.pop(name, None)
    from onemail.detect import repair

    return [(c["id"], repair(c["mojibake"]).text == c["original"], repair(c["original"]).text == c["original"])
            for c in cases]


def generated(per_chain: int, cv: bool, failures: str | None) -> list[dict]:
    import gen_mojibake
    import train_detect

    cases = gen_mojibake.cases(per_chain=per_chain)
    by_lang: dict[str, list[dict]] = defaultdict(list)
    for c in cases:
        held = cv and c["lang"] in train_detect.LANGUAGES
        by_lang[c["lang"] if held else None].append(c)
    jobs = sorted(by_lang.items(), key=lambda kv: kv[0] or "")
    if cv:
        # (chunksize 1: with maxtasksperchild a task is a chunk, and a chunk of several
        # languages in one process left the later ones in the tables the first use built)
        with multiprocessing.get_context("spawn").Pool(2, maxtasksperchild=1) as pool:
            done = pool.map(_fold, jobs, chunksize=1)
    else:
        done = [_fold((None, cases))]
    result = {cid: (fixed, kept) for part in done for cid, fixed, kept in part}
    cells: dict[tuple[str, str], list[bool]] = defaultdict(list)
    for c in cases:
        cells[c["type"], c["size"]].append(result[c["id"]][0])
    mode = "cross-validated: each language left out of the model" if cv else "not cross-validated"
    print(f"\n== generated cases ({len(cases)}, {mode})\n{'chain type':28} {'short':>14} {'long':>14}")
    below = []
    for kind in dict.fromkeys(c["type"] for c in cases):
        out = []
        for size in ("short", "long"):
            oks = cells.get((kind, size), [])
            out.append(f"{sum(oks) / len(oks):>8.1%} {len(oks):>5}" if oks else f"{'-':>14}")
            if oks and sum(oks) < 0.97 * len(oks):
                below.append(f"{kind} {size}")
        print(f"{kind:28} " + " ".join(out))
    changed = [c for c in cases if not result[c["id"]][1]]
    print(f"{'clean originals kept':28} {1 - len(changed) / len(cases):>8.1%} {len(cases):>5}")
    for c in changed[:10]:
        print(f"   CHANGED {c['lang']} {c['original'][:60]!r}")
    if below:
        print(f"under 97 %: {', '.join(below)}")
    if failures:
        from onemail.detect import render_chain, repair

        for c in cases:
            if c["type"] == failures and not result[c["id"]][0]:
                r = repair(c["mojibake"])
                print(f"  {c['id']} {c['lang']} {render_chain(r.steps)!r}: {c['mojibake'][:40]!r} -> "
                      f"{r.text[:40]!r} want {c['original'][:40]!r}")
    return cases


def _least(fns, texts: list[str]) -> list[float]:
    """The least CPU time of ``REPEAT`` passes of each of ``fns`` over ``texts``, the passes
    interleaved (a shared machine's load then weighs on both alike)."""
    best = [float("inf")] * len(fns)
    for _ in range(REPEAT):
        for i, fn in enumerate(fns):
            t0 = time.process_time()
            for t in texts:
                fn(t)
            best[i] = min(best[i], time.process_time() - t0)
    return [max(b, 1e-9) for b in best]


def speed(fx, cases: list[dict]) -> None:
    if len(fx) < 2:
        return
    (_, ours), (anchor, theirs) = fx[0], fx[1]
    for c in cases[::7]:  # warm up: lazy tables load on first use, for both
        ours(c["mojibake"]), theirs(c["mojibake"]), ours(c["original"])
    by_lang: dict[str, list[str]] = defaultdict(list)
    for c in cases:
        by_lang[c["lang"]].append(c["original"])
    print(f"\n== speed on the generated texts (CPU, least of {REPEAT}); ratio onemail / {anchor}")
    cells = []
    total_o = total_a = 0.0
    for lang in sorted(by_lang):
        texts = list(dict.fromkeys(by_lang[lang]))
        o, a = _least((ours, theirs), texts)
        total_o += o
        total_a += a
        cells.append(f"{lang} {o / a:.2f}")
    print("clean text by language: " + ", ".join(cells))
    print(f"clean text, all: onemail {total_o:.3f} s, {anchor} {total_a:.3f} s, ratio {total_o / total_a:.2f}")
    moji = [c["mojibake"] for c in cases]
    o, a = _least((ours, theirs), moji)
    print(f"mojibake ({len(moji)}): onemail {o:.3f} s, {anchor} {a:.3f} s, ratio {o / a:.2f}")


_MEMORY = r"""
import sys, tracemalloc
sys.path.insert(0, {src!r})
from onemail.detect import repair
repair("FÃ¶rstÃ¥r"); repair("Förstår дела 中文")  # (the tables load on first use)
text = {text!r} * {times}
size = sys.getsizeof(text)
tracemalloc.start()
out = repair(text)
peak = tracemalloc.get_traced_memory()[1]
tracemalloc.stop()
print(size, peak, len(out.steps))
"""


def memory() -> None:
    """Peak memory that ``repair`` allocates (``tracemalloc``; the resident size is dominated
    by the lazily built tables), in fresh processes, as a multiple of the text's own size."""
    print("\n== memory of repair (fresh process; peak allocated during the call / the text's size)")
    for label, text in (("mojibake", "FÃ¶rstÃ¥r inte vad du menar, sa hon. "),
                        ("Cyrillic mojibake", "Ð\x9dÐµ Ð¿Ð¾Ð½Ð¸Ð¼Ð°Ñ\x8e, Ñ\x87Ñ\x82Ð¾ Ñ\x82Ñ\x8b "),
                        ("clean Latin", "Förstår inte vad du menar, sa hon. "),
                        ("clean Cyrillic", "Не понимаю, что ты имеешь в виду, сказала она. "),
                        ("clean Chinese", "中文的文字处理，我们明天见。")):
        times = 4 * 1024 * 1024 // len(text.encode("utf-8"))
        code = _MEMORY.format(src=str(ROOT / "src"), text=text, times=times)
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
        size, peak, steps = map(int, out.split())
        print(f"{label:18} {size / 2**20:6.1f} MiB text: {peak / 2**20:7.1f} MiB peak ({peak / size:.1f}x), "
              f"{steps} steps")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--failures", metavar="TYPE", help="list onemail's failures of this generated chain type")
    ap.add_argument("--per-chain", type=int, default=20, help="generated cases per chain and size")
    ap.add_argument("--no-cv", dest="cv", action="store_false", help="one run, the model as committed")
    ap.add_argument("--memory", action="store_true", help="also measure peak memory")
    args = ap.parse_args(argv)
    fx = fixers()
    visible(fx)
    cases = generated(args.per_chain, args.cv, args.failures)
    speed(fx, cases)
    if args.memory:
        memory()
    return 0


if __name__ == "__main__":
    sys.exit(main())
