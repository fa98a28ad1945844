"""The header section of a message or MIME part: raw fields in order, with their byte offsets.

Implements RFC 5322 sections 2.2 and 3.6.8 (and the obsolete syntax of 4.5: white space before
the colon) with the tolerance real mail needs:

* A field is a line starting with a name of printable US-ASCII except ``:`` (RFC 5322 ``ftext``),
  optional white space, and ``:``; a line starting with ``--`` is a MIME delimiter, never a field
  (``----9-2741=:18061`` reads as a name and a colon: spamassassin's spam 015). Lines starting with a space or a tab continue (fold) the field
  before them; the value keeps its folds (CR LF included), so offsets into it are offsets into the
  message, and decoding unfolds it.
* Only an empty line ends the header section (M10). A line that is neither a field nor a fold
  (no colon, a name with spaces or 8-bit bytes, junk such as U+00A0 before the name) is a
  ``MalformedHeader`` issue and reading goes on with the next line, as long as a field follows
  before the empty line and no MIME delimiter line (``--...``) comes first. When no field
  follows (the body started without its empty line), or a delimiter line does, or no empty line
  exists at all, the body starts at that line (``MalformedHeader`` of length 0 at that point):
  no body text is taken for a header.
* A line ``name=value`` right after a field whose value ends with ``;`` is a parameter that lost
  the white space of its fold: it continues that field (``MalformedHeader`` still reported).
* A value longer than :data:`~onemail.message.formats.MAX_HEADER_BYTES` is kept up to that
  length; :attr:`Field.length` still gives its true length.

Only LF and CR LF end lines (the corpus holds no message with bare CR line ends).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .formats import MAX_HEADER_BYTES
from .issues import MessageIssueKind
from .model import MessageIssue

__all__ = ["MAX_FIELDS", "READ_FIELDS", "Field", "find", "split_header"]

MAX_FIELDS = 10_000
"""Fields of one header section kept (M56): past it, only the first field of each name of
:data:`READ_FIELDS` not yet seen is kept, the rest are one ``TooManyHeaderFields`` issue. A field
costs about 170 bytes of objects, so a million 8-byte fields took 306 MB (38 times the input);
the most in one corpus message is 125."""

READ_FIELDS = frozenset({
    b"content-type", b"content-transfer-encoding", b"content-disposition", b"content-id",
    b"mime-version", b"from", b"sender", b"reply-to", b"to", b"cc", b"bcc", b"subject", b"date",
    b"message-id", b"in-reply-to", b"references",
})
"""Field names (lower case) whose values the reader and the records use."""

_NAME = re.compile(rb"[\x21-\x39\x3b-\x7e]+[ \t]*:")
#: one well-formed field with its folds (the fast path; anything else goes line by line)
_WHOLE = re.compile(rb"(?!--)([\x21-\x39\x3b-\x7e]+)[ \t]*:[ \t]*([^\n]*(?:\n[ \t][^\n]*)*)\n?")
_NEXT_FIELD = re.compile(rb"\n[\x21-\x39\x3b-\x7e]+[ \t]*:")
_BLANK = re.compile(rb"\n\r?\n")
_PARAMETER = re.compile(rb"[!#$%&'*+.^_`|~0-9A-Za-z-]+\*?[0-9]*\*?[ \t]*=")
_WSP = b" \t"


class Field(NamedTuple):
    """One header field as it stands in the message.

    :param name: the field name as written, without the colon and the white space before it.
    :param value: the raw value: the bytes after the colon, white space at the start of the first
        line removed, the final line end removed, folds kept; cut at ``MAX_HEADER_BYTES``.
    :param offset: byte offset of ``value`` in the bytes that were parsed.
    :param length: the true length of the value in bytes (more than ``len(value)`` when cut).
    """

    name: bytes
    value: bytes
    offset: int
    length: int

    @property
    def lower_name(self) -> bytes:
        """The name in ASCII lower case (field names are case-insensitive, RFC 5322 1.2.2)."""
        return self.name.lower()


def split_header(data: bytes, start: int, end: int, *, issues: list[MessageIssue] | None,
                 where: str) -> tuple[list[Field], int]:
    """Split the header section at ``data[start:end]`` into fields (module docstring).

    :param data: the bytes of the message (or of the enclosing message for a MIME part).
    :param start: byte offset of the section's first line.
    :param end: byte offset where the entity ends (the body cannot run past it).
    :param issues: list to append ``MalformedHeader`` issues to (offsets into ``data``), or None.
    :param where: the place of those issues (``"headers"``, ``"part:1.2/headers"``).
    :returns: ``(fields in order, byte offset where the body starts)``.
    """
    if start >= end:
        return [], end
    first = data[start]
    if first == 0x0A:
        return [], start + 1
    if first == 0x0D and start + 1 < end and data[start + 1] == 0x0A:
        return [], start + 2
    m = _BLANK.search(data, start, end)
    if m is not None:
        block_end, body, blank = m.start() + 1, m.end(), True
    else:
        block_end, body, blank = end, end, False
    fields: list[Field] = []
    # past MAX_FIELDS (M56): the offset of the first field dropped (-1: none), the names kept
    dropped_at = -1
    kept: set[bytes] | None = None

    def add(name_start: int, name_end: int, value_start: int, stop: int) -> bool:
        nonlocal dropped_at, kept
        field = _field(data, name_start, name_end, value_start, stop)
        if len(fields) < MAX_FIELDS:
            fields.append(field)
            return True
        if kept is None:
            kept = {f.name.lower() for f in fields} & READ_FIELDS
        low = field.name.lower()
        if low in READ_FIELDS and low not in kept:
            kept.add(low)
            fields.append(field)
            return True
        if dropped_at < 0:
            dropped_at = name_start
        return False

    name_start = name_end = value_start = -1  # the field being read
    junk = -1  # start of a run of malformed lines
    next_field = -1  # offset of the next field line after a malformed one (cached look-ahead)
    last = (-1, -1, -1)  # name start, name end, value start of the field appended last
    pos = start
    whole = _WHOLE.match
    while pos < block_end:
        if name_start < 0 and junk < 0:
            m = whole(data, pos, block_end)
            if m is not None:  # a whole field, folds included
                # (a field dropped past MAX_FIELDS is not reopened by a parameter line below)
                last = (pos, m.end(1), m.start(2)) if add(pos, m.end(1), m.start(2), m.end()) else (-1, -1, -1)
                pos = m.end()
                continue
        nl = data.find(b"\n", pos, block_end)
        line_end = block_end if nl < 0 else nl + 1
        if data[pos] in _WSP:  # a fold: continues the field (or the malformed run) above
            if name_start < 0 and junk < 0:
                junk = pos  # a fold with no field above it
            pos = line_end
            continue
        m = _NAME.match(data, pos, line_end) if not data.startswith(b"--", pos) else None
        if m is not None:
            if name_start >= 0:
                add(name_start, name_end, value_start, pos)
            elif junk >= 0:
                _malformed(issues, where, data, junk, pos)
            junk = -1
            name_start, value_start = pos, m.end()
            name_end = value_start - 1
            while data[name_end - 1] in _WSP:
                name_end -= 1
            pos = line_end
            continue
        # neither a field nor a fold
        if name_start < 0 and junk < 0 and fields and last[0] >= 0 and _PARAMETER.match(data, pos, line_end) \
                and _ends_with_semicolon(data, last[2], pos):
            fields.pop()  # the field above is open again: this line continues it
            name_start, name_end, value_start = last
        if name_start >= 0 and _PARAMETER.match(data, pos, line_end) and _ends_with_semicolon(
                data, value_start, pos):
            # a parameter that lost the white space of its fold ("...;\r\nname=x", enmime's
            # bad-header-wrap): read as a fold of its field, and reported
            _malformed(issues, where, data, pos, line_end)
            pos = line_end
            continue
        if blank and next_field < pos:
            f = _NEXT_FIELD.search(data, line_end - 1, block_end)
            next_field = f.start() + 1 if f is not None else block_end
            # a MIME delimiter line ("--...") before that field: the body has begun (enmime's
            # qp-utf8-header-no-break: a preamble and the first part's fields, no empty line)
            if data.startswith(b"--", pos) or 0 <= data.find(b"\n--", pos, next_field) < next_field:
                next_field = block_end
        if blank and next_field < block_end:
            if name_start >= 0:
                add(name_start, name_end, value_start, pos)
                name_start = -1
            if junk < 0:
                junk = pos
            pos = line_end
            continue
        # the body starts here: no field follows, or no empty line ends the section
        if name_start >= 0:
            add(name_start, name_end, value_start, pos)
            name_start = -1
        if junk >= 0:
            _malformed(issues, where, data, junk, pos)
            junk = -1
        if issues is not None:
            issues.append(MessageIssue(MessageIssueKind.MALFORMED_HEADER, where, pos, 0))
        _too_many(issues, where, dropped_at, pos)
        return fields, pos
    if name_start >= 0:
        add(name_start, name_end, value_start, block_end)
    if junk >= 0:
        _malformed(issues, where, data, junk, block_end)
    _too_many(issues, where, dropped_at, block_end)
    return fields, body


def _too_many(issues: list[MessageIssue] | None, where: str, dropped_at: int, end: int) -> None:
    """The ``TooManyHeaderFields`` issue of a section past :data:`MAX_FIELDS` (M56): from the
    first field dropped (``dropped_at``, -1 for none) to the section's end."""
    if dropped_at >= 0 and issues is not None:
        issues.append(MessageIssue(MessageIssueKind.TOO_MANY_HEADER_FIELDS, where, dropped_at, end - dropped_at))


