"""Choosing among single-byte code pages of the same script (beyond the design's candidates).

The design scores windows-1252 and ISO-8859-1 only. Real mail also comes in windows-1250/1251/
1253-1258, ISO-8859-2..16, KOI8-R/U, IBM866, CP437/850, Mac Roman, x-mac-cyrillic and
windows-874. These share the ASCII half and differ in the bytes 0x80..0xFF, so the evidence is
which characters the high bytes become, and whether real text in some language uses them.

**The model** (``_tables/language.py``, written by ``scripts/train_detect.py`` from the visible
corpora only, 11 KB): per language, the frequency of each non-ASCII character (case kept)
per 100 000 non-ASCII characters, and the share of non-ASCII letters among its letters. A
language is *plausible* for a code page when the page encodes at least ``PLAUSIBLE`` of the
language's non-ASCII letter mass.

**Scoring** a file (:func:`rank_single_byte`): count each high byte (the first
``MAX_HIGH_BYTES`` of the file) and the ASCII letters; a page's log-likelihood is that of its
best plausible language: ``sum(count * log p(character))`` with ``p`` the language's case-folded
frequency, times its upper- or lower-case share (at least ``UPPER_MIN``), backed off
(``BACKOFF``) to all languages' letters pooled and floored at ``FLOOR``; plus the binomial
log-likelihood of the observed non-ASCII share (skipped for non-Latin alphabets when there is
no ASCII letter at all); minus ``MIX_NATS`` per high byte that reads as a non-Latin letter
beside an ASCII letter, as a lower-case letter right before an upper-case ASCII letter, or as an
upper-case letter right after a lower-case one (words do not change script or case inside).
The best page wins; a page reading every byte present as a more used page does is reported as
that page (:data:`SINGLE_BYTE` is ordered most used in mail first). The same model gives the
*alphabetic frequency* signal (:func:`good_share`): the share of high bytes that become a
character with at least ``GOOD`` per 100 000 in a plausible language, times the fit of the best
language; it fills the design's 35-point frequency slot for alphabetic text, as the common
ideographs do for Chinese.

Thresholds and their measurements (single-byte files of the visible corpora ``detect`` +
``detect-fresh`` decoded right, of 676; bench/detect.py gives the per-encoding tables):

* ``PLAUSIBLE = 0.8``: 663 files; 0.9 -> 661, 0.95 -> 656 (0.97 drops Romanian from
  ISO-8859-2, which lacks ș/ț).
* ``FLOOR = 1e-6`` (per character): an unseen character must cost more than any seen one
  (the rarest kept is 20 per 100 000 = 2e-4); an undefined byte (C1 control, unmapped) costs
  ``UNDEFINED = 1e-9``, less again. 1e-7 -> 662.
* ``BACKOFF = 0.1``: 0.02 -> 662, 0.3 -> 660 (a letter the visible text of one language lacks,
  "ç" in the French files, is not unseen). ``UPPER_MIN = 0.05``: 0.15 -> 662 on whole files
  (one more on prefixes), 0.3 -> 658.
* ``MIX_NATS = 6``: 3 -> 662, 10 -> 663; the case rule adds 3 files. The same cost applies
  to a high byte right after an ASCII digit that the page makes a letter (``60.000Ä`` for
  ``60.000€``; ``ª``, ``º`` and ``µ`` excepted).
* The same cost again for a high byte alone between white space that the page makes a Latin
  letter the visible texts never use as a word (``ONE_LETTER_WORDS``, trained: ``à é å è
  í ...`` are words, ``ë`` is not): ``detect`` 512-byte prefixes 99.34 % -> 99.43 %,
  ``detect-fresh`` 64-byte 96.12 % -> 96.34 %, 512-byte 98.88 % -> 99.06 %, nothing lost.
* ``SYMBOL_FLOOR = 1e-4`` for ``€`` (``TEXT_SYMBOLS``), which no visible language text uses
  often enough to be kept, yet any may: with the digit rule, bench/detect.py on ``detect``
  goes from 99.13 % to 99.30 % (whole files), 98.22 % to 98.57 % (64-byte prefixes) and
  99.24 % to 99.34 % (512), ``detect-fresh`` unchanged; 1e-5 gains only part of it, 3e-4
  the same; adding the typographic quotes, dashes and ``…`` changes nothing, and a floor for
  every punctuation and currency sign loses 3 whole files (``¤``, ``«`` readings win). Raising the non-ASCII
  share of non-Latin languages to 0.9 for whole files loses 7: the measured shares stay.
* ``GOOD = 100`` per 100 000 (0.1 %): letters of the language's alphabet are all above it in
  every visible language, mojibake characters (``Ã``, ``¼``, ``Ð`` in windows-1252 readings
  of UTF-8 or GBK) below it.
* ``LOCAL_ASCII_RUN = 1024``: ASCII stretches of 1024 bytes or more without a high byte are
  left out of the share term (D32); 256 or 512 lose one visible file in three modes.
* ``MAX_HIGH_BYTES = 2048``: counting up to 65 536 changes no answer on the visible corpora
  and costs three times as much on large files.
* Letter-pair (bigram) models were tried: +1 file at 30 % more time, not kept.
"""

