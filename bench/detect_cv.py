#!/usr/bin/env python3
"""Cross-validated accuracy of charset detection: the language model judged on texts it never saw.

``bench/detect.py`` scores the committed model on the visible corpora it was trained on, which
flatters it. Here the visible files of ``../shared/corpus/detect`` and ``detect-fresh`` are
split into ``k`` folds (default 5); for each fold the single-byte model
(``scripts/train_detect.py``: character frequencies, one-letter words, the languages of each
page) is trained on the other folds only and ``detect`` answers the fold's files, whole and
as 64- and 512-byte prefixes, judged as in ``bench/detect.py`` (decode-equal). One text in
several charsets (the same stem, the same language) stays in one fold.

Each fold runs in its own process (the model is built once per process). ``--set NAME=VALUE``
overrides a constant of :mod:`onemail.detect._langmodel` or :mod:`onemail.detect._detector` in every
fold, to compare thresholds (the numbers in langmodel's docstring come from here).

Usage::

    python bench/detect_cv.py [--k 5] [--failures] [--set UNLISTED_NATS=2 ...]
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import importlib
import multiprocessing
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODES = (None, 64, 512)


def _fold_of(k: int, language: str, path: str) -> int:
    import train_detect

    stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    lang = train_detect.LOCALES.get(language, language)
    return int(hashlib.sha256(f"{lang}/{stem}".encode()).hexdigest(), 16) % k


def _setup_paths() -> None:
    for sub in ("src", "scripts", "bench"):
        p = str(ROOT / sub)
        if p not in sys.path:
            sys.path.insert(0, p)


def run_fold(job: tuple) -> tuple[dict, list]:
    """Train without fold ``fold`` and answer its files; return ``({(corpus, mode): (right,
    total)}, [(corpus, mode, path, answer)])``."""
    fold, k, overrides, hook, train_overrides = job
    _setup_paths()
    import train_detect

    rows_of = train_detect.manifest_rows

    def training_rows():
        for base, r in rows_of():
            if _fold_of(k, r["language"], r["path"]) != fold:
                yield base, r

    train_detect.manifest_rows = training_rows
    for name, value in train_overrides:
        if not hasattr(train_detect, name):
            raise ValueError(f"--train-set: no constant {name}")
        setattr(train_detect, name, type(getattr(train_detect, name))(value))
    tables = importlib.import_module("onemail.detect._tables.language")
    tables.LANGUAGES = train_detect.train()
    tables.ONE_LETTER_WORDS = train_detect.one_letter_words()
    tables.PAGE_LANGUAGES = train_detect.page_languages()
    tables.CONTEXTS = train_detect.contexts()
    for name, value in overrides:
        for module in ("onemail.detect._langmodel", "onemail.detect._detector"):
            mod = importlib.import_module(module)
            if hasattr(mod, name):
                setattr(mod, name, type(getattr(mod, name))(value))
                break
        else:
            raise ValueError(f"--set: no constant {name}")
    if hook:  # an experiment: runs after training, with train_detect in scope
        exec(compile(Path(hook).read_text(encoding="utf-8"), hook, "exec"), {"train_detect": train_detect})
    from onemail.detect import detect, looks_binary

    bench = importlib.import_module("detect")  # bench/detect.py: the same loading and judging

    scores: dict = {}
    wrong: list = []
    for corpus in ("detect", "detect-fresh"):
        with open(bench.CORPUS / corpus / "MANIFEST.tsv", encoding="utf-8") as f:
            test = {r["path"] for r in csv.DictReader(f, delimiter="\t")
                    if _fold_of(k, r["language"], r["path"]) == fold}
        rows = [r for r in bench.load(corpus) if r[0] in test]
        for mode in MODES:
            cut = [(p, e, c, d[:mode] if mode else d) for p, e, c, d in rows]
            if mode:
                cut = [r for r in cut if bench.informative(r[3])]
            right = 0
            for path, enc, codec, data in cut:
                prefix = bool(mode)
                answer = None if looks_binary(data) else detect(data).charset
                ok = bench.right(answer, bench.reference_ours(enc, codec, data, prefix), data, prefix,
                                 bench.ours_decode)
                right += ok
                if not ok:
                    wrong.append((corpus, mode, path, answer))
            scores[(corpus, mode)] = (right, len(cut))
    return scores, wrong


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--k", type=int, default=5, help="folds (default 5)")
    ap.add_argument("--failures", action="store_true", help="list the wrong answers")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="override a constant of onemail.detect._langmodel / .detect")
    ap.add_argument("--train-set", action="append", default=[], metavar="NAME=VALUE",
                    help="override a constant of scripts/train_detect.py (training thresholds)")
    ap.add_argument("--hook", metavar="FILE", help="Python run in each fold after training (experiments)")
    args = ap.parse_args(argv)
    _setup_paths()
    import train_detect

    missing = [name for name in train_detect.SETS if not (train_detect.CORPUS / name / "MANIFEST.tsv").exists()]
    if missing:
        print(f"detect_cv: {train_detect.CORPUS} lacks {', '.join(missing)} (the visible corpora "
              "are expected beside the checkout, in ../shared/corpus)", file=sys.stderr)
        return 2
    overrides = [tuple(s.split("=", 1)) for s in args.set]
    train_overrides = [tuple(s.split("=", 1)) for s in args.train_set]
    jobs = [(fold, args.k, overrides, args.hook, train_overrides) for fold in range(args.k)]
    workers = min(args.k, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 2)
    # one process per fold: the model is built once per process and cached
    with multiprocessing.get_context("spawn").Pool(workers, maxtasksperchild=1) as pool:
        results = pool.map(run_fold, jobs)
    total: dict = {}
    wrong = []
    for scores, bad in results:
        wrong += bad
        for key, (right, n) in scores.items():
            r0, n0 = total.get(key, (0, 0))
            total[key] = (r0 + right, n0 + n)
    all_right = all_n = 0
    settings = [*args.set, *(f"train:{s}" for s in args.train_set)]
    print(f"{args.k}-fold cross-validation" + (f" with {' '.join(settings)}" if settings else ""))
    for (corpus, mode), (right, n) in sorted(total.items(), key=lambda kv: (kv[0][0], kv[0][1] or 0)):
        all_right += right
        all_n += n
        label = f"{corpus} " + (f"prefix {mode}" if mode else "whole files")
        print(f"  {label:28} {right:5d}/{n:5d}  {right / n:7.2%}")
    print(f"  {'all':28} {all_right:5d}/{all_n:5d}  {all_right / all_n:7.2%}")
    if args.failures:
        for corpus, mode, path, answer in sorted(wrong, key=lambda w: (w[0], w[1] or 0, w[2])):
            print(f"   WRONG {corpus} {mode or 'whole'} {path} -> {answer}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
