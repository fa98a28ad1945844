"""RFC 5322 / MIME messages: structure by the stdlib, every value and body by onemail.

The stdlib parser (``BytesParser(policy=policy.compat32)``) splits the message into header
fields and parts and keeps raw bytes (8-bit bytes as surrogates); it never decodes a value.
onemail then decodes each header (:mod:`.headers`), removes the transfer encoding
(:mod:`.transfer`), chooses each text body's charset (:mod:`.bodycharset`) and opens
``message/rfc822`` parts, TNEF ``winmail.dat`` and attached Outlook ``.msg`` files as nested
messages. The parser's defects become ``MalformedMimeStructure`` issues (they carry no position).
"""

from __future__ import annotations

import email.message
from email import policy
from email.parser import BytesParser

from ..text import IssueKind, TextIssue
from . import headers as hdr
from .bodycharset import decode_body
from .model import Message, MessageIssue, Part
from .transfer import decode_transfer

__all__ = ["from_bytes", "from_stdlib"]

_PARSER = BytesParser(policy=policy.compat32)

MAX_DEPTH = 20
"""Nested messages (message/rfc822 in message/rfc822 ...) deeper than this are not opened: a
guard against hostile input; real mail in the corpus nests at most 3 levels."""

_TNEF_TYPES = frozenset({"application/ms-tnef", "application/vnd.ms-tnef"})
_MSG_TYPES = frozenset({"application/vnd.ms-outlook", "application/x-msg"})


def from_bytes(data: bytes, fmt: str = "rfc822", *, repair: bool = False, depth: int = 0) -> Message:
    """Read an RFC 5322 message from ``data``; never raises on bad input."""
    return from_stdlib(_PARSER.parsebytes(data), fmt, repair=repair, depth=depth)


def from_stdlib(em: email.message.Message, fmt: str = "rfc822", *, repair: bool = False,
                depth: int = 0) -> Message:
    """Convert a compat32 :class:`email.message.Message` into a :class:`Message`."""
    issues: list[MessageIssue] = []
    headers = []
    fallback = hdr.raw_8bit_fallback(em._headers)  # noqa: SLF001
    for name, value in em._headers:  # noqa: SLF001 - the raw (name, value) pairs, in order
        h = hdr.decode_header(name, value, fallback)
        headers.append(h)
        for i in h.issues:
            issues.append(MessageIssue.at(f"header:{h.name}", i))
    subject = from_ = to = cc = None
    date = None
    for h, (_, value) in zip(headers, em._headers, strict=True):  # noqa: SLF001
        low = h.name.lower()
        if low == "subject" and subject is None:
            subject = h.value
        elif low == "from" and from_ is None:
            from_ = hdr.addresses(value, fallback)
        elif low == "to" and to is None:
            to = hdr.addresses(value, fallback)
        elif low == "cc" and cc is None:
            cc = hdr.addresses(value, fallback)
        elif low == "date" and date is None:
            date = hdr.parse_date(value)
    parts: list[Part] = []
    if em.is_multipart():
        _defects(em, "mime", issues)
        _children(em, "", parts, issues, repair, depth)
    else:
        _leaf(em, "1", parts, issues, repair, depth)
    msg = Message(fmt, tuple(headers), subject, from_ or (), to or (), cc or (), date, tuple(parts),
                  (), tuple(issues))
    if repair:
        from .repair import repair_message

        msg = repair_message(msg)
    return msg


def _get(em, name: str) -> str | None:
    """The first raw value of header ``name`` (compat32's ``get`` may return a Header object)."""
    for key, value in em._headers:  # noqa: SLF001
        if key.lower() == name:
            return value
    return None


def _defects(em, where: str, issues: list[MessageIssue]) -> None:
    for _ in em.defects:
        issues.append(MessageIssue(IssueKind.MALFORMED_MIME_STRUCTURE, where, 0, 0))


