"""Charset detection, binary detection and mojibake repair (spec 004).

Builds on the text layer's decoders; does not import the message layer.
Names are loaded on first use from their modules.
"""

from __future__ import annotations

import importlib

_EXPORTS = {
    "detect": ".detect",
    "Detection": ".detect",
    "looks_binary": ".binary",
    "repair": ".repair",
    "Repair": ".repair",
    "apply_steps": ".repair",
    "render_chain": ".repair",
    "scan": ".scan",
}

__all__ = list(_EXPORTS)


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'onemail.detect' has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value