from __future__ import annotations

import math
import re
import struct
from operator import itemgetter, mul

__all__ = ["SINGLE_BYTE", "rank_single_byte", "good_share", "char_weights"]

#: Single-byte candidates (labels :func:`onemail.text.for_label` resolves), most used first.
SINGLE_BYTE = (
    "windows-1252", "iso-8859-1", "windows-1250", "iso-8859-2", "windows-1251", "koi8-r",
    "iso-8859-5", "ibm866", "x-mac-cyrillic", "koi8-u", "windows-1253", "iso-8859-7",
    "windows-1254", "windows-1255", "iso-8859-8", "windows-1256", "iso-8859-6", "windows-1257",
    "iso-8859-13", "iso-8859-4", "windows-1258", "windows-874", "iso-8859-15", "iso-8859-16",
    "iso-8859-3", "iso-8859-10", "iso-8859-14", "macintosh", "ibm850", "ibm437",
)
PLAUSIBLE = 0.8
FLOOR = 1e-6
UNDEFINED = 1e-9
#: Floor of a sign any language's text may use but the visible texts barely show (prices are
#: rare in them): the euro sign is not an unseen letter (see the module docstring).
SYMBOL_FLOOR = 1e-4
TEXT_SYMBOLS = "€"
GOOD = 100
MAX_HIGH_BYTES = 2048
#: The model reads at most this much of the input.
WINDOW_BYTES = 65536
#: The script-mixing evidence (high bytes beside ASCII letters) is read in this many bytes.
ADJACENT_BYTES = 2048
UPPER_MIN = 0.05
BACKOFF = 0.1
MIX_NATS = 6.0
SHARE_MIN = 0.005
SHARE_MAX = 0.995

_model = None


_LATIN1 = "".join(map(chr, range(256)))


_table_cache: dict[str, str] = {"iso-8859-1": _LATIN1}  # the design's latin1: C1 controls


def table(label: str) -> str:
    """Return the 256-character decode table of a single-byte candidate (U+FFFE = unmapped)."""
    t = _table_cache.get(label)
    if t is None:
        from ..text._tables.single_byte import TABLES

        t = _table_cache[label] = TABLES[label]
    return t


