"""``onemail rtf html`` and ``onemail rtf text`` (src/onemail/_cli/_rtf_encapsulation.py)."""

from __future__ import annotations

import json

import pytest
from paths import CORPUS

from onemail.cli import main
from onemail.rtf import encapsulate_html, encapsulate_text

RTF = CORPUS / "rtf"


def test_html(tmp_path, capsysbinary):
    path = tmp_path / "a.rtf"
    path.write_bytes(encapsulate_html("<p>caf\u00e9 {x}</p>\r\n"))
    assert main(["rtf", "html", str(path)]) == 0
    out, err = capsysbinary.readouterr()
    assert out == "<p>caf\u00e9 {x}</p>\r\n".encode()
    assert err == b"-- html; 0 defect(s)\n"


def test_text_json(tmp_path, capsys):
    path = tmp_path / "a.rtf"
    path.write_bytes(encapsulate_text("a\U0001f600"))
    assert main(["rtf", "text", "--json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == {"kind": "text", "text": "a\U0001f600",
                                                   "defects": []}


def test_wrong_kind_exits_1(tmp_path, capsys):
    path = tmp_path / "a.rtf"
    path.write_bytes(encapsulate_text("a"))
    assert main(["rtf", "html", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert "does not encapsulate html (found: text" in err


def test_text_of_plain_rtf(tmp_path, capsys):
    path = tmp_path / "a.rtf"
    path.write_bytes(b"{\\rtf1\\ansi{\\fonttbl{\\f0 A;}}\\f0 Hello\\par}")
    assert main(["rtf", "text", str(path)]) == 0
    out, err = capsys.readouterr()
    assert out == "Hello\r\n"
    assert err.startswith("-- not encapsulated")


def test_encapsulate_round_trip(tmp_path, capsys):
    source = tmp_path / "a.html"
    source.write_bytes("<b>\u65e5</b>".encode())
    rtf = tmp_path / "a.rtf"
    assert main(["rtf", "html", "--encapsulate", str(source), "-o", str(rtf)]) == 0
    assert main(["rtf", "html", "--json", str(rtf)]) == 0
    assert json.loads(capsys.readouterr().out)["text"] == "<b>\u65e5</b>"


def test_compressed_stream_is_decompressed_first(capsys):
    path = RTF / "compressed" / "Aspose.Email-for-.NET--Message2.bin"
    if not path.exists():
        pytest.skip("../shared/corpus/rtf is not present")
    assert main(["rtf", "text", "--json", str(path)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["kind"] == "text"
    assert result["text"].startswith("This is an evaluation copy of Aspose.Email for .NET.")


def test_unreadable_file(tmp_path, capsys):
    assert main(["rtf", "html", str(tmp_path / "missing.rtf")]) == 1


def test_the_text_report_lists_each_defect_s_kind_and_place(tmp_path, capsys):
    """Regression: the report unpacked each defect's JSON object as a tuple and printed its keys
    ("kind at byte offset, length byte(s)") for every defect."""
    path = tmp_path / "x.rtf"
    path.write_bytes(b"{\\rtf1\\ansi\\ansicpg1252\\fromhtml1 \\deff0{\\fonttbl{\\f0\\fswiss\\fcharset0 Arial;}}"
                     b"{\\*\\htmltag64 <p>}caf\\'e9 \\'zz")
    assert main(["rtf", "html", str(path)]) == 0
    captured = capsys.readouterr()
    assert captured.out == "<p>caf\u00e9 zz"
    assert captured.err.splitlines() == ["-- html; 2 defect(s)", "   InvalidHexEscape at byte 105, 2 byte(s)",
                                         "   UnclosedGroups at byte 109, 0 byte(s)"]
