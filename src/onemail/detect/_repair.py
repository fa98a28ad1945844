"""Mojibake repair (spec 004 "Repair", "The script guard").

:func:`repair` runs at most four rounds. Each round tries every ``(wrong, right)`` pair: the
text is encoded with ``wrong`` (the code page that was applied by mistake) and decoded with
``right`` (the code page the bytes really were in):

* ``wrong`` in ``windows-1252, iso-8859-1, gbk, big5, shift_jis, euc-kr`` (the design), and,
  paired with ``utf-8`` only, ``windows-1251`` (a chain the mojibake corpus shows: ``РќР°``
  for ``На``), ``windows-1250``, ``macintosh`` and ``ibm437`` (ftfy's real-world cases) (D9);
* ``right`` in ``utf-8, gbk, big5, shift_jis, euc-kr, windows-1252, iso-8859-1``.

A step is accepted only when both the encode and the decode have **zero errors** and the
repair score rises by **more than 4 points** (the margin stops "repairing" fine text into
something marginally more frequent). Among accepted steps a UTF-8 reading wins, then (among
UTF-8 readings) one whose letters are common in one language (D21), then the higher score,
then pair order. UTF-16 is in neither list: allowing it turned Chinese into Hangul.

When no whole-text step is accepted, the runs that look like UTF-8 are decoded one by one
(D13: mojibake mixed with characters the page cannot encode, bytes lost as U+FFFD, no-break
spaces turned into spaces). D18 widens these runs: an ASCII ``?`` for a lost byte, a space for
a lost 0xA0 inside a three-byte run and after windows-1250/-1257 lead letters; one run of three
or four characters (not all letters) is evidence enough, where two-character runs need a
second, and so is one whose lead stands inside no word (``razmi≈°ljati``, ``lĂ¤sa``, D29).
Runs that explain every non-ASCII character compete with the whole-text steps (D20); a
partial reading must remove at least half of the signatures (D24); the UTF-8 readings of D9's
pages may not make C1 controls (D25). The telling runs of windows-1257, ISO-8859-2 and Mac
Roman are signatures of their step (D70); a sign inside a word is a run that is evidence on
its own (D72); UTF-8 readings that differ are chosen by the letters that fit a language (D71).

**The script guard** (hard veto, spec 004 and D10): a step may not move text between Han/kana
and Hangul, in either direction (Han and kana are one group: Japanese writes both); a
non-Latin alphabet becomes East Asian only through a UTF-8 reading; and structural conditions
(:func:`_plausible_step`) keep a CJK page from explaining text that shows no sign of it.
Latin and script-less text may go anywhere.

Western text read as a CJK page (D38, D44, D45, D47): its reading back must be one
language's letters (a sign every language uses between ASCII characters counts for none), an
East Asian character must touch an ASCII letter and one standing alone must read as a word
(or, D85, be characters no likelier than random as Chinese or Japanese whose reading has a word's
shape and a language's neighbours);
a reading without letters is Western when its quotes stand at words' edges (D88);
among CJK pages that read it back, the language model's likeliest wins. Korean read as GBK or
Big5 may become Hangul again when the reading's syllables are mostly Korean's common ones
(D48), and Chinese read as EUC-KR Chinese again when its Hangul is far less likely as Korean
than random syllables (D51): the two exceptions to the Han/Hangul guard. D48 counts the
syllables on the input's non-ASCII characters (Big5 reads some as kana or Cyrillic, D90); Hangul
glued before a small ASCII letter earns no frequency points (``ta챌찾o``, D91); a reading with a
character alone against an ASCII letter may still be plain Chinese (``就hello一下。``, D92).

GBK and Big5 read as each other (D65): their common ideographs are each other's common
ideographs, so the common set cannot tell; a Chinese character model (langdetect's zh-cn and
zh-tw counts, and its ja counts for Japanese, scripts/train_chinese.py) can. Text whose
characters are on average under 1 nat likelier than random ones as Chinese and as Japanese
may be read through the other Chinese page, and the reading is taken when it is at least 7 nats
(odds of about 1 100 to 1) likelier as Chinese than the text is as either (those odds stand in
for the score margin). Any CJK page's reading as GBK or Big5 must be likelier as Chinese than
random characters (D66), and ideographs that are no likelier than random characters as
Chinese or Japanese earn no frequency points in the repair score (D67).

**The repair score** (D11) is :func:`onemail.detect._scoring.score_counts` (with alphabetic
frequency for non-Latin alphabets only) minus ``SIGNATURE_POINTS`` (6) per *UTF-8
signature*: a character that windows-1252 / ISO-8859-1 / windows-1251 / windows-1250 / CP437
writes for a UTF-8 lead byte (``0xC2..0xF4``) followed by one it writes for a continuation
byte (``0x80..0xBF``), as in ``Ã©``, ``â€™``, ``Р°``, ``Ĺ‚``, or windows-1252's for a lead
byte before U+FFFD (``Ä\ufffd``, D19), or CP437's for a three-byte lead before its box
drawing for 0xB0..0xBF (``ß║┐``, Vietnamese ``ế``, D22); but not an accented capital
among ASCII before word-ending punctuation (``AHÅ™,``, ``10 Å—``, D23); a three-byte run
(``вЂ™``) counts twice (D27). Minus 6 per East
Asian character in a run of one or two, or touching an ASCII letter, in Latin prose
(``slechts 茅茅n``, 2 per isolated one elsewhere); minus 3 per rare character (U+FFFD is none:
a reading that turns ``ï¿½`` into U+FFFD is a repair, D19). The design's score alone cannot see
Latin mojibake (``FÃ¶rstÃ¥r`` and ``Förstår`` score the same); 6 points per signature exceed
the 4-point margin, so one ``Ã©`` in a long sentence is enough, and the zero-error rule keeps
clean text (whose non-ASCII characters almost never form valid UTF-8) untouched.

A UTF-8 reading also accepts CESU-8 (D17): a character beyond U+FFFF written as two encoded
surrogates (``í ½í¸\x8d``, Java's modified UTF-8, seen in tweets) decodes when every surrogate
is paired.

bench/repair.py prints the exactness per chain (visible and generated cases) and the time
beside ftfy's in one run.

Speed: :func:`repair` starts with :func:`repair_possible` (D14), which refuses most clean text
with C codecs and patterns alone; a round encodes the text once per wrong page, scores each
distinct text once, and looks for a page's run hint before matching its runs; the signature
patterns start with their first character's class.

Encoding as windows-1252 and windows-1251 uses onemail's WHATWG tables, so the bytes the
standard maps to C1 controls survive: ``â\x9d¤`` repairs to ``❤``; when windows-1252 cannot
encode a text that holds other C1 controls, each is taken as the byte of its value (ISO-8859-1
and windows-1252 readings mixed: ``ðŸ\x98\x80`` is U+1F600, D30).
"""

from __future__ import annotations

import codecs
import math
import re
import struct
import sys
import unicodedata
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import repeat
from operator import mul
from typing import Any, AnyStr, cast

from ._scoring import Counts, classify, ideographs, score_counts

__all__ = ["Repair", "repair", "mojibake_steps", "apply_steps", "render_chain", "PAIRS"]

WRONG = ("windows-1252", "iso-8859-1", "gbk", "big5", "shift_jis", "euc-kr", "windows-1251",
         "windows-1250", "iso-8859-2", "windows-1257", "macintosh", "ibm437")
RIGHT = ("utf-8", "gbk", "big5", "shift_jis", "euc-kr", "windows-1252", "iso-8859-1")
#: Every ``(wrong, right)`` pair in the order ties resolve to.
#: Pages beyond the design that are only ever UTF-8 read wrongly (D9): their only pair is
#: ``(page, utf-8)``, and it needs two of the page's UTF-8-reading runs in the text (one for
#: windows-1251, whose chain the mojibake corpus shows, not counting a run a lower-case
#: Cyrillic letter follows: "Лімбург" is Belarusian, not mojibake).
UTF8_ONLY = ("windows-1251", "windows-1250", "iso-8859-2", "windows-1257", "macintosh", "ibm437")
_MIN_RUNS = {"windows-1251": 1, "windows-1250": 2, "iso-8859-2": 2, "windows-1257": 2,
             "macintosh": 2, "ibm437": 2}
# Mac Roman's "√" (0xC3, the lead of à..ÿ) is never followed by a letter in real text: one
# such run is enough.
_MAC_ROOT = "\u221a"
#: Leads that stand inside no word (D29): Mac Roman's "≈" and "ƒ" (0xC5, 0xC4: the leads of
#: Latin Extended-A, "razmi≈°ljati") after a letter; on windows-1250, ISO-8859-2 and
#: windows-1257 the capitals among the two-byte leads 0xC2..0xDF after a lower-case letter
#: ("lĂ¤sa", "razmiĹˇljati": no word has a capital after a small letter).
_IN_WORD_LEADS = {"macintosh": "\u2248\u0192", "windows-1250": "", "iso-8859-2": "",
                  "windows-1257": ""}
_CYRILLIC_LOWER = re.compile("[\u0430-\u045f]")
PAIRS: tuple[tuple[str, str], ...] = tuple(
    (w, r) for w in WRONG for r in RIGHT if w != r and (w not in UTF8_ONLY or r == "utf-8"))
#: At most this many rounds (spec 004).
MAX_ROUNDS = 4
#: A step must raise the score by more than this (spec 004 "the 4-point margin").
MARGIN = 4
#: Points per UTF-8 signature or isolated East Asian character (D11), and per rare character.
SIGNATURE_POINTS = 6
RARE_POINTS = 3
#: Points per East Asian character alone with an ASCII letter on one side only ("太exotic").
ISOLATED_POINTS = 2
#: Text with this many ASCII letters per East Asian character is Latin prose, where East Asian
#: characters in runs of one or two, or touching a letter, are mojibake ("slechts 챕챕n").
LATIN_PROSE = 8

# CPython codec (or onemail table) behind each name.
_PY = {"utf-8": "utf-8", "gbk": "gbk", "big5": "big5", "shift_jis": "cp932", "euc-kr": "euc_kr",
       "iso-8859-1": "latin-1"}
#: The C functions of the CJK codecs, looked up once: ``str.encode(name)`` and
#: ``bytes.decode(name)`` look the codec up by its name on every call (UTF-8 and Latin-1 have
#: their own fast paths there), which costs as much as the decode of a short text.
_CJK_ENCODE = {n: codecs.lookup(c).encode for n, c in _PY.items() if n not in ("utf-8", "iso-8859-1")}
# Text decoded as EUC-KR by mistake was decoded by mail software's EUC-KR, which is windows-949
# (the WHATWG Encoding Standard's "EUC-KR", onemail's decoder): its bytes come back through
# cp949. CPython's euc_kr writes a Hangul syllable outside KS X 1001 ("똠") as an eight-byte
# KS X 1001 composition sequence no mail program writes (nor reads as one syllable): cp949
# writes the same bytes for every other character and its two bytes for those (a megabyte of
# such syllables took eight megabytes of bytes and readings, bench/bombs.py repair-hangul).
_CJK_ENCODE["euc-kr"] = codecs.lookup("cp949").encode
_CJK_DECODE = {n: codecs.lookup(c).decode for n, c in _PY.items() if n not in ("utf-8", "iso-8859-1")}
_TABLES = ("windows-1252", "windows-1250", "windows-1251", "iso-8859-2", "windows-1257",
           "macintosh", "ibm437")
#: Pages whose UTF-8 readings are also repaired piecewise (D13).
_SEGMENT_PAGES = ("windows-1252", "iso-8859-1", "windows-1251", "windows-1250", "iso-8859-2",
                  "windows-1257", "macintosh", "ibm437")

#: The scores of a text: (repair score, script group, counts), as :func:`_score` gives them.
_Scored = tuple[float, str, Counts]
#: A round's best step: ((UTF-8, one language's letters or None while unknown, score), wrong,
#: right, how).
_Best = tuple[tuple[bool, bool | None, float], str, str, str]
#: Per round: "data" -> (page, the text encoded by it or None), ("runs", page),
#: ("input", page), ("two", page, bool), ("c1", ""), ("consistent", wrong, right), "western" ->
#: what was found; ("words", wrong, right) -> D47's test; "odd" -> D10's test of the input; "classified" -> (a reading, its counts) from the cheap test, used once.
_Memo = dict[object, Any]

_maps: dict[str, tuple[str, Any]] = {}  # name -> (decoding table, charmap_build's encoding map)


def _table(name: str) -> tuple[str, Any]:
    m = _maps.get(name)
    if m is None:
        from ..text.charsets import single_byte_table

        table = single_byte_table(name)
        m = _maps[name] = (table, codecs.charmap_build(table))
    return m


def _encode(text: str, name: str) -> bytes | None:
    try:
        if name in _TABLES:
            return codecs.charmap_encode(text, "strict", _table(name)[1])[0]
        fast = _CJK_ENCODE.get(name)
        return text.encode(_PY[name]) if fast is None else fast(text)[0]
    except UnicodeEncodeError:
        if name == "windows-1252" and _C1.search(text):
            # ISO-8859-1 and windows-1252 readings mixed in one text (D30): a C1 control
            # is the byte of the same value
            try:
                return codecs.charmap_encode(text.translate(_c1_as_1252()), "strict",
                                             _table(name)[1])[0]
            except UnicodeEncodeError:
                return None
        return None


_C1_MAP: dict[int, str] = {}


def _c1_as_1252() -> dict[int, str]:
    """Map each C1 control U+0080..U+009F to windows-1252's character for that byte."""
    if not _C1_MAP:
        table = _table("windows-1252")[0]
        _C1_MAP.update((cp, table[cp]) for cp in range(0x80, 0xA0))
    return _C1_MAP


#: Bytes no UTF-8 (nor CESU-8) holds: a search for one is cheaper than a failing decode.
_NOT_UTF8 = re.compile(rb"[\xc0\xc1\xf5-\xff]")


def _decode(data: bytes, name: str) -> str | None:
    if name == "utf-8" and _NOT_UTF8.search(data) is not None:
        return None
    try:
        if name in _TABLES:
            text = codecs.charmap_decode(data, "strict", _table(name)[0])[0]
        elif name in _CJK_DECODE:
            text = _CJK_DECODE[name](data)[0]
        else:
            text = data.decode(_PY[name])
    except UnicodeDecodeError as exc:
        if name == "utf-8" and data[exc.start] == 0xED:  # (an encoded surrogate, D17)
            return _decode_cesu8(data)
        return None
    return text


def _decode_cesu8(data: bytes) -> str | None:
    """Decode UTF-8 that writes characters beyond U+FFFF as two encoded surrogates (CESU-8,
    Java's modified UTF-8: ``ED A0 BD ED B8 8D`` is U+1F60D), D17; None when any other byte
    is invalid or a surrogate is unpaired."""
    try:
        text = data.decode("utf-8", "surrogatepass")
        return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
    except UnicodeError:
        return None


def _signature_re() -> re.Pattern[str]:
    """Compile the UTF-8 signature pattern (:func:`_signature_branches`, first characters
    first: :func:`_first_class`)."""
    return _first_class(_signature_branches())


def _signature_branches() -> list[tuple[str, str]]:
    """The branches of the UTF-8 signature pattern (D11) as ``(class of the first character,
    rest)``: a page's character for a lead byte followed
    by its character for a continuation byte, for windows-1252, ISO-8859-1, windows-1251,
    windows-1250 and CP437 (box drawing followed by box drawing or shades is DOS art, not a
    signature), and Mac Roman's ``√`` (its ``0xC3``) before any continuation character."""
    # the leads by the length of their sequence: two, three and four bytes (D46)
    leads: tuple[set[str], set[str], set[str]] = (set(), set(), set())
    conts: set[str] = set()
    for name in ("windows-1252", "iso-8859-1", "windows-1251", "windows-1250", "ibm437"):
        for b in range(0xC2, 0xF5):
            c = _decode(bytes((b,)), name)
            if c:
                leads[(b >= 0xE0) + (b >= 0xF0)].add(c)
        for b in range(0x80, 0xC0):
            c = _decode(bytes((b,)), name)
            if c and not (name == "ibm437" and "\u2500" <= c <= "\u25ff"):
                conts.add(c)

    def cls(chars: Iterable[str]) -> str:
        return "[" + "".join(re.escape(c) for c in sorted(chars)) + "]"

    conts.discard("\xa0")
    mac_conts = {_decode(bytes((b,)), "macintosh") or "" for b in range(0x80, 0xC0)}
    # A no-break space after a letter is ordinary text ("SELK\u00c4\xa0EDELL\u00c4"); after
    # "Ã" or "Â" it is the UTF-8 of à or of a no-break space. "Ã" before a space and a
    # lower-case letter is "à" whose no-break space became a space ("Ã s crianças").
    # windows-1252's lead before a byte lost as U+FFFD ("SlovenÄ\ufffdina", D19)
    lost = cls(_decode(bytes((b,)), "windows-1252") or "" for b in range(0xC2, 0xF5)) + "\ufffd"
    # CP437's three-byte lead (a Greek or math letter) before its box drawing for 0xB0..0xBF
    # and a continuation character: "ß║┐" is "ế" (D22); DOS art does not put "ß" before box
    # drawing, and no Latin-1 reading makes box drawing
    dos = [cls(_decode(bytes((b,)), "ibm437") or "" for b in range(lo, hi))
           for lo, hi in ((0xE0, 0xF0), (0xB0, 0xC0), (0x80, 0xC0))]
    # (each branch as its first character's class and the rest: _first_class puts the union of
    # the first characters first, where the plain alternation tried seven branches per character)
    # a lead and a continuation character are a signature when the characters after them can
    # end the sequence: one more continuation character for a three-byte lead, two for a
    # four-byte one, or a lost byte ("?", U+FFFD); a Ukrainian "ні" is windows-1251's E0..EF
    # lead and a continuation byte, and is not followed by another (D46)
    more = "[" + cls(conts)[1:-1] + "?\ufffd]"
    return ([
        (cls(leads[0]), cls(conts)), (cls(leads[1]), f"{cls(conts)}(?={more})"),
        (cls(leads[2]), f"{cls(conts)}(?={more}{{2}})"),
        ("[\u00c2\u00c3]", "\xa0"), ("[\u221a]", cls(mac_conts)),
        ("[\u2248\u0192]", "(?<=[^\\W\\d_].)" + cls(mac_conts)),
        ("[\u00c3]", "(?<![A-Z].)(?=  ?[a-z]|  \\S)"), (lost[:-1], "\ufffd"),
        (dos[0], dos[1] + dos[2])])