def _build():
    from ._tables.language import LANGUAGES

    langs = {}
    shares = {}
    folded_langs = {}
    uppers = {}
    for lang, (share, chars, freqs) in LANGUAGES.items():
        if chars:
            langs[lang] = dict(zip(chars, freqs, strict=True))
            folded: dict[str, int] = {}
            for ch, n in langs[lang].items():
                f = ch.lower() if len(ch.lower()) == 1 else ch
                folded[f] = folded.get(f, 0) + n
            folded_langs[lang] = folded
            letters = [(ch, n) for ch, n in langs[lang].items() if ch.isalpha()]
            upper = sum(n for ch, n in letters if ch.isupper())
            uppers[lang] = min(0.5, max(UPPER_MIN, upper / max(1, sum(n for _, n in letters))))
            shares[lang] = min(SHARE_MAX, max(SHARE_MIN, share / 1000))
    # Back-off distribution: every language's letters together (folded), so that a letter the
    # visible text of one language happens to lack ("ç" in the French files) is not unseen.
    pooled: dict[str, float] = {}
    for folded in folded_langs.values():
        for ch, n in folded.items():
            pooled[ch] = pooled.get(ch, 0) + n / len(folded_langs)
    pages = {}
    for label in SINGLE_BYTE:
        t = table(label)
        high = set(t[128:])
        models = []
        good = bytearray(256)
        for lang, freq in langs.items():
            letters = sum(n for ch, n in freq.items() if ch.isalpha())
            covered = sum(n for ch, n in freq.items() if ch.isalpha() and ch in high)
            if not letters or covered < PLAUSIBLE * letters:
                continue
            log_p = [0.0] * 256
            folded = folded_langs[lang]
            upper = uppers[lang]
            for b in range(128, 256):
                ch = t[b]
                if ch == "\ufffe" or "\x80" <= ch <= "\x9f":
                    log_p[b] = math.log(UNDEFINED)
                    continue
                low = ch.lower() if len(ch.lower()) == 1 else ch
                n = (1 - BACKOFF) * folded.get(low, 0) + BACKOFF * pooled.get(low, 0)
                if ch != low:
                    n *= upper
                elif ch.isalpha() and ch.upper() != ch:
                    n *= 1 - upper
                log_p[b] = math.log(max(n / 100000, SYMBOL_FLOOR if ch in TEXT_SYMBOLS else FLOOR))
                if folded.get(low, 0) >= GOOD:
                    good[b] = 1
            share = shares[lang]
            neg_entropy = sum(n / 100000 * math.log(n / 100000) for n in folded.values())
            models.append((lang, log_p, math.log(share), math.log(1 - share), neg_entropy))
        # bytes the page makes a non-Latin letter of, as the deletion set of bytes.translate
        nonlatin = bytes(b for b in range(256) if t[b].isalpha() and ord(t[b]) >= 0x370)
        lower = bytes(b for b in range(128, 256) if t[b].islower())
        upper = bytes(b for b in range(128, 256) if t[b].isupper())
        ub = [max((m[1][b] for m in models), default=math.log(FLOOR)) for b in range(256)]
        pages[label] = (models, bytes(good), nonlatin, ub, lower, upper)
    weights: dict[str, int] = {}
    for folded in folded_langs.values():
        for ch, n in folded.items():
            for variant in {ch, ch.upper() if len(ch.upper()) == 1 else ch}:
                if n > weights.get(variant, 0):
                    weights[variant] = n
    lang_share = {lang: (math.log(v), math.log(1 - v)) for lang, v in shares.items()}
    return pages, weights, lang_share


def _context_cost(page, context) -> float:
    """``MIX_NATS`` per high byte the page makes a non-Latin letter beside an ASCII letter, a
    lower-case letter before an upper-case ASCII one (``øPuedo``) or an upper-case letter
    after a lower-case ASCII one."""
    adjacent, before_upper, after_lower = context
    nonlatin, lower, upper = page[2], page[4], page[5]
    n = len(adjacent) - len(adjacent.translate(None, nonlatin))
    if before_upper:
        n += len(before_upper) - len(before_upper.translate(None, lower))
    if after_lower:
        n += len(after_lower) - len(after_lower.translate(None, upper))
    return MIX_NATS * n


_non_latin_langs: list[str] = []
_non_latin_idx: list[int] = []


def _non_latin_index() -> list[int]:
    """:func:`_non_latin` as indices into the share table's order."""
    if not _non_latin_idx:
        names = list(_get()[2])
        _non_latin_idx.extend(names.index(lang) for lang in _non_latin())
    return _non_latin_idx


def _non_latin() -> list[str]:
    """Languages whose most frequent non-ASCII letters are not Latin."""
    if not _non_latin_langs:
        from ._tables.language import LANGUAGES

        _non_latin_langs.extend(lang for lang, (_s, chars, _f) in LANGUAGES.items()
                                if chars and chars[0].isalpha() and ord(chars[0]) >= 0x370)
    return _non_latin_langs


_rows_cache: list = []


