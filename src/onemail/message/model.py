"""The data model of a read message: :class:`Message`, :class:`Part`, :class:`Header`,
:class:`Address`, :class:`MessageIssue`, :class:`MapiProperty`.

All are frozen, slotted dataclasses holding tuples (house style section 3). Every result has a
``to_json()`` giving plain JSON types, used by ``onemail read --json`` and ``onemail scan``.

Where an issue came from (:attr:`MessageIssue.where`):

* ``header:<Name>`` -- a header value; ``offset`` is a byte offset into the raw value
  (:attr:`Header.raw`: the bytes after ``Name:``, folds included). Also the addresses
  (``MalformedAddress``) and the date (``MalformedDate``) read from it.
* ``headers`` / ``part:<path>/headers`` -- the header section of the message or of a part
  (``MalformedHeader``); ``offset`` into the message's bytes.
* ``part:<path>`` -- a leaf part's body; ``offset`` is a byte offset into the body after the
  transfer encoding was removed (for ``InvalidBase64`` / ``InvalidQuotedPrintable``, into the
  body as it stands in the message). Part paths number MIME children from 1 (``1.2`` is the
  second child of the first child); the root of a single-part message is ``1``.
* ``part:<path>/<parameter>`` -- a parameter (``filename``, ``name``) of that part's
  Content-Type / Content-Disposition; ``offset`` into the header value.
* ``part:<path>/header:<Name>`` -- a part's header field over 1 MiB (``HeaderTooLong``; a part's
  other fields are not decoded); ``offset`` into the raw value.
* ``mime`` / ``mime:<path>`` -- MIME structure damage of the top-level body or of a multipart
  part (``MalformedMimeStructure``); ``offset`` into the message's bytes.
* ``msg:<stream or property>`` / ``tnef:<attribute>`` / ``pst:<attachmentN or recipients>`` --
  Outlook container damage; ``offset`` into the stream or the TNEF file (0 for a PST).
* ``mbox`` -- where the message was cut out of its mailbox (``AmbiguousMboxSeparator``,
  ``AmbiguousMboxQuoting``, ``AmbiguousMboxContentLength``: docs/ambiguities.md M20-M22);
  ``offset`` into the message's bytes as they stand in the mailbox (``Source.offset`` plus it is
  an offset into the file).
* ``rtf:<path>`` -- an :class:`onemail.rtf.RtfDefect` from decompression or de-encapsulation;
  ``offset`` into the compressed stream or the decompressed RTF.
* ``<place>><place>`` -- an issue of a nested message (``part:2>header:Subject``): the place of
  the part holding it, ``>``, the place inside it; offsets are into the nested message's bytes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ..text.issues import IssueKind
from .issues import AnyIssueKind

if TYPE_CHECKING:
    from ..rtf.defects import RtfDefect
    from ..text.issues import TextIssue

__all__ = ["MAX_ISSUES", "Address", "Header", "MapiProperty", "Message", "MessageIssue", "Part", "RepairRecord",
           "bounded"]


@dataclass(frozen=True, slots=True)
class MessageIssue:
    """An issue of a message with its place: a text, RTF or message-layer kind.

    :param kind: an :class:`~onemail.text.IssueKind`, :class:`~onemail.rtf.RtfDefectKind` or
        :class:`~onemail.message.MessageIssueKind` (:data:`~onemail.message.issues.AnyIssueKind`).
    :param where: the place (module docstring), e.g. ``"header:Subject"``, ``"part:1.2"``.
    :param offset: byte offset into that header value / part body / stream.
    :param length: bytes concerned (0 for a position).
    :param count: how many issues this one stands for: 1, or for ``TooManyIssues`` the number
        of issues left out of its place's list (at most :data:`MAX_ISSUES` are kept per header
        value, per part body and per other place; a run of adjacent damage of one kind is one
        issue with the run's offset and length).
    """

    kind: AnyIssueKind
    where: str
    offset: int
    length: int
    count: int = 1

    @classmethod
    def at(cls, where: str, issue: TextIssue | RtfDefect, *, offset: int = 0) -> MessageIssue:
        """Wrap a ``TextIssue`` or ``RtfDefect`` found in ``where`` (``offset`` added to its
        offset)."""
        return cls(issue.kind, where, issue.offset + offset, issue.length)

    @classmethod
    def placed(cls, where: str, issues: Iterable[TextIssue | RtfDefect]) -> list[MessageIssue]:
        """Wrap the issues of one place: a :class:`~onemail.text.issues.BoundedIssues` (its
        final ``TooManyIssues`` gets the count of issues it dropped) or a plain list."""
        dropped = getattr(issues, "dropped", 0)
        out = [cls(i.kind, where, i.offset, i.length) for i in issues]
        if dropped and out and out[-1].kind is IssueKind.TOO_MANY_ISSUES:
            last = out[-1]
            out[-1] = cls(last.kind, where, last.offset, last.length, dropped)
        return out

    def to_json(self) -> dict[str, str | int]:
        """Return ``{"kind", "where", "offset", "length"}`` with the kind's spec name, and
        ``"count"`` when it is not 1."""
        out: dict[str, str | int] = {"kind": self.kind.value, "where": self.where, "offset": self.offset,
                                     "length": self.length}
        if self.count != 1:
            out["count"] = self.count
        return out


MAX_ISSUES = 100
"""At most this many issues are kept per place (a header value, a part body, a header section,
the parameters or addresses of one field), then one ``TooManyIssues`` says how many more there
were (:class:`~onemail.text.issues.BoundedIssues` for decoded text, :func:`bounded` for the rest)."""


def bounded(issues: list[MessageIssue], *, limit: int = MAX_ISSUES) -> list[MessageIssue]:
    """Keep the first ``limit`` of ``issues`` and replace the rest by one ``TooManyIssues`` at the
    place of the first one left out, spanning them (smallest offset to largest end), its
    ``count`` the number left out. ``issues`` itself is returned when it is short enough."""
    if len(issues) <= limit:
        return issues
    rest = issues[limit:]
    start = min(i.offset for i in rest)
    end = max(i.offset + i.length for i in rest)
    return [*issues[:limit], MessageIssue(IssueKind.TOO_MANY_ISSUES, rest[0].where, start, end - start,
                                          sum(i.count for i in rest))]


@dataclass(frozen=True, slots=True)
class Header:
    """One header field as found, decoded.

    :param name: the field name as written (``str``; 8-bit bytes in names read as windows-1252).
    :param value: the decoded value: encoded words decoded (RFC 2047), folds removed, raw 8-bit
        text read as UTF-8 when valid (RFC 6532) else in the message's fallback charset (M9,
        ``AmbiguousRaw8Bit``).
    :param issues: :class:`MessageIssue` tuple at ``header:<name>``, byte offsets into
        :attr:`raw`.
    :param raw: the raw value: the bytes after the colon, white space at the start of its first
        line removed, folds kept (cut at 1 MiB, ``HeaderTooLong``).
    :param offset: byte offset of :attr:`raw` in the message's bytes (for Outlook transport
        headers, in PidTagTransportMessageHeaders as UTF-8).
    """

    name: str
    value: str
    issues: tuple[MessageIssue, ...] = ()
    raw: bytes = b""
    offset: int = 0

    def to_json(self) -> dict[str, Any]:
        """Return ``{"name", "value", "offset", "issues"}``."""
        return {"name": self.name, "value": self.value, "offset": self.offset,
                "issues": [i.to_json() for i in self.issues]}


@dataclass(frozen=True, slots=True)
class Address:
    """A mailbox (RFC 5322 3.4).

    :param name: the decoded display name (``""`` when absent).
    :param address: the addr-spec as written, CFWS removed (``local@domain``; a quoted local
        part stays quoted); ``""`` when only a name could be read.
    :param group: the display name of the group the mailbox belongs to, or ``None``.
    """

    name: str
    address: str
    group: str | None = None

    def __str__(self) -> str:
        return f"{self.name} <{self.address}>" if self.name else self.address

    def to_json(self) -> dict[str, str]:
        """Return ``{"name", "address"}``, plus ``"group"`` for a group's member."""
        out = {"name": self.name, "address": self.address}
        if self.group is not None:
            out["group"] = self.group
        return out