_SIGNATURE: re.Pattern[str] | None = None
#: Texts longer than this many characters have their matches counted one by one (a list of
#: every match of a long mojibake text costs many times the text's size).
COUNT_IN_ONE_CALL = 1 << 16


def _count(pattern: re.Pattern[AnyStr], text: AnyStr) -> int:
    """The number of (non-overlapping) matches of ``pattern`` in ``text``, in memory bounded
    by ``COUNT_IN_ONE_CALL`` matches."""
    if len(text) <= COUNT_IN_ONE_CALL:
        return len(pattern.findall(text))
    return sum(1 for _ in pattern.finditer(text))


def signatures(text: str) -> int:
    """Count UTF-8 signatures in ``text`` (see the module docstring)."""
    global _SIGNATURE
    if _SIGNATURE is None:
        _SIGNATURE = _signature_re()
    # (a pair of one character twice is no page's reading: a byte is a lead or a continuation,
    # never both; the union of the pages' characters made "àà" windows-1252's lead and CP437's
    # continuation, D76)
    if _DOUBLE.search(text) is None:
        n = _count(_SIGNATURE, text)  # (no character twice in a row: every match counts)
    else:
        found: Iterable[str] = _SIGNATURE.findall(text) if len(text) <= COUNT_IN_ONE_CALL else (
            m.group() for m in _SIGNATURE.finditer(text))
        n = sum(len(piece) < 2 or piece[0] != piece[1] for piece in found)
    if n and _TEXTLIKE.search(text):
        n -= _count(_TEXTLIKE, text)
    if n:
        n += sum(not (t := m.group()).isalpha() and not (_is_punct(t[1]) and _is_punct(t[2]))
                 for m in _triple_re().finditer(text))
    return n


#: A non-ASCII character twice in a row (D76).
_DOUBLE = re.compile(r"([^\x00-\x7f])\1")


def _is_punct(ch: str) -> bool:
    return unicodedata.category(ch)[0] == "P"


_TRIPLE: list[re.Pattern[str]] = []


def _triple_re() -> re.Pattern[str]:
    """Compile the pattern of a three-byte UTF-8 sequence read by windows-1252, ISO-8859-1,
    windows-1251 or windows-1250 (lead 0xE0..0xEF, a continuation character of 0x80..0x9F, one
    of 0x80..0xBF): one that is not three letters, nor a letter before two punctuation marks
    (``ë…”`` ends a word), is a second signature (D27: ``вЂ™`` is ``’``)."""
    if not _TRIPLE:
        _TRIPLE.append(_first_class(_triple_branches()))
    return _TRIPLE[0]


def _triple_branches() -> list[tuple[str, str]]:
    """The branches of :func:`_triple_re`: ``(class of the lead's character, rest)`` per page."""
    alts = []
    for name in ("windows-1252", "iso-8859-1", "windows-1251", "windows-1250"):
        lead = "".join(re.escape(_decode(bytes((b,)), name) or "") for b in range(0xE0, 0xF0))
        low, cont = ("".join(re.escape(c) for b in range(0x80, hi)
                             if (c := _decode(bytes((b,)), name)) and c != "\xa0")
                     for hi in (0xA0, 0xC0))
        alts.append((f"[{lead}]", f"[{low}][{cont}]"))
    return alts


# An upper-case Latin-1 letter after an ASCII character that is not a lower-case letter (so not
# inside a mojibake run: "Ð»Ñ–" is "лі") before closing punctuation that ends the word:
# "AHÅ™,", "10 Å—" are a name and the Ångström sign (ftfy negative cases), not UTF-8
# signatures (D23). "Ã" (0xC3, the lead of every Latin-1 letter) is no word: "3 Ã— 4" is
# "3 × 4", "OÃ™" is "OÙ"; only a letter's plural, "Ã’s", is text.
# (the letter first and the look-behind after it: a search skips in C to the next such letter)
_TEXTLIKE = re.compile("[\u00c0-\u00de](?<![^\\x00-\\x60\\x7b-\\x7f].)"
                       "(?:(?<=[\u00c0-\u00c2\u00c4-\u00d6\u00d8-\u00de])[\u201d\u2013\u2014\u2122\u2026\u2019]"
                       "|(?<=\u00c3)\u2019s)(?![^\\W\\d_])")


_GOOD: re.Pattern[str] | None = None


def alphabet_letters(text: str) -> int:
    """Count the letters of non-Latin alphabets (Greek, Cyrillic, Hebrew, Arabic, Thai) in
    ``text`` that are common in some language: the alphabetic counterpart of the common
    ideographs in the frequency signal (D11). Latin letters get no such credit: mojibake has
    more accented Latin letters than the text it came from."""
    global _GOOD
    if _GOOD is None:
        from ._langmodel import GOOD, char_weights

        chars = sorted(ch for ch, n in char_weights().items()
                       if n >= GOOD and ch.isalpha() and ord(ch) >= 0x370)
        _GOOD = re.compile("[" + "".join(re.escape(ch) for ch in chars) + "]")
    return _count(_GOOD, text)


_RARE: re.Pattern[str] | None = None


def rare_chars(text: str) -> int:
    """Count non-ASCII characters that are neither a common letter of some language, nor East
    Asian, nor common punctuation or symbols (D11): C1 controls, combining marks, box drawing,
    private use, the ``ƒ ˆ ‰ Š ‹`` of windows-1252 readings, Hebrew points..."""
    global _RARE
    if _RARE is None:
        from ._langmodel import GOOD, char_weights

        chars = sorted(ch for ch, n in char_weights().items() if n >= GOOD)
        allowed = (COMMON_SYMBOLS + r"\ufffd\u3000-\u30ff\u3400-\u9fff\uac00-\ud7a3\uf900-\ufaff"
                   r"\uff01-\uff60\ufe30-\ufe4f")
        # a precomposed Latin letter (an ASCII letter with marks: Vietnamese "ế") is no rarity
        import unicodedata

        chars += [chr(cp) for cp in (*range(0xC0, 0x250), *range(0x1E00, 0x1F00))
                  if chr(cp).isalpha() and unicodedata.normalize("NFD", chr(cp))[0].isascii()]
        # every letter of the Cyrillic block is a letter of some language, many of which the
        # model's sources lack (Tajik "ҳ ӯ", Uzbek, Bashkir): none is rare (the Supplement's
        # letters, U+0500.., are: "ԥ" is GBK's 0xD4 0xA5 read as UTF-8)
        chars += [chr(cp) for cp in range(0x400, 0x500) if chr(cp).isalpha()]
        # so is every letter of the modern Greek, Hebrew, Arabic and Thai alphabets (D74: the
        # model knows one language of each script, or a few; their marks and points, and the
        # archaic and Coptic letters of the Greek block, stay rare)
        chars += [chr(cp) for lo, hi in ((0x386, 0x3D0), (0x5D0, 0x5EB), (0x621, 0x64B), (0xE01, 0xE4F))
                  for cp in range(lo, hi) if chr(cp).isalpha()]
        _RARE = re.compile("[^" + allowed + "".join(re.escape(ch) for ch in chars) + "]")
    return _count(_RARE, text) + _count(_STRAY, text)


#: Punctuation and symbols that are not rare in text: ASCII, the common Latin-1 ones (no-break
#: space, ¡ £ ¥ § © « ® ° ± ´ · » ¿ ½ × ÷), general punctuation, currency, ™, arrows and
#: mathematical operators, box drawing, geometric shapes, miscellaneous symbols and dingbats.
COMMON_SYMBOLS = (r"\x00-\x7f\xa0\xa1\xa3\xa5\xa7\xa9\xab\xae\xb0\xb1\xb4\xb7\xbb\xbd\xbf"
                  r"\xd7\xf7\u2010-\u2027\u2030-\u205e\u20a0-\u20bf\u2122\u2190-\u22ff"
                  r"\u2500-\u27bf")
# A letter of a non-Latin alphabet between ASCII letters or digits ("5\u05e335"): stray.
_STRAY = re.compile(r"[\u0370-\u0e7f](?<=[A-Za-z0-9].)(?=[A-Za-z0-9])")


def _stray_letters(text: str) -> int:
    """The letters of non-Latin alphabets inside ASCII words: alone between ASCII letters or
    digits (``5\u05e335``), or in a run of them with an ASCII letter or digit on both sides
    (``M\u0413\u040erorca``, windows-1251's reading of UTF-8 ``á``): they earn the repair
    score no frequency points (D49)."""
    n = _count(_STRAY, text)
    if n or _STRAY_HINT.search(text):
        n += sum(len(m.group()) for m in _STRAY_RUNS.finditer(text))
    return n


_STRAY_HINT = re.compile(r"[A-Za-z0-9][\u0370-\u0e7f]")
#: Letters of a non-Latin alphabet right after an ASCII letter, with no ASCII letter or digit
#: after them (those are D49's): ``OpГ©cli``, windows-1251's reading of UTF-8 ``é`` (D54).
_GLUED = re.compile(r"(?<=[A-Za-z])[\u0370-\u0e7f]+(?![A-Za-z0-9])")


def _glued_letters(text: str) -> int:
    """The letters of non-Latin alphabets glued to the end of an ASCII word part (``Op\u0413``
    in ``Op\u0413\xa9cli``): no word changes script inside, so they earn the repair score no
    frequency points (D54, beside D49's letters with ASCII on both sides)."""
    n = 0
    if _STRAY_HINT.search(text) is not None:
        n = sum(len(m.group()) for m in _GLUED.finditer(text))
    if _FRONT_HINT.search(text) is not None:
        n += sum(len(m.group()) for m in _GLUED_FRONT.finditer(text))
    return n


#: Letters of a non-Latin alphabet right before an ASCII letter, with no ASCII letter or digit
#: before them (D54, both sides): ``≈Ωit``, Mac Roman's reading of UTF-8 ``Žit``.
_FRONT_HINT = re.compile(r"[\u0370-\u0e7f][A-Za-z]")
_GLUED_FRONT = re.compile(r"(?<![A-Za-z0-9\u0370-\u0e7f])[\u0370-\u0e7f]+(?=[A-Za-z])")
_STRAY_RUNS = re.compile(r"(?<=[A-Za-z0-9])[\u0370-\u0e7f]{2,}(?=[A-Za-z0-9])")


def _glued_syllables(text: str) -> int:
    """The Hangul syllables of ``text`` in runs of two or more right before a small ASCII letter
    (``체챌체kl``, ``ta챌찾o``), which earn the repair score no frequency points (D91): Korean puts
    Latin before its syllables (``PC를``, ``e메일``), hardly ever a small letter right after
    them, while UTF-8 read as EUC-KR makes a syllable of each small accented letter (``ü`` is
    0xC3 0xBC, ``체``), glued to the rest of its word. A single such syllable beside an ASCII
    letter is isolated and counted as noise already (:func:`onemail.detect._scoring.classify`)."""
    return sum(len(run) for run in _HANGUL_GLUED.findall(text))


def _score(text: str, c: Counts | None = None) -> tuple[float, str, Counts]:
    """Return ``(repair score, script group, counts)`` of ``text`` (``c``: :func:`classify` of
    ``text`` when it is known, a fresh one, changed here)."""
    if c is None:
        c = classify(text)
    if c.hangul and _not_korean(text):
        c.hangul_common = 0  # (syllables that are no Korean earn no frequency points, D51)
    if c.hangul_common and _HANGUL_GLUED_HINT.search(text) is not None:
        # (syllables right before a small ASCII letter are no Korean word's, D91)
        c.hangul_common = max(0, c.hangul_common - _glued_syllables(text))
    if c.common and not c.hangul and _no_chinese(text):
        c.common = 0  # (ideographs that are no Chinese nor Japanese earn no frequency points, D67)
    # (letters inside an ASCII word are no language's evidence, D49)
    s = score_counts(c, 0, good=max(0, alphabet_letters(text) - _stray_letters(text) - _glued_letters(text))
                     if c.greek + c.cyrillic + c.hebrew + c.arabic + c.thai else 0)
    if not text.isascii():
        east = c.han + c.kana + c.hangul + c.half_kana + c.wedged
        ascii_letters = len(text) - len(text.encode("ascii", "ignore").translate(None, _LETTERS))
        # East Asian characters alone or touching ASCII letters in Latin prose ("bi 탑ivih",
        # "slechts 茅茅n") are as telling as a signature; in mostly East Asian text
        # ("太exotic了！") they are ordinary mixing
        if ascii_letters >= LATIN_PROSE * east:
            s -= SIGNATURE_POINTS * c.suspect
            if c.hangul + c.kana >= 2 and c.hangul_common + c.kana >= 0.9 * c.scripted():
                s -= 10  # no script exclusivity for two syllables in a Latin sentence
        else:
            s -= ISOLATED_POINTS * c.wedged
        s -= SIGNATURE_POINTS * signatures(text) + RARE_POINTS * rare_chars(text)
        if _C1_PRIVATE_OR_BOX.search(text) is not None:  # (one scan for the three below: most text has none)
            # a C1 control for which windows-1252 has a sign is that sign read as ISO-8859-1:
            # as telling as a signature (it is also a rare character)
            s -= (SIGNATURE_POINTS - RARE_POINTS) * _count(_C1_SIGN, text)
            # so is a private-use character: a CJK page's reading of bytes it has no character
            # for (D43, D44; also a rare character)
            s -= (SIGNATURE_POINTS - RARE_POINTS) * _count(_PRIVATE_USE, text)
            if _BOX.search(text) is not None:
                s -= SIGNATURE_POINTS * _box_signatures(text)  # (D53)
    hanja = c.han + c.kana
    alpha = c.greek + c.cyrillic + c.hebrew + c.arabic + c.thai
    top = max(hanja, c.hangul, alpha, c.latin + c.other + c.half_kana)
    if not top or top == c.latin + c.other + c.half_kana:
        group = "other"  # Latin or script-less: may go anywhere
    elif top == c.hangul:
        group = "hangul"
    elif top == hanja:
        group = "han"
    else:
        group = "alpha"
    return s, group, c


@dataclass(frozen=True, slots=True)
class Repair:
    """The result of :func:`repair`.

    :ivar text: the repaired ``str`` (the input itself when nothing was repaired).
    :ivar steps: the ``(wrong, right)`` pairs applied, in order; replay with
        :func:`apply_steps`, show with :func:`render_chain`.
    """

    text: str
    steps: tuple[tuple[str, str], ...]


def _vetoed(old: str, new: str, right: str) -> bool:
    """The script guard (spec 004; D10): True when a step may not move ``old`` to ``new``."""
    if {old, new} == {"han", "hangul"}:
        return True  # Han/kana <-> Hangul is never a repair (你好 -> 콱봤)
    # A non-Latin alphabet (Cyrillic, Greek...) does not become East Asian through two East
    # Asian code pages (Cyrillic -> Hangul via big5 -> euc-kr); only a UTF-8 reading may.
    return old == "alpha" and new in ("han", "hangul") and right != "utf-8"


def _kana_han_flip(old: Counts, new: Counts, right: str) -> bool:
    """The script guard between kana and Han (spec 004 "The script guard"; D10).

    Han and kana form one group for :func:`_vetoed` (Japanese writes both), but a step through
    two East Asian code pages must not turn kana-dominant text into Han-dominant text:
    correct Japanese ``テスト坥OKよー`` read through Shift_JIS -> GBK became ``僥僗僩韟OK傛乕``
    (corpus jpmobile au-emoji5.eml). Only a UTF-8 reading, whose zero-error decode is strong
    evidence on its own, may cross. The other way, Han-dominant text of mostly rare
    ideographs (a CJK-to-CJK step needs them, :func:`_plausible_step`) may become Japanese:
    that is Shift_JIS read as GBK or Big5, whose kana bytes are rare ideographs there (D42).
    """
    if right == "utf-8" or not (old.han + old.kana and new.han + new.kana):
        return False
    return old.kana > old.han and not new.kana > new.han


_LETTERS = bytes(range(0x41, 0x5B)) + bytes(range(0x61, 0x7B))
_CJK_PAGES = frozenset(("gbk", "big5", "shift_jis", "euc-kr"))


CONSISTENT = 0.8


_good_sets: list[frozenset[str]] = []

_LETTER_LIKE = re.compile("[^\\W\\d_\x00-\x7f]")


def _good_letter_sets() -> list[frozenset[str]]:
    """Per language, its common letters (lower case)."""
    if not _good_sets:
        from ._langmodel import GOOD, language_letters

        # (one extend of a built list: no thread sees part of it)
        _good_sets.extend([frozenset(ch for ch, n in common.items() if n >= GOOD)
                           for common in language_letters().values()])
    return _good_sets