def _page_rows() -> list:
    """Per page, what the bound loop needs: ``(-order, label, has models, upper bounds,
    non-Latin letter bytes, lower-case bytes, upper-case bytes, languages)``."""
    if not _rows_cache:
        pages = _get()[0]
        langs_of = _page_langs()
        interned: dict[bytes, bytes] = {}
        for order, label in enumerate(SINGLE_BYTE):
            page = pages[label]
            # equal byte sets share one object, so that the bound loop counts them once
            sets = [interned.setdefault(x, x) for x in (page[2], page[4], page[5])]
            _rows_cache.append((-order, label, bool(page[0]), page[3], *sets, langs_of[label]))
        _packed_ub.extend(_pack([pages[label][3] for label in SINGLE_BYTE]))
        for kind, index in (("adjacent", 4), ("before_upper", 5), ("after_lower", 6)):
            _packed_mix[kind] = [sum(1 << (64 * i) for i, row in enumerate(_rows_cache) if b in row[index])
                                 for b in range(256)]
        # a letter right after a digit ("60.000Ä" for "60.000€"); the ordinal indicators and
        # the micro sign do follow digits
        _packed_mix["after_digit"] = [
            sum(1 << (64 * i) for i, label in enumerate(SINGLE_BYTE)
                if b >= 0x80 and table(label)[b].isalpha() and table(label)[b] not in "ªºµ")
            for b in range(256)]
        # a Latin letter alone between white space that no visible text uses as a word
        # ("tekst ë í op" for windows-1252 quotes read as macintosh)
        from ._tables.language import ONE_LETTER_WORDS

        _packed_mix["alone"] = [
            sum(1 << (64 * i) for i, label in enumerate(SINGLE_BYTE)
                if b >= 0x80 and "\u00c0" <= table(label)[b] <= "\u024f" and table(label)[b].isalpha()
                and table(label)[b] not in ONE_LETTER_WORDS)
            for b in range(256)]
        tables = [table(label) for label in SINGLE_BYTE]
        for j, label in enumerate(SINGLE_BYTE):
            # the earlier pages, each with the set of bytes it reads differently (a 256-bit int)
            _earlier[label] = [(other, sum(1 << b for b in range(256) if tables[i][b] != tables[j][b]))
                               for i, other in enumerate(SINGLE_BYTE[:j])]
        names = list(_get()[2])
        index = {lang: i for i, lang in enumerate(names)}
        _lang_names.extend(names)
        set_no: dict[tuple[str, ...], int] = {}
        for order, label in enumerate(SINGLE_BYTE):
            models = pages[label][0]
            _packed_langs[label] = (_pack([m[1] for m in models]),
                                    f"<{len(models)}Q", [(index[m[0]], m[4]) for m in models])
            langs = langs_of[label]
            if langs not in set_no:
                set_no[langs] = len(_lang_sets)
                _lang_sets.append(tuple(index[lang] for lang in langs))
            _bound_rows.append((-order, label, set_no[langs]))
    return _rows_cache


#: Languages in the order of the model's share table; language sets of the pages as index
#: tuples; per page ``(-order, label, language set number)``.
_lang_names: list[str] = []
_lang_sets: list[tuple[int, ...]] = []
_bound_rows: list[tuple[int, str, int]] = []


#: Fixed-point scale of the packed log-probabilities (see :func:`_pack`): 2**-24 nats per unit,
#: so a sum over 2 048 bytes is within 1e-4 nats of the float sum.
_SCALE = 1 << 24
_UB_FMT = f"<{len(SINGLE_BYTE)}Q"
_packed_ub: list[int] = []
#: Per kind of context (see :func:`_context_cost`): byte -> packed 0/1 per page (``_pack``'s
#: layout), so one multiply-add per distinct byte counts the mixed bytes of every page.
_packed_mix: dict[str, list[int]] = {}
_earlier: dict[str, list[tuple[str, int]]] = {}
_packed_langs: dict[str, tuple[list[int], str, list[tuple[str, float]]]] = {}


def _pack(columns: list[list[float]]) -> list[int]:
    """Pack per-byte log-probabilities of several models into one integer per byte.

    Model ``i`` takes bits ``64*i .. 64*i+63`` of byte ``b``'s integer: ``floor(-log p * 2**24)``
    (at most 2**29). ``sum(count * packed[b])`` then sums every model at once in C (no field
    overflows below 2**35 bytes); the fields, read back with ``struct``, are each model's
    ``-sum(count * log p)`` rounded towards the higher likelihood. The rounding only raises a
    sum, so packed upper bounds stay upper bounds.
    """
    packed = []
    for b in range(256):
        v = 0
        for i, col in enumerate(columns):
            v |= int(-col[b] * _SCALE) << (64 * i)
        packed.append(v)
    return packed


