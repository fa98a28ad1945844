"""Walk files and folders and report each file's charset (spec 004 "The binary rule": ``scan``).

Binary files are reported as such and not decoded: a directory walk that force-decodes a PNG
produces a confident-looking answer for a file that is not text.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ._binary import looks_binary
from ._detector import detect

__all__ = ["ScanRow", "scan"]

#: Characters of a file's text that the mojibake check reads (repair is the slow part).
REPAIR_CHARS = 4096


@dataclass(frozen=True, slots=True)
class ScanRow:
    """One file of :func:`scan`.

    :ivar path: the file's path (``str``) as found by the walk.
    :ivar charset: the detected label (resolves with :func:`onemail.text.for_label`), or None
        for a binary or unreadable file.
    :ivar confidence: ``int`` 0..100 (0 for binary and unreadable files).
    :ivar binary: True when :func:`onemail.detect.looks_binary` says the file is not text.
    :ivar repaired: True when the decoded text (its first ``REPAIR_CHARS`` characters) is
        mojibake that :func:`onemail.detect.repair` changes.
    :ivar chain: the repair chain (``render_chain``), ``""`` when nothing was repaired.
    :ivar error: the ``OSError`` message for an unreadable file, else None.
    """

    path: str
    charset: str | None
    confidence: int
    binary: bool
    repaired: bool
    chain: str = ""
    error: str | None = None

    def to_json(self) -> dict[str, object]:
        """Return the row as a JSON-ready ``dict``."""
        return {"path": self.path, "charset": self.charset, "confidence": self.confidence,
                "binary": self.binary, "repaired": self.repaired, "chain": self.chain,
                "error": self.error}


def _files(paths: Iterable[str | os.PathLike[str]]) -> Iterator[tuple[str, str | None]]:
    # (path, problem): folders that cannot be listed, unreachable links and FIFOs/sockets/devices
    # in folders are reported, not skipped or opened (onemail._walk)
    from .._walk import walk

    return walk(paths)


def scan_bytes(path: str, data: bytes) -> ScanRow:
    """Return the :class:`ScanRow` of one file's bytes."""
    if looks_binary(data):
        return ScanRow(path, None, 0, True, False)
    from ..text import for_label
    from ._repair import render_chain, repair

    found = detect(data)
    charset = for_label(found.charset)
    assert charset is not None  # detect() names labels for_label resolves
    text = charset.decode(data)
    fixed = repair(text[:REPAIR_CHARS])
    return ScanRow(path, found.charset, found.confidence, False, bool(fixed.steps),
                   render_chain(fixed.steps))


def scan(paths: str | bytes | os.PathLike[str] | Iterable[str | bytes | os.PathLike[str]]) -> Iterator[ScanRow]:
    """Yield one :class:`ScanRow` per file under ``paths`` (files, and folders walked in order).

    :param paths: an iterable of ``str`` / ``os.PathLike`` (a single path is accepted too).
    :returns: an iterator of rows; unreadable files, folders that cannot be listed, unreachable
        symbolic links and non-regular files found in folders give a row with ``error`` set.
        Never raises on file contents.
    :raises TypeError: ``paths`` is neither a path nor an iterable of paths (raised by the
        call; an item of ``paths`` that is no path, when the walk reaches it).
    """
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    elif not isinstance(paths, Iterable):
        raise TypeError(f"paths must be a path or an iterable of paths, not {type(paths).__name__}")
    return _scan(paths)


def _checked(paths: Iterable[str | bytes | os.PathLike[str]]) -> Iterator[str]:
    for path in paths:
        if not isinstance(path, (str, bytes, os.PathLike)):
            raise TypeError(f"paths: each item must be a str or os.PathLike path, not {type(path).__name__}")
        yield os.fsdecode(path)


def _scan(paths: Iterable[str | bytes | os.PathLike[str]]) -> Iterator[ScanRow]:
    for path, problem in _files(_checked(paths)):
        if problem is not None:
            yield ScanRow(path, None, 0, False, False, "", problem)
            continue
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as exc:
            yield ScanRow(path, None, 0, False, False, "", exc.strerror or str(exc))
            continue
        yield scan_bytes(path, data)