def _best_language(letters: Counter[str]) -> int:
    """Return the most letters of ``letters`` (lower case -> count) that one language has
    among its common letters: every language at once, each letter adding its count to a
    32-bit field per language of one integer (:func:`_letter_fields`)."""
    fields = _letter_fields()
    if sum(letters.values()) >= 1 << 31:  # (a field could overflow: the sets one by one)
        keys = letters.keys()
        return max(sum(map(letters.__getitem__, good.intersection(keys))) for good in _good_sets)
    packed = sum(map(mul, letters.values(), map(fields.get, letters.keys(), repeat(0))))
    if not packed:
        return 0
    best: int = max(struct.unpack(f"<{len(_good_sets)}I", packed.to_bytes(4 * len(_good_sets), "little")))
    return best


def _letter_fields() -> dict[str, int]:
    """Per letter common in some language: an integer with 1 in the 32-bit field of each
    language (:func:`_good_letter_sets` order) that has it among its common letters."""
    if not _fields:
        built: dict[str, int] = {}
        for i, good in enumerate(_good_letter_sets()):
            for ch in good:
                built[ch] = built.get(ch, 0) | 1 << (32 * i)
        _fields.update(built)  # one step: no thread sees part of it
    return _fields


_fields: dict[str, int] = {}


def _every_language_signs() -> str:
    """The signs every language of the model uses (quotes, dashes, the ellipsis, the no-break
    space, ``€ © °``...: ``scripts/train_detect.py`` adds its typographic signs to every
    language), as the body of a character class."""
    if not _SIGNS:
        from ._tables.language import LANGUAGES

        common = set.intersection(*(set(chars) for _, chars, _ in LANGUAGES.values()))
        _SIGNS.append("".join(re.escape(ch) for ch in sorted(common) if not ch.isalpha()))
    return _SIGNS[0]


_SIGNS: list[str] = []


def _lone_sign_re() -> re.Pattern[str]:
    """Compile the pattern of a sign of every language between two ASCII characters (or an
    end of the text): ``Com’s``, ``“lip``, ``a – b`` (D44); not ``489‚âL``, ``enta¿Ýos`` nor
    ``netÔõ¡£`` (the two bytes of a CJK character read as windows-1252: two non-ASCII
    characters in a row)."""
    if not _LONE_SIGN:
        sign = "[" + _every_language_signs() + "]"
        _LONE_SIGN.append(re.compile(rf"(?<![^\x00-\x7f]){sign}(?![^\x00-\x7f])"))
    return _LONE_SIGN[0]


_LONE_SIGN: list[re.Pattern[str]] = []


def _only_lone_signs(text: str) -> bool:
    """True when every non-ASCII character of ``text`` is a sign of every language between two
    ASCII characters (:func:`_lone_sign_re`: ``Rock’n’roll``, ``“lip”``): Western text, never
    a CJK page's bytes read as windows-1252 or ISO-8859-1 (D75). A CJK character read so is two
    bytes, the first high: its reading has a lone sign only when the second byte is ASCII,
    and a text of such characters alone is a few characters of rare trail bytes (Shift_JIS
    ``地`` is ``’n``); text that reads so is English with its apostrophes
    (``Rock’n’roll`` became ``Rock地池oll``)."""
    n_high = len(text) - len(text.encode("ascii", "ignore"))
    return bool(n_high) and _count(_lone_sign_re(), text) == n_high


def _consistent(text: str) -> bool:
    """True when the letters of ``text`` are one language's (:func:`_one_language`) or have the
    shape of a Western word's accents (:func:`_western_letters`, D79)."""
    return _one_language(text) or _western_letters(text)


def _one_language(text: str) -> bool:
    """True when the non-ASCII characters of ``text`` are mostly letters (two thirds), and its
    letters mostly common in one language. A sign of every language between ASCII
    characters (:func:`_lone_sign_re`: ``’ “ – …``) is no language's and not counted (D44:
    ``Com’s`` is one language's text; two high bytes of a CJK page read as windows-1252 make
    two non-ASCII characters in a row, ``‚â``, ``¿Ý``)."""
    n_high = len(text) - len(text.encode("ascii", "ignore"))
    if n_high:
        n_high -= _count(_lone_sign_re(), text)
    # [^\W\d_] matches every letter (and a few numerals): an upper bound of the letter count
    # rejects most texts without a per-character loop (CJK bytes read as Latin-1)
    if _count(_LETTER_LIKE, text) * 3 < n_high * 2:
        return False
    # (the characters counted in C: one entry per distinct character, not a list of them)
    letters: Counter[str] = Counter()
    for ch, n in Counter(text).items():
        if not ch.isascii() and ch.isalpha():
            letters[ch.lower()] += n
    total = sum(letters.values())
    if total * 3 < n_high * 2:
        return False
    if not total:
        return True
    return _best_language(letters) >= CONSISTENT * total


def _consistent_bytes(data: bytes, page: str) -> bool:
    """:func:`_consistent` of ``data`` decoded (without error) by ``page``, counted on the
    bytes."""
    return _one_language_bytes(data, page) or _western_letter_bytes(data, page)


def _one_language_bytes(data: bytes, page: str) -> bool:
    """:func:`_one_language` of ``data`` decoded (without error) by ``page``, a page of one
    non-ASCII character per high byte: the same counts taken on the bytes (``bytes.translate``
    and a ``Counter`` of the letter bytes), where the text would be walked character by
    character."""
    not_like, not_letter, keys_of, lone_sign = _byte_letters(page)
    high = data.translate(None, _ASCII_BYTES)
    n_high = len(high)
    if lone_sign is not None:
        n_high -= _count(lone_sign, data)
    if len(high.translate(None, not_like)) * 3 < n_high * 2:
        return False
    letter_bytes = high.translate(None, not_letter)
    total = len(letter_bytes)
    if total * 3 < n_high * 2:
        return False
    if not total:
        return True
    letters: Counter[str] = Counter()
    for b, n in Counter(letter_bytes).items():
        letters[cast(str, keys_of[b])] += n  # (a letter byte: its key is set)
    return _best_language(letters) >= CONSISTENT * total


def _western_letters(text: str) -> bool:
    """True when the non-ASCII characters of ``text`` are Latin letters of U+00C0..U+017F, small
    ones or a capital that starts a word before a small letter, and punctuation every language
    uses (quotes, dashes, the ellipsis), at least one letter (or none, the punctuation at words'
    edges: :func:`_signs_at_words`, D88), each run of the letters with an
    ASCII letter beside it, no punctuation right before a letter (D79): the shape of a Western
    word's accents (``osiónibl``, ``sseiße``, ``Ãos``, ``“Ilitersér”…``), which a CJK page's
    text read as windows-1252 does not have: each of its characters is two bytes, mostly both
    high (``ÔÚ``, ``¿Ý``: capitals and signs), its letters stand among other high bytes
    (Shift_JIS ``日本`` is ``“ú–{``), and a sign opens them (``‚â`` is ``や``, D44). Decides
    when no single language of the model has the letters (a language it lacks, or one left out:
    ``ñ`` with ``á`` is Spanish only)."""
    letter, alone, sign, sign_before = _western_letter_res()
    n_high = len(text) - len(text.encode("ascii", "ignore"))
    letters = _count(letter, text)
    n_signs = _count(sign, text)
    return (letters + n_signs == n_high and bool(letters or (n_signs and _signs_at_words(text)))
            and alone.search(text) is None and sign_before.search(text) is None)


def _signs_at_words(text: str) -> bool:
    """True when every run of the punctuation of :func:`_western_letters` in ``text`` stands at
    the edge of a word of ASCII letters as typography puts it there (D88): opening quotes and
    inverted marks before a word (``“erde``), closing quotes and the ellipsis after one
    (``erde”…``), an apostrophe inside one (``don’t``): Western text without an accent. A run
    that touches no letter, stands inside a word (``I–k``) or opens one with a closing mark is
    a CJK page's bytes read as signs (``’B‚«mp`` for Shift_JIS ``達き``)."""
    if not _SIGN_APART:
        _SIGN_APART.append(re.compile(_western_letter_res()[2].pattern + "+"))
    for m in _SIGN_APART[0].finditer(text):
        i, j = m.span()
        before = i > 0 and text[i - 1].isascii() and text[i - 1].isalpha()
        after = j < len(text) and text[j].isascii() and text[j].isalpha()
        run = m.group()
        if before and after:
            if run not in _APOSTROPHES:
                return False
        elif after:
            if run.strip(_OPENING):
                return False
        elif not before or run.strip(_CLOSING):
            return False
    return True


#: Typography's marks at a word's edges (D88): the apostrophes inside a word, the opening quotes
#: and inverted marks before one, the closing quotes and the ellipsis after one.
_APOSTROPHES = ("\u2019", "\u2018")
_OPENING = "\u201c\u2018\u201e\u201a\u00ab\u2039\u00bf\u00a1"
_CLOSING = "\u201d\u2019\u00bb\u203a\u2026"
_SIGN_APART: list[re.Pattern[str]] = []


def _western_letter_bytes(data: bytes, page: str) -> bool:
    """:func:`_western_letters` of ``data`` read by ``page`` (one character per byte), counted
    on the bytes."""
    found = _western_bytes.get(page)
    if found is None:
        small, capital, _ = _WESTERN_CLASSES
        sign = _western_letter_res()[2]
        chars = [(b, _decode(bytes((b,)), page) or "") for b in range(0x80, 0x100)]

        def cls(chosen: str) -> bytes:
            return b"".join(re.escape(bytes((b,))) for b, c in chars if c and c in chosen)

        low, cap = cls(small), cls(capital)
        signs = b"".join(re.escape(bytes((b,))) for b, c in chars if c and sign.fullmatch(c))
        found = _western_bytes[page] = (
            re.compile(rb"[" + low + rb"]|(?<![A-Za-z0-9" + low + cap + rb"])[" + cap + rb"](?=[a-z" + low + rb"])"),
            re.compile(rb"(?<![A-Za-z" + low + cap + rb"])[" + low + cap + rb"]+(?![A-Za-z" + low + cap + rb"])"),
            re.compile(b"[" + signs + b"]") if signs else None,
            re.compile(b"[" + signs + b"](?=[" + low + cap + b"])") if signs else None)
    n_high = len(data.translate(None, _ASCII_BYTES))
    letters = _count(found[0], data)
    n_signs = _count(found[2], data) if found[2] is not None else 0
    if letters + n_signs != n_high or found[1].search(data) is not None or (
            found[3] is not None and found[3].search(data) is not None):
        return False
    # (no letter: punctuation around words, D88, decided on the text, which is short of signs)
    return bool(letters) or (bool(n_signs) and _signs_at_words(_decode(data, page) or ""))


#: The punctuation of Latin-1 and General Punctuation (the signs of every language D79 allows:
#: quotes, dashes, the ellipsis; not ``° © ® € ™``).
_ALL_BMP_PUNCT = "".join(chr(cp) for cp in (*range(0xA0, 0x100), *range(0x2000, 0x2070))
                         if unicodedata.category(chr(cp))[0] == "P")
#: D79's small and capital Latin letters (U+00C0..U+017F).
_WESTERN_CLASSES: tuple[str, str, str] = (
    "".join(chr(cp) for cp in range(0xC0, 0x180) if chr(cp).isalpha() and chr(cp).islower()),
    "".join(chr(cp) for cp in range(0xC0, 0x180) if chr(cp).isalpha() and chr(cp).isupper()),
    _ALL_BMP_PUNCT)
_western_bytes: dict[str, tuple[re.Pattern[bytes], re.Pattern[bytes], re.Pattern[bytes] | None,
                                re.Pattern[bytes] | None]] = {}
_WESTERN_LETTERS: list[tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], re.Pattern[str]]] = []


def _western_letter_res() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """The patterns of :func:`_western_letters`: a letter (a small one, or a capital that starts
    a word before a small letter), a run of letters with no ASCII letter on either side, a sign
    of every language that is punctuation, and such a sign right before a letter (``‚â`` is
    Shift_JIS ``や``, D44: a sign closes a word's accents, ``ér”…``, it does not open them)."""
    if not _WESTERN_LETTERS:
        small, capital, _ = _WESTERN_CLASSES
        low, cap = re.escape(small), re.escape(capital)
        sign = "[" + "".join(re.escape(ch) for ch in re.findall(f"[{_every_language_signs()}]", _ALL_BMP_PUNCT)) + "]"
        _WESTERN_LETTERS.append((
            re.compile(f"[{low}]|(?<![A-Za-z0-9{low}{cap}])[{cap}](?=[a-z{low}])"),
            re.compile(f"(?<![A-Za-z{low}{cap}])[{low}{cap}]+(?![A-Za-z{low}{cap}])"),
            re.compile(sign), re.compile(f"{sign}(?=[{low}{cap}])")))
    return _WESTERN_LETTERS[0]


def _byte_letters(page: str) -> tuple[bytes, bytes, list[str | None], re.Pattern[bytes] | None]:
    """For ``page``: the bytes whose character is not letter-like (``[^\\W\\d_]``), the bytes
    whose character is not a letter (both as deletion sets), per byte the lower case of
    its letter (the keys :func:`_consistent` counts), and the pattern of a byte of a sign of
    every language between ASCII bytes (which it does not count; None: the page has none)."""
    found = _letters_of_bytes.get(page)
    if found is None:
        chars = [_decode(bytes((b,)), page) or "" for b in range(256)]
        # (_lone_sign_re on the bytes: the bytes of the page's characters of its class)
        signs = re.compile(f"[{_every_language_signs()}]")
        sign = b"".join(re.escape(bytes((b,))) for b, c in enumerate(chars) if c and signs.fullmatch(c))
        lone = re.compile(rb"(?<![\x80-\xff])[" + sign + rb"](?![\x80-\xff])") if sign else None
        found = _letters_of_bytes[page] = (
            bytes(b for b, c in enumerate(chars) if not (c and _LETTER_LIKE.fullmatch(c))),
            bytes(b for b, c in enumerate(chars) if not c.isalpha()),
            [c.lower() if c.isalpha() else None for c in chars], lone)
    return found


_letters_of_bytes: dict[str, tuple[bytes, bytes, list[str | None], re.Pattern[bytes] | None]] = {}
_ASCII_BYTES = bytes(range(128))


def _east_ok(new: Counts, right: str = "", text: str = "") -> bool:
    """A CJK reading: two East Asian characters at least, a run of two, none isolated against
    an ASCII letter unless the reading is mostly East Asian: at least four East Asian characters
    besides those, and at least as many as ASCII letters (D73: ``1个SD卡`` in Chinese is ordinary
    mixing; Western text read as a CJK page, ``Se駉r``, ``d醤韐lav er閚``, has more ASCII letters),
    or (``right`` GBK, Big5 or Shift_JIS) a reading ``text`` that is plainly Chinese or Japanese
    (:func:`_plain_east_asian`, D92)."""
    new_east = new.han + new.kana + new.hangul + new.half_kana
    total = new_east + new.wedged
    if new_east < 2 or total - new.lone < 2:
        return False
    if not new.wedged or new_east >= max(new.ascii_letters, 4):
        return True
    # (or a plain Chinese or Japanese reading, D92)
    return right in _CHINESE_MODEL_PAGES and bool(text) and _plain_east_asian(text)


#: The pages whose readings :func:`_plain_east_asian` judges: the Chinese character model's
#: languages are Chinese and Japanese (D65).
_CHINESE_MODEL_PAGES = ("gbk", "big5", "shift_jis")


def _plain_east_asian(text: str) -> bool:
    """True when the non-ASCII characters of ``text`` are together at least
    ``CHINESE_ODDS_NATS`` likelier as Chinese (or, with kana, as Japanese) than random
    characters of GBK and Big5 (D92): Chinese mixed with ASCII words (``就hello一下。``,
    ``hibernate加入jboss了``), whose common characters stand beside ASCII letters. Western text
    read as a CJK page gives such characters only from two high bytes in a row (GB2312's and
    Big5's rows need a second byte of at least 0xA1; an accented letter before an ASCII one
    is a character of GBK's extensions, ``Se駉r``), seldom common ones."""
    nats, _ = _log_ratios(text, _languages(text))
    return max(nats) >= CHINESE_ODDS_NATS


def _western_shape(text: str) -> bool:
    """True when ``text`` may be Western text read as a CJK page: it has at least as many
    ASCII letters as non-ASCII characters. Every language's text has fewer accented letters
    than ASCII ones (at most a quarter, Vietnamese), and a CJK page reads two of its bytes as
    one character, so the reading has at least twice as many ASCII letters (D38)."""
    ascii_part = text.encode("ascii", "ignore")
    letters = len(ascii_part) - len(ascii_part.translate(None, _ASCII_LETTER_BYTES))
    return letters >= len(text) - len(ascii_part)


_ASCII_LETTER_BYTES = bytes([*range(0x41, 0x5B), *range(0x61, 0x7B)])


