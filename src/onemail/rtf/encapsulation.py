"""HTML and plain text out of RTF (de-encapsulation) and into RTF (encapsulation).

Implements spec 002 "De-encapsulation" and "Encapsulation" (MS-OXRTFEX 2.2 and 2.1) and
``../shared/spec/README.md`` decision 1. Resolutions of ambiguities carry the ids RT20-RT59 of
``docs/ambiguities.md`` (the spec's own RT5-RT13 are kept under new ids, listed there).

De-encapsulation is one forward walk over the tokens of :mod:`onemail.rtf.reader` with an
explicit stack of group states (``\\htmlrtf`` suppression, ``\\uc``, current font, mode), so
deep nesting costs no recursion. Text bytes and ``\\'hh`` escapes are gathered into a run
while the code page stays the same and decoded once per run, so that a double-byte character
split over ``\\'93\\'fa`` comes out whole and the per-byte work happens inside the codec.

Code pages: each run is decoded by ``DeencapsulationOptions.code_page_decoder`` when given
(the message layer passes onemail's own charsets), else by CPython's codecs (the codec the
charset facts give each code page, else ``cpNNN``). In the windows-874 and windows-125x code
pages the byte values CPython leaves undefined map to the C1 control of the same value, as
Windows and the WHATWG tables do (RT27); cp950 and cp936 pairs CPython lacks are read as
Big5-HKSCS and GB18030 (RT37).

Encapsulation splits the HTML with one regular expression into markup (tags, comments,
``<!...>``, ``<?...>``) and text, and spells every character so that de-encapsulation gives
it back exactly (RT40); where each piece goes and the htmltag numbers follow Outlook's output
in the corpus (RT41, RT42).
"""

from __future__ import annotations

import bisect
import codecs
import re
import sys
import threading
from array import array
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from html import unescape as _unescape
from typing import Any

from ._tables.code_pages import CODEC_NAMES, NOT_BYTE_CODE_PAGES
from .defects import RtfDefect, RtfDefectKind
from .reader import (
    DEFAULT_MAX_DEPTH,
    T_CLOSE,
    T_HEX,
    T_OPEN,
    T_SYMBOL,
    T_TEXT,
    T_WORD,
    scan_tokens,
)

__all__ = [
    "CodePageDecoder",
    "cpython_code_page_decoder",
    "Deencapsulation",
    "DeencapsulationOptions",
    "deencapsulate",
    "encapsulate_html",
    "encapsulate_text",
    "is_encapsulated",
    "rtf_to_text",
]

#: ``(code_page, data, errors) -> text``: decode ``data`` (bytes) in the Windows code page
#: ``code_page``; append ``(offset, length)`` (bytes into ``data``) of every sequence that
#: became U+FFFD to ``errors``; return None when the code page is unknown.
CodePageDecoder = Callable[[int, bytes, list[tuple[int, int]]], "str | None"]

# ---------------------------------------------------------------------------------------
# Code pages

# \fcharsetN -> Windows code page (RTF 1.9.1 \fcharset table; a fact of RTF, not of the
# charsets, so it is not in scripts/data/charsets.toml). 1 (DEFAULT_CHARSET) means the
# document's code page and is handled by the caller. 2 (SYMBOL_CHARSET, code page 42) is read
# as windows-1252: the HTML names the symbol font and holds the same byte values as
# characters (RT23; MSGReader--EmailWith2Attachments, Webdings "P").
_FCHARSET_CODE_PAGES = {
    0: 1252, 2: 1252, 77: 10000, 78: 10001, 79: 10003, 80: 10008, 81: 10002, 83: 10005,
    84: 10004, 85: 10006, 86: 10081, 87: 10021, 88: 10029, 89: 10007, 128: 932, 129: 949,
    130: 1361, 134: 936, 136: 950, 161: 1253, 162: 1254, 163: 1258, 177: 1255, 178: 1256,
    186: 1257, 204: 1251, 222: 874, 238: 1250, 254: 437, 255: 850,
}

# The CPython codec of each code page (CODEC_NAMES) and the UTF-16/32 code pages that cannot
# decode an 8-bit text run (NOT_BYTE_CODE_PAGES, RT28) come from the charset facts onemail.text
# reads too (scripts/data/charsets.toml), through the generated _tables/code_pages.py
# (scripts/gen/rtf_code_pages.py).
# Single-byte Windows code pages whose holes are C1 controls in Windows and WHATWG (RT27).
_C1_HOLE_CODE_PAGES = frozenset({874, 1250, 1251, 1252, 1253, 1254, 1255, 1256, 1257, 1258})

_codec_cache: dict[int, str | None] = {}
# The code points of an array("I") as bytes, in this machine's byte order.
_UTF32 = "utf-32-le" if sys.byteorder == "little" else "utf-32-be"
_recorder = threading.local()
_RECORD_ERRORS = "onemail.rtf.record"
_RECORD_ERRORS_C1 = "onemail.rtf.record-c1"


def _record(exc: UnicodeDecodeError) -> tuple[str, int]:
    _recorder.errors.append((exc.start, exc.end - exc.start))
    return "\ufffd", exc.end


def _record_c1(exc: UnicodeDecodeError) -> tuple[str, int]:
    byte = exc.object[exc.start]
    if 0x80 <= byte <= 0x9F:
        return chr(byte), exc.start + 1
    return _record(exc)


