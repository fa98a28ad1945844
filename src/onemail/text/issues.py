"""What a decoder had to repair or guess: :class:`TextIssue` and :class:`IssueKind`.

This module defines the text layer's issue kinds (house style: one taxonomy per layer; the RTF
kinds are :class:`onemail.rtf.RtfDefectKind`, the message layer's
:class:`onemail.message.MessageIssueKind`, all with disjoint values). Spec 000 "Contract":
decoders never raise on malformed input; each repair or guess is a
``TextIssue(kind, offset, length)`` where ``offset`` and ``length`` are bytes into the span given
to the decoder, plus the ``offset`` argument the caller passed.

Kinds named ``Ambiguous*`` are documented resolutions (each has an id in ``docs/ambiguities.md``);
every other kind is plain damage.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

__all__ = ["IssueKind", "TextIssue"]


class IssueKind(enum.Enum):
    """The kind of a :class:`TextIssue`; the value is the spec's CamelCase name (used in JSON)."""

    # Undecodable bytes, one kind per encoding family (each produced exactly one U+FFFD).
    INVALID_UTF8 = "InvalidUtf8"
    INVALID_UTF16 = "InvalidUtf16"
    INVALID_UTF32 = "InvalidUtf32"
    INVALID_SINGLE_BYTE = "InvalidSingleByte"
    INVALID_GB18030 = "InvalidGb18030"
    INVALID_BIG5 = "InvalidBig5"
    INVALID_EUC_JP = "InvalidEucJp"
    INVALID_SHIFT_JIS = "InvalidShiftJis"
    INVALID_EUC_KR = "InvalidEucKr"
    INVALID_JOHAB = "InvalidJohab"
    INVALID_UTF7 = "InvalidUtf7"
    INVALID_IMAP_UTF7 = "InvalidImapUtf7"
    INVALID_ISO2022 = "InvalidIso2022"
    # Transfer-level damage inside encoded words and parameters.
    INVALID_BASE64 = "InvalidBase64"
    INVALID_QUOTED_PRINTABLE = "InvalidQuotedPrintable"
    INVALID_PERCENT_ESCAPE = "InvalidPercentEscape"
    # Syntax.
    MALFORMED_ENCODED_WORD = "MalformedEncodedWord"
    MALFORMED_EXTENDED_VALUE = "MalformedExtendedValue"
    #: An IMAP modified UTF-7 run that encodes printable ASCII (RFC 3501 5.1.3: it must be
    #: written directly; ``&`` as ``&-``): decoded, the whole run reported (T83).
    MALFORMED_IMAP_UTF7 = "MalformedImapUtf7"
    #: Text in a parameter list that is no parameter (``*=test`` without a name, junk without
    #: ``=``, an unterminated comment): dropped, its span reported (T86).
    MALFORMED_PARAMETER = "MalformedParameter"
    #: 8-bit bytes that are valid UTF-8 in a word or extended value labelled US-ASCII: read
    #: as UTF-8 (T81, as M6 reads such a body).
    AMBIGUOUS_ASCII_LABELLED_UTF8 = "AmbiguousAsciiLabelledUtf8"
    #: Plain header text written in raw 7-bit ISO-2022-JP (escape sequences, no encoded word):
    #: decoded as ISO-2022-JP (T84).
    AMBIGUOUS_RAW_ISO2022 = "AmbiguousRawIso2022"
    # Limits.
    ENCODED_WORD_TOO_LONG = "EncodedWordTooLong"
    # Encoding: a character the charset lacks was written as "?" (offset = index in the text).
    UNENCODABLE = "Unencodable"
    # Documented resolutions (docs/ambiguities.md).
    AMBIGUOUS_UNKNOWN_CHARSET = "AmbiguousUnknownCharset"
    AMBIGUOUS_RAW_8BIT = "AmbiguousRaw8Bit"
    AMBIGUOUS_ISO2022_REPERTOIRE = "AmbiguousIso2022Repertoire"
    AMBIGUOUS_ENCODED_WORD_IN_QUOTED_STRING = "AmbiguousEncodedWordInQuotedString"

    @property
    def is_ambiguous(self) -> bool:
        """True for documented resolutions (``Ambiguous*``), False for damage."""
        return self.value.startswith("Ambiguous")

    @property
    def ambiguity(self) -> str | None:
        """The id of the ``docs/ambiguities.md`` entry an ``Ambiguous*`` kind documents
        (``"T51"``), or ``None`` for damage."""
        return _AMBIGUITY.get(self.value)


#: The register entry of each ``Ambiguous*`` kind (tests/unit/test_issue_kinds.py checks that
#: every ``Ambiguous*`` kind has one and that the entry names the kind).
_AMBIGUITY = {
    "AmbiguousUnknownCharset": "T1",
    "AmbiguousIso2022Repertoire": "T36",
    "AmbiguousRaw8Bit": "T51",
    "AmbiguousEncodedWordInQuotedString": "T55",
    "AmbiguousAsciiLabelledUtf8": "T81",
    "AmbiguousRawIso2022": "T84",
}


@dataclass(frozen=True, slots=True)
class TextIssue:
    """One repair or guess made while decoding or encoding text.

    :param kind: what happened.
    :param offset: byte offset into the span given to the decoder, plus the caller's ``offset``
        argument. For :attr:`IssueKind.UNENCODABLE` it is the index of the character in the
        ``str`` being encoded.
    :param length: number of bytes concerned (characters for ``UNENCODABLE``); may be 0 for an
        issue about a position (e.g. a missing terminator).
    """

    kind: IssueKind
    offset: int
    length: int

    def to_json(self) -> dict[str, str | int]:
        """Return ``{"kind", "offset", "length"}`` with the kind's spec name, for JSON output."""
        return {"kind": self.kind.value, "offset": self.offset, "length": self.length}