def _plausible_step(wrong: str, right: str, old: Counts, new: Counts, new_text: str = "", old_text: str = "",
                    western_checked: bool = False) -> bool:
    """Structural conditions of a step (D10), on the counts of its input and output.

    * A CJK ``wrong`` page means the input was decoded by it, so it holds East Asian
      characters (``4288×…`` was never read as GBK).
    * A CJK ``right`` page must produce at least two East Asian characters, no isolated one
      and a run of two (``[x]\xa0©`` is not the GBK of one ideograph, nor a list of single
      rare ideographs the EUC-KR of common ones).
    * CJK to CJK (``gbk -> big5``) needs an East Asian input (box drawing is not Big5 read as
      GBK).
    * A step that brings letters of a non-Latin alphabet brings at least two (one Greek
      letter is a symbol in Latin text: ``IL2Rγ``).
    * Western text read as a CJK page (``wrong`` CJK, ``right`` windows-1252 or ISO-8859-1)
      has the shape of Western text (:func:`_western_shape`) and comes back as the letters of
      one language: two thirds of its non-ASCII characters are
      letters, at least ``CONSISTENT`` of them common in a single language (``Ó£MuretøúãÆ``
      mixes Danish and Portuguese, ``÷¼exoticÖõ£¡`` is mostly symbols).
    * CJK to CJK needs an input of mostly rare ideographs (half-width katakana are not GBK),
      or one with a private-use character (:func:`_odd_east`, D43).
    * A EUC-KR reading has more Hangul than Hanja and kana (D77).
    * A CJK reading leaves no half-width katakana or punctuation without a half-width
      neighbour (``Àà³`` is not ``ﾀ犁``; D26), and, without full-width kana, its half-width
      katakana do not outnumber its kanji (D31).
    """
    if wrong in _CJK_PAGES and not _east_input(old, old_text):
        return False
    if right in _CJK_PAGES and wrong in _WESTERN and _only_lone_signs(old_text):
        return False  # (D75)
    old_alpha = old.cyrillic + old.hebrew + old.arabic + old.thai
    new_alpha = new.cyrillic + new.hebrew + new.arabic + new.thai
    if new_alpha > old_alpha and new_alpha < 2:
        return False  # one Hebrew letter from "×”" is not a word (a Greek one may be: IL2Rγ)
    if new.greek == old.greek + 1 and new_alpha <= old_alpha and _ARCHAIC_GREEK.search(new_text) is not None and (
            _count(_ARCHAIC_GREEK, new_text) > _count(_ARCHAIC_GREEK, old_text)):
        return False  # one archaic Greek letter is no symbol either: "ͱ" for Big5 "舠" (D87)
    if wrong in _CJK_PAGES and right in ("windows-1252", "iso-8859-1") and not western_checked and (
            not _western_shape(old_text) or not _consistent(new_text)
            or not _alone_runs_are_words(old_text, wrong, right)):
        return False
    if (wrong in _CJK_PAGES and right in _CJK_PAGES and not _odd_east(old.han, old.common, old_text)
            and not _korean_again(wrong, right, new, new_text) and not _chinese_again(wrong, right, old_text, new, new_text)
            and not _chinese_reading(wrong, right, old_text, new_text)):
        return False
    if right in _CJK_PAGES and not _east_ok(new, right, new_text):
        return False
    if wrong in _CJK_PAGES and right in _CHINESE_PAGES and _chinese_log_ratio(new_text)[0] <= 0:
        return False  # a CJK page's reading as GBK or Big5 is Chinese: likelier than random (D66)
    if right == "euc-kr" and new.han + new.kana >= new.hangul:
        return False  # Korean writes Hangul: Hanja are 2 % of its characters (D77)
    if right in _CJK_PAGES and _LONE_HALF_KANA.search(new_text):
        return False  # half-width katakana come in runs: "ﾀ犁" is not Japanese (D26)
    if right in _CJK_PAGES and new.han and not new.kana and new.half_kana > new.han:
        return False  # half-width katakana outnumbering the kanji, no kana (D31)
    return True


#: The archaic and Coptic letters of the Greek block (heta, sampi, digamma, koppa, stigma, sho,
#: san and the Coptic letters: U+0370..U+0373, U+0376..U+0377, U+03D8..U+03EF, U+03F7..U+03F8,
#: U+03FA..U+03FB; rare, D74), which no text writes as a symbol, unlike the mathematical
#: ``ϑ ϕ ϖ ϵ`` of the block (D87).
_ARCHAIC_GREEK = re.compile("[\u0370-\u0373\u0376\u0377\u03d8-\u03ef\u03f7\u03f8\u03fa\u03fb]")


#: Character-class ranges of the East Asian scripts, the one place the patterns below take them
#: from: kana (hiragana and katakana), the unified ideographs (Extension A and the main block),
#: the compatibility ideographs, Hangul syllables, half-width katakana and punctuation, and the
#: private-use area (a CJK page's reading of a byte pair it has no character for).
_KANA_CHARS = "\u3040-\u30ff"
_UNIFIED_CHARS = "\u3400-\u9fff"
_COMPATIBILITY_CHARS = "\uf900-\ufaff"
_HANGUL_CHARS = "\uac00-\ud7a3"
_HALF_KANA_CHARS = "\uff61-\uff9f"
_PRIVATE_CHARS = "\ue000-\uf8ff"
_EAST_CHARS = _KANA_CHARS + _UNIFIED_CHARS + _HANGUL_CHARS + _COMPATIBILITY_CHARS + _HALF_KANA_CHARS
#: A Hangul syllable right before a small ASCII letter, and a run of two or more so (D91).
_HANGUL_GLUED_HINT = re.compile(f"[{_HANGUL_CHARS}][a-z]")
_HANGUL_GLUED = re.compile(f"[{_HANGUL_CHARS}]{{2,}}(?=[a-z])")


#: A run of East Asian (or private-use) characters that is a word of its own: no letter or digit
#: beside it (D47).
_ALONE_EAST = re.compile(f"(?<![^\\W_])[{_EAST_CHARS}{_PRIVATE_CHARS}]+(?![^\\W_])")


#: An East Asian (or private-use) character with an ASCII letter beside it: an accented
#: letter of a Western word read with its neighbour as one CJK character (D47).
_EAST_IN_WORD = re.compile(f"[{_EAST_CHARS}{_PRIVATE_CHARS}](?:(?<=[A-Za-z].)|(?=[A-Za-z]))")


def _alone_runs_are_words(text: str, wrong: str, right: str) -> bool:
    """True when every East Asian run of ``text`` that stands as a word of its own reads, through
    ``wrong`` and ``right`` (a CJK page and a Western one), as a word (D47, D85).

    With an East Asian character beside an ASCII letter in the text (an accented letter read
    with its neighbour, D47), a run alone must read as letters only, an ASCII one among them:
    Western text read as a CJK page makes such a run from a short word that starts with an
    accented letter (``él`` is GBK ``閘``, ``år``, ``ça``); Chinese in Latin prose or code
    (``; 在 6250``, ``The word 愛 means``) reads as ``ÔÚ`` or ``·R``. Without one, or for a run
    that reads as non-ASCII letters only, the run must also be no East Asian word
    (:func:`_no_east_word`: characters no likelier than random ones as Chinese or Japanese) and
    read with the shape of a word (:func:`_word_shaped`, D85): ``Üs komentotz`` for GBK ``躶``,
    ``Ær unsen`` for Big5 ``鑼``; ``I vs. 熊`` (``ŒF``) and ``身辺`` (``ÉíÞx``) stay."""
    glued = _EAST_IN_WORD.search(text) is not None
    alone = False
    for m in _ALONE_EAST.finditer(text):
        alone = True
        data = _encode(m.group(), wrong)
        word = _decode(data, right) if data is not None else None
        if glued and word is not None and word[0] in _OPENING and word.lstrip(_OPENING).isalpha():
            continue  # a quoted word's opening: "“e" for Shift_JIS "兎" (D88)
        # (letters only, at least one non-ASCII)
        if word is None or not word.isalpha() or word.isascii():
            return False
        with_ascii = bool(word.encode("ascii", "ignore"))
        if glued and with_ascii:
            continue  # (D47)
        if (not (glued or with_ascii) or not _word_shaped(word) or not _no_east_word(m.group())
                or not _neighbours_fit(word, right)):
            return False  # (D85)
    return glued or alone


def _word_shaped(word: str) -> bool:
    """True when ``word`` (letters) has the shape of a word: a capital or a small letter, then
    small letters only (D85; D29's rule: no word has a capital after a small letter, and a
    word of two capitals is an abbreviation, not the accented word a CJK page's run alone
    stands for)."""
    return word[1:].islower() or len(word) == 1


def _neighbours_fit(word: str, page: str) -> bool:
    """True when the letters of ``word`` (a Latin word on the Western ``page``) have neighbours
    at least as likely as letters in general do, in some language written in ``page``
    (:func:`onemail.detect._langmodel.best_context_log_likelihood` >= 0, D85): ``Üs``, ``Ær``,
    ``én``; not ``Ìx`` nor ``šr``, whose letters start no word and take no such neighbour."""
    from ._langmodel import best_context_log_likelihood

    data = _encode(word, page)
    return data is not None and best_context_log_likelihood(data, page) >= 0


def _no_east_word(run: str) -> bool:
    """True when the East Asian ``run`` is no likelier than random characters as Chinese and as
    Japanese (D65's model, D85: the characters of a reading of other bytes); a run with
    Hangul is never such (Korean's own model decides Hangul, D51)."""
    if _ALL_HANGUL.search(run) is not None:
        return False
    nats, _ = _log_ratios(run)
    return max(nats) <= 0


# A half-width katakana or half-width punctuation (U+FF61..U+FF9F) with no half-width neighbour
_LONE_HALF_KANA = re.compile(f"(?<![{_HALF_KANA_CHARS}])[{_HALF_KANA_CHARS}](?![{_HALF_KANA_CHARS}])")


def _apply(text: str, wrong: str, right: str, segments: bool = True) -> str | None:
    """Apply one step to all of ``text``; else (``segments``) to its UTF-8-looking runs."""
    out = _whole(text, wrong, right, {})
    if out is None and segments and right == "utf-8" and wrong in _SEGMENT_PAGES:
        return _apply_segments(text, wrong)
    return out


def _whole(text: str, wrong: str, right: str, memo: _Memo) -> str | None:
    """Apply one step to all of ``text`` (None: the encode or the decode fails, or the bytes
    are ASCII); the encoding of ``text`` by ``wrong`` is kept in ``memo`` (``"data"``: the
    page and its bytes) for the next pairs of the same page (the pairs come grouped by page;
    one page's bytes at a time, not a copy of the text per page)."""
    kept = memo.get("data")
    if kept is not None and kept[0] == wrong:
        data = kept[1]
    else:
        data = _encode(text, wrong)
        memo["data"] = (wrong, data)
    if data is not None and not data.isascii():
        return _decode(data, right)
    return None


_segment_res: dict[str, re.Pattern[str]] = {}
#: C1 controls (D25).
_C1 = re.compile("[\x80-\x9f]")
#: The C1 controls whose byte windows-1252 maps to a sign (all but 0x81, 0x8D, 0x8F, 0x90, 0x9D).
_C1_SIGN = re.compile("[\x80\x82-\x8c\x8e\x91-\x9c\x9e\x9f]")


def _segment_re(page: str) -> re.Pattern[str]:
    """Compile the pattern of ``page``'s readings of UTF-8 multi-byte sequences.

    A sequence one of whose bytes was lost upstream as U+FFFD (windows-1252 has no character
    for 0x81, 0x8D, 0x8F, 0x90, 0x9D), or as an ASCII ``?`` (at most one per sequence, for
    two-byte sequences only after ``Ã`` and ``Â``), matches too and becomes one U+FFFD, as ftfy
    does (D18); for windows-1252 and ISO-8859-1 so does ``Ã`` before a space and a lower-case
    letter (``à`` whose no-break space became a space). On the Latin pages a space also stands
    for a lost no-break space (0xA0) after the page's characters for 0xC2, 0xC5, 0xD0, and on
    windows-1252 and ISO-8859-1 inside a three-byte sequence led by 0xE2/0xE3 (second byte) or
    0xE0..0xE3 (third byte), where the other continuation byte is neither 0x85 nor 0xA0
    (``â €`` is U+2800, ``à¸ `` is ``ภ``; D18).
    """
    r = _segment_res.get(page)
    if r is None:
        # (the branches as (first character's class, guard, rest): _first_class searches for the
        # union of the first characters, as fast as a class, where the plain alternation
        # tried every branch at every character; _segment_branches gives the plain form)
        r = _segment_res[page] = _first_class(_segment_branches(page))
    return r


def _segment_branches(page: str) -> list[tuple[str, str] | tuple[str, str, str]]:
    """The branches of :func:`_segment_re` as ``(first, rest)`` or ``(first, rest, guard)``,
    ``guard`` a look-behind that holds right after the first character: in this order, the
    alternation of ``first rest`` (the guard's condition on the character before the first)
    matches what :func:`_segment_re` matches."""
    def chars(lo: int, hi: int, extra: str = "", skip: tuple[int, ...] = ()) -> str:
        out = (_decode(bytes((b,)), page) for b in range(lo, hi + 1) if b not in skip)
        return "[" + "".join(re.escape(c) for c in out if c) + extra + "]"

    cont = chars(0x80, 0xBF)
    lost = chars(0x80, 0xBF, "\ufffd")
    once = "[?\ufffd]"
    two, three, four = chars(0xC2, 0xDF), chars(0xE0, 0xEF), chars(0xF0, 0xF4)
    alts: list[tuple[str, str] | tuple[str, str, str]] = [
        (two, cont), (three, f"{cont}{{2}}"), (four, f"{cont}{{3}}"), (two, "\ufffd"),
        (three, f"(?:{once}{lost}|{lost}{once})"),
        (four, f"(?:{once}{lost}{lost}|{lost}{once}{lost}|{lost}{lost}{once})"),
        (chars(0xC2, 0xC3), "\\?")]
    if page in ("windows-1252", "iso-8859-1"):
        strict = chars(0x80, 0xBF, skip=(0x85, 0xA0))
        alts += [(chars(0xE2, 0xE3), f" {strict}"), (chars(0xE0, 0xE3), f"{strict} (?=\\S)"),
                 ("[\u00c3]", "(?:  ?(?=[a-z])|  (?=\\S))", "(?<![A-Z]\u00c3)")]
    elif page == "windows-1251":
        alts.append(("[\u0413]", "  ?(?=[a-z])", "(?<![\u0410-\u042f]\u0413)"))
    if page in _SPACE_PAGES:
        alts.append(("[" + "".join(_decode(bytes((b,)), page) or "" for b in (0xC2, 0xC5, 0xD0)) + "]", " (?=\\S)"))
    return alts


#: Latin pages whose characters for 0xC2, 0xC5, 0xD0 (``Â Å Ð``, ``Â Ĺ Đ``, ``Ā Å Š``) and
#: 0xE0..0xE3 before a space are read as a lost no-break space (D13, D18); not windows-1251
#: (``В`` is a word), Mac Roman (``–``) or CP437 (box drawing).
_SPACE_PAGES = ("windows-1252", "iso-8859-1", "windows-1250", "iso-8859-2", "windows-1257")


def _strong(run: str) -> bool:
    """A run that is evidence on its own (D18): three or four characters (a three- or
    four-byte sequence) not all letters (``ášť`` is Slovak read as ISO-8859-2, ``â€œ`` and
    ``‚Ä¶`` are no words), or a two-byte one whose second byte was lost as U+FFFD."""
    if run.endswith("\ufffd"):
        return True
    chars = run.replace(" ", "")
    return len(chars) >= 3 and not chars.isalpha()


_BOX = re.compile("[\u2500-\u259f]")
#: A C1 control, a private-use character or a box-drawing one (_score's three signs, at once).
_C1_PRIVATE_OR_BOX = re.compile(f"[\x80-\x9f{_PRIVATE_CHARS}\u2500-\u259f]")
_BOX_PAIRS: list[re.Pattern[str]] = []


def _box_pair_re() -> re.Pattern[str]:
    """Compile the pattern of CP437's box drawing for a UTF-8 lead byte (0xC2..0xDF) followed by
    its character for a continuation byte (0x80..0xBF: letters, signs, box drawing and shades;
    D11's signatures leave the box drawing to DOS art) (D53)."""
    if not _BOX_PAIRS:
        leads = "".join(c for b in range(0xC2, 0xE0) if _BOX.match(c := _decode(bytes((b,)), "ibm437") or ""))
        conts = "".join(re.escape(_decode(bytes((b,)), "ibm437") or "") for b in range(0x80, 0xC0))
        _BOX_PAIRS.append(re.compile(f"[{leads}][{conts}]"))
    return _BOX_PAIRS[0]


def _box_letter(text: str, start: int, end: int) -> bool:
    """True when ``text[start:end]`` is a pair of :func:`_box_pair_re` with a letter of an
    alphabet beside it and a UTF-8 reading that is a common letter of some language: CP437's
    reading of an accented letter inside a word (``Quev\u251c\u2502l`` for ``Quevól``,
    ``t\u2500\u2592raza`` for Turkish ``tıraza``); DOS art puts no box drawing against a word,
    and ``\u253c\u2510`` (``ſ``) is no common letter (D53)."""
    if end - start != 2 or not _box_pair_re().fullmatch(text, start, end):
        return False
    before = text[start - 1] if start else ""
    after = text[end] if end < len(text) else ""
    if not ((before.isalpha() and before < "\u2500") or (after.isalpha() and after < "\u2500")):
        return False
    data = _encode(text[start:end], "ibm437")
    letter = _decode(data, "utf-8") if data is not None else None
    return letter is not None and letter.lower() in _letter_fields()


def _box_signatures(text: str) -> int:
    """The pairs of ``text`` that :func:`_box_letter` finds with a box drawing or shade second
    (the others are D11's signatures already): each a UTF-8 signature (D53)."""
    return sum(_BOX.match(text, m.start() + 1) is not None and _box_letter(text, m.start(), m.end())
               for m in _box_pair_re().finditer(text))


def _in_word(m: re.Match[str], page: str) -> bool:
    """True when run ``m`` starts with one of ``page``'s in-word leads right after a letter
    (D29): evidence on its own."""
    leads = _IN_WORD_LEADS.get(page)
    if leads is None or not m.start():
        return False
    if not leads:
        leads = _IN_WORD_LEADS[page] = "".join(
            c for b in range(0xC2, 0xE0) if (c := _decode(bytes((b,)), page) or "").isupper())
    if m.group()[0] not in leads:
        return False
    before = m.string[m.start() - 1]
    return before.isalpha() and (page == "macintosh" or before.islower())


