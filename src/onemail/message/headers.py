"""Header values: decoded text, the charset of raw 8-bit header text, MIME parameters.

Every value is decoded from its raw bytes (:class:`~onemail.message.fields.Field`) by the text
layer: ``onemail.text.rfc2047`` for encoded words and raw 8-bit text, ``onemail.text.rfc2231`` for
Content-Type / Content-Disposition parameters. Address lists are :mod:`.addresses`, dates
:mod:`.dates`.
"""

from __future__ import annotations

import re

from ..text import IssueKind, TextIssue, for_label
from ..text.charsets import Charset, is_us_ascii_label
from ..text.issues import BoundedIssues
from ._pieces import decode_header_text, detect_charset, header_params, known_charset
from .fields import Field
from .formats import MAX_HEADER_BYTES
from .issues import MessageIssueKind
from .model import MAX_ISSUES, Header, MessageIssue, bounded

__all__ = ["decode_header", "parameters", "raw_8bit_fallback", "token"]

_W1252 = known_charset("windows-1252")

#: Body charsets that say nothing about raw header bytes that are not UTF-8.
_NO_HINT = frozenset({"utf-8", "utf-16le", "utf-16be", "utf-32le", "utf-32be", "utf-7", "replacement"})


def raw_8bit_fallback(fields: list[Field], *, body_label: str | None = None,
                      body: bytes = b"") -> Charset | None:
    """The charset for raw 8-bit header text that is not UTF-8, or None when there is none (M9).

    The 8-bit values of all header fields of one message are taken together: one sender writes
    all of a message's headers in one charset, and usually its text body too. So the charset its
    first text part declares (``body_label``, not UTF-8 nor US-ASCII) is used when the header
    bytes decode in it without errors; otherwise the detector reads the header bytes, followed by
    up to 4 KiB of that part's ``body`` (transfer encoding removed) when the body is 8-bit and not
    UTF-8 (more text, better detection: a 30-byte subject alone is a guess). The rfc2047 decoder
    reports each use of the charset (``AmbiguousRaw8Bit``).

    :param fields: the header fields of the message (or of one part).
    :param body_label: the ``charset`` parameter of the first text part, as written.
    :param body: that part's body after the transfer encoding.
    """
    chunks = []
    for f in fields:
        value = f.value
        if not value.isascii():
            try:
                value.decode("utf-8")
            except UnicodeDecodeError:
                chunks.append(value[:4096])
    if not chunks:
        return None
    data = b"\n".join(chunks)
    declared = for_label(body_label) if body_label else None
    if declared is not None and body_label and declared.key not in _NO_HINT and not is_us_ascii_label(body_label):
        found: list[TextIssue] = []
        declared.decode(data, found)
        if not any(not i.kind.is_ambiguous for i in found):
            return declared
    if body and not body.isascii():
        try:
            body.decode("utf-8")
        except UnicodeDecodeError:
            data += b"\n" + body[:4096]
    return detect_charset(data)


def decode_header(field: Field, *, fallback: Charset | None = None) -> Header:
    """Decode one header field.

    :param field: the raw field (:func:`onemail.message.fields.split_header`).
    :param fallback: charset for raw 8-bit text that is not UTF-8 (default windows-1252, M9).
    :returns: a :class:`Header`; its issues are at ``header:<Name>``, byte offsets into the raw
        value.
    :issues: the rfc2047 decoder's issues; ``HeaderTooLong`` for a value over 1 MiB (offset
        ``MAX_HEADER_BYTES``, length the bytes left out).
    """
    data = field.value
    name = field.name
    name_text = name.decode("ascii") if name.isascii() else decode_header_text(name, None, 0)
    if data.isascii() and b"=?" not in data and b"\n" not in data and b"\r" not in data \
            and b"\x1b" not in data and field.length <= MAX_HEADER_BYTES:  # ESC: raw ISO-2022 (T84)
        return Header(name_text, data.decode("ascii"), (), data, field.offset)
    found = BoundedIssues()
    text = decode_header_text(data, found, 0, fallback or _W1252)
    where = f"header:{name_text}"
    issues = MessageIssue.placed(where, found)
    if len(issues) > 1:
        issues.sort(key=_issue_order)
    if field.length > MAX_HEADER_BYTES:
        issues.append(MessageIssue(MessageIssueKind.HEADER_TOO_LONG, where, MAX_HEADER_BYTES,
                                   field.length - MAX_HEADER_BYTES))
    return Header(name_text, text, tuple(issues), data, field.offset)


def _issue_order(issue: MessageIssue) -> tuple[bool, int]:
    return issue.kind is IssueKind.TOO_MANY_ISSUES, issue.offset


