#!/usr/bin/env python3
"""Write the detector's per-language character model from text that is in neither corpus.

The statistics come from two language-identification packages that ship their n-gram counts as
data (both Apache-2.0, installed by the ``bench`` extra); the visible corpora under
``../shared/corpus`` are not read at all (they serve for evaluation, ``bench/detect_cv.py``):

* **lingua-language-detector 1.3.5** (``lingua/language-models/<iso>/{unigrams,bigrams}.json.br``,
  Brotli-compressed JSON of relative frequencies, lower-cased letters only, counted by its
  author from the Leipzig Wortschatz corpora): per language the frequency of each letter and of
  each letter pair inside words. Read as data; lingua's code is not imported.
* **langdetect 1.0.9** (``langdetect/profiles/<iso>``, JSON n-gram counts of Wikipedia text,
  with case, words padded by spaces): the one-letter words (`` à `` trigrams) and, for the
  languages whose alphabet is not Latin, the share of ASCII letters (lingua keeps only the
  language's own alphabet there).

Written to ``src/onemail/detect/_tables/language.py``:

``LANGUAGES = {language: (non-ASCII share in 1/1000 of letters, chars, counts)}`` where
``chars`` are the language's non-ASCII characters with at least ``MIN_PER_100K`` occurrences
per 100 000 non-ASCII characters and ``counts`` their frequencies per 100 000. Neither source
counts punctuation: the typographic signs of :data:`TYPOGRAPHIC` (quotes, dashes, the ellipsis,
the no-break space...) are added to every language at ``SIGNS_PER_LETTER`` per letter, shared
evenly, and the apostrophe ``’`` at the rate of the language's elisions (:func:`_apostrophes`,
D97). ``ONE_LETTER_WORDS`` (non-ASCII Latin letters used as words), ``CONTEXTS`` (the
neighbours of each non-ASCII letter), ``KOREAN_SYLLABLES`` (the common Hangul syllables, from
langdetect's Korean profile, D48), ``KOREAN_SYLLABLE_COUNTS`` (every syllable of that profile
with its count, D51) and ``PAGE_LANGUAGES`` (which single-byte pages each language
is written in: facts of usage, :data:`PAGES`, not counts of files).

Deterministic: sorted output, no timestamps; the header names the packages, their versions and
the sha256 of the files read.

Usage: ``python scripts/train_detect.py [--check]``.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import importlib.util
import json
import math
import statistics
import sys
import unicodedata
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "src" / "onemail" / "detect" / "_tables" / "language.py"

#: The languages of the model (lingua's ISO 639-1 code -> the model's name): every language of
#: lingua written in an alphabet some single-byte page of :data:`PAGES` encodes, apart from
#: Latin-script languages without a legacy code page of their own (Yoruba, Zulu, Maori...);
#: and the alphabets no single-byte page encodes (Kazakh, Mongolian, Azerbaijani, Armenian,
#: Georgian, the Indic scripts), whose letters repair must know in UTF-8 text (no page makes
#: them plausible for detection).
LANGUAGES = {
    "af": "afrikaans", "ar": "arabic", "be": "belarusian", "bg": "bulgarian", "bs": "bosnian",
    "ca": "catalan", "cs": "czech", "cy": "welsh", "da": "danish", "de": "german", "el": "greek",
    "en": "english", "eo": "esperanto", "es": "spanish", "et": "estonian", "eu": "basque",
    "fa": "farsi", "fi": "finnish", "fr": "french", "ga": "irish", "he": "hebrew",
    "hr": "croatian", "hu": "hungarian", "id": "indonesian", "is": "icelandic", "it": "italian",
    "lt": "lithuanian", "lv": "latvian", "mk": "macedonian", "ms": "malay", "nb": "norwegian",
    "nl": "dutch", "pl": "polish", "pt": "portuguese", "ro": "romanian", "ru": "russian",
    "sk": "slovak", "sl": "slovene", "so": "somali", "sq": "albanian", "sr": "serbian",
    "sv": "swedish", "sw": "swahili", "th": "thai", "tl": "tagalog", "tr": "turkish",
    "uk": "ukrainian", "ur": "urdu", "vi": "vietnamese",
    "az": "azerbaijani", "bn": "bengali", "gu": "gujarati", "hi": "hindi", "hy": "armenian",
    "ka": "georgian", "kk": "kazakh", "mn": "mongolian", "mr": "marathi", "pa": "punjabi",
    "ta": "tamil", "te": "telugu",
}
#: langdetect's profile names where they differ from lingua's codes.
LANGDETECT_CODES = {"nb": "no"}

_WESTERN = {"windows-1252": 2, "iso-8859-1": 2, "iso-8859-15": 1, "macintosh": 1, "ibm850": 1,
            "ibm437": 1}
_CENTRAL = {"windows-1250": 2, "iso-8859-2": 2}
#: ISO-8859-16 (Latin-10) was made for Romanian's comma-below letters; its scope also names
#: Albanian, Croatian, Hungarian, Polish and Slovene (and Western languages, for which Latin-1
#: and -15 are used). Romanian mail is written in windows-1250 and ISO-8859-2 (with the cedilla
#: forms) far more often: 1 for all.
_LATIN10 = {"iso-8859-16": 1}
_CYRILLIC = {"windows-1251": 2, "iso-8859-5": 1, "ibm866": 1, "x-mac-cyrillic": 1}
#: The single-byte pages each language is written in: 2 for its Windows ANSI code page and the
#: ISO 8859 part made for it, 1 for the other pages that encode it and were used for it (the
#: DOS code pages 437 and 850 and Mac Roman for Western Europe, ISO-8859-15 for the languages
#: of its scope, ISO-8859-16 for those of its scope, ISO-8859-4/-10/-13 for the Baltic and
#: Nordic ones, KOI8-R/-U, IBM866 and x-mac-cyrillic for Cyrillic). Sources: the Windows code
#: page of each locale (Microsoft's NLS tables), the scope clauses of ISO/IEC 8859 parts 1-16,
#: RFC 1489 (KOI8-R) and RFC 2319 (KOI8-U). A page a language is not listed in costs
#: ``UNLISTED_NATS`` (onemail.detect._langmodel).
#: (Languages whose letters a DOS or Mac page lacks had their own: Icelandic and Faroese Mac
#: Icelandic and code page 861, Danish and Norwegian 865, Portuguese 860; those pages are not
#: theirs. Welsh was written without ŵ and ŷ in the Western pages: a listed page is a
#: language's even where it lacks some of its letters.)
_NOT_437 = {page: n for page, n in _WESTERN.items() if page != "ibm437"}
_NOT_437_MAC = {page: n for page, n in _NOT_437.items() if page != "macintosh"}
PAGES = {
    **{lang: _WESTERN for lang in ("afrikaans", "basque", "catalan", "dutch", "english",
                                   "finnish", "french", "german", "indonesian",
                                   "irish", "italian", "malay",
                                   "somali", "spanish", "swahili", "swedish", "tagalog")},
    **{lang: _NOT_437 for lang in ("danish", "norwegian", "portuguese")},
    "welsh": {**_WESTERN, "iso-8859-14": 2},
    "icelandic": {**_NOT_437_MAC, "iso-8859-10": 1},
    "albanian": {"windows-1250": 2, "iso-8859-2": 1, **_LATIN10, "windows-1252": 1,
                 "iso-8859-1": 1},
    **{lang: _CENTRAL for lang in ("bosnian", "czech", "slovak")},
    **{lang: {**_CENTRAL, **_LATIN10} for lang in ("croatian", "hungarian", "polish", "slovene")},
    "romanian": {**_CENTRAL, **_LATIN10},
    "estonian": {"windows-1257": 2, "iso-8859-13": 1, "iso-8859-15": 1, "iso-8859-4": 1,
                 "iso-8859-10": 1},
    "latvian": {"windows-1257": 2, "iso-8859-13": 2, "iso-8859-4": 1, "iso-8859-10": 1},
    "lithuanian": {"windows-1257": 2, "iso-8859-13": 2, "iso-8859-4": 1, "iso-8859-10": 1},
    "esperanto": {"iso-8859-3": 2},
    "turkish": {"windows-1254": 2, "iso-8859-3": 1},
    "russian": {**_CYRILLIC, "koi8-r": 2},
    "ukrainian": {**_CYRILLIC, "koi8-u": 2},
    "belarusian": {**_CYRILLIC, "koi8-u": 1},
    "bulgarian": _CYRILLIC,
    "macedonian": _CYRILLIC,
    "serbian": _CYRILLIC,
    "greek": {"windows-1253": 2, "iso-8859-7": 2},
    "hebrew": {"windows-1255": 2, "iso-8859-8": 2},
    "arabic": {"windows-1256": 2, "iso-8859-6": 1},
    "farsi": {"windows-1256": 2},
    "urdu": {"windows-1256": 2},
    "thai": {"windows-874": 2},
    "vietnamese": {"windows-1258": 2},
    # languages of EXEMPLARS (no n-gram profile): the pages of the ISO/IEC 8859 parts whose scope
    # names them, with the Windows and DOS pages of Western Europe for the Latin-1 ones
    "maltese": {"iso-8859-3": 2},
    "breton": {**_WESTERN, "iso-8859-14": 1},
    "gaelic": {**_WESTERN, "iso-8859-14": 2},
    "manx": {**_WESTERN, "iso-8859-14": 1},
    "faroese": {**_NOT_437_MAC, "iso-8859-10": 1},
    "galician": _WESTERN,
    "luxembourgish": _WESTERN,
    "occitan": _WESTERN,
    "romansh": _WESTERN,
    "frisian": _WESTERN,
    "kalaallisut": {**_NOT_437, "iso-8859-4": 1, "iso-8859-10": 1},
    "sami": {"iso-8859-4": 1, "iso-8859-10": 2},
}

#: Languages written in a single-byte page of :data:`PAGES` that neither package profiles (the
#: languages the scope clauses of ISO/IEC 8859 parts 1, 3, 4, 10 and 14 name, lingua's and
#: langdetect's left out): their non-ASCII letters, lower case, from the main exemplar set
#: (``exemplarCharacters``) of Unicode CLDR (``cldr-json``, ``cldr-misc-full/main/<code>/
#: characters.json``; Unicode License v3), a fact of each orthography, with no frequencies (D60).
#: The model gives each letter an even share and the language the median non-ASCII share of
#: the profiled Latin-script languages (:func:`train`): such a language explains a text whose
#: letters no profiled language has together (Maltese ``ħ ġ ċ ż`` with ``à``, Breton ``ñ`` with
#: ``ù``) and loses to a profiled one wherever that one fits.
EXEMPLARS = {
    "mt": ("maltese", "àċèġħìòùż"),
    "br": ("breton", "êñù"),
    "gd": ("gaelic", "àèìòù"),
    "gv": ("manx", "ç"),
    "fo": ("faroese", "áæðíóøúý"),
    "gl": ("galician", "áéíïñóúü"),
    "lb": ("luxembourgish", "äéë"),
    "oc": ("occitan", "àáçèéíïòóúü"),
    "rm": ("romansh", "àèéìòù"),
    "fy": ("frisian", "àáâäèéêëíïóôöúûüý"),
    "kl": ("kalaallisut", "åæø"),
    "se": ("sami", "áčđŋšŧž"),
}

#: Typographic signs any language's text uses (neither source counts punctuation): the quotes
#: of the European languages, dashes, the ellipsis, bullets, the no-break space, the inverted
#: marks, the degree and section signs, and the signs of prices and trademarks.
TYPOGRAPHIC = ("\u2019\u2018\u201c\u201d\u201e\u201a\u00ab\u00bb\u2039\u203a\u2013\u2014\u2026"
               "\u2022\u00b7\u00a0\u00bf\u00a1\u00b0\u00a7\u20ac\u00a3\u00a9\u00ae\u2122")
#: Typographic signs per letter in text that uses them: one every 200 letters (about one every
#: 40 words: a pair of quotes or a dash every few sentences).
SIGNS_PER_LETTER = 0.005
#: The letters whose one-letter "words" in langdetect's profiles are what its tokenizer left of
#: an elision or a clitic (the apostrophe is no letter to it: French ``l’homme`` is ``l`` and
#: ``homme``, Catalan ``s’ha``, English ``it’s``, Afrikaans ``’n``, Welsh ``i’r``): the ASCII
#: consonants (D97). (The one-letter prepositions of the Slavic languages, Czech ``v``, Polish
#: ``w``, are counted too: they only make the apostrophe more likely in text whose bytes for it
#: are no other letter of its pages.)
ELIDED = "bcdfghjklmnpqrstvwxz"
#: Letters rarer than this among all the language's letters (2 in 100 000) are left out: the
#: foreign names of the source text (lingua's Welsh has ``ā``, ``ō`` and ``ä``); English ``é``
#: (2.4 in 100 000) stays.
MIN_LETTER_SHARE = 2e-5
#: A letter is one of a language's common letters (its alphabet, as opposed to foreign names)
#: from 1 in 10 000 of its letters: Italian ``ì`` (6 in 10 000), French ``œ`` (1.1), Czech
#: ``ď`` (2.4) are; English ``é`` (0.24) and Welsh ``á`` (0.8) are not.
COMMON_SHARE = 1e-4
#: Characters rarer than this per 100 000 non-ASCII characters of the language are dropped
#: (letters of foreign names; the rarest kept still costs less than the model's floor).
MIN_PER_100K = 20
#: A non-ASCII Latin letter standing alone between spaces at least this often per 100 000
#: trigrams of a langdetect profile is a one-letter word of the language ("à", "è", "é").
MIN_ALONE_PER_100K = 10
#: Neighbour classes of the context model: an ASCII letter (case-folded), "_" for anything else
#: (space, punctuation, digit, start or end of a word), "H" for a non-ASCII letter.
CONTEXT_CLASSES = "abcdefghijklmnopqrstuvwxyz_H"
#: The neighbour counts of a letter are written as if counted in this many occurrences of it:
#: the model leans them on all languages' counts with pseudo-counts of its own, made for
#: counts of this size (onemail.detect._langmodel ``CONTEXT_ALPHA``).
CONTEXT_SAMPLE = 200
#: A letter's neighbours are kept when the letter has at least this share of the language's
#: letters (1 in 10 000).
MIN_CONTEXT_SHARE = 1e-4


def _package_dir(name: str) -> Path:
    """The folder of an installed package, found without importing (running) it."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(f"the package {name!r} is not installed (pip install -e '.[bench]')",
                                  name=name)
    return Path(next(iter(spec.submodule_search_locations)))