def _common_letters_only(text: str) -> bool:
    """True when the non-ASCII characters of ``text`` are at least two letters, each common in
    some language (D77)."""
    high = [ch for ch in text if not ch.isascii()]
    fields = _letter_fields()
    return len(high) >= 2 and all(ch.lower() in fields for ch in high)


def _sign_in_word(m: re.Match[str], page: str) -> bool:
    """True when two-character run ``m`` of a page of ``_IN_WORD_LEADS`` puts a sign inside a
    word (D72): a letter (the lead) and a sign (:func:`_is_sign`: math, currency and other
    symbols, numbers, ``… † • §``, C1 controls) or an opening quote or bracket with a letter
    right after it (windows-1257 ``Ć€sviat`` for ``Àsviat``,
    ``Ć¼nla`` for ``ünla``); on Mac Roman, its ``≈`` or ``ƒ`` (leads of D29 that stand inside
    no word) before a letter and a letter (``≈Ωit`` for ``Žit``). No word writes a sign
    between its letters (the detector's own rule, ``MIX_NATS`` for a sign between two ASCII
    letters): evidence on its own, as D29's leads inside words are."""
    run = m.group()
    end = m.end()
    if len(run) != 2 or end >= len(m.string) or not m.string[end].isalpha():
        return False
    if page == "macintosh":
        return run[0] in "\u2248\u0192" and run[1].isalpha()
    return run[0].isalpha() and (_is_sign(run[1]) or unicodedata.category(run[1]) in ("Ps", "Pi"))


def _is_sign(ch: str) -> bool:
    """True when ``ch`` is a sign no word writes between its letters (D72): a C1 control, a
    category of the detector's ``INSIDE_SIGNS`` but the modifier symbols (``¸ ˛ ¨``: spacing accents that
    careless typing puts after a letter), not ``INSIDE_ALLOWED`` (the acute accent, the middle
    dot), nor CP437's box drawing (DOS art)."""
    from ._langmodel import INSIDE_ALLOWED, INSIDE_SIGNS

    if "\x80" <= ch <= "\x9f":
        return True  # a C1 control, no text's character (D41)
    cat = unicodedata.category(ch)
    return cat != "Sk" and cat in INSIDE_SIGNS and ch not in INSIDE_ALLOWED and not _BOX.match(ch)


def _runs(text: str, page: str) -> Iterator[re.Match[str]]:
    """Yield the matches of :func:`_segment_re` ``(page)`` in ``text``, those of ``finditer``:
    every run starts with a hint (:func:`_run_hint`), so the full pattern is tried only where
    one does (the hint's few branches scan alphabetic text faster than the run's many)."""
    hint = _run_hint(page).search
    run = _segment_re(page).match
    pos = 0
    while (h := hint(text, pos)) is not None:
        m = run(text, h.start())
        if m is None:
            pos = h.start() + 1
            continue
        yield m
        pos = m.end()


def _enough_runs(text: str, page: str) -> bool:
    if _run_hint(page).search(text) is None:
        return False  # every run starts with a hint: none here (the hint scans faster)
    # (the runs one by one, until there are enough: no list of every run of a long text)
    count = 0
    for m in _runs(text, page):
        if _rare_letter_reading(m, page):
            continue
        if page == "windows-1251" and _CYRILLIC_LOWER.match(text, m.end()):
            continue
        run = m.group()
        if page == "macintosh" and run.startswith(_MAC_ROOT):
            return True
        if page in _IN_WORD_LEADS and (_in_word(m, page) or _sign_in_word(m, page)):
            return True
        if page == "ibm437" and _box_letter(m.string, m.start(), m.end()):
            return True
        count += 1 + _strong(run)
        if count >= _MIN_RUNS[page]:
            return True
    return False


#: The pages of D9 whose characters D11's signature pattern does not know (D70).
_OWN_SIGNATURES = ("iso-8859-2", "windows-1257", "macintosh")


def _page_signatures(text: str, page: str, memo: _Memo) -> int:
    """The UTF-8 signatures that ``page``'s own telling runs make in ``text`` beyond those D11's
    pattern counts (D70), kept in ``memo``: D11's pattern knows the characters of
    windows-1252, ISO-8859-1, windows-1251, windows-1250 and CP437 only, so windows-1257's
    ``ā€™`` (``’``), ISO-8859-2's or Mac Roman's runs weighed nothing and their readings
    stayed under the margin. A run of :func:`_segment_re` ``(page)`` that reads as UTF-8
    weighs :func:`_run_weight`; only for those pages (``_OWN_SIGNATURES``) and when their runs
    are enough (:func:`_enough_runs`)."""
    key = ("pagesig", page)
    found: int | None = memo.get(key)
    if found is None:
        weight = sum(_run_weight(m, page) for m in _runs(text, page))
        found = memo[key] = max(0, weight - signatures(text)) if weight else 0
    return found


def _run_weight(m: re.Match[str], page: str) -> int:
    """The signatures run ``m`` of a D9 page is worth (D70): none unless it is telling, one
    when it is, two for a three-byte run that D27 would count twice (a second byte of
    0x80..0x9F, not letters only, nor a letter before two punctuation marks). Telling: a continuation character that is
    punctuation or a sign (:func:`_is_sign`: not a letter, a space or no-break space, a spacing
    accent, CP437's box drawing), or evidence on its own (D29's lead inside a word,
    D72's sign inside a word, Mac Roman's ``√``, D53's box drawing against a letter). A run of
    letters only (``HÅØYA``, all capitals), a no-break space after a letter (``SELKÄ\xa0``) and
    ``á´´`` (closing quotes typed as accents) tell nothing: ftfy's negative cases."""
    if _rare_letter_reading(m, page) or _segment_fix(m, page) is None:
        return 0
    run = m.group().replace(" ", "")
    telling = any(_is_sign(c) or unicodedata.category(c)[0] == "P" for c in run[1:])
    if not telling and not (_in_word(m, page) or _sign_in_word(m, page) or run[0] == _MAC_ROOT
                            or (page == "ibm437" and _box_letter(m.string, m.start(), m.end()))):
        return 0
    if (len(run) >= 3 and 0x80 <= (_encode(run[1], page) or b"\0")[0] < 0xA0 and not run.isalpha()
            and not (_is_punct(run[1]) and _is_punct(run[2]))):
        return 2
    return 1


def _rare_letter_reading(m: re.Match[str], page: str) -> bool:
    """True when run ``m`` is three or more letters whose UTF-8 reading is one letter (not East
    Asian) that no language has among its common letters, or an unassigned code point (D35):
    Slovak ``ášť`` (in ``dvoplášťové``, twice in a corpus file) is not ISO-8859-2 for ``ṻ``
    nor windows-1250 for U+169D (unassigned). Such a run is no evidence for the two-run rule
    of D9's pages; Vietnamese ``ế`` (three letters in ISO-8859-2) is common in its language
    and still counts."""
    piece = m.group()
    if len(piece) < 3 or not piece.isalpha():
        return False
    out = _segment_fix(m, page)
    if out is None or len(out) != 1 or _EAST.match(out):
        return False  # (an East Asian reading is judged by the CJK rules)
    if unicodedata.category(out) == "Cn":
        return True  # no character at all
    return out.isalpha() and out.lower() not in _letter_fields()  # (the common letters of all)


def _segment_fix(m: re.Match[str], page: str) -> str | None:
    """Return the UTF-8 reading of one matched run, or None.

    A no-break space that became a space (D13): ``Ã``/``Г`` + space is ``à`` (the space
    stays, as in ``à perturber``, unless a second one follows or the Portuguese contractions
    ``às``, ``àquele``, ``àquilo`` do); ``Â``, ``Ð``, ``Å`` + space are the no-break space,
    ``Р``, ``Š``; a space inside a three-byte run is 0xA0 (D18). A run with a lost byte
    (U+FFFD, ``?``) becomes one U+FFFD.
    """
    piece = m.group()
    if "\ufffd" in piece or "?" in piece:
        return "\ufffd"
    if piece[0] in "\u00c3\u0413" and piece[1:].strip() == "":
        if len(piece) == 3:
            return "\u00e0 "  # the no-break space became the first space
        # (a look at the next characters in place: a slice of the rest of the text per run
        # made a long text's repair quadratic, issue 16)
        if m.string.startswith(("s ", "quel", "quil"), m.end()):
            return "\u00e0"
        return "\u00e0 "
    # (a space stands for a lost 0xA0 byte, D13 and D18)
    parts = [_encode(chunk, page) for chunk in piece.split(" ")] if " " in piece else [_encode(piece, page)]
    if None in parts:
        return None
    return _decode(b"\xa0".join(cast("list[bytes]", parts)), "utf-8")


def _all_in_runs(text: str, page: str) -> bool:
    """True when every non-ASCII character of ``text`` is in a run of ``page`` that reads as
    UTF-8 (:func:`_segment_fix`): stops at the first one outside."""
    prev = 0
    for m in _runs(text, page):
        if not text[prev:m.start()].isascii() or _segment_fix(m, page) is None:
            return False
        prev = m.end()
    return text[prev:].isascii()


def _apply_segments(text: str, page: str, complete: bool = False) -> str | None:
    """Decode as UTF-8 each run that ``page`` made of a valid UTF-8 sequence (D13).

    The whole text does not decode (it mixes mojibake with characters the page cannot
    encode, or a lone continuation byte); each replaced run decodes with zero errors, the rest
    stays as it is. Returns None when fewer than two runs change, unless one of them is
    evidence on its own: a no-break space lost as a space, a three- or four-byte run, a lost
    byte (D18). With ``complete``, also None unless every non-ASCII character of ``text`` is
    in a replaced run (D20).
    """
    if _run_hint(page).search(text) is None:
        return None  # no run (each starts with a hint): nothing changes
    if complete and not _all_in_runs(text, page):
        return None  # (told before any text is built: most texts have a character outside)
    changed = 0
    strong = 0
    covered = 0

    def fix(m: re.Match[str]) -> str:
        nonlocal changed, strong, covered
        out = _segment_fix(m, page)
        if out is None:
            return m.group()
        changed += 1
        piece = m.group()
        strong += (piece[-1] == " " or _strong(piece) or _in_word(m, page)
                   or (page in _IN_WORD_LEADS and _sign_in_word(m, page))
                   or (page == "ibm437" and _box_letter(m.string, m.start(), m.end())))
        covered += len(piece) - len(piece.encode("ascii", "ignore"))
        return out

    out = _sub(_segment_re(page), fix, text)
    if complete and covered < len(text) - len(text.encode("ascii", "ignore")):
        return None
    # One run alone is not enough evidence for a piecewise reading ("DrÃ¥ber" is a name in the
    # ftfy negative cases), unless it is "à" whose no-break space became a space.
    if changed >= 2 or (changed == 1 and strong):
        return out
    return None


#: A long text's replacements are joined every this many pieces (:func:`_sub`).
JOIN_EVERY = 1 << 12


def _sub(pattern: re.Pattern[str], fix: Callable[[re.Match[str]], str], text: str) -> str:
    """``pattern.sub(fix, text)`` in memory near the output's size: ``re.sub`` keeps every
    piece of the output (two small strings per match, about 10 times the text for mojibake
    where every other word is a run) until it joins them; a long text's pieces are joined every
    ``JOIN_EVERY`` pieces instead (issue 16: repair of 8 MB peaked at 29 times the input). The
    same matches in the same order, so the same output."""
    if len(text) <= COUNT_IN_ONE_CALL:
        return pattern.sub(fix, text)
    joined: list[str] = []
    pieces: list[str] = []
    prev = 0
    for m in pattern.finditer(text):
        pieces.append(text[prev:m.start()])
        pieces.append(fix(m))
        prev = m.end()
        if len(pieces) >= JOIN_EVERY:
            joined.append("".join(pieces))
            pieces.clear()
    pieces.append(text[prev:])
    joined.append("".join(pieces))
    return "".join(joined)


def repair(text: str) -> Repair:
    """Undo mojibake in ``text`` (spec 004 "Repair"; rules in the module docstring).

    :param text: a ``str`` that may be mojibake (text decoded with the wrong code page).
    :returns: :class:`Repair` ``(text, steps)``; ``steps`` is empty when nothing was changed.
        Never raises on any ``str``.
    :raises TypeError: ``text`` is not a ``str``.

    >>> r = repair("FÃ¶rstÃ¥r inte")
    >>> r.text, render_chain(r.steps)
    ('Förstår inte', 'windows-1252 -> utf-8')
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    memo: _Memo = {}
    if not _possible(text, memo):
        # no first-round step can apply (the cheap test; ASCII among them): nothing changes
        return Repair(text, ())
    return _rounds(text, memo)


def mojibake_steps(text: str) -> tuple[tuple[str, str], ...]:
    """Say whether :func:`repair` would change ``text``, and with which steps, without
    returning the repaired text (for a caller that reports mojibake and keeps the text, issue
    17: a header value or a text part shown as it came, with the chain that would fix it).

    Implements spec 004 "Repair" (the same rounds as :func:`repair`, rules in the module
    docstring).

    :param text: a ``str`` that may be mojibake.
    :returns: ``((wrong, right), ...)``, the steps :func:`repair` applies, in order (names of
        :data:`PAIRS`; ``render_chain`` writes them as ``"windows-1252 -> utf-8"``); ``()``
        when it would leave ``text`` unchanged. Never raises on any ``str``.
    :raises TypeError: ``text`` is not a ``str``.

    Cost: on clean text only the cheap test (:func:`repair_possible`: C codecs and patterns,
    no scoring; bench/repair.py times it beside ``ftfy.fix_encoding``); on mojibake the rounds
    of :func:`repair`. Memory: a few times the text.

    >>> mojibake_steps("FÃ¶rstÃ¥r inte")
    (('windows-1252', 'utf-8'),)
    >>> mojibake_steps("Förstår inte")
    ()
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    memo: _Memo = {}
    if not _possible(text, memo):
        return ()
    return _rounds(text, memo).steps


def _rounds(text: str, first: _Memo | None = None) -> Repair:
    """The rounds of :func:`repair`, without the :func:`repair_possible` test (the tests
    compare the two: the cheap test must never refuse a text the rounds would change)
    (``first``: the memo the cheap test of ``text`` filled, the first round's)."""
    steps: list[tuple[str, str]] = []
    if text.isascii():
        return Repair(text, ())
    # (several pairs often read the text alike, and a round's output is the next round's
    # input: each distinct text is scored once)
    # (keyed by the text's hash, not the text: the outputs are not kept, only their scores)
    scored: dict[int, _Scored] = {}
    current = text
    for round_no in range(MAX_ROUNDS):
        # per page, for both passes: ("runs", page) -> _enough_runs(current, page), and
        # "data" -> (page, current encoded by the page): a page is the wrong one of many pairs
        # (the cheap test's findings on the same text start it)
        memo: _Memo = first if not round_no and first is not None else {}
        if round_no and not _possible(current, memo):
            break  # (a round is the first round of its input: the cheap test holds for it)
        base, group, counts = scored.get(hash(current)) or _score(current)
        best = (_round(current, base, group, counts, False, scored, memo)
                or _round(current, base, group, counts, True, scored, memo))
        if best is None:
            break
        _, wrong, right, how = best
        current = _step_text(current, wrong, right, how)
        steps.append((wrong, right))
    return Repair(current, tuple(steps))


_PRIVATE_USE = re.compile(f"[{_PRIVATE_CHARS}]")


def _odd_east(han: int, common: int, text: str) -> bool:
    """True when East Asian ``text`` (``han`` ideographs, ``common`` of them common) may be the
    reading of another CJK page: mostly rare ideographs (D10), or a private-use character,
    which no text holds: a CJK page's reading of a byte pair it has no character for (GBK
    read as Shift_JIS, D43), unless it is a carrier emoji in plain Japanese (D50)."""
    if han and common * 2 < han:
        return True
    if _PRIVATE_OR_HALF.search(text) is None:
        return False  # (one scan for both signs below: most text has neither)
    return (_PRIVATE_USE.search(text) is not None and not _user_defined_in_japanese(text)) or _odd_half_kana(text)


_PRIVATE_OR_HALF = re.compile(f"[{_PRIVATE_CHARS}{_HALF_KANA_CHARS}]")


_HALF_KANA = re.compile(f"[{_HALF_KANA_CHARS}]")
_KANA = re.compile(f"[{_KANA_CHARS}]")
#: Half-width katakana no Japanese word writes (D52): a small kana, the long-vowel mark or a
#: sound mark after no katakana (a small ｯ may follow a kanji: ``行ｯﾃ``), the voiced mark after
#: a kana that takes none (only ｳ, the k-, s-, t- and h-rows do), the semi-voiced mark after
#: another than the h-row.
_NO_JAPANESE = re.compile(
    "(?<![\uff66-\uff9f])[\uff67-\uff6e\uff70\uff9e\uff9f]"
    "|(?<![\uff66-\uff9f\u3400-\u9fff])\uff6f"
    "|(?<=[\uff66-\uff72\uff74\uff75\uff85-\uff89\uff8f-\uff9d\uff70\uff9e\uff9f])\uff9e"
    "|(?<![\uff8a-\uff8e])\uff9f")


