"""The text layer: charsets, decoders with issue reporting, encoded words and parameters.

Spec 000. Importing this package registers the ``onemail-<name>`` Python codecs (house style
section 7) and loads no tables (they load on a charset's first use).
"""

from . import codec_registry as _codec_registry
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
from .rfc2047 import decode_text
from .rfc2231 import DecodedParameter, ParameterCollector, parse_header_params

__all__ = [
    "Charset",
    "DecodeResult",
    "DecodedParameter",
    "IncrementalDecoder",
    "IssueKind",
    "ParameterCollector",
    "TextIssue",
    "decode",
    "decode_text",
    "decode_unknown",
    "for_code_page",
    "for_label",
    "parse_header_params",
]

_codec_registry.register()
