#!/usr/bin/env python3
"""Train the detector's per-language character model from the VISIBLE corpora only.

Reads ``../shared/corpus/detect`` and ``../shared/corpus/detect-fresh`` (each file decoded
with its ``MANIFEST.tsv`` ``python_codec``; a text seen under several charsets, as the UTF-16/32
copies of the CulturaX rows, counts once) and writes
``src/onemail/detect/_tables/language.py``:

``LANGUAGES = {language: (non-ASCII share in 1/1000 of letters, chars, counts)}`` and
``ONE_LETTER_WORDS`` (the non-ASCII Latin letters the texts use as words), where
``chars`` are the language's non-ASCII characters (case kept: upper-case letters separate
mac-cyrillic from windows-1251) with at least ``MIN_PER_100K`` occurrences per 100 000
non-ASCII characters, and ``counts`` their frequencies per 100 000. Languages are named as in
the ``detect`` folders; the ``detect-fresh`` locale codes are mapped to those names.

Nothing else of this machine is read (the fresh set's README forbids training on other
gettext catalogues). Deterministic: sorted output, no timestamps.

Usage: ``python scripts/train_detect.py [--check]``.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import sys
from collections import Counter, defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CORPUS = (REPO / ".." / "shared" / "corpus").resolve()
OUT = REPO / "src" / "onemail" / "detect" / "_tables" / "language.py"
SETS = ("detect", "detect-fresh")
#: The East Asian languages are left out: their code pages are multi-byte, scored by the
#: design's common-character sets, not by this model.
SKIP = ("chinese", "japanese", "korean")
#: A character must also occur at least this often in absolute terms. 1: in a language with
#: little visible text one occurrence is evidence (Italian "ì" occurs in few visible texts;
#: without it "venerdì" read as windows-1250 "venerdě"). Chosen by cross-validation
#: (bench/detect_cv.py, 4 590 answers): 5 -> 4 540 right, 3 -> 4 546, 2 -> 4 549, 1 -> 4 552.
MIN_COUNT = 1
#: Characters rarer than this (per 100 000 non-ASCII characters of the language) are dropped:
#: in the languages with much text they are single occurrences, noise (cross-validated with
#: MIN_COUNT = 1: 10 -> 4 551, 20, 40 and 80 -> 4 552).
MIN_PER_100K = 20

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


def manifest_rows():
    """Yield ``(corpus folder, MANIFEST.tsv row)`` of the visible corpora, sorted by path."""
    for name in SETS:
        base = CORPUS / name
        with open(base / "MANIFEST.tsv", encoding="utf-8") as f:
            rows = sorted(csv.DictReader(f, delimiter="\t"), key=lambda r: r["path"])
        for r in rows:
            yield base, r


def texts() -> list[tuple[str, str]]:
    """Return ``(language, text)`` for every distinct text of the visible corpora, read once
    per process (the model, the one-letter words and the neighbours all learn from them)."""
    if not _texts:
        _texts.extend(_read_texts())
    return _texts


_texts: list[tuple[str, str]] = []


def _read_texts():
    seen = set()
    for base, r in manifest_rows():
        lang = LOCALES.get(r["language"], r["language"])
        if not lang or not r["python_codec"] or lang in SKIP:
            continue
        try:
            text = (base / r["path"]).read_bytes().decode(r["python_codec"])
        except UnicodeDecodeError:
            continue
        text = text.lstrip("\ufeff")
        key = hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()
        if key in seen:
            continue
        seen.add(key)
        yield lang, text


#: A non-ASCII Latin letter standing alone as a word this often in the visible texts is a
#: one-letter word ("à", "é", "å"); others alone between spaces are evidence against a page.
MIN_ALONE = 3


def one_letter_words() -> str:
    """Return the non-ASCII Latin letters (U+00C0..U+024F) the visible texts use as words."""
    import re

    alone: Counter = Counter()
    for _lang, text in texts():
        for m in re.finditer(r"(?<!\w)(\w)(?!\w)", text):
            ch = m.group(1)
            if "\u00c0" <= ch <= "\u024f" and ch.isalpha():
                alone[ch] += 1
    return "".join(sorted(ch for ch, n in alone.items() if n >= MIN_ALONE))


def train() -> dict[str, tuple[int, str, tuple[int, ...]]]:
    counts: dict[str, Counter] = defaultdict(Counter)
    letters: Counter = Counter()
    for lang, text in texts():
        c = counts[lang]
        for ch in text:
            if 0x80 <= ord(ch) < 0x2E80:  # East Asian characters never come from single-byte pages
                c[ch] += 1
        letters[lang] += sum(1 for ch in text if ch.isalpha())
    model = {}
    for lang in sorted(counts):
        c = counts[lang]
        total = sum(c.values())
        if not total:
            continue
        kept = sorted(((ch, n * 100000 // total) for ch, n in c.items() if n >= MIN_COUNT),
                      key=lambda p: (-p[1], p[0]))
        kept = [(ch, n) for ch, n in kept if n >= MIN_PER_100K]
        share = min(1000, total * 1000 // max(1, letters[lang]))
        model[lang] = (share, "".join(ch for ch, _ in kept), tuple(n for _, n in kept))
    return model


#: MANIFEST ``encoding`` names that onemail spells otherwise.
_MANIFEST_LABELS = {"mac-roman": "macintosh", "mac-cyrillic": "x-mac-cyrillic"}


def page_languages() -> dict[str, dict[str, int]]:
    """Return ``{single-byte page: {language: files}}``: how many files of the visible corpora
    write each language in each single-byte page (MANIFEST ``encoding`` resolved as
    :func:`onemail.text.for_label` does, ``iso-8859-1`` counting for both the WHATWG
    ``windows-1252`` and the design's ``iso-8859-1`` candidate)."""
    sys.path.insert(0, str(REPO / "src"))
    from onemail.detect._langmodel import SINGLE_BYTE
    from onemail.text import for_label

    pages: dict[str, Counter] = defaultdict(Counter)
    for _base, r in manifest_rows():
        lang = LOCALES.get(r["language"], r["language"])
        cs = for_label(_MANIFEST_LABELS.get(r["encoding"], r["encoding"]))
        if not lang or cs is None:
            continue
        for page in {cs.key, r["encoding"]} & set(SINGLE_BYTE):
            pages[page][lang] += 1
    return {page: dict(sorted(pages[page].items())) for page in SINGLE_BYTE if page in pages}


#: Neighbour classes of the context model: an ASCII letter (case-folded), "_" for anything else
#: (space, punctuation, digit, start or end), "H" for a non-ASCII letter.
CONTEXT_CLASSES = "abcdefghijklmnopqrstuvwxyz_H"
#: A letter's neighbours are kept when the letter occurs at least this often in the language.
MIN_CONTEXT = 20


def _neighbour(ch: str) -> int:
    if ch.isascii():
        return CONTEXT_CLASSES.find(ch.lower()) if ch.isalpha() else 26
    return 27 if ch.isalpha() else 26


def contexts() -> dict[str, dict[str, tuple[str, str]]]:
    """Return ``{language: {letter: (left neighbour counts, right neighbour counts)}}``, each
    written as :func:`_pack_counts` does.

    For each non-ASCII letter (case-folded) of a language's texts, how often each class of
    :data:`CONTEXT_CLASSES` stands right before and right after it (``ľ`` follows ``e`` and
    precedes ``o`` in Slovak ``oddeľovač``; Portuguese ``ã`` is followed by ``o``, hardly ever by
    ``r`` as Romanian ``ă`` in ``numărul``)."""
    left: dict = defaultdict(lambda: defaultdict(lambda: [0] * len(CONTEXT_CLASSES)))
    right: dict = defaultdict(lambda: defaultdict(lambda: [0] * len(CONTEXT_CLASSES)))
    for lang, text in texts():
        last = len(text) - 1
        for i, ch in enumerate(text):
            if ch.isascii() or not ch.isalpha() or ord(ch) >= 0x2E80:
                continue
            c = ch.lower() if len(ch.lower()) == 1 else ch
            left[lang][c][_neighbour(text[i - 1]) if i else 26] += 1
            right[lang][c][_neighbour(text[i + 1]) if i < last else 26] += 1
    out = {}
    for lang in sorted(left):
        kept = {c: (_pack_counts(left[lang][c]), _pack_counts(right[lang][c])) for c in sorted(left[lang])
                if sum(left[lang][c]) >= MIN_CONTEXT}
        if kept:
            out[lang] = kept
    return out


def _pack_counts(counts: list[int]) -> str:
    """Write counts as ``class`` + ``count`` items (``"a12 _3 H40"``), zeros left out."""
    return " ".join(f"{CONTEXT_CLASSES[i]}{n}" for i, n in enumerate(counts) if n)


def _lit(s: str) -> str:
    out = []
    for ch in s:
        o = ord(ch)
        if ch in '"\\' or not ch.isprintable() or o >= 0xD800 and o <= 0xF8FF:
            out.append(f"\\x{o:02x}" if o <= 0xFF else f"\\u{o:04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def render(model, alone: str, pages: dict[str, dict[str, int]], context) -> str:
    h = hashlib.sha256()
    for name in SETS:
        h.update((CORPUS / name / "MANIFEST.tsv").read_bytes())
    lines = [
        "# GENERATED by scripts/train_detect.py from the visible corpora ../shared/corpus/detect and "
        f"../shared/corpus/detect-fresh (MANIFEST.tsv sha256 {h.hexdigest()[:16]}). DO NOT EDIT - retrain.",
        "# Character frequencies only (no text): per language, its non-ASCII characters per 100 000.",
        '"""Generated language model; see the header and scripts/train_detect.py."""',
        "",
        f"MIN_PER_100K = {MIN_PER_100K}",
        "",
        "LANGUAGES = {",
    ]
    for lang, (share, chars, freqs) in model.items():
        lines.append(f"    {lang!r}: (")
        lines.append(f"        {share},")
        lines.append(f"        {_lit(chars)},")
        lines.append(f"        {freqs!r},")
        lines.append("    ),")
    lines.append("}")
    lines.append("")
    lines.append(f"# Non-ASCII Latin letters used as one-letter words (>= {MIN_ALONE} times).")
    lines.append(f"ONE_LETTER_WORDS = {_lit(alone)}")
    lines.append("")
    lines.append(f"# Neighbours of each non-ASCII letter (>= {MIN_CONTEXT} times), counted per class of")
    lines.append("# CONTEXT_CLASSES before and after it: {language: {letter: (before, after)}}.")
    lines.append(f"CONTEXT_CLASSES = {_lit(CONTEXT_CLASSES)}")
    lines.append("CONTEXTS = {")
    for lang, letters in context.items():
        lines.append(f"    {lang!r}: {{")
        for c, (before, after) in letters.items():
            lines.append(f"        {_lit(c)}: ({_lit(before)}, {_lit(after)}),")
        lines.append("    },")
    lines.append("}")
    lines.append("")
    lines.append("# Files per language the corpora write in each single-byte page (MANIFEST.tsv labels).")
    lines.append("PAGE_LANGUAGES = {")
    for page, langs in pages.items():
        lines.append(f"    {page!r}: {langs!r},")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="fail if the committed model is stale")
    args = ap.parse_args(argv)
    text = render(train(), one_letter_words(), page_languages(), contexts())
    if args.check:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            print(f"stale: {OUT.relative_to(REPO)} (run scripts/train_detect.py)")
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(REPO)} ({len(text.encode())} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
