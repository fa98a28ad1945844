"""RFC 5322 / MIME messages: structure by the stdlib, every value and body by onemail.

The stdlib parser (``BytesParser(policy=policy.compat32)``) splits the message into header
fields and parts and keeps raw bytes (8-bit bytes as surrogates); it never decodes a value.
onemail then decodes each header (:mod:`.headers`), removes the transfer encoding
(:mod:`.transfer`), chooses each text body's charset (:mod:`.bodycharset`) and opens
``message/rfc822`` parts, TNEF ``winmail.dat`` and attached Outlook ``.msg`` files as nested
messages. The parser's defects become ``MalformedMimeStructure`` issues (they carry no position).

Nesting is capped before the stdlib parser sees the bytes (:func:`limit_nesting`): its parser
recurses once per multipart or message level and would stop with ``RecursionError`` near 1000
levels, losing the whole message. A part below the cap is kept as one opaque leaf (its media type
as written, its body bytes, no text) with ``MessageNestingLimitExceeded``.
"""

from __future__ import annotations

import email.message
import re
from email import policy
from email.parser import BytesParser
from itertools import pairwise

from ..text import TextIssue
from . import headers as hdr
from .bodycharset import decode_body
from .issues import MessageIssueKind
from .model import Header, Message, MessageIssue, Part
from .transfer import decode_transfer

__all__ = ["from_bytes", "from_stdlib"]

_PARSER = BytesParser(policy=policy.compat32)

MAX_DEPTH = 20
"""Nested messages (message/rfc822 in message/rfc822 ...) deeper than this are not opened: a
guard against hostile input; real mail in the corpus nests at most 3 levels. A message not
opened because of it is a ``MessageNestingLimitExceeded`` issue at its part."""

MAX_MIME_LEVELS = 200
"""Multipart and message levels (counted from the outermost message of one MIME parse) kept as
structure; a part deeper than this is one opaque leaf with ``MessageNestingLimitExceeded``. The stdlib
parser takes one Python frame per level and fails near 980 (Python 3.11); the corpus holds a
test message of 101 levels (horde-mime deeply_nested.txt), real mail fewer than 10. A MIME
message nested in a TNEF or .msg attachment at message depth ``d`` gets ``200 >> d`` levels, so
that all parses together stay far below Python's recursion limit."""

_FIELD_START = re.compile(rb"\n(?![ \t])")
_FIELD_NAME = re.compile(rb"([\x21-\x39\x3b-\x7e]+)[ \t]*:")

# The parser recurses on these (message/delivery-status excepted): a Content-Type header line
# (folds included) or a boundary line.
_NESTING = re.compile(rb"^(?:content-type:[ \t]*(?:\r?\n[ \t]+)*(multipart|message)/([^\r\n]*(?:\r?\n[ \t][^\r\n]*)*)"
                      rb"|--([^\r\n]*))", re.I | re.M)
_BOUNDARY = re.compile(rb'(?i)(?:^|[;\s])boundary(?:\*?[0-9]*\*?)[ \t]*=[ \t]*(?:"([^"\r\n]*)"|([^;\s]+))')
# Cut levels get a media type the parser does not open, of the same length (offsets hold).
_CUT_TYPES = {b"multipart": b"x-toodeep", b"message": b"x-deep-"}
_UNCUT = {"x-toodeep": "multipart", "x-deep-": "message"}

_TNEF_TYPES = frozenset({"application/ms-tnef", "application/vnd.ms-tnef"})
_MSG_TYPES = frozenset({"application/vnd.ms-outlook", "application/x-msg"})
# the stdlib parses these as header blocks (message/delivery-status) or as a message; they are
# RFC 3464 / RFC 6533 field blocks, read as text
_FIELD_BLOCKS = frozenset({"message/delivery-status", "message/global-delivery-status"})


def from_bytes(data: bytes, fmt: str = "rfc822", *, repair: bool = False, depth: int = 0) -> Message:
    """Read an RFC 5322 message from ``data``; never raises on bad input.

    Multipart/message nesting deeper than ``MAX_MIME_LEVELS >> depth`` levels is cut
    (:func:`limit_nesting`); each cut part is an opaque leaf with ``MessageNestingLimitExceeded``.
    """
    data, cut = limit_nesting(cut_long_fields(data), max(1, MAX_MIME_LEVELS >> depth))
    return from_stdlib(_PARSER.parsebytes(data), fmt, repair=repair, depth=depth, _cut=cut)


