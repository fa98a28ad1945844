"""Files and folders for ``onemail scan`` and ``onemail detect``: each path found is a file to
read or a reported problem; nothing is skipped silently and nothing blocks or loops.

Rules (the same for both commands):

* A folder is walked in name order, depth first (a folder's files, then its sub-folders).
  Symbolic links to folders are followed, but a folder (device and inode) is walked once, so a
  link loop ends and nothing is read twice.
* A folder that cannot be listed (permissions) is reported with the ``OSError`` message.
* A symbolic link whose target cannot be reached (dangling, a loop) is reported whatever its
  name (it may have pointed at a folder).
* In a folder, only regular files are read: a FIFO, socket or device is reported as
  ``not a regular file (...)`` (opening a FIFO would wait for a writer forever). A path named
  on the command line may be a FIFO (``<(command)`` gives one) and is read; a named socket or
  device is reported.
* ``accept(name)`` selects the names of a folder's files that the caller wants (scan: mail
  suffixes); named paths are always taken. Reports about a folder's non-regular files follow the
  same selection.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable, Iterator

__all__ = ["not_regular", "stat_problem", "walk"]

_KINDS = ((stat.S_ISFIFO, "FIFO"), (stat.S_ISSOCK, "socket"), (stat.S_ISCHR, "character device"),
          (stat.S_ISBLK, "block device"))


def not_regular(mode: int) -> str:
    """``not a regular file (FIFO)`` and the like, for a ``st_mode`` that is no file or folder."""
    for test, name in _KINDS:
        if test(mode):
            return f"not a regular file ({name})"
    return "not a regular file"


def stat_problem(path: str, exc: OSError) -> str:
    """Why ``path`` cannot be reached: the ``OSError`` text, naming an unreachable symbolic link."""
    if os.path.islink(path):
        return f"unreachable symbolic link ({exc.strerror or exc})"
    return exc.strerror or str(exc)


def walk(paths: Iterable[str | os.PathLike[str]], accept: Callable[[str], bool] | None = None) -> Iterator[tuple[str, str | None]]:
    """Yield ``(path, problem)`` for every file under ``paths`` (module docstring).

    :param paths: ``str`` / ``os.PathLike`` paths of files or folders.
    :param accept: which names of files found in folders to yield (``None``: all).
    :returns: ``problem`` is ``None`` for a file to read, else why the path cannot be read
        (``str``). Never raises ``OSError``.
    """
    for p in paths:
        p = os.fspath(p)
        try:
            st = os.stat(p)
        except OSError as exc:
            yield p, stat_problem(p, exc)
            continue
        if stat.S_ISDIR(st.st_mode):
            yield from _folder(p, st, accept)
        elif stat.S_ISREG(st.st_mode) or stat.S_ISFIFO(st.st_mode):
            yield p, None
        else:
            yield p, not_regular(st.st_mode)


def _folder(top: str, st: os.stat_result,
            accept: Callable[[str], bool] | None) -> Iterator[tuple[str, str | None]]:
    seen = {(st.st_dev, st.st_ino)}
    stack = [top]
    while stack:
        folder = stack.pop()
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as exc:
            yield folder, exc.strerror or str(exc)
            continue
        subfolders = []
        for entry in entries:
            try:
                est = entry.stat()  # follows a symbolic link
            except OSError as exc:
                yield entry.path, stat_problem(entry.path, exc)
                continue
            if stat.S_ISDIR(est.st_mode):
                key = (est.st_dev, est.st_ino)
                if key not in seen:
                    seen.add(key)
                    subfolders.append(entry.path)
            elif accept is None or accept(entry.name):
                yield entry.path, None if stat.S_ISREG(est.st_mode) else not_regular(est.st_mode)
        stack.extend(reversed(subfolders))
