"""The mbox family (RFC 4155): where one message ends and the next begins, and ``>From`` quoting.

One rule finds the messages of every mbox variant (docs/ambiguities.md M20-M22); the sequential
reader (:func:`onemail.read_mbox`, :func:`onemail.message.containers.walk`) and the shards of a
parallel read (:func:`next_separator`) use it alike.

**Separator lines (M20).** A line that starts with the five bytes ``"From "`` separates two
messages when

* it is the first line of the mailbox (after a UTF-8 BOM, or after empty lines when the next
  rule holds for it too: :func:`mbox_start`), or
* it is not itself a header field (``From :``) and either the lines after it begin a message
  header (:func:`begins_header`: the next line is a header field, and the fields before the
  section's end, its empty line or the first line that is neither a field nor a continuation,
  include one of :data:`MAIL_FIELDS`: ``Received``, ``From``, ``Date``, ``Subject``, ...), or
  the line is a whole RFC 4155 envelope: a sender and an asctime date (``From a@b Thu Jul  2
  12:05:05 2020``; a zone before the year allowed), whatever follows (a message without a
  header: Tika's ``simple.mbox``).

Whether an empty line comes before it is not looked at, nor, when a header follows, what
stands on the line: Thunderbird's ``From - Mon Jan  1 ...``, a bare ``"From "`` (Google Takeout,
GYB), a line without a time, and writers that do not end a message with an empty line
(sisimai's BSD mailboxes, kmime's ``simple-encapsulated.mbox``, mimekit's ``simple.mbox.txt``)
all separate. A body line such as ``From 9:30 until 10:00`` separates only when a message
header follows it. Every ``"From "`` line inside a message that
was not taken as a separator is an ``AmbiguousMboxSeparator`` issue of that message: a message
may hold two.

**Content-Length (M22, mboxcl / mboxcl2).** When a message's header section has a
``Content-Length`` and the body of that many bytes ends at the end of the mailbox (line ends
aside) or just before a separator line (an empty line between allowed), the message ends there
and ``"From "`` lines inside it separate nothing; a separator the line rule alone would have
taken inside it is an ``AmbiguousMboxContentLength`` issue. Any other ``Content-Length`` (stale,
wrong, past the end) is ignored.

**Quoting (M21, mboxo / mboxrd).** Each line of ``">From "`` preceded by any number of ``>``
loses one ``>`` (the mboxrd rule; in mboxo only ``>From`` lines were quoted, so an original
``>From`` line of an mboxo message loses its ``>``), one ``AmbiguousMboxQuoting`` issue per line.
A message delimited by its ``Content-Length`` whose body holds an unquoted ``"From "`` line was
written unquoted (mboxcl2) and is left as it is.

**Bytes.** A message's span excludes its separator line and the empty line that ends it before
the next separator (or at the end of the mailbox): the mbox's, not the message's. Issues of
these rules have the place ``mbox``, offsets into the message's span as it stands in the
mailbox (add :attr:`MboxSpan.start` for an offset into the file).

**Cost.** Each byte is looked at a bounded number of times: the header sections checked after
candidate lines never overlap (each ends at the first line that is no header field, and a
candidate is no field), so splitting is linear in the mailbox. The lines the rules look at
(``"From "`` lines, and lines starting with ``content-length`` in any case) are found ahead by
one search of the regular-expression engine (:func:`split`); a message's header section is read
for a ``Content-Length`` only when such a line is before its next separator. On 1 GB of corpus
mail (160,861 messages) the split takes 1.4 CPU s (2.2 s when every header was read).
"""

from __future__ import annotations

import mmap
import re
from bisect import bisect_left
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, replace

from .formats import ReadContext
from .issues import MessageIssueKind
from .model import Message, MessageIssue, bounded

__all__ = [
    "MAIL_FIELDS",
    "FROMS",
    "LENGTHS",
    "ListedMarks",
    "MboxSpan",
    "begins_header",
    "is_separator",
    "mbox_spans",
    "mbox_start",
    "next_separator",
    "read_span",
    "spans",
    "split",
    "trim_end",
    "unquote",
]