_read: dict[str, bytes] = {}  # every file read, for the header's hash


def _read_bytes(path: Path, key: str) -> bytes:
    data = path.read_bytes()
    _read[key] = data
    return data


def lingua(code: str, kind: str) -> dict[str, Fraction]:
    """Return lingua's ``{n-gram: relative frequency}`` of ``kind`` (``unigrams``: share of all
    letters; ``bigrams``: share of the first letter's occurrences that the second follows)."""
    import brotli

    path = _package_dir("lingua") / "language-models" / code / f"{kind}.json.br"
    model = json.loads(brotli.decompress(_read_bytes(path, f"lingua/{code}/{kind}")))
    return {gram: Fraction(frac) for frac, grams in model["ngrams"].items() for gram in grams.split(" ")}


def langdetect(code: str) -> dict | None:
    """Return langdetect's profile of ``code`` (``freq``: n-gram counts, ``n_words``), or None."""
    path = _package_dir("langdetect") / "profiles" / LANGDETECT_CODES.get(code, code)
    if not path.exists():
        return None
    return json.loads(_read_bytes(path, f"langdetect/{path.name}"))


def _script(ch: str) -> str:
    return "LATIN" if ch.isascii() else unicodedata.name(ch, "?").split(" ")[0]


#: Letters written two ways, counted half each way: Romanian s and t with a comma below (its
#: orthography) and with a cedilla (the only forms of windows-1250 and ISO-8859-2, and what
#: most Romanian text used before Unicode 3.0 separated them).
SPELLINGS = {"ro": ("\u0219\u015f", "\u021b\u0163")}
#: Capital letters that lower-casing loses: lingua's letters are lower case, and the Turkish
#: and Azerbaijani capital of ``i`` is ``İ`` (U+0130), not ASCII ``I``. Written at the share
#: of ``i`` times ``CAPITAL_SHARE``.
CAPITALS = {"tr": ("i", "\u0130")}
#: Capitals among letters (sentence starts and names): the model's own assumption
#: (onemail.detect._langmodel ``UPPER_MIN``).
CAPITAL_SHARE = 0.05


