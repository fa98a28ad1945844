"""Charset detection (spec 004 "Detection").

Order of the rules (each later rule runs only when the earlier ones did not answer):

1. **Byte order mark** (``bom_charset``: UTF-32 marks before UTF-16 marks): one row, score
   100, no scoring at all.
2. **Empty or 7-bit input.** ISO-2022-JP, ISO-2022-KR and HZ by their escape sequences when
   the bytes decode with zero errors (D5). Otherwise pure ASCII: every ASCII-compatible
   candidate decodes it identically, so the answer is ``utf-8`` (the first candidate); the
   candidates tie, but the answer decodes right whichever of them is taken: confidence
   ``SEVEN_BIT_CONFIDENCE`` (99; 100 for empty input), D56, where spec 004 gives 0.
3. **UTF-32/UTF-16 without a BOM** (NUL bytes present): the shape test of
   :func:`onemail.detect._binary.utf16_32_shape` and a clean decode answer at once (D4); the
   design's halving rule still scores the UTF-16/32 candidates in step 6.
4. **The UTF-8 rule**: zero errors (a last character cut short does not count, D15) and a
   byte >= 0xC2 force the UTF-8 candidate to 100; the other candidates, scored on the first
   ``UTF8_RUNNER_UP_BYTES``, only set the confidence, which is at most 50 when the text is
   mojibake that :func:`onemail.detect.repair` would change (D14).
5. **An in-band declaration** (XML prolog, HTML ``<meta>``) the bytes decode cleanly with
   (D12).
6. **Scoring**: every candidate decodes a sample (``SAMPLE_BYTES`` from shortly before the
   first byte >= 0x80, cut after a line feed) and gets the five-signal score of
   :mod:`onemail.detect._scoring`. Candidates in the design's order: ``utf-8, gbk, big5,
   shift_jis, euc-kr, euc-jp, windows-1252, iso-8859-1, utf-16le, utf-16be, utf-32le,
   utf-32be``, sorted by score with a stable sort, so ties go to the earlier candidate.
   BOM-less UTF-16 is halved unless at least half of its code units have a zero high byte;
   UTF-32 also needs half of its units to have an all-zero high half. Beyond the design
   (D8), the windows-1252 and ISO-8859-1 rows are the two single-byte pages of 30 that the
   language model of :mod:`onemail.detect._langmodel` ranks first.

``confidence = clamp((top - second) * 3, 0, 100)``, scaled by ``top / 40`` when the top score
is below 40, floored at 85 when the winner's text is script-exclusive (>= 90 % Hangul or
>= 40 % kana) with zero errors (the design's; D36 replaced it by the chance that the answer
decodes right). 0 means the detector has not chosen: the two best readings tie and decode the
bytes otherwise.

Scoring decodes with CPython's C codecs (the design's tables are generated from them and are
equal to them, tested); the CJK candidates use the superset code pages the WHATWG decoders
implement (``gb18030`` for gbk, ``cp950`` for big5, ``cp932`` for shift_jis, ``cp949`` for
euc-kr), so that a file the returned label decodes cleanly also scores cleanly (D1, D6).
Every returned label resolves with :func:`onemail.text.for_label`, whose decoder is the one
the answer is judged by: a double-byte winner is checked with onemail's own decoder on the
sample, and scored again on its text if that decoder finds errors CPython's did not.

Speed (D16): a row whose score cannot reach the best so far, by an upper bound from its decode
errors and its share of bytes >= 0x80, is not classified (the bound is reported); under the
UTF-8 rule the single-byte rows stop at their bound too, and a double-byte row at a bound from
the characters that can earn frequency; a clean strict decode is kept, not decoded again;
the single-byte model sums all pages and languages on packed integers
(:mod:`onemail.detect._langmodel`); an isolated high byte (:func:`_isolated_high`) proves the
double-byte rows fail without decoding; the single-byte rows are counted from the bytes
(:func:`onemail.detect._scoring.classify_single_byte`); outside the UTF-8 rule a double-byte
row stops at its frequency bound unless it is among the two best (D16), and keeps the text
that settling classifies if it is; a row left to classify carries an upper bound and waits
while that bound is below the second best score (:func:`_undefer`); a strict decode proven to
fail (an isolated high byte, the UTF-8 rule's own failure, a C decode tried in :func:`_rank`)
gives its row the error bound without a call. bench/detect.py times it against chardet in the
same run and prints the ratios; bench/detect_same.py compares every answer with an earlier
commit's.
"""

from __future__ import annotations

import codecs
import math
import re
from dataclasses import dataclass
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from ._binary import bom_charset, utf16_32_shape
from ._langmodel import PAGE_DIFFERENCES as sb_differs
from ._langmodel import good_share, high_byte_counts, rank_single_byte
from ._langmodel import table as sb_table
from ._scoring import classify, classify_single_byte, score_counts

if TYPE_CHECKING:
    from ..text import TextIssue

__all__ = ["Candidate", "Detection", "detect", "CANDIDATES"]

#: The design's candidates in their order (spec 004 "Detection"): the label we return and the
#: CPython codec used to score it.
CANDIDATES: tuple[tuple[str, str], ...] = (
    ("utf-8", "utf-8"),
    ("gbk", "gb18030"),
    ("big5", "cp950"),
    ("shift_jis", "cp932"),
    ("euc-kr", "cp949"),
    ("euc-jp", "euc_jp"),
    ("windows-1252", "table:windows-1252"),
    ("iso-8859-1", "latin-1"),
    ("utf-16le", "utf-16-le"),
    ("utf-16be", "utf-16-be"),
    ("utf-32le", "utf-32-le"),
    ("utf-32be", "utf-32-be"),
)