MAIL_FIELDS = frozenset({
    b"from", b"sender", b"reply-to", b"to", b"cc", b"bcc", b"message-id", b"in-reply-to",
    b"references", b"subject", b"date", b"return-path", b"received", b"delivered-to",
    b"mime-version", b"content-type", b"content-transfer-encoding", b"resent-from",
    b"resent-date", b"resent-to", b"resent-message-id", b"envelope-to", b"x-mailer",
})
"""Header field names (lower case) of RFC 5322 (origin, destination, identification,
informational, trace and resent fields), RFC 2045 and common delivery fields: a header section
holding one of them is a message's."""

MAX_CONTENT_LENGTH_DIGITS = 20
"""A ``Content-Length`` of more digits than this is ignored (a bound, not a guess: 20 digits
exceed any file size)."""

_FIELD = re.compile(rb"([\x21-\x39\x3b-\x7e]+)[ \t]*:")
_NOT_A_CANDIDATE = re.compile(rb"From[ \t]*:")  # "From :" is a header field, not a separator
# An RFC 4155 envelope: "From", a sender, an asctime date (a zone before the year allowed).
_ENVELOPE = re.compile(
    rb"From +[^ \t\r\n]+ +(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) +"
    rb"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +[0-9]{1,2} +"
    rb"[0-9]{1,2}:[0-9]{2}(?::[0-9]{2})?(?: +[^ \t\r\n]+)?? +[0-9]{4}[ \t]*\r?")
ENVELOPE_BYTES = 256
"""Longest ``"From "`` line read as an RFC 4155 envelope (a bound on the work per line)."""

_QUOTED = re.compile(rb"^>(>*From )", re.M)
_DIGITS = re.compile(rb"[ \t]*([0-9]{1,%d})[ \t]*\r?$" % MAX_CONTENT_LENGTH_DIGITS)

Data = bytes | bytearray | mmap.mmap
"""A mailbox in memory: bytes, or a memory-mapped file (only offsets into it are kept)."""


def _check_data(data: object) -> None:
    if not isinstance(data, (bytes, bytearray, mmap.mmap)):
        raise TypeError(f"data must be bytes, bytearray or mmap, not {type(data).__name__}")


@dataclass(frozen=True, slots=True)
class MboxSpan:
    """One message of an mbox: byte offsets into the mailbox.

    :param start: the first byte of the message (after its separator line).
    :param end: the byte after its last one (before the empty line that ends it).
    :param separator: the offset of its ``"From "`` separator line.
    :param by_length: ``True`` when its end came from its ``Content-Length`` (M22).
    :param quoted: ``True`` when ``>From`` quoting is undone on reading (M21).
    :param unsplit: offsets into the mailbox of ``"From "`` lines inside the message not taken
        as separators (M20).
    :param length_conflict: the offset of a line inside a ``Content-Length`` body that the line
        rule alone would have taken as a separator (M22), else ``None``.
    """

    start: int
    end: int
    separator: int
    by_length: bool = False
    quoted: bool = True
    unsplit: tuple[int, ...] = ()
    length_conflict: int | None = None


def _section(data: Data, pos: int, n: int) -> tuple[bool, int, int | None, int]:
    """Look at the header section starting at ``pos`` (before ``n``).

    :returns: ``(has_mail_field, first_field, content_length, body)``: whether a field of
        :data:`MAIL_FIELDS` is among its fields; 1 if its first line is a field else 0;
        the ``Content-Length`` value or ``None``; the offset after its ending empty line, or -1
        when the section ended at a line that is no field (or at ``n``).
    """
    found, first, length = False, 0, None
    line = pos
    while line < n:
        nl = data.find(b"\n", line, n)
        stop = n if nl < 0 else nl
        if stop == line or (stop == line + 1 and data[line] == 0x0D):
            return found, first, length, stop + 1 if nl >= 0 else -1
        c = data[line]
        if c not in (0x20, 0x09):
            m = _FIELD.match(data, line, stop)
            if m is None:
                return found, first, length, -1
            if line == pos:
                first = 1
            name = m.group(1).lower()
            if name in MAIL_FIELDS:
                found = True
            elif name == b"content-length":
                d = _DIGITS.match(data, m.end(), stop)
                if d is not None and length is None:
                    length = int(d.group(1))
        elif line == pos:
            return found, 0, length, -1
        if nl < 0:
            break
        line = nl + 1
    return found, first, length, -1


