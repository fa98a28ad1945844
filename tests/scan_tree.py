"""A small folder for ``scan()`` and ``onemail detect``: UTF-8 text, a PNG, mojibake in a
subfolder (tests/detect/test_scan.py, tests/cli/test_detect.py)."""

from __future__ import annotations

from pathlib import Path

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01"


def make_tree(root: Path) -> Path:
    """Write ``a.txt`` (UTF-8), ``b.png`` and ``sub/c.txt`` (UTF-8 read as windows-1252) under
    ``root``; return ``root``."""
    (root / "sub").mkdir()
    (root / "a.txt").write_bytes("Grüße aus Köln und München".encode())
    (root / "b.png").write_bytes(PNG)
    (root / "sub" / "c.txt").write_bytes("FÃ¶rstÃ¥r inte frÃ¥gan".encode())
    return root
