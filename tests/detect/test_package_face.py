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


def test_old_module_paths_are_gone():
    """The implementation modules are private: ``onemail.detect.repair`` is the function only."""
    code = (
        "import importlib, types\n"
        "from onemail.detect import detect, repair, scan\n"
        "assert all(isinstance(f, types.FunctionType) for f in (detect, repair, scan))\n"
        "for old in ('detect', 'repair', 'scan'):\n"
        "    try:\n"
        "        importlib.import_module('onemail.detect.' + old)\n"
        "    except ModuleNotFoundError:\n"
        "        pass\n"
        "    else:\n"
        "        raise AssertionError(old)\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