#: Python codecs of the pages in PAGES whose names differ.
_PY_CODECS = {"x-mac-cyrillic": "mac-cyrillic", "macintosh": "mac-roman", "ibm866": "cp866"}


def _undo_mojibake(uni: dict[str, float], pages: dict[str, int]) -> dict[str, float]:
    """Count the language's mojibake letters as the letters they stand for.

    Part of the source text was decoded with the wrong page: lingua's Romanian has ``ã`` and
    ``þ`` (windows-1250 ``ă`` and ``ţ`` read as windows-1252), its Czech ``ø`` and ``è``
    (``ř``, ``č``), its Hungarian ``õ`` (``ő``). A letter whose windows-1252 byte is, in one
    of the language's own pages (weight 2), a more frequent letter of the language is counted
    as that letter."""
    own = [_PY_CODECS.get(page, page) for page, weight in pages.items()
           if weight == 2 and page not in ("windows-1252", "iso-8859-1")]
    out = dict(uni)
    for ch in sorted(uni, key=uni.get):
        try:
            byte = ch.encode("cp1252")
        except UnicodeEncodeError:
            continue
        if ch.isascii():
            continue
        for page in own:
            meant = byte.decode(page, "replace").lower()
            if meant != ch and len(meant) == 1 and out.get(meant, 0.0) > out.get(ch, 0.0):
                out[meant] += out.pop(ch)
                break
    return out


