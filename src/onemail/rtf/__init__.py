"""RTF bodies: compressed RTF (MS-OXRTFCP), the RTF tokenizer, de-/encapsulation (MS-OXRTFEX).

Spec 002. This package imports nothing else of onemail's (it is usable on its own).
"""

from .compressed import DecompressionResult, Decompressor, compress, crc32, decompress
from .defects import RtfDefect, RtfDefectKind
from .encapsulation import (
    Deencapsulation,
    DeencapsulationOptions,
    deencapsulate,
    encapsulate_html,
    encapsulate_text,
    is_encapsulated,
    rtf_to_text,
)
from .reader import RtfReader

__all__ = [
    "Deencapsulation",
    "DeencapsulationOptions",
    "DecompressionResult",
    "Decompressor",
    "RtfDefect",
    "RtfDefectKind",
    "RtfReader",
    "compress",
    "crc32",
    "decompress",
    "deencapsulate",
    "encapsulate_html",
    "encapsulate_text",
    "is_encapsulated",
    "rtf_to_text",
]