#: Bytes of the input that the scoring step decodes. 4 KiB holds ~1300-4000 characters:
#: measured on the visible detect corpus, scoring the whole file instead changes no answer
#: among the 12 design candidates while costing up to 10x on large files.
SAMPLE_BYTES = 2048
#: Characters of each reading that are classified (the errors count over the whole sample):
#: on the visible corpora 1 200 characters decide as the whole 4 KiB sample does on all but
#: 2 of 1 694 files, at a third of the cost.
SCORE_CHARS = 400
#: Bytes of UTF-8 input whose text the mojibake check reads (D14), from shortly before the
#: first byte >= 0x80: on the visible corpora 512 bytes flag the same files as 1 KiB (256 miss
#: one) at two thirds of the whole-file cost of the check. Reading the whole text cost 20 %
#: more CPU on whole files: mojibake after
#: these bytes is not seen (a known limit, tests/detect/test_repair.py).
MOJIBAKE_CHECK_BYTES = 512
#: Confidence of UTF-8 whose text :func:`onemail.detect.repair` would change (D14): the
#: label is right (the bytes are UTF-8), but the text is mojibake, so 100 would claim a clean
#: text.
MOJIBAKE_CONFIDENCE = 50
#: Bytes scored for a UTF-16 reading the halving rule applies to (it can reach 50 at most).
UTF16_HALVED_BYTES = 512
#: The runner-up scores of a file the UTF-8 rule decides are computed on this many bytes:
#: they only set the confidence (on the visible corpora 128 bytes give the confidence 256
#: bytes give for all but a few files, at half the cost).
UTF8_RUNNER_UP_BYTES = 128

_ISO2022_JP = (b"\x1b$B", b"\x1b$@", b"\x1b(J", b"\x1b(I", b"\x1b$(D")


@dataclass(frozen=True, slots=True)
class Candidate:
    """One scored reading: ``charset`` (a label :func:`onemail.text.for_label` resolves) and
    ``score`` (``int`` 0..100, spec 004 "Scoring")."""

    charset: str
    score: int


@dataclass(frozen=True, slots=True)
class Detection:
    """The answer of :func:`detect`.

    :ivar charset: the label of the best reading (resolves with :func:`onemail.text.for_label`).
    :ivar confidence: ``int`` 0..100, the estimated chance that decoding with ``charset``
        gives the right text (D36; 7-bit input 99, D56); 0 means the detector has not chosen
        (two readings tie).
    :ivar candidates: every scored reading, best first (ties in the design's order).
    """

    charset: str
    confidence: int
    candidates: tuple[Candidate, ...]


_candidates: dict[tuple[str, int], Candidate] = {}


def _candidate(label: str, score: int) -> Candidate:
    """Return the (immutable, shared) :class:`Candidate` of ``label`` and ``score``: building a
    frozen dataclass costs ~1 us, a dozen per call (at most ~50 labels x 101 scores kept)."""
    found = _candidates.get((label, score))
    if found is None:
        found = _candidates[(label, score)] = Candidate(label, score)
    return found


def _single(label: str, confidence: int = 100) -> Detection:
    return Detection(label, confidence, (Candidate(label, 100),))


def _sample(data: bytes, limit: int, start: int = -1) -> bytes:
    """Return up to ``limit`` bytes starting shortly before the first byte >= 0x80.

    The start is a multiple of 4 (UTF-16/32 alignment) at most 64 bytes before the first
    non-ASCII byte: everything earlier is ASCII, identical in every ASCII-compatible reading.
    The end is cut after a line feed (or space) in the second half of the window. ``start``:
    :func:`_sample_start` of ``data`` when the caller has it (-1: not).
    """
    if start < 0:
        start = _sample_start(data)
    if start:
        data = data[start:]
    if len(data) <= limit:
        return data
    cut = data.rfind(b"\n", 0, limit)
    if cut < limit // 2:
        cut = data.rfind(b" ", 0, limit)
        if cut < limit // 2:
            return data[:limit]
    return data[: cut + 1]


def _sample_start(data: bytes) -> int:
    """The offset at which :func:`_sample` starts (at a character boundary: before it is ASCII)."""
    first = _first_high(data)
    return (first - 64) & ~3 if first > 64 else 0


def _table(key: str) -> str:
    from ..text.charsets import single_byte_table

    return single_byte_table(key)


_HIGH = re.compile(rb"[\x80-\xff]")


def _first_high(data: bytes) -> int:
    m = _HIGH.search(data)
    return m.start() if m else 0


def _decode(data: bytes, codec: str) -> tuple[str, int]:
    """Decode with a C codec; return ``(text, errors)``, each error one U+FFFD.

    ``table:<key>`` names one of onemail's own single-byte tables (WHATWG), decoded by
    :func:`codecs.charmap_decode` exactly as :mod:`onemail.text` does.
    """
    if codec.startswith("table:"):
        text = codecs.charmap_decode(data, "replace", _table(codec[6:]))[0]
        return text, text.count("\ufffd")
    try:
        return _strict(data, codec), 0
    except UnicodeDecodeError:
        pass
    return _decode_replace(data, codec)


