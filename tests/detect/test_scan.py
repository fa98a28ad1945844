"""scan(): folders walked in order, binary files and unreadable paths (the commands that print
its rows: tests/cli/test_detect.py)."""

from __future__ import annotations

import pytest
from scan_tree import make_tree

from onemail.detect import ScanRow, scan


def test_scan_walks_folders_in_order_and_skips_binary(tmp_path):
    rows = list(scan([make_tree(tmp_path)]))
    assert [r.path.rsplit("/", 1)[-1] for r in rows] == ["a.txt", "b.png", "c.txt"]
    a, b, c = rows
    assert (a.charset, a.confidence, a.binary, a.repaired) == ("utf-8", 100, False, False)
    assert (b.charset, b.confidence, b.binary, b.repaired) == (None, 0, True, False)
    assert c.repaired and c.chain == "windows-1252 -> utf-8"


def test_scan_single_path_and_unreadable(tmp_path):
    rows = list(scan(tmp_path / "missing"))
    assert len(rows) == 1 and isinstance(rows[0], ScanRow) and rows[0].error


def test_scan_rejects_what_is_no_path_naming_the_argument(tmp_path):
    """A caller's bug raises TypeError naming ``paths``, ``None`` at the call (before: a bare
    "'NoneType' object is not iterable" at the first row), an item that is no path when the
    walk reaches it (before: os.fspath's message)."""
    with pytest.raises(TypeError, match="paths must be a path or an iterable of paths, not NoneType"):
        scan(None)
    rows = scan([tmp_path, 5])
    with pytest.raises(TypeError, match="paths: each item must be a str or os.PathLike path, not int"):
        list(rows)


def test_scan_bytes_path_gives_str_paths(tmp_path):
    (tmp_path / "a.txt").write_bytes(b"plain")
    rows = list(scan(bytes(tmp_path)))
    assert [r.path for r in rows] == [str(tmp_path / "a.txt")]
