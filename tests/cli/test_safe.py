"""``onemail._cli._safe.escape_for_terminal``: values from the input never forge human output."""

from __future__ import annotations

import io

import pytest

from onemail._cli._safe import escape_for_terminal, for_stream


def test_plain_text_is_returned_as_is():
    text = "Café – 日本語 C:\\temp\\x.txt \u00a0\u200d"
    assert escape_for_terminal(text) is text


def test_line_ends_and_controls_are_escaped():
    assert escape_for_terminal("a\nb\r\tc\x00\x1b[2J\x7f") == "a\\nb\\r\\tc\\x00\\x1b[2J\\x7f"


def test_c1_controls_and_osc_are_escaped():
    # NEL (U+0085) ends a line on some terminals; U+009B is the 8-bit CSI.
    assert escape_for_terminal("x\x85y\x9b31mz\x1b]8;;http://e/\x07") == (
        "x\\x85y\\x9b31mz\\x1b]8;;http://e/\\x07")


def test_separators_and_bidi_controls_are_escaped():
    assert escape_for_terminal("a\u2028b\u2029c\u202etxt.exe\u2066\u2069\u061c\u200e\u200f") == (
        "a\\u2028b\\u2029c\\u202etxt.exe\\u2066\\u2069\\u061c\\u200e\\u200f")


def test_surrogates_are_escaped_surrogateescape_as_bytes():
    assert escape_for_terminal("a\udcff\udc80b\ud800") == "a\\xff\\x80b\\ud800"


def test_keep_lines_keeps_lf_crlf_and_tab_only():
    assert escape_for_terminal("a\r\nb\nc\td\re\x1b\x0b\x0c", keep_lines=True) == (
        "a\r\nb\nc\td\\re\\x1b\\x0b\\x0c")


def test_for_stream_escapes_only_for_a_terminal():
    class Tty(io.StringIO):
        def isatty(self):
            return True

    assert for_stream("a\n\x1b", io.StringIO()) == "a\n\x1b"
    assert for_stream("a\n\x1b", Tty()) == "a\n\\x1b"
    assert for_stream("a\x1b", object()) == "a\x1b"


def test_not_a_str_is_a_type_error():
    with pytest.raises(TypeError, match="text must be str"):
        escape_for_terminal(b"x")  # type: ignore[arg-type]
