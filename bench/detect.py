#!/usr/bin/env python3
"""Charset detection: onemail vs chardet and charset-normalizer, in one run.

Measures **decode-equal accuracy**: an answer is right when decoding the file with it gives the
same text as decoding with the true label (``python_codec`` of ``MANIFEST.tsv``, strict), a
leading U+FEFF ignored on both sides. onemail's answer is decoded with onemail's own decoders
(``onemail.text.for_label(label).decode``); an anchor's answer with CPython's codec of that name
(its own convention). For binary files (``None/``) the right answer is "not text": onemail's
:func:`looks_binary` or an anchor's ``None``.

Prefix modes (``--prefix 64``, ``--prefix 512``) cut every file and compare the decoded prefix,
trailing U+FFFD ignored (a cut multi-byte character); only "informative" prefixes count (a byte
>= 0x80 or a NUL: pure 7-bit ASCII prefixes are right for every ASCII-compatible answer).

Speed is CPU time (``time.process_time``) of the detection calls alone, same files, same run,
the least of ``REPEAT`` passes, the detectors' passes alternating (the load weighs on
both alike); the ratio is anchor time / onemail time.

Usage::

    python bench/detect.py [--corpus detect|detect-fresh|all] [--prefix N ...] [--no-per-encoding]
                           [--only NAME ...] [--repeat N]

Needs the anchors (``pip install -e '.[bench]'``); installs nothing; an absent anchor is
skipped.
"""

from __future__ import annotations

import argparse
import codecs
import csv
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = (ROOT / ".." / "shared" / "corpus").resolve()


def load(name: str) -> list[tuple[str, str, str, bytes]]:
    """Return ``[(path, encoding, python_codec, bytes)]`` of one corpus."""
    base = CORPUS / name
    rows = []
    with open(base / "MANIFEST.tsv", encoding="utf-8") as f:
        for r in csv.DictReader(f, delimiter="\t"):
            rows.append((r["path"], r["encoding"], r["python_codec"], (base / r["path"]).read_bytes()))
    return rows


def _strip(text: str, prefix: bool) -> str:
    if text.startswith("\ufeff"):
        text = text[1:]
    if prefix:
        text = text.rstrip("\ufffd")
    return text


def reference(codec: str, data: bytes, prefix: bool) -> str | None:
    if not codec:
        return None
    return _strip(data.decode(codec, "replace" if prefix else "strict"), prefix)


def ours_decode(label: str | None, data: bytes, prefix: bool) -> str | None:
    from onemail.text import for_label

    if label is None:
        return None
    cs = for_label(label)
    return None if cs is None else _strip(cs.decode(data), prefix)


# MANIFEST encoding names that onemail.text.for_label spells differently
_LABEL = {"mac-roman": "macintosh", "mac-cyrillic": "x-mac-cyrillic", "utf-8-sig": "utf-8",
          "ascii": "us-ascii"}


def reference_ours(encoding: str, codec: str, data: bytes, prefix: bool) -> str | None:
    """The text onemail's answer must give: the true label decoded by onemail's own decoders
    (WHATWG behaviour); for the BOM-sniffed ``utf-16``/``utf-32`` labels CPython's codec; None
    for a binary file."""
    if not codec:
        return None
    if encoding in ("utf-16", "utf-32"):
        return reference(codec, data, prefix)
    return ours_decode(_LABEL.get(encoding, encoding), data, prefix)


def right(answer: str | None, ref: str | None, data: bytes, prefix: bool, decode) -> bool:
    """Decode-equal: ``answer`` decoded by ``decode`` gives ``ref`` (None: both say binary)."""
    return answer is None if ref is None else answer is not None and decode(answer, data, prefix) == ref


def python_decode(label: str | None, data: bytes, prefix: bool) -> str | None:
    if label is None:
        return None
    try:
        codecs.lookup(label)
        return _strip(data.decode(label, "replace"), prefix)
    except LookupError:
        return "\0unknown label"


def detectors():
    from onemail.detect import detect, looks_binary

    def ours(data):
        return None if looks_binary(data) else detect(data).charset

    out = [("onemail", ours, ours_decode)]
    try:
        import chardet

        out.append((f"chardet {chardet.__version__}", lambda d: chardet.detect(d)["encoding"],
                    python_decode))
    except ImportError:
        print("chardet not installed: skipped", file=sys.stderr)
    try:
        import charset_normalizer as cn

        def cn_detect(d):
            best = cn.from_bytes(d).best()
            return None if best is None else best.encoding

        out.append((f"charset-normalizer {cn.__version__}", cn_detect, python_decode))
    except ImportError:
        print("charset-normalizer not installed: skipped", file=sys.stderr)
    return out


#: Timed passes per detector; the least CPU time counts (a shared machine only adds time).
REPEAT = 3


def informative(data: bytes) -> bool:
    return not data.isascii() or 0 in data


