"""MAPI properties of Outlook messages (.msg and TNEF) and the :class:`Message` built from them.

Shared by :mod:`.msg` (OLE2 property streams, MS-OXMSG) and :mod:`.tnef` (attMAPIProps and
attAttachment, MS-OXTNEF). Both readers collect raw properties in a :class:`PropertyBag`; string8
values (``PtypString8``) stay bytes until the bag is finished, then are decoded with the
message's code page: ``PidTagMessageCodepage`` (0x3FFD), else ``PidTagInternetCodepage``
(0x3FDE), else the TNEF ``attOemCodepage``, via :func:`onemail.text.for_code_page`; with none, the
unknown-charset rule (T1). Unicode values (``PtypString``) are UTF-16LE (MS-OXCDATA 2.11.1).

Bodies (MS-OXCMSG 2.2.1.56, MS-OXRTFEX):

* ``PidTagBody`` (0x1000) -> ``text/plain`` part ``body.txt``;
* ``PidTagBodyHtml`` (0x1013, binary or string) -> ``text/html`` part ``body.html``, its charset
  chosen by spec README decision 3 with the internet code page as the declared charset;
* ``PidTagRtfCompressed`` (0x1009) -> decompressed (:func:`onemail.rtf.decompress`); when the RTF
  encapsulates HTML or text (:func:`onemail.rtf.is_encapsulated`) the recovered HTML or text
  is part ``body.rtf`` (``text/html`` / ``text/plain``); plain RTF is returned as RTF
  (``text/rtf``, ``is_rtf=True``).
"""

from __future__ import annotations

import mimetypes
import struct
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from ..text import IssueKind, TextIssue, decode_unknown, for_code_page
from ..text.charsets import Charset
from ..text.issues import BoundedIssues
from ._pieces import known_charset
from .bodycharset import decode_body
from .formats import OLE_SIGNATURE, TNEF_SIGNATURE, ReadContext, nested_issues
from .model import Address, Header, MapiProperty, Message, MessageIssue, Part

__all__ = ["Embedded", "PropertyBag", "build_message", "code_page_decoder", "filetime"]

# Property ids used here (MS-OXPROPS).
SUBJECT = 0x0037
MESSAGE_CLASS = 0x001A
SENT_REPRESENTING_NAME = 0x0042
SENT_REPRESENTING_EMAIL = 0x0065
TRANSPORT_HEADERS = 0x007D
SENDER_NAME = 0x0C1A
SENDER_EMAIL = 0x0C1F
SENDER_SMTP = 0x5D01
SENT_REPRESENTING_SMTP = 0x5D02
RECIPIENT_TYPE = 0x0C15
DISPLAY_CC = 0x0E03
DISPLAY_TO = 0x0E04
CLIENT_SUBMIT_TIME = 0x0039
DELIVERY_TIME = 0x0E06
BODY = 0x1000
RTF_COMPRESSED = 0x1009
BODY_HTML = 0x1013
DISPLAY_NAME = 0x3001
EMAIL_ADDRESS = 0x3003
SMTP_ADDRESS = 0x39FE
ATTACH_DATA = 0x3701
ATTACH_FILENAME = 0x3704
ATTACH_METHOD = 0x3705
ATTACH_LONG_FILENAME = 0x3707
ATTACH_MIME_TAG = 0x370E
ATTACH_CONTENT_ID = 0x3712
INTERNET_CODEPAGE = 0x3FDE
MESSAGE_CODEPAGE = 0x3FFD

# Property types (MS-OXCDATA 2.11.1).
PT_SHORT, PT_LONG, PT_FLOAT, PT_DOUBLE, PT_CURRENCY, PT_APPTIME = 0x2, 0x3, 0x4, 0x5, 0x6, 0x7
PT_ERROR, PT_BOOLEAN, PT_OBJECT, PT_I8, PT_STRING8, PT_UNICODE = 0xA, 0xB, 0xD, 0x14, 0x1E, 0x1F
PT_SYSTIME, PT_CLSID, PT_BINARY, MV_FLAG = 0x40, 0x48, 0x102, 0x1000

