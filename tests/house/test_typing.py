"""``mypy --strict`` covers all of ``src/onemail`` but the generated tables (issue 18 item 2): the
configuration in ``pyproject.toml`` silences no module of ours, and CI runs it. (mypy itself runs
in ``.ci/run``, about 30 s on this machine: not here.)"""

from __future__ import annotations

import tomllib

from paths import REPO


def _mypy() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]


def test_strict_on_the_whole_package():
    config = _mypy()
    assert config["strict"] is True and config["files"] == ["src/onemail"]
    assert config["exclude"] == ["/_tables/"]


def test_no_module_of_ours_is_silenced_but_the_generated_tables():
    silenced = [m for o in _mypy().get("overrides", []) if o.get("ignore_errors")
                for m in ([o["module"]] if isinstance(o["module"], str) else o["module"])]
    assert silenced and all(m.startswith("onemail.") and m.endswith("._tables.*") for m in silenced), silenced
    # only third-party modules may be untyped imports
    untyped = [m for o in _mypy().get("overrides", []) if o.get("ignore_missing_imports")
               for m in ([o["module"]] if isinstance(o["module"], str) else o["module"])]
    assert not [m for m in untyped if m.startswith("onemail")]


def test_ci_runs_mypy():
    assert "\nmypy --no-incremental\n" in (REPO / ".ci" / "run").read_text(encoding="utf-8")
