"""RFC 5322 / MIME messages: the header section, the MIME tree, every value and body decoded.

Implements RFC 5322 (header section, :mod:`.fields`), RFC 2045 (Content-Type,
Content-Transfer-Encoding), RFC 2046 section 5.1 (multipart bodies) and RFC 2183
(Content-Disposition). The tree is walked with an explicit stack (no Python frame per level):

* A multipart body is cut at its delimiter lines: a line that starts with ``--`` and the
  boundary, followed by ``--`` for the close delimiter, then only white space (RFC 2046 5.1.1:
  the line break before a delimiter belongs to it); a close delimiter followed by other bytes
  still closes (``MalformedMimeStructure``). The preamble and epilogue are dropped. An
  enclosing multipart's delimiter ends every part inside it, since each level only looks inside
  the part its parent cut. No close delimiter: the last part runs to the end
  (``MalformedMimeStructure`` at the end). No boundary parameter, or a boundary that never
  appears: the body is one ``text/plain`` leaf (``MalformedMimeStructure``), as the stdlib and
  MimeKit keep it.
* The parts of ``multipart/digest`` default to ``message/rfc822`` (RFC 2046 5.1.5); other parts
  without a Content-Type are ``text/plain`` (RFC 2045 5.2); so is a part whose Content-Type
  is no ``type/subtype`` (``text``, ``text/html\\x01``, empty: the RFC's advice for a
  syntactically invalid field), with a ``MalformedMimeStructure`` at the field's value.
* A part holding a message (message/rfc822, message/global, message/news; a TNEF ``winmail.dat``;
  an attached Outlook ``.msg``) is read through :meth:`ReadContext.nested`, after its transfer
  encoding is removed (a base64 or quoted-printable message/rfc822 is decoded, then read).
  Delivery and disposition reports (message/delivery-status, ...) are text (M8).
* Levels below :data:`~onemail.message.formats.MAX_MIME_LEVELS` are one opaque leaf: media type
  as written, body bytes, no text, ``MessageNestingLimitExceeded`` (M7).

Structure damage (``MalformedMimeStructure``) is at ``mime`` (the top-level body) or
``mime:<path>`` (a multipart part), offsets into the message's bytes. Every value is decoded by
the text layer (:mod:`.headers`, :mod:`.addresses`, :mod:`.dates`); bodies by :mod:`.transfer`
and :mod:`.bodycharset`.
"""

from __future__ import annotations

import mimetypes
import re
from typing import TYPE_CHECKING, Any

from ..text.issues import BoundedIssues, TextIssue
from . import headers as hdr
from .addresses import parse_addresses
from .bodycharset import decode_body
from .dates import parse_date
from .fields import Field, find, split_header
from .formats import (
    MAX_HEADER_BYTES,
    MAX_MIME_LEVELS,
    MAX_PARTS,
    OLE_SIGNATURE,
    ReadContext,
    nested_issues,
)
from .issues import MessageIssueKind
from .model import Header, Message, MessageIssue, Part, bounded
from .transfer import decode_transfer, uu_blocks

if TYPE_CHECKING:
    from ..text.charsets import Charset

__all__ = ["parse"]

_MESSAGE_TYPES = frozenset({"message/rfc822", "message/global", "message/news"})
#: Read as text (M8): RFC 3464 / 8098 / 6533 reports, RFC 5965 feedback reports (header-like
#: field blocks), RFC 2046 5.2.3 external bodies (the headers of the external entity), RFC 2046
#: 5.2.2 fragments of a message (message/partial: one fragment alone is no message), and the
#: RFC 1892 spelling of text/rfc822-headers.
_FIELD_BLOCKS = frozenset({"message/delivery-status", "message/disposition-notification",
                           "message/global-delivery-status", "message/global-disposition-notification",
                           "message/feedback-report", "message/external-body", "message/partial",
                           "message/rfc822-headers"})
_TNEF_TYPES = frozenset({"application/ms-tnef", "application/vnd.ms-tnef"})
_MSG_TYPES = frozenset({"application/vnd.ms-outlook", "application/octet-stream", "application/x-msg"})
_MEDIA_TYPE = re.compile(r"[!#$%&'*+.^_`|~0-9a-z-]+/[!#$%&'*+.^_`|~0-9a-z-]+")
_ONLY_WS = re.compile(rb"[ \t\r]*")