FIXED_SIZES = {PT_SHORT: 2, PT_LONG: 4, PT_FLOAT: 4, PT_DOUBLE: 8, PT_CURRENCY: 8, PT_APPTIME: 8,
               PT_ERROR: 4, PT_BOOLEAN: 2, PT_I8: 8, PT_SYSTIME: 8, PT_CLSID: 16, 0x1: 0}

_EPOCH_1601 = datetime(1601, 1, 1, tzinfo=UTC)
_UTF16 = known_charset("utf-16le")


def filetime(value: int) -> datetime | None:
    """A FILETIME (100 ns units since 1601-01-01 UTC) as an aware datetime; None if absurd."""
    if value <= 0:
        return None
    try:
        return _EPOCH_1601 + timedelta(microseconds=value // 10)
    except OverflowError:
        return None


def fixed_value(ptype: int, raw: bytes) -> Any:
    """Decode a fixed-size value (little-endian) of type ``ptype`` from ``raw``."""
    try:
        if ptype == PT_SHORT:
            return struct.unpack_from("<h", raw)[0]
        if ptype in (PT_LONG, PT_ERROR):
            return struct.unpack_from("<i" if ptype == PT_LONG else "<I", raw)[0]
        if ptype == PT_BOOLEAN:
            return raw[:2] != b"\0\0"
        if ptype == PT_FLOAT:
            return struct.unpack_from("<f", raw)[0]
        if ptype in (PT_DOUBLE, PT_APPTIME):
            return struct.unpack_from("<d", raw)[0]
        if ptype in (PT_I8, PT_CURRENCY):
            return struct.unpack_from("<q", raw)[0]
        if ptype == PT_SYSTIME:
            return filetime(struct.unpack_from("<q", raw)[0])
        if ptype == PT_CLSID:
            return raw[:16]
    except struct.error:
        return None
    return None


class Embedded(bytes):
    """The bytes of a message embedded in a TNEF attachment (a PtypObject holding IID_IMessage):
    a TNEF stream, read when the attachment part is built (:meth:`ReadContext.nested`)."""

    __slots__ = ()


class PropertyBag:
    """The properties of one message, recipient or attachment while they are being read.

    ``props`` maps property id to ``(type, value, name)``; string8 values are kept as bytes
    (``type`` 0x001E) until :meth:`decoded` knows the code page.
    """

    __slots__ = ("props", "children", "where")

    def __init__(self, where: str) -> None:
        self.props: dict[int, tuple[int, object, str | None]] = {}
        self.children: list[PropertyBag] = []
        self.where = where

    def put(self, tag: int, ptype: int, value: object, *, name: str | None = None) -> None:
        """Record a property (the first value of a tag wins)."""
        self.props.setdefault(tag, (ptype, value, name))

    def raw(self, tag: int) -> Any:
        """The raw value of ``tag`` or None."""
        entry = self.props.get(tag)
        return None if entry is None else entry[1]

    def int(self, tag: int) -> int | None:
        value = self.raw(tag)
        return value if isinstance(value, int) and not isinstance(value, bool) else None


class _Strings:
    """What the string decoding of one message needs: the code page and the issue list."""

    def __init__(self, charset: Charset | None, issues: list[MessageIssue]) -> None:
        self.charset = charset
        self.issues = issues

    def string(self, ptype: int, value: object, where: str) -> str | None:
        if isinstance(value, str):
            return value
        if not isinstance(value, bytes):
            return None
        found = BoundedIssues()
        if ptype == PT_UNICODE or ptype == PT_UNICODE | MV_FLAG:
            if len(value) % 2:
                found.append(TextIssue(IssueKind.INVALID_UTF16, len(value) - 1, 1))
            text = _UTF16.decode(value[: len(value) & ~1], found)
        elif self.charset is not None:
            text = self.charset.decode(value, found)
        else:
            text = decode_unknown(value, issues=found)[0] if not value.isascii() else value.decode("ascii")
        self.issues.extend(MessageIssue.placed(where, found))
        return text.rstrip("\0")


# Internet code pages of the stateful and EUC mail encodings -> the Windows ANSI code page
# Outlook writes string8 properties in (hiraoka-msgreader test/nonUnicodeCP932.msg: internet
# code page 50220, string8 subject in code page 932).
_ANSI_FOR_INTERNET = {50220: 932, 50221: 932, 50222: 932, 51932: 932, 50225: 949, 51949: 949,
                      52936: 936, 28591: 1252, 20127: 1252, 65000: 1252}


def message_charset(bag: PropertyBag, oem_code_page: int | None = None) -> Charset | None:
    """The charset for string8 properties: message code page, internet code page, TNEF OEM.

    The internet code page of a stateful or EUC encoding names the matching Windows code page.
    """
    internet = bag.int(INTERNET_CODEPAGE)
    if internet is not None:
        internet = _ANSI_FOR_INTERNET.get(internet, internet)
    for cp in (bag.int(MESSAGE_CODEPAGE), internet, oem_code_page):
        if cp:
            cs = for_code_page(cp)
            if cs is not None:
                return cs
    return None


def properties(bag: PropertyBag, ctx: _Strings) -> tuple[MapiProperty, ...]:
    """The bag's properties with strings decoded, sorted by tag."""
    out = []
    for tag in sorted(bag.props):
        ptype, value, name = bag.props[tag]
        base = ptype & ~MV_FLAG
        where = f"{bag.where}:0x{tag:04X}{ptype:04X}"
        if base in (PT_STRING8, PT_UNICODE):
            if isinstance(value, tuple):
                value = tuple(ctx.string(base, v, where) for v in value)
            else:
                value = ctx.string(base, value, where)
        out.append(MapiProperty(tag, ptype, value, name))
    return tuple(out)


def _prop_text(props: dict[int, MapiProperty], *tags: int) -> str | None:
    for tag in tags:
        p = props.get(tag)
        if p is not None and isinstance(p.value, str) and p.value:
            return p.value
    return None


def build_message(fmt: str, bag: PropertyBag, recipients: list[PropertyBag],
                  attachments: Sequence[tuple[PropertyBag, object]], *, ctx: ReadContext,
                  oem_code_page: int | None = None,
                  issues: list[MessageIssue] | None = None) -> Message:
    """Build a :class:`Message` from the properties of a .msg or TNEF message.

    :param bag: the message's properties.
    :param recipients: one bag per recipient (PidTagRecipientType 1 To, 2 Cc, 3 Bcc).
    :param attachments: ``(bag, extra)`` per attachment; ``extra`` is a nested :class:`Message`
        (a .msg's embedded message storage), :class:`Embedded` (a TNEF embedded message), bytes
        (TNEF attAttachData when the bag has no data), or None.
    :param ctx: the reading context (repair flag, nesting depth, the nested-message reader).
    :param issues: container issues found so far (appended to).
    """
    issues = [] if issues is None else issues
    strings = _Strings(message_charset(bag, oem_code_page), issues)
    props = {p.tag: p for p in properties(bag, strings)}
    subject = _prop_text(props, SUBJECT)
    sender_name = _prop_text(props, SENDER_NAME, SENT_REPRESENTING_NAME) or ""
    sender_addr = _prop_text(props, SENDER_SMTP, SENDER_EMAIL, SENT_REPRESENTING_SMTP,
                             SENT_REPRESENTING_EMAIL) or ""
    from_: tuple[Address, ...] = (Address(sender_name, sender_addr),) if sender_name or sender_addr else ()
    to: list[Address] = []
    cc: list[Address] = []
    bcc: list[Address] = []
    for rbag in recipients:
        rprops = {p.tag: p for p in properties(rbag, strings)}
        name = _prop_text(rprops, DISPLAY_NAME) or ""
        addr = _prop_text(rprops, SMTP_ADDRESS, EMAIL_ADDRESS) or ""
        kind = rbag.int(RECIPIENT_TYPE) or 1
        if name or addr:
            target = {1: to, 2: cc, 3: bcc}.get(kind & 0xF)
            if target is not None:
                target.append(Address(name, addr))
    if not recipients:
        for tag, target in ((DISPLAY_TO, to), (DISPLAY_CC, cc)):
            text = _prop_text(props, tag)
            if text:
                target.extend(Address(n.strip(), "") for n in text.split(";") if n.strip())
    date = None
    for tag in (CLIENT_SUBMIT_TIME, DELIVERY_TIME):
        p = props.get(tag)
        if p is not None and isinstance(p.value, datetime):
            date = p.value
            break
    headers: tuple[Header, ...] = ()
    reply_to: tuple[Address, ...] = ()
    transport = _prop_text(props, TRANSPORT_HEADERS)
    if transport:
        headers, raw = _transport_headers(transport, issues)
        # what the properties lack, the Internet headers Outlook kept may give
        from .addresses import parse_addresses
        from .dates import parse_date

        if subject is None and "subject" in raw:
            subject = next(h.value for h in headers if h.name.lower() == "subject")
        if not from_ and "from" in raw:
            from_ = parse_addresses(raw["from"])
        if not recipients:
            if not to and "to" in raw:
                to = list(parse_addresses(raw["to"]))
            if not cc and "cc" in raw:
                cc = list(parse_addresses(raw["cc"]))
        if "reply-to" in raw:
            reply_to = parse_addresses(raw["reply-to"])
        if date is None and "date" in raw:
            date = parse_date(raw["date"])
    parts = _bodies(bag, props, strings)
    later: list[MessageIssue] = []
    for n, (abag, extra) in enumerate(attachments, 1):
        parts.append(_attachment(f"att{n}", abag, extra, strings, later, ctx))
    issues.extend(later)
    for part in parts:
        issues.extend(part.issues)
    msg = Message(fmt, headers, subject, from_, tuple(to), tuple(cc), date, tuple(parts),
                  tuple(props.values()), tuple(issues), bcc=tuple(bcc), reply_to=reply_to)
    from .repair import mark_mojibake, repair_message

    return repair_message(msg) if ctx.repair else mark_mojibake(msg)


_TRANSPORT_PREAMBLE = b"Microsoft Mail Internet Headers Version 2.0"


def _transport_headers(text: str, issues: list[MessageIssue]) -> tuple[tuple[Header, ...], dict[str, bytes]]:
    """Parse PidTagTransportMessageHeaders (the Internet headers Outlook kept), as UTF-8 bytes.

    :returns: ``(Header tuple, {lower-case name: first raw value})``.
    """
    from .fields import split_header
    from .headers import decode_header

    data = text.encode("utf-8", "surrogatepass")
    start = 0
    if data.startswith(_TRANSPORT_PREAMBLE):  # the line Outlook writes before the fields
        start = data.find(b"\n") + 1
    fields, _ = split_header(data, start, len(data), issues=issues, where="headers")
    out = []
    raw: dict[str, bytes] = {}
    for f in fields:
        h = decode_header(f)
        out.append(h)
        raw.setdefault(h.name.lower(), f.value)
        issues.extend(h.issues)
    return tuple(out), raw


def _bodies(bag: PropertyBag, props: dict[int, MapiProperty], ctx: _Strings) -> list[Part]:
    parts: list[Part] = []
    body = props.get(BODY)
    if body is not None and isinstance(body.value, str):
        cs = "utf-16le" if body.type == PT_UNICODE else (ctx.charset.name if ctx.charset else None)
        parts.append(Part("body.txt", "text/plain", charset=cs,
                          charset_source="declared" if cs else "default", text=body.value,
                          data=raw if isinstance(raw := bag.raw(BODY), bytes) else b"",
                          origin="PidTagBody"))
    html = bag.props.get(BODY_HTML)
    if html is not None:
        ptype, value, _ = html
        where = "part:body.html"
        if isinstance(value, bytes) and ptype != PT_UNICODE:
            found = BoundedIssues()
            declared = None
            cp = bag.int(INTERNET_CODEPAGE) or bag.int(MESSAGE_CODEPAGE)
            if cp:
                declared = for_code_page(cp)
            text, used, source = decode_body(value.rstrip(b"\0"), "text/html", declared, issues=found)
            parts.append(Part("body.html", "text/html", charset=used.name, charset_source=source,
                              text=text, data=value, issues=tuple(MessageIssue.placed(where, found)),
                              origin="PidTagBodyHtml"))
        else:
            html_text = props[BODY_HTML].value
            if isinstance(html_text, str):
                parts.append(Part("body.html", "text/html", charset="utf-16le", charset_source="declared",
                                  text=html_text, origin="PidTagBodyHtml"))
    rtf = bag.raw(RTF_COMPRESSED)
    if isinstance(rtf, bytes) and rtf:
        parts.append(rtf_part(rtf, "body.rtf", ctx.charset))
    return parts


def code_page_decoder(code_page: int, data: bytes, errors: list[tuple[int, int]]) -> str | None:
    """A :data:`onemail.rtf.CodePageDecoder` on onemail's own charsets."""
    cs = for_code_page(code_page)
    if cs is None:
        return None
    found = BoundedIssues()
    text = cs.decode(data, found)
    for i in found:
        if not i.kind.is_ambiguous:
            errors.append((i.offset, i.length))
    return text


def rtf_part(compressed: bytes, path: str, charset: Charset | None = None) -> Part:
    """Decompress a PidTagRtfCompressed value into a body part (module docstring)."""
    from ..rtf import DeencapsulationOptions, decompress, deencapsulate, is_encapsulated

    issues: list[MessageIssue] = []
    result = decompress(compressed)
    for d in result.defects:
        issues.append(MessageIssue.at(f"rtf:{path}/compressed", d))
    rtf = result.data
    kind = is_encapsulated(rtf) if rtf else None
    if kind is None:
        cs = charset or known_charset("windows-1252")
        text = cs.decode(rtf, None)
        return Part(path, "text/rtf", charset=cs.name, text=text, data=rtf, issues=tuple(issues),
                    origin="PidTagRtfCompressed", is_rtf=True)
    out = deencapsulate(rtf, options=DeencapsulationOptions(code_page_decoder=code_page_decoder))
    for d in out.defects:
        issues.append(MessageIssue.at(f"rtf:{path}", d))
    media = "text/html" if out.kind == "html" else "text/plain"
    return Part(path, media, text=out.text, data=rtf, issues=tuple(issues), origin="PidTagRtfCompressed")


def _attachment(path: str, bag: PropertyBag, extra: object, strings: _Strings, later: list[MessageIssue],
                ctx: ReadContext) -> Part:
    """One attachment part; a message it holds is read through ``ctx`` and its issues, places
    prefixed, go to ``later`` (after the parts' own issues)."""
    props = {p.tag: p for p in properties(bag, strings)}
    filename = _prop_text(props, ATTACH_LONG_FILENAME, ATTACH_FILENAME, DISPLAY_NAME)
    media = (_prop_text(props, ATTACH_MIME_TAG) or "").strip().lower()
    if not media or "/" not in media:
        media = (mimetypes.guess_type(filename)[0] if filename else None) or "application/octet-stream"
    cid = _prop_text(props, ATTACH_CONTENT_ID)
    data = bag.raw(ATTACH_DATA)
    nested = extra if isinstance(extra, Message) else None
    where = f"part:{path}"
    part_issues: list[MessageIssue] = []
    if isinstance(extra, Embedded):  # a TNEF embedded message
        nested = ctx.nested(bytes(extra), "tnef", where, issues=part_issues)
        data = bytes(extra)
    if not isinstance(data, bytes):
        data = extra if isinstance(extra, bytes) else b""
    text = charset = source = None
    if nested is None and data and not part_issues:
        if data.startswith(OLE_SIGNATURE) or data.startswith(TNEF_SIGNATURE):
            # an attached .msg or winmail.dat: each level is a new file
            nested = ctx.nested(data, None, where, issues=part_issues)
            if nested is not None and nested.error is not None:  # an OLE2 document (a Word file)
                nested = None
        elif media.startswith("text/"):
            found = BoundedIssues()
            text, cs, source = decode_body(data, media, None, issues=found)
            charset = cs.name
            part_issues.extend(MessageIssue.placed(where, found))
    if nested is not None:
        later.extend(nested_issues(nested, where))
        if media == "application/octet-stream":
            media = "message/rfc822" if nested.format == "rfc822" else "application/vnd.ms-outlook"
    return Part(path, media, "attachment", filename, charset, source, text, data, tuple(part_issues),
                "attachment", False, nested, cid)