def _strict(data: bytes, codec: str) -> str:
    """``data.decode(codec)``; the CJK codecs' C decode functions are looked up once
    (``bytes.decode(name)`` looks the codec up by its name on every call, which costs as much
    as decoding a short sample; UTF-8, UTF-16/32 and Latin-1 have faster paths there)."""
    fast = _CJK_DECODE.get(codec)
    return data.decode(codec) if fast is None else fast(data)[0]


def _replacing(data: bytes, codec: str) -> str:
    """``data.decode(codec, "replace")``, as :func:`_strict` does."""
    fast = _CJK_DECODE.get(codec)
    return data.decode(codec, "replace") if fast is None else fast(data, "replace")[0]


def _decode_replace(data: bytes, codec: str) -> tuple[str, int]:
    """:func:`_decode` of bytes a strict decode has already failed on."""
    text = _replacing(data, codec)
    errors = text.count("\ufffd")
    if codec == "utf-8":
        errors -= data.count(b"\xef\xbf\xbd")
    if errors and text.endswith("\ufffd") and data[-1] >= 0x80:
        errors -= 1  # a last character cut short by the sample or a prefix (D15)
    return text, errors


def _utf16_factor(data: bytes, label: str) -> bool:
    """True when BOM-less UTF-16/32 ``data`` shows the zero pattern (no halving)."""
    if label.startswith("utf-16"):
        units = len(data) // 2
        highs = data[1::2] if label == "utf-16le" else data[0::2]
        return units > 0 and highs.count(0) * 2 >= units
    units = len(data) // 4
    if not units:
        return False
    top = data[3::4] if label == "utf-32le" else data[0::4]
    half = data[2::4] if label == "utf-32le" else data[1::4]
    return top.count(0) * 2 >= units and half.count(0) * 2 >= units


def _score(data: bytes, label: str, codec: str, beat: float = -1.0,
           frequency_bound: bool = False, error_proven: bool = False,
           provisional: dict[str, _Pending] | None = None, high: int = -1) -> tuple[float, bool]:
    """Return ``(score, exclusive)`` of one candidate reading of ``data`` (see
    :func:`_score_start`)."""
    score, exclusive, pending = _score_start(data, label, codec, beat, frequency_bound, error_proven,
                                             provisional, high)
    return (score, exclusive) if pending is None else _classified(pending)


#: A reading whose classification is left for later (:func:`_score_start`): the text to
#: classify (its first ``SCORE_CHARS``), its errors (scaled to them), the bytes decoded (for
#: the UTF-16 halving rule) and the label.
_Pending = tuple[str, float, bytes, str]


def _score_start(data: bytes, label: str, codec: str, beat: float = -1.0,
                 frequency_bound: bool = False, error_proven: bool = False,
                 provisional: dict[str, _Pending] | None = None, high: int = -1,
                 upper: bool = False, strict: str | None = None) -> tuple[float, bool, _Pending | None]:
    """Return ``(score, exclusive, None)`` of one candidate reading of ``data`` when a bound or
    a shortcut decides it, else ``(bound, False, pending)``: :func:`_classified` of ``pending``
    is the ``(score, exclusive)`` of :func:`_score`, and ``bound`` an upper bound of that score
    (with ``upper``; else 100).

    Errors are counted over all of ``data``; the characters are classified in the first
    ``SCORE_CHARS`` of the text (errors scaled to that length). When an upper bound of the
    score, from the errors and the share of bytes >= 0x80 alone, stays below ``beat`` (the best
    score so far), the bound is returned without classifying (D16). With ``frequency_bound``
    (under the UTF-8 rule, where only a runner-up above 66.5 matters) the bound also counts the
    characters that can earn frequency (common ideographs, kana, KS X 1001 Hangul) with the
    classifier's own patterns, cheaper than classifying. ``error_proven`` says that a strict
    decode of ``data`` fails before its last three bytes (:func:`_isolated_high`): the bound
    of a failed decode is then taken without decoding. When ``provisional`` (a dict) is given,
    a row stopped at the frequency bound adds its label to it, with what :func:`_classified`
    scores it from (see :func:`_settle`). ``high``
    is the number of bytes >= 0x80 of ``data`` when the caller has counted them (-1: not);
    ``strict`` the text of a strict decode of ``data`` that succeeded (None: not tried).
    """
    if codec.startswith("utf-32") and not _utf32_possible(data, label):
        return 0.0, False, None
    if codec.startswith("utf-16") and not _utf16_factor(data, label):
        if beat >= 50:
            return 50.0, False, None  # halved: 50 at most, the bound
        data = data[:UTF16_HALVED_BYTES]  # halved anyway: a rough score is enough
        high = -1
    if high < 0 and beat > 0:
        high = len(data) - len(data.translate(None, _HIGH_BYTES))
    decoded = None
    failed = False  # a strict decode failed: the next decode replaces at once
    if beat > 0 and data and not codec.startswith("table:"):
        cut_short = False  # the only error may be a last character cut short (D15)
        if error_proven:
            failed = True  # (the strict decode would fail before the last three bytes)
        elif strict is not None:
            decoded = strict, 0
        else:
            try:
                decoded = _strict(data, codec), 0  # clean: the text is kept, not decoded again
            except UnicodeDecodeError as exc:
                failed = True
                cut_short = exc.start >= len(data) - 3
        if failed and not cut_short:
            # at least one error: bound the score before paying for the full decode (a
            # double-byte reading has >= len - high/2 characters)
            n = max(1.0, len(data) - high / 2)
            if 22 + 15 + 35 * min(1.0, high / n) + 10 < beat:
                return 22 + 15 + 35 * min(1.0, high / n) + 10, False, None
    errors: float
    text, errors = decoded or (_decode_replace(data, codec) if failed else _decode(data, codec))
    if beat > 0 and text:
        n = len(text)
        clean = max(0.0, 30 - 30 * errors / n - 8) if errors else 30.0
        bound = clean + 15 + 35 * min(1.0, high / n) + 10 + (0 if errors else 10)
        if bound < beat:
            return bound, False, None
    if len(text) > SCORE_CHARS:
        if errors:
            errors = max(1.0, errors * SCORE_CHARS / len(text))
        text = text[:SCORE_CHARS]
    earning = -1
    if frequency_bound and beat > 0 and text and codec in _CJK_CODECS:
        n = len(text)
        # what the pattern leaves is what can earn frequency
        earning = len(_frequency_pattern().sub("", text))
        clean = max(0.0, 30 - 30 * errors / n - 8) if errors else 30.0
        # (outside the UTF-8 rule, whose rows report their bound: exclusivity needs a kana or
        # a KS X 1001 Hangul syllable, which earn; without one, no 10)
        exclusive_bound = 0 if errors or not earning and provisional is not None else 10
        bound = clean + 15 + 35 * min(1.0, earning / n) + 10 + exclusive_bound
        if bound < beat:
            if provisional is not None:
                provisional[label] = (text, errors, data, label)
            return bound, False, None
    bound = 100.0
    if upper and text:
        # the score's positive terms, with every U+FFFD noise and no coherence (it is neither
        # neutral nor scripted), frequency only from the characters that can earn it, and
        # exclusivity only with one of them (a kana or a KS X 1001 Hangul syllable) and no
        # error; every penalty is left out
        n = len(text)
        if earning < 0:
            earning = len(_frequency_pattern().sub("", text))
        clean = max(0.0, 30 - 30 * errors / n - 8) if errors else 30.0
        kept = n - text.count("\ufffd")
        # (plus a slack for the rounding of the score's own float sum, ~1e-14)
        bound = clean + 25 * kept / n + 35 * min(1.0, earning / n) + (10 if earning and not errors else 0) + 1e-9
    return bound, False, (text, errors, data, label)


