"""The RTF tokenizer: :class:`RtfReader` and its token classes.

Implements spec 002 "The tokenizer" (RTF 1.9.1 lexical rules). The reader turns bytes into
tokens and nothing more: it never interprets code pages, destinations or Unicode, which are
the caller's (see :mod:`onemail.rtf.encapsulation`).

How it works: one compiled regular expression with one alternative per token shape is matched
at the current position (``pattern.match(data, pos)``), so a run of text is one match and the
per-byte work happens inside the ``re`` engine. The loop keeps an explicit depth counter and
never recurses, so any nesting is read in linear time; past ``max_depth`` open groups reading
stops with ``NestingLimitExceeded``. ``\\binN`` makes the loop jump over ``N`` raw bytes.

Token geometry: every token carries ``offset`` (byte offset of its first byte) and ``length``
(bytes it covers). A control word's one delimiting space belongs to the word (counted in its
length). CR and LF between tokens are skipped and produce no token. A backslash before a line
break (``\\<CR>``, ``\\<LF>``, ``\\<CR><LF>``) is reported as the control word ``par``.

Defects (:class:`~onemail.rtf.defects.RtfDefectKind`):

- ``UnbalancedGroupEnd``: a ``}`` with no open group; the token is dropped.
- ``UnclosedGroups``: input ends inside groups; offset is the end of input, length 0.
- ``ParameterOverflow``: a numeric parameter outside the signed 32-bit range; clamped to
  ``2**31 - 1`` (or ``-2**31``). Offset and length are the digits'.
- ``InvalidHexEscape``: ``\\'`` not followed by two hex digits; the escape is dropped.
- ``BinaryDataTruncated``: ``\\binN`` announces more bytes than remain; the rest is returned.
- ``TruncatedToken``: input ends after ``\\`` or ``\\'``.
- ``NestingLimitExceeded``: a ``{`` would open group ``max_depth + 1``; reading stops there.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .defects import RtfDefect, RtfDefectKind

__all__ = [
    "Binary",
    "ControlSymbol",
    "ControlWord",
    "DEFAULT_MAX_DEPTH",
    "GroupEnd",
    "GroupStart",
    "HexEscape",
    "RtfReader",
    "Text",
]

#: Default nesting limit (spec 002 "The tokenizer": "default depth 1000").
DEFAULT_MAX_DEPTH = 1000

_INT_MAX = 2**31 - 1
_INT_MIN = -(2**31)

# Token codes of the internal scanner (small ints compare fastest).
T_TEXT, T_OPEN, T_CLOSE, T_WORD, T_HEX, T_SYMBOL, T_BINARY = range(7)

# One alternative per token shape; the number of the last matched group tells which matched.
_TOKEN = re.compile(
    rb"([^\\{}\r\n]+)"  # 1 text run
    rb"|(\{)"  # 2 group start
    rb"|(\})"  # 3 group end
    rb"|\\([A-Za-z]+)(-?[0-9]+)? ?"  # 4 word name, 5 numeric parameter; one space belongs
    rb"|\\'([0-9A-Fa-f]{2})"  # 6 hex escape
    rb"|([\r\n]+)"  # 7 line breaks between tokens: skipped
    rb"|\\(\r\n|[\r\n])"  # 8 backslash before a line break: \par
    rb"|\\([^A-Za-z'\r\n])"  # 9 control symbol
    rb"|(\\'[0-9A-Fa-f]?|\\)",  # 10 invalid or truncated escape
    re.DOTALL,
)


def _long_parameter(digits: bytes) -> int:
    """Return the value of a parameter of more than 11 characters, or one just out of range.

    Leading zeros do not count (``\\fs000000000024`` is 24); any other run of more than 10
    digits is beyond the signed 32-bit range, so ``2**31`` (or ``-2**31 - 1``) stands for it and
    the caller clamps it. Never calls ``int()`` on more than 10 digits, so a run of any length
    costs one scan.
    """
    negative = digits[:1] == b"-"
    body = digits[negative:].lstrip(b"0")
    if len(body) > 10:
        return _INT_MIN - 1 if negative else _INT_MAX + 1
    number = int(body or b"0")
    return -number if negative else number


def scan_tokens(data: bytes, max_depth: int,
                defects: list[RtfDefect] | None) -> Iterator[tuple[int, int, int, Any, Any]]:
    """Yield ``(code, offset, length, a, b)`` tuples for the tokens of ``data``.

    ``a``/``b`` are: text -> (bytes, None); word -> (name bytes, number or None);
    hex -> (byte value, None); symbol -> (one byte, None); binary -> (bytes, None).
    Defects are appended to ``defects`` (when not None). The fast path shared by
    :class:`RtfReader` and :func:`onemail.rtf.encapsulation.deencapsulate` (the token codes
    ``T_*`` above); not part of the package face, whose token objects :class:`RtfReader` gives.
    """
    finditer = _TOKEN.finditer
    end = len(data)
    pos = 0
    depth = 0
    while pos < end:
        resume = end  # where to go on after a \binN jump (end: finished)
        for m in finditer(data, pos):
            kind = m.lastindex
            if kind == 1:
                start, stop = m.span()
                yield T_TEXT, start, stop - start, data[start:stop], None
            elif kind == 4:
                start, stop = m.span()
                yield T_WORD, start, stop - start, m.group(4), None
            elif kind == 5:
                name = m.group(4)
                digits = m.group(5)
                # At most 11 characters ("-2147483648") can be in range; longer runs are
                # clamped without int(), which refuses more than 4,300 digits (issue 16).
                number = int(digits) if len(digits) <= 11 else _long_parameter(digits)
                if number > _INT_MAX or number < _INT_MIN:
                    if defects is not None:
                        defects.append(RtfDefect(RtfDefectKind.PARAMETER_OVERFLOW,
                                                 m.start(5), len(digits)))
                    number = _INT_MAX if number > 0 else _INT_MIN
                start = m.start()
                stop = m.end()
                yield T_WORD, start, stop - start, name, number
                if name == b"bin" and number > 0:
                    resume = stop + number
                    if resume > end:
                        if defects is not None:
                            defects.append(RtfDefect(RtfDefectKind.BINARY_DATA_TRUNCATED,
                                                     stop, end - stop))
                        resume = end
                    if resume > stop:
                        yield T_BINARY, stop, resume - stop, data[stop:resume], None
                    break
            elif kind == 2:
                if depth >= max_depth:
                    if defects is not None:
                        defects.append(RtfDefect(RtfDefectKind.NESTING_LIMIT_EXCEEDED,
                                                 m.start(), 1))
                    return
                depth += 1
                yield T_OPEN, m.start(), 1, None, None
            elif kind == 3:
                if depth == 0:
                    if defects is not None:
                        defects.append(RtfDefect(RtfDefectKind.UNBALANCED_GROUP_END,
                                                 m.start(), 1))
                    continue
                depth -= 1
                yield T_CLOSE, m.start(), 1, None, None
            elif kind == 6:
                yield T_HEX, m.start(), 4, int(m.group(6), 16), None
            elif kind == 7:
                continue
            elif kind == 8:
                yield T_WORD, m.start(), m.end() - m.start(), b"par", None
            elif kind == 9:
                yield T_SYMBOL, m.start(), 2, m.group(9), None
            elif defects is not None:  # kind == 10
                start = m.start()
                stop = m.end()
                defects.append(RtfDefect(
                    RtfDefectKind.TRUNCATED_TOKEN if stop == end
                    else RtfDefectKind.INVALID_HEX_ESCAPE, start, stop - start))
        pos = resume
    if depth and defects is not None:
        defects.append(RtfDefect(RtfDefectKind.UNCLOSED_GROUPS, end, 0))


@dataclass(frozen=True, slots=True)
class GroupStart:
    """``{``: a group opens. ``offset`` is the byte offset of the brace."""

    offset: int
    length: int = 1


@dataclass(frozen=True, slots=True)
class GroupEnd:
    """``}``: the innermost open group closes."""

    offset: int
    length: int = 1


@dataclass(frozen=True, slots=True)
class ControlWord:
    """``\\name`` with an optional signed parameter, e.g. ``\\fs24``, ``\\u-10179``.

    ``name`` is ASCII letters (case kept: ``\\ANSI`` is not ``\\ansi``); ``number`` is the
    parameter clamped to the signed 32-bit range, or None. ``length`` counts the backslash,
    name, digits and the one delimiting space when present.
    """

    offset: int
    length: int
    name: str
    number: int | None


@dataclass(frozen=True, slots=True)
class ControlSymbol:
    """A backslash and one non-letter byte other than ``'``: ``\\*``, ``\\~``, ``\\{``, ``\\\\``...

    ``symbol`` is that byte as a one-character str (latin-1).
    """

    offset: int
    length: int
    symbol: str


@dataclass(frozen=True, slots=True)
class HexEscape:
    """``\\'hh``: one byte given in hex; ``value`` is 0..255. The caller decodes it."""

    offset: int
    length: int
    value: int


