"""Timing shared by the benchmark scripts (run as ``python bench/NAME.py``, so this folder is on
``sys.path``)."""

from __future__ import annotations

import time


def best(fn, arg, repeat: int, clock=time.process_time) -> float:
    """Return the least time, in seconds of ``clock``, of ``repeat`` calls of ``fn(arg)``."""
    times = []
    for _ in range(repeat):
        t = clock()
        fn(arg)
        times.append(clock() - t)
    return min(times)
