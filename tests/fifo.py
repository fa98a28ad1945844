"""A FIFO fed by a writer thread (import as ``from fifo import fed_fifo``): the tests of
non-seekable input for the readers and the command line."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def fed_fifo(folder: Path, data: bytes, *, step: int = 777) -> Iterator[Path]:
    """Make the FIFO ``folder/pipe``, write ``data`` to it in pieces of ``step`` bytes from a
    thread (it blocks until a reader opens the FIFO), and join the thread on leaving."""
    fifo = folder / "pipe"
    os.mkfifo(fifo)

    def writer() -> None:
        with open(fifo, "wb") as f:
            for i in range(0, len(data), step):
                f.write(data[i:i + step])

    t = threading.Thread(target=writer)
    t.start()
    try:
        yield fifo
    finally:
        t.join(timeout=60)