# Double-byte code pages where CPython's codec lacks pairs that Windows (and the WHATWG
# tables onemail.text uses) decode: the pair is read with a superset codec (RT37).
_PAIR_FALLBACKS = {950: "big5hkscs", 936: "gb18030"}
# Single bytes Windows decodes and CPython does not: cp936 0x80 is the euro sign (RT37).
_SINGLE_FALLBACKS = {936: {0x80: "\u20ac"}}


def _record_fallback(exc: UnicodeDecodeError) -> tuple[str, int]:
    code_page = _recorder.code_page
    start = exc.start
    single = _SINGLE_FALLBACKS.get(code_page, {}).get(exc.object[start])
    if single is not None:
        return single, start + 1
    pair = exc.object[start:start + 2]
    if len(pair) == 2 and pair[1] >= 0x40:
        try:
            return pair.decode(_PAIR_FALLBACKS[code_page]), start + 2
        except UnicodeDecodeError:
            pass
    return _record(exc)


_RECORD_ERRORS_FALLBACK = "onemail.rtf.record-fallback"
# decode error handlers: only decoding calls them, with a UnicodeDecodeError
codecs.register_error(_RECORD_ERRORS, _record)  # type: ignore[arg-type]
codecs.register_error(_RECORD_ERRORS_C1, _record_c1)  # type: ignore[arg-type]
codecs.register_error(_RECORD_ERRORS_FALLBACK, _record_fallback)  # type: ignore[arg-type]


def _codec_name(code_page: int) -> str | None:
    try:
        return _codec_cache[code_page]
    except KeyError:
        pass
    name = None
    if code_page not in NOT_BYTE_CODE_PAGES:
        name = CODEC_NAMES.get(code_page)
        if name is None:
            try:
                name = codecs.lookup(f"cp{code_page}").name
            except LookupError:
                name = None
    _codec_cache[code_page] = name
    return name


def cpython_code_page_decoder(code_page: int, data: bytes, errors: list[tuple[int, int]]) -> str | None:
    """Decode ``data`` in Windows code page ``code_page`` with CPython's codecs.

    The standalone default :data:`CodePageDecoder`. Undecodable sequences become U+FFFD and
    are appended to ``errors`` as ``(offset, length)`` in bytes into ``data``; in windows-874
    and windows-125x a byte CPython leaves undefined in 0x80-0x9F is the C1 control (RT27);
    pairs CPython's cp950 and cp936 lack are read as Big5-HKSCS and GB18030, and cp936's 0x80
    is the euro sign (RT37).

    :returns: the text, or None when CPython has no codec for the code page.

    >>> cpython_code_page_decoder(932, b"\\x93\\xfa", []), cpython_code_page_decoder(42, b"a", [])
    ('日', None)
    """
    name = _codec_name(code_page)
    if name is None:
        return None
    try:
        return data.decode(name)
    except UnicodeDecodeError:
        pass
    _recorder.errors = errors
    _recorder.code_page = code_page
    if code_page in _C1_HOLE_CODE_PAGES:
        handler = _RECORD_ERRORS_C1
    elif code_page in _PAIR_FALLBACKS:
        handler = _RECORD_ERRORS_FALLBACK
    else:
        handler = _RECORD_ERRORS
    try:
        return data.decode(name, handler)
    finally:
        _recorder.errors = None


# ---------------------------------------------------------------------------------------
# Detection


def is_encapsulated(rtf: bytes | bytearray | memoryview) -> str | None:
    """Tell whether ``rtf`` is encapsulated HTML or text (MS-OXRTFEX 2.2.3.1).

    Implements spec 002 "De-encapsulation" (``Detect``): the document starts with ``{\\rtf``
    and among its first ten tokens, all group starts or control words, ``\\fromhtml1`` or
    ``\\fromtext`` (without a parameter) appears. ``\\fromhtml``, ``\\fromhtml0`` or any other
    form do not count (RT20).

    :param rtf: the RTF, raw bytes (decompressed, not the compressed stream).
    :returns: ``"html"``, ``"text"`` or None.
    :raises TypeError: ``rtf`` is not bytes-like.

    >>> is_encapsulated(rb"{\\rtf1\\ansi\\ansicpg1252\\fromhtml1 \\deff0{\\fonttbl}}")
    'html'
    >>> is_encapsulated(rb"{\\rtf1\\ansi\\fromhtml0}"), is_encapsulated(rb"{\\rtf1 x\\fromtext}")
    (None, None)
    """
    if not isinstance(rtf, bytes | bytearray | memoryview):
        raise TypeError(f"rtf must be bytes-like, not {type(rtf).__name__}")
    data = rtf if isinstance(rtf, bytes) else bytes(rtf)
    return _detect(data) if data[:5] == b"{\\rtf" else None


def _detect(data: bytes) -> str | None:
    count = 0
    for code, _offset, _length, name, number in scan_tokens(data, DEFAULT_MAX_DEPTH, None):
        if code == T_WORD:
            if name == b"fromhtml" and number == 1:
                return "html"
            if name == b"fromtext" and number is None:
                return "text"
        elif code != T_OPEN:
            return None
        count += 1
        if count == 10:
            return None
    return None


# ---------------------------------------------------------------------------------------
# De-encapsulation