def _unigrams(code: str) -> dict[str, float]:
    """Letter (and mark) shares of one language, letters of a foreign script left out (lingua keeps a few
    from names and quotes), with :data:`SPELLINGS` and :data:`CAPITALS` applied."""
    # letters and the marks written with them (Thai vowel signs and tone marks are marks)
    uni = {ch: float(p) for ch, p in lingua(code, "unigrams").items()
           if unicodedata.category(ch)[0] in "LM"}
    scripts: dict[str, float] = defaultdict(float)
    for ch, p in uni.items():
        scripts[_script(ch)] += p
    main = max(scripts, key=scripts.get)
    uni = {ch: p for ch, p in uni.items() if _script(ch) == main}
    # lingua counts letters only: the marks (Thai vowel signs and tone marks, Arabic and
    # Hebrew points) come from langdetect's profile, as its count per letter
    for mark, share in _langdetect_marks(code).items():
        if _script(mark) == main:
            uni[mark] = uni.get(mark, 0.0) + share * sum(uni.values())
    uni = _undo_mojibake(uni, PAGES.get(LANGUAGES[code], {}))
    total = sum(uni.values())
    uni = {ch: p for ch, p in uni.items() if ch.isascii() or p >= MIN_LETTER_SHARE * total}
    for pair in SPELLINGS.get(code, ()):
        both = sum(uni.pop(ch, 0.0) for ch in pair)
        for ch in pair:
            uni[ch] = both / len(pair)
    if code in CAPITALS:
        lower, upper = CAPITALS[code]
        uni[upper] = uni.get(lower, 0.0) * CAPITAL_SHARE
    return uni


