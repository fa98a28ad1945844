"""Content-Transfer-Encoding: base64, quoted-printable and uuencode bodies, damage reported.

RFC 2045 sections 6.7 and 6.8. The bytes are decoded by CPython's ``binascii`` (C code), in
chunks of about a megabyte, so that memory stays near the size of the body; damage is found by
scans that run only when a fast check fails.

* base64 (6.8): characters outside the alphabet (other than white space) are skipped, each run
  one ``InvalidBase64``; a tail that is not a whole quantum is ``InvalidBase64`` (the bytes that
  can be decoded are kept, as in RFC 2047 B decoding, spec 000). The data ends where it plainly
  ends (M13): after the line that holds the padding, at an empty line, or at a line holding
  characters outside the alphabet, unless base64 lines of the body's line length follow (then it
  was damage inside the data, or a second stream after padding: ``InvalidBase64``). What comes
  after the data (a mailing-list footer) is not decoded as base64: it is returned as the
  *trailer*, ``AmbiguousTextAfterBase64`` covering it.
* quoted-printable (6.7): ``=XX`` is the byte ``XX`` (lower-case hex accepted); ``=`` at the end
  of a line, white space after it allowed, is a soft line break; white space at the end of a
  line is transport padding and dropped; an ``=`` followed by anything else stays a literal
  ``=`` and decoding goes on at the next byte (``a==b ==44`` is ``a==b =D``,
  ``InvalidQuotedPrintable`` for each).
* uuencode (``x-uuencode``, ``uuencode``, ``x-uue``): the lines between ``begin MODE NAME`` and
  ``end``; a damaged line is ``InvalidUuencode`` and decoded as far as it goes.

Offsets are bytes into the encoded body as it stands in the message.
"""

from __future__ import annotations

import binascii
import functools
import re
from collections.abc import Iterator
from typing import NamedTuple

from ..text import IssueKind, TextIssue
from .issues import MessageIssueKind

__all__ = ["IDENTITY", "MAX_ISSUES_PER_BODY", "Decoded", "decode_transfer", "uu_blocks"]

MAX_ISSUES_PER_BODY = 100
"""At most this many transfer-encoding issues per body: junk input (a binary file sent as
base64 by mistake) would otherwise produce one issue per run of junk."""

CHUNK_BYTES = 1 << 20
"""Bodies are decoded in pieces of about this many bytes, cut at line ends."""

IDENTITY = frozenset({"", "7bit", "8bit", "binary"})
UUENCODE = frozenset({"x-uuencode", "uuencode", "x-uue", "uue"})


class Decoded(NamedTuple):
    """A body with its transfer encoding removed.

    :param data: the decoded bytes.
    :param trailer: bytes after the end of base64 data, as they stand (M13), else ``b""``.
    :param name: the file name of a uuencoded body's ``begin`` line, else ``None``.
    """

    data: bytes
    trailer: bytes = b""
    name: str | None = None


def decode_transfer(body: bytes, cte: str, *, issues: list[TextIssue], start: int = 0,
                    end: int | None = None) -> Decoded:
    """Remove the Content-Transfer-Encoding ``cte`` (lower case) from ``body[start:end]``.

    :param body: the bytes holding the encoded body (the whole message: the body is read in
        place, no copy of it is made).
    :param cte: ``base64``, ``quoted-printable``, a uuencode name, an identity encoding, or
        anything else.
    :param issues: list to append to (byte offsets into the body, from ``start``).
    :param start: byte offset of the body in ``body``. :param end: its end (default: the end).
    :returns: the :class:`Decoded` body.
    :issues: ``InvalidBase64``, ``AmbiguousTextAfterBase64`` (M13), ``InvalidQuotedPrintable``,
        ``InvalidUuencode``, ``AmbiguousUnknownTransferEncoding`` (M5: the body is taken as it
        stands).
    """
    if end is None:
        end = len(body)
    if cte in IDENTITY:
        return Decoded(body[start:end] if start or end != len(body) else body)
    if cte == "base64":
        return _base64(body, start, end, issues)
    if cte == "quoted-printable":
        return Decoded(_quoted_printable(body, start, end, issues))
    if cte in UUENCODE:
        found: list[TextIssue] = []
        data, name = _uudecode(body[start:end], 0, found)
        issues.extend(found)
        return Decoded(data, name=name)
    issues.append(TextIssue(MessageIssueKind.AMBIGUOUS_UNKNOWN_TRANSFER_ENCODING, 0, 0))  # type: ignore[arg-type]  # message kind
    return Decoded(body[start:end])


