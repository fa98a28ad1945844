"""The package face of onemail.detect binds functions, not their same-named modules."""

import subprocess
import sys


def test_functions_survive_an_earlier_submodule_import():
    # Regression: ``import onemail.detect.repair`` first used to leave the module on the package,
    # so ``from onemail.detect import repair`` returned a module.
    code = (
        "import onemail.detect.repair, onemail.detect.scan, onemail.detect.detect\n"
        "from onemail.detect import detect, repair, scan\n"
        "import types\n"
        "assert all(isinstance(f, types.FunctionType) for f in (detect, repair, scan))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