def _starts_message(data: Data, line: int, n: int) -> tuple[bool, int]:
    """Whether the ``"From "`` line at ``line`` (not the first of the mailbox) is a separator
    (M20): not a field itself, and an envelope or followed by a message header. Also the offset
    after that line (``-1`` without a line feed before ``n``)."""
    nl = data.find(b"\n", line, n)
    if nl < 0:
        return False, -1
    if _NOT_A_CANDIDATE.match(data, line, nl):
        return False, nl + 1
    if nl - line <= ENVELOPE_BYTES and _ENVELOPE.fullmatch(data, line, nl):
        return True, nl + 1
    return begins_header(data, pos=nl + 1, end=n), nl + 1


def begins_header(data: Data, *, pos: int = 0, end: int | None = None) -> bool:
    """True when the lines at ``pos`` begin a message header: the first is a header field, and
    the fields before the section's end (an empty line, a line that is neither a field nor a
    continuation, or ``end``) include one of :data:`MAIL_FIELDS` (M20; also how
    :func:`onemail.message.containers.recognise` tells a message from other text).

    :raises TypeError: ``data`` is not ``bytes``, ``bytearray`` or ``mmap``.
    """
    _check_data(data)
    n = len(data) if end is None else min(end, len(data))
    found, first, _, _ = _section(data, pos, n)
    return bool(found and first)


def is_separator(data: Data, line: int, *, end: int | None = None) -> bool:
    """True when the line starting at offset ``line`` of ``data`` is a separator by the line
    rule (module docstring, M20): the first line of the mailbox starting with ``"From "``, or a
    ``"From "`` line that is an RFC 4155 envelope or is followed by a message header.

    :param data: the mailbox (``bytes``, ``bytearray`` or ``mmap``).
    :param line: a byte offset at the start of a line.
    :param end: where the mailbox ends (default ``len(data)``).
    :raises TypeError: ``data`` is not ``bytes``, ``bytearray`` or ``mmap``.
    """
    _check_data(data)
    n = len(data) if end is None else end
    if data[line:line + 5] != b"From ":
        return False
    if line == 0:
        return True
    if data[line - 1] != 0x0A:
        return False
    return _starts_message(data, line, n)[0]


MBOX_START_BYTES = 4096
"""How far into a file the empty lines before its first separator may reach (M20)."""

_BOM = b"\xef\xbb\xbf"


def mbox_start(data: Data) -> int:
    """The offset of the first separator line when ``data`` is a mailbox, else ``-1``.

    A mailbox starts with a ``"From "`` line at offset 0, or after a UTF-8 byte order mark
    (mimekit's ``unmunged.mbox.txt``), or after empty lines (CR, LF; up to
    :data:`MBOX_START_BYTES` bytes, a BOM before them allowed) when that line passes the
    separator rule (M20: an envelope, or a message header follows). The bytes before it are the
    mailbox's, like the empty line before each separator: no message's, and no issue.

    :param data: the first bytes of the input (:data:`MBOX_START_BYTES` and a little more are
        enough) or all of it.
    :returns: the byte offset into ``data`` of the first separator line, or ``-1``.

    >>> mbox_start(b"From a@b Sat Jan  1 00:00:00 2000\\n"), mbox_start(b"\\n\\nSubject: x\\n\\n")
    (0, -1)
    """
    pos = 3 if data[:3] == _BOM else 0
    if data[pos:pos + 5] == b"From ":
        return pos
    j, n = pos, len(data)
    limit = min(n, MBOX_START_BYTES)
    while j < limit and data[j] in (0x0D, 0x0A):
        j += 1
    if j > pos and data[j:j + 5] == b"From " and _starts_message(data, j, n)[0]:
        return j
    return -1


def next_separator(data: Data, pos: int, *, end: int | None = None) -> int:
    """The offset of the first separator line (M20, :func:`is_separator`) starting at or after
    ``pos``, or ``-1``. A shard of a mailbox cut at such an offset starts with a message.

    A line inside a message's ``Content-Length`` body (M22) can meet the line rule; the
    sequential read then ignores it (and reports it), a cut there does not: cut only at
    separators, and such a rare message is split in two.

    :param data: the mailbox. :param pos: a byte offset (any). :param end: where it ends.
    :raises TypeError: ``data`` is not ``bytes``, ``bytearray`` or ``mmap``.
    """
    _check_data(data)
    n = len(data) if end is None else end
    if pos <= 0:
        if data[:5] == b"From ":
            return 0
        pos = 1
    j = pos - 1
    while True:
        j = data.find(b"\nFrom ", j, n)
        if j < 0:
            return -1
        line = j + 1
        if _starts_message(data, line, n)[0]:
            return line
        j = line