def _children(em, prefix: str, parts, issues, repair, depth) -> None:
    payload = em._payload  # noqa: SLF001
    if not isinstance(payload, list):  # multipart without a usable boundary: the stdlib keeps text
        _leaf(em, prefix + "1", parts, issues, repair, depth, media_type="text/plain")
        return
    for n, child in enumerate(payload, 1):
        path = f"{prefix}{n}"
        if child.is_multipart() and child.get_content_maintype() == "multipart":
            _defects(child, f"mime:{path}", issues)
            _children(child, path + ".", parts, issues, repair, depth)
        else:
            _leaf(child, path, parts, issues, repair, depth)


def _leaf(em, path: str, parts, issues, repair, depth, media_type: str | None = None) -> None:
    where = f"part:{path}"
    _defects(em, f"mime:{path}", issues)
    media_type = media_type or em.get_content_type()
    ctype = _get(em, "content-type")
    cdisp = _get(em, "content-disposition")
    fallback = hdr.raw_8bit_fallback(em._headers)  # noqa: SLF001
    params = hdr.parameters(ctype, where, issues, fallback) if ctype else {}
    dparams = hdr.parameters(cdisp, where, issues, fallback) if cdisp else {}
    disposition = cdisp.split(";", 1)[0].strip().lower() or None if cdisp else None
    filename = dparams.get("filename") or params.get("name")
    cid = _get(em, "content-id")
    if cid is not None:
        cid = cid.strip().strip("<>") or None
    payload = em._payload  # noqa: SLF001 - raw; get_payload() re-decodes 8-bit text
    if isinstance(payload, list):  # message/rfc822 (or a multipart the stdlib kept as one part)
        nested = None
        if payload and depth < MAX_DEPTH:
            nested = from_stdlib(payload[0], repair=repair, depth=depth + 1)
            _nest(nested, where, issues)
        parts.append(Part(path, media_type, disposition, filename, content_id=cid, message=nested))
        return
    if not isinstance(payload, str):
        payload = ""
    body = payload.encode("ascii", "surrogateescape")
    cte = (_get(em, "content-transfer-encoding") or "").strip().lower()
    found: list[TextIssue] = []
    if cte and cte not in ("7bit", "8bit", "binary", "base64", "quoted-printable"):
        cte = cte.split(";")[0].strip().strip('"')
    data = decode_transfer(body, cte, found)
    part_issues = [MessageIssue.at(where, i) for i in found]
    found.clear()
    text = charset = source = None
    nested = None
    low_name = (filename or "").lower()
    if media_type.startswith("text/") and not (disposition == "attachment" and low_name.endswith(".msg")):
        charset_label = params.get("charset")
        text, cs, source = decode_body(data, media_type, charset_label, found)
        charset = cs.name
        part_issues.extend(MessageIssue.at(where, i) for i in found)
    elif depth < MAX_DEPTH and (media_type in _TNEF_TYPES or low_name == "winmail.dat"):
        from .tnef import read_tnef

        nested = read_tnef(data, repair=repair, depth=depth + 1)
    elif depth < MAX_DEPTH and (media_type in _MSG_TYPES or low_name.endswith(".msg")) \
            and data[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1":
        from .msg import read_msg

        nested = read_msg(data, repair=repair, depth=depth + 1)
    if nested is not None and nested.error is not None:
        # a winmail.dat or .msg that cannot be read at all: one issue at the part (zbateson's
        # m4006.txt sample holds a PNG named winmail.dat)
        kind = IssueKind.MALFORMED_TNEF if nested.format == "tnef" else IssueKind.MALFORMED_MSG
        part_issues.append(MessageIssue(kind, where, 0, len(data)))
    issues.extend(part_issues)
    if nested is not None:
        _nest(nested, where, issues)
    parts.append(Part(path, media_type, disposition, filename, charset, source, text, data,
                      tuple(part_issues), "mime", False, nested, cid))


def _nest(nested: Message, where: str, issues: list[MessageIssue]) -> None:
    """Add a nested message's issues to the parent's, places prefixed with the part's."""
    for i in nested.issues:
        issues.append(MessageIssue(i.kind, f"{where}>{i.where}", i.offset, i.length))