@dataclass(frozen=True, slots=True)
class MapiProperty:
    """One MAPI property of an Outlook .msg or TNEF message or attachment.

    :param tag: the property id (``0x0037`` for PidTagSubject), without the type.
    :param type: the property type (``0x001F`` PtypString, ``0x001E`` PtypString8,
        ``0x0102`` PtypBinary, ...).
    :param value: ``str`` for strings (string8 decoded with the message code page), ``bytes``
        for binary, ``int``/``float``/``bool``/``datetime`` for fixed types, a tuple for
        multi-valued ones, ``None`` when unreadable.
    :param name: for a named property (id >= 0x8000 in TNEF), ``"{GUID}:id"`` or
        ``"{GUID}:name"``; else ``None``.
    """

    tag: int
    type: int
    value: object
    name: str | None = None

    def to_json(self) -> dict[str, Any]:
        """Return a JSON object: ``tag``, ``type``, ``value`` (bytes as their length only), the
        MS-OXPROPS ``property`` name when known, the ``name`` of a named property."""
        value = self.value
        if isinstance(value, bytes):
            value = {"bytes": len(value)}
        elif isinstance(value, datetime):
            value = value.isoformat()
        elif isinstance(value, tuple):
            value = [
                {"bytes": len(v)} if isinstance(v, bytes) else v.isoformat() if isinstance(v, datetime) else v
                for v in value
            ]
        elif not isinstance(value, (str, int, float, bool, type(None), list)):
            value = {"type": type(value).__name__}
        out = {"tag": f"0x{self.tag:04X}", "type": f"0x{self.type:04X}", "value": value}
        canonical = self.canonical_name
        if canonical is not None:
            out["property"] = canonical
        if self.name is not None:
            out["name"] = self.name
        return out

    @property
    def canonical_name(self) -> str | None:
        """The MS-OXPROPS name of the property (``"PidTagSubject"``), or ``None`` for a named
        property or an id :mod:`onemail.message.mapi_names` does not list."""
        from .mapi_names import property_name

        return property_name(self.tag, ptype=self.type)


