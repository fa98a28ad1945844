"""TEMPORARY, remove once no caller uses the old module paths: ``onemail.detect.detect``,
``onemail.detect.repair`` and ``onemail.detect.scan`` as names of the implementation modules.

Callers to switch (then delete this module and its import in ``__init__.py``):
``onemail/message/_pieces.py`` (``from ..detect.detect import detect``, ``from ..detect.repair
import repair``), ``onemail/_cli/mail.py`` (``from ..detect.repair import render_chain``,
``from ..detect.detect import detect``) and ``onemail/_cli/detect.py`` (``from ..detect.scan
import scan``); each becomes ``from ..detect import NAME``.

The old paths are entered in :data:`sys.modules` as aliases of the private modules, not as
files: importing a submodule file sets it as an attribute of the package, which would put a
module where the package exports the function of the same name (issue 18).
"""

from __future__ import annotations

import sys

from . import _detector, _repair, _scan

for _old, _module in (("detect", _detector), ("repair", _repair), ("scan", _scan)):
    sys.modules.setdefault(f"{__package__}.{_old}", _module)
del _old, _module