@dataclass(frozen=True, slots=True)
class DeencapsulationOptions:
    """Options of :func:`deencapsulate` (keyword-only).

    :param code_page_decoder: a :data:`CodePageDecoder`; None uses CPython's codecs
        (:func:`cpython_code_page_decoder`).
    :param max_depth: nesting limit passed to the tokenizer (default 1000).
    :raises TypeError: ``code_page_decoder`` is not callable, ``max_depth`` not an int.
    :raises ValueError: ``max_depth`` is less than 1.
    """

    code_page_decoder: CodePageDecoder | None = field(default=None, kw_only=True)
    max_depth: int = field(default=DEFAULT_MAX_DEPTH, kw_only=True)

    def __post_init__(self) -> None:
        if self.code_page_decoder is not None and not callable(self.code_page_decoder):
            raise TypeError("code_page_decoder must be callable or None")
        if not isinstance(self.max_depth, int) or isinstance(self.max_depth, bool):
            raise TypeError(f"max_depth must be an int, not {type(self.max_depth).__name__}")
        if self.max_depth < 1:
            raise ValueError(f"max_depth must be at least 1, not {self.max_depth}")


@dataclass(frozen=True, slots=True)
class Deencapsulation:
    """The result of :func:`deencapsulate`.

    :param kind: ``"html"``, ``"text"``, or None when the RTF is not encapsulated (the text is
        then the plain-text walk of the document, RT21).
    :param text: the recovered HTML or text (str).
    :param defects: tuple of :class:`~onemail.rtf.defects.RtfDefect`, byte offsets into the
        input, in the order found.
    """

    kind: str | None
    text: str
    defects: tuple[RtfDefect, ...]


# Group modes.
_NORMAL, _TAG, _SKIP, _FONTTBL = range(4)

# Control words with a character meaning (spec 002 "Characters", RT5).
_CHAR_WORDS = {
    b"par": "\r\n", b"line": "\r\n", b"tab": "\t",
    b"lquote": "\u2018", b"rquote": "\u2019", b"ldblquote": "\u201c", b"rdblquote": "\u201d",
    b"bullet": "\u2022", b"endash": "\u2013", b"emdash": "\u2014", b"enspace": "\u2002",
    b"emspace": "\u2003", b"qmspace": "\u2005", b"zwj": "\u200d", b"zwnj": "\u200c",
    b"ltrmark": "\u200e", b"rtlmark": "\u200f",
}
# Words that end a table cell, a row, a section or a page: characters in the plain-text reading
# of a document (:func:`rtf_to_text`) only, so that de-encapsulation stays as specified.
_TEXT_CHAR_WORDS = {**_CHAR_WORDS, b"cell": "\t", b"nestcell": "\t", b"row": "\r\n",
                    b"nestrow": "\r\n", b"sect": "\r\n", b"page": "\r\n"}
# Control symbols with a character meaning; \_ depends on the mode (RT7, see below).
_CHAR_SYMBOLS = {b"~": "\u00a0", b"{": "{", b"}": "}", b"\\": "\\"}

# Destinations that hold no body text (spec 002 "HTML", RT26): their groups are skipped.
_SKIP_DESTINATIONS = frozenset(
    b"""colortbl stylesheet info pict object objdata objclass nonshppict shp shpinst sp sn sv
    header headerl headerr headerf footer footerl footerr footerf fldinst listtable
    listoverridetable listtext pn pntext pntxta pntxtb bkmkstart bkmkend rsidtbl generator
    xmlnstbl themedata colorschememapping latentstyles datastore filetbl revtbl ftnsep
    ftnsepc aftnsep aftnsepc template docvar userprops pgdsctbl protusertbl listpicture
    author operator title subject keywords comment doccomm company falt panose leveltext
    levelnumbers txe xe tc rxe upr""".split()
)
# Document character sets (\ansi \mac \pc \pca) -> code page, used without \ansicpg.
_DOC_CHARSETS = {b"ansi": 1252, b"mac": 10000, b"pc": 437, b"pca": 850}

# What a control word does in the walk (words not here are ignored).
(_A_CHAR, _A_HTMLRTF, _A_FONT, _A_UNICODE, _A_UC, _A_PLAIN, _A_SKIP, _A_FONTTBL, _A_ANSICPG,
 _A_CHARSET, _A_DEFF) = range(11)
_ACTIONS = {
    **dict.fromkeys(_CHAR_WORDS, _A_CHAR), **dict.fromkeys(_SKIP_DESTINATIONS, _A_SKIP),
    **dict.fromkeys(_DOC_CHARSETS, _A_CHARSET), b"htmlrtf": _A_HTMLRTF, b"f": _A_FONT,
    b"u": _A_UNICODE, b"uc": _A_UC, b"plain": _A_PLAIN, b"fonttbl": _A_FONTTBL,
    b"ansicpg": _A_ANSICPG, b"deff": _A_DEFF,
}
_TEXT_ACTIONS = {**_ACTIONS, **dict.fromkeys(_TEXT_CHAR_WORDS.keys() - _CHAR_WORDS.keys(), _A_CHAR)}