def spans(data: Data, *, start: int = 0, end: int | None = None) -> Iterator[MboxSpan]:
    """Yield every message of the mailbox ``data[start:end]`` as an :class:`MboxSpan`, in order
    (module docstring: the separator rule, Content-Length, quoting).

    :param data: the mailbox (``bytes`` or an ``mmap``: only offsets are kept, nothing copied).
    :param start: where the mailbox starts: 0, or a separator found by :func:`next_separator`
        (a shard); the line there must start with ``"From "``, else nothing is yielded.
    :param end: where it ends (default ``len(data)``): a shard's end is the next shard's start.

    A ``"From "`` line without a line feed separates nothing (nothing after it).

    :raises TypeError: ``data`` is not ``bytes``, ``bytearray`` or ``mmap`` (at the first step).
    """
    _check_data(data)
    n = len(data) if end is None else min(end, len(data))
    for span, _ in split(data, start, n):
        yield span


SCAN_BYTES = 1 << 18
"""Bytes searched at a time, ahead of the split, for the lines the rules look at
(:class:`_Marks`): the marks of one such piece are held at a time."""

# The lines the rules look at, after their line feed: a candidate separator ("From "), and a line
# where a Content-Length field can be (its name, any case). One search finds both.
_MARK = re.compile(rb"\n(?=From |(?i:content-length))")
_MARK_LOOK = 15  # bytes the search looks at from a match's start
FROMS, LENGTHS = 0, 1
"""The two kinds of marks (:meth:`ListedMarks.first`): before ``"From "`` lines, before
``content-length`` lines."""


class _Marks:
    """The line feeds before ``"From "`` lines (:attr:`froms`) and before lines starting with
    ``content-length`` in any case (:attr:`lengths`) in ``data[:n]``, found :data:`SCAN_BYTES`
    at a time by the regular-expression engine, ahead of the queries; the queries of each kind
    come in ascending order of their start (each byte is searched once)."""

    __slots__ = ("data", "done", "froms", "lengths", "n")

    def __init__(self, data: Data, n: int) -> None:
        self.data, self.n = data, n
        self.froms: deque[int] = deque()
        self.lengths: deque[int] = deque()
        self.done = 0  # every mark before this offset is in the deques (or was dropped)

    def first(self, kind: int, a: int, b: int) -> int:
        """The first offset of the marks of ``kind`` (:data:`FROMS`: :attr:`froms`;
        :data:`LENGTHS`: :attr:`lengths`) in ``[a, b)``, or -1 (searches no further than the
        piece that holds ``b``)."""
        marks = self.lengths if kind else self.froms
        while True:
            while marks and marks[0] < a:
                marks.popleft()
            if marks:
                j = marks[0]
                return j if j < b else -1
            if self.done >= b or self.done >= self.n:
                return -1
            self._search()

    def _search(self) -> None:
        lo, data = self.done, self.data
        hi = min(self.n, lo + SCAN_BYTES)
        froms, lengths = self.froms, self.lengths
        # a match before hi is seen whole with the bytes up to hi + _MARK_LOOK - 1 (a "From "
        # line needs its six bytes before n, as a find of b"\nFrom " does)
        for m in _MARK.finditer(data, lo, min(self.n, hi + _MARK_LOOK - 1)):
            j = m.start()
            if j >= hi:
                break
            if data[j + 1] == 0x46:  # "F"
                if j + 6 <= self.n:
                    froms.append(j)
            else:
                lengths.append(j)
        self.done = hi


# The same marks, a "From " line that is a whole RFC 4155 envelope (not a "From :" field) told
# apart by the search itself (group 1: the line without its line feed, as _ENVELOPE.fullmatch
# takes it in _starts_message).
_LISTED_MARK = re.compile(
    rb"\n(?=From |(?i:content-length))(?:(?!From[ \t]*:)(" + _ENVELOPE.pattern + rb")(?=\n))?")


