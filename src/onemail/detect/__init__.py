"""Charset detection, binary detection and mojibake repair (spec 004).

Builds on the text layer's decoders; does not import the message layer. The implementation
lives in private modules (``_detector``, ``_binary``, ``_repair``, ``_scan``, ...) whose names
cannot clash with the functions exported here. Importing the package loads no table: each
table loads on the first call that needs it.
"""

from __future__ import annotations

from ._binary import looks_binary
from ._detector import Candidate, Detection, detect
from ._repair import Repair, apply_steps, mojibake_steps, render_chain, repair
from ._scan import ScanRow, scan

__all__ = [
    "detect",
    "Detection",
    "Candidate",
    "looks_binary",
    "repair",
    "mojibake_steps",
    "Repair",
    "apply_steps",
    "render_chain",
    "scan",
    "ScanRow",
]