def deencapsulate(rtf: bytes | bytearray | memoryview,
                  options: DeencapsulationOptions | None = None) -> Deencapsulation:
    """Recover the HTML or plain text that ``rtf`` encapsulates.

    Implements spec 002 "De-encapsulation" (MS-OXRTFEX 2.2) with RT20-RT33:
    ``{\\*\\htmltag}`` content is copied whatever ``\\htmlrtf`` says; other ignorable
    destinations and the destinations that hold no body text are skipped; ``\\htmlrtf`` (on)
    and ``\\htmlrtf0`` (off) are scoped to groups; ``\\par`` and ``\\line`` give CRLF, ``\\tab``
    a TAB; ``\\uN`` is a signed UTF-16 unit whose ``\\ucN`` fallback characters (text bytes or
    ``\\'hh``, ended by ``{`` or ``}``) are skipped; text bytes and ``\\'hh`` decode as runs in
    the current font's code page (``\\cpg``, else ``\\fcharset``, else the document's),
    ``\\htmltag`` content in the document's. ``\\fromtext`` documents ignore ``\\htmlrtf``.

    :param rtf: the RTF, raw bytes (decompressed).
    :param options: :class:`DeencapsulationOptions`, or None for the defaults.
    :returns: :class:`Deencapsulation` (kind, text, defects).
    :issues: the tokenizer's defects, ``LoneSurrogate`` (a ``\\u`` surrogate without its
        partner, given as U+FFFD), ``AmbiguousUnknownCodePage`` (RT29, once per code page:
        the document's code page, else windows-1252, was used), ``InvalidCodePageBytes``
        (bytes the code page cannot map, each U+FFFD).
    :raises TypeError: ``rtf`` is not bytes-like or ``options`` not DeencapsulationOptions.

    >>> deencapsulate(rb"{\\rtf1\\ansi\\fromtext{\\fonttbl{\\f0 Arial;}}\\f0 caf\\'e9\\par x}").text
    'café\\r\\nx'
    """
    return _walk(rtf, options, False)


def _walk(rtf: bytes | bytearray | memoryview, options: DeencapsulationOptions | None, plain_text: bool) -> Deencapsulation:
    """The walk of :func:`deencapsulate` (``plain_text=False``) or :func:`rtf_to_text`."""
    if not isinstance(rtf, bytes | bytearray | memoryview):
        raise TypeError(f"rtf must be bytes-like, not {type(rtf).__name__}")
    if options is None:
        options = _DEFAULT_OPTIONS
    elif not isinstance(options, DeencapsulationOptions):
        raise TypeError(f"options must be DeencapsulationOptions, not {type(options).__name__}")
    data = rtf if isinstance(rtf, bytes) else bytes(rtf)
    kind = _detect(data) if data[:5] == b"{\\rtf" else None
    defects: list[RtfDefect] = []
    walker = _Walker(kind == "html" and not plain_text,
                     options.code_page_decoder or cpython_code_page_decoder, defects,
                     plain_text=plain_text)
    text = walker.run(scan_tokens(data, options.max_depth, defects))
    defects.sort(key=lambda d: d.offset)
    return Deencapsulation(kind, text, tuple(defects))


_DEFAULT_OPTIONS = DeencapsulationOptions()


def rtf_to_text(rtf: bytes | bytearray | memoryview,
                options: DeencapsulationOptions | None = None) -> Deencapsulation:
    """Return the plain text of an RTF document as a reader shows it, whatever it encapsulates.

    The walk of :func:`deencapsulate` for a document that encapsulates nothing (RT21), applied
    to any RTF: ``{\\*\\htmltag}`` groups and the other ignorable destinations are skipped,
    ``\\htmlrtf`` is ignored (its text is the RTF rendering), ``\\par`` and ``\\line`` give
    CRLF, ``\\tab`` a TAB; in this reading only, ``\\cell`` and ``\\nestcell`` give a TAB and
    ``\\row``, ``\\nestrow``, ``\\sect`` and ``\\page`` a CRLF, so that a table row is a line.
    Code pages, ``\\uN`` and ``\\ucN`` as for :func:`deencapsulate`. For the text of a message
    body whose RTF is not encapsulated (Outlook's plain RTF bodies); an encapsulated body is
    better read with :func:`deencapsulate`.

    :param rtf: the RTF, raw bytes (decompressed).
    :param options: :class:`DeencapsulationOptions`, or None for the defaults.
    :returns: :class:`Deencapsulation`: ``kind`` as :func:`is_encapsulated` gives it, ``text`` the
        plain text (str, CRLF line ends), ``defects`` byte offsets into ``rtf``.
    :issues: as :func:`deencapsulate`.
    :raises TypeError: ``rtf`` is not bytes-like or ``options`` not DeencapsulationOptions.

    >>> rtf_to_text(rb"{\\rtf1\\ansi{\\fonttbl{\\f0 Arial;}}\\f0 a\\cell b\\cell\\row c\\'e9\\par}").text
    'a\\tb\\t\\r\\nc\\xe9\\r\\n'
    """
    return _walk(rtf, options, True)


def _input_offset(offset: int) -> int:
    """The input offset of a run map entry (``~offset`` marks a ``\\'hh``)."""
    return offset if offset >= 0 else ~offset


