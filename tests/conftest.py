"""Shared test fixtures."""

from __future__ import annotations

import pytest
from paths import CORPUS, SHARED


def pytest_report_header(config):
    return [f"shared data: {SHARED} ({'present' if SHARED.exists() else 'MISSING'})"]


@pytest.fixture(scope="session")
def corpus():
    if not CORPUS.exists():
        pytest.skip("../shared/corpus is not present")
    return CORPUS