_CONTENT_TYPE = b"content-type"
_CONTENT_DISPOSITION = b"content-disposition"
_CONTENT_TRANSFER_ENCODING = b"content-transfer-encoding"
_CONTENT_ID = b"content-id"
_ADDRESS_FIELDS = {"from": "from_", "to": "to", "cc": "cc", "bcc": "bcc", "reply-to": "reply_to"}


def parse(data: bytes, ctx: ReadContext, *, fmt: str = "rfc822") -> Message:
    """Read an RFC 5322 / MIME message from its bytes (module docstring); never raises on bad
    input.

    :param data: the whole message (an mbox separator line already removed).
    :param ctx: the reading context (repair flag, nesting depth, the nested-message reader).
    :param fmt: the :attr:`Message.format` to give (``"rfc822"`` or ``"mbox"``).
    :returns: the :class:`Message`: headers in order with their raw bytes and offsets,
        addresses, date, leaf parts in document order, every issue with its place.
    """
    block_issues: list[MessageIssue] = []
    fields, body = split_header(data, _header_start(data), len(data), issues=block_issues, where="headers")
    block_issues = bounded(block_issues)
    walk = _Walk(data, ctx)
    walk.run(fields, body)
    fallback = None
    if any(not f.value.isascii() for f in fields):
        fallback = hdr.raw_8bit_fallback(fields, body_label=walk.hint[0], body=walk.hint[1])
    headers: list[Header] = []
    issues: list[MessageIssue] = []
    values: dict[str, Any] = {}  # subject (str), addresses (tuples), date (datetime | None)
    pending = iter(block_issues)
    block = next(pending, None)
    for f in fields:
        while block is not None and block.offset < f.offset:
            issues.append(block)
            block = next(pending, None)
        h = hdr.decode_header(f, fallback=fallback)
        headers.append(h)
        issues.extend(h.issues)
        low = h.name.lower()
        if low in values:
            continue
        if low == "subject":
            values[low] = h.value
        elif low in _ADDRESS_FIELDS:
            found: list[MessageIssue] = []
            values[low] = parse_addresses(f.value, fallback=fallback, where=f"header:{h.name}", issues=found)
            issues.extend(bounded(found))
        elif low == "date":
            values[low] = parse_date(f.value, where=f"header:{h.name}", issues=issues)
    if block is not None:
        issues.append(block)
        issues.extend(pending)
    issues.extend(walk.issues)
    msg = Message(fmt, tuple(headers), values.get("subject"), values.get("from", ()),
                  values.get("to", ()), values.get("cc", ()), values.get("date"), tuple(walk.parts),
                  (), tuple(issues), bcc=values.get("bcc", ()), reply_to=values.get("reply-to", ()))
    from .repair import mark_mojibake, repair_message

    return repair_message(msg) if ctx.repair else mark_mojibake(msg)


def _header_start(data: bytes) -> int:
    """Where the header section starts: after a UTF-8 byte order mark (a message saved by an
    editor) and after an mbox ``"From "`` line at the top (a message/rfc822 part copied from a
    mailbox: flanker's yahoo complaint), neither of which is a header field (M10)."""
    start = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    if data.startswith(b"From ", start):
        nl = data.find(b"\n", start)
        if nl >= 0:
            start = nl + 1
    return start