class _Walker:
    """The de-encapsulation walk: state between tokens, the pending byte run and the pending
    ``\\uN`` characters.

    Memory stays near the input size (issue 16: 10^6 ``\\uN`` took 14x): the byte run is one
    ``bytearray`` whose map back to input offsets has one entry per stretch of pieces that
    follow each other in the input (a text run, or ``\\'hh`` escapes 4 bytes apart), and
    ``\\uN`` characters are gathered as code points in an ``array`` and decoded to one
    ``str`` per stretch, not one ``str`` object each. At most one of the two is pending.
    """

    __slots__ = ("html", "decoder", "defects", "out", "fonts", "ansicpg", "charset_cp", "char_words", "actions",
                 "deff", "cp_cache", "pend", "segs", "seg_next", "pend_cp",
                 "reported", "high", "units")

    def __init__(self, html: bool, decoder: CodePageDecoder, defects: list[RtfDefect], *,
                 plain_text: bool = False) -> None:
        self.html = html
        self.char_words = _TEXT_CHAR_WORDS if plain_text else _CHAR_WORDS
        self.actions = _TEXT_ACTIONS if plain_text else _ACTIONS
        self.decoder = decoder
        self.defects = defects
        self.out: list[str] = []
        self.fonts: dict[int, list[int | None]] = {}  # font number -> [fcharset or None, cpg or None]
        self.ansicpg: int | None = None
        self.charset_cp = 1252
        self.deff = 0
        self.cp_cache: dict[int | None, int] = {}
        self.pend = bytearray()  # the pending byte run
        # The map of the run to the input, flat: (run index, input offset) for each stretch,
        # the offset as ~offset for a stretch of \\'hh (4 input bytes per byte); seg_next is
        # where the last stretch would continue (as ~offset for \\'hh).
        self.segs = array("q")
        self.seg_next = 0
        self.pend_cp = 0
        self.reported: set[int] = set()
        self.high: tuple[int, int, int] | None = None  # pending high surrogate
        self.units = array("I")  # pending characters of \uN, as code points

    # -- code pages ------------------------------------------------------------------
    def doc_cp(self) -> int:
        return self.ansicpg if self.ansicpg is not None else self.charset_cp

    def font_cp(self, font: int | None) -> int:
        """The code page for text in ``font`` (RT22)."""
        try:
            return self.cp_cache[font]
        except KeyError:
            pass
        spec = self.fonts.get(self.deff if font is None else font)
        cp = None
        if spec is not None:
            charset, cpg = spec
            if cpg is not None:
                cp = cpg
            elif charset is not None and charset != 1:
                cp = _FCHARSET_CODE_PAGES.get(charset)
        if cp is None:
            cp = self.doc_cp()
        self.cp_cache[font] = cp
        return cp

    # -- output ----------------------------------------------------------------------
    def flush(self) -> None:
        pend = self.pend
        raw = bytes(pend)
        cp = self.pend_cp
        errors: list[tuple[int, int]] = []
        text = None if cp in NOT_BYTE_CODE_PAGES else self.decoder(cp, raw, errors)
        if text is None:
            if cp not in self.reported:
                self.reported.add(cp)
                self.defects.append(RtfDefect(RtfDefectKind.AMBIGUOUS_UNKNOWN_CODE_PAGE,
                                              _input_offset(self.segs[1]), 0))
            fallback = self.doc_cp()
            text = (self.decoder(fallback, raw, errors)
                    if fallback != cp and fallback not in NOT_BYTE_CODE_PAGES else None)
            if text is None:
                text = self.decoder(1252, raw, errors)
                if text is None:  # a plugged decoder without windows-1252
                    text = cpython_code_page_decoder(1252, raw, errors)
        assert text is not None  # CPython has windows-1252
        if errors:
            self._report_bytes(errors)
        self.out.append(text)
        del pend[:]
        del self.segs[:]

    def flush_units(self) -> None:
        self.out.append(self.units.tobytes().decode(_UTF32))
        del self.units[:]

    def _report_bytes(self, errors: list[tuple[int, int]]) -> None:
        """Map ``(offset, length)`` in the joined run back to input offsets."""
        segs = self.segs
        starts = segs[0::2]
        for start, length in errors:
            i = 2 * (bisect.bisect_right(starts, start) - 1)
            j = 2 * (bisect.bisect_right(starts, max(start + length - 1, start)) - 1)
            off, end_off = segs[i + 1], segs[j + 1]
            step, end_step = (1 if off >= 0 else 4), (1 if end_off >= 0 else 4)
            first = _input_offset(off) + (start - segs[i]) * step
            last = _input_offset(end_off) + (start + length - 1 - segs[j]) * end_step + end_step
            self.defects.append(RtfDefect(RtfDefectKind.INVALID_CODE_PAGE_BYTES, first,
                                          last - first))

    def _open(self, cp: int, offset: int) -> None:
        """Prepare the run for a piece at input ``offset`` (``~offset`` for a ``\\'hh``)."""
        if self.high is not None:
            self.lone_high()
        if self.pend:
            if cp != self.pend_cp:
                self.flush()
                self.pend_cp = cp
        else:
            if self.units:
                self.flush_units()
            self.pend_cp = cp
        if offset != self.seg_next or not self.pend:
            self.segs.extend((len(self.pend), offset))

    def add(self, piece: bytes, offset: int, cp: int) -> None:
        """Add text bytes at input ``offset`` to the pending run."""
        self._open(cp, offset)
        self.pend += piece
        self.seg_next = offset + len(piece)

    def add_hex(self, value: int, offset: int, cp: int) -> None:
        """Add the byte of a ``\\'hh`` escape at input ``offset`` to the pending run."""
        self._open(cp, ~offset)
        self.pend.append(value)
        self.seg_next = ~(offset + 4)

    def lone_high(self) -> None:
        assert self.high is not None  # called only with a high surrogate pending
        _unit, offset, length = self.high
        self.high = None
        if self.pend:
            self.flush()
        self.units.append(0xFFFD)
        self.defects.append(RtfDefect(RtfDefectKind.LONE_SURROGATE, offset, length))

    def emit(self, text: str) -> None:
        if self.high is not None:
            self.lone_high()
        if self.pend:
            self.flush()
        elif self.units:
            self.flush_units()
        self.out.append(text)

    def unicode(self, unit: int, offset: int, length: int) -> None:
        if 0xD800 <= unit < 0xDC00:
            if self.high is not None:
                self.lone_high()
            if self.pend:
                self.flush()
            self.high = (unit, offset, length)
        elif 0xDC00 <= unit < 0xE000:
            if self.high is not None:
                high = self.high[0]
                self.high = None
                self.units.append(0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00))
            else:
                if self.pend:
                    self.flush()
                self.units.append(0xFFFD)
                self.defects.append(RtfDefect(RtfDefectKind.LONE_SURROGATE, offset, length))
        else:
            if self.high is not None:
                self.lone_high()
            if self.pend:
                self.flush()
            self.units.append(unit)

    # -- the walk --------------------------------------------------------------------
    def run(self, tokens: Iterable[tuple[int, int, int, Any, Any]]) -> str:  # noqa: C901 - one dispatch loop is the fast path
        html = self.html
        char_words = self.char_words
        actions = self.actions
        fonts = self.fonts
        stack: list[tuple[Any, ...]] = []
        suppressed = False
        uc = 1
        font: int | None = None
        mode = _NORMAL
        skip = 0  # fallback bytes still to skip after \uN
        star = False  # the last token was \*
        fontdef: int | None = None  # font being defined in \fonttbl
        for code, offset, length, a, b in tokens:
            if code == T_TEXT:
                star = False
                if mode == _NORMAL:
                    if suppressed or not stack:
                        if skip:
                            skip = max(skip - len(a), 0)
                        continue
                    cp = self.cp_cache.get(font)
                    if cp is None:
                        cp = self.font_cp(font)
                elif mode == _TAG:
                    cp = self.doc_cp()
                else:
                    continue
                if skip:
                    if skip >= len(a):
                        skip -= len(a)
                        continue
                    a = a[skip:]
                    offset += skip
                    skip = 0
                self.add(a, offset, cp)
            elif code == T_WORD:
                if mode == _SKIP:
                    continue
                if star:
                    star = False
                    if a == b"htmltag" and html and mode != _FONTTBL:
                        mode = _TAG
                    else:
                        mode = _SKIP
                    continue
                if mode == _FONTTBL:
                    if a == b"f":
                        fontdef = b
                        fonts.setdefault(b, [None, None])
                    elif a == b"fcharset" and fontdef is not None:
                        fonts[fontdef][0] = b
                    elif a == b"cpg" and fontdef is not None:
                        fonts[fontdef][1] = b
                    self.cp_cache.clear()
                    continue
                act = actions.get(a)
                if act is None:  # most control words change nothing here
                    continue
                if act == _A_CHAR:
                    if mode == _NORMAL and (suppressed or not stack):
                        continue
                    self.emit(char_words[a])
                elif act == _A_HTMLRTF:
                    if html:
                        suppressed = b is None or b != 0
                elif act == _A_FONT:
                    font = b
                elif act == _A_UNICODE:
                    if b is None:
                        continue
                    skip = uc
                    if mode == _NORMAL and (suppressed or not stack):
                        continue
                    if -0x8000 <= b <= 0xFFFF:
                        self.unicode(b & 0xFFFF, offset, length)
                    else:
                        # Not a UTF-16 unit, signed or not (\u-99999999999, \u70000): U+FFFD,
                        # not the low 16 bits (which gave U+0000); the tokenizer has already
                        # reported a value beyond 32 bits (RT46).
                        self.unicode(0xFFFD, offset, length)
                        if -(2**31) < b < 2**31 - 1:
                            self.defects.append(
                                RtfDefect(RtfDefectKind.PARAMETER_OVERFLOW, offset, length))
                elif act == _A_UC:
                    uc = max(b or 0, 0)
                elif act == _A_PLAIN:
                    font = None
                elif act == _A_SKIP:
                    mode = _SKIP
                elif act == _A_FONTTBL:
                    mode = _FONTTBL
                    fontdef = None
                elif act == _A_ANSICPG:
                    if b is not None and b > 0:
                        self.ansicpg = b
                        self.cp_cache.clear()
                elif act == _A_CHARSET:
                    self.charset_cp = _DOC_CHARSETS[a]
                    self.cp_cache.clear()
                elif b is not None:  # _A_DEFF
                    self.deff = b
                    self.cp_cache.clear()
            elif code == T_OPEN:
                stack.append((suppressed, uc, font, mode))
                skip = 0
                star = False
            elif code == T_CLOSE:
                suppressed, uc, font, mode = stack.pop()
                skip = 0
                star = False
            elif code == T_HEX:
                star = False
                if mode == _NORMAL:
                    if suppressed or not stack:
                        if skip:
                            skip -= 1
                        continue
                    cp = self.cp_cache.get(font)
                    if cp is None:
                        cp = self.font_cp(font)
                elif mode == _TAG:
                    cp = self.doc_cp()
                else:
                    continue
                if skip:
                    skip -= 1
                    continue
                self.add_hex(a, offset, cp)
            elif code == T_SYMBOL:
                if a == b"*":
                    star = True
                    continue
                star = False
                if mode == _SKIP or mode == _FONTTBL:
                    continue
                if mode == _NORMAL and (suppressed or not stack):
                    continue
                if a == b"_":
                    self.emit("\u00ad" if mode == _TAG else "\u2011")
                else:
                    ch = _CHAR_SYMBOLS.get(a)
                    if ch is not None:
                        self.emit(ch)
            # T_BINARY (the \binN data) is never text: skipped.
        if self.high is not None:
            self.lone_high()
        if self.pend:
            self.flush()
        elif self.units:
            self.flush_units()
        return "".join(self.out)


