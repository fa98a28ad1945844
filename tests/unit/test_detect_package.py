"""The package face of onemail.detect: explicit imports of functions from private modules."""

import subprocess
import sys
import types

import onemail.detect


def test_the_face_exports_exactly_all_with_real_objects():
    names = {n for n in vars(onemail.detect) if not n.startswith("_") and n != "annotations"}
    assert names == set(onemail.detect.__all__)
    for name in ("detect", "looks_binary", "repair", "apply_steps", "render_chain", "scan"):
        assert isinstance(getattr(onemail.detect, name), types.FunctionType), name
    for name in ("Detection", "Candidate", "Repair", "ScanRow"):
        assert isinstance(getattr(onemail.detect, name), type), name


def test_import_loads_no_table():
    code = (
        "import sys, onemail.detect\n"
        "loaded = [m for m in sys.modules if '_tables' in m]\n"
        "assert not loaded, loaded\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_old_module_paths_leave_the_functions_on_the_package():
    # TEMPORARY (detect/_compat.py): the message layer and the CLI still import the old paths.
    # Regression: ``import onemail.detect.repair`` first used to leave the module on the package,
    # so ``from onemail.detect import repair`` returned a module.
    code = (
        "from onemail.detect.detect import detect as d\n"
        "from onemail.detect.repair import repair as r, render_chain\n"
        "from onemail.detect.scan import scan as s\n"
        "import onemail.detect.repair, onemail.detect.scan, onemail.detect.detect\n"
        "from onemail.detect import detect, repair, scan\n"
        "import types\n"
        "assert all(isinstance(f, types.FunctionType) for f in (detect, repair, scan))\n"
        "assert (d, r, s) == (detect, repair, scan)\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
