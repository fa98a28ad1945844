"""TNEF streams (``winmail.dat``, ``application/ms-tnef``), read as MS-OXTNEF describes them.

A stream is the signature ``0x223E9F78`` (little-endian), a 16-bit legacy key, then attributes:
``level u8`` (1 message, 2 attachment), ``id u32`` (low word the attribute, high word its
type), ``length u32``, the data, and a 16-bit checksum (the sum of the data bytes modulo 65536).
The attributes used (MS-OXTNEF 2.1.3.3):

* message: ``attOemCodepage`` (0x9007), ``attSubject`` (0x8004), ``attBody`` (0x800C),
  ``attFrom`` (0x8000, a triple), ``attDateSent`` (0x8005), ``attMsgProps`` / attMAPIProps
  (0x9003), ``attRecipTable`` (0x9004);
* attachment: ``attAttachRendData`` (0x9002) starts one, ``attAttachTitle`` (0x8010),
  ``attAttachData`` (0x800F), ``attAttachment`` (0x9005, its MAPI properties).

MAPI properties (MS-OXTNEF 2.1.3.4): a count, then per property its type and id, a name for
named properties (id >= 0x8000: GUID, kind, then an id or a UTF-16 name), and the value: fixed
values padded to 4 bytes; multi-valued and variable-size values (string8, unicode, binary,
object) as a count then ``size u32, data, padding to 4`` each. A ``PtypObject`` holding an
embedded message (IID_IMessage) is itself a TNEF stream and becomes a nested message.
The legacy attributes fill in only what the MAPI properties lack.

Damage gives ``MalformedTnef`` issues at ``tnef:<attribute>`` with the byte offset of the
attribute in the stream (a checksum mismatch, a truncated attribute or property list, trailing
bytes); reading goes on where it can.
"""

from __future__ import annotations

import struct
import uuid
from datetime import datetime
from typing import Any

from . import mapi
from .formats import ReadContext
from .issues import MessageIssueKind
from .model import Message, MessageIssue

__all__ = ["read_tnef"]

SIGNATURE = 0x223E9F78
LVL_MESSAGE, LVL_ATTACHMENT = 1, 2

ATT_FROM, ATT_SUBJECT, ATT_DATE_SENT, ATT_BODY = 0x8000, 0x8004, 0x8005, 0x800C
ATT_ATTACH_DATA, ATT_ATTACH_TITLE = 0x800F, 0x8010
ATT_RENDDATA, ATT_MAPI_PROPS, ATT_RECIP_TABLE, ATT_ATTACHMENT = 0x9002, 0x9003, 0x9004, 0x9005
ATT_OEM_CODEPAGE = 0x9007

_NAMES = {ATT_FROM: "attFrom", ATT_SUBJECT: "attSubject", ATT_DATE_SENT: "attDateSent",
          ATT_BODY: "attBody", ATT_ATTACH_DATA: "attAttachData", ATT_ATTACH_TITLE: "attAttachTitle",
          ATT_RENDDATA: "attAttachRendData", ATT_MAPI_PROPS: "attMsgProps",
          ATT_RECIP_TABLE: "attRecipTable", ATT_ATTACHMENT: "attAttachment",
          ATT_OEM_CODEPAGE: "attOemCodepage"}

IID_IMESSAGE = bytes.fromhex("0703020000000000c000000000000046")

MAX_VALUES = 1 << 20
"""A property count or value count above this is damage (a real TNEF holds a few hundred):
reading stops there instead of looping over garbage."""


class _Damage(Exception):
    """A property list that runs past its attribute (internal; becomes a MalformedTnef issue)."""