# ---------------------------------------------------------------------------------------
# Encapsulation

_HTML_HEADER = (
    b"{\\rtf1\\ansi\\ansicpg1252\\fromhtml1 \\deff0{\\fonttbl\r\n"
    b"{\\f0\\fswiss\\fcharset0 Arial;}\r\n"
    b"{\\f1\\fmodern Courier New;}\r\n"
    b"{\\f2\\fnil\\fcharset2 Symbol;}\r\n"
    b"{\\f3\\fmodern\\fcharset0 Courier New;}}\r\n"
    b"{\\colortbl\\red0\\green0\\blue0;\\red0\\green0\\blue255;}\r\n"
    b"\\uc1\\pard\\plain\\deftab360 \\f0\\fs24 \r\n"
    b"{\\*\\htmltag64}\r\n"
)
_TEXT_HEADER = (
    b"{\\rtf1\\ansi\\ansicpg1252\\fromtext \\deff0{\\fonttbl\r\n"
    b"{\\f0\\fswiss\\fcharset0 Arial;}}\r\n"
    b"\\uc1\\pard\\plain\\f0\\fs20 "
)


class _Escapes(dict[int, str]):
    """``str.translate`` table: each character to its RTF spelling, built on first use.

    ASCII printable characters stay; ``\\ { }`` are escaped; TAB is ``\\tab``; other C0
    controls and the non-ASCII characters windows-1252 has are ``\\'hh``; everything else
    is ``\\uN?`` (a surrogate pair for astral characters), N signed 16-bit.
    """

    def __missing__(self, code: int) -> str:
        if 0x20 <= code < 0x7F:
            value = "\\" + chr(code) if chr(code) in "\\{}" else chr(code)
        elif code == 9:
            value = "\\tab "
        elif code < 0x20 or code == 0x7F:
            value = f"\\'{code:02x}"
        else:
            try:
                byte = chr(code).encode("cp1252")
            except UnicodeEncodeError:
                byte = b""
            if byte:
                value = f"\\'{byte[0]:02x}"
            elif code > 0xFFFF:
                v = code - 0x10000
                value = f"{_u(0xD800 + (v >> 10))}{_u(0xDC00 + (v & 0x3FF))}"
            else:
                value = _u(code)
        self[code] = value
        return value