def cut_long_fields(data: bytes) -> bytes:
    """Cut header fields whose value is over ``MAX_HEADER_BYTES`` (1 MiB) before the stdlib
    parser copies them (a 50 MB Subject cost 11x its size in memory).

    Fields looked at: every field of the top-level header section, and any field of a part's
    header block (after a boundary line) that holds a line over 1 MiB. Such a value keeps its first
    MiB, then a NUL and its length in bytes (the value as compat32 gives it: after the colon and
    leading white space, folds kept, the last line break removed) in ASCII digits: that tail is
    beyond the decoded MiB and gives ``HeaderTooLong`` its true length (:func:`_true_length`).
    A body line over 1 MiB (a base64 body without line breaks) is not touched.
    """
    limit = hdr.MAX_HEADER_BYTES
    n = len(data)
    if n <= limit:
        return data
    ends = [i for i in (data.find(b"\n\n"), data.find(b"\n\r\n")) if i >= 0]
    head_end = min(ends) + 1 if ends else n
    starts: set[int] = set()
    if head_end > limit:  # the top-level section: each field by its start
        bounds = [0] + [m.end() for m in _FIELD_START.finditer(data, 0, head_end)] + [head_end]
        starts.update(a for a, b in pairwise(bounds) if b - a > limit)
    # a line over the limit holds a whole window of limit // 2 bytes without a line feed
    half, pos = limit // 2, head_end
    while pos + half <= n:
        if data.find(b"\n", pos, pos + half) >= 0:
            pos += half
            continue
        field = _field_of_long_line(data, data.rfind(b"\n", 0, pos) + 1)
        if field is not None:
            starts.add(field)
        end = data.find(b"\n", pos)
        pos = n if end < 0 else end + 1
    pieces, pos = [], 0
    for start in sorted(starts):
        name = _FIELD_NAME.match(data, start, start + 1000)
        if name is None or start < pos:
            continue
        stop = data.find(b"\n", name.end())
        while 0 <= stop < n - 1 and data[stop + 1] in b" \t":  # folds
            stop = data.find(b"\n", stop + 1)
        stop = n if stop < 0 else stop + 1
        vstart = name.end()
        while vstart < stop and data[vstart] in b" \t":
            vstart += 1
        vend = stop
        while vend > vstart and data[vend - 1] in b"\r\n":
            vend -= 1
        if vend - vstart > limit:
            pieces += [data[pos:vstart + limit], b"\0%d" % (vend - vstart)]
            pos = vend
    if not pieces:
        return data
    pieces.append(data[pos:])
    return b"".join(pieces)


def _field_of_long_line(data: bytes, line: int) -> int | None:
    """The start of the header field holding the line at ``line``, when that line is in a part's
    header block (the lines before it, back to a boundary line, are fields or folds), else None."""
    start = line
    for _ in range(10_000):
        if start == 0:
            return None  # the top-level section is handled whole
        prev = data.rfind(b"\n", 0, start - 1) + 1
        if start - prev <= 2 and data[prev:start] in (b"\n", b"\r\n"):
            return None  # a blank line: this is a body
        if data.startswith(b"--", prev):
            return line if _FIELD_NAME.match(data, line, line + 1000) else None
        if data[line] in b" \t":
            line = prev  # a fold: the field starts higher up
        start = prev
    return None


def limit_nesting(data: bytes, limit: int) -> tuple[bytes, bool]:
    """Return ``data`` with every multipart/message level below ``limit`` made a leaf, and
    whether anything was cut.

    A cheap count of ``multipart/`` and ``message/`` first: with at most ``limit`` of them no level
    can be cut. Otherwise the Content-Type header lines and boundary lines are followed as the
    parser follows them (a boundary line closes every level opened inside its multipart; a
    message level closes with its parent), and the media type of each Content-Type that opens
    level ``limit + 1`` is overwritten in place with a same-length type the parser keeps as one
    leaf (``x-toodeep/...``, ``x-deep-/...``; :func:`from_stdlib` restores the name). Content-Type
    lines inside bodies count as levels too, so the count errs on the deep side.

    :param data: the whole message. :param limit: levels kept (>= 1).
    :returns: ``(bytes, cut)``; ``data`` itself when nothing is cut.
    """
    low = data.lower()
    if low.count(b"multipart/") + low.count(b"message/") <= limit:
        return data, False
    del low
    stack: list[bytes | None] = []  # a boundary per multipart level, None per message level
    cuts: list[int] = []
    for m in _NESTING.finditer(data):
        kind = m.group(1)
        if kind is None:  # a boundary line: close the levels opened inside its multipart
            line = m.group(3).rstrip(b" \t\r")
            for i in range(len(stack) - 1, -1, -1):
                b = stack[i]
                if b is not None and (line == b or line == b + b"--"):
                    del stack[i + (line == b):]
                    break
            continue
        kind = kind.lower()
        if kind == b"message":
            if m.group(2)[:15].lower().startswith(b"delivery-status"):
                continue
            level = None
        else:
            bm = _BOUNDARY.search(m.group(2))
            if bm is None:  # no boundary: the parser keeps the body as text
                continue
            level = (bm.group(1) if bm.group(1) is not None else bm.group(2)).rstrip()
        if len(stack) == limit:
            cuts.append(m.start(1))
        stack.append(level)
    if not cuts:
        return data, False
    pieces, pos = [], 0
    for c in cuts:
        word = data[c:c + 9].lower()
        word = b"multipart" if word == b"multipart" else b"message"
        pieces += [data[pos:c], _CUT_TYPES[word]]
        pos = c + len(word)
    pieces.append(data[pos:])
    return b"".join(pieces), True