class _Walk:
    """The MIME tree of one message, walked depth first into leaf parts and issues."""

    __slots__ = ("data", "ctx", "parts", "issues", "hint")

    def __init__(self, data: bytes, ctx: ReadContext) -> None:
        self.data = data
        self.ctx = ctx
        self.parts: list[Part] = []
        self.issues: list[MessageIssue] = []
        #: (charset label, body bytes) of the first text leaf: the M9 hint for 8-bit headers
        self.hint: tuple[str | None, bytes] = (None, b"")

    def run(self, fields: list[Field], body: int) -> None:
        data = self.data
        # (fields or None, entity start, body start, end, path, level, default media type)
        stack: list[tuple[list[Field] | None, int, int, int, str, int, str]] = [
            (fields, 0, body, len(data), "", 0, "text/plain")]
        hinted = False
        while stack:
            fields_, start, body, end, path, level, default = stack.pop()
            if level < 0 or len(self.parts) >= MAX_PARTS:  # M15: the rest is one opaque leaf
                self._rest(start, end if level < 0 else len(data), path)
                if level >= 0:
                    break
                continue
            if fields_ is None:
                found: list[MessageIssue] = []
                fields_, body = split_header(data, start, end, issues=found, where=f"part:{path}/headers")
                self.issues.extend(bounded(found))
            leaf = path or "1"
            fallback = hdr.raw_8bit_fallback(fields_) if any(not f.value.isascii() for f in fields_) else None
            ct = find(fields_, _CONTENT_TYPE)
            params: dict[str, str] = {}
            media = default
            if ct is not None:
                main, params = hdr.parameters(ct.value, f"part:{leaf}", issues=self.issues, fallback=fallback)
                main = main.strip().strip('"').lower()
                if _MEDIA_TYPE.fullmatch(main):
                    media = main
                else:  # RFC 2045 5.2: the default, as for no Content-Type; the field is damage
                    self.issues.append(MessageIssue(MessageIssueKind.MALFORMED_MIME_STRUCTURE,
                                                    f"mime:{path}" if path else "mime", ct.offset, ct.length))
            if media.startswith("multipart/"):
                where = f"mime:{path}" if path else "mime"
                if level >= MAX_MIME_LEVELS:
                    self._opaque(fields_, body, end, leaf, media, params)
                    continue
                boundary = params.get("boundary", "").rstrip(" ").encode("utf-8", "surrogateescape")
                cut = _split(data, body, end, boundary, self.issues, where, MAX_PARTS) if boundary else None
                if cut is None:  # no boundary, or never found: the body is text
                    at = (ct.offset, ct.length) if not boundary and ct is not None else (body, end - body)
                    self.issues.append(MessageIssue(MessageIssueKind.MALFORMED_MIME_STRUCTURE, where, *at))
                    media = "text/plain"
                else:
                    children, closed, rest = cut
                    if not closed:
                        self.issues.append(MessageIssue(MessageIssueKind.MALFORMED_MIME_STRUCTURE, where, end, 0))
                    child_default = "message/rfc822" if media == "multipart/digest" else "text/plain"
                    prefix = f"{path}." if path else ""
                    if rest is not None:  # parts past MAX_PARTS: a marker the loop turns into one leaf
                        stack.append((None, rest, rest, end, f"{prefix}{len(children) + 1}", -1, ""))
                    stack.extend(reversed([
                        (None, cs, cs, ce, f"{prefix}{n}", level + 1, child_default)
                        for n, (cs, ce) in enumerate(children, 1)]))
                    continue
            elif level >= MAX_MIME_LEVELS and media in _MESSAGE_TYPES:
                self._opaque(fields_, body, end, leaf, media, params)
                continue
            part = self._leaf(fields_, body, end, leaf, media, params, fallback, root=not path)
            if not hinted and part.media_type.startswith("text/"):
                self.hint = (params.get("charset"), part.data)
                hinted = True

    def _rest(self, start: int, end: int, path: str) -> None:
        """M15: the parts from ``start`` on, past :data:`MAX_PARTS`, as one opaque leaf."""
        data = self.data[start:end]
        path = path or "1"
        issue = MessageIssue(MessageIssueKind.TOO_MANY_PARTS, f"part:{path}", 0, len(data))
        self.issues.append(issue)
        self.parts.append(Part(path, "application/octet-stream", data=data, issues=(issue,)))

    def _opaque(self, fields: list[Field], body: int, end: int, path: str, media: str,
                params: dict[str, str]) -> None:
        """A part below the level cap: its bytes as they stand, one issue (M7)."""
        data = self.data[body:end]
        issue = MessageIssue(MessageIssueKind.MESSAGE_NESTING_LIMIT_EXCEEDED, f"part:{path}", 0, len(data))
        self.issues.append(issue)
        self.parts.append(Part(path, media, data=data, issues=(issue,)))

    def _leaf(self, fields: list[Field], body: int, end: int, path: str, media: str,
              params: dict[str, str], fallback: Charset | None, *, root: bool) -> Part:
        where = f"part:{path}"
        part_issues: list[MessageIssue] = []
        if not root:
            for f in fields:  # a part's fields are not decoded, but an over-long one is reported
                if f.length > MAX_HEADER_BYTES:
                    name = f.name.decode("latin-1")
                    part_issues.append(MessageIssue(MessageIssueKind.HEADER_TOO_LONG, f"{where}/header:{name}",
                                                    MAX_HEADER_BYTES, f.length - MAX_HEADER_BYTES))
        cd = find(fields, _CONTENT_DISPOSITION)
        disposition = None
        dparams: dict[str, str] = {}
        if cd is not None:
            main, dparams = hdr.parameters(cd.value, where, issues=part_issues, fallback=fallback)
            disposition = main.strip().strip('"').strip().lower() or None
        filename = dparams.get("filename") or params.get("name")
        cid_field = find(fields, _CONTENT_ID)
        cid = None
        if cid_field is not None:
            cid = cid_field.value.decode("utf-8", "replace").strip().strip("<>").strip() or None
        cte_field = find(fields, _CONTENT_TRANSFER_ENCODING)
        cte = hdr.token(cte_field.value) if cte_field is not None else ""
        found: list[TextIssue] = BoundedIssues()
        data, trailer, uu_name = decode_transfer(self.data, cte, issues=found, start=body, end=end)
        part_issues.extend(MessageIssue.placed(where, found))
        found = BoundedIssues()
        if filename is None and uu_name:
            filename = uu_name
        text = charset = source = None
        nested = None
        low_name = (filename or "").lower()
        later: list[MessageIssue] = []
        uu: list[tuple[int, int, str, bytes]] = []
        if media in _MESSAGE_TYPES:
            nested = self.ctx.nested(data, "rfc822", where, issues=part_issues)
        elif media in _FIELD_BLOCKS:  # RFC 3464 fields; RFC 6533 global reports are UTF-8
            text, cs, source = decode_body(data, "text/plain", params.get("charset") or (
                "utf-8" if media.startswith("message/global-") else None), issues=found)
            charset = cs.name
        elif media.startswith("text/") and not (disposition == "attachment" and low_name.endswith(".msg")):
            uu = uu_blocks(data) if media == "text/plain" and b"\nbegin " in b"\n" + data else []
            text, cs, source = decode_body(_without(data, uu) if uu else data, media, params.get("charset"),
                                           issues=found)
            charset = cs.name
            if uu:  # M14: offsets back into the body as it was, the blocks reported
                found = _shifted(found, uu)
                part_issues.extend(MessageIssue(MessageIssueKind.AMBIGUOUS_UUENCODED_FILE, where, a, b - a)
                                   for a, b, _, _ in uu)
            if trailer:  # M13: the text after base64 data, in its own right (UTF-8 or windows-1252)
                text += decode_body(trailer, "text/plain", None, issues=[])[0]
        elif media in _TNEF_TYPES or low_name == "winmail.dat":
            nested = self.ctx.nested(data, "tnef", where, issues=part_issues)
        elif (media in _MSG_TYPES or low_name.endswith(".msg")) and data.startswith(OLE_SIGNATURE):
            nested = self.ctx.nested(data, "msg", where, issues=part_issues)
        part_issues.extend(MessageIssue.placed(where, found))
        if nested is not None:
            if nested.error is not None and nested.format in ("tnef", "msg"):
                # a winmail.dat or .msg that cannot be read at all: one issue at the part (zbateson's
                # m4006.txt sample holds a PNG named winmail.dat)
                kind = MessageIssueKind.MALFORMED_TNEF if nested.format == "tnef" else MessageIssueKind.MALFORMED_MSG
                part_issues.append(MessageIssue(kind, where, 0, len(data)))
            later = nested_issues(nested, where)
        part = Part(path, media, disposition, filename, charset, source, text, data,
                    tuple(part_issues), "mime", False, nested, cid)
        self.parts.append(part)
        self.issues.extend(part_issues)
        self.issues.extend(later)
        for n, (_, _, name, decoded) in enumerate(uu, 1):  # M14: each uuencoded file is a part
            media = (mimetypes.guess_type(name)[0] if name else None) or "application/octet-stream"
            self.parts.append(Part(f"{path}.uu{n}", media, "attachment", name or None, data=decoded,
                                   origin="uuencode"))
        return part