def _unpack(total: int, fmt: str, n: int) -> tuple[int, ...]:
    return struct.unpack(fmt, total.to_bytes(8 * n, "little"))


_langs_of: dict[str, tuple[str, ...]] = {}


def _page_langs() -> dict[str, tuple[str, ...]]:
    if not _langs_of:
        interned: dict[tuple[str, ...], tuple[str, ...]] = {}
        for label, page in _get()[0].items():
            langs = tuple(m[0] for m in page[0])
            _langs_of[label] = interned.setdefault(langs, langs)
    return _langs_of


def _get():
    global _model
    if _model is None:
        _model = _build()
    return _model


def high_byte_counts(data: bytes) -> tuple[list[tuple[int, int]], int, tuple[bytes, ...]]:
    """Return ``([(byte, count)], ascii letters, context)`` for ``data``.

    The first list counts the bytes >= 0x80 (the first ``MAX_HIGH_BYTES`` of them), then the
    ASCII letters of the same stretch, then ``(high bytes with an ASCII letter beside them,
    high bytes before an upper-case ASCII letter, high bytes after a lower-case one, high bytes
    after an ASCII digit, high bytes alone between white space)``.
    """
    data = data[:WINDOW_BYTES]
    hb = data.translate(None, _ASCII)
    if len(hb) > MAX_HIGH_BYTES:
        hb = hb[:MAX_HIGH_BYTES]
        data = data[: MAX_HIGH_BYTES * 4]
    letters = len(data) - len(data.translate(None, _LETTERS))
    if hb and letters > LOCAL_ASCII_RUN:
        # Only ASCII near the text counts for the share: an ASCII stretch of LOCAL_ASCII_RUN
        # bytes or more without a high byte (an English disclaimer, markup) is another text.
        local = b"".join(_LONG_ASCII.split(data))
        letters = len(local) - len(local.translate(None, _LETTERS))
    # (bytes.count per distinct byte: twice as fast as a Counter on these lengths)
    return [(b, hb.count(b)) for b in set(hb)], letters, _context(data[:ADJACENT_BYTES])


def _context(window: bytes) -> tuple[bytes, bytes, bytes, bytes, bytes]:
    """Return the high bytes of ``window`` beside an ASCII letter, before an upper-case one,
    after a lower-case one, after an ASCII digit, and alone between white space (in no
    particular order).

    Each byte of ``window`` is one byte of a big integer; class masks (0xFF per member byte,
    from ``bytes.translate``) are shifted by 8 bits to look at the neighbours, and the chosen
    bytes are cut out with ``and`` and a deletion of the zero bytes: one pass of C per step.
    """
    if not window:
        return b"", b"", b"", b"", b""
    size = len(window)
    high = int.from_bytes(window.translate(_HIGH_MASK), "big")
    upper = int.from_bytes(window.translate(_UPPER_MASK), "big")
    lower = int.from_bytes(window.translate(_LOWER_MASK), "big")
    value = int.from_bytes(window, "big")
    letter = upper | lower
    # (mask << 8) moves the flag of byte i + 1 onto byte i; (mask >> 8) that of byte i - 1
    adjacent = high & ((letter << 8) | (letter >> 8))
    before_upper = high & (upper << 8)
    after_lower = high & (lower >> 8)
    after_digit = high & (int.from_bytes(window.translate(_DIGIT_MASK), "big") >> 8)
    space = int.from_bytes(window.translate(_SPACE_MASK), "big")
    alone = high & (space << 8) & (space >> 8)
    return tuple((value & m).to_bytes(size, "big").translate(None, b"\0") if m else b""
                 for m in (adjacent, before_upper, after_lower, after_digit, alone))


_HIGH_MASK = bytes(0xFF if b >= 0x80 else 0 for b in range(256))
_UPPER_MASK = bytes(0xFF if 0x41 <= b <= 0x5A else 0 for b in range(256))
_LOWER_MASK = bytes(0xFF if 0x61 <= b <= 0x7A else 0 for b in range(256))
_SPACE_MASK = bytes(0xFF if b in b" \t\r\n" else 0 for b in range(256))
_DIGIT_MASK = bytes(0xFF if 0x30 <= b <= 0x39 else 0 for b in range(256))


