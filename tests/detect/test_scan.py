"""scan(): folders walked in order, binary files and unreadable paths (the commands that print
its rows: tests/cli/test_detect.py)."""

from __future__ import annotations

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