def _ends_with_semicolon(data: bytes, start: int, stop: int) -> bool:
    """True when the field value ``data[start:stop]`` ends with ``;`` before its line end."""
    end = stop
    while end > start and data[end - 1] in b" \t\r\n":
        end -= 1
    return end > start and data[end - 1] == 0x3B


def _field(data: bytes, name_start: int, name_end: int, value_start: int, stop: int) -> Field:
    """The field whose name is ``data[name_start:name_end]`` and whose lines end before ``stop``."""
    while value_start < stop and data[value_start] in _WSP:
        value_start += 1
    value_end = stop
    while value_end > value_start and data[value_end - 1] in b"\r\n":
        value_end -= 1
    length = value_end - value_start
    cut = min(value_end, value_start + MAX_HEADER_BYTES)
    return Field(data[name_start:name_end], data[value_start:cut], value_start, length)


def _malformed(issues: list[MessageIssue] | None, where: str, data: bytes, start: int,
               stop: int) -> None:
    """One ``MalformedHeader`` for the lines ``data[start:stop]`` (their final line end left out)."""
    if issues is None:
        return
    end = stop
    while end > start and data[end - 1] in b"\r\n":
        end -= 1
    issues.append(MessageIssue(MessageIssueKind.MALFORMED_HEADER, where, start, end - start))


def find(fields: list[Field], name: bytes) -> Field | None:
    """Return the first field called ``name`` (lower-case bytes), or ``None``."""
    for f in fields:
        if len(f.name) == len(name) and f.name.lower() == name:
            return f
    return None