def _as_written(ch: str, pages: dict[str, int]) -> tuple[str, ...]:
    """The characters that a language's letter ``ch`` becomes in its pages: itself, except in
    windows-1258, which writes Vietnamese tones as combining marks after a base letter it has
    (``ế`` is ``ê`` + U+0301, as CPython's cp1258 codec decodes the bytes ``EA EC``)."""
    if "windows-1258" not in pages:
        return (ch,)
    try:
        ch.encode("cp1258")
        return (ch,)
    except UnicodeEncodeError:
        pass
    base, *marks = unicodedata.normalize("NFD", ch)
    # the base letter with one of its marks precomposed (``ệ``: ``ê`` + dot below), or bare
    for i in (*range(len(marks)), None):
        parts = ((base,) if i is None else (unicodedata.normalize("NFC", base + marks[i]),)) + tuple(
            m for j, m in enumerate(marks) if j != i)
        try:
            "".join(parts).encode("cp1258")
            return parts
        except UnicodeEncodeError:
            continue
    return (ch,)


def _langdetect_marks(code: str) -> dict[str, float]:
    """Return ``{combining mark: occurrences per letter}`` of langdetect's profile of ``code``."""
    profile = langdetect(code)
    if profile is None:
        return {}
    singles = {g: n for g, n in profile["freq"].items() if len(g) == 1}
    letters = sum(n for g, n in singles.items() if g.isalpha())
    return {g: n / letters for g, n in sorted(singles.items()) if unicodedata.category(g)[0] == "M"}


def _apostrophes(code: str) -> float:
    """Return the apostrophes per letter of a language (D97): its one-letter words of
    :data:`ELIDED` letters per letter of langdetect's profile (0.0 without a profile). Neither
    package counts punctuation; a text that types its apostrophes as ``’`` has one at each."""
    profile = langdetect(code)
    if profile is None:
        return 0.0
    freq = profile["freq"]
    letters = sum(n for g, n in freq.items() if len(g) == 1 and g.isalpha())
    alone = sum(freq.get(f" {c} ", 0) for c in ELIDED)
    return alone / letters if letters else 0.0


def _langdetect_ascii_share(code: str) -> float | None:
    """The share of non-ASCII letters among the letters of langdetect's profile (None: no
    profile, or one without ASCII letters, which its truncation dropped)."""
    profile = langdetect(code)
    if profile is None:
        return None
    letters = {g: n for g, n in profile["freq"].items() if len(g) == 1 and g.isalpha()}
    ascii_n = sum(n for g, n in letters.items() if g.isascii())
    return None if not ascii_n else 1 - ascii_n / sum(letters.values())


_common: dict[str, str] = {}
#: Per language with elisions: the log of the factor by which they raise ``’`` (D97).
_lifts: list[float] = []


def apostrophe_lift() -> float:
    """Return the median over the languages with elisions of the log-factor (nats) by which
    their rate raises ``’`` above the typographic signs' (D97; computed by :func:`train`): what
    an apostrophe at the start of a word, where no elision puts it, gives back."""
    return round(statistics.median(_lifts), 2) if _lifts else 0.0


def _folded(ch: str) -> str:
    """A letter's lower case, as the model folds it (``İ``, whose lower case is two
    characters, stays itself)."""
    return ch.lower() if len(ch.lower()) == 1 else ch


def common_letters() -> dict[str, str]:
    """Return ``{language: its common letters}`` (non-ASCII, lower case, at least
    ``COMMON_SHARE`` of the language's letters), computed by :func:`train`."""
    return dict(_common)


