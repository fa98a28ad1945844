"""The fuzz targets of ``fuzz/targets.py`` hold on corpus seeds, made seeds and small inputs
(issue 16); no fuzzer is needed. A finding of a fuzzer becomes a test of the module it breaks
(the runs of 150 s per target found none; the thread-safety race of the CJK fast path was found
by tests/house/test_thread_safety.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

FUZZ = Path(__file__).resolve().parents[2] / "fuzz"
sys.path.insert(0, str(FUZZ))

import targets  # noqa: E402


@pytest.mark.parametrize("name", list(targets.TARGETS))
def test_every_target_holds_on_seeds(corpus, name):
    fn = targets.TARGETS[name][0]
    seeds = list(targets.seed_inputs(name))[:25]
    assert seeds, name
    for data in seeds:
        fn(data)


@pytest.mark.parametrize("name", list(targets.TARGETS))
def test_every_target_holds_on_small_inputs(name):
    fn = targets.TARGETS[name][0]
    for data in (b"", b"\x00", b"\xff" * 40, b"{\\rtf1" + b"9" * 5000, b"=?" * 300,
                 b"From \r\n\r\n" + b"0:00 " * 50):
        fn(data)


def test_the_harness_imports_every_module_it_instruments():
    """fuzz/fuzz.py imports the package for instrumentation: an optional extra that is not
    installed (pyspark is in no extra the tests install) leaves its module out, it does not
    stop every target at start-up (it did)."""
    import fuzz as harness

    left_out = harness.import_all()
    assert "onemail.spark" in left_out and "onemail.dask" in left_out
    assert "onemail.message.reader" not in left_out and "onemail.text.rfc2047" not in left_out
