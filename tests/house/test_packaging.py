"""Packaging: the version constant, the two entry points, the wheel's contents, light imports."""

from __future__ import annotations

import email.parser
import importlib.util
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from paths import REPO

import onemail

PROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
VERSION = PROJECT["version"]


def _script(name: str) -> Path:
    spec = importlib.util.spec_from_file_location(name, REPO / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ------------------------------------------------------------------------ version and generated

def test_version_is_the_pyproject_version():
    assert onemail.__version__ == VERSION


def test_generated_meta_modules_are_current():
    """``_version.py`` and ``_register.py`` equal a fresh run of scripts/generate_meta.py."""
    gen = _script("generate_meta")
    for path, text in gen.build().items():
        assert path.read_text(encoding="utf-8") == text, (
            f"{path.relative_to(REPO)} is stale: run python scripts/generate_meta.py")


def test_the_register_module_holds_every_entry_of_the_register():
    gen = _script("generate_meta")
    from onemail._register import ENTRIES

    text = (REPO / "docs" / "ambiguities.md").read_text(encoding="utf-8")
    assert ENTRIES == gen.register_entries(text)
    assert ENTRIES["T1"][0] == "Unknown charset label (`AmbiguousUnknownCharset`)"
    assert ENTRIES["T1"][1].startswith("- **Input**: a charset label that `for_label` does not know")
    # the editors' HTML comment after T3 is not part of the entry
    assert ENTRIES["T3"][1].endswith('step 2 says "that the table knows".')


# ------------------------------------------------------------------------ entry points

def _console_script() -> str:
    for candidate in (Path(sys.executable).parent / "onemail", shutil.which("onemail")):
        if candidate and Path(candidate).exists():
            return str(candidate)
    pytest.fail("the onemail console script is not installed (pip install -e '.[test]')")


def test_python_m_onemail_and_the_console_script_agree():
    by_module = subprocess.run([sys.executable, "-m", "onemail", "--version"],
                               capture_output=True, text=True)
    by_script = subprocess.run([_console_script(), "--version"], capture_output=True, text=True)
    assert by_module.returncode == by_script.returncode == 0
    assert by_module.stdout == by_script.stdout == f"onemail {VERSION}\n"
    usage = subprocess.run([sys.executable, "-m", "onemail"], capture_output=True, text=True)
    assert usage.returncode == 2 and usage.stderr.startswith("usage: onemail ")


# ------------------------------------------------------------------------ light imports

def _modules_after(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", f"{code}\nimport sys\nprint(*sorted(sys.modules))"],
                         capture_output=True, text=True, check=True).stdout
    return set(out.split())


def test_import_onemail_loads_only_the_version_constant():
    """``import onemail`` adds no module but its version constant (issue 18: under 30 ms)."""
    assert _modules_after("import onemail") - _modules_after("pass") == {"onemail", "onemail._version"}


def test_import_onemail_text_loads_no_tables():
    assert not {m for m in _modules_after("import onemail.text") if "_tables" in m}


def test_onemail_rtf_imports_nothing_else_of_ours():
    ours = {m for m in _modules_after("import onemail.rtf") if m.startswith("onemail")}
    assert {m for m in ours if not m.startswith("onemail.rtf")} == {"onemail", "onemail._version"}


# ------------------------------------------------------------------------ the wheel

@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """Build the wheel offline from a copy of the sources (the checkout stays clean)."""
    src = tmp_path_factory.mktemp("sdist")
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(REPO / name, src / name)
    shutil.copytree(REPO / "src", src / "src",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    out = tmp_path_factory.mktemp("wheel")
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                        "--no-index", "-q", "-w", str(out), str(src)],
                       capture_output=True, text=True, env={**os.environ, "PIP_NO_INPUT": "1"})
    assert r.returncode == 0, r.stdout + r.stderr
    (path,) = out.glob("onemail-*.whl")
    return path


def test_wheel_holds_the_package_py_typed_and_the_licence(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    info = f"onemail-{VERSION}.dist-info"
    assert {"onemail/py.typed", "onemail/__main__.py", "onemail/_version.py",
            "onemail/_register.py", f"{info}/licenses/LICENSE"} <= names
    shipped = {n for n in names if n.endswith(".py")}
    sources = {p.relative_to(REPO / "src").as_posix() for p in (REPO / "src" / "onemail").rglob("*.py")}
    assert shipped == sources
    assert all(n.startswith(("onemail/", f"{info}/")) for n in names)


def test_wheel_metadata(wheel):
    info = f"onemail-{VERSION}.dist-info"
    with zipfile.ZipFile(wheel) as z:
        meta = email.parser.Parser().parsestr(z.read(f"{info}/METADATA").decode("utf-8"))
        entry_points = z.read(f"{info}/entry_points.txt").decode("utf-8")
        licence = z.read(f"{info}/licenses/LICENSE").decode("utf-8")
    assert meta["Version"] == VERSION
    assert meta["License-Expression"] == "MIT"
    assert meta.get_all("License-File") == ["LICENSE"]
    assert meta["Requires-Python"] == ">=3.11"
    assert "Typing :: Typed" in meta.get_all("Classifier")
    assert not any(c.startswith("License ::") for c in meta.get_all("Classifier"))
    assert {u.split(",")[0] for u in meta.get_all("Project-URL")} == {
        "Homepage", "Repository", "Issues", "Changelog"}
    assert "onemail = onemail.cli:main" in entry_points
    assert licence == (REPO / "LICENSE").read_text(encoding="utf-8")
    assert "Copyright (c) 2026 The onemail authors" in licence


def test_wheel_ships_the_records_json_schema(wheel):
    """The JSON Schema of records (``onemail/message/record.schema.json``) and any other
    ``*.schema.json`` under ``src/onemail`` are in the wheel, byte for byte
    (``[tool.setuptools.package-data]``)."""
    schemas = sorted((REPO / "src" / "onemail").rglob("*.schema.json"))
    assert REPO / "src/onemail/message/record.schema.json" in schemas
    with zipfile.ZipFile(wheel) as z:
        for path in schemas:
            assert z.read(path.relative_to(REPO / "src").as_posix()) == path.read_bytes()


def test_the_installed_wheel_explains_without_the_checkout(wheel, tmp_path):
    """Installed from the wheel, ``onemail explain`` prints a register entry (it ships inside)."""
    target = tmp_path / "site"
    r = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "-q",
                        "--target", str(target), str(wheel)], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    env = {**os.environ, "PYTHONPATH": str(target)}
    run = subprocess.run([sys.executable, "-c", "import onemail; print(onemail.__file__)"],
                         capture_output=True, text=True, env=env, cwd=tmp_path)
    assert run.stdout.startswith(str(target)), run.stdout + run.stderr
    run = subprocess.run([sys.executable, "-m", "onemail", "explain", "AmbiguousDefaultCharset"],
                         capture_output=True, text=True, env=env, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "\nM1 No `charset` parameter on a text part (`AmbiguousDefaultCharset`)" in run.stdout