def _classified(pending: _Pending) -> tuple[float, bool]:
    """The ``(score, exclusive)`` of a reading :func:`_score_start` left pending."""
    text, errors, data, label = pending
    counts = classify(text)
    score = score_counts(counts, errors)
    if label.startswith("utf-") and label != "utf-8" and not _utf16_factor(data, label):
        score /= 2
    scripted = counts.scripted()
    exclusive = bool(not errors and scripted and (counts.hangul >= 0.9 * scripted
                                                  or counts.kana >= 0.4 * scripted))
    return score, exclusive


_CJK_CODECS = frozenset(("gb18030", "cp950", "cp932", "cp949", "euc_jp"))
_CJK_DECODE = {codec: codecs.lookup(codec).decode for codec in _CJK_CODECS}


def _frequency_pattern() -> re.Pattern[str]:
    """The pattern deleting all but common ideographs, kana and KS X 1001 Hangul: a superset of
    what :func:`onemail.detect._scoring.classify` counts as frequency evidence (it also drops
    isolated characters). The three sets are disjoint: one deletion counts their sum."""
    if not _patterns:
        from ._scoring import not_in
        from ._tables.common import COMMON_HAN, KS_HANGUL

        kana = "".join(map(chr, range(0x3040, 0x3100)))
        _patterns.append(not_in(COMMON_HAN + kana + KS_HANGUL))
    return _patterns[0]


_patterns: list[re.Pattern[str]] = []


def _utf32_possible(data: bytes, label: str) -> bool:
    """False when most units have a non-zero top byte: most would be errors (above U+10FFFF).

    Such a reading scores next to nothing (clean 0, printability and coherence of a text of
    U+FFFD), so it is given 0 without decoding (CPython's error path costs ~1 us per unit).
    """
    units = len(data) // 4
    top = data[3::4] if label == "utf-32le" else data[0::4]
    return units > 0 and top.count(0) * 2 >= units


#: The confidence curve (D36): the chance that decoding with the answer gives the right text,
#: ``CEILING / (1 + exp(-(gap - SHIFT) / SCALE))``, ``gap`` the evidence (in nats) between the
#: answer and the best reading that decodes the sample otherwise. Fitted by maximum
#: likelihood on the visible corpora's scored answers (whole files, 64- and 512-byte
#: prefixes): fitted on chardet's files alone it gives the catalogue files an expected
#: calibration error of 3.1 points, fitted on the catalogue files chardet's 2.7.
CONFIDENCE_CEILING = 0.99
CONFIDENCE_SHIFT = -0.5
CONFIDENCE_SCALE = 0.75
#: Confidence of BOM-less UTF-16/32 of the right shape that decodes cleanly (D4), of an
#: ISO-2022 or HZ text with its escapes that decodes cleanly (D5): the shape and the escapes
#: are all but proof.
SHAPE_CONFIDENCE = 99


#: A candidate row: (score, order of the design, label, exclusive).
_Row = tuple[float, int, str, bool]


