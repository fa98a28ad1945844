"""The message layer's issue kinds, and the vocabulary every issue of a message shares.

Three enums name what was repaired or guessed, one per layer, with disjoint values (a test
enforces it), so that a kind's value alone says what it is:

* :class:`onemail.text.IssueKind` -- charsets, encoded words, parameters (spec 000);
* :class:`onemail.rtf.RtfDefectKind` -- compressed RTF, the tokenizer, de-encapsulation (spec 002);
* :class:`MessageIssueKind` -- this module: body charsets, transfer encodings, header blocks,
  MIME structure, Outlook containers, limits.

All three follow :class:`IssueKindLike`: ``value`` (the CamelCase name used in JSON),
``is_ambiguous`` (a documented resolution, not damage) and ``ambiguity`` (the id of its entry
in ``docs/ambiguities.md``). A :class:`~onemail.message.MessageIssue` holds any of them
(:data:`AnyIssueKind`).
"""

from __future__ import annotations

import enum
from typing import Protocol

from ..rtf.defects import RtfDefectKind
from ..text.issues import IssueKind

__all__ = ["AnyIssueKind", "IssueKindLike", "MessageIssueKind", "kind_for_value"]


class IssueKindLike(Protocol):
    """What every issue kind offers (text, RTF and message kinds alike)."""

    @property
    def value(self) -> str:
        """The spec's CamelCase name (``"InvalidUtf8"``), as written in JSON."""
        ...

    @property
    def is_ambiguous(self) -> bool:
        """True for a documented resolution (``Ambiguous*``), False for damage."""
        ...

    @property
    def ambiguity(self) -> str | None:
        """The ``docs/ambiguities.md`` id of an ``Ambiguous*`` kind, else ``None``."""
        ...


class MessageIssueKind(enum.Enum):
    """The kind of a message-layer issue; the value is its CamelCase name (used in JSON).

    Offsets are bytes into the place the issue names (:mod:`onemail.message.model`).
    """

    # Documented resolutions (docs/ambiguities.md, M..).
    AMBIGUOUS_DEFAULT_CHARSET = "AmbiguousDefaultCharset"  # M1: no charset parameter
    AMBIGUOUS_DETECTED_CHARSET = "AmbiguousDetectedCharset"  # M2: body charset from the detector
    AMBIGUOUS_IN_BAND_CHARSET = "AmbiguousInBandCharset"  # M3: BOM / meta / XML declaration used
    AMBIGUOUS_CHARSET_CONFLICT = "AmbiguousCharsetConflict"  # M4: in-band and declared disagree
    AMBIGUOUS_UNKNOWN_TRANSFER_ENCODING = "AmbiguousUnknownTransferEncoding"  # M5
    AMBIGUOUS_MISLABELLED_CHARSET = "AmbiguousMislabelledCharset"  # M6: declared charset fails
    AMBIGUOUS_TEXT_AFTER_BASE64 = "AmbiguousTextAfterBase64"  # M13: a footer after the data
    AMBIGUOUS_UUENCODED_FILE = "AmbiguousUuencodedFile"  # M14: begin/end block in a text body
    AMBIGUOUS_MBOX_SEPARATOR = "AmbiguousMboxSeparator"  # M20: a "From " line not taken as a separator
    AMBIGUOUS_MBOX_QUOTING = "AmbiguousMboxQuoting"  # M21: a ">From " line lost one ">"
    AMBIGUOUS_MBOX_CONTENT_LENGTH = "AmbiguousMboxContentLength"  # M22: Content-Length over the line rule
    AMBIGUOUS_NUL_IN_TEXT = "AmbiguousNulInText"  # M50: NUL bytes in a text part, kept as text
    # Damage of the containers.
    MALFORMED_HEADER = "MalformedHeader"  # a header line that is no field (M10)
    MALFORMED_ADDRESS = "MalformedAddress"  # an address list salvaged around junk (M11)
    MALFORMED_DATE = "MalformedDate"  # a Date that could not be read
    MALFORMED_MIME_STRUCTURE = "MalformedMimeStructure"
    SUSPECTED_MOJIBAKE = "SuspectedMojibake"  # M16: repair would change this text (not applied)
    MALFORMED_TNEF = "MalformedTnef"
    MALFORMED_MSG = "MalformedMsg"
    # Transfer encodings the text layer does not know (base64 and quoted-printable are its own).
    INVALID_UUENCODE = "InvalidUuencode"
    # Limits.
    HEADER_TOO_LONG = "HeaderTooLong"
    MESSAGE_NESTING_LIMIT_EXCEEDED = "MessageNestingLimitExceeded"  # M7: MIME levels, nested messages
    TOO_MANY_PARTS = "TooManyParts"  # M15: parts past MAX_PARTS are one opaque leaf
    TOO_MANY_HEADER_FIELDS = "TooManyHeaderFields"  # M56: fields past MAX_FIELDS not kept
    TRUNCATED_CONTAINER = "TruncatedContainer"  # the compressed stream holding it was cut

    @property
    def is_ambiguous(self) -> bool:
        """True for documented resolutions (``Ambiguous*``), False for damage."""
        return self.value.startswith("Ambiguous")

    @property
    def ambiguity(self) -> str | None:
        """The id of the ``docs/ambiguities.md`` entry of an ``Ambiguous*`` kind, else ``None``."""
        return _AMBIGUITY.get(self.value)


_AMBIGUITY = {
    "AmbiguousDefaultCharset": "M1",
    "AmbiguousDetectedCharset": "M2",
    "AmbiguousInBandCharset": "M3",
    "AmbiguousCharsetConflict": "M4",
    "AmbiguousUnknownTransferEncoding": "M5",
    "AmbiguousMislabelledCharset": "M6",
    "AmbiguousTextAfterBase64": "M13",
    "AmbiguousUuencodedFile": "M14",
    "AmbiguousMboxSeparator": "M20",
    "AmbiguousMboxQuoting": "M21",
    "AmbiguousMboxContentLength": "M22",
    "AmbiguousNulInText": "M50",
}

AnyIssueKind = IssueKind | RtfDefectKind | MessageIssueKind
"""The kind of a :class:`~onemail.message.MessageIssue`: a text, RTF or message kind."""

_BY_VALUE: dict[str, AnyIssueKind] = {
    k.value: k for enum_ in (IssueKind, RtfDefectKind, MessageIssueKind) for k in enum_
}


def kind_for_value(value: str) -> AnyIssueKind | None:
    """Return the issue kind whose JSON name is ``value`` (``"InvalidUtf8"``), or ``None``.

    :param value: a kind's CamelCase name, as written in JSON (case-sensitive).
    :raises TypeError: ``value`` is not a ``str``.
    """
    if not isinstance(value, str):
        raise TypeError(f"value must be str, not {type(value).__name__}")
    return _BY_VALUE.get(value)