# ---------------------------------------------------------------------------------------------
# base64

_ALPHABET = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_NOT_B64 = bytes(sorted(set(range(256)) - set(_ALPHABET + b"=")))
_B64_CLEAN = re.compile(rb"[A-Za-z0-9+/\r\n \t]*={0,2}[\r\n \t]*\Z")
_B64_LINE = re.compile(rb"[A-Za-z0-9+/]+={0,2}[ \t\r]*")
_B64_JUNK = re.compile(rb"[^A-Za-z0-9+/=\r\n \t]+")
_BLANK_LINE = re.compile(rb"[ \t\r]*")
_PAD_RUN = re.compile(rb"=+")


def _base64(raw: bytes, start: int, end: int, issues: list[TextIssue]) -> Decoded:
    if end - start <= CHUNK_BYTES:
        if _B64_CLEAN.match(raw, start, end):
            alpha = raw[start:end].translate(None, _NOT_B64)
            if len(alpha) % 4 == 0:
                try:
                    return Decoded(binascii.a2b_base64(alpha))
                except binascii.Error:  # "=" inside a quantum: the careful path
                    pass
    stop, damaged = _data_end(raw, start, end)
    trailer = b""
    if stop < end:
        if raw[stop:end].strip():
            trailer = raw[stop:end]
            issues.append(TextIssue(MessageIssueKind.AMBIGUOUS_TEXT_AFTER_BASE64, stop - start, end - stop))  # type: ignore[arg-type]  # message kind
    n = 0
    if damaged:
        for m in _B64_JUNK.finditer(raw, start, stop):
            issues.append(TextIssue(IssueKind.INVALID_BASE64, m.start() - start, m.end() - m.start()))
            n += 1
            if n >= MAX_ISSUES_PER_BODY:
                break
    return Decoded(_decode_b64(raw, start, stop, issues, n), trailer)


def _data_end(raw: bytes, start: int, end: int) -> tuple[int, bool]:
    """Where the base64 data of ``raw[start:end]`` ends (M13), and whether a line inside it is
    damaged (holds characters outside the alphabet)."""
    pos = start
    width = 0  # the length of the first data line: every line but the last has it
    last = start  # end of the last data line (before its line break)
    damaged = False
    pending = -1  # start of an empty or damaged line whose fate the next line decides
    pending_junk = False
    while pos < end:
        nl = raw.find(b"\n", pos, end)
        line_end = end if nl < 0 else nl
        nxt = end if nl < 0 else nl + 1
        if _BLANK_LINE.fullmatch(raw, pos, line_end):
            if width and pending < 0:
                pending, pending_junk = pos, False
            pos = nxt
            continue
        if width and pending < 0:  # the common case: lines of the data's width, skipped in C
            run = _full_lines(width).match(raw, pos, min(end, pos + CHUNK_BYTES))
            assert run is not None  # a starred pattern always matches
            if run.end() > pos:
                last = run.end() - 1
                while raw[last - 1] in b"\r \t":
                    last -= 1
                pos = run.end()
                continue
        if _B64_LINE.fullmatch(raw, pos, line_end) is not None:
            size = _width(raw, pos, line_end)
            padded = raw.find(b"=", pos, line_end) >= 0
            if not width:
                width = size
            elif pending >= 0 and size != width and not padded and nxt < end:
                break  # after an empty or damaged line, only a line of the data's width goes on
            damaged = damaged or (pending >= 0 and pending_junk)
            pending = -1
            last = line_end
            if padded:  # the data ends here, unless base64 of the data's width follows
                follow = _next_line(raw, nxt, end)
                if follow is None or _B64_LINE.fullmatch(raw, *follow) is None or (
                        _width(raw, *follow) != width):
                    return _after_line(raw, last, end), damaged
            pos = nxt
            continue
        # a line with characters outside the alphabet
        if not width:  # junk before any data: damage, the data may still follow
            damaged = True
        elif pending >= 0:
            break
        else:
            pending, pending_junk = pos, True
        pos = nxt
    if pending >= 0:
        return _after_line(raw, last, end), damaged
    return end, damaged


@functools.lru_cache(maxsize=16)
def _full_lines(width: int) -> re.Pattern[bytes]:
    """A run of base64 lines of ``width`` characters without padding, each with its line break."""
    return re.compile(rb"(?:[A-Za-z0-9+/]{%d}[ \t\r]*\n)*" % width)


