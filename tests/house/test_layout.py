"""The tests mirror the source: every public module of ``src/onemail`` has a test file carrying
its name in the folder of its package (``onemail/text/rfc2047.py`` ->
``tests/text/test_rfc2047.py``; the command modules of ``onemail/_cli`` and ``onemail/cli.py`` ->
``tests/cli/``). Private modules (``_x``) and generated tables are tested through the modules
that use them; cross-cutting folders (properties, regressions, differential, spec,
stdlib_assumptions) test many modules at once."""

from __future__ import annotations

from paths import REPO

SRC = REPO / "src" / "onemail"
TESTS = REPO / "tests"
#: The test folder of each package folder of src/onemail.
FOLDERS = {"text": "text", "rtf": "rtf", "detect": "detect", "message": "message", "_cli": "cli"}
#: Top-level modules and the test folder of each (onemail.dask and onemail.spark build message
#: records on clusters).
TOP_LEVEL = {"cli": "cli", "dask": "message", "spark": "message"}


def _public_modules():
    for path in sorted(SRC.rglob("*.py")):
        parts = path.relative_to(SRC).parts
        if path.name == "__init__.py" or any(p.startswith("_") for p in parts[1:]):
            continue
        if len(parts) == 1:
            if not path.stem.startswith("_"):
                yield path, TESTS / TOP_LEVEL.get(path.stem, "house") / f"test_{path.stem}.py"
        elif len(parts) == 2:
            yield path, TESTS / FOLDERS[parts[0]] / f"test_{path.stem}.py"


def test_every_public_module_has_a_test_file_carrying_its_name():
    modules = list(_public_modules())
    assert len(modules) > 30
    missing = [f"{src.relative_to(REPO)} -> {test.relative_to(REPO)}" for src, test in modules
               if not test.exists()]
    assert missing == []


def test_no_test_is_left_in_the_old_flat_folder():
    assert not (TESTS / "unit").exists() or list((TESTS / "unit").glob("test_*.py")) == []
