"""Replay the RFC 2047 / RFC 2231 differential check (``tools/text-diff``) without any oracle.

The cases (``tests/data/text-diff/cases.jsonl.gz``) and the oracles' recorded answers
(``answers.jsonl.gz``: Python ``email``, Go ``mime``, Node ``libmime`` / ``postal-mime`` /
``@sinonjs/text-encoding`` / ``utf7``; regenerate with ``tools/text-diff/run --live``) are
compared with onemail's answers computed now; every difference must match a rule of
``tools/text-diff/explain.py`` naming an ambiguity id, and IMAP modified UTF-7 must decode back
to the text the generator's reference encoder encoded.
"""

from __future__ import annotations

import importlib
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from paths import DATA, REPO

TOOL = REPO / "tools" / "text-diff"
ORACLES = ("py-legacy", "py-default", "go", "libmime", "postal")


def _load(name: str):
    """Import a tools/text-diff module (they import each other by plain name)."""
    if str(TOOL) not in sys.path:
        sys.path.insert(0, str(TOOL))
    mod = sys.modules.get(name)
    if mod is not None and Path(getattr(mod, "__file__", "")).parent != TOOL:
        del sys.modules[name]
    return importlib.import_module(name)


@pytest.fixture(scope="module")
def replay():
    if not (DATA / "text-diff" / "cases.jsonl.gz").exists():
        pytest.fail("tests/data/text-diff/cases.jsonl.gz is missing: run tools/text-diff/run --live")
    generate, record, compare = _load("generate"), _load("record"), _load("compare")
    cases = generate.read()
    answers = record.read_answers()
    return cases, answers, compare.compare(cases, answers)


def test_enough_cases_and_every_oracle_recorded(replay):
    cases, answers, _ = replay
    synthetic = [c for c in cases if not c["id"].startswith("corpus/")]
    assert len(synthetic) >= 10_000
    assert {c["kind"] for c in cases} >= {"header", "param"}
    for oracle in ORACLES:
        assert sum(oracle in a for a in answers.values()) > 9_000, oracle


def test_every_difference_is_explained(replay):
    _, _, result = replay
    shown = "\n".join(f"{cid} [{o}] ours={m!r} theirs={t!r}" for cid, o, m, t in result.unexplained[:10])
    assert not result.unexplained, f"{len(result.unexplained)} unexplained differences:\n{shown}"


def test_every_rule_names_a_documented_ambiguity():
    explain = _load("explain")
    register = (REPO / "docs" / "ambiguities.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^### (T\d+) ", register, re.M))
    rules = explain.RULES + explain.PARAM_RULES + [r for r, _ in explain.NORMALIZERS + explain.MASKS]
    assert {r.id for r in rules} <= documented


def test_summary_lines(replay):
    _, _, result = replay
    lines = _load("compare").summary(result)
    assert lines[0].startswith("cases: ")
    assert lines[-1] == "unexplained: 0"


@pytest.mark.skipif(shutil.which("go") is None or not Path("/usr/share/gocode/src/golang.org/x/text").exists(),
                    reason="go or golang-golang-x-text-dev not installed")
def test_go_oracle_still_answers_as_recorded(replay, tmp_path):
    cases, answers, _ = replay
    record = _load("record")
    sample = [c for c in cases if c["kind"] in ("header", "param")][::50]
    got = record.run_go(sample)
    assert got is not None
    for a in got:
        assert a["go"] == answers[a["id"]]["go"], a["id"]


@pytest.mark.skipif(shutil.which("node") is None or not (TOOL / "oracles" / "node" / "node_modules").exists(),
                    reason="node or tools/text-diff/oracles/node/node_modules not installed")
def test_node_oracles_still_answer_as_recorded(replay):
    cases, answers, _ = replay
    record = _load("record")
    sample = [c for c in cases if c["kind"] in ("header", "param")][::50]
    try:
        got = record.run_node(sample)
    except subprocess.CalledProcessError as exc:  # pragma: no cover - broken install
        pytest.skip(f"node oracle failed: {exc}")
    for a in got:
        for oracle in ("libmime", "postal"):
            assert a[oracle] == answers[a["id"]][oracle], (a["id"], oracle)