def _confidence(rows: list[tuple[float, int, str, bool]], nats: float | None = None) -> int:
    """Return the confidence of the first of ``rows`` (D36).

    ``nats`` is the log-likelihood by which the winning single-byte page leads the best page
    reading the bytes otherwise (None when the winner is no single-byte page of the model's
    first choice): that is the evidence; otherwise the score margin over the second row, in
    the model's unit (``LM_POINTS`` points per nat). An exact tie of two readings is 0: the
    detector has not chosen (the message layer then reads windows-1252, M6).
    """
    top = rows[0][0]
    second = rows[1][0] if len(rows) > 1 else 0.0
    if top == second:
        return 0
    gap = nats if nats is not None else (top - second) / LM_POINTS
    return round(100 * CONFIDENCE_CEILING / (1 + math.exp(-(gap - CONFIDENCE_SHIFT) / CONFIDENCE_SCALE)))


def _forced_confidence(rows: list[tuple[float, int, str, bool]]) -> int:
    """The UTF-8 rule's confidence: 100 where the design's three times the margin over the
    runner-up reaches it (spec 004: no other reading comes near), else the chance that margin
    gives, as for the scored answers (:func:`_confidence`, D96)."""
    top = round(rows[0][0])
    second = round(rows[1][0]) if len(rows) > 1 else 0
    if (top - second) * 3 >= 100:
        return 100
    return _confidence(rows)


def _rank(data: bytes, sample: bytes, forced_utf8: bool = False, utf8_error: int = -1) -> Detection:
    """Score every candidate on ``sample``; single-byte pages chosen on all of ``data``.

    The design's windows-1252 and ISO-8859-1 rows become the two single-byte pages the
    language model ranks first (:mod:`onemail.detect._langmodel`; D8); the second loses
    ``LM_POINTS`` per nat of log-likelihood it trails by (at most ``LM_CAP``).
    ``utf8_error`` is the offset in ``sample`` of the first byte a strict UTF-8 decode fails
    on (-1: not known).
    """
    if forced_utf8:
        # the runner-ups only set the confidence: the design's two single-byte rows suffice
        counts: list[tuple[int, int]] = []
        ranked = [(0.0, "windows-1252", 0.0), (0.0, "iso-8859-1", 0.0)]
    else:
        counts, letters, adjacent = high_byte_counts(data)
        ranked = rank_single_byte(counts, letters, adjacent)
    (ll1, sb1, fit1), (ll2, sb2, fit2) = ranked[0], ranked[1]
    columns = None  # (the counts transposed once for both single-byte rows: good_share)
    # The two pages read the sample alike when they read every high byte counted alike (the
    # sample's high bytes are among them: it lies in the counted stretch): one classification
    alike = False
    if counts:
        bs, ns = zip(*counts, strict=True)
        columns = bs, ns, sum(ns)
        alike = not sum(map((1).__lshift__, bs)) & sb_differs[sb1][sb2]
    sb_counts = None
    rows: list[_Row] = []
    # Under the UTF-8 rule a runner-up below 66.5 leaves the confidence at 100 whatever its
    # exact score: such rows may stop at their bound.
    best = FORCED_BEAT if forced_utf8 else -1.0
    isolated = None if forced_utf8 else _isolated_high(sample)
    # without a NUL no UTF-16/32 reading has the zero pattern: UTF-32 is given 0 and UTF-16 its
    # halved bound (what _score gives them, without slicing the sample four times)
    no_nul = 0 not in sample
    provisional: dict[str, _Pending] = {}  # double-byte rows stopped at their frequency bound
    waiting: list[tuple[float, int, str, _Pending]] = []  # rows left to classify, with a bound
    high = len(sample) - len(sample.translate(None, _HIGH_BYTES))  # (counted once for every row)
    # the bound _score gives a double-byte row whose strict decode the isolated high byte
    # proves to fail (the same for each: it depends on the sample alone)
    failed_bound = 0.0  # (_score's bound of a reading whose strict decode fails, not cut short)
    if sample:
        n = max(1.0, len(sample) - high / 2)
        failed_bound = 22 + 15 + 35 * min(1.0, high / n) + 10
    # (a strict decode that fails within the sample's last three bytes may be cut short: _score
    # decides then)
    utf8_fails = 0 <= utf8_error < len(sample) - 3
    for order, (label, codec) in _SB_FIRST:
        if forced_utf8 and label == "utf-8":
            rows.append((100.0, order, label, False))
            continue
        if label in _SB_ROWS:
            label = sb1 if label == "windows-1252" else sb2
            table = sb_table(label)
            if forced_utf8 and sample:
                # a single-byte reading has no East Asian character (no frequency, no
                # exclusivity, no penalty): at most clean + coherence + printability (D16);
                # its errors are the bytes the page leaves undefined
                errors = len(sample) - len(sample.translate(None, _undefined_bytes(table)))
                bound = (max(0.0, 30 - 30 * errors / len(sample) - 8) if errors else 30.0) + 15 + 10
                if bound < best:
                    rows.append((bound, order, label, False))
                    continue
            # (the counts of the decoded sample, taken on its bytes: each U+FFFD is an error)
            c = sb_counts if alike and sb_counts is not None else classify_single_byte(sample, table)
            sb_counts = c
            errors = c.fffd
            fit = fit1 if label == sb1 else fit2
            good = good_share(counts, label, columns) * high * fit if counts else 0.0
            score = score_counts(c, errors, good=good)
            if label == sb2:
                score = max(0.0, score - min(LM_CAP, LM_POINTS * max(0.0, ll1 - ll2)))
            rows.append((score, order, label, False))
            best = max(best, score)
            continue
        if no_nul and sample and codec.startswith("utf-"):
            if codec.startswith("utf-32"):
                rows.append((0.0, order, label, False))
                continue
            if codec.startswith("utf-16") and best >= 50:
                rows.append((50.0, order, label, False))
                continue
        proven = isolated is not None and codec in _CJK_CODECS and (
            codec != "cp932" or isolated in _CP932_LEADS)
        strict = None
        if 0 < failed_bound < best:
            # what _score gives a reading whose strict decode fails: tried here (in C)
            if proven or codec == "utf-8" and utf8_fails:
                rows.append((failed_bound, order, label, False))
                continue
            if codec in _CJK_CODECS:
                try:
                    strict = _CJK_DECODE[codec](sample)[0]
                except UnicodeDecodeError as exc:
                    if exc.start < len(sample) - 3:
                        rows.append((failed_bound, order, label, False))
                        continue
        score, exclusive, pending = _score_start(
            sample, label, codec, best, frequency_bound=True, error_proven=proven,
            provisional=None if forced_utf8 else provisional, high=high, upper=not forced_utf8,
            strict=strict)
        if pending is None:
            rows.append((score, order, label, exclusive))
        elif forced_utf8:
            score, exclusive = _classified(pending)
            rows.append((score, order, label, exclusive))
        else:
            waiting.append((score, order, label, pending))
    deferred: dict[str, _Pending] = {}
    if waiting:
        # The rows left to classify, likeliest first: one whose bound falls below the second
        # best score known cannot be among the two best rows, and is classified only if it
        # comes to be (_undefer), as rows above it are scored again (D16)
        first = second = -math.inf
        for row in rows:
            if row[0] > first:
                first, second = row[0], first
            elif row[0] > second:
                second = row[0]
        waiting.sort(key=_row_order)
        for bound, order, label, pending in waiting:
            if bound < second:
                rows.append((bound, order, label, False))
                deferred[label] = pending
                continue
            score, exclusive = _classified(pending)
            rows.append((score, order, label, exclusive))
            if score > first:
                first, second = score, first
            elif score > second:
                second = score
    # best score first, ties in the design's order: by order, then stably by score (two sorts
    # in C, no key function per row)
    rows.sort(key=_ORDER)
    rows.sort(key=_SCORE, reverse=True)
    if not forced_utf8:
        rows = _settle(rows, provisional, deferred)
        rows = _check_with_ours(sample, rows, deferred)
        rows = _settle(rows, provisional, deferred)
    if forced_utf8:
        conf = _forced_confidence(rows)
    else:
        conf = _confidence(rows, ll1 - ll2 if rows[0][2] == sb1 else None)
    got = _candidates.get
    return Detection(rows[0][2], conf, tuple([got(key) or _candidate(*key)
                                              for key in [(r[2], round(r[0])) for r in rows]]))