def _odd_half_kana(text: str) -> bool:
    """True when ``text``, without full-width kana, holds two signs of half-width katakana that
    no Japanese word writes (``_NO_JAPANESE``; a closing half-width corner bracket ``｣``
    without its opening one), or one and a kanji (D52). A CJK page's bytes read as Shift_JIS give them so: its single bytes
    0xA1..0xDF taken from the other page's characters pair by pair (``ﾊﾐｵﾄﾌ眇ｪﾛﾚ｣ｬ`` is GBK
    ``市的提姜圳，``: ``，`` is ``A3 AC``, ``｣ｬ``); Japanese in half-width katakana follows
    its spelling (``ﾃﾞｼﾞﾀﾙｶﾒﾗ``, ``ｸﾞﾙｰﾌﾟ会議``)."""
    if _HALF_KANA.search(text) is None or _KANA.search(text) is not None:
        return False  # (Japanese writes full-width kana: CJK pages read as Shift_JIS seldom give them)
    # (two such signs, or one among kanji: a list of the small kana, ``ｧｨｩｪｫｯ``, starts with one)
    signs = _count(_NO_JAPANESE, text) + max(0, text.count("\uff63") - text.count("\uff62"))
    return signs >= 2 or (signs == 1 and _HAN.search(text) is not None)


_HAN = re.compile(f"[{_UNIFIED_CHARS}{_COMPATIBILITY_CHARS}]")


#: The private-use characters a Shift_JIS reading (cp932) gives for its user-defined rows, lead
#: bytes 0xF0..0xF9: carrier emoji and company characters (D50).
_USER_DEFINED_SJIS = re.compile("[\ue000-\ue757]")
#: A kana or an ideograph (D50).
_JAPANESE = re.compile(f"[{_KANA_CHARS}{_UNIFIED_CHARS}]")


def _user_defined_in_japanese(text: str) -> bool:
    """True when every private-use character of ``text`` is one Shift_JIS gives its
    user-defined rows (U+E000..U+E757: the carrier emoji of Japanese mobile mail, ``本文\ue59f``)
    and the rest of the text reads as plain Japanese: kana or ideographs, mostly common ones
    (:func:`_odd_east`'s own test), no half-width katakana alone (D26) nor outnumbering the
    kanji without kana (D31). Such characters are what the right reading gives, no sign of a
    wrong one (D50); GBK read as Shift_JIS gives them among lone half-width katakana
    (``ﾗ\ue2bc鄙``, D43), Western text read as Shift_JIS among Latin letters (``gtr\ue48crigt``,
    D44)."""
    if _count(_PRIVATE_USE, text) != _count(_USER_DEFINED_SJIS, text) or _JAPANESE.search(text) is None:
        return False
    if _LONE_HALF_KANA.search(text) is not None:
        return False
    c = classify(text)
    if c.han and not c.kana and c.half_kana > c.han:
        return False
    return c.common * 2 >= c.han
def _high(text: str) -> int:
    """The number of non-ASCII characters of ``text``: what a CJK page reads as double-byte
    characters. Korean read as GBK or Big5 has one per syllable (D90): GBK reads every KS X
    1001 syllable as an ideograph (rows 0xB0..0xC8 are GB2312's level 1), Big5 reads rows
    0xC6..0xC8 (``퉤`` .. ``힝``: ``해``, ``했``, ``하``) as its ETEN extensions, kana, Cyrillic
    letters and circled numbers (``해`` is ``п``), so the ideographs alone undercount them."""
    return len(text) - len(text.encode("ascii", "ignore"))


#: Korean read as a Chinese page comes back when its reading has at least this many syllables
#: and at least this share of them among Korean's common ones (D48).
KOREAN_MIN = 4
KOREAN_COMMON = 0.75
_KOREAN: list[re.Pattern[str]] = []


def _korean_again(wrong: str, right: str, new: Counts, new_text: str) -> bool:
    """True when a step from GBK or Big5 to EUC-KR reads Han-dominant text back into Korean
    (D48): Hangul with almost no ideograph or kana (at most one per ten syllables), at least
    ``KOREAN_MIN`` syllables, ``KOREAN_COMMON`` of them among the syllables that make 95 % of
    Korean text (``KOREAN_SYLLABLES``, from langdetect's profile). EUC-KR's syllables are
    GB2312's and Big5's common ideographs (rows 0xB0..0xC8), so the mojibake looks like
    Chinese; Chinese read as EUC-KR gives syllables its characters' bytes pick, seldom common
    ones (at most 2 of 3 in 2 265 Chinese lines and texts)."""
    if right != "euc-kr" or wrong not in ("gbk", "big5", "shift_jis") or new.hangul < KOREAN_MIN:
        return False
    if (new.han + new.kana + new.half_kana) * 10 > new.hangul:
        return False
    # (mostly common syllables, D48, or syllables Korean makes likely, D52)
    return _korean_syllables(new_text) or _likely_korean(new_text)


def _korean_syllables(text: str) -> bool:
    """True when ``text`` has at least ``KOREAN_MIN`` Hangul syllables, ``KOREAN_COMMON`` of
    them among Korean's common ones (D48)."""
    if not _KOREAN:
        from ._tables.language import KOREAN_SYLLABLES

        _KOREAN.append(re.compile("[" + KOREAN_SYLLABLES + "]"))
    syllables = _count(_ALL_HANGUL, text)
    return syllables >= KOREAN_MIN and _count(_KOREAN[0], text) >= KOREAN_COMMON * syllables


_ALL_HANGUL = re.compile(f"[{_HANGUL_CHARS}]")
#: The Hangul syllables and the Hanja EUC-KR encodes (KS X 1001): what a reading of other bytes
#: picks from.
KS_SYLLABLES = 2350
KS_HANJA = 4888
#: Hangul (with Hanja) is another page's bytes read as EUC-KR when its characters are, on
#: average, at least this many nats per character less likely as Korean than characters of
#: KS X 1001 picked at random (D51).
NOT_KOREAN_NATS = -1.0
_KOREAN_NATS: dict[str, float] = {}
_NOT_COMMON_KOREAN: list[re.Pattern[str]] = []


def _common_syllables_re() -> re.Pattern[str]:
    """D48's pattern of Korean's common syllables, compiled on first use."""
    if not _KOREAN:
        _korean_syllables("")  # (compiles D48's pattern)
    return _KOREAN[0]
#: A Hangul syllable or an ideograph (a Hanja in Korean text).
_KOREAN_UNIT = re.compile(f"[{_HANGUL_CHARS}{_UNIFIED_CHARS}{_COMPATIBILITY_CHARS}]")


def _korean_nats() -> dict[str, float]:
    """Per Hangul syllable of langdetect's Korean profile, ``log(P_korean / P_random)`` in nats,
    ``P_random = 1 / (KS_SYLLABLES + KS_HANJA)``; ``""``: that of a syllable the profile lacks
    (half the least count it keeps); ``"\u4e00"``: that of any ideograph (the profile's Hanja share, spread over
    ``KS_HANJA``) (D51)."""
    if not _KOREAN_NATS:
        from ._tables.language import KOREAN_HANJA_COUNT, KOREAN_SYLLABLE_COUNTS

        syllables, counts = KOREAN_SYLLABLE_COUNTS
        total = sum(counts) + KOREAN_HANJA_COUNT + min(counts) / 2 * (KS_SYLLABLES - len(counts))
        units = KS_SYLLABLES + KS_HANJA
        built = {ch: math.log(n / total * units) for ch, n in zip(syllables, counts, strict=True)}
        # (the profile keeps the syllables counted at least min(counts) times: one it lacks was
        # counted fewer, half of that at the middle)
        built[""] = math.log(min(counts) / 2 / total * units)
        built["\u4e00"] = math.log(KOREAN_HANJA_COUNT / total / KS_HANJA * units)
        _KOREAN_NATS.update(built)  # one step: no thread sees part of it
    return _KOREAN_NATS


def _not_korean(text: str) -> bool:
    """True when the Hangul of ``text`` is no Korean text but a CJK page's bytes read as EUC-KR
    (D51): a Hangul syllable, at least ``KOREAN_MIN`` syllables and ideographs, fewer than
    ``KOREAN_COMMON`` of them common syllables (the cheap test first, D48's pattern), and on
    average ``NOT_KOREAN_NATS`` or less per character against characters of KS X 1001 picked
    at random (langdetect's Korean counts). GBK's common ideographs are EUC-KR's syllables
    and Hanja, so Chinese read as EUC-KR gives syllables that follow the Chinese characters'
    bytes, not Korean's frequencies, with Hanja among them (``큽쳄敎澹`` for ``女美午勇``)."""
    if _ALL_HANGUL.search(text) is None:
        return False
    # (the cheap test on the non-ASCII characters, at least the syllables and ideographs: the
    # characters that are not common syllables are few in Korean text, so few matches)
    if not _NOT_COMMON_KOREAN:
        from ._tables.language import KOREAN_SYLLABLES

        _NOT_COMMON_KOREAN.append(re.compile("[^\x00-\x7f" + KOREAN_SYLLABLES + "]"))
    high = len(text) - len(text.encode("ascii", "ignore"))
    if high - _count(_NOT_COMMON_KOREAN[0], text) >= KOREAN_COMMON * high:
        return False
    units = _count(_KOREAN_UNIT, text)
    if units < KOREAN_MIN or _count(_common_syllables_re(), text) >= KOREAN_COMMON * units:
        return False
    return _korean_log_ratio(text) <= NOT_KOREAN_NATS * units


def _korean_log_ratio(text: str) -> float:
    """The sum over the Hangul syllables and ideographs of ``text`` of ``log(P_korean /
    P_random)`` (:func:`_korean_nats`), in nats (D51)."""
    if len(text) <= COUNT_IN_ONE_CALL:
        return _korean_sum(Counter(_KOREAN_UNIT.findall(text)))
    nats = _korean_nats()
    unseen, hanja = nats[""], nats["\u4e00"]
    # (the characters counted in C: one entry per distinct character, not a list of them)
    return sum(n * (nats.get(ch, unseen) if "\uac00" <= ch <= "\ud7a3" else hanja)
               for ch, n in Counter(text).items() if _KOREAN_UNIT.match(ch))


def _korean_sum(counts: Counter[str]) -> float:
    """:func:`_korean_log_ratio` of the Hangul syllables and ideographs ``counts`` holds (only
    those), in the order of the ``Counter`` (the text's: the same terms, summed alike)."""
    if not _KOREAN_UNIT_NATS:
        nats = _korean_nats()
        unseen = nats[""]
        # ("": an ideograph's, the value of every unit that is no syllable)
        _KOREAN_UNIT_NATS.update({"": nats["\u4e00"], **{chr(cp): nats.get(chr(cp), unseen)
                                                          for cp in range(0xAC00, 0xD7A4)}})
    hanja = _KOREAN_UNIT_NATS[""]
    total: float = sum(map(mul, counts.values(), map(_KOREAN_UNIT_NATS.get, counts, repeat(hanja))))
    return total


#: Per Hangul syllable, its value of :func:`_korean_nats` (the unseen one where it has none);
#: ``""``: an ideograph's.
_KOREAN_UNIT_NATS: dict[str, float] = {}


def _likely_korean(text: str) -> bool:
    """True when the Hangul of ``text`` (at least ``KOREAN_MIN`` syllables and ideographs) is on
    average ``-NOT_KOREAN_NATS`` or more per character likelier as Korean than characters of
    KS X 1001 picked at random (D52: the other side of :func:`_not_korean`)."""
    if len(text) > COUNT_IN_ONE_CALL:
        units = _count(_KOREAN_UNIT, text)
        return units >= KOREAN_MIN and _korean_log_ratio(text) >= -NOT_KOREAN_NATS * units
    found = _KOREAN_UNIT.findall(text)  # (one list for the count and the sum)
    if len(found) < KOREAN_MIN:
        return False
    return _korean_sum(Counter(found)) >= -NOT_KOREAN_NATS * len(found)


#: Up to this many units a text's are counted with ``list.count`` (cheaper than a ``Counter``).
_FEW_UNITS = 32


def _chinese_again(wrong: str, right: str, old_text: str, new: Counts, new_text: str) -> bool:
    """True when a step from EUC-KR to GBK or Big5 reads Hangul that is no Korean
    (:func:`_not_korean`) back into Chinese (D51): ideographs only (no Hangul, no kana), at
    least ``KOREAN_MIN``, ``KOREAN_COMMON`` of them common, and likelier as Chinese than
    ideographs of GBK and Big5 picked at random (D66: ``얌냠짭짭`` read as GBK is ``句橙卢卢``).
    The other way of D48."""
    if wrong != "euc-kr" or right not in ("gbk", "big5") or new.hangul or new.kana or new.han < KOREAN_MIN:
        return False
    return (new.common >= KOREAN_COMMON * new.han and _not_korean(old_text)
            and _chinese_log_ratio(new_text)[0] > 0)


#: Chinese text (at least ``CHINESE_MIN`` non-ASCII characters) whose characters are on average
#: at least this many nats likelier as Chinese than characters of GBK and Big5 picked at random
#: is taken as it stands: no step between the two Chinese pages is tried (D65).
CHINESE_NATS = 1.0
CHINESE_MIN = 2
#: A step between GBK and Big5 needs a reading at least this many nats likelier as Chinese than
#: the text as it stands (odds of e^7, about 1 100 to 1, D65).
CHINESE_ODDS_NATS = 7.0
_CHINESE_PAGES = ("gbk", "big5")
_OTHER_CHINESE = {"gbk": ("big5",), "big5": ("gbk",)}
_CHINESE_NATS: list[dict[str, float]] = []
_CHINESE_BY_CODE: list[list[float]] = []


def _chinese_nats() -> list[dict[str, float]]:
    """The language models of the characters of GBK's and Big5's double-byte sequences (D65,
    scripts/train_chinese.py): ``[Chinese, Japanese]``, each per character ``log(P_language /
    P_random)`` in nats, ``P_random = 1 / PAGE_CHARS``; Chinese pools langdetect's zh-cn and
    zh-tw counts, Japanese is its ja counts; ``""``: a character the profiles lack (each
    profile's count of an unseen one)."""
    if not _CHINESE_NATS:
        from ._tables import chinese

        units = chinese.PAGE_CHARS
        built = []
        for kinds in (((chinese.SIMPLIFIED_COUNTS, chinese.SIMPLIFIED_UNSEEN),
                       (chinese.TRADITIONAL_COUNTS, chinese.TRADITIONAL_UNSEEN)),
                      ((chinese.JAPANESE_COUNTS, chinese.JAPANESE_UNSEEN),)):
            # (each profile's total: its counts, and its unseen count for every character it lacks)
            total = sum(sum(c) + unseen * (units - sum(1 for n in c if n)) for c, unseen in kinds)
            nats = {ch: math.log(sum(c[i] or unseen for c, unseen in kinds) / total * units)
                    for i, ch in enumerate(chinese.CHINESE_CHARS)}
            nats[""] = math.log(sum(unseen for _, unseen in kinds) / total * units)
            built.append(nats)
        _CHINESE_NATS.extend(built)  # one step: no thread sees part of it
    return _CHINESE_NATS


def _chinese_by_code() -> list[list[float]]:
    """:func:`_chinese_nats` as lists indexed by UTF-16 code unit (ASCII 0, a unit the model
    lacks the unseen value): summed in C over a text's code units."""
    if not _CHINESE_BY_CODE:
        built = []
        for nats in _chinese_nats():
            table = [nats[""]] * 0x10000
            table[:0x80] = [0.0] * 0x80
            for ch, value in nats.items():
                if ch:
                    table[ord(ch)] = value
            built.append(table)
        _CHINESE_BY_CODE.extend(built)  # one step: no thread sees part of it
    return _CHINESE_BY_CODE


_UTF16 = "utf-16-le" if sys.byteorder == "little" else "utf-16-be"  # (array's order)


def _chinese_log_ratio(text: str, language: int = 0) -> tuple[float, int]:
    """The sum over the non-ASCII characters of ``text`` of ``log(P / P_random)`` as Chinese
    (``language`` 0) or Japanese (1) (:func:`_chinese_nats`), in nats, and their number (D65)
    (a character beyond U+FFFF counts as two unseen ones)."""
    nats, n = _log_ratios(text, (language,))
    return nats[0], n


def _log_ratios(text: str, languages: tuple[int, ...] = (0, 1)) -> tuple[list[float], int]:
    """:func:`_chinese_log_ratio` of ``text`` for each of ``languages`` (one reading of the
    text's code units for all), and the number of non-ASCII characters."""
    tables = _chinese_by_code()
    if len(text) <= _CHINESE_PIECE:  # (one piece: the common case, without the loop)
        high = len(text) - len(text.encode("ascii", "ignore"))
        if 4 * high < len(text):
            text = _ASCII_RUNS.sub("", text)  # (mostly ASCII: only the rest looked up)
        units = array("H", text.encode(_UTF16, "surrogatepass"))
        return [sum(map(tables[language].__getitem__, units)) for language in languages], high
    look_ups = [tables[language].__getitem__ for language in languages]
    totals = [0.0] * len(languages)
    high = 0
    # (in pieces: each piece's copies, not the whole text's; a piece may end inside a surrogate
    # pair, whose two units count alike either way)
    for start in range(0, len(text), _CHINESE_PIECE):
        piece = text[start:start + _CHINESE_PIECE]
        units = array("H", piece.encode(_UTF16, "surrogatepass"))
        for i, look_up in enumerate(look_ups):
            totals[i] += sum(map(look_up, units))
        high += len(piece) - len(piece.encode("ascii", "ignore"))
    return totals, high


_CHINESE_PIECE = 1 << 14
_ASCII_RUNS = re.compile("[\x00-\x7f]+")


def _languages(text: str) -> tuple[int, ...]:
    """The languages ``text`` may be as it stands (D65): Chinese, and Japanese when it holds
    kana (Japanese text writes them; kanji alone are Chinese characters to the model)."""
    return (0, 1) if _KANA.search(text) is not None else (0,)


