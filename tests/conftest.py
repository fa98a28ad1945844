"""Shared test fixtures, and one clear skip when the shared data is absent.

The tests read real data from ``../shared`` (a checkout of the project's shared data beside this
checkout: ``shared/corpus``, ``shared/whatwg-encoding``, ``shared/spec``; README "Run the tests").
When a part of it is missing, every test that needs it is skipped with one message, instead of
failing or breaking collection: a module or test stopped by ``FileNotFoundError`` for a path
inside a missing part, and the tests' own skips for absent shared data, all report
:data:`SHARED_REASON` at one place, so ``-ra`` folds them into a single line. A file missing
inside a part that is present is still a failure.
"""

from __future__ import annotations

import re
import signal
import sys
from pathlib import Path

import pytest
from paths import CORPUS, SHARED, WHATWG

#: The parts of ``../shared`` the tests read.
SHARED_PARTS = (CORPUS, WHATWG, SHARED / "spec")
MISSING = tuple(p for p in SHARED_PARTS if not p.exists())
SHARED_REASON = (
    (f"shared data not found: {SHARED} is missing" if not SHARED.exists() else
     "shared data incomplete: " + ", ".join(f"{p} is missing" for p in MISSING))
    + " (a checkout of the project's shared data beside this checkout: shared/corpus, "
    "shared/whatwg-encoding, shared/spec; see README 'Run the tests'); "
    "the tests that read it are skipped"
) if MISSING else ""
_SKIP_LOCATION = (str(Path(__file__)), sys._getframe().f_lineno)
_QUOTED_PATH = re.compile(r"No such file or directory: '([^']+)'")
#: The tests' own skip reasons for absent shared data ("../shared/corpus/rtf is not present",
#: "mojibake corpus not present", ...), each with the part it is about, and the empty
#: parametrization of a data-driven test (about any part).
_OWN_SKIPS = (
    (re.compile(r"(\.\./shared/corpus|corpus|corpora).*(not present|missing)", re.I), (CORPUS,)),
    (re.compile(r"whatwg.*(not present|missing)", re.I), (WHATWG,)),
    (re.compile(r"\.\./shared\b.*(not present|missing)", re.I), (SHARED,)),
    (re.compile(r"got empty parameter set"), SHARED_PARTS),
)


def _in_missing_part(path: str | Path) -> bool:
    """True if ``path`` lies inside a part of ``../shared`` that is missing."""
    p = Path(path).resolve()
    return any(p == part or part in p.parents for part in MISSING)


def _about_missing_shared(report: pytest.CollectReport | pytest.TestReport,
                          exc: BaseException | None) -> bool:
    """True if ``report`` failed or skipped only because shared data is missing."""
    if not MISSING:
        return False
    if report.skipped and isinstance(report.longrepr, tuple):
        reason = report.longrepr[2]
        return str(SHARED) in reason or any(
            pattern.search(reason) and any(not part.exists() for part in parts)
            for pattern, parts in _OWN_SKIPS)
    if not report.failed:
        return False
    if isinstance(exc, FileNotFoundError) and exc.filename is not None:
        return _in_missing_part(exc.filename)
    crash = getattr(report.longrepr, "reprcrash", None)
    match = _QUOTED_PATH.search(getattr(crash, "message", "") or "")
    return bool(match and crash.message.startswith("FileNotFoundError") and
                _in_missing_part(match.group(1)))


def _as_shared_skip(report: pytest.CollectReport | pytest.TestReport) -> None:
    report.outcome = "skipped"
    report.longrepr = (*_SKIP_LOCATION, SHARED_REASON)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_make_collect_report(collector):
    report = yield
    if _about_missing_shared(report, None):
        _as_shared_skip(report)
        report.result = []
    return report


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    exc = call.excinfo.value if call.excinfo is not None else None
    if _about_missing_shared(report, exc) or (report.failed and _reads_missing_part(item)):
        _as_shared_skip(report)
    return report


def _reads_missing_part(item: pytest.Item) -> bool:
    """True if the test's module names a path inside a missing part of ``../shared`` (say
    ``MAIL = CORPUS / "mail"``): its failure then comes from the absent data (an empty glob, no
    samples), not from the code, and is the one shared-data skip."""
    module = getattr(item, "module", None)
    return bool(MISSING) and module is not None and any(
        isinstance(value, Path) and _in_missing_part(value) for value in vars(module).values())


def pytest_configure(config):
    """Give SIGINT back its default when the run inherited it ignored (a shell's background job,
    ``cmd &``): the children the tests start would inherit the ignoring and never stop on the
    Ctrl-C the tests send them (tests/cli/test_cli.py, tests/cli/test_pool.py)."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_report_header(config):
    return [f"shared data: {SHARED} ({'present' if not MISSING else 'MISSING: ' + SHARED_REASON})"]


@pytest.fixture(scope="session")
def corpus():
    if not CORPUS.exists():
        pytest.skip("../shared/corpus is not present")
    return CORPUS