@dataclass(frozen=True, slots=True)
class RepairRecord:
    """One mojibake repair applied with ``repair=True``: where, and the replayable steps.

    :param where: ``header:<Name>``, ``subject``, ``from``/``to``/``cc`` (display names),
        ``part:<path>`` or ``part:<path>/filename``.
    :param steps: ``((wrong charset, right charset), ...)`` as applied, replayable with
        :func:`onemail.detect.apply_steps`.
    """

    where: str
    steps: tuple[Any, ...]

    def to_json(self) -> list[Any]:
        """Return ``[where, [[wrong, right], ...]]`` (the steps of :func:`onemail.detect.repair`)."""
        return [self.where, [list(s) if isinstance(s, tuple) else str(s) for s in self.steps]]


@dataclass(frozen=True, slots=True)
class Part:
    """A leaf part: a MIME leaf, an Outlook body or attachment, or a TNEF attachment.

    :param path: the part path (``"1"``, ``"1.2"``; ``"body.html"`` / ``"att1"`` for Outlook).
    :param media_type: lower-case ``type/subtype`` (``text/plain`` when absent, RFC 2045 5.2).
    :param disposition: ``"inline"``, ``"attachment"`` or ``None``.
    :param filename: the decoded file name (Content-Disposition ``filename``, else Content-Type
        ``name``; RFC 2231, RFC 2047 in quoted strings, raw 8-bit), or the attachment's long
        file name for Outlook; ``None`` when absent.
    :param charset: ``Charset.name`` of the charset used for :attr:`text`, or ``None``.
    :param charset_source: how it was chosen: ``declared``, ``bom``, ``in-band``, ``default``,
        ``detected`` (spec README decision 3), or ``None`` for non-text parts.
    :param text: the decoded text for ``text/*`` parts (RTF bodies: the RTF itself), else
        ``None``.
    :param data: the body bytes after the transfer encoding (``b""`` for nested messages).
    :param issues: issues of this part (also in :attr:`Message.issues`).
    :param origin: ``"mime"``, or the MAPI property / TNEF attribute the body came from
        (``"PidTagBodyHtml"``, ``"PidTagRtfCompressed"``, ``"attAttachData"``, ...).
    :param is_rtf: True when :attr:`text` is plain RTF (not de-encapsulated HTML or text).
    :param message: a nested message (message/rfc822, a TNEF ``winmail.dat``, an embedded .msg)
        or ``None``.
    :param content_id: the Content-ID (or PidTagAttachContentId) without angle brackets.
    """

    path: str
    media_type: str
    disposition: str | None = None
    filename: str | None = None
    charset: str | None = None
    charset_source: str | None = None
    text: str | None = None
    data: bytes = b""
    issues: tuple[MessageIssue, ...] = ()
    origin: str = "mime"
    is_rtf: bool = False
    message: Message | None = None
    content_id: str | None = None

    @property
    def is_attachment(self) -> bool:
        """True for a part with a file name or ``attachment`` disposition."""
        return self.disposition == "attachment" or self.filename is not None

    def to_json(self, *, text: bool = True) -> dict[str, Any]:
        """Return a JSON object (``text=False`` leaves the decoded text out)."""
        out: dict[str, Any] = {
            "path": self.path,
            "media_type": self.media_type,
            "disposition": self.disposition,
            "filename": self.filename,
            "charset": self.charset,
            "charset_source": self.charset_source,
            "origin": self.origin,
            "bytes": len(self.data),
            "issues": [i.to_json() for i in self.issues],
        }
        if self.is_rtf:
            out["is_rtf"] = True
        if self.content_id is not None:
            out["content_id"] = self.content_id
        if text and self.text is not None:
            out["text"] = self.text
        if self.message is not None:
            out["message"] = self.message.to_json(text=text)
        return out