def _settle(rows: list[_Row], provisional: dict[str, _Pending],
            deferred: dict[str, _Pending] | None = None) -> list[_Row]:
    """Score exactly every provisional row (one stopped at its frequency bound) among the two
    best, until none is: the best and the second, hence the charset and the confidence, are
    those of exact scores; a provisional row below them keeps its bound (D16). A deferred row
    (:func:`_undefer`) among them is classified first.

    A provisional row's bound is at least its exact score, so scoring it can only move it
    down; the single-byte row that set ``beat`` stays above every provisional row. Its exact
    score is that of its classification (:func:`_score` with the best single-byte score
    passes the bounds it passed before and classifies the same text): the text kept is
    classified, not decoded again.
    """
    while True:
        if deferred:
            _undefer(rows, deferred)
        pending = [i for i in range(min(2, len(rows))) if rows[i][2] in provisional]
        if not pending:
            return rows
        for i in pending:
            _, order, label, _ = rows[i]
            score, exclusive = _classified(provisional.pop(label))
            rows[i] = (score, order, label, exclusive)
        rows.sort(key=_row_order)


def _undefer(rows: list[_Row], deferred: dict[str, _Pending]) -> None:
    """Classify every deferred row among the two best of ``rows`` (sorted), until none is.

    A deferred row holds an upper bound of its score in place of the score :func:`_rank` would
    have classified it to: once none is among the two best, the rows above the others are
    those the scores would give, in the same order (D16).
    """
    while True:
        pending = [i for i in range(min(2, len(rows))) if rows[i][2] in deferred]
        if not pending:
            return
        for i in pending:
            _, order, label, _ = rows[i]
            score, exclusive = _classified(deferred.pop(label))
            rows[i] = (score, order, label, exclusive)
        rows.sort(key=_row_order)


def _undefined_bytes(table: str) -> bytes:
    """The bytes a single-byte decoding table leaves undefined (U+FFFE), as a deletion set."""
    found = _undefined.get(table)
    if found is None:
        found = _undefined[table] = bytes(b for b in range(256) if table[b] == "\ufffe")
    return found


_undefined: dict[str, bytes] = {}


_ORDER = itemgetter(1)
_SCORE = itemgetter(0)


def _row_order(row: tuple[float, int, Any, Any]) -> tuple[float, int]:
    """Best score first, ties in the design's order (a row, or a row still to classify)."""
    return -row[0], row[1]


