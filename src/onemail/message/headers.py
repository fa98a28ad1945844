"""Header fields: decoded values, address lists, dates, Content-Type/-Disposition parameters.

Every value is decoded from its raw bytes by the text layer (``onemail.text.rfc2047`` for
encoded words and raw 8-bit text, ``onemail.text.rfc2231`` for parameters); the stdlib ``email``
package is used only to split address lists (``email.utils.getaddresses``) and to parse dates.
"""

from __future__ import annotations

import email.utils
from datetime import datetime

from ..text import TextIssue, for_label
from ..text.charsets import Charset
from ._pieces import ASCII_LABELS, decode_header_text, detect_charset, header_params
from .issues import MessageIssueKind
from .model import Address, Header, MessageIssue

__all__ = ["MAX_HEADER_BYTES", "addresses", "decode_header", "parameters", "parse_date", "raw"]

_W1252 = for_label("windows-1252")

MAX_HEADER_BYTES = 1 << 20
"""A header value longer than 1 MiB is decoded up to that length (``HeaderTooLong`` for the
rest). RFC 5322 section 2.1.1 limits a line to 998 bytes; the longest header value in the
corpus (../shared/corpus/mail) is far below 1 MiB, so only hostile input is cut."""


def raw(value: str) -> bytes:
    """Return the raw bytes of a value the compat32 parser gave (8-bit bytes as surrogates)."""
    return value.encode("ascii", "surrogateescape")


def raw_8bit_fallback(pairs, body_label: str | None = None, body: bytes = b"") -> Charset | None:
    """The charset for raw 8-bit header text that is not UTF-8, or None when there is none (M9).

    The 8-bit values of all header fields of one message (``pairs`` from the compat32 parser)
    are taken together: one sender writes all of a message's headers in one charset, and
    usually its text body too. So the charset its first text part declares (``body_label``,
    not UTF-8 nor US-ASCII) is used when the header bytes decode in it without errors;
    otherwise the detector reads the header bytes, followed by up to 4 KiB of that part's
    ``body`` (transfer encoding removed) when the body is 8-bit and not UTF-8 (more text,
    better detection: a 30-byte subject alone is a guess). The rfc2047 decoder reports each
    use of the charset (``AmbiguousRaw8Bit``).
    """
    chunks = []
    for _, value in pairs:
        if not value.isascii():
            data = raw(value)
            try:
                data.decode("utf-8")
            except UnicodeDecodeError:
                chunks.append(data[:4096])
    if not chunks:
        return None
    data = b"\n".join(chunks)
    declared = for_label(body_label) if body_label else None
    if declared is not None and declared.key not in _NO_HINT and body_label.strip().lower() not in ASCII_LABELS:
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


#: Body charsets that say nothing about raw header bytes that are not UTF-8.
_NO_HINT = frozenset({"utf-8", "utf-16le", "utf-16be", "utf-32le", "utf-32be", "utf-7", "replacement"})


def decode_header(name: str, value: str, fallback: Charset | None = None) -> Header:
    """Decode one header field from the compat32 parser's ``(name, value)``.

    :param name: the field name (8-bit bytes as surrogates).
    :param value: the raw value (after ``name:`` and leading white space, folds kept).
    :param fallback: charset for raw 8-bit text that is not UTF-8 (default windows-1252).
    :returns: a :class:`Header`; its issues have byte offsets into the raw value.
    :issues: the rfc2047 decoder's issues; ``HeaderTooLong`` for a value over 1 MiB.
    """
    issues: list[TextIssue] = []
    data = raw(value)
    if len(data) > MAX_HEADER_BYTES:
        issues.append(TextIssue(MessageIssueKind.HEADER_TOO_LONG, MAX_HEADER_BYTES, len(data) - MAX_HEADER_BYTES))
        data = data[:MAX_HEADER_BYTES]
        value = data.decode("ascii", "surrogateescape")
    if data.isascii() and b"=?" not in data and b"\n" not in data and b"\r" not in data:
        text = value
    elif fallback is None:
        text = decode_header_text(data, issues, 0)
    else:
        text = decode_header_text(data, issues, 0, fallback)
    if not name.isascii():
        name = decode_header_text(raw(name), None, 0)
    return Header(name, text, tuple(sorted(issues, key=_issue_order)) if len(issues) > 1 else tuple(issues))


def _issue_order(issue: TextIssue) -> int:
    return issue.offset


def addresses(value: str | None, fallback: Charset | None = None) -> tuple[Address, ...]:
    """Split an address-list header (raw compat32 value) into :class:`Address` items.

    Display names are decoded (encoded words, also inside quoted strings; raw 8-bit text);
    addresses are kept as written (8-bit bytes read as UTF-8 when valid, RFC 6532).
    """
    if not value:
        return ()
    if len(value) > MAX_HEADER_BYTES:
        value = value[:MAX_HEADER_BYTES]
    value = value.replace("\r\n", "").replace("\n", "").replace("\r", "")
    try:
        pairs = email.utils.getaddresses([value])
    except Exception:  # noqa: BLE001 - the stdlib splitter on hostile input; nothing to keep
        return ()
    out = []
    for name, addr in pairs:
        if not name and not addr:
            continue
        if name:
            b = raw(name)
            if not b.isascii() or b"=?" in b:
                name = decode_header_text(b, None, 0, fallback or _W1252)
        if addr and not addr.isascii():
            addr = decode_header_text(raw(addr), None, 0, fallback or _W1252)
        out.append(Address(name, addr))
    return tuple(out)


def parse_date(value: str | None) -> datetime | None:
    """Parse an RFC 5322 date (stdlib ``parsedate_to_datetime``); ``None`` if unparseable."""
    if not value:
        return None
    try:
        return email.utils.parsedate_to_datetime(value[:1000])
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


def parameters(value: str | None, where: str, issues: list[MessageIssue],
               fallback: Charset | None = None) -> dict[str, str]:
    """Decode the parameters of a Content-Type/-Disposition value (raw compat32 string).

    RFC 2231 continuations and extended values, RFC 2047 words in quoted strings, raw 8-bit
    values. Parameter issues are added to ``issues`` as ``<where>/<parameter name>``.

    :returns: lower-case parameter name -> decoded value (first occurrence wins).
    """
    if not value or ";" not in value:
        return {}
    data = raw(value)
    if len(data) > MAX_HEADER_BYTES:
        data = data[:MAX_HEADER_BYTES]
    _, params = header_params(data, fallback or _W1252)
    out: dict[str, str] = {}
    for p in params:
        key = p.name.lower()
        if key in out:
            continue
        out[key] = p.value
        for i in p.issues:
            issues.append(MessageIssue.at(f"{where}/{key}", i))
    return out