def _width(raw: bytes, start: int, stop: int) -> int:
    """The length of the line ``raw[start:stop]`` without trailing white space."""
    while stop > start and raw[stop - 1] in b" \t\r":
        stop -= 1
    return stop - start


def _next_line(raw: bytes, pos: int, end: int) -> tuple[int, int] | None:
    """The span of the next non-empty line at or after ``pos``, or ``None``."""
    while pos < end:
        nl = raw.find(b"\n", pos, end)
        line_end = end if nl < 0 else nl
        if not _BLANK_LINE.fullmatch(raw, pos, line_end):
            return pos, line_end
        pos = end if nl < 0 else nl + 1
    return None


def _after_line(raw: bytes, last: int, end: int) -> int:
    """The offset just after the line break that ends the data line ending at ``last``."""
    nl = raw.find(b"\n", last, end)
    return end if nl < 0 else nl + 1


def _decode_b64(raw: bytes, start: int, end: int, issues: list[TextIssue], n: int) -> bytes:
    """Decode the alphabet characters of ``raw[start:end]`` in chunks (``n`` issues so far)."""
    out: list[bytes] = []
    carry = b""
    tail_issue = False
    for pos, stop in _chunks(raw, start, end):
        alpha = carry + raw[pos:stop].translate(None, _NOT_B64)
        pos = stop
        # padding splits the data into streams: decode each run of data before an "="
        pieces = _PAD_RUN.split(alpha) if b"=" in alpha else [alpha]
        carry = b""
        for k, seg in enumerate(pieces):
            if k > 0 and seg and n < MAX_ISSUES_PER_BODY:  # data after padding
                issues.append(TextIssue(IssueKind.INVALID_BASE64, _nth_pad(raw, start, end, k) - start, 0))
                n += 1
            final = k == len(pieces) - 1
            if final and pos < end:  # more chunks follow: keep the incomplete quantum
                keep = len(seg) % 4
                if keep:
                    carry, seg = seg[-keep:], seg[:-keep]
            extra = len(seg) % 4
            if extra:
                if extra == 1 or final:
                    tail_issue = True
                seg = seg[:-1] if extra == 1 else seg + b"=" * (4 - extra)
            if seg:
                out.append(binascii.a2b_base64(seg))
    if tail_issue and n < MAX_ISSUES_PER_BODY:
        stop = end
        while stop > start and raw[stop - 1] in b"\r\n \t":
            stop -= 1
        issues.append(TextIssue(IssueKind.INVALID_BASE64, stop - start, 0))
    return b"".join(out)


def _chunks(raw: bytes, start: int, end: int) -> Iterator[tuple[int, int]]:
    """Yield ``(start, stop)`` pieces of ``raw[start:end]`` of about :data:`CHUNK_BYTES`, each
    ending at a line end (or at ``end``)."""
    pos = start
    while pos < end:
        stop = min(end, pos + CHUNK_BYTES)
        if stop < end:
            nl = raw.find(b"\n", stop, end)
            stop = end if nl < 0 else nl + 1
        yield pos, stop
        pos = stop


def _nth_pad(raw: bytes, start: int, end: int, k: int) -> int:
    """Byte offset just after the ``k``-th (from 1) run of padding characters in the body."""
    pos = start - 1
    for _ in range(k):
        pos = raw.find(b"=", pos + 1, end)
        if pos < 0:
            return end
        while pos + 1 < end and raw[pos + 1] == 0x3D:
            pos += 1
    return pos + 1


# ---------------------------------------------------------------------------------------------
# quoted-printable

# what binascii.a2b_qp does not do as RFC 2045 6.7 says: white space at a line end (also
# between a soft-break "=" and its line end) and a bad "=" ("==" it reads as one "=")
_QP_BAD = re.compile(rb"=(?![0-9A-Fa-f]{2}|[ \t]*(?:\r?\n|\Z))")
_TRAILING_CRLF = re.compile(rb"\n\r[ \t]+")  # on reversed bytes: white space before CR LF
_TRAILING_LF = re.compile(rb"\n[ \t]+")  # and before a bare LF


