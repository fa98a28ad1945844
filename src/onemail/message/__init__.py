"""The message layer: read real mail (.eml, mbox, Outlook .msg, TNEF) into clean text.

``read(source) -> Message`` sniffs the format; ``read_mbox(source)`` iterates an mbox. The layer
parses the structure itself: header sections with their raw bytes and offsets
(:mod:`onemail.message.fields`), the MIME tree by RFC 2046 (:mod:`onemail.message.mime`),
addresses and dates (:mod:`~onemail.message.addresses`, :mod:`~onemail.message.dates`),
transfer encodings (:mod:`~onemail.message.transfer`), mbox variants
(:mod:`~onemail.message.mbox`), TNEF and the MAPI properties of Outlook messages
(:mod:`~onemail.message.tnef`, :mod:`~onemail.message.mapi`); every header value, parameter and
body is decoded by onemail's text layer. Libraries only open containers: ``olefile`` the OLE2
compound file of a .msg, ``pypff`` a PST/OST (the ``pst`` extra). The stdlib ``email`` package
is not used for reading (``read`` accepts an ``email.message.Message`` by writing it back to
bytes); tests and benchmarks use it as an oracle. Folders, archives and compressed files are
walked by :mod:`onemail.message.containers`; one record per message for indexes and dataframes
is :mod:`onemail.message.records`. See :mod:`onemail.message.model` for what a
:class:`Message` holds.
"""

from .issues import AnyIssueKind, IssueKindLike, MessageIssueKind, kind_for_value
from .model import Address, Header, MapiProperty, Message, MessageIssue, Part, RepairRecord
from .reader import read, read_mbox, sniff

__all__ = [
    "Address",
    "AnyIssueKind",
    "IssueKindLike",
    "MessageIssueKind",
    "Header",
    "MapiProperty",
    "Message",
    "MessageIssue",
    "Part",
    "RepairRecord",
    "read",
    "read_mbox",
    "kind_for_value",
    "sniff",
]