def train() -> dict[str, tuple[int, str, tuple[int, ...]]]:
    model = {}
    _common.clear()
    _lifts.clear()
    written = {}  # per language: the shares of the characters its letters are written as
    for code in LANGUAGES:
        chars: dict[str, float] = defaultdict(float)
        for ch, p in _unigrams(code).items():
            for part in _as_written(ch, PAGES.get(LANGUAGES[code], {})):
                chars[part] += p
        written[code] = chars
    non_latin = {code for code, chars in written.items() if not any(ch.isascii() for ch in chars)}
    measured = {code: _langdetect_ascii_share(code) for code in sorted(non_latin)}
    default = statistics.median(s for s in measured.values() if s is not None)
    for code in sorted(LANGUAGES, key=LANGUAGES.get):
        chars = written[code]
        high = {ch: p for ch, p in chars.items() if not ch.isascii()}
        if code in non_latin:
            share = measured.get(code) or default
        else:
            share = (sum(p for ch, p in high.items() if ch.isalpha())
                     / sum(p for ch, p in chars.items() if ch.isalpha()))
        letters = sum(p for ch, p in chars.items() if ch.isalpha())
        _common[LANGUAGES[code]] = "".join(sorted(
            ch for ch, p in high.items() if ch.isalpha() and ch == _folded(ch) and p >= COMMON_SHARE * letters))
        total = sum(high.values())
        elided = _apostrophes(code) if code not in non_latin else 0.0
        # signs and apostrophes among non-ASCII characters
        signs = SIGNS_PER_LETTER / (share + SIGNS_PER_LETTER)
        apostrophes = elided / (share + SIGNS_PER_LETTER + elided) * (1 - signs)
        freq = {ch: (1 - signs - apostrophes) * p / total for ch, p in high.items()}
        for ch in TYPOGRAPHIC:
            freq[ch] = freq.get(ch, 0.0) + signs / len(TYPOGRAPHIC)
        freq["\u2019"] += apostrophes
        if apostrophes:
            _lifts.append(math.log(freq["\u2019"] / (signs / len(TYPOGRAPHIC))))
        kept = sorted(((ch, int(p * 100000)) for ch, p in freq.items()), key=lambda cp: (-cp[1], cp[0]))
        kept = [(ch, n) for ch, n in kept if n >= MIN_PER_100K]
        model[LANGUAGES[code]] = (min(1000, round(share * 1000)), "".join(ch for ch, _ in kept),
                                  tuple(n for _, n in kept))
    # the languages without a profile (EXEMPLARS): even letter shares, the median share of the
    # profiled Latin-script languages that a page writes
    latin = [LANGUAGES[code] for code in LANGUAGES if code not in non_latin and LANGUAGES[code] in PAGES]
    share = statistics.median(model[name][0] / 1000 for name in latin)
    # a language known by its letters alone is no surer of one of them than a profiled
    # language is of its own: the mass is shared as if it had at least their median number
    # of common letters (Manx ``ç`` alone is not a certain letter)
    spread = statistics.median(len(_common[name]) for name in latin)
    for _code, (name, letters) in EXEMPLARS.items():
        signs = SIGNS_PER_LETTER / (share + SIGNS_PER_LETTER)
        freq = dict.fromkeys(letters, (1 - signs) / max(len(letters), spread))
        for ch in TYPOGRAPHIC:
            freq[ch] = freq.get(ch, 0.0) + signs / len(TYPOGRAPHIC)
        kept = sorted(((ch, int(p * 100000)) for ch, p in freq.items()), key=lambda cp: (-cp[1], cp[0]))
        _common[name] = "".join(sorted(letters))
        model[name] = (round(share * 1000), "".join(ch for ch, _ in kept), tuple(n for _, n in kept))
    return dict(sorted(model.items()))


def ascii_letters() -> dict[str, tuple[int, ...]]:
    """Return ``{language: frequency of each ASCII letter a..z per 100 000 of its ASCII
    letters}`` from lingua's letter frequencies (D61), for the Latin-script languages some page of
    :data:`PAGES` writes (lingua keeps no ASCII letter of the other scripts; the languages of
    :data:`EXEMPLARS` have no frequencies: the model gives them all languages' letters)."""
    out = {}
    for code in sorted(LANGUAGES, key=LANGUAGES.get):
        if LANGUAGES[code] not in PAGES:
            continue
        uni = lingua(code, "unigrams")
        counts = [float(uni.get(chr(c), 0)) for c in range(0x61, 0x7B)]
        total = sum(counts)
        if total < 0.5 * sum(float(p) for ch, p in uni.items() if ch.isalpha()):
            continue  # (a non-Latin alphabet: its ASCII letters are foreign names)
        out[LANGUAGES[code]] = tuple(round(100000 * n / total) for n in counts)
    return out


#: The common Hangul syllables are the most frequent ones of langdetect's Korean profile that
#: together make this share of its syllables (D48). langdetect, not lingua: the generated
#: mojibake cases of bench/repair.py draw Korean text from lingua's frequencies.
KOREAN_MASS = 0.95


def korean_syllables() -> str:
    """Return the common Hangul syllables (``KOREAN_MASS`` of langdetect's Korean syllable
    counts, most frequent first, then sorted)."""
    profile = langdetect("ko")
    if profile is None:
        raise ImportError("langdetect's Korean profile is missing (pip install -e '.[bench]')")
    counts = sorted(((n, g) for g, n in profile["freq"].items()
                     if len(g) == 1 and "\uac00" <= g <= "\ud7a3"), key=lambda x: (-x[0], x[1]))
    total = sum(n for n, _ in counts)
    chosen, seen = [], 0
    for n, g in counts:
        if seen >= KOREAN_MASS * total:
            break
        chosen.append(g)
        seen += n
    return "".join(sorted(chosen))


