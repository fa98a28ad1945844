"""Safe attachment file names and a writer that stays inside its folder (M33)."""

from __future__ import annotations

import os

import pytest

from onemail.message.attachments import MAX_NAME_BYTES, safe_filename, unique_names, write_inside

NAMES = [
    ("../../etc/passwd", "passwd"),
    ("/etc/passwd", "passwd"),
    ("C:\\Windows\\system.ini", "system.ini"),
    ("..", "part-1.bin"),
    ("...", "part-1.bin"),
    ("", "part-1.bin"),
    (None, "part-1.bin"),
    ("CON", "_CON"),
    ("con.txt", "_con.txt"),
    ("Lpt9.tar.gz", "_Lpt9.tar.gz"),
    ("COM\u00b9", "_COM\u00b9"),
    ("CONSOLE.txt", "CONSOLE.txt"),
    ("a\x00b", "a_b"),
    ("a\tb\r\nc\x7f\x85", "a_b__c__"),
    ('a<b>c:d"e|f?g*h', "a_b_c_d_e_f_g_h"),
    ("\u202egpj.exe", "_gpj.exe"),
    ("bad \udcff byte.txt", "bad _ byte.txt"),
    (" .hidden. ", "hidden"),
    ("r\u00e9sum\u00e9.pdf", "r\u00e9sum\u00e9.pdf"),
]


@pytest.mark.parametrize(("name", "safe"), NAMES, ids=[repr(n) for n, _ in NAMES])
def test_safe_filename(name, safe):
    assert safe_filename(name, "part-1.bin") == safe


def test_long_names_are_cut_keeping_the_extension():
    assert safe_filename("a" * 10000, "x") == "a" * MAX_NAME_BYTES
    assert safe_filename("a" * 10000 + ".pdf", "x") == "a" * (MAX_NAME_BYTES - 4) + ".pdf"
    cut = safe_filename("\u00e9" * 5000, "x")  # two bytes each: cut at a character boundary
    assert cut == "\u00e9" * (MAX_NAME_BYTES // 2)
    assert len(safe_filename("\u4e2d" * 5000 + ".txt", "x").encode()) <= MAX_NAME_BYTES


def test_collisions_are_numbered_ignoring_case():
    assert unique_names(["a.txt", "A.TXT", "a.txt", "b", "b", "a (2).txt"]) == [
        "a.txt", "A (2).TXT", "a (3).txt", "b", "b (2)", "a (2) (2).txt"]


def test_default_name_must_leave_something():
    with pytest.raises(ValueError, match="default leaves no file name"):
        safe_filename(None, "..")
    with pytest.raises(TypeError, match="name must be a str"):
        safe_filename(b"x", "y")


def test_write_inside_writes_and_replaces(tmp_path):
    root = tmp_path / "att"
    path = write_inside(str(root), "rec/a.txt", b"one")
    assert path == str(root / "rec" / "a.txt") and (root / "rec" / "a.txt").read_bytes() == b"one"
    write_inside(str(root), "rec/a.txt", b"two")
    assert (root / "rec" / "a.txt").read_bytes() == b"two"


@pytest.mark.parametrize("relpath", ["../x/a", "rec/../a", "rec/", "/etc/passwd", "a", "a/b/c",
                                     "rec/a\\b", "./a"])
def test_write_inside_refuses_paths_that_are_not_folder_and_name(tmp_path, relpath):
    with pytest.raises(ValueError, match="relpath must be"):
        write_inside(str(tmp_path), relpath, b"x")


def test_write_inside_refuses_symbolic_links_that_lead_out(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    root = tmp_path / "att"
    root.mkdir()
    os.symlink(outside, root / "rec")  # a planted folder link
    with pytest.raises(OSError, match="refused"):
        write_inside(str(root), "rec/a.txt", b"x")
    (root / "rec2").mkdir()
    os.symlink(outside / "victim", root / "rec2" / "a.txt")  # a planted file link
    with pytest.raises(OSError, match="refused"):
        write_inside(str(root), "rec2/a.txt", b"x")
    assert list(outside.iterdir()) == []