def _without(data: bytes, blocks: list[tuple[int, int, str, bytes]]) -> bytes:
    """``data`` with the byte spans of ``blocks`` removed."""
    pieces, pos = [], 0
    for start, end, _, _ in blocks:
        pieces.append(data[pos:start])
        pos = end
    pieces.append(data[pos:])
    return b"".join(pieces)


class _Shifted(list[TextIssue]):
    """Issues moved back into the body (:func:`_shifted`), with the count the bound dropped."""

    dropped = 0


def _shifted(found: list[TextIssue], blocks: list[tuple[int, int, str, bytes]]) -> list[TextIssue]:
    """Issues found in a body with ``blocks`` removed, their offsets moved back into the body."""
    out = _Shifted()
    out.dropped = getattr(found, "dropped", 0)
    for i in found:
        offset, removed = i.offset, 0
        for start, end, _, _ in blocks:
            if start - removed <= offset:
                removed += end - start
        out.append(type(i)(i.kind, offset + removed, i.length))
    return out


def _split(data: bytes, start: int, end: int, boundary: bytes, issues: list[MessageIssue],
           where: str, limit: int = MAX_PARTS) -> tuple[list[tuple[int, int]], bool, int | None] | None:
    """Cut the multipart body ``data[start:end]`` at its delimiter lines (RFC 2046 5.1.1).

    Two delimiter lines in a row hold no part (not even an empty header section): skipped,
    ``MalformedMimeStructure`` at the second.

    :returns: ``([(part start, part end), ...], closed, rest)`` with ``closed`` False when no
        close delimiter was found and ``rest`` the offset of the delimiter line of part
        ``limit + 1`` when there are more parts (else ``None``: scanning stops there), or
        ``None`` when no delimiter line opens a part (the body is then read as text, so nothing
        of it is lost).
    """
    delim = b"--" + boundary
    size = len(delim)
    lines: list[tuple[int, int, bool]] = []  # (delimiter line start, line end after its LF, close)
    truncated = False
    pos = start
    while True:
        j = data.find(delim, pos, end)
        if j < 0:
            break
        pos = j + size
        if j != start and data[j - 1] != 0x0A:
            continue
        k = j + size
        close = k + 2 <= end and data[k] == 0x2D and data[k + 1] == 0x2D
        if close:
            k += 2
        nl = data.find(b"\n", k, end)
        line_end = end if nl < 0 else nl
        if _ONLY_WS.fullmatch(data, k, line_end) is None:
            if not close:
                continue  # "--B" then more: another boundary, or text
            # "--B--" then junk (enmime's epilogue-sample "--B-->"): still the close delimiter
            issues.append(MessageIssue(MessageIssueKind.MALFORMED_MIME_STRUCTURE, where, k, line_end - k))
        lines.append((j, end if nl < 0 else nl + 1, close))
        if close:
            break
        if len(lines) > limit:  # enough: the rest is not cut (M15)
            truncated = True
            break
        pos = line_end
    if not lines:
        return None
    parts = []
    if truncated:  # the last line found opens the first part not cut
        rest, lines = lines[-1][0], lines[:-1] + [(lines[-1][0], lines[-1][0], True)]
    for n, (_, after, close) in enumerate(lines):
        if close:
            break
        if n + 1 < len(lines):
            stop = lines[n + 1][0]
            if stop == after:  # two delimiter lines in a row: no part between them
                issues.append(MessageIssue(MessageIssueKind.MALFORMED_MIME_STRUCTURE, where, stop, 0))
                continue
            if data[stop - 1] == 0x0A:
                stop -= 1
                if stop > after and data[stop - 1] == 0x0D:
                    stop -= 1
        else:
            stop = end
        parts.append((after, max(after, stop)))
    if lines[0][2]:  # only a close delimiter: no part was ever opened
        return None
    if truncated:
        return parts, True, rest
    return parts, lines[-1][2], None