def korean_syllable_counts() -> tuple[str, tuple[int, ...], int]:
    """Return langdetect's counts of every Hangul syllable of its Korean profile: the syllables
    (in code point order), their counts, and the count of all ideographs (Hanja; langdetect
    folds ideographs into classes, so only their sum is used) (D51: how likely a reading's
    characters are as Korean)."""
    profile = langdetect("ko")
    if profile is None:
        raise ImportError("langdetect's Korean profile is missing (pip install -e '.[bench]')")
    grams = profile["freq"].items()
    counts = sorted((g, n) for g, n in grams if len(g) == 1 and "\uac00" <= g <= "\ud7a3")
    hanja = sum(n for g, n in grams if len(g) == 1 and ("\u4e00" <= g <= "\u9fff" or "\uf900" <= g <= "\ufaff"))
    return "".join(g for g, _ in counts), tuple(n for _, n in counts), hanja


def one_letter_words() -> str:
    """Return the non-ASCII Latin letters (U+00C0..U+024F) that langdetect's profiles show alone
    between spaces at least ``MIN_ALONE_PER_100K`` times per 100 000 trigrams."""
    alone = set()
    for code in LANGUAGES:
        profile = langdetect(code)
        if profile is None:
            continue
        trigrams = profile["n_words"][2]
        for gram, n in profile["freq"].items():
            if (len(gram) == 3 and gram[0] == gram[2] == " " and "\u00c0" <= gram[1] <= "\u024f"
                    and gram[1].isalpha() and n * 100000 >= MIN_ALONE_PER_100K * trigrams):
                alone.add(gram[1])
    return "".join(sorted(alone))


def initial_upper_share() -> float:
    """Return the share of capitals among the first letters of words of two letters or more
    (D95): per langdetect profile of a cased alphabet (its trigrams of a space and two letters
    mostly start with a cased letter: not Hebrew's Latin names), the share of those trigrams
    that start with a capital; the median of the profiles, to three decimals."""
    shares = []
    for code in LANGUAGES:
        profile = langdetect(code)
        if profile is None:
            continue
        upper = lower = other = 0
        for gram, n in profile["freq"].items():
            if len(gram) == 3 and gram[0] == " " and gram[1].isalpha() and gram[2].isalpha():
                if gram[1].lower() == gram[1].upper():
                    other += n  # (a letter without case: Arabic, Hebrew, Thai)
                elif gram[1].isupper():
                    upper += n
                else:
                    lower += n
        if upper + lower > other:
            shares.append(upper / (upper + lower))
    return round(statistics.median(shares), 3)


def page_languages() -> dict[str, dict[str, int]]:
    """Return ``{single-byte page: {language: weight}}`` from :data:`PAGES`, in the order of
    ``onemail.detect._langmodel.SINGLE_BYTE``."""
    sys.path.insert(0, str(REPO / "src"))
    from onemail.detect._langmodel import SINGLE_BYTE

    unknown = {page for pages in PAGES.values() for page in pages} - set(SINGLE_BYTE)
    if unknown or set(PAGES) - set(LANGUAGES.values()) - {name for name, _ in EXEMPLARS.values()}:
        raise SystemExit(f"train_detect: PAGES names unknown pages or languages: {sorted(unknown)}")
    out: dict[str, dict[str, int]] = {}
    for page in SINGLE_BYTE:
        langs = {lang: pages[page] for lang, pages in sorted(PAGES.items()) if page in pages}
        if langs:
            out[page] = langs
    return out


def _neighbour(ch: str) -> int:
    if ch.isascii():
        return CONTEXT_CLASSES.find(ch.lower()) if ch.isalpha() else 26
    return 27 if ch.isalpha() else 26


def contexts() -> dict[str, dict[str, tuple[str, str]]]:
    """Return ``{language: {letter: (left neighbour counts, right neighbour counts)}}``, each
    written as :func:`_pack_counts` does, from lingua's letter pairs.

    A letter's right neighbours are lingua's ``P(next | letter)``; what they leave is the end
    of the word (class ``_``). Its left neighbours are ``P(prev) P(letter | prev) / P(letter)``,
    the rest the start of a word. Scaled to ``CONTEXT_SAMPLE`` occurrences."""
    out = {}
    for code in sorted(LANGUAGES, key=LANGUAGES.get):
        uni = {ch: float(p) for ch, p in lingua(code, "unigrams").items()}
        pairs = lingua(code, "bigrams")
        left: dict[str, list[float]] = defaultdict(lambda: [0.0] * len(CONTEXT_CLASSES))
        right: dict[str, list[float]] = defaultdict(lambda: [0.0] * len(CONTEXT_CLASSES))
        for pair, p in pairs.items():
            a, b = pair
            if not b.isascii() and b.isalpha() and b in uni:
                left[b][_neighbour(a)] += uni.get(a, 0.0) * float(p) / uni[b]
            if not a.isascii() and a.isalpha():
                right[a][_neighbour(b)] += float(p)
        kept = {}
        for letter in sorted(set(left) | set(right)):
            if uni.get(letter, 0.0) < MIN_CONTEXT_SHARE:
                continue
            sides = []
            for side in (left[letter], right[letter]):
                side[26] += max(0.0, 1 - sum(side))  # the start or end of a word
                sides.append(_pack_counts([round(x * CONTEXT_SAMPLE) for x in side]))
            kept[letter] = tuple(sides)
        if kept and LANGUAGES[code] in PAGES:  # (only near-ties between pages read them)
            out[LANGUAGES[code]] = kept
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


