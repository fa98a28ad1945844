"""rtf_to_text: the plain text of any RTF (cells and rows as TAB and CRLF, htmltag skipped)."""

from __future__ import annotations

import pytest

from onemail.rtf import deencapsulate, encapsulate_html, rtf_to_text


def test_plain_rtf_text():
    r = rtf_to_text(rb"{\rtf1\ansi\ansicpg1252{\fonttbl{\f0 Arial;}}\f0 caf\'e9\par \u8364?x}")
    assert (r.kind, r.text, r.defects) == (None, "caf\u00e9\r\n\u20acx", ())


def test_table_rows_are_lines():
    r = rtf_to_text(rb"{\rtf1\ansi\trowd a\cell b\cell\row\trowd c\cell d\cell\row}")
    assert r.text == "a\tb\t\r\nc\td\t\r\n"


def test_cells_stay_out_of_deencapsulation():
    assert deencapsulate(rb"{\rtf1\ansi a\cell b\row}").text == "ab"


def test_encapsulated_html_gives_its_rtf_rendering_not_markup():
    rtf = encapsulate_html("<p>Hello <b>world</b></p>")
    out = rtf_to_text(rtf)
    assert out.kind == "html"
    assert "<" not in out.text and "Hello world" in out.text


def test_defects_and_types():
    r = rtf_to_text(b"{\\rtf1 a")
    assert [d.kind.value for d in r.defects] == ["UnclosedGroups"]
    with pytest.raises(TypeError, match="rtf must be bytes-like"):
        rtf_to_text("{\\rtf1}")