@dataclass(frozen=True, slots=True)
class Text:
    """A run of text bytes (no ``\\``, ``{``, ``}``, CR or LF); the caller decodes it."""

    offset: int
    length: int
    data: bytes


@dataclass(frozen=True, slots=True)
class Binary:
    """The ``N`` raw bytes after ``\\binN`` (not parsed; may be shorter when truncated)."""

    offset: int
    length: int
    data: bytes


Token = GroupStart | GroupEnd | ControlWord | ControlSymbol | HexEscape | Text | Binary


class RtfReader:
    """Read RTF bytes as a forward-only stream of tokens.

    Implements spec 002 "The tokenizer". Iterating yields :class:`GroupStart`,
    :class:`GroupEnd`, :class:`ControlWord`, :class:`ControlSymbol`, :class:`HexEscape`,
    :class:`Text` and :class:`Binary` in input order; :attr:`defects` fills up as reading
    proceeds and is complete once iteration has ended. The reader can be iterated once.

    :param data: the RTF, raw bytes (``bytes``, ``bytearray`` or ``memoryview``), not str.
    :param max_depth: the number of nested groups allowed (default 1000); a ``{`` beyond it
        stops reading with ``NestingLimitExceeded``.
    :issues: ``RtfDefect`` kinds ``UnbalancedGroupEnd``, ``UnclosedGroups``,
        ``ParameterOverflow``, ``InvalidHexEscape``, ``BinaryDataTruncated``,
        ``TruncatedToken``, ``NestingLimitExceeded`` (offsets are bytes into ``data``).
    :raises TypeError: ``data`` is not bytes-like, or ``max_depth`` not an int.
    :raises ValueError: ``max_depth`` is less than 1.

    >>> [type(t).__name__ for t in RtfReader(rb"{\\rtf1 Hi\\'e9}")]
    ['GroupStart', 'ControlWord', 'Text', 'HexEscape', 'GroupEnd']
    >>> reader = RtfReader(b"}x")
    >>> reader.read_all(), [d.to_json() for d in reader.defects]
    ([Text(offset=1, length=1, data=b'x')], [{'kind': 'UnbalancedGroupEnd', 'offset': 0, 'length': 1}])
    """

    __slots__ = ("_data", "_max_depth", "_started", "defects")

    def __init__(self, data: bytes | bytearray | memoryview, *,
                 max_depth: int = DEFAULT_MAX_DEPTH) -> None:
        if not isinstance(data, bytes | bytearray | memoryview):
            raise TypeError(f"data must be bytes-like, not {type(data).__name__}")
        if not isinstance(max_depth, int) or isinstance(max_depth, bool):
            raise TypeError(f"max_depth must be an int, not {type(max_depth).__name__}")
        if max_depth < 1:
            raise ValueError(f"max_depth must be at least 1, not {max_depth}")
        self._data = bytes(data)
        self._max_depth = max_depth
        self._started = False
        #: Damage found so far, in input order (complete after iteration).
        self.defects: list[RtfDefect] = []

    def __iter__(self) -> Iterator[Token]:
        if self._started:
            raise RuntimeError("an RtfReader can be iterated only once")
        self._started = True
        return self._tokens()

    def _tokens(self) -> Iterator[Token]:
        for code, offset, length, a, b in scan_tokens(self._data, self._max_depth, self.defects):
            if code == T_TEXT:
                yield Text(offset, length, a)
            elif code == T_WORD:
                yield ControlWord(offset, length, a.decode("ascii"), b)
            elif code == T_OPEN:
                yield GroupStart(offset)
            elif code == T_CLOSE:
                yield GroupEnd(offset)
            elif code == T_HEX:
                yield HexEscape(offset, length, a)
            elif code == T_SYMBOL:
                yield ControlSymbol(offset, length, a.decode("latin-1"))
            else:
                yield Binary(offset, length, a)

    def read_all(self) -> list[Token]:
        """Return every token as a list (iterates the reader)."""
        return list(self)
