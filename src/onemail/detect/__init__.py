"""Charset detection, binary detection and mojibake repair (spec 004).

Builds on the text layer's decoders; does not import the message layer.

The functions share their names with their modules (``detect``, ``repair``, ``scan``), so the
names are bound here when first used: importing the submodule first would otherwise leave the
module, not the function, on the package. Tables load on first use.
"""

from __future__ import annotations

import importlib

_EXPORTS = {
    "detect": ".detect",
    "Detection": ".detect",
    "Candidate": ".detect",
    "looks_binary": ".binary",
    "repair": ".repair",
    "Repair": ".repair",
    "apply_steps": ".repair",
    "render_chain": ".repair",
    "scan": ".scan",
    "ScanRow": ".scan",
}

__all__ = list(_EXPORTS)


def _bind(module: str) -> None:
    mod = importlib.import_module(module, __name__)
    for name, where in _EXPORTS.items():
        if where == module and hasattr(mod, name):
            globals()[name] = getattr(mod, name)


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'onemail.detect' has no attribute {name!r}")
    _bind(module)
    return globals()[name]


# The three modules named like their functions are bound eagerly (cheap: no tables load), so
# that a later ``import onemail.detect.repair`` cannot leave the module on the package.
for _module in (".detect", ".repair", ".scan"):
    _bind(_module)
del _module
