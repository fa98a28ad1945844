"""Issue 16 item 8: values from the input never forge lines of human output or drive the terminal.

``onemail header``, ``param``, ``detect``, ``repair``, ``decode``, ``rtf decompress`` and
``rtf text``/``html`` print input values through ``_cli._safe.escape_for_terminal``; text that is
the command's output is exact in a pipe and escaped (lines kept) on a terminal. ``--json`` stays
exact.
"""

from __future__ import annotations

import json
import struct
import sys

from onemail.cli import main
from onemail.rtf import encapsulate_text


def _terminal(monkeypatch):
    """Standard output (capsys's stream) says it is a terminal."""
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)


def test_header_newline_and_escape_from_an_encoded_word(capsys):
    assert main(["header", "=?utf-8?q?a=0Aforged=1B[2J=E2=80=AEb?="]) == 0
    assert capsys.readouterr().out == "a\\nforged\\x1b[2J\\u202eb\n"


def test_header_json_stays_exact(capsys):
    assert main(["header", "--json", "=?utf-8?q?a=0A=1B?="]) == 0
    assert json.loads(capsys.readouterr().out) == {"text": "a\n\x1b", "issues": []}


def test_param_value_name_language_charset_escaped(capsys):
    assert main(["param", "attachment\x1b[2J; filename*=utf-8'\x1b]0\x07'%0Ax; n\x9b=1"]) == 0
    assert capsys.readouterr().out == (
        "attachment\\x1b[2J\n"
        "  filename = '\\nx' (extended, charset utf-8, language \\x1b]0\\x07)\n"
        "  n\\x9b = '1' (plain)\n")


def test_detect_file_names_cannot_forge_lines(tmp_path, capsys):
    (tmp_path / "a\nforged: binary\x1b[31m").write_bytes("Grüße".encode())
    (tmp_path / "b\udcff").write_bytes("Grüße".encode())  # undecodable byte 0xFF in the name
    assert main(["detect", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out == (f"{tmp_path}/a\\nforged: binary\\x1b[31m: utf-8 (confidence 100)\n"
                   f"{tmp_path}/b\\xff: utf-8 (confidence 100)\n")


def test_detect_unreadable_error_escaped(tmp_path, capsys):
    missing = tmp_path / "gone\r\x1b[1A"
    assert main(["detect", str(missing)]) == 1
    out = capsys.readouterr().out
    assert "\r" not in out and "\x1b" not in out
    assert out.startswith(f"{tmp_path}/gone\\r\\x1b[1A: unreadable (")
    assert out.count("\n") == 1


def test_repair_text_exact_in_a_pipe_escaped_on_a_terminal(capsys, monkeypatch):
    assert main(["repair", "a\x1b[2J\nb"]) == 0
    assert capsys.readouterr().out == "a\x1b[2J\nb\n"
    _terminal(monkeypatch)
    assert main(["repair", "a\x1b[2J\r\nb\rc"]) == 0
    assert capsys.readouterr().out == "a\\x1b[2J\r\nb\\rc\n"


def test_decode_text_exact_in_a_pipe_escaped_on_a_terminal(tmp_path, capsys, monkeypatch):
    src = tmp_path / "t.txt"
    src.write_bytes(b"line 1\r\n\x1b]52;c;SGVsbG8=\x07line 2\n\x85")
    assert main(["decode", "-c", "windows-1252", str(src)]) == 0
    assert capsys.readouterr().out == "line 1\r\n\x1b]52;c;SGVsbG8=\x07line 2\n\u2026\n"
    assert main(["decode", "-c", "latin1", str(src)]) == 0
    _terminal(monkeypatch)
    assert main(["decode", "-c", "iso-8859-1", str(src)]) == 0
    out = capsys.readouterr().out
    # WHATWG: latin1 / iso-8859-1 are windows-1252, so 0x85 is U+2026 either way
    assert out.endswith("line 1\r\n\\x1b]52;c;SGVsbG8=\\x07line 2\n\u2026\n")


def test_decode_c1_control_escaped_on_a_terminal(tmp_path, capsys, monkeypatch):
    src = tmp_path / "t.txt"
    src.write_bytes("a\u0085b\u009b2Jc".encode())
    _terminal(monkeypatch)
    assert main(["decode", "-c", "utf-8", str(src)]) == 0
    assert capsys.readouterr().out == "a\\x85b\\x9b2Jc\n"


def test_rtf_decompress_compression_type_from_the_input_escaped(tmp_path, capsys):
    src = tmp_path / "s.bin"
    src.write_bytes(struct.pack("<II", 12, 0) + b"\x1b[2J" + b"\0\0\0\0")
    assert main(["rtf", "decompress", str(src), "-o", str(tmp_path / "o.rtf")]) == 0
    err = capsys.readouterr().err
    assert err.startswith("-- \\x1b[2J stream, 16 bytes -> 0 bytes of RTF; CRC not verified; "
                          "1 defect(s)\n")


def test_rtf_text_escaped_on_a_terminal_exact_to_a_file(tmp_path, capsys, monkeypatch):
    src = tmp_path / "t.rtf"
    src.write_bytes(encapsulate_text("a\x1b[2J\nb"))
    out = tmp_path / "o.txt"
    assert main(["rtf", "text", str(src), "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == "a\x1b[2J\nb"
    capsys.readouterr()
    _terminal(monkeypatch)
    assert main(["rtf", "text", str(src)]) == 0
    assert capsys.readouterr().out == "a\\x1b[2J\nb"


def test_param_with_a_section_number_of_4301_digits(capsys):
    """Issue 16 item 1: ``onemail param`` printed a traceback."""
    assert main(["param", "attachment; filename*" + "1" * 4301 + "=a.txt"]) == 0
    assert capsys.readouterr() == ("attachment\n  filename = 'a.txt' (continuation)\n", "")
