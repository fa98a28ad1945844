"""Damage found in RTF bodies: :class:`RtfDefect` and :class:`RtfDefectKind`.

The single taxonomy for :mod:`onemail.rtf` (compressed RTF, the tokenizer, de-encapsulation).
``RtfDefect`` keeps the spec's word "defect" because these are pure damage, except the kinds
named ``Ambiguous*``, which are documented resolutions with an id (RT..) in
``docs/ambiguities.md``. This module imports nothing else of onemail's.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

__all__ = ["RtfDefect", "RtfDefectKind"]


class RtfDefectKind(enum.Enum):
    """The kind of an :class:`RtfDefect`; the value is the spec's CamelCase name."""

    # Compressed RTF (MS-OXRTFCP), spec 002 "Compressed RTF".
    HEADER_TRUNCATED = "HeaderTruncated"
    UNKNOWN_COMPRESSION_TYPE = "UnknownCompressionType"
    COMPRESSED_SIZE_MISMATCH = "CompressedSizeMismatch"
    OUTPUT_LIMIT_EXCEEDED = "OutputLimitExceeded"
    EXPANSION_RATIO_EXCEEDED = "ExpansionRatioExceeded"
    MISSING_END_MARKER = "MissingEndMarker"
    REFERENCE_BEYOND_DICTIONARY = "ReferenceBeyondDictionary"
    CRC_MISMATCH = "CrcMismatch"
    RAW_SIZE_MISMATCH = "RawSizeMismatch"
    # Tokenizer, spec 002 "The tokenizer".
    UNBALANCED_GROUP_END = "UnbalancedGroupEnd"
    UNCLOSED_GROUPS = "UnclosedGroups"
    PARAMETER_OVERFLOW = "ParameterOverflow"
    INVALID_HEX_ESCAPE = "InvalidHexEscape"
    BINARY_DATA_TRUNCATED = "BinaryDataTruncated"
    TRUNCATED_TOKEN = "TruncatedToken"
    NESTING_LIMIT_EXCEEDED = "NestingLimitExceeded"
    # De-encapsulation, spec 002 "De-encapsulation".
    LONE_SURROGATE = "LoneSurrogate"
    INVALID_CODE_PAGE_BYTES = "InvalidCodePageBytes"
    AMBIGUOUS_UNKNOWN_CODE_PAGE = "AmbiguousUnknownCodePage"

    @property
    def is_ambiguous(self) -> bool:
        """True for documented resolutions (``Ambiguous*``), False for damage."""
        return self.value.startswith("Ambiguous")

    @property
    def ambiguity(self) -> str | None:
        """The id of the ``docs/ambiguities.md`` entry an ``Ambiguous*`` kind documents
        (``"RT29"``), or ``None`` for damage."""
        return "RT29" if self is RtfDefectKind.AMBIGUOUS_UNKNOWN_CODE_PAGE else None


@dataclass(frozen=True, slots=True)
class RtfDefect:
    """One piece of damage (or documented guess) found in RTF input.

    :param kind: what was found.
    :param offset: byte offset into the input given to the function that reported it.
    :param length: number of input bytes concerned (0 for a position).
    """

    kind: RtfDefectKind
    offset: int
    length: int

    def to_json(self) -> dict[str, str | int]:
        """Return ``{"kind", "offset", "length"}`` with the kind's spec name, for JSON output."""
        return {"kind": self.kind.value, "offset": self.offset, "length": self.length}
