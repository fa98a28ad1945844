"""Encapsulation (spec 002 "Encapsulation", decision 1; RT40-RT42): exact output."""

from __future__ import annotations

import pytest

from onemail.rtf import deencapsulate, encapsulate_html, encapsulate_text, is_encapsulated

HTML_HEADER = (
    b"{\\rtf1\\ansi\\ansicpg1252\\fromhtml1 \\deff0{\\fonttbl\r\n"
    b"{\\f0\\fswiss\\fcharset0 Arial;}\r\n{\\f1\\fmodern Courier New;}\r\n"
    b"{\\f2\\fnil\\fcharset2 Symbol;}\r\n{\\f3\\fmodern\\fcharset0 Courier New;}}\r\n"
    b"{\\colortbl\\red0\\green0\\blue0;\\red0\\green0\\blue255;}\r\n"
    b"\\uc1\\pard\\plain\\deftab360 \\f0\\fs24 \r\n{\\*\\htmltag64}\r\n"
)
TEXT_HEADER = (b"{\\rtf1\\ansi\\ansicpg1252\\fromtext \\deff0{\\fonttbl\r\n"
               b"{\\f0\\fswiss\\fcharset0 Arial;}}\r\n\\uc1\\pard\\plain\\f0\\fs20 ")


def test_html_document_exact():
    html = "<html><head><title>T</title></head><body><p>a &amp; b<br>c</p></body></html>"
    assert encapsulate_html(html) == HTML_HEADER + (
        b"{\\*\\htmltag19 <html>}{\\*\\htmltag34 <head>}{\\*\\htmltag177 <title>}"
        b"{\\*\\htmltag241 T}{\\*\\htmltag185 </title>}{\\*\\htmltag41 </head>}"
        b"{\\*\\htmltag50 <body>}{\\*\\htmltag64 <p>}a {\\*\\htmltag84 &amp;}"
        b"\\htmlrtf &\\htmlrtf0  b{\\*\\htmltag116 <br>}\\htmlrtf \\par \\htmlrtf0 c"
        b"{\\*\\htmltag72 </p>}\\htmlrtf \\par \\htmlrtf0 {\\*\\htmltag58 </body>}"
        b"{\\*\\htmltag27 </html>}}")


def test_html_fragment_text_is_body_text():
    assert encapsulate_html("x<b>y</b>") == HTML_HEADER + (
        b"x{\\*\\htmltag80 <b>}y{\\*\\htmltag88 </b>}}")


def test_html_style_content_goes_into_htmltag():
    """RT41: CSS is not shown to RTF readers; the comment keeps \\par for CRLF."""
    rtf = encapsulate_html("<html><head><style><!--\r\np {x}\r\n--></style></head></html>")
    assert b"{\\*\\htmltag241 <!--\\par p \\{x\\}\\par -->}" in rtf


def test_text_exact():
    """RT40: CRLF is \\par, lone LF \\'0a, astral characters a signed surrogate pair."""
    assert encapsulate_text("x\r\ny\n\U0001f600\t{\u00e9}") == TEXT_HEADER + (
        b"x\\par\r\ny\\'0a\\u-10179?\\u-8704?\\tab \\{\\'e9\\}}")


def test_what_an_rtf_reader_shows():
    """The plain-text walk (htmltag groups skipped, \\htmlrtf ignored) is the body text."""
    rtf = encapsulate_html("<html><head><style>p {x}</style></head><body><p>Hi &amp; bye"
                           "</p></body></html>")
    shown = deencapsulate(rtf.replace(b"\\fromhtml1", b"\\fromtext"))
    assert shown.text == "Hi & bye\r\n"


@pytest.mark.parametrize("source", ["", "<", "&", "<!--", "<p", "a\rb", "\x00\x7f\x81"])
def test_edge_round_trips(source):
    assert deencapsulate(encapsulate_html(source)).text == source
    assert deencapsulate(encapsulate_text(source)).text == source


def test_kinds():
    assert is_encapsulated(encapsulate_html("")) == "html"
    assert is_encapsulated(encapsulate_text("")) == "text"


def test_arguments_checked():
    with pytest.raises(TypeError, match="html"):
        encapsulate_html(b"<p>")
    with pytest.raises(TypeError, match="text"):
        encapsulate_text(None)