_ASCII = bytes(range(128))
#: ASCII stretches at least this long hold no evidence about the share of non-ASCII letters
#: (D32: a Russian paragraph before 2 KB of English disclaimer read as windows-1258 without
#: this). 1024 changes no answer on the visible corpora in any mode; 256 and 512 lose 1 file
#: in three modes each (bench/detect.py).
LOCAL_ASCII_RUN = 1024
_LONG_ASCII = re.compile(rb"[\x00-\x7f]{%d,}" % LOCAL_ASCII_RUN)
_LETTERS = bytes(range(0x41, 0x5B)) + bytes(range(0x61, 0x7B))


def rank_single_byte(counts: list[tuple[int, int]], ascii_letters: int,
                     adjacent: tuple[bytes, ...] | None = None) -> list[tuple[float, str, float]]:
    """Return ``[(log-likelihood, label, fit)]`` of the two best single-byte pages, best first.

    A page's log-likelihood is that of its best plausible language: the high bytes' characters,
    plus the share of non-ASCII among the letters (``high * log(share) + ascii_letters *
    log(1 - share)``), which keeps a French text with 2 % accented letters from reading as
    Greek (60 % non-ASCII letters) even where both pages give common letters.

    ``fit`` (0..1) compares the mean log-probability of the high bytes' characters with the
    best language's own (its negative entropy): ``exp(mean - own)``, capped at 1. Real text
    fits (0.6-1 on the visible files); the bytes of a multi-byte page read as single bytes
    give the right letters in the wrong proportions (0.01-0.2).

    Speed: each page has an upper bound (every byte scored by its most favourable language);
    pages are evaluated exactly in bound order until no bound can beat the best, and the next
    page is the runner-up at its bound; typically 1-3 of the 30 pages are scored exactly. The
    sums run in C on packed fixed-point integers (:func:`_pack`): one multiply-add per distinct
    byte gives the bounds of all 30 pages, another all languages of one page (answers equal to
    the float sums' on every visible file and 64/512-byte prefix).

    :param counts: :func:`high_byte_counts` of the input.
    :param ascii_letters: number of ASCII letters in the same bytes.
    :param adjacent: the third item of :func:`high_byte_counts`, the high bytes beside ASCII
        letters (see :func:`_context_cost`): Greek, Cyrillic, Hebrew... words do not mix with
        ASCII letters, Latin ones do, and case does not change inside a word; a letter does not
        follow a digit; a Latin letter alone between spaces is a word the visible texts use
        (``ONE_LETTER_WORDS``). A 3-tuple (the first three contexts) is accepted.
    """
    high = sum(n for _, n in counts) or 1
    counts = sorted(counts, key=lambda bn: -bn[1])
    bs = [b for b, _ in counts]
    ns = [n for _, n in counts]
    rows = _page_rows()
    share_term = [high * log_s + ascii_letters * log_not_s for log_s, log_not_s in _get()[2].values()]
    if not ascii_letters:
        # no ASCII letter at all says nothing against a non-Latin alphabet (its measured
        # share is lowered by the English and markup around the visible texts)
        for i in _non_latin_index():
            share_term[i] = 0.0
    # Pages that read every byte present the same way, with the same languages, score the same
    # (windows-1252, ISO-8859-1 and ISO-8859-15 on most Western text): evaluated once.
    pick = itemgetter(*bs) if len(bs) > 1 else (lambda t: (t[bs[0]],) if bs else ())
    adj, before_upper, after_lower, after_digit, alone = (*adjacent, b"", b"")[:5] if adjacent else (b"",) * 5
    # every page's sum of its per-byte upper bounds at once (fixed point, see _pack)
    ub_sums = _unpack(sum(map(mul, ns, pick(_packed_ub))), _UB_FMT, len(rows)) if bs else (0,) * len(rows)
    # MIX_NATS per byte read as a non-Latin letter beside an ASCII letter, or against the
    # case of the ASCII letter beside it (see _context_cost), for every page at once
    mixed_total = 0
    for context, kind in ((adj, "adjacent"), (before_upper, "before_upper"), (after_lower, "after_lower"),
                          (after_digit, "after_digit"), (alone, "alone")):
        if context:
            distinct = set(context)
            mixed_total += sum(map(mul, map(context.count, distinct),
                                   map(_packed_mix[kind].__getitem__, distinct)))
    mixes = _unpack(mixed_total, _UB_FMT, len(rows)) if mixed_total else (0,) * len(rows)
    # the best share term of each language set (pages share sets)
    tops = [max(map(share_term.__getitem__, langs)) if langs else 0.0 for langs in _lang_sets]
    scale = -1.0 / _SCALE
    floor_bound = high * math.log(FLOOR)
    bounds = [((ub_sum * scale + tops[k] if _lang_sets[k] else floor_bound) - MIX_NATS * mixed,
               neg_order, label, MIX_NATS * mixed, k)
              for (neg_order, label, k), ub_sum, mixed in zip(_bound_rows, ub_sums, mixes, strict=True)]
    bounds.sort(reverse=True)
    exact: list[tuple[float, int, str, float]] = []
    exact_seen: dict[tuple[str, int], tuple[float, float]] = {}
    runner_up = None
    for bound, neg_order, label, mix, set_no in bounds:
        if exact and bound <= exact[0][0]:
            # no page left can beat the best: the next one is the runner-up at its bound
            # (an over-estimate, so the second row's penalty errs small)
            runner_up = (bound, neg_order, label, 0.0)
            break
        key = ("".join(pick(table(label))), set_no)
        done = exact_seen.get(key)
        if done is not None:
            exact.append((done[0], neg_order, label, done[1]))
            exact.sort(reverse=True)
            continue
        best, fit = -math.inf, 0.0
        # every language of the page at once (fixed point, see _pack)
        packed, fmt, langs_h = _packed_langs[label]
        if bs and langs_h:
            sums = _unpack(sum(map(mul, ns, pick(packed))), fmt, len(langs_h))
            lls = [q * scale + share_term[lang] for (lang, _), q in zip(langs_h, sums, strict=True)]
            best = max(lls)
            j = lls.index(best)  # the first best language, as a strict ">" scan finds it
            fit = min(1.0, math.exp(sums[j] * scale / high - langs_h[j][1]))
        if best == -math.inf:
            best = bound + mix
        exact_seen[key] = (best - mix, fit)
        exact.append((best - mix, neg_order, label, fit))
        exact.sort(reverse=True)
    if runner_up is not None and (len(exact) < 2 or runner_up[0] > exact[1][0]):
        exact = [exact[0], runner_up]
    result = [(ll, label, fit) for ll, _, label, fit in exact[:2]]
    # A page that reads every byte present as an earlier (more used) page does is reported as
    # that page: German text is windows-1252, not the windows-1254 that reads it alike.
    if result and bs:
        ll, label, fit = result[0]
        present = sum(map((1).__lshift__, bs))
        for other, differs in _earlier[label]:
            if not present & differs:
                result[0] = (ll, other, fit)
                if len(result) > 1 and result[1][1] == other:
                    result[1] = (result[1][0], label, result[1][2])
                break
    return result


def good_share(counts: list[tuple[int, int]], label: str) -> float:
    """Return the share (0..1) of high bytes that ``label`` makes a common letter of."""
    good = _get()[0][label][1]
    total = sum(n for _, n in counts)
    return sum(n for b, n in counts if good[b]) / total if total else 0.0


_letters_by_lang: dict[str, dict[str, int]] = {}


def language_letters() -> dict[str, dict[str, int]]:
    """Return ``{language: {lower-case character: frequency per 100 000}}`` (case folded)."""
    if not _letters_by_lang:
        from ._tables.language import LANGUAGES

        for lang, (_share, chars, freqs) in LANGUAGES.items():
            folded: dict[str, int] = {}
            for ch, n in zip(chars, freqs, strict=True):
                f = ch.lower() if len(ch.lower()) == 1 else ch
                folded[f] = folded.get(f, 0) + n
            if folded:
                _letters_by_lang[lang] = folded
    return _letters_by_lang


def char_weights() -> dict[str, int]:
    """Return ``{character: highest frequency per 100 000 in any language}``, case folded
    (``Ê`` weighs what ``ê`` does)."""
    return _get()[1]