class ListedMarks:
    """Every mark of ``data[:n]`` (:class:`_Marks`: the line feeds before ``"From "`` lines and
    before ``content-length`` lines) found by one search, for queries in any order (by
    bisection), and the ``"From "`` lines that are separators by their own line (an RFC 4155
    envelope of at most :data:`ENVELOPE_BYTES`, not a field: M20), with where each ends.

    :ivar froms: the offsets of the line feeds before ``"From "`` lines, ascending.
    :ivar lengths: those before ``content-length`` lines (any case), ascending.
    :ivar envelopes: for each line feed of :attr:`froms` whose line is an envelope, the offset
        of the line feed that ends that line.
    """

    __slots__ = ("envelopes", "froms", "lengths")

    def __init__(self, data: Data, n: int) -> None:
        froms: list[int] = []
        lengths: list[int] = []
        envelopes: dict[int, int] = {}
        for m in _LISTED_MARK.finditer(data, 0, n):
            j = m.start()
            line, nl = m.span(1)
            if line >= 0:
                froms.append(j)
                if nl - line <= ENVELOPE_BYTES:
                    envelopes[j] = nl
            elif data[j + 1] == 0x46:  # "F"
                froms.append(j)
            else:
                lengths.append(j)
        self.froms, self.lengths, self.envelopes = froms, lengths, envelopes

    def first(self, kind: int, a: int, b: int) -> int:
        """The first offset of the marks of ``kind`` (:data:`FROMS`: :attr:`froms`;
        :data:`LENGTHS`: :attr:`lengths`) in ``[a, b)``, or -1."""
        marks = self.lengths if kind else self.froms
        i = bisect_left(marks, a)
        return marks[i] if i < len(marks) and marks[i] < b else -1


def split(data: Data, start: int, n: int, *,
          marks: _Marks | ListedMarks | None = None) -> Iterator[tuple[MboxSpan, bool]]:
    """:func:`spans` of ``data[start:n]`` (``n <= len(data)``), each with whether a
    ``Content-Length`` field could be in its header section (a line starting with
    ``content-length``, any case, before the separator the line rule finds after it): when
    ``False``, no length can end it (M22) and the line rule (M20) alone did.

    The lines the rules look at, ``"From "`` lines and ``content-length`` lines, are found by
    the regular-expression engine a piece at a time (:class:`_Marks`), or taken from ``marks``
    (a :class:`ListedMarks` of ``data[:n]``); the header section after a separator is read only
    when such a line is in it.
    """
    if data[start:start + 5] != b"From ":
        return
    if marks is None:
        marks = _Marks(data, n)
    first_mark = marks.first
    sep = start
    while True:
        nl = data.find(b"\n", sep, n)
        if nl < 0:
            return
        first = nl + 1
        # the line rule (M20): the next separator, and the "From " lines before it
        unsplit: list[int] = []
        nxt = -1
        j = first_mark(FROMS, first - 1, n)
        while j >= 0:
            line = j + 1
            if _starts_message(data, line, n)[0]:
                nxt = line
                break
            unsplit.append(line)
            j = first_mark(FROMS, line, n)
        stop = n if nxt < 0 else nxt
        # the header section ends before the line rule's next separator (a separator line is
        # neither a field nor a continuation): a Content-Length field is between them if anywhere
        has_length = first_mark(LENGTHS, first - 1, stop) >= 0
        if has_length:
            length, body = _length_field(data, first, n)
            if length is not None and body >= 0 and body + length <= n:
                target = body + length
                after = _length_target(data, target, n)
                if after is not None:
                    conflict, quoted = _inside_length(data, body, target)
                    yield MboxSpan(first, target, sep, True, quoted, (), conflict), True
                    if after < 0:
                        return
                    sep = after
                    continue
        yield MboxSpan(first, trim_end(data, first, stop), sep, False, True, tuple(unsplit)), has_length
        if nxt < 0:
            return
        sep = nxt


_LOOK = (4 << 10, 64 << 10)  # bytes :func:`_length_field` looks through for a header's end


def _length_field(data: Data, first: int, n: int) -> tuple[int | None, int]:
    """The ``Content-Length`` value and body offset :func:`_section` gives for the header at
    ``first`` (the byte after a separator line), without walking its lines when the text
    ``content-length`` (any case) is nowhere before its first empty line (looked for in the
    first 4 KiB, then 64 KiB: :data:`_LOOK`): then no field can give a length
    (``(None, -1)``)."""
    for size in _LOOK:
        look = min(n, first + size)
        lf = data.find(b"\n\n", first - 1, look)  # first - 1: the separator line's line feed
        crlf = data.find(b"\n\r\n", first - 1, look if lf < 0 else lf + 2)
        end = crlf if crlf >= 0 else lf
        if end >= 0:
            if b"content-length" not in data[first:end].lower():
                return None, -1
            break
    _, _, length, body = _section(data, first, n)
    return length, body