def parameters(raw: bytes, where: str, *, issues: list[MessageIssue],
               fallback: Charset | None = None) -> tuple[str, dict[str, str]]:
    """Decode a Content-Type / Content-Disposition value: its main value and its parameters.

    RFC 2045 5.1 and RFC 2183 with RFC 2231 continuations and extended values, RFC 2047 words in
    quoted strings, raw 8-bit values, comments (:func:`onemail.text.parse_header_params`).
    Parameter issues are added to ``issues`` as ``<where>/<parameter name>``.

    :param raw: the raw value bytes.
    :returns: ``(main value as written, lower-case parameter name -> decoded value)``; the first
        occurrence of a name wins.
    """
    if b"=" not in raw:
        return token(raw), {}
    if raw.isascii() and b"(" not in raw and b"*" not in raw and b"=?" not in raw and b"\\" not in raw \
            and b"\x1b" not in raw:
        simple = _simple_parameters(raw)
        if simple is not None:
            return simple
    # at most MAX_ISSUES per parameter from the text layer (issue 16: its memory follows the
    # bound); the last, TooManyIssues, counts the rest, so bounded() below gives what it gives
    # on every issue
    main, params = header_params(raw, fallback or _W1252, max_issues=MAX_ISSUES)
    out: dict[str, str] = {}
    found: list[MessageIssue] = []
    for p in params:
        key = p.name.lower()
        if key in out:
            continue
        out[key] = p.value
        found.extend(MessageIssue.at(f"{where}/{key}", i) for i in p.issues)
        if p.dropped:
            last = found[-1]
            found[-1] = MessageIssue(last.kind, last.where, last.offset, last.length, p.dropped)
    issues.extend(bounded(found))
    return main, out


# The fast path: ``type/subtype; name=token; name="quoted"`` with no comment, RFC 2231 name,
# encoded word, escape or 8-bit byte; anything else goes through parse_header_params.
_TOKEN = rb"[!#$%&'+.0-9A-Z^_`a-z{|}~-]+"
_SIMPLE_MAIN = re.compile(rb"[ \t]*(" + _TOKEN + rb"(?:/" + _TOKEN + rb")?)[ \t]*")
_SIMPLE_PARAM = re.compile(rb";[ \t\r\n]*(" + _TOKEN + rb")[ \t]*=[ \t]*(?:(" + _TOKEN + rb")|\"([^\"\r\n]*)\")[ \t\r\n]*")


def _simple_parameters(raw: bytes) -> tuple[str, dict[str, str]] | None:
    """``(main value, parameters)`` of a plain value, or ``None`` when it needs the parser."""
    m = _SIMPLE_MAIN.match(raw)
    if m is None:
        return None
    out: dict[str, str] = {}
    pos, n = m.end(), len(raw)
    while pos < n:
        p = _SIMPLE_PARAM.match(raw, pos)
        if p is None:
            return None
        name, token_value, quoted = p.groups()
        out.setdefault(name.decode("ascii").lower(), (token_value if quoted is None else quoted).decode("ascii"))
        pos = p.end()
    return m.group(1).decode("ascii"), out


_COMMENT_BYTES = re.compile(rb"[()\\]")


def strip_comments(raw: bytes) -> bytes:
    """``raw`` with each RFC 5322 comment (section 3.2.2: nested, a backslash quoting the next
    byte inside) replaced by one space; a ``(`` that never closes and a stray ``)`` stay as
    they are, with the comments inside the unclosed one replaced.

    Linear in ``len(raw)`` (each byte is copied once and dropped at most once; a regular
    expression for one comment level, applied to a fixed point, was quadratic on ``(\\(\\(...``).

    >>> strip_comments(b"(a (nested) one) base64 (\\)) x")
    b'  base64   x'
    """
    if b"(" not in raw:
        return raw
    out = bytearray()
    opened: list[int] = []  # out's length at each unclosed "("
    last = skip = 0
    for m in _COMMENT_BYTES.finditer(raw):
        i = m.start()
        if i < skip:  # the byte a backslash quotes
            continue
        c = raw[i]
        if c == 0x5C:
            if opened:
                skip = i + 2
            continue
        out += raw[last:i]
        last = i + 1
        if c == 0x28:
            opened.append(len(out))
            out.append(0x28)
        elif opened:
            del out[opened.pop():]
            out.append(0x20)
        else:
            out.append(0x29)
    out += raw[last:]
    return bytes(out)


def token(raw: bytes) -> str:
    """The first token of a structured value, comments and quotes removed, in lower case.

    For Content-Transfer-Encoding (``(comment) base64``, ``"quoted-printable"``) and the main
    value of a value without parameters (``"attachment"``).
    """
    raw = strip_comments(raw)
    value = raw.split(b";", 1)[0].strip(b" \t\r\n")
    if value[:1] == b'"':
        value = value.strip(b'"').strip()
    return value.decode("latin-1").lower()