def run(name: str, prefix: int | None, per_encoding: bool, only: set[str] | None) -> None:
    rows = load(name)
    if prefix:
        rows = [(p, e, c, d[:prefix]) for p, e, c, d in rows if informative(d[:prefix])]
    refs = [reference(c, d, bool(prefix)) for _, _, c, d in rows]
    # (utf-16/utf-32 labels mean "by the BOM": the reference is CPython's BOM-sniffing codec)
    # onemail's world: the true label decoded by onemail's own decoders (WHATWG behaviour)
    refs_ours = [reference_ours(e, c, d, bool(prefix)) for _, e, c, d in rows]
    results = {}
    times: dict[str, float] = {}
    chosen = [d for d in detectors() if not only or any(d[0].startswith(o) for o in only)]
    for _, fn, _ in chosen:
        for _, _, _, d in rows[::25]:
            fn(d)  # warm up (lazy imports and tables load on first use), the same for every detector
    answers: dict[str, list] = {}
    for _ in range(REPEAT):  # the least CPU time of REPEAT passes: other load only adds
        # (the detectors' passes alternate: a change of the machine's load weighs on all alike)
        for det_name, fn, _ in chosen:
            t0 = time.process_time()
            answers[det_name] = [fn(d) for _, _, _, d in rows]
            spent = time.process_time() - t0
            times[det_name] = min(times.get(det_name, spent), spent)
    for det_name, _, decode in chosen:
        ok = []
        for (_, _, _, d), ref, ans in zip(rows, refs_ours if det_name == "onemail" else refs, answers[det_name],
                                          strict=True):
            ok.append(right(ans, ref, d, bool(prefix), decode))
        results[det_name] = (answers[det_name], ok)
    label = f"{name}" + (f" prefix {prefix}" if prefix else "")
    print(f"\n== {label}: {len(rows)} files")
    names = list(results)
    if per_encoding:
        by_enc = defaultdict(list)
        for i, (_, enc, _, _) in enumerate(rows):
            by_enc[enc].append(i)
        print(f"{'encoding':16} {'n':>4} " + " ".join(f"{n[:18]:>18}" for n in names))
        for enc in sorted(by_enc):
            idx = by_enc[enc]
            cells = " ".join(f"{sum(results[n][1][i] for i in idx) / len(idx):>18.1%}" for n in names)
            print(f"{enc:16} {len(idx):>4} {cells}")
    legacy = [i for i, (_, enc, _, _) in enumerate(rows) if not enc.startswith("utf") and enc != "binary"]
    for n in names:
        ok = results[n][1]
        leg = sum(ok[i] for i in legacy) / len(legacy) if legacy else 0
        print(f"{n:28} accuracy {sum(ok) / len(ok):7.2%}  legacy-only {leg:7.2%}  "
              f"cpu {times[n]:7.3f} s  {times[n] / len(rows) * 1000:.3f} ms/file")
    ours = times.get("onemail")
    for n in names[1:]:
        if ours:
            print(f"speed ratio {n} / onemail: {times[n] / ours:.2f}x")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default="all", choices=["detect", "detect-fresh", "all"])
    ap.add_argument("--prefix", type=int, nargs="*", default=None,
                    help="also run with these prefix lengths (default: 64 512)")
    ap.add_argument("--no-per-encoding", dest="per_encoding", action="store_false",
                    help="leave out the per-encoding tables (printed for whole files by default)")
    ap.add_argument("--only", nargs="*", help="run only detectors whose name starts so")
    ap.add_argument("--failures", action="store_true", help="list onemail's wrong answers")
    ap.add_argument("--repeat", type=int, default=REPEAT, help=f"timed passes per detector (default {REPEAT})")
    args = ap.parse_args(argv)
    globals()["REPEAT"] = max(1, args.repeat)
    corpora = ["detect", "detect-fresh"] if args.corpus == "all" else [args.corpus]
    prefixes = [None] + ([64, 512] if args.prefix is None else args.prefix)
    only = set(args.only) if args.only else None
    for name in corpora:
        for p in prefixes:
            run(name, p, args.per_encoding and p is None, only)
            if args.failures:
                failures(name, p)
    return 0


def failures(name: str, prefix: int | None) -> None:
    from onemail.detect import detect, looks_binary

    for path, enc, codec, data in load(name):
        d = data[:prefix] if prefix else data
        if prefix and not informative(d):
            continue
        ref = (reference(codec, d, bool(prefix)) if enc in ("utf-16", "utf-32") else None if not codec
               else ours_decode(_LABEL.get(enc, enc), d, bool(prefix)))
        ans = None if looks_binary(d) else detect(d).charset
        got = ans is None if ref is None else ans is not None and ours_decode(ans, d, bool(prefix)) == ref
        if not got:
            print(f"   WRONG {path} ({enc}) -> {ans}")


if __name__ == "__main__":
    sys.exit(main())