@dataclass(frozen=True, slots=True)
class Message:
    """A message read by :func:`onemail.read`: headers, addresses, leaf parts, issues.

    :param format: ``"rfc822"``, ``"mbox"`` (a message of an mbox), ``"msg"`` (Outlook OLE2),
        ``"tnef"`` or ``"pst"`` (an item of a PST/OST, :mod:`onemail.message.pst`).
    :param headers: every header in order (for .msg, parsed from
        PidTagTransportMessageHeaders when present).
    :param subject: the decoded Subject (or PidTagSubject), ``None`` when absent.
    :param from_: the From mailboxes (display names decoded, addresses as written).
    :param to: the To mailboxes. ``cc``: the Cc mailboxes.
    :param date: the Date header (or PidTagClientSubmitTime) as an aware ``datetime``, or
        ``None`` when absent or unparseable.
    :param parts: the leaf parts in document order (nested messages inside
        :attr:`Part.message`).
    :param properties: the MAPI properties of a .msg/TNEF message (empty for MIME).
    :param issues: every issue of the message with its place, nested messages included
        (their places prefixed with the part path).
    :param error: why the input could not be read as a message (then the other fields are
        empty or partial), else ``None``.
    :param repairs: mojibake repairs applied (only with ``repair=True``).
    :param bcc: the Bcc mailboxes. ``reply_to``: the Reply-To mailboxes.
    :param mojibake: text that looks like mojibake, left as it is (with ``repair=False``): where,
        and the steps :func:`onemail.detect.repair` would apply (each also a
        ``SuspectedMojibake`` issue at the same place, M16; nested messages included, their
        places prefixed as in :attr:`issues`).
    """

    format: str
    headers: tuple[Header, ...] = ()
    subject: str | None = None
    from_: tuple[Address, ...] = ()
    to: tuple[Address, ...] = ()
    cc: tuple[Address, ...] = ()
    date: datetime | None = None
    parts: tuple[Part, ...] = ()
    properties: tuple[MapiProperty, ...] = ()
    issues: tuple[MessageIssue, ...] = ()
    error: str | None = None
    repairs: tuple[RepairRecord, ...] = field(default=())
    bcc: tuple[Address, ...] = ()
    reply_to: tuple[Address, ...] = ()
    mojibake: tuple[RepairRecord, ...] = ()

    def header(self, name: str) -> str | None:
        """Return the decoded value of the first header called ``name`` (any case), or None."""
        low = name.lower()
        for h in self.headers:
            if h.name.lower() == low:
                return h.value
        return None

    def walk(self) -> Iterator[Part]:
        """Yield every leaf part, nested messages' parts included (depth first)."""
        for part in self.parts:
            yield part
            if part.message is not None:
                yield from part.message.walk()

    @property
    def text(self) -> str | None:
        """The first ``text/plain`` body (not an attachment), or ``None``."""
        return self._body("text/plain")

    @property
    def html(self) -> str | None:
        """The first ``text/html`` body (not an attachment), or ``None``."""
        return self._body("text/html")

    def _body(self, media_type: str) -> str | None:
        for part in self.parts:
            if part.media_type == media_type and part.text is not None and not part.is_attachment:
                return part.text
        return None

    def to_json(self, *, text: bool = True) -> dict[str, Any]:
        """Return a JSON object with every field (``text=False`` leaves body texts out)."""
        out: dict[str, Any] = {
            "format": self.format,
            "error": self.error,
            "subject": self.subject,
            "from": [a.to_json() for a in self.from_],
            "to": [a.to_json() for a in self.to],
            "cc": [a.to_json() for a in self.cc],
            "bcc": [a.to_json() for a in self.bcc],
            "reply_to": [a.to_json() for a in self.reply_to],
            "date": self.date.isoformat() if self.date else None,
            "headers": [h.to_json() for h in self.headers],
            "parts": [p.to_json(text=text) for p in self.parts],
            "issues": [i.to_json() for i in self.issues],
        }
        if self.properties:
            out["properties"] = [p.to_json() for p in self.properties]
        if self.repairs:
            out["repairs"] = [r.to_json() for r in self.repairs]
        if self.mojibake:
            out["mojibake"] = [r.to_json() for r in self.mojibake]
        return out
