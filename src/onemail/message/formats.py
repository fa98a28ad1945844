"""What a message container is, how far reading goes, and the one path into nested messages.

This module owns three things every reader of the message layer shares:

* **Signatures and sniffing** (:func:`sniff`): an Outlook ``.msg`` starts with the OLE2 compound
  file signature ``D0 CF 11 E0 A1 B1 1A E1`` (MS-CFB 2.2); a TNEF stream (``winmail.dat``) with
  ``0x223E9F78`` little-endian (MS-OXTNEF 2.1.3.1); an mbox with ``"From "`` (RFC 4155); an RFC
  5322 message with a header field (``name:``) or an empty header section.
* **Limits** (the ``MAX_*`` constants): how long a header value, how deep a MIME tree, how many
  nested messages, how large an Outlook stream is read. Each limit that cuts something is
  reported where it cut.
* **Nested messages** (:class:`ReadContext`): a message/rfc822 part, a TNEF ``winmail.dat``, an
  embedded or attached ``.msg`` are all read through :meth:`ReadContext.nested`: one depth check
  (:data:`MAX_DEPTH`), one way of adding the nested message's issues to the parent's (their
  places prefixed with the part's, ``part:2>header:Subject``). The reader that dispatches on
  the format (:func:`onemail.message.reader.read_bytes`) is handed in, so no reader module
  imports another.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from .issues import MessageIssueKind

if TYPE_CHECKING:
    from .model import Message, MessageIssue

__all__ = [
    "MAX_DEPTH",
    "MAX_HEADER_BYTES",
    "MAX_MIME_LEVELS",
    "MAX_PARTS",
    "MAX_STREAM_BYTES",
    "MMAP_BYTES",
    "OLE_SIGNATURE",
    "TNEF_SIGNATURE",
    "ReadContext",
    "nested_issues",
    "sniff",
]

OLE_SIGNATURE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
"""The MS-CFB compound file signature that starts an Outlook ``.msg`` (and any OLE2 file)."""

TNEF_SIGNATURE = b"\x78\x9f\x3e\x22"
"""``0x223E9F78`` little-endian: the first four bytes of a TNEF stream (MS-OXTNEF 2.1.3.1)."""

MAX_HEADER_BYTES = 1 << 20
"""A header value longer than 1 MiB is decoded up to that length (``HeaderTooLong`` for the
rest). RFC 5322 section 2.1.1 limits a line to 998 bytes; the longest header value in the
corpus (../shared/corpus/mail) is far below 1 MiB, so only hostile input is cut."""

MAX_MIME_LEVELS = 200
"""Multipart and message levels of one MIME tree kept as structure; a part deeper than this is
one opaque leaf with ``MessageNestingLimitExceeded`` (M7). Each level scans its own bytes for
its boundary, so the cap also bounds the work to 200 passes over the input; the deepest corpus
message is a 101-level parser test (horde-mime ``deeply_nested.txt``)."""

MAX_PARTS = 10_000
"""Parts of one MIME tree kept: from the first part past it, the rest of the message is one
opaque leaf with ``TooManyParts`` (M15). A leaf part costs a few hundred bytes of objects, so
10^5 tiny parts in 3 MB would take 40 MB; the most in one corpus message is 20."""

MAX_DEPTH = 20
"""Nested messages (message/rfc822 in message/rfc822, TNEF in TNEF, .msg in .msg) deeper than
this are not opened: a guard against hostile input; real mail in the corpus nests at most 3
levels, a kmime test 21. A message not opened because of it is a ``MessageNestingLimitExceeded``
issue at its part (M7)."""

MAX_STREAM_BYTES = 64 << 20
"""Outlook streams larger than 64 MiB are not read (an attachment that size is kept out of
memory): the largest stream in the corpus .msg files is under 1 MiB."""

MMAP_BYTES = 64 << 20
"""Mailboxes of 64 MiB or more are memory-mapped by :func:`onemail.read_mbox` instead of read
whole."""

_HEADER_LINE = re.compile(rb"[\x21-\x39\x3b-\x7e]+[ \t]*:")


def sniff(data: bytes) -> str | None:
    """Return the container format of ``data``: ``"msg"``, ``"tnef"``, ``"mbox"``, ``"rfc822"``,
    or ``None`` (not a message).

    :param data: the first bytes of the input (4 KiB are enough; more are not read).
    :returns: the format by signature (module docstring); ``"mbox"`` also after a BOM or empty
        lines (:func:`onemail.message.mbox.mbox_start`); ``"rfc822"`` also for an empty header
        section (a first line that is empty) when no NUL byte appears in the first 4 KiB.

    >>> sniff(b"Subject: hi\\r\\n\\r\\nbody"), sniff(b"From a@b Sat Jan  1 00:00:00 2000\\n")
    ('rfc822', 'mbox')
    """
    if data.startswith(OLE_SIGNATURE):
        return "msg"
    if data.startswith(TNEF_SIGNATURE):
        return "tnef"
    if data.startswith(b"From "):
        return "mbox"
    if data[:1] in (b"\r", b"\n", b"\xef"):  # empty lines or a BOM before a From line (M20)
        from .mbox import mbox_start

        if mbox_start(data) >= 0:
            return "mbox"
    if data[:2] == b"\r\n" or data[:1] == b"\n":  # an empty header section, then a body
        return "rfc822" if b"\x00" not in data[:4096] else None
    head = data[:4096].lstrip(b"\t ")
    if head.startswith(b"\xef\xbb\xbf"):
        head = head[3:]
    if _HEADER_LINE.match(head):
        return "rfc822"
    return None


@dataclass(frozen=True, slots=True)
class ReadContext:
    """What every reader of one message needs besides its bytes.

    :param repair: run mojibake repair on decoded text (``read(..., repair=True)``).
    :param depth: how many messages enclose this one (0 for the outermost).
    :param dispatch: ``dispatch(data, fmt, ctx) -> Message`` reads nested bytes in format
        ``fmt`` (``"rfc822"``, ``"tnef"``, ``"msg"``, or ``None`` to sniff); given by
        :mod:`onemail.message.reader`.
    """

    repair: bool
    depth: int
    dispatch: Callable[[bytes, str | None, ReadContext], Message]

    def nested(self, data: bytes, fmt: str | None, where: str, *,
               issues: list[MessageIssue]) -> Message | None:
        """Read the message held in a part; return it, or ``None`` when it is too deep.

        :param data: the nested message's bytes (transfer encoding removed).
        :param fmt: its format, or ``None`` to sniff it.
        :param where: the place of the part holding it (``"part:2"``, ``"part:att1"``).
        :param issues: the part's issue list: a message beyond :data:`MAX_DEPTH` is one
            ``MessageNestingLimitExceeded`` issue at ``where`` covering ``data``. The nested
            message's own issues go to the parent message through :func:`nested_issues`.
        """
        inner = self.enter(where, issues=issues, length=len(data))
        return None if inner is None else self.dispatch(data, fmt, inner)

    def enter(self, where: str, *, issues: list[MessageIssue], length: int = 0) -> ReadContext | None:
        """The context of a message nested one level deeper, or ``None`` beyond
        :data:`MAX_DEPTH` (then one ``MessageNestingLimitExceeded`` issue at ``where``, covering
        ``length`` bytes, is appended to ``issues``). The one depth check of every format (an
        Outlook message embedded as a storage of its .msg has no bytes of its own)."""
        from .model import MessageIssue

        if self.depth >= MAX_DEPTH:
            issues.append(MessageIssue(MessageIssueKind.MESSAGE_NESTING_LIMIT_EXCEEDED, where, 0, length))
            return None
        return replace(self, depth=self.depth + 1)


def nested_issues(msg: Message, where: str) -> list[MessageIssue]:
    """The issues of a nested message as the parent lists them: each place prefixed with the
    place of the part holding it and ``>`` (``part:2>header:Subject``)."""
    from .model import MessageIssue

    prefix = where + ">"
    return [MessageIssue(i.kind, prefix + i.where, i.offset, i.length, i.count) for i in msg.issues]
