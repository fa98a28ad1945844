"""The message layer: read real mail (.eml, mbox, Outlook .msg, TNEF) into clean text.

``read(source) -> Message`` sniffs the format; ``read_mbox(source)`` iterates an mbox. Every
header value, parameter and body is decoded by onemail's text layer; the stdlib ``email``
package only finds the MIME structure; ``olefile`` opens Outlook .msg files. See
:mod:`onemail.message.model` for what a :class:`Message` holds.
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
