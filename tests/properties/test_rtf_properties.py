"""Properties of the RTF tokenizer, de-encapsulation and encapsulation (hypothesis).

- ``deencapsulate(encapsulate_html(h)).text == h`` and the same for text, for every str
  without lone surrogates (RT40), including astral characters, CR/LF mixes, braces,
  backslashes and markup-like text.
- The tokenizer and de-encapsulation never raise on any bytes; defects lie inside the input;
  token offsets are increasing and tokens cover the input except skipped line breaks and
  dropped damage.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from onemail.rtf import (
    RtfReader,
    deencapsulate,
    encapsulate_html,
    encapsulate_text,
    is_encapsulated,
)

# Characters that exercise every escape: RTF syntax, line breaks, C0 controls, windows-1252
# holes and non-ASCII, CJK, astral characters, HTML syntax.
_SPECIAL = "\\{}\r\n\t\x00\x1f\x7f\x81\x80\u20ac\u00e9\u00ff\u0100\u65e5\ufffd\uffff" \
           "\U0001f600\U0010ffff<>&;#!-/ ?'\"=abp"
texts = st.text(alphabet=st.one_of(st.sampled_from(_SPECIAL), st.characters(
    blacklist_categories=("Cs",))), max_size=60)

_TAGS = st.sampled_from([
    "<p>", "</p>", "<br>", "<html>", "</html>", "<head>", "</head>", "<body>", "</body>",
    "<style>", "</style>", "<!-- c -->", "<!--", "<!DOCTYPE html>", "<?xml x?>", "&amp;",
    "&nbsp;", "&#128512;", "&bogus", "<b class='x{y}'>", "</b>", "<", ">", "<title>",
    "</title>", "<div\r\nid=a>", "\r\n", "\\par", "{\\*\\htmltag1 x}",
])
htmls = st.lists(st.one_of(_TAGS, texts), max_size=12).map("".join)


@settings(max_examples=300, deadline=None)
@given(htmls)
def test_html_round_trip(html):
    rtf = encapsulate_html(html)
    assert is_encapsulated(rtf) == "html"
    result = deencapsulate(rtf)
    assert result.text == html
    assert result.defects == ()


@settings(max_examples=300, deadline=None)
@given(texts)
def test_text_round_trip(text):
    rtf = encapsulate_text(text)
    assert is_encapsulated(rtf) == "text"
    result = deencapsulate(rtf)
    assert result.text == text
    assert result.defects == ()


@settings(max_examples=200, deadline=None)
@given(texts)
def test_encapsulated_text_is_ascii_rtf(text):
    rtf = encapsulate_text(text)
    assert rtf.isascii()
    reader = RtfReader(rtf)
    reader.read_all()
    assert reader.defects == []


def test_lone_surrogate_comes_back_as_replacement():
    result = deencapsulate(encapsulate_text("a\ud800b"))
    assert result.text == "a\ufffdb"
    assert [d.kind.value for d in result.defects] == ["LoneSurrogate"]


_RTF_BITS = st.sampled_from([
    b"{", b"}", b"\\", b"\\'", b"\\'e9", b"\\'9", b"\\u-10179", b"\\u8217 ", b"\\uc2 ",
    b"\\bin3 ", b"\\bin99999999999 ", b"\\par", b"\\htmlrtf", b"\\htmlrtf0 ", b"\\*",
    b"\\htmltag84 ", b"\\fonttbl", b"\\f1", b"\\fcharset128 ", b"\\cpg950 ", b"\\ansicpg932",
    b"\\_", b"\\~", b"\r\n", b"\\\n", b"a", b"\x82", b"?", b" ",
])
rtf_bytes = st.one_of(
    st.binary(max_size=200),
    st.lists(_RTF_BITS, max_size=60).map(lambda parts: b"{\\rtf1\\fromhtml1 " + b"".join(parts)),
    st.lists(_RTF_BITS, max_size=60).map(lambda parts: b"{\\rtf1\\fromtext " + b"".join(parts)),
)


@settings(max_examples=400, deadline=None)
@given(rtf_bytes)
def test_reader_never_raises_and_geometry_holds(data):
    reader = RtfReader(data)
    tokens = reader.read_all()
    last = 0
    for token in tokens:
        assert token.offset >= last
        assert token.length >= 1
        last = token.offset + token.length
        assert last <= len(data)
    for defect in reader.defects:
        assert 0 <= defect.offset <= len(data)
        assert defect.offset + defect.length <= len(data)


@settings(max_examples=400, deadline=None)
@given(rtf_bytes)
def test_deencapsulate_never_raises_and_defects_inside(data):
    result = deencapsulate(data)
    assert isinstance(result.text, str)
    for defect in result.defects:
        assert 0 <= defect.offset <= len(data)
        assert defect.offset + defect.length <= len(data)