def _quoted_printable(raw: bytes, start: int, end: int, issues: list[TextIssue]) -> bytes:
    if raw.find(b"=", start, end) < 0 and not _trailing_space(raw, start, end):
        return raw[start:end]
    n = 0
    for m in _QP_BAD.finditer(raw, start, end):
        issues.append(TextIssue(IssueKind.INVALID_QUOTED_PRINTABLE, m.start() - start, 1))
        n += 1
        if n >= MAX_ISSUES_PER_BODY:
            break
    out = []
    for pos, stop in _chunks(raw, start, end):
        chunk = raw[pos:stop]
        if _trailing_space(chunk, 0, len(chunk)):
            chunk = _strip_line_ends(chunk)  # also turns "= \r\n" into the soft break "=\r\n"
        if n:  # a bad "=" as "=3D", which a2b_qp reads as "=" (not "==")
            chunk = _QP_BAD.sub(b"=3D", chunk)
        out.append(binascii.a2b_qp(chunk))
    return b"".join(out)


def _trailing_space(raw: bytes, start: int, end: int) -> bool:
    """True when a line of ``raw[start:end]`` ends with white space (RFC 2045 6.7 rule 3)."""
    if end > start and raw[end - 1] in b" \t":
        return True
    return any(raw.find(e, start, end) >= 0 for e in (b" \n", b"\t\n", b" \r\n", b"\t\r\n"))


def _strip_line_ends(chunk: bytes) -> bytes:
    """Drop the white space at the end of every line, line breaks kept. Done on the reversed
    bytes, where the pattern starts with a line feed (the regular expression engine then skips to
    line feeds in C instead of trying every space of the text)."""
    reverse = chunk.rstrip(b" \t")[::-1]
    return _TRAILING_LF.sub(b"\n", _TRAILING_CRLF.sub(b"\n\r", reverse))[::-1]


# ---------------------------------------------------------------------------------------------
# uuencode

_UU_BEGIN = re.compile(rb"^begin[ \t]+([0-7]{3,4})[ \t]+([^\r\n]+?)[ \t]*\r?$", re.M)
_UU_END = re.compile(rb"^end[ \t]*\r?$", re.M)


def _uudecode(raw: bytes, base: int, issues: list[TextIssue]) -> tuple[bytes, str | None]:
    """Decode the uuencoded block in ``raw`` (``begin`` line optional); ``(data, name)``."""
    m = _UU_BEGIN.search(raw)
    pos, name = (m.end(), m.group(2).decode("utf-8", "replace")) if m is not None else (0, None)
    e = _UU_END.search(raw, pos)
    stop = e.start() if e is not None else len(raw)
    out = bytearray()
    n = 0
    while pos < stop:
        nl = raw.find(b"\n", pos, stop)
        line_end = stop if nl < 0 else nl
        line = raw[pos:line_end].rstrip(b"\r")
        if line and line not in (b"`", b" "):
            try:
                out += binascii.a2b_uu(line)
            except binascii.Error:
                out += _uu_line(line)
                if n < MAX_ISSUES_PER_BODY:
                    issues.append(TextIssue(MessageIssueKind.INVALID_UUENCODE, base + pos, len(line)))  # type: ignore[arg-type]  # message kind
                    n += 1
        pos = line_end + 1
    return bytes(out), name


def _uu_line(line: bytes) -> bytes:
    """Decode a damaged uuencoded line as far as it goes (whole groups of four characters)."""
    size = (line[0] - 32) & 63
    body = line[1:]
    out = bytearray()
    for k in range(0, len(body) - 3, 4):
        try:
            out += binascii.a2b_uu(b"#" + body[k:k + 4])[:3]
        except binascii.Error:
            break
    return bytes(out[:size])


def uu_blocks(data: bytes) -> list[tuple[int, int, str, bytes]]:
    """Find uuencoded files inside a text body: ``[(start, end, name, decoded bytes), ...]``.

    A block is a ``begin MODE NAME`` line, uuencoded lines and an ``end`` line (``start`` and
    ``end`` are byte offsets of the block in ``data``, the ``end`` line and its line feed
    included). A ``begin``
    line without its ``end`` is no block (a sentence can start with "begin 644").
    """
    out: list[tuple[int, int, str, bytes]] = []
    pos = 0
    while len(out) < MAX_ISSUES_PER_BODY:
        m = _UU_BEGIN.search(data, pos)
        if m is None:
            break
        e = _UU_END.search(data, m.end())
        if e is None:
            break
        found: list[TextIssue] = []
        decoded, name = _uudecode(data[m.start():e.end()], m.start(), found)
        if found and len(found) * 2 > data.count(b"\n", m.end(), e.start()):
            pos = m.end()  # mostly not uuencode: text that happens to start with "begin 644"
            continue
        stop = e.end() + (data[e.end():e.end() + 1] == b"\n")
        out.append((m.start(), stop, name or "", decoded))
        pos = stop
    return out