def _body_hint(em: email.message.Message) -> tuple[str | None, bytes]:
    """Return ``(declared charset label, body bytes)`` of the message's first text part (M9),
    ``(None, b"")`` when there is none or when raw 8-bit header text cannot occur (no 8-bit
    header value)."""
    if all(value.isascii() for _, value in em._headers):  # noqa: SLF001
        return None, b""
    for part in em.walk():
        if part.get_content_maintype() == "text" and not part.is_multipart():
            try:
                body = part.get_payload(decode=True)
            except Exception:  # noqa: BLE001 - a damaged part gives no hint, never an error
                body = None
            label = part.get_param("charset")
            return (label if isinstance(label, str) else None), (body if isinstance(body, bytes) else b"")
    return None, b""


def from_stdlib(em: email.message.Message, fmt: str = "rfc822", *, repair: bool = False,
                depth: int = 0, _cut: bool = False) -> Message:
    """Convert a compat32 :class:`email.message.Message` into a :class:`Message`.

    A ``message/*`` at the top (an envelope around one message) is one part holding the
    enclosed message, as anywhere else in the tree.
    """
    issues: list[MessageIssue] = []
    headers = []
    fallback = hdr.raw_8bit_fallback(em._headers, *_body_hint(em))  # noqa: SLF001
    for name, value in em._headers:  # noqa: SLF001 - the raw (name, value) pairs, in order
        h = hdr.decode_header(name, value, fallback)
        if len(value) > hdr.MAX_HEADER_BYTES:
            h = Header(h.name, h.value, tuple(
                TextIssue(i.kind, i.offset, _true_length(value) - i.offset)
                if i.kind is MessageIssueKind.HEADER_TOO_LONG else i for i in h.issues))
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
    if em.is_multipart() and em.get_content_maintype() == "multipart":
        _defects(em, "mime", issues)
        _children(em, "", parts, issues, repair, depth, _cut)
    else:
        _leaf(em, "1", parts, issues, repair, depth, _cut, root=True)
    msg = Message(fmt, tuple(headers), subject, from_ or (), to or (), cc or (), date, tuple(parts),
                  (), tuple(issues))
    if repair:
        from .repair import repair_message

        msg = repair_message(msg)
    return msg


def _true_length(value: str) -> int:
    """The length in bytes of a raw value before :func:`cut_long_fields` cut it."""
    limit = hdr.MAX_HEADER_BYTES
    if len(value) > limit + 1 and value[limit] == "\0" and value[limit + 1:].isdigit():
        return int(value[limit + 1:])
    return len(value.encode("ascii", "surrogateescape"))


def _get(em, name: str) -> str | None:
    """The first raw value of header ``name`` (compat32's ``get`` may return a Header object)."""
    for key, value in em._headers:  # noqa: SLF001
        if key.lower() == name:
            return value
    return None


def _defects(em, where: str, issues: list[MessageIssue]) -> None:
    for _ in em.defects:
        issues.append(MessageIssue(MessageIssueKind.MALFORMED_MIME_STRUCTURE, where, 0, 0))


def _children(em, prefix: str, parts, issues, repair, depth, cut) -> None:
    payload = em._payload  # noqa: SLF001
    if not isinstance(payload, list):  # multipart without a usable boundary: the stdlib keeps text
        _leaf(em, prefix + "1", parts, issues, repair, depth, cut, media_type="text/plain")
        return
    for n, child in enumerate(payload, 1):
        path = f"{prefix}{n}"
        if child.is_multipart() and child.get_content_maintype() == "multipart":
            _defects(child, f"mime:{path}", issues)
            _children(child, path + ".", parts, issues, repair, depth, cut)
        else:
            _leaf(child, path, parts, issues, repair, depth, cut)