def _may_be_chinese_reading(text: str) -> bool:
    """True when the non-ASCII characters of ``text`` (at least ``CHINESE_MIN``) are on average
    less than ``CHINESE_NATS`` likelier than random ones as Chinese (and as Japanese, with kana)
    (D65): the other Chinese page's reading of them may be the text."""
    if len(text) - len(text.encode("ascii", "ignore")) < CHINESE_MIN:
        return False
    nats, n = _log_ratios(text, _languages(text))
    return max(nats) < CHINESE_NATS * n


def _no_chinese(text: str) -> bool:
    """True when the non-ASCII characters of ``text`` are no likelier than random characters of
    GBK and Big5, as Chinese (and as Japanese, with kana) (D67): a reading of other bytes, whose
    ideographs earn no frequency points; at least ``KOREAN_MIN`` non-ASCII characters, as D51
    asks of Hangul."""
    if len(text) - len(text.encode("ascii", "ignore")) < KOREAN_MIN:
        return False
    nats, _ = _log_ratios(text, _languages(text))
    return max(nats) <= 0


def _chinese_reading(wrong: str, right: str, old_text: str, new_text: str) -> bool:
    """True when a step between GBK and Big5 reads ``old_text`` into Chinese (D65): the reading
    has at least ``CHINESE_MIN`` non-ASCII characters, likelier as Chinese than random ones, and
    is at least ``CHINESE_ODDS_NATS`` likelier as Chinese than ``old_text`` is as Chinese or (with
    kana) as Japanese (the two readings of the same bytes: each two-byte character of one is a two-byte
    character of the other)."""
    if wrong not in _CHINESE_PAGES or right not in _CHINESE_PAGES:
        return False
    new_nats, n = _chinese_log_ratio(new_text)
    if n < CHINESE_MIN or new_nats <= 0:
        return False
    return new_nats - max(_log_ratios(old_text, _languages(old_text))[0]) >= CHINESE_ODDS_NATS


def _east_input(old: Counts, text: str) -> bool:
    """True when ``text`` (``old``: its counts) may be a CJK page's reading: it holds an East
    Asian character, or a private-use one (D43: cp932 reads its user-defined rows so;
    ``gtr\ue48crigt`` is Swedish ``gtrödrigt`` read as Shift_JIS, D44)."""
    return bool(old.han + old.kana + old.hangul + old.half_kana + old.wedged) or (
        _PRIVATE_USE.search(text) is not None)


def _cjk_input_ok(text: str, old: Counts, right: str, memo: _Memo) -> bool:
    """:func:`_plausible_step`'s conditions on the input of a step whose ``wrong`` page is a CJK
    one (``old``: the input's counts): it holds East Asian characters; to a CJK page, mostly
    rare ideographs; to windows-1252 or ISO-8859-1, the shape of Western text (D38)."""
    if not _east_input(old, text):
        return False
    if right in _CJK_PAGES:
        # (or Korean read as GBK or Big5: ideographs to syllables, decided on the reading, D48;
        # and Chinese read as EUC-KR: syllables that are no Korean, D51)
        return (_odd_east_memo(old, text, memo) or (right == "euc-kr" and _high(text) >= KOREAN_MIN)
                or (right in ("gbk", "big5") and (_not_korean(text) or _may_be_chinese_reading(text))))
    if right in ("windows-1252", "iso-8859-1"):
        found: bool | None = memo.get("western")
        if found is None:
            found = memo["western"] = _western_shape(text)
        return found
    return True


def _may_be_runs(text: str, page: str, memo: _Memo) -> bool:
    """False when no reading of runs can explain every non-ASCII character of ``text`` (D20):
    the page cannot encode one that is not U+FFFD (a run holds the page's characters, a lost
    byte's U+FFFD, ``?`` and spaces). Tells from the first character the encode fails at."""
    if memo.get("data", (None,))[0] == page and memo["data"][1] is not None:
        return True  # (it encodes: the whole reading failed at the decode)
    try:
        if page in _TABLES:
            codecs.charmap_encode(text, "strict", _table(page)[1])
        else:
            text.encode(_PY[page])
    except UnicodeEncodeError as exc:
        return text[exc.start] == "\ufffd" or (page == "windows-1252" and bool(_C1.search(text)))
    return True


def _two_east(data: bytes, right: str, memo: _Memo, wrong: str) -> bool:
    """True when ``data`` (``current`` encoded by ``wrong``) holds two double-byte units in a
    row for ``right``'s reading (Shift_JIS's katakana are single bytes): without them no CJK
    reading has the run of two East Asian characters :func:`_east_ok` needs."""
    key = ("two", wrong, right == "shift_jis")
    found: bool | None = memo.get(key)
    if found is None:
        found = memo[key] = (_TWO_SJIS if right == "shift_jis" else _TWO_PAIRS).search(data) is not None
    return found


def _runs_memo(text: str, page: str, memo: _Memo) -> bool:
    """:func:`_enough_runs` of ``text`` for ``page``, kept in ``memo`` (``("runs", page)``)."""
    enough: bool | None = memo.get(("runs", page))
    if enough is None:
        enough = memo["runs", page] = _enough_runs(text, page)
    return enough


def _odd_east_memo(counts: Counts, text: str, memo: _Memo) -> bool:
    """:func:`_odd_east` of a round's input ``text`` (``counts``: its counts), once a round
    (``memo``: ``"odd"``)."""
    found: bool | None = memo.get("odd")
    if found is None:
        found = memo["odd"] = _odd_east(counts.han, counts.common, text)
    return found


def _no_runs(text: str, page: str, memo: _Memo) -> bool:
    """True when ``text`` is known to have too few of ``page``'s runs (``memo``) or has no run's
    hint of ``page`` (:func:`_enough_runs`' first test, kept in ``memo``)."""
    found: bool | None = memo.get(("runs", page))
    if found is None and _run_hint(page).search(text) is None:
        found = memo["runs", page] = False
    return found is False


def _consistent_memo(data: bytes, wrong: str, right: str, memo: _Memo) -> bool:
    """:func:`_consistent_bytes` of ``data`` (the text encoded by the CJK page ``wrong``) read
    by ``right``, windows-1252 or ISO-8859-1, kept in ``memo``; without a byte 0x80..0x9F the
    two pages read ``data`` alike (one character per byte, the same one), so one answers for both."""
    key = ("consistent", wrong, right)
    found: bool | None = memo.get(key)
    if found is None:
        if not _C1_BYTES.search(data):
            key2 = ("consistent", wrong, "iso-8859-1" if right == "windows-1252" else "windows-1252")
            found = memo.get(key2)
        if found is None:
            found = _consistent_bytes(data, right)
        memo[key] = found
    return found


def _words_memo(text: str, data: bytes, wrong: str, right: str, memo: _Memo) -> bool:
    """:func:`_alone_runs_are_words` of ``text`` (``data``: its bytes in the CJK page ``wrong``)
    read by ``right``, windows-1252 or ISO-8859-1, kept in ``memo``: without a byte 0x80..0x9F in
    ``data`` (nor in its runs' bytes, pieces of it) the two pages read the runs alike."""
    key = ("words", wrong, right)
    found: bool | None = memo.get(key)
    if found is None:
        if not _C1_BYTES.search(data):
            found = memo.get(("words", wrong, "iso-8859-1" if right == "windows-1252" else "windows-1252"))
        if found is None:
            found = _alone_runs_are_words(text, wrong, right)
        memo[key] = found
    return found


def _round(current: str, base: float, group: str, counts: Counts, segments: bool, scored: dict[int, _Scored],
           memo: _Memo) -> _Best | None:
    """Return the best accepted ``(key, wrong, right, how)`` of one round, or None (``how``:
    ``"whole"``, ``"complete"`` or ``"runs"``, the reading :func:`_step_text` gives again: the
    best text itself is not kept beside the candidates)
    (``scored``: the scores of texts already scored in this repair; ``memo``: per page,
    :func:`_enough_runs` of ``current`` and ``current`` encoded by it; both filled in).

    Whole-text steps first; the piecewise UTF-8 readings (D13) only when no whole-text step
    is accepted, and only when they remove at least half of the UTF-8 signatures (D24).
    """
    best: _Best | None = None
    best_out = ""
    western: list[tuple[float, str, str, str]] = []  # (D45)
    utf8_rows: list[tuple[tuple[bool, bool | None, float], str, str, int]] = []  # (D71)
    wrong_first = how_first = ""
    hash_first = 0
    consistent: dict[str, bool] = {}  # (D21's test of each UTF-8 reading, once per text: pages read alike)
    east_input: bool | None = None
    for wrong, right in PAIRS:
        if right != "utf-8" and best is not None and best[0][0]:
            continue  # an accepted UTF-8 reading wins over any other (D11): not scored
        # (a page of D9 needs enough of its runs, _runs_memo: counted only once its reading is
        # there, the cheaper test first; a page without a run's hint has none)
        if wrong in UTF8_ONLY and _no_runs(current, wrong, memo):
            continue
        how = "runs"
        if segments:
            if right != "utf-8" or wrong not in _SEGMENT_PAGES:
                continue
            if wrong in UTF8_ONLY and not _runs_memo(current, wrong, memo):
                continue
            if _whole(current, wrong, right, memo) is not None:
                continue  # the whole text decodes: tried in the first pass
            out = _apply_segments(current, wrong)
            if out is None:
                continue
            left, before = signatures(out), signatures(current)
            if left >= before or 2 * left > before:
                continue  # it must remove signatures, at least half of them (D24)
        else:
            if wrong in _CJK_PAGES:
                if east_input is None:
                    east_input = _east_input(counts, current)  # (_cjk_input_ok's first test, once a round)
                if not east_input:
                    continue
                ok = memo.get(("input", right))
                if ok is None:
                    ok = memo["input", right] = _cjk_input_ok(current, counts, right, memo)
                if not ok:
                    continue  # (_plausible_step's conditions on the input alone, before any reading)
            kept = memo.get("data")
            if (kept is not None and kept[0] == wrong and (kept[1] is None or kept[1].isascii())
                    and (right != "utf-8" or wrong not in _SEGMENT_PAGES)):
                continue  # (the page does not encode the text: no whole reading, no runs to try)
            how = "whole"
            out = _whole(current, wrong, right, memo)
            if out is None and right == "utf-8" and wrong in _SEGMENT_PAGES and _may_be_runs(current, wrong, memo):
                if wrong in UTF8_ONLY and not _runs_memo(current, wrong, memo):
                    continue
                # runs that explain every non-ASCII character are a whole-text reading (D20)
                how = "complete"
                out = _apply_segments(current, wrong, complete=True)
        if out is None or out == current:
            continue
        if wrong in UTF8_ONLY and not _runs_memo(current, wrong, memo):
            continue
        if right in _CJK_PAGES and not segments and not _two_east(memo["data"][1], right, memo, wrong):
            continue  # no run of two double-byte characters can come out (_east_ok)
        if wrong in UTF8_ONLY:
            c1 = memo.get(("c1", ""))
            if c1 is None:
                c1 = memo["c1", ""] = _count(_C1, current)
            if _count(_C1, out) > c1:
                continue  # C1 controls from Mac Roman, CP437, windows-125x readings (D25)
        chinese_odds = False
        if right in _CHINESE_PAGES and wrong in _CJK_PAGES and not _odd_east_memo(counts, current, memo):
            # (before any scoring: an input of no mostly rare ideographs, D10, reads as GBK or
            # Big5 only through D65's odds, from the other of the two, or as D51's Hangul that is
            # no Korean, from EUC-KR)
            if wrong in _OTHER_CHINESE:
                chinese_odds = _chinese_reading(wrong, right, current, out)
                if not chinese_odds:
                    continue
            elif wrong != "euc-kr" or not _not_korean(current):
                continue
        western_checked = False
        if wrong in _CJK_PAGES and right in _WESTERN:
            # _plausible_step's conditions of Western text read as a CJK page, before any
            # scoring: the shape (in the memo of _cjk_input_ok), one language (counted on the
            # bytes: the same counts), the words alone
            if (not _consistent_memo(memo["data"][1], wrong, right, memo)
                    or not _words_memo(current, memo["data"][1], wrong, right, memo)):
                continue
            western_checked = True
        found = scored.get(hash(out))
        if found is None:
            kept_counts = memo.get("classified")  # (the cheap test's counts of the reading it accepted)
            if kept_counts is not None and kept_counts[0] == out:
                del memo["classified"]  # (_score changes them: used once)
                found = scored[hash(out)] = _score(out, kept_counts[1])
            else:
                found = scored[hash(out)] = _score(out)
        score, new_group, new_counts = found
        if score <= base + MARGIN and not (wrong in _OWN_SIGNATURES and score > base - SIGNATURE_POINTS * _page_signatures(
                current, wrong, memo) + MARGIN) and not (score > base and chinese_odds) and not (
                wrong == "euc-kr" and right == "utf-8" and counts.han and not counts.hangul and score >= base
                and _common_letters_only(out)):
            # (between GBK and Big5 the model's odds stand in for the margin, D65; Hanja without
            # Hangul is no Korean: its reading into letters needs no margin, D77)
            continue
        if not _plausible_step(wrong, right, counts, new_counts, out, current, western_checked):
            continue
        if _vetoed(group, new_group, right) and not (
                group == "han" and _korean_again(wrong, right, new_counts, out)) and not (
                group == "hangul" and _chinese_again(wrong, right, current, new_counts, out)):
            continue  # (Han to Hangul only for Korean read as GBK or Big5, D48, and back, D51)
        if _kana_han_flip(counts, new_counts, right):
            continue
        # UTF-8 first (D11): a valid UTF-8 reading beats any other accepted reading; among
        # UTF-8 readings, the letters of one language (D21)
        if wrong in _CJK_PAGES and right in _WESTERN:
            western.append((score, wrong, right, how))
        if right == "utf-8":
            # among UTF-8 readings, the letters of one language (D21), looked at only when two
            # compete (best_out: the best one's text while it is not known)
            if best is not None and best[0][0]:
                if best[0][1] is None:
                    first_one = consistent[best_out] = _consistent(best_out)
                    best = ((True, first_one, best[0][2]), *best[1:])
                    utf8_rows[0] = (best[0], wrong_first, how_first, hash_first)
                one = consistent.get(out)
                if one is None:
                    one = consistent[out] = _consistent(out)
                key = (True, one, score)
                utf8_rows.append((key, wrong, how, hash(out)))
                if key > best[0]:
                    best = (key, wrong, right, how)
                    best_out = out
                continue
            best = ((True, None, score), wrong, right, how)
            best_out = out
            wrong_first, how_first, hash_first = wrong, how, hash(out)
            utf8_rows.append((best[0], wrong, how, hash_first))
            continue
        key = (False, False, score)
        if best is None or key > best[0]:
            best = (key, wrong, right, how)
    if best is not None and best[1] in _CJK_PAGES and best[2] in _WESTERN and len(western) > 1:
        best = _best_western(current, best, western)
    if best is not None and best[0][0] and len(utf8_rows) > 1:
        best = _best_utf8(current, best, utf8_rows)
    return best


def _best_utf8(current: str, best: _Best, rows: list[tuple[tuple[bool, bool | None, float], str, str, int]]) -> _Best:
    """Among the accepted UTF-8 readings of ``current`` (``rows``: ``(key, wrong, how, hash of
    the text)`` in pair order), the one whose letters fit a language best when several
    different texts compete (D71): ISO-8859-2 and windows-1250 (and windows-1257) read many of
    the same UTF-8 runs into different letters (``lĂĄ`` is ``lå`` through windows-1250's
    ``Ą`` = 0xA5, ``lá`` through ISO-8859-2's 0xA1), and the score, without a frequency signal
    for Latin letters, ties them. The readings that compete have ``best``'s one-language flag
    (D21) and a score within ``MARGIN`` of it; the fit is
    :func:`onemail.detect._langmodel.page_log_likelihood` of each text in the first single-byte
    page that encodes them all (none: ``best`` stays); ties keep the pair order."""
    top = best[0]
    competing = [row for row in rows if row[0][1] == top[1] and row[0][2] >= top[2] - MARGIN]
    if len({row[3] for row in competing}) < 2:
        return best  # one text: nothing to choose
    from ._langmodel import SINGLE_BYTE, page_log_likelihood

    texts = [_step_text(current, wrong, "utf-8", how) for _, wrong, how, _ in competing]
    for page in SINGLE_BYTE:
        encoded = [_encode_single(t, page) for t in texts]
        if None in encoded:
            continue
        fits = [page_log_likelihood(cast(bytes, data), page) for data in encoded]
        i = max(range(len(fits)), key=lambda k: (fits[k], -k))
        key, wrong, how, _ = competing[i]
        return (key, wrong, "utf-8", how)
    return best


def _encode_single(text: str, page: str) -> bytes | None:
    """``text`` encoded by the single-byte ``page`` (onemail's tables), None when it cannot."""
    try:
        if page == "iso-8859-1":
            return text.encode("latin-1")
        return codecs.charmap_encode(text, "strict", _table(page)[1])[0]
    except UnicodeEncodeError:
        return None


_WESTERN = ("windows-1252", "iso-8859-1")


