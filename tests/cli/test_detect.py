"""``onemail detect FILE...`` and ``onemail repair TEXT`` (onemail._cli.detect)."""

from __future__ import annotations

import json

from scan_tree import make_tree

from onemail.cli import main


def test_cli_detect_text_and_json(tmp_path, capsys):
    root = make_tree(tmp_path)
    assert main(["detect", str(root)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith("a.txt: utf-8 (confidence 100)")
    assert out[1].endswith("b.png: binary")
    assert out[2].endswith("(windows-1252 -> utf-8)")
    assert main(["detect", "--json", str(root / "a.txt")]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["charset"] == "utf-8" and row["binary"] is False


def test_cli_detect_unreadable_exit_1(tmp_path, capsys):
    assert main(["detect", str(tmp_path / "nope")]) == 1
    assert "unreadable" in capsys.readouterr().out


def test_cli_repair(capsys):
    assert main(["repair", "FÃ¶rstÃ¥r"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "Förstår\n" and "windows-1252 -> utf-8" in captured.err
    assert main(["repair", "--json", "Ã©tÃ©"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "text": "été", "chain": "windows-1252 -> utf-8", "steps": [["windows-1252", "utf-8"]]}


def test_cli_survives_bytes_the_locale_cannot_encode(tmp_path):
    """Under a strict UTF-8 locale (PYTHONIOENCODING=utf-8:strict) Latin-1 bytes on standard
    input, a surrogate-escaped argument and a file name that is not UTF-8 are written as
    backslash escapes, and --json stays valid UTF-8 JSON (a hostile test crashed all three)."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}
    cli = [sys.executable, "-m", "onemail.cli"]
    done = subprocess.run([*cli, "repair", "-"], input=b"caf\xe9 F\xc3\x83\xc2\xb6rst\xc3\x83\xc2\xa5r",
                          capture_output=True, env=env, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode("utf-8") == "caf\\udce9 Förstår\n"
    name = os.fsdecode(b"name\xff.txt")
    if sys.platform != "win32":
        (tmp_path / name).write_bytes(b"x")
        done = subprocess.run([*cli, "detect", "--json", str(tmp_path)], capture_output=True, env=env,
                              check=False)
        assert done.returncode == 0, done.stderr
        row = json.loads(done.stdout.decode("utf-8"))
        assert row["path"].endswith("name\udcff.txt")