def _u(unit: int) -> str:
    return f"\\u{unit - 0x10000 if unit >= 0x8000 else unit}?"


_ESCAPES = _Escapes()


def _escape(text: str) -> str:
    """RTF spelling of ``text``: CRLF is ``\\par``, lone CR and LF are ``\\'0d`` ``\\'0a``."""
    if "\r\n" in text:
        return "\\par\r\n".join(part.translate(_ESCAPES) for part in text.split("\r\n"))
    return text.translate(_ESCAPES)


def _escape_tag(text: str) -> str:
    """Like :func:`_escape`, with ``\\par`` followed by a delimiting space (Outlook's style)."""
    if "\r\n" in text:
        return "\\par ".join(part.translate(_ESCAPES) for part in text.split("\r\n"))
    return text.translate(_ESCAPES)


def encapsulate_text(text: str) -> bytes:
    """Write ``text`` as ``\\fromtext`` RTF (MS-OXRTFEX 2.1; decision 1).

    Implements spec 002 "Encapsulation". Every character is spelled so that
    :func:`deencapsulate` gives back exactly ``text`` (RT40): CRLF as ``\\par``, lone CR
    or LF as ``\\'0d``/``\\'0a``, TAB as ``\\tab``, windows-1252 characters as themselves or
    ``\\'hh``, others as ``\\uN?``. Lone surrogates cannot be spelled and come back as U+FFFD.

    :param text: str.
    :returns: the RTF, ASCII bytes.
    :raises TypeError: ``text`` is not a str.

    >>> encapsulate_text("a{b}\\r\\nc")[-14:]
    b'a\\\\{b\\\\}\\\\par\\r\\nc}'
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    return _TEXT_HEADER + _escape(text).encode("ascii") + b"}"


# Markup: comments (to --> or the end), <!...>, <?...>, tags; text is everything else.
_MARKUP = re.compile(
    r"<!--.*?(?:-->|\Z)|<![^>]*(?:>|\Z)|<\?[^>]*(?:>|\Z)|</?[A-Za-z][^>]*(?:>|\Z)", re.DOTALL)
_TAG_NAME = re.compile(r"</?([A-Za-z][A-Za-z0-9:]*)")
_BODY_START = re.compile(r"<body[\s>/]", re.IGNORECASE)
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")

# MS-OXRTFEX 2.1.3.1.4 HTMLTagParameter: bits 0-1 the tag's place (0 body, 1 head, 2 inside
# <html>, 3 outside), bit 2 inside a paragraph, bit 3 a closing tag, bits 4-7 the tag kind.
_TAG_KINDS = {
    "html": 1, "head": 2, "body": 3, "p": 4, "li": 4, "tr": 4, "hr": 4,
    "h1": 4, "h2": 4, "h3": 4, "h4": 4, "h5": 4, "h6": 4,
    "a": 5, "span": 5, "b": 5, "i": 5, "u": 5, "strong": 5, "em": 5, "img": 5, "sup": 5,
    "sub": 5, "wbr": 5, "div": 6, "table": 6, "tbody": 6, "ul": 6, "ol": 6, "blockquote": 6,
    "center": 6, "br": 7, "pre": 8, "font": 9, "td": 9, "th": 9, "meta": 10, "link": 10,
    "base": 10, "title": 11,
}
_ENTITY_KIND = 5
_OTHER_KIND = 15
# Closing tags after which an RTF reader should see a paragraph break (under \htmlrtf).
_PAR_AFTER = frozenset({"p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6",
                        "blockquote", "pre", "table"})
_RAW_TEXT = frozenset({"style", "script", "title", "textarea", "xmp"})


def encapsulate_html(html: str) -> bytes:
    """Write ``html`` as ``\\fromhtml1`` RTF (MS-OXRTFEX 2.1; decision 1).

    Implements spec 002 "Encapsulation" and decision 1: the header, the empty
    ``{\\*\\htmltag64}``, then each piece of markup (tag, comment, doctype, processing
    instruction) in a ``{\\*\\htmltagN ...}`` group with N from MS-OXRTFEX 2.1.3.1.4, and text
    between tags as ordinary RTF text; text before ``<body>``, after ``</body>`` and inside
    ``<style>``/``<script>``/``<title>`` goes into htmltag groups too (RT41). A character
    reference such as ``&amp;`` becomes an htmltag group followed by its character under
    ``\\htmlrtf``, and a ``<br>`` or the end of a paragraph adds ``\\htmlrtf \\par \\htmlrtf0``
    for RTF readers. Every character is spelled so that :func:`deencapsulate` gives back
    exactly ``html`` (RT40); lone surrogates cannot be spelled and come back as U+FFFD.

    :param html: str.
    :returns: the RTF, ASCII bytes.
    :raises TypeError: ``html`` is not a str.

    >>> deencapsulate(encapsulate_html("<p>a &amp; b</p>")).text
    '<p>a &amp; b</p>'
    """
    if not isinstance(html, str):
        raise TypeError(f"html must be str, not {type(html).__name__}")
    out = [_HTML_HEADER.decode("ascii")]
    has_body = _BODY_START.search(html) is not None
    place = 3  # outside <html>
    in_body = not has_body
    raw_until: str | None = None  # inside <style> etc.: text goes into htmltag groups
    in_par = False
    pos = 0
    for m in _MARKUP.finditer(html):
        if m.start() > pos:
            _write_text(out, html[pos:m.start()], in_body and raw_until is None,
                        _tag_place(place, in_body), in_par)
        markup = m.group()
        name_m = _TAG_NAME.match(markup)
        name = name_m.group(1).lower() if name_m else ""
        closing = markup.startswith("</")
        kind = _TAG_KINDS.get(name, _OTHER_KIND) if name_m else _OTHER_KIND
        if closing and name == "body":
            place, in_body = 2, not has_body
        elif closing and name == "html":
            place = 3
        inpar = in_par and in_body and not (closing and name == "p")
        param = (kind << 4) | (8 if closing else 0) | (4 if inpar else 0)
        param |= _tag_place(place, in_body)
        out.append(f"{{\\*\\htmltag{param} {_escape_tag(markup)}}}")
        if name == "html":
            place = 3 if closing else 2
        elif name == "head":
            place = 2 if closing else 1
        elif name == "body" and not closing:
            in_body, place = True, 0
        if raw_until is not None:
            if closing and name == raw_until:
                raw_until = None
        elif name in _RAW_TEXT and not closing:
            raw_until = name
        if name == "p":
            in_par = not closing
        if in_body and raw_until is None:
            if name == "br" or (closing and name in _PAR_AFTER):
                out.append("\\htmlrtf \\par \\htmlrtf0 ")
        pos = m.end()
    if pos < len(html):
        _write_text(out, html[pos:], in_body and raw_until is None, _tag_place(place, in_body),
                    in_par)
    out.append("}")
    return "".join(out).encode("ascii")


def _tag_place(place: int, in_body: bool) -> int:
    return 0 if in_body and place in (0, 3) else place


def _write_text(out: list[str], text: str, body: bool, place: int, in_par: bool) -> None:
    """Write text between tags: body text as RTF text, other text in htmltag groups."""
    if not body:
        out.append(f"{{\\*\\htmltag{(_OTHER_KIND << 4) | place} {_escape_tag(text)}}}")
        return
    pos = 0
    for m in _ENTITY.finditer(text):
        if m.start() > pos:
            out.append(_escape(text[pos:m.start()]))
        entity = m.group()
        out.append(f"{{\\*\\htmltag{(_ENTITY_KIND << 4) | (4 if in_par else 0)} {entity}}}")
        shown = _entity_char(entity)
        if shown:
            out.append(f"\\htmlrtf {_escape(shown)}\\htmlrtf0 ")
        pos = m.end()
    if pos < len(text):
        out.append(_escape(text[pos:]))


def _entity_char(entity: str) -> str:
    """What an RTF reader should show for a character reference (best effort)."""
    shown = _unescape(entity)
    return "" if shown == entity or "\r" in shown or "\n" in shown else shown