# A high byte at a character boundary followed by a byte that is neither a trail byte nor a
# digit (GB18030's four-byte sequences have digits in second place): every double-byte codec of
# the candidates fails there (Shift_JIS only when the byte is one of its lead bytes; its
# 0xA1..0xDF are half-width katakana). The high byte is at a boundary after two ASCII bytes (the
# second cannot be a trail: no lead before it), after a byte below 0x40 that is not a digit (no
# codec's trail or continuation byte: a space before a one-letter Cyrillic word), or at the
# start. Checked against CPython's codecs by tests/stdlib_assumptions/test_cjk_codecs.py.
# (searched from the bytes before it: a scan of East Asian text, nearly all high bytes, skips
# in C; the start of the sample is matched apart)
_ISOLATED_HIGH = re.compile(rb"(?:[\x00-\x7f][\x00-\x7f]|[\x00-\x2f\x3a-\x3f])[\x80-\xff]"
                            rb"[\x00-\x2f\x3a-\x3f\x7f]")
_ISOLATED_AT_START = re.compile(rb"[\x00-\x7f]?[\x80-\xff][\x00-\x2f\x3a-\x3f\x7f]")
_CP932_LEADS = frozenset((*range(0x81, 0xA0), *range(0xE0, 0xFD)))
#: Bytes after the first high byte in which :func:`_isolated_high` looks (a Latin text's
#: accented letters are near; East Asian text has none to find).
ISOLATED_LOOK_BYTES = 128


def _isolated_high(sample: bytes) -> int | None:
    """Return the value of a high byte of ``sample`` where every double-byte codec fails before
    the last three bytes (see ``_ISOLATED_HIGH``), or None (none within ``ISOLATED_LOOK_BYTES``
    of the first high byte): one search where each codec would raise and catch its own error."""
    first = _first_high(sample)
    end = min(first + ISOLATED_LOOK_BYTES, len(sample) - 2)
    m = _ISOLATED_AT_START.match(sample, 0, end) or _ISOLATED_HIGH.search(sample, max(0, first - 2), end)
    return sample[m.end() - 2] if m else None


#: Bytes of the sample that onemail's own decoder checks (it is pure Python: ~25 us per KiB).
OURS_CHECK_BYTES = 1024
_DOUBLE_BYTE = frozenset(("gbk", "big5", "shift_jis", "euc-kr", "euc-jp"))


def _check_with_ours(sample: bytes, rows: list[_Row], deferred: dict[str, _Pending] | None = None) -> list[_Row]:
    """Re-score a double-byte winner with onemail's own decoder (the one its label selects).

    Scoring used CPython's codecs; where the WHATWG decoder finds errors CPython did not, the
    winner is scored again on onemail's text and the rows re-sorted (at most twice; a deferred
    row that comes first is classified before, :func:`_undefer`).
    """
    from ..text import for_label

    sample = _sample(sample, OURS_CHECK_BYTES)
    for _ in range(2):
        if deferred:
            _undefer(rows, deferred)
        score, order, label, exclusive = rows[0]
        if label not in _DOUBLE_BYTE:
            break
        issues: list[TextIssue] = []
        charset = for_label(label)
        assert charset is not None  # a key of _DOUBLE_BYTE
        text = charset.decode(sample, issues)
        errors: float = len(issues)
        if errors and issues[-1].offset + issues[-1].length >= len(sample) and sample[-1] >= 0x80:
            errors -= 1  # a last character cut short (D15)
        if not errors:
            break
        if len(text) > SCORE_CHARS:
            errors = max(1.0, errors * SCORE_CHARS / len(text))
            text = text[:SCORE_CHARS]
        ours = score_counts(classify(text), errors)
        if ours >= score:
            break
        rows[0] = (ours, order, label, False)
        rows.sort(key=_row_order)
    return rows


_SB_ROWS = ("windows-1252", "iso-8859-1")
_CODECS = dict(CANDIDATES)
#: The candidates with their design order, the single-byte rows first: their score lets the
#: others skip classification (D16).
_SB_FIRST = sorted(enumerate(CANDIDATES), key=lambda oc: oc[1][0] not in _SB_ROWS)
FORCED_BEAT = 66.0
#: Points the second single-byte page loses per nat of log-likelihood behind the first (D8):
#: one character a plausible language uses against one it never does is ~10 nats.
LM_POINTS = 2.0
LM_CAP = 30.0
_HIGH_BYTES = bytes(range(128, 256))


def detect(data: bytes | bytearray | memoryview) -> Detection:
    """Name the charset of ``data`` (spec 004 "Detection"; rules in the module docstring).

    :param data: raw bytes (``bytes``, ``bytearray`` or ``memoryview``), not ``str``.
    :returns: :class:`Detection` ``(charset, confidence, candidates)``; ``charset`` is a label
        that :func:`onemail.text.for_label` resolves, and decoding ``data`` with it is the
        best reading found. Never raises on any bytes.
    :raises TypeError: ``data`` is not bytes-like.

    >>> found = detect("Grüße".encode("utf-8"))
    >>> found.charset, found.confidence
    ('utf-8', 100)
    >>> detect(b"plain ascii").confidence  # (every ASCII-compatible reading is the same, D56)
    99
    """
    if not isinstance(data, bytes):
        if isinstance(data, (bytearray, memoryview)):
            data = bytes(data)
        else:
            raise TypeError(f"data must be bytes-like, not {type(data).__name__}")
    bom = bom_charset(data)
    if bom is not None:
        return _single(bom[0])
    has_nul = 0 in data
    if not has_nul and data.isascii():
        return _seven_bit(data)
    if has_nul:
        shape = utf16_32_shape(data)
        if shape is not None:
            _, errors = _decode(data, shape.replace("utf-16", "utf-16-").replace("utf-32", "utf-32-"))
            if not errors:
                return _single(shape, SHAPE_CONFIDENCE)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if (exc.end == len(data) and exc.reason == "unexpected end of data"
                and (exc.end - exc.start > 1 or not data.isascii() and not data[:exc.start].isascii())):
            # a last character cut short (a prefix, a truncated file) is no evidence against
            # UTF-8 (D15); a lone lead byte at the end with nothing non-ASCII before it is no
            # evidence for it either ("Jos\xe9" is windows-1252): the candidates decide
            return _utf8(data)
        declared = _declared(data)
        if declared is not None:
            return _single(declared, DECLARED_CONFIDENCE)
        # (the sample starts at a character boundary before the first error: its own strict
        # decode fails at the same byte)
        start = _sample_start(data)
        return _rank(data, _sample(data, SAMPLE_BYTES, start), utf8_error=exc.start - start)
    if data.isascii():  # NULs but no shape: ASCII control data
        return _seven_bit(data)
    return _utf8(data)