def render(model, alone: str, pages: dict[str, dict[str, int]], context, korean: str = "") -> str:
    h = hashlib.sha256()
    for key in sorted(_read):
        h.update(key.encode() + b"\0" + hashlib.sha256(_read[key]).digest())
    versions = ", ".join(f"{name} {importlib.metadata.version(name)}"
                         for name in ("lingua-language-detector", "langdetect"))
    lines = [
        f"# GENERATED by scripts/train_detect.py from the n-gram data of {versions} (both",
        f"# Apache-2.0; {len(_read)} files, sha256 {h.hexdigest()[:16]}) and the facts in the script. DO NOT EDIT - regenerate.",
        "# lingua's frequencies were counted by its author from the Leipzig Wortschatz corpora, langdetect's from",
        "# Wikipedia; frequencies only, no text. The letters of the languages neither profiles are the main exemplar",
        "# characters of Unicode CLDR (Unicode License v3), written in the script. Neither corpus under ../shared/corpus was read.",
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
    lines.append(f"# Per language, its common letters (at least {COMMON_SHARE:g} of its letters).")
    lines.append("COMMON_LETTERS = {")
    for lang, letters in common_letters().items():
        lines.append(f"    {lang!r}: {_lit(letters)},")
    lines.append("}")
    lines.append("")
    lines.append(f"# Non-ASCII Latin letters used as one-letter words (>= {MIN_ALONE_PER_100K} per 100 000 trigrams).")
    lines.append(f"ONE_LETTER_WORDS = {_lit(alone)}")
    lines.append("")
    lines.append(f"# Neighbours of each non-ASCII letter, per {CONTEXT_SAMPLE} occurrences, per class of")
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
    lines.append(f"# The Hangul syllables that make {KOREAN_MASS:g} of langdetect's Korean syllables (D48).")
    lines.append(f"KOREAN_SYLLABLES = {_lit(korean)}")
    lines.append("")
    syllables, counts, hanja = korean_syllable_counts()
    lines.append("# Every Hangul syllable of langdetect's Korean profile and its count there, and the count of")
    lines.append("# its ideographs (Hanja) together (D51).")
    lines.append(f"KOREAN_SYLLABLE_COUNTS = ({_lit(syllables)}, (")
    lines.extend(f"    {', '.join(map(str, counts[i:i + 16]))}," for i in range(0, len(counts), 16))
    lines.append("))")
    lines.append(f"KOREAN_HANJA_COUNT = {hanja}")
    lines.append("")
    lines.append("# Per language, the frequency of each ASCII letter a..z per 100 000 of its ASCII letters (lingua).")
    lines.append("ASCII_LETTERS = {")
    for lang, counts in ascii_letters().items():
        lines.append(f"    {lang!r}: {counts!r},")
    lines.append("}")
    lines.append("")
    lines.append("# The share of capitals among the first letters of words of two letters or more: the median")
    lines.append("# of langdetect's profiles of cased alphabets (D95).")
    lines.append(f"INITIAL_UPPER = {initial_upper_share()!r}")
    lines.append("")
    lines.append("# The median log-factor (nats) by which the languages' elisions raise the apostrophe (D97).")
    lines.append(f"APOSTROPHE_LIFT = {apostrophe_lift()!r}")
    lines.append("")
    lines.append("# The single-byte pages each language is written in (2: its own page, 1: another that was used).")
    lines.append("PAGE_LANGUAGES = {")
    for page, langs in pages.items():
        lines.append(f"    {page!r}: {langs!r},")
    lines.append("}")
    return "\n".join(lines) + "\n"


def build() -> str:
    """Return the text of the generated module."""
    _read.clear()
    model, alone, context = train(), one_letter_words(), contexts()
    return render(model, alone, page_languages(), context, korean_syllables())


def write_or_check(build_text, out: Path, script: str, argv: list[str] | None, description: str) -> int:
    """The command line of a model generator: write ``build_text()`` to ``out``, or with
    ``--check`` fail when ``out`` differs from it (``script``: the generator's name, for the
    messages)."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--check", action="store_true", help="fail if the committed model is stale")
    args = ap.parse_args(argv)
    try:
        text = build_text()
    except ImportError as exc:
        print(f"{Path(script).stem}: {exc}", file=sys.stderr)
        return 2
    if args.check:
        if not out.exists() or out.read_text(encoding="utf-8") != text:
            print(f"stale: {out.relative_to(REPO)} (run {script})")
            return 1
        return 0
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out.relative_to(REPO)} ({len(text.encode())} bytes)")
    return 0


def main(argv: list[str] | None = None) -> int:
    return write_or_check(build, OUT, "scripts/train_detect.py", argv, __doc__.splitlines()[0])


if __name__ == "__main__":
    sys.exit(main())