def _best_western(current: str, best: _Best, western: list[tuple[float, str, str, str]]) -> _Best:
    """Among the accepted readings of Western text read as a CJK page (``western``: ``(score,
    wrong, right, how)`` in pair order), the one whose letters fit a language best (D45):
    several CJK pages may read ``current`` back into Latin letters (``鏮`` is Big5 ``E7 5F``
    and GBK ``E7 6E``: ``ç_`` or ``ón``), and the score, without a frequency signal for Latin
    text, cannot tell them apart. Only readings within ``MARGIN`` of the best score compete;
    the fit is :func:`onemail.detect._langmodel.page_log_likelihood` of the bytes read by
    ``right``, less ``MIX_NATS`` per place no word writes (D78), plus ``ASCII_WEIGHT`` times the
    log-likelihood of the text's ASCII letters under all languages' pooled frequencies (D86:
    the pages' readings differ in the ASCII letters the trail bytes become, ``vão`` or ``väx``
    for GBK or Big5 ``鉶``, which the non-ASCII letters' model does not see); ties keep the pair
    order."""
    from ._langmodel import ASCII_WEIGHT, MIX_NATS, ascii_letter_log_likelihood, page_log_likelihood

    top = best[0][2]
    competing = [row for row in western if row[0] >= top - MARGIN]
    if len({wrong for _, wrong, _, _ in competing}) < 2:
        return best  # one CJK page's bytes: no letters to compare
    chosen: _Best | None = None
    chosen_fit = -math.inf
    fits: dict[str, float] = {}
    for _, wrong, right, how in competing:
        fit = fits.get(wrong)
        if fit is None:
            data = _encode(current, wrong)
            fit = page_log_likelihood(data, right) if data is not None else -math.inf
            if data is not None:
                # a sign between two letters, a capital after a small letter: no word's (D78)
                fit -= MIX_NATS * _not_in_words(_decode(data, right) or "")
                # the ASCII letters the trail bytes became (D86), tempered as D61's are
                fit += ASCII_WEIGHT * ascii_letter_log_likelihood(data)
            if data is not None and not _C1_BYTES.search(data):
                fits[wrong] = fit  # (windows-1252 and ISO-8859-1 read these bytes alike)
        if chosen is None or fit > chosen_fit:
            chosen, chosen_fit = (best[0], wrong, right, how), fit
    return chosen if chosen is not None else best


def _not_in_words(text: str) -> int:
    """The places of ``text`` that no word writes (D78): a sign between two letters (an ASCII
    sign but the apostrophe, hyphen, full stop, comma, colon, slash, ampersand, question and
    exclamation marks, which do stand there: ``don't``, ``e.g``; or punctuation, a symbol or a
    number of Latin-1 and General Punctuation but the apostrophes, acute accent and middle dot),
    and a capital right after a small letter (D29's rule)."""
    if not _IN_WORDS:
        low = "".join(chr(cp) for cp in range(0xC0, 0x180) if chr(cp).islower())
        cap = "".join(chr(cp) for cp in range(0xC0, 0x180) if chr(cp).isupper())
        signs = "".join(re.escape(chr(cp)) for cp in (*range(0xA1, 0xC0), 0xD7, 0xF7, *range(0x2010, 0x2070),
                                                       0x20AC, 0x2122)
                        if unicodedata.category(chr(cp))[0] in "PSN" and chr(cp) not in "\u2018\u2019\u00b4\u00b7")
        _IN_WORDS.append(re.compile(
            f"(?<=[A-Za-z{low}{cap}])[\"#$%()*+;<=>@\\[\\\\\\]^_`{{|}}~{signs}](?=[A-Za-z{low}{cap}])"
            f"|(?<=[a-z{low}])[A-Z{cap}]"))
    return _count(_IN_WORDS[0], text)


_IN_WORDS: list[re.Pattern[str]] = []


def _step_text(text: str, wrong: str, right: str, how: str) -> str:
    """The text of a step :func:`_round` accepted, computed again (the same reading)."""
    if how == "whole":
        out = _whole(text, wrong, right, {})
    else:
        out = _apply_segments(text, wrong, complete=how == "complete")
    assert out is not None  # (the round found it)
    return out


# two double-byte characters in a row: lead, trail, lead, trail; Shift_JIS also writes
# half-width katakana (0xA1..0xDF) in one byte ("\xb1\xb2" is "ｱｲ")
_TWO_PAIRS = re.compile(rb"[\x81-\xfe][\x40-\xfe][\x81-\xfe][\x40-\xfe]")
# (each unit is a lead and a trail, or one katakana byte; the lead and katakana bytes are
# disjoint, so the class of both comes first and a look-behind picks the unit: a search
# skips in C to the next such byte)
_SJIS_UNIT = rb"[\x81-\x9f\xa1-\xfc](?:(?<=[\x81-\x9f\xe0-\xfc])[\x40-\xfc]|(?<=[\xa1-\xdf]))"
_TWO_SJIS = re.compile(_SJIS_UNIT * 2)
# (the lone-space and "?" runs of D13 and D18: the Latin pages' characters for 0xC2, 0xC3,
# 0xC5, 0xD0, windows-1252's for 0xE2, 0xE3, windows-1251's "Г" before a space; "Ã?", "Â?")
_run_starts: dict[str | None, re.Pattern[str]] = {}


def _run_hint(page: str | None = None) -> re.Pattern[str]:
    """Compile the pattern every piecewise UTF-8 run of ``_segment_re(page)`` starts with (any
    segment page's when ``page`` is None; compiled by :func:`_first_class`): the page's
    character for a lead byte (0xC2..0xF4)
    followed by its character for a continuation byte (0x80..0xBF) or U+FFFD (for a page's
    own hint, a three- or four-byte lead's pair goes on with one more, a lost byte or, on
    windows-1252 and ISO-8859-1, a space: D46), one of the leads a space may follow (a lost
    no-break space, D13 and D18), or one of the leads a ``?`` may follow (a lost byte: not
    after the leads 0xC4..0xDF). East Asian text and most alphabetic text have no such pair, so
    their runs are not looked for with the full patterns."""
    if not _run_starts:
        def chars(pages: Iterable[str], byte_values: Iterable[int], extra: str = "") -> str:
            found = {c for pg in pages for b in byte_values if (c := _decode(bytes((b,)), pg))}
            return "[" + "".join(re.escape(c) for c in sorted(found)) + extra + "]"

        built: dict[str | None, re.Pattern[str]] = {}
        pairs: list[tuple[str, str]] = []
        spaces: set[str] = set()
        losts: set[str] = set()
        for pg in _SEGMENT_PAGES:
            space = chars((pg,), (0xC2, 0xC5, 0xD0) if pg in _SPACE_PAGES else ())
            if pg in ("windows-1252", "iso-8859-1"):
                space = space[:-1] + "\u00e2\u00e3\u00c3]"
            elif pg == "windows-1251":
                space = space[:-1] + "\u0413]"
            lost = chars((pg,), (0xC2, 0xC3, *range(0xE0, 0xF5)))
            cont = chars((pg,), range(0x80, 0xC0), "\ufffd")
            # a three- or four-byte lead and a continuation character go on with another, a
            # lost byte or (windows-1252, ISO-8859-1: a lost no-break space) a space: a
            # Ukrainian "ні" before a letter is no run's start (D46)
            more = cont[:-1] + "?" + (" " if pg in ("windows-1252", "iso-8859-1") else "") + "]"
            alts = [(chars((pg,), range(0xC2, 0xE0)), cont),
                    (chars((pg,), range(0xE0, 0xF5)), f"{cont}(?={more})"), (lost, "\\?")]
            if space != "[]":
                alts.append((space, " "))
                spaces.add(space[1:-1])
            built[pg] = _first_class(alts)
            pairs.append((chars((pg,), range(0xC2, 0xF5)), cont))
            losts.add(lost[1:-1])
        # (one class each for the space and "?" alternatives: fewer branches)
        built[None] = _first_class([*pairs, ("[" + "".join(sorted(spaces)) + "]", " "),
                                    ("[" + "".join(sorted(losts)) + "]", "\\?")])
        _run_starts.update(built)  # one step: no thread sees part of it
    return _run_starts[page]


def _first_class(alts: Sequence[tuple[str, str] | tuple[str, str, str]]) -> re.Pattern[str]:
    """Compile the alternation of ``first + rest`` (``first`` a character class) as one class of
    every first character, then each branch's ``rest`` behind a look-behind at its own
    class: the same matches, but a search skips in C to the next character of the union,
    where a bare alternation tries every branch at every character. A branch may carry a
    third item, a look-behind checked right after its first character (a condition on the
    character before it)."""
    union = "[" + "".join(alt[0][1:-1] for alt in alts) + "]"
    return re.compile(union + "(?:" + "|".join(
        f"(?<={alt[0]}){alt[2] if len(alt) > 2 else ''}{alt[1]}" for alt in alts) + ")")


_C1_BYTES = re.compile(rb"[\x80-\x9f]")
_EAST = re.compile(f"[{_EAST_CHARS}]")


def repair_possible(text: str) -> bool:
    """Return False when :func:`repair` certainly leaves ``text`` unchanged (a cheap test).

    Checks only conditions every first-round step needs: a whole-text encode and decode with
    zero errors (C codecs, no scoring), or a piecewise UTF-8 run. Used by
    :func:`onemail.detect.detect` to keep the mojibake check of UTF-8 input cheap (D14).

    :raises TypeError: ``text`` is not a ``str``.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    return _possible(text, {})


def _possible(text: str, memo: _Memo) -> bool:
    """:func:`repair_possible` of the ``str`` ``text``; what it finds goes into ``memo``, a
    round's memo of the same text (:func:`_round`'s keys: ``("runs", page)``, ``("two", ...)``,
    ``("consistent", wrong, right)``, ``"western"``), which the first round then reads."""
    if text.isascii():
        return False
    # every UTF-8 reading run is two non-ASCII characters in a row, or a lost no-break space
    if _run_hint().search(text) is not None:
        for wrong in _SEGMENT_PAGES:
            if _run_hint(wrong).search(text) is None:
                if wrong in UTF8_ONLY:
                    memo["runs", wrong] = False  # (_enough_runs: every run starts with a hint)
                continue
            if _runs_memo(text, wrong, memo) if wrong in UTF8_ONLY else _segment_re(wrong).search(text):
                return True  # a piecewise UTF-8 reading may apply
    # the whole-text readings: of a CJK page when the text holds an East Asian character (or a
    # private-use one, D44), which no single-byte page encodes; of windows-1252 and ISO-8859-1
    # otherwise (the pages beyond the design are read as UTF-8 only, in runs: above)
    if _EAST_OR_PRIVATE.search(text) is None:
        return _latin_readings(text, memo)
    # (which kinds of reading may come out, from the text alone: the same for every CJK page)
    han, common = ideographs(text)
    rights: tuple[str, ...] = ("utf-8",)
    if _odd_east(han, common, text):  # (CJK to CJK needs mostly rare ideographs: _plausible_step)
        rights += ("gbk", "big5", "shift_jis", "euc-kr")
    western = memo["western"] = _western_shape(text)  # (Western text read as CJK has its shape: _plausible_step)
    # (D48: each syllable is one double-byte character of the Chinese page, D90)
    korean = ("euc-kr",) if len(rights) == 1 and _high(text) >= KOREAN_MIN else ()
    # (ideographs may be the other Chinese page's reading, D65: its odds decide, on a reading)
    chinese = len(rights) == 1 and han
    may_be_chinese: bool | None = None  # (_may_be_chinese_reading of the text, once)
    for wrong in _CJK_WRONG:
        try:
            data = _CJK_ENCODE[wrong](text)[0]  # (as _encode does for a CJK page)
        except UnicodeEncodeError:
            continue
        if data.isascii():
            continue
        extra: tuple[str, ...] = korean if wrong != "shift_jis" else ()
        if wrong == "shift_jis" and len(rights) == 1 and _HALF_KANA.search(text) is not None and (
                han + _count(_HALF_KANA, text) >= KOREAN_MIN):
            extra = ("euc-kr",)  # (Korean read as Shift_JIS: half-width katakana, D52)
        elif wrong == "euc-kr":  # (Hangul that is no Korean may be Chinese read as EUC-KR, D51)
            extra = ("gbk", "big5") if len(rights) == 1 and _not_korean(text) else ()
        if chinese and wrong in _OTHER_CHINESE:
            extra += _OTHER_CHINESE[wrong]
        for right in rights + extra:
            if right == wrong:
                continue
            out = _decode(data, right)  # (a failed decode, the common case, is cheaper than a search)
            if out is None or out == text:
                continue
            if right != "utf-8" and not _two_east(data, right, memo, wrong):
                continue  # no run of two double-byte characters can come out (_east_ok)
            if right in korean and len(rights) == 1 and not (_korean_syllables(out) or _likely_korean(out)):
                continue  # (before the counts: D48's syllables, counted with patterns, D52's odds)
            if len(rights) == 1 and right in _CHINESE_PAGES and wrong in _CHINESE_PAGES:
                if may_be_chinese is None:
                    may_be_chinese = _may_be_chinese_reading(text)
                if not (may_be_chinese and _chinese_reading(wrong, right, text, out)):
                    continue  # (D65: ideographs that are not plainly Chinese, a reading that is)
            if right != "utf-8":
                found = classify(out)
                if not _east_ok(found, right, out):
                    continue  # _plausible_step: a CJK reading gives a run of East Asian characters
                memo["classified"] = (out, found)  # (the first round scores it: its counts)
            return True
        if western:
            for right in ("windows-1252", "iso-8859-1"):
                if right == "iso-8859-1" and not _C1_BYTES.search(data):
                    continue  # the windows-1252 reading, tried before, is the same text
                if not _consistent_memo(data, wrong, right, memo):
                    continue  # _plausible_step: Western text read as CJK comes back as one language
                out = _decode(data, right)
                if out is not None and out != text:
                    return True
    return False


def _latin_readings(text: str, memo: _Memo) -> bool:
    """:func:`repair_possible`'s whole-text readings of a text without an East Asian character:
    windows-1252 and ISO-8859-1 read as UTF-8, a CJK page or each other (``memo``: a round's
    memo of ``text``)."""
    for wrong in _LATIN_WRONG:
        data = _encode(text, wrong)
        if data is None or data.isascii():
            continue
        for right in _WHOLE_RIGHTS[wrong]:
            if right in _CJK_PAGES and not _two_east(data, right, memo, wrong):
                continue  # no run of two double-byte characters can come out (_east_ok)
            out = _decode(data, right)
            if out is None or out == text:
                continue
            if right in _CJK_PAGES:
                found = classify(out)
                if not _east_ok(found, right, out):
                    continue  # _plausible_step: a CJK reading gives a run of East Asian characters
                memo["classified"] = (out, found)  # (the first round scores it: its counts)
            return True
    return False


_EAST_OR_PRIVATE = re.compile(f"[{_EAST_CHARS}{_PRIVATE_CHARS}]")
_CJK_WRONG = tuple(w for w in WRONG if w in _CJK_PAGES)
_LATIN_WRONG = tuple(w for w in WRONG if w not in _CJK_PAGES and w not in UTF8_ONLY)
#: The right pages of each wrong one that a whole-text reading may need, in pair order: not
#: windows-1252 read as ISO-8859-1, which changes only windows-1252's characters for
#: 0x80..0x9F, each into a C1 control: noise, rare, never a word and still a continuation
#: character of the signatures, so no score rises (the 4-point margin is never passed).
_WHOLE_RIGHTS = {w: tuple(r for w2, r in PAIRS if w2 == w and (w, r) != ("windows-1252", "iso-8859-1"))
                 for w in (*_CJK_WRONG, *_LATIN_WRONG)}


def apply_steps(text: str, steps: Iterable[tuple[str, str]]) -> str:
    """Replay ``steps`` (as in :attr:`Repair.steps`) on ``text``; audit a repair.

    :param text: the ``str`` the steps were found for.
    :param steps: iterable of ``(wrong, right)`` names from :data:`PAIRS` (tuples, or lists
        as JSON gives them back).
    :returns: the text after every step; a step that cannot apply cleanly leaves the text
        unchanged (never raises on data).
    :raises TypeError: ``text`` is not a ``str``, or ``steps`` is not an iterable of pairs of
        ``str``.
    :raises ValueError: a step names a code page outside :data:`PAIRS`.

    >>> apply_steps("Ã©tÃ©", [("windows-1252", "utf-8")])
    'été'
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    for wrong, right in _pairs(steps):
        if (wrong, right) not in PAIRS:
            raise ValueError(f"steps: unknown pair {(wrong, right)!r}")
        out = _apply(text, wrong, right)
        if out is not None:
            text = out
    return text


def _pairs(steps: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """``steps`` as a list of ``(wrong, right)`` tuples; TypeError naming ``steps`` for any
    other shape (a caller's bug: a ``str``, ``None``, a step of one or three names)."""
    if isinstance(steps, (str, bytes)) or not isinstance(steps, Iterable):
        raise TypeError(f"steps must be an iterable of (wrong, right) pairs, not {type(steps).__name__}")
    out = []
    for step in steps:
        if not (isinstance(step, (tuple, list)) and len(step) == 2
                and isinstance(step[0], str) and isinstance(step[1], str)):
            raise TypeError(f"steps: each step must be a (wrong, right) pair of str, not {step!r}")
        out.append((step[0], step[1]))
    return out


def render_chain(steps: Iterable[tuple[str, str]]) -> str:
    """Render ``steps`` as a chain, e.g. ``"windows-1252 -> utf-8"``.

    Each step is written ``wrong -> right``, in the order applied, joined by ``", "``; no
    steps give ``""``.

    :param steps: iterable of ``(wrong, right)`` names (as in :attr:`Repair.steps`).
    :returns: the chain, a ``str``.
    :raises TypeError: ``steps`` is not an iterable of pairs of ``str``.

    >>> render_chain([("windows-1252", "utf-8"), ("windows-1252", "utf-8")])
    'windows-1252 -> utf-8, windows-1252 -> utf-8'
    """
    return ", ".join(f"{w} -> {r}" for w, r in _pairs(steps))
