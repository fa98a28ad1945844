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

# RFC 2047 / RFC 2231 names, imported on first use (house style: the package import stays cheap).
_LAZY = {"decode_text": "rfc2047", "ParameterCollector": "rfc2231", "DecodedParameter": "rfc2231",
         "parse_header_params": "rfc2231"}
__all__ += sorted(_LAZY)


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


from . import codec_registry as _codec_registry  # noqa: E402

_codec_registry.register()