def _length_target(data: Data, target: int, n: int) -> int | None:
    """Where the next separator is when a Content-Length body ends at ``target``: its offset,
    ``-1`` at the end of the mailbox (line ends aside), ``None`` when the length is wrong."""
    rest = data[target:min(n, target + 4)]
    if not bytes(rest).strip(b"\r\n") and target + 4 >= n:
        return -1
    for skip in (b"", b"\n", b"\r\n", b"\n\n", b"\r\n\r\n"):
        line = target + len(skip)
        if data[line - 1:line] != b"\n":
            continue
        if data[target:line] == skip and data[line:line + 5] == b"From ":
            nl = data.find(b"\n", line, n)
            if nl >= 0 and not _NOT_A_CANDIDATE.match(data, line, nl) and begins_header(data, pos=nl + 1, end=n):
                return line
    return None


def _inside_length(data: Data, body: int, target: int) -> tuple[int | None, bool]:
    """``(conflict, quoted)`` of a Content-Length body ``data[body:target]``: the first line the
    line rule would take as a separator, and whether ``>From`` quoting is undone (no unquoted
    ``"From "`` line in it)."""
    conflict, quoted = None, True
    j = body - 1
    while True:
        j = data.find(b"\nFrom ", j, target)
        if j < 0:
            return conflict, quoted and data[body:body + 5] != b"From "
        line = j + 1
        quoted = False
        if conflict is None and _starts_message(data, line, target)[0]:
            conflict = line
        j = line


def trim_end(data: Data, first: int, end: int) -> int:
    """The end of a message whose bytes run to ``end`` (a separator line or the mailbox's end):
    without the empty line that ends it there (``\\n`` or ``\\r\\n``), not before ``first``
    (the message's first byte). Offsets into ``data``."""
    if end - 2 >= first and data[end - 2:end] == b"\n\n":
        return end - 1
    if end - 3 >= first and data[end - 3:end] == b"\n\r\n":
        return end - 2
    return end


def mbox_spans(data: Data, *, start: int = 0, end: int | None = None) -> Iterator[tuple[int, int]]:
    """Yield ``(start, end)`` of each message of an mbox (:func:`spans`), separator lines and
    the mbox's empty lines excluded."""
    for s in spans(data, start=start, end=end):
        yield s.start, s.end


def unquote(chunk: Data) -> tuple[bytes, list[int]]:
    """Undo ``>From`` quoting (M21) of one message's bytes: one ``>`` removed from each line
    matching ``">+From "``.

    :returns: the bytes, and the offsets into ``chunk`` of the lines changed.
    """
    chunk = bytes(chunk)
    if b">From " not in chunk:
        return chunk, []
    lines = [m.start() for m in _QUOTED.finditer(chunk)]
    return _QUOTED.sub(rb"\1", chunk), lines


def read_span(data: Data, span: MboxSpan, ctx: ReadContext) -> Message:
    """Read one message of a mailbox (its bytes unquoted when :attr:`MboxSpan.quoted`), with the
    issues of the mbox rules (``mbox`` place, offsets into the span) added to its own."""
    chunk = data[span.start:span.end]
    lines: list[int] = []
    if span.quoted:
        chunk, lines = unquote(chunk)
    else:
        chunk = bytes(chunk)
    msg = ctx.dispatch(chunk, "mbox", ctx)
    extra: list[MessageIssue] = []
    for line in span.unsplit:
        extra.append(MessageIssue(MessageIssueKind.AMBIGUOUS_MBOX_SEPARATOR, "mbox", line - span.start,
                                  _line_length(data, line, span.end)))
    if span.length_conflict is not None:
        extra.append(MessageIssue(MessageIssueKind.AMBIGUOUS_MBOX_CONTENT_LENGTH, "mbox",
                                  span.length_conflict - span.start,
                                  _line_length(data, span.length_conflict, span.end)))
    for line in lines:
        extra.append(MessageIssue(MessageIssueKind.AMBIGUOUS_MBOX_QUOTING, "mbox", line, 1))
    if not extra:
        return msg
    return replace(msg, issues=(*msg.issues, *bounded(extra)))


def _line_length(data: Data, line: int, end: int) -> int:
    nl = data.find(b"\n", line, end)
    stop = end if nl < 0 else nl
    if stop > line and data[stop - 1] == 0x0D:
        stop -= 1
    return stop - line
