"""The text layer: charsets, decoders with issue reporting, encoded words and parameters.

Spec 000. Importing this package registers the ``onemail-<name>`` Python codecs (house style
section 7) and loads no tables.
"""

from .charsets import (
    Charset,
    DecodeResult,
    IncrementalDecoder,
    decode,
    decode_unknown,
    for_code_page,
    for_label,
)
from .issues import IssueKind, TextIssue

__all__ = [
    "Charset",
    "DecodeResult",
    "IncrementalDecoder",
    "IssueKind",
    "TextIssue",
    "decode",
    "decode_unknown",
    "for_code_page",
    "for_label",
]

from . import codec_registry as _codec_registry  # noqa: E402

_codec_registry.register()