def _leaf(em, path: str, parts, issues, repair, depth, cut=False, media_type: str | None = None,
          root: bool = False) -> None:
    where = f"part:{path}"
    _defects(em, f"mime:{path}", issues)
    media_type = media_type or em.get_content_type()
    for name, value in () if root else em._headers:  # noqa: SLF001 - a part's fields are not
        if len(value) > hdr.MAX_HEADER_BYTES:  # decoded, but an over-long one is reported
            issues.append(MessageIssue(MessageIssueKind.HEADER_TOO_LONG, f"{where}/header:{name}",
                                       hdr.MAX_HEADER_BYTES, _true_length(value) - hdr.MAX_HEADER_BYTES))
    too_deep = cut and media_type.split("/", 1)[0] in _UNCUT
    if too_deep:  # a level limit_nesting cut: the media type as written, the body opaque
        media_type = _UNCUT[media_type.split("/", 1)[0]] + "/" + media_type.split("/", 1)[1]
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
    if isinstance(payload, list) and media_type in _FIELD_BLOCKS:
        # the stdlib splits a delivery report into header blocks (per message, per recipient):
        # rebuild its text so that no block is lost (folds kept, one space after each colon)
        payload = "\n".join(_field_block(b) for b in payload if isinstance(b, email.message.Message))
    if isinstance(payload, list):  # message/rfc822 (or a multipart the stdlib kept as one part)
        nested = None
        part_issues = []
        if payload and depth < MAX_DEPTH:
            nested = from_stdlib(payload[0], repair=repair, depth=depth + 1, _cut=cut)
        elif payload:
            part_issues.append(MessageIssue(MessageIssueKind.MESSAGE_NESTING_LIMIT_EXCEEDED, where, 0, 0))
            issues.extend(part_issues)
        if nested is not None:
            _nest(nested, where, issues)
        parts.append(Part(path, media_type, disposition, filename, issues=tuple(part_issues),
                          content_id=cid, message=nested))
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
    if too_deep:
        part_issues.append(MessageIssue(MessageIssueKind.MESSAGE_NESTING_LIMIT_EXCEEDED, where, 0, len(data)))
    elif media_type in _FIELD_BLOCKS:  # RFC 3464 fields; RFC 6533 global reports are UTF-8
        text, cs, source = decode_body(data, "text/plain", params.get("charset") or (
            "utf-8" if media_type == "message/global-delivery-status" else None), found)
        charset = cs.name
        part_issues.extend(MessageIssue.at(where, i) for i in found)
    elif media_type.startswith("text/") and not (disposition == "attachment" and low_name.endswith(".msg")):
        charset_label = params.get("charset")
        text, cs, source = decode_body(data, media_type, charset_label, found)
        charset = cs.name
        part_issues.extend(MessageIssue.at(where, i) for i in found)
    elif media_type in _TNEF_TYPES or low_name == "winmail.dat" or (
            (media_type in _MSG_TYPES or low_name.endswith(".msg"))
            and data[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"):
        if depth >= MAX_DEPTH:
            part_issues.append(MessageIssue(MessageIssueKind.MESSAGE_NESTING_LIMIT_EXCEEDED, where, 0, len(data)))
        elif media_type in _TNEF_TYPES or low_name == "winmail.dat":
            from .tnef import read_tnef

            nested = read_tnef(data, repair=repair, depth=depth + 1)
        else:
            from .msg import read_msg

            nested = read_msg(data, repair=repair, depth=depth + 1)
    if nested is not None and nested.error is not None:
        # a winmail.dat or .msg that cannot be read at all: one issue at the part (zbateson's
        # m4006.txt sample holds a PNG named winmail.dat)
        kind = MessageIssueKind.MALFORMED_TNEF if nested.format == "tnef" else MessageIssueKind.MALFORMED_MSG
        part_issues.append(MessageIssue(kind, where, 0, len(data)))
    issues.extend(part_issues)
    if nested is not None:
        _nest(nested, where, issues)
    parts.append(Part(path, media_type, disposition, filename, charset, source, text, data,
                      tuple(part_issues), "mime", False, nested, cid))


def _field_block(block) -> str:
    """The text of one header block as the stdlib split it (a body it kept is appended)."""
    text = "".join(f"{k}: {v}\n" for k, v in block._headers)  # noqa: SLF001
    body = block._payload  # noqa: SLF001
    return text + "\n" + body if isinstance(body, str) and body else text


def _nest(nested: Message, where: str, issues: list[MessageIssue]) -> None:
    """Add a nested message's issues to the parent's, places prefixed with the part's."""
    for i in nested.issues:
        issues.append(MessageIssue(i.kind, f"{where}>{i.where}", i.offset, i.length))
