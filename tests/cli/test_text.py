"""``onemail decode FILE --charset LABEL`` (onemail._cli.text)."""

from __future__ import annotations

import json

from onemail.cli import main


def test_decode_prints_the_text_then_the_charset_and_issues(tmp_path, capsys):
    path = tmp_path / "t.txt"
    path.write_bytes(b"caf\xc3")
    assert main(["decode", "-c", "utf-8", str(path)]) == 0
    captured = capsys.readouterr()
    assert captured.out == "caf\ufffd\n"
    assert captured.err == "-- charset: utf-8; 1 issue(s)\n   InvalidUtf8 at byte 3, 1 byte(s)\n"


def test_decode_json(tmp_path, capsys):
    path = tmp_path / "t.txt"
    path.write_bytes("Привет".encode("koi8-r"))
    assert main(["decode", "--charset", "koi8-r", "--json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == {"charset": "koi8-r", "text": "Привет", "issues": []}


def test_an_unknown_label_is_the_unknown_charset_rule(tmp_path, capsys):
    path = tmp_path / "t.txt"
    path.write_bytes(b"caf\xe9")
    assert main(["decode", "-c", "no-such-label", "--json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "charset": "windows-1252", "text": "caf\u00e9",
        "issues": [{"kind": "AmbiguousUnknownCharset", "offset": 0, "length": 4}]}


def test_unreadable_file_exits_1_and_usage_errors_2(tmp_path, capsys):
    assert main(["decode", "-c", "utf-8", str(tmp_path / "missing")]) == 1
    assert "No such file or directory" in capsys.readouterr().err
    assert main(["decode", str(tmp_path / "missing")]) == 2  # --charset is required