def _utf8(data: bytes) -> Detection:
    """The UTF-8 rule: the UTF-8 candidate is 100, the others only set the confidence."""
    sample = _sample(data, UTF8_RUNNER_UP_BYTES)
    found = _rank(sample, sample, forced_utf8=True)
    if found.confidence > MOJIBAKE_CONFIDENCE:
        from ._repair import repair

        text = _sample(data, MOJIBAKE_CHECK_BYTES).decode("utf-8", "ignore")
        if repair(text).steps:  # (repair starts with the cheap repair_possible test)
            # valid UTF-8 of mojibake: the charset is right, the text is not clean (D14)
            return Detection(found.charset, MOJIBAKE_CONFIDENCE, found.candidates)
    return found


_DECLARATION = re.compile(
    rb"""<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._:-]{1,40})"""
    rb"""|<meta[^>]*?charset\s*=\s*["']?([A-Za-z0-9._:-]{1,40})""",
    re.IGNORECASE,
)
#: Where an in-band declaration is looked for (the WHATWG prescan reads 1024 bytes; XML
#: prologs come first).
DECLARATION_BYTES = 1024
#: Confidence of a declared charset the bytes decode cleanly with (D12): a declaration that is
#: wrong and still decodes every byte is rare (1 of 314 such answers on the visible corpora).
DECLARED_CONFIDENCE = 98
# CPython codecs equal to (or, for the check, as strict as) onemail's decoder of a key.
_CHECK_CODEC = {"gbk": "gb18030", "gb18030": "gb18030", "big5": "big5hkscs", "shift_jis": "cp932",
                "euc-kr": "cp949", "euc-jp": "euc_jp"}


def _declared(data: bytes) -> str | None:
    """Return the label an XML prolog or HTML ``<meta>`` declares, when the bytes agree (D12).

    The declaration is trusted only when it names a charset :func:`onemail.text.for_label`
    knows, not UTF-16/32 (the WHATWG prescan ignores those in 8-bit bytes), and all of
    ``data`` decodes with it with zero errors.
    """
    if data.find(b"<", 0, DECLARATION_BYTES) < 0:
        return None  # (every declaration starts with "<": one search in C)
    m = _DECLARATION.search(data, 0, DECLARATION_BYTES)
    if m is None:
        return None
    from ..text import for_label

    label = (m.group(1) or m.group(2)).decode("ascii")
    cs = for_label(label)
    if cs is None or cs.key.startswith(("utf-16", "utf-32", "utf-7", "x-user")):
        return None
    key = cs.key
    if key in _CHECK_CODEC:
        ok = _clean(data, _CHECK_CODEC[key])
    elif key == "utf-8":
        ok = False  # not valid UTF-8 (the UTF-8 rule ran first)
    else:
        try:
            table = sb_table(key)
        except KeyError:
            return None
        ok = "\ufffd" not in codecs.charmap_decode(data, "replace", table)[0]
    return label.lower() if ok else None


def _seven_bit(data: bytes) -> Detection:
    if b"\x1b" in data:
        if b"\x1b$)C" in data and _clean(data, "iso2022_kr"):
            return _single("iso-2022-kr", SHAPE_CONFIDENCE)
        if any(e in data for e in _ISO2022_JP) and _clean(data, "iso2022_jp_ext"):
            return _single("iso-2022-jp", SHAPE_CONFIDENCE)
    if b"~{" in data and b"~}" in data and _clean(data, "hz"):
        return _single("hz-gb-2312", SHAPE_CONFIDENCE)
    # Every ASCII-compatible candidate reads ASCII identically: the candidates tie, and any of
    # them decodes the text right (D56)
    score = round(score_counts(classify(data.decode("ascii")), 0))
    rows = tuple(Candidate(label, score) for label, _ in CANDIDATES[:8])
    return Detection("utf-8", SEVEN_BIT_CONFIDENCE if data else 100, rows)


#: Confidence of 7-bit input that no escape sequence marks (D56): every ASCII-compatible
#: candidate decodes it to the same text, so the answer decodes right unless the bytes are a
#: reading of no ASCII-compatible charset (BOM-less UTF-16 or UTF-32 without their zero
#: pattern): the ceiling of the confidence curve, as for the shape rules. Empty input is 100
#: (every reading of no bytes is the empty text).
SEVEN_BIT_CONFIDENCE = 99


def _clean(data: bytes, codec: str) -> bool:
    try:
        codecs.decode(data, codec)
    except UnicodeDecodeError:
        return False
    return True