def read_tnef(data: bytes, ctx: ReadContext) -> Message:
    """Read a TNEF stream into a :class:`Message` (``format="tnef"``); never raises on bad input.

    :param data: the whole stream (``winmail.dat``).
    :param ctx: the reading context (repair flag, nesting depth, the nested-message reader).
    :returns: the message: subject, sender, recipients, bodies (attBody, PidTagBody,
        PidTagBodyHtml, PidTagRtfCompressed) and attachments (nested messages for embedded
        ones); ``error`` set when the signature is missing.
    :issues: ``MalformedTnef``, string and body decoding issues, RTF defects.
    """
    if len(data) < 6 or struct.unpack_from("<I", data)[0] != SIGNATURE:
        return Message("tnef", error="not a TNEF stream (no 0x223E9F78 signature)")
    issues: list[MessageIssue] = []
    bag = mapi.PropertyBag("tnef:attMsgProps")
    legacy: dict[int, tuple[int, object]] = {}
    recipients: list[mapi.PropertyBag] = []
    attachments: list[list[Any]] = []  # [bag, legacy dict, data]
    oem = None
    pos = 6
    n = len(data)
    while pos < n:
        if n - pos < 9:
            issues.append(MessageIssue(MessageIssueKind.MALFORMED_TNEF, "tnef:trailing", pos, n - pos))
            break
        level, att_id, length = struct.unpack_from("<BII", data, pos)
        att = att_id & 0xFFFF
        name = _NAMES.get(att, f"att0x{att:04X}")
        start = pos + 9
        end = start + length
        if level not in (LVL_MESSAGE, LVL_ATTACHMENT) or end + 2 > n:
            issues.append(MessageIssue(MessageIssueKind.MALFORMED_TNEF, f"tnef:{name}", pos, n - pos))
            break
        value = data[start:end]
        if struct.unpack_from("<H", data, end)[0] != sum(value) & 0xFFFF:
            issues.append(MessageIssue(MessageIssueKind.MALFORMED_TNEF, f"tnef:{name}", pos, length + 11))
        pos = end + 2
        if level == LVL_MESSAGE:
            if att == ATT_OEM_CODEPAGE and length >= 4:
                oem = struct.unpack_from("<I", value)[0]
            elif att == ATT_MAPI_PROPS:
                _props(value, bag, issues, f"tnef:{name}", start)
            elif att == ATT_RECIP_TABLE:
                _recipients(value, recipients, issues, start)
            elif att in (ATT_SUBJECT, ATT_BODY):
                legacy[mapi.SUBJECT if att == ATT_SUBJECT else mapi.BODY] = (mapi.PT_STRING8, value.rstrip(b"\0"))
            elif att == ATT_DATE_SENT:
                legacy[mapi.CLIENT_SUBMIT_TIME] = (mapi.PT_SYSTIME, _dtr(value))
            elif att == ATT_FROM:
                _triple(value, legacy)
        else:
            if att == ATT_RENDDATA or not attachments:
                attachments.append([mapi.PropertyBag(f"tnef:att{len(attachments) + 1}"), {}, None])
            current = attachments[-1]
            if att == ATT_ATTACH_TITLE:
                current[1][mapi.ATTACH_FILENAME] = (mapi.PT_STRING8, value.rstrip(b"\0"))
            elif att == ATT_ATTACH_DATA:
                current[2] = value
            elif att == ATT_ATTACHMENT:
                _props(value, current[0], issues, f"tnef:{name}", start)
    for tag, (ptype, legacy_value) in legacy.items():
        bag.put(tag, ptype, legacy_value)
    atts = []
    for abag, alegacy, adata in attachments:
        for tag, (ptype, legacy_value) in alegacy.items():
            abag.put(tag, ptype, legacy_value)
        embedded = abag.raw(mapi.ATTACH_DATA)
        if isinstance(embedded, mapi.Embedded):
            del abag.props[mapi.ATTACH_DATA]
        atts.append((abag, embedded if isinstance(embedded, mapi.Embedded) else adata))
    return mapi.build_message("tnef", bag, recipients, atts, oem_code_page=oem, issues=issues, ctx=ctx)


def _dtr(value: bytes) -> datetime | None:
    """A TNEF date (DTR: year, month, day, hour, minute, second, day of week; u16 each)."""
    if len(value) < 12:
        return None
    y, mo, d, h, mi, s = struct.unpack_from("<6H", value)
    try:
        return datetime(y, mo, d, h, mi, s)
    except ValueError:
        return None


def _triple(value: bytes, legacy: dict[int, tuple[int, object]]) -> None:
    """attFrom: TRP header (id, total, name length, address length), name, address (8-bit)."""
    if len(value) < 8:
        return
    _, _, cch, cb = struct.unpack_from("<4H", value)
    name = value[8:8 + cch].rstrip(b"\0")
    addr = value[8 + cch:8 + cch + cb].rstrip(b"\0")
    if name:
        legacy[mapi.SENDER_NAME] = (mapi.PT_STRING8, name)
    if addr:
        legacy[mapi.SENDER_EMAIL] = (mapi.PT_STRING8, addr)


