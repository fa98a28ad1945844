"""Every generated table equals a fresh build of its generator, one test per table.

``scripts/generate_tables.py`` lists what each generator under ``scripts/gen/`` writes
(:func:`outputs`, which builds nothing); each test builds one table and compares the file byte
for byte, header (inputs' sha256, snapshot) included. A second test checks that every module
under a ``_tables`` folder is written by a generator, so no table escapes the check.
"""

from __future__ import annotations

import importlib.util
import sys

import pytest
from paths import REPO

_spec = importlib.util.spec_from_file_location("generate_tables", REPO / "scripts" / "generate_tables.py")
generate_tables = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = generate_tables
_spec.loader.exec_module(generate_tables)

OUTPUTS = generate_tables.outputs()
#: Generated modules that another committed script writes and checks (its own --check test).
OTHER_WRITERS = {REPO / "src/onemail/detect/_tables/language.py": "scripts/train_detect.py",
                 REPO / "src/onemail/detect/_tables/chinese.py": "scripts/train_chinese.py"}


@pytest.mark.parametrize("path", sorted(OUTPUTS), ids=lambda p: p.relative_to(REPO).as_posix())
def test_table_current(path):
    inputs, body = OUTPUTS[path]
    expected = generate_tables.render(inputs, body)
    assert path.exists(), f"{path.relative_to(REPO)} is missing: run scripts/generate_tables.py"
    assert path.read_text(encoding="utf-8") == expected, (
        f"{path.relative_to(REPO)} is stale or was edited: run scripts/generate_tables.py")


def test_every_table_module_has_a_generator():
    found = {p for p in (REPO / "src").rglob("_tables/*.py") if p.name != "__init__.py"}
    assert found == set(OUTPUTS) | set(OTHER_WRITERS)


def test_check_mode_names_the_stale_table(tmp_path, monkeypatch):
    """``--check PATH`` reports exactly the table that differs (here: a copy made stale)."""
    path = REPO / "src/onemail/text/_tables/labels.py"
    inputs, body = OUTPUTS[path]
    copy = tmp_path / "labels.py"
    copy.write_text(path.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    monkeypatch.setattr(generate_tables, "outputs", lambda: {copy: (inputs, body)})
    assert generate_tables.stale([copy]) == [copy]
    copy.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    assert generate_tables.stale([copy]) == []
    with pytest.raises(KeyError):
        generate_tables.stale([path])
