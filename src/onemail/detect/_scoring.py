"""The five-signal plausibility score of a decoded text (spec 004 "Scoring").

``text_score(text, errors)`` is an ``int`` in ``0..100``:

============================  ====  =====================================================
signal                        max   computation
============================  ====  =====================================================
clean decode                  30    30 with no errors, else ``30 - 30*errors/chars - 8``
                                    (floored at 0): one failure is already strong
                                    evidence, hence the flat 8 (spec "Why the error penalty
                                    is not proportional")
script coherence              15    ``15 * (dominant script + neutral) / chars``
character frequency           35    ``35 * (common evidence / CJK chars) * (CJK chars /
                                    chars)``: the share factor keeps two accented Latin
                                    letters read as kanji from earning a page's worth
printability                  10    ``10 * (chars - noise) / chars``
script exclusivity            10    >= 90 % Hangul or >= 40 % kana among the scripted
                                    characters, with zero errors
============================  ====  =====================================================

minus 12 when Hangul is mixed with ideographs or kana and the minority exceeds a third of the
scripted characters, minus ``30 * (kanji outside JIS X 0208 level 1) / kanji`` when the text
holds kana (spec "Telling Japanese from Chinese").

Classes (decisions D2, D3 in ``docs/ambiguities.md``):

* **neutral**: ASCII printable and white space, Latin-1 punctuation and symbols
  (U+00A0..U+00BF, U+00D7, U+00F7), General Punctuation and the symbol blocks
  U+2000..U+27FF, CJK Symbols and Punctuation (U+3000..U+303F), full-width forms
  (U+FF00..U+FF60, U+FFE0..U+FFEF). Half-width katakana (U+FF61..U+FF9F) are *not*
  neutral: a Chinese code page read as Shift_JIS produces exactly those.
* **noise**: C0 controls other than TAB, LF, FF, CR; DEL; C1 controls; U+FFFD;
  the private use area (U+E000..U+F8FF).
* **scripts**: Latin (non-ASCII letters), Greek, Cyrillic, Hebrew, Arabic, Thai, Han, kana,
  Hangul, half-width kana, other. Han and kana count as one script (Japanese writes both)
  for coherence.
* **frequency evidence**: ideographs in ``COMMON_HAN`` (GB2312 level 1 | Big5 level 1, 6 722
  distinct ideographs; the design's "9 156" adds the two levels without removing the 2 434
  shared ones), plus every kana and Hangul syllable (a fixed score: no frequency data).

Speed: classification works on whole 256-code-point blocks: the text is encoded as UTF-16-BE
and the high bytes (``[::2]``) are mapped by ``bytes.translate`` to class letters and counted in
C. Only the blocks that mix classes (U+00xx, U+30xx, U+FFxx) and ideograph membership use
``re``/``str.translate``, on the characters concerned.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable, Iterable
from typing import Any, cast

__all__ = ["Counts", "classify", "classify_single_byte", "not_in", "text_score"]

# --- classes by UTF-16 high byte (one 256-code-point block each) ------------------------------
_BLOCK_CLASSES = bytearray(b"O" * 256)  # other scripted
for _hi in (0x01, 0x02, 0x1E):
    _BLOCK_CLASSES[_hi] = ord("L")
_BLOCK_CLASSES[0x03] = ord("G")
_BLOCK_CLASSES[0x04] = ord("C")
_BLOCK_CLASSES[0x05] = ord("H")
_BLOCK_CLASSES[0x06] = _BLOCK_CLASSES[0x07] = ord("A")
_BLOCK_CLASSES[0x0E] = ord("T")
for _hi in range(0x20, 0x28):
    _BLOCK_CLASSES[_hi] = ord("N")
_BLOCK_CLASSES[0x30] = ord("K")  # kana, minus CJK punctuation U+3000..U+303F (counted by re)
for _hi in (*range(0x34, 0x4E), *range(0x4E, 0xA0), 0xF9, 0xFA):
    _BLOCK_CLASSES[_hi] = ord("I")  # ideographs (Ext A, URO, compatibility)
for _hi in range(0xAC, 0xD8):
    _BLOCK_CLASSES[_hi] = ord("U")  # Hangul syllables
for _hi in range(0xE0, 0xF9):
    _BLOCK_CLASSES[_hi] = ord("X")  # private use: noise
_BLOCK_CLASSES[0x00] = ord("z")  # Latin-1 block: classified by character below
_BLOCK_CLASSES[0xFF] = ord("F")  # half/full-width forms: split below
_BLOCK = bytes(_BLOCK_CLASSES)

# Latin-1 block (U+0000..U+00FF) by character.
_LATIN1_CLASSES = bytearray(b"N" * 256)
for _b in (*range(0x00, 0x09), 0x0B, *range(0x0E, 0x20), *range(0x7F, 0xA0)):
    _LATIN1_CLASSES[_b] = ord("X")
for _b in range(0xC0, 0x100):
    if _b not in (0xD7, 0xF7):
        _LATIN1_CLASSES[_b] = ord("L")
_LATIN1 = bytes(_LATIN1_CLASSES)

_tables: tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]] | None = None


def not_in(chars: str) -> re.Pattern[str]:
    """Compile ``[^chars]+`` with the characters as ranges (``re`` keeps them as a bitmap)."""
    cps = sorted(set(map(ord, chars)))
    ranges: list[list[int]] = []
    for cp in cps:
        if ranges and ranges[-1][1] == cp - 1:
            ranges[-1][1] = cp
        else:
            ranges.append([cp, cp])
    body = "".join(chr(a) if a == b else f"{chr(a)}-{chr(b)}" for a, b in ranges)
    return re.compile(f"[^{body}]+")


def _sets() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """Return the patterns deleting everything but common ideographs / JIS level-1 kanji."""
    global _tables
    if _tables is None:
        from ._tables.common import COMMON_HAN, JIS_LEVEL1, KS_HANGUL

        _tables = (not_in(COMMON_HAN), not_in(JIS_LEVEL1), not_in(KS_HANGUL))
    return _tables


class Counts:
    """Character counts of one text (see the module docstring for the classes)."""

    __slots__ = ("ascii_letters", "lone", "hangul_common", "wedged", "wedged_both", "suspect", "chars", "neutral", "noise", "latin", "greek", "cyrillic", "hebrew", "arabic",
                 "thai", "han", "kana", "hangul", "half_kana", "other", "common", "jis1", "fffd")

    ascii_letters: int
    lone: int
    hangul_common: int
    wedged: int
    wedged_both: int
    suspect: int
    chars: int
    neutral: int
    noise: int
    latin: int
    greek: int
    cyrillic: int
    hebrew: int
    arabic: int
    thai: int
    han: int
    kana: int
    hangul: int
    half_kana: int
    other: int
    common: int
    jis1: int
    fffd: int

    def scripted(self) -> int:
        return (self.latin + self.greek + self.cyrillic + self.hebrew + self.arabic + self.thai
                + self.han + self.kana + self.hangul + self.half_kana + self.other)

    def dominant(self) -> int:
        return max(self.latin, self.greek, self.cyrillic, self.hebrew, self.arabic, self.thai,
                   self.han + self.kana, self.hangul, self.half_kana, self.other)


def _table01(members: Iterable[int]) -> bytes:
    """Return a ``bytes.translate`` table mapping ``members`` to 1 and every other byte to 0."""
    s = set(members)
    return bytes(int(b in s) for b in range(256))


def _mask(b: bytes, table: bytes) -> int:
    return int.from_bytes(b.translate(table), "big")


_IS_00 = _table01([0x00])
_IS_30 = _table01([0x30])
_IS_FF = _table01([0xFF])
_IS_FD = _table01([0xFD])
_LT_40 = _table01(range(0x40))
_HALF = _table01(range(0x61, 0xA0))
_L1_LETTER = _table01(b for b in range(256) if _LATIN1[b] == ord("L"))
_L1_NOISE = _table01(b for b in range(256) if _LATIN1[b] == ord("X"))
_ASCII_LETTERS = bytes([*range(0x41, 0x5B), *range(0x61, 0x7B)])
_ASCII_LETTER = _table01([*range(0x41, 0x5B), *range(0x61, 0x7B)])
_IS_HAN = _table01(b for b in range(256) if _BLOCK[b] == ord("I"))
_IS_HANGUL = _table01(b for b in range(256) if _BLOCK[b] == ord("U"))
_HAN_OR_HANGUL = _table01(b for b in range(256) if _BLOCK[b] in b"IU")


def _count_alphabets(c: Counts, count: Callable[[bytes], int]) -> None:
    """Set the Greek, Cyrillic, Hebrew, Arabic, Thai and other counts of ``c`` from ``count``
    (``bytes.count`` of a string of class letters: ``_BLOCK``'s, which
    :func:`classify_single_byte`'s tables share)."""
    c.greek = count(b"G")
    c.cyrillic = count(b"C")
    c.hebrew = count(b"H")
    c.arabic = count(b"A")
    c.thai = count(b"T")
    c.other = count(b"O")


def ideographs(text: str) -> tuple[int, int]:
    """Return ``(ideographs, common ideographs)`` of ``text``: the ``han`` and ``common`` counts
    of :func:`classify` before its correction for isolated ideographs between other scripts
    (each at least ``classify``'s), at a fraction of its cost."""
    if text.isascii():
        return 0, 0
    han = common = 0
    not_common = _sets()[0]
    # (in pieces: each piece's copies, not the whole text's; one character class, so any cut
    # counts alike)
    for start in range(0, len(text), CLASSIFY_PIECE):
        piece = text[start:start + CLASSIFY_PIECE]
        found = piece.encode("utf-16-be", "surrogatepass")[::2].translate(_BLOCK).count(b"I")
        if found:
            han += found
            common += len(not_common.sub("", piece))
    return han, common


#: Texts longer than this many characters are classified in pieces (cut where no neighbour
#: relation of the classes crosses, :data:`_PIECE_CUT`): the bit masks cost several times the
#: text's size, a piece's only its own (peak memory near the input's, issue 16).
CLASSIFY_PIECE = 1 << 16
_SUMMED = ("chars", "neutral", "noise", "latin", "greek", "cyrillic", "hebrew", "arabic", "thai",
           "other", "hangul", "kana", "half_kana", "fffd", "wedged", "wedged_both", "suspect", "lone",
           "ascii_letters")
# The characters _classify's neighbour relations join (its ``east`` mask): kana U+3040..U+30FF,
# the ideograph blocks, Hangul U+AC00..U+D7FF, half-width katakana U+FF61..U+FF9F.
_EAST_CLASS = "\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7ff\uff61-\uff9f"
#: The places a piece may end without changing a count: the relations are an East Asian
#: character's with its neighbours (an ASCII letter one character away, East Asian characters
#: one or two away), so a cut is exact after a character that is neither East Asian nor an ASCII
#: letter (white space, punctuation), between two characters that are not East Asian (``ab``),
#: or inside a run of six East Asian characters (three on each side keep every run long).
#: Chinese, Japanese and Korean text without white space has such places everywhere; before,
#: only white space was one and a megabyte of it was classified at once (over 100 bytes of masks
#: per character).
_PIECE_CUT = re.compile(f"(?<=[^{_EAST_CLASS}A-Za-z])|(?<=[^{_EAST_CLASS}])(?=[^{_EAST_CLASS}])"
                        f"|(?<=[{_EAST_CLASS}]{{3}})(?=[{_EAST_CLASS}]{{3}})")


def classify(text: str) -> Counts:
    """Count the classes of ``text`` (a ``str``); see the module docstring."""
    if len(text) <= CLASSIFY_PIECE:
        counts: Counts = _classify(text)
        return counts
    total = Counts()
    for name in _SUMMED:
        setattr(total, name, 0)
    han = han_iso = common = jis = hangul_common = 0
    east = False
    start = 0
    while start < len(text):
        end = start + CLASSIFY_PIECE
        if end < len(text):
            # (the first exact cut in the next CLASSIFY_PIECE characters; where there is none,
            # ASCII letters alternating with East Asian characters all along, the piece ends
            # after them anyway: the counts of the two characters beside that cut may differ by
            # one)
            m = _PIECE_CUT.search(text, end, end + CLASSIFY_PIECE)
            end = end + CLASSIFY_PIECE if m is None else m.start()
        c, raw = _classify(text[start:end], parts=True)
        start = end
        for name in _SUMMED:
            setattr(total, name, getattr(total, name) + getattr(c, name))
        han += raw[0]
        han_iso += raw[1]
        common += raw[2]
        jis += raw[3]
        hangul_common += raw[4]
        east = east or raw[5]
    if not east:
        total.ascii_letters = 0
    # the corrections of _classify, on the sums (each of its counts is a sum over pieces)
    total.hangul_common = min(total.hangul, hangul_common) if total.hangul else 0
    if han:
        total.han, total.common, total.jis1 = _without_isolated(
            han, common, jis if total.kana > 0 else han, han_iso if total.wedged else 0)
    else:
        total.han = total.common = total.jis1 = 0
    return total


def _without_isolated(han: int, common: int, jis1: int, han_iso: int) -> tuple[int, int, int]:
    """``(ideographs, common ones, JIS level-1 ones)`` less the ``han_iso`` isolated ideographs
    between other scripts (they count as noise, not as evidence for their script)."""
    if not han_iso:
        return han, common, jis1
    han -= han_iso
    return han, min(common, han), min(jis1, han)


def _classify(text: str, parts: bool = False) -> Any:
    """:func:`classify` of one piece; with ``parts``, ``(counts, (ideographs, isolated ones,
    common ones, JIS level-1 ones, common Hangul, any East Asian character))``, the raw counts
    before the corrections, and the ASCII letters counted in every piece (:func:`classify`
    sums them over pieces)."""
    c = Counts()
    n = c.chars = len(text)
    if text.isascii():
        lat = text.encode("ascii")
        noise = n - len(lat.translate(None, _NOISE_ASCII))
        c.neutral = n - noise
        c.noise = noise
        c.latin = c.greek = c.cyrillic = c.hebrew = c.arabic = c.thai = 0
        c.han = c.kana = c.hangul = c.half_kana = c.other = c.common = c.jis1 = c.fffd = 0
        c.wedged = c.wedged_both = c.suspect = c.hangul_common = c.lone = 0
        c.ascii_letters = len(lat) - len(lat.translate(None, _ASCII_LETTERS))
        return (c, (0, 0, 0, 0, 0, False)) if parts else c
    u = text.encode("utf-16-be", "surrogatepass")
    raw, lo = u[::2], u[1::2]
    hi = raw.translate(_BLOCK)
    count = hi.count
    _count_alphabets(c, count)
    hangul = count(b"U")
    han = count(b"I")
    # Blocks that mix classes are split by the low byte with bit masks: each character is one
    # byte of a big integer (1 = in the class), so "and", neighbours (shift by 8) and counting
    # (bit_count) run in C.
    z = _mask(raw, _IS_00)  # U+0000..U+00FF
    l1_letter = (z & _mask(lo, _L1_LETTER)).bit_count()
    l1_noise = (z & _mask(lo, _L1_NOISE)).bit_count()
    neutral = z.bit_count() - l1_letter - l1_noise + count(b"N")
    noise = l1_noise + count(b"X")
    c.latin = l1_letter + count(b"L")
    k30 = _mask(raw, _IS_30)
    punct = kana = 0
    east = 0
    if k30:
        pm = k30 & _mask(lo, _LT_40)
        punct = pm.bit_count()
        kana = k30.bit_count() - punct
        neutral += punct
        east = k30 & ~pm
    ff = _mask(raw, _IS_FF)
    half = fffd = 0
    if ff:
        hm = ff & _mask(lo, _HALF)
        half = hm.bit_count()
        fffd = (ff & _mask(lo, _IS_FD)).bit_count()
        neutral += ff.bit_count() - half - fffd
        noise += fffd
        east |= hm
    if han or hangul:
        east |= _mask(raw, _HAN_OR_HANGUL)
    c.fffd = fffd
    wedged = both = suspect = lone_n = letters_n = 0
    if east:
        # An East Asian character with no East Asian neighbour and an ASCII letter beside it
        letters = z & _mask(lo, _ASCII_LETTER)
        beside = (letters << 8) | (letters >> 8)
        lone = east & ~(east << 8) & ~(east >> 8)
        iso = lone & beside
        lone_n = lone.bit_count()
        letters_n = letters.bit_count()
        # (for repair: in a run of at most two, or touching an ASCII letter)
        long_run = east & (((east << 8) & (east << 16)) | ((east >> 8) & (east << 8))
                           | ((east >> 8) & (east >> 16)))
        suspect = ((east & ~long_run) | (east & beside)).bit_count()
        if iso:
            wedged = iso.bit_count()
            both = (iso & (letters << 8) & (letters >> 8)).bit_count()
            # ... is no evidence for its script: it counts as noise instead.
            hangul -= (iso & _mask(raw, _IS_HANGUL)).bit_count()
            han_iso = (iso & _mask(raw, _IS_HAN)).bit_count()
            kana -= (iso & k30).bit_count()
            half -= (iso & ff).bit_count()
    if parts and not east:  # (classify counts ASCII letters only in text with East Asian characters)
        letters_n = (z & _mask(lo, _ASCII_LETTER)).bit_count()
    c.wedged = wedged
    c.wedged_both = both
    c.suspect = suspect
    c.lone = lone_n
    c.ascii_letters = letters_n
    c.hangul = hangul
    hangul_raw = len(_sets()[2].sub("", text)) if hangul or parts else 0
    c.hangul_common = min(hangul, hangul_raw) if hangul else 0
    c.kana = kana
    c.half_kana = half
    c.neutral = neutral
    c.noise = noise
    if parts:
        iso_han = han_iso if wedged else 0
        if not han:
            return c, (0, iso_han, 0, 0, hangul_raw, bool(east))
        not_common, not_jis, _ = _sets()
        return c, (han, iso_han, len(not_common.sub("", text)), len(not_jis.sub("", text)), hangul_raw,
                   bool(east))
    if han:
        not_common, not_jis, _ = _sets()
        c.han, c.common, c.jis1 = _without_isolated(
            han, len(not_common.sub("", text)), len(not_jis.sub("", text)) if kana > 0 else han,
            han_iso if wedged else 0)
    else:
        c.han = c.common = c.jis1 = 0
    return c


_NOISE_ASCII = bytes((*range(0x00, 0x09), 0x0B, *range(0x0E, 0x20), 0x7F))

#: The classes a character of a single-byte page can fall in (U+FFFD is noise and counted
#: apart), as the code letters of :func:`classify_single_byte`'s tables.
_SINGLE_CLASSES = {"N": "neutral", "X": "noise", "L": "latin", "G": "greek", "C": "cyrillic",
                   "H": "hebrew", "A": "arabic", "T": "thai", "O": "other"}
_single_tables: dict[str, bytes | None] = {}


def classify_single_byte(data: bytes, chars: str) -> Counts:
    """Return :func:`classify` of ``data`` decoded with a single-byte decoding table.

    :param data: the bytes; at least one must be >= 0x80 (else the text may be ASCII, which
        :func:`classify` counts apart): then the table is not used.
    :param chars: the 256-character decoding table of :func:`codecs.charmap_decode`, U+FFFE
        for an undefined byte (read as U+FFFD).

    Outside East Asian scripts every class is a property of the character alone, so each byte
    is mapped to its character's class letter by ``bytes.translate`` and the letters are
    counted in C: the same counts as classifying the decoded text (tested on every page),
    without decoding or walking it. A table with a character of a class that depends on its
    neighbours (kana, Han, Hangul, half-width forms) is not used either.
    """
    table: bytes | None | bool = _single_tables.get(chars, False)
    if table is False:
        table = _single_tables[chars] = _single_table(chars)
    if table is None or data.isascii():
        return classify(codecs.charmap_decode(data, "replace", chars)[0])
    codes = data.translate(cast(bytes, table))  # neither False nor None here
    count = codes.count
    c = Counts()
    c.chars = len(data)
    fffd = count(b"F")
    c.fffd = fffd
    c.noise = count(b"X") + fffd
    c.neutral = count(b"N")
    c.latin = count(b"L")
    _count_alphabets(c, count)
    c.han = c.kana = c.hangul = c.half_kana = c.common = c.jis1 = 0
    c.wedged = c.wedged_both = c.suspect = c.hangul_common = c.lone = c.ascii_letters = 0
    return c


def _single_table(chars: str) -> bytes | None:
    """The ``bytes.translate`` table of byte -> class letter for a decoding table (None when a
    character's class is not its own): each character is classified after a Latin letter
    (U+0100), so that ASCII takes the non-ASCII path, and the Latin letter is taken off."""
    codes = bytearray(256)
    base = classify("\u0100")
    for b in range(256):
        ch = "\ufffd" if chars[b] == "\ufffe" else chars[b]
        c = classify(ch + "\u0100")
        if ch == "\ufffd":
            codes[b] = ord("F")
            continue
        found = [code for code, name in _SINGLE_CLASSES.items()
                 if getattr(c, name) - getattr(base, name) == 1]
        if len(found) != 1 or c.scripted() + c.neutral + c.noise - base.scripted() != 1 or c.fffd:
            return None
        codes[b] = ord(found[0])
    return bytes(codes)

#: Flat penalty for any decode error (spec 004 "Why the error penalty is not proportional").
ERROR_FLAT = 8
#: Hangul mixed with ideographs/kana beyond a third of the scripted characters.
MIX_PENALTY = 12
#: Weight of the JIS X 0208 level-1 penalty for kana text.
JIS_PENALTY = 30


#: Extension (D7): script exclusivity needs at least this many Hangul or kana characters (one
#: Hangul syllable made of an accented letter and the next byte is not a Korean text).
EXCLUSIVE_MIN = 2
#: Extension (D7): fewer half-width katakana than this are noise (a lone "»" read as Shift_JIS).
HALF_KANA_TEXT = 4
#: Extension (D7): weight of the ideographs outside ``COMMON_HAN``.
RARE_PENALTY = 10


def score_counts(c: Counts, errors: float, extended: bool = True, good: float = 0.0) -> float:
    """Return the spec 004 score of counted text with ``errors`` decode errors.

    With ``extended`` (the default; D7) two refinements measured on the visible corpus apply:
    ``-10 * (ideographs outside COMMON_HAN + Hangul outside KS X 1001) / (ideographs + Hangul)``
    (only KS X 1001 Hangul earn frequency and exclusivity: UHC's extra 8 822 syllables are what
    cp949 makes of Western bytes), and half-width katakana count as
    noise unless they are at least half of the scripted characters and at least 4. Both break the ties that
    let a few accented Latin letters read as rare ideographs or half-width kana win on
    candidate order (24 of 1148 detect files before the change); an East Asian character
    alone between non-East-Asian characters with an ASCII letter beside it counts as noise and
    not as its script; script exclusivity needs ``EXCLUSIVE_MIN`` characters; and the result is not rounded, so that
    a difference of one character in a long text still orders the candidates (:func:`text_score`
    rounds).

    ``good`` is the number of non-ASCII characters that are common letters of a plausible
    language (:mod:`onemail.detect._langmodel`): the alphabetic counterpart of the common
    ideographs, added to the frequency signal (``35 * good / chars``, the sum capped at 35).
    """
    n = c.chars
    if n <= 0:
        return 0
    if errors:
        clean = max(0.0, 30 - 30 * errors / n - ERROR_FLAT)
    else:
        clean = 30.0
    scripted = c.scripted()
    coherence = 15 * (c.dominant() + c.neutral) / n
    cjk = c.han + c.kana + c.hangul
    hangul_ok = c.hangul_common if extended else c.hangul
    freq = 35 * (c.common + c.kana + hangul_ok) / n if cjk else 0.0
    if good:
        freq = min(35.0, freq + 35 * good / n)
    noise = c.noise
    if extended:
        noise += c.wedged
    if extended and c.half_kana and (c.half_kana * 2 < scripted or c.half_kana < HALF_KANA_TEXT):
        noise += c.half_kana
    printable = 10 * (n - noise) / n
    exclusive = 0
    if (not errors and scripted and (hangul_ok >= 0.9 * scripted or c.kana >= 0.4 * scripted)
            and (not extended or c.hangul + c.kana >= EXCLUSIVE_MIN)):
        exclusive = 10
    total = clean + coherence + freq + printable + exclusive
    if c.hangul and (c.han + c.kana) and min(c.hangul, c.han + c.kana) > scripted / 3:
        total -= MIX_PENALTY
    if c.kana > 0 and c.han:
        total -= JIS_PENALTY * (c.han - c.jis1) / c.han
    if extended and (c.han or c.hangul):
        total -= RARE_PENALTY * ((c.han - c.common) + (c.hangul - c.hangul_common)) / (c.han + c.hangul)
    return max(0.0, min(100.0, total))


def text_score(text: str, errors: int) -> int:
    """Score how plausible ``text`` is as human writing (spec 004 "Scoring").

    :param text: the decoded ``str``.
    :param errors: number of decode errors (each became one U+FFFD) in producing ``text``.
    :returns: an ``int`` in ``0..100``; 0 for empty text.

    >>> text_score("中文的文字", 0) > text_score("涓枃鐨勬枃瀛", 0)
    True
    """
    return round(score_counts(classify(text), errors))