def _recipients(value: bytes, out: list[mapi.PropertyBag], issues: list[MessageIssue], base: int) -> None:
    if len(value) < 4:
        issues.append(MessageIssue(MessageIssueKind.MALFORMED_TNEF, "tnef:attRecipTable", base, len(value)))
        return
    rows = struct.unpack_from("<I", value)[0]
    pos = 4
    for r in range(min(rows, MAX_VALUES)):
        rbag = mapi.PropertyBag(f"tnef:recip{r + 1}")
        try:
            pos = _prop_list(value, pos, rbag)
        except _Damage as exc:
            issues.append(MessageIssue(MessageIssueKind.MALFORMED_TNEF, "tnef:attRecipTable",
                                       base + exc.args[0], len(value) - exc.args[0]))
            out.append(rbag)
            return
        out.append(rbag)


def _props(value: bytes, bag: mapi.PropertyBag, issues: list[MessageIssue], where: str, base: int) -> None:
    try:
        _prop_list(value, 0, bag)
    except _Damage as exc:
        issues.append(MessageIssue(MessageIssueKind.MALFORMED_TNEF, where, base + exc.args[0],
                                   len(value) - exc.args[0]))


def _need(value: bytes, pos: int, size: int) -> None:
    if pos + size > len(value):
        raise _Damage(pos)


def _pad4(n: int) -> int:
    return (n + 3) & ~3


def _prop_list(value: bytes, pos: int, bag: mapi.PropertyBag) -> int:
    """Parse a counted MAPI property list at ``pos``; return the position after it."""
    _need(value, pos, 4)
    count = struct.unpack_from("<I", value, pos)[0]
    pos += 4
    if count > MAX_VALUES:
        raise _Damage(pos - 4)
    for _ in range(count):
        start = pos
        _need(value, pos, 4)
        ptype, tag = struct.unpack_from("<HH", value, pos)
        pos += 4
        name = None
        if tag >= 0x8000:
            _need(value, pos, 20)
            guid = str(uuid.UUID(bytes_le=value[pos:pos + 16]))
            kind = struct.unpack_from("<I", value, pos + 16)[0]
            pos += 20
            if kind == 0:
                _need(value, pos, 4)
                name = f"{{{guid}}}:0x{struct.unpack_from('<I', value, pos)[0]:X}"
                pos += 4
            else:
                _need(value, pos, 4)
                size = struct.unpack_from("<I", value, pos)[0]
                pos += 4
                _need(value, pos, size)
                name = f"{{{guid}}}:" + value[pos:pos + size].decode("utf-16-le", "replace").rstrip("\0")
                pos += _pad4(size)
        base = ptype & ~mapi.MV_FLAG
        multi = bool(ptype & mapi.MV_FLAG)
        variable = base in (mapi.PT_STRING8, mapi.PT_UNICODE, mapi.PT_BINARY, mapi.PT_OBJECT)
        if base not in mapi.FIXED_SIZES and not variable:
            raise _Damage(start)  # an unknown type: its size is unknown, the rest cannot be read
        n = 1
        if multi or variable:
            _need(value, pos, 4)
            n = struct.unpack_from("<I", value, pos)[0]
            pos += 4
            # every value takes bytes of its own (a size field, or its padded fixed size), so a
            # count the rest of the attribute cannot hold is damage; a multi-valued type whose
            # values take no byte (PtypNull, 0x1001) does not exist (MS-OXCDATA 2.11.1): a
            # 29-byte stream counting 2^20 of them cost 0.5 s and 8 MB per 8 bytes of input
            each = 4 if variable else _pad4(mapi.FIXED_SIZES[base])
            if n > MAX_VALUES or (n and not each) or n * each > len(value) - pos:
                raise _Damage(pos - 4)
        values = []
        for _ in range(n):
            if variable:
                _need(value, pos, 4)
                size = struct.unpack_from("<I", value, pos)[0]
                pos += 4
                _need(value, pos, size)
                raw = value[pos:pos + size]
                pos += _pad4(size)
                if base == mapi.PT_OBJECT:
                    # an embedded message (IID_IMESSAGE) is a TNEF stream, read when the
                    # attachment is built (one path for nested messages: ReadContext.nested)
                    values.append(mapi.Embedded(raw[16:]) if raw[:16] == IID_IMESSAGE else raw[16:])
                else:
                    values.append(raw)
            else:
                size = mapi.FIXED_SIZES[base]
                _need(value, pos, size)
                values.append(mapi.fixed_value(base, value[pos:pos + size]))
                pos += _pad4(size)
        if multi:
            bag.put(tag, ptype, tuple(values), name=name)
        elif values:
            v = values[0]
            bag.put(tag, mapi.PT_BINARY if base == mapi.PT_OBJECT and not isinstance(v, mapi.Embedded) else ptype,
                    v, name=name)
    return pos
