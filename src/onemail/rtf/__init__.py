"""RTF bodies: compressed RTF (MS-OXRTFCP), the RTF tokenizer, de-/encapsulation (MS-OXRTFEX).

Spec 002. This package imports nothing else of onemail's (it is usable on its own).
Names are loaded on first use from their modules.
"""

from __future__ import annotations

import importlib

from .defects import RtfDefect, RtfDefectKind

_EXPORTS = {
    "decompress": ".compressed",
    "compress": ".compressed",
    "crc32": ".compressed",
    "DecompressionResult": ".compressed",
    "Decompressor": ".compressed",
    "RtfReader": ".reader",
    "is_encapsulated": ".encapsulation",
    "deencapsulate": ".encapsulation",
    "Deencapsulation": ".encapsulation",
    "DeencapsulationOptions": ".encapsulation",
    "encapsulate_html": ".encapsulation",
    "encapsulate_text": ".encapsulation",
}

__all__ = ["RtfDefect", "RtfDefectKind", *_EXPORTS]


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'onemail.rtf' has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value
