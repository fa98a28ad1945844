"""De-encapsulation rules (spec 002 "De-encapsulation"; RT20-RT33), one quirk per test."""

from __future__ import annotations

import doctest

import pytest

from onemail.rtf import (
    Deencapsulation,
    DeencapsulationOptions,
    RtfDefectKind,
    deencapsulate,
    is_encapsulated,
)
from onemail.rtf import encapsulation as encapsulation_module

K = RtfDefectKind
HTML = b"{\\rtf1\\ansi\\ansicpg1252\\fromhtml1 \\deff0{\\fonttbl{\\f0\\fswiss\\fcharset0 Arial;}}"
TEXT = b"{\\rtf1\\ansi\\ansicpg1252\\fromtext \\deff0{\\fonttbl{\\f0\\fswiss\\fcharset0 Arial;}}"


def html(body: bytes, header: bytes = HTML):
    result = deencapsulate(header + body + b"}")
    assert result.kind == "html"
    return result.text, [(d.kind, d.offset - len(header), d.length) for d in result.defects]


def text(body: bytes, header: bytes = TEXT):
    result = deencapsulate(header + body + b"}")
    assert result.kind == "text"
    return result.text, [(d.kind, d.offset - len(header), d.length) for d in result.defects]


def test_doctests():
    assert doctest.testmod(encapsulation_module).failed == 0


# -- detection (MS-OXRTFEX 2.2.3.1; RT20) --------------------------------------------------

@pytest.mark.parametrize("rtf, kind", [
    (b"{\\rtf1\\ansi\\ansicpg1252\\fromhtml1 \\deff0}", "html"),
    (b"{\\rtf1\\ansi\\fbidis\\ansicpg1252\\deff0\\deftab720\\fromtext{\\fonttbl}}", "text"),
    (b"{\\rtf1\\ansi\\fromhtml\\deff0}", None),
    (b"{\\rtf1\\ansi\\fromhtml0\\deff0}", None),
    (b"{\\rtf1\\ansi\\fromtext1}", None),
    (b"{\\rtf1 text\\fromhtml1}", None),  # text token ends the header
    (b"{\\rtf1\\a\\b\\c\\d\\e\\f\\g\\h\\fromhtml1}", None),  # 11th token
    (b"{\\rtf1\\a\\b\\c\\d\\e\\f\\g\\fromhtml1}", "html"),  # 10th token
    (b" {\\rtf1\\fromhtml1}", None),
    (b"{\\rtf\\fromtext}", "text"),
    (b"{\\RTF1\\fromtext}", None),
    (b"", None),
])
def test_is_encapsulated(rtf, kind):
    assert is_encapsulated(rtf) == kind


def test_not_encapsulated_gives_plain_text_walk():
    """RT21: kind None, the text is the walk with \\htmlrtf ignored."""
    result = deencapsulate(b"{\\rtf1\\ansi{\\fonttbl{\\f0 Arial;}}\\f0 a\\htmlrtf b\\par}")
    assert result == Deencapsulation(None, "ab\r\n", ())


# -- HTML rules --------------------------------------------------------------------------

def test_htmltag_content_copied_regardless_of_htmlrtf():
    assert html(b"\\htmlrtf {\\*\\htmltag84 <b>}x\\htmlrtf0 y") == ("<b>y", [])


def test_htmlrtf_around_fallback_text():
    """The Outlook shape: markup in htmltag, RTF-only rendering under \\htmlrtf."""
    body = (b"{\\*\\htmltag84 &nbsp;}\\htmlrtf \\'a0\\htmlrtf0 "
            b"{\\*\\htmltag64 <p>}\\htmlrtf {\\htmlrtf0 Hi\\htmlrtf\\par}\\htmlrtf0 "
            b"{\\*\\htmltag72 </p>}")
    assert html(body) == ("&nbsp;<p>Hi</p>", [])


def test_htmlrtf_state_saved_and_restored_by_groups():
    assert html(b"\\htmlrtf {\\htmlrtf0 a}b\\htmlrtf0 c{\\htmlrtf d}e") == ("ace", [])


def test_htmlrtf_with_nonzero_parameter_suppresses():
    assert html(b"a\\htmlrtf1 b\\htmlrtf0 c") == ("ac", [])


def test_mhtmltag_and_other_ignorable_destinations_skipped():
    body = (b"{\\*\\mhtmltag84 <img src=\"cid:x\">}{\\*\\htmltag84 <img src=\"x\">}"
            b"{\\*\\unknown junk}{\\*\\bkmkstart B}ok")
    assert html(body) == ('<img src="x">ok', [])


def test_htmltag_parameter_ignored_and_optional():
    assert html(b"{\\*\\htmltag <b>}{\\*\\htmltag999 </b>}") == ("<b></b>", [])


def test_destinations_without_body_text_skipped():
    body = (b"{\\colortbl\\red0;}{\\stylesheet{\\s0 Normal;}}{\\info{\\title T}}"
            b"{\\pict\\wmetafile8 0102}{\\header h}{\\footer f}{\\*\\fldinst HYPERLINK}"
            b"{\\pntext 1.}{\\listtext 2.}ok")
    assert html(body) == ("ok", [])


def test_field_result_kept():
    assert text(b"{\\field{\\*\\fldinst HYPERLINK \"x\"}{\\fldrslt link}}") == ("link", [])


def test_par_line_tab():
    assert text(b"a\\par b\\line c\\tab d\\\r\ne") == ("a\r\nb\r\nc\td\r\ne", [])


def test_par_inside_htmltag_is_crlf():
    assert html(b"{\\*\\htmltag241 <!--\\par a\\tab \\{b\\}-->}") == ("<!--\r\na\t{b}-->", [])


def test_other_control_words_ignored():
    assert text(b"\\b bold\\b0 \\page x\\fs24 y") == ("boldxy", [])


def test_text_outside_the_root_group_dropped():
    """RT24: bytes after the root group (padding NULs, a writer's early '}') are not text."""
    result = deencapsulate(TEXT + b"a}\x00\r\n b")
    assert result.text == "a"


def test_early_root_close_keeps_later_htmltags():
    """RT24: Aspose.Email-for-Java--New-Draft closes the root inside \\htmlrtf."""
    rtf = (HTML + b"{\\*\\htmltag84 <b>}x\\htmlrtf }\\htmlrtf0 "
           b"{\\*\\htmltag92 </b>}\\htmlrtf {\\htmlrtf0 y}}")
    result = deencapsulate(rtf)
    assert result.text == "<b>x</b>y"
    assert [d.to_json() for d in result.defects] == [{"kind": "UnbalancedGroupEnd", "offset": len(rtf) - 1, "length": 1}]


def test_text_mode_ignores_htmlrtf_and_htmltag():
    """RT10 of the spec (our RT25)."""
    assert text(b"a\\htmlrtf b\\htmlrtf0 {\\*\\htmltag84 <b>}c") == ("abc", [])


# -- characters ----------------------------------------------------------------------------

def test_character_control_words():
    body = (b"\\lquote\\rquote\\ldblquote\\rdblquote\\bullet\\endash\\emdash\\enspace"
            b"\\emspace\\qmspace\\zwj\\zwnj\\ltrmark\\rtlmark\\~\\{\\}\\\\")
    assert text(body) == (
        "\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u2002\u2003\u2005\u200d\u200c\u200e\u200f"
        "\u00a0{}\\", [])


def test_underscore_inside_and_outside_htmltag():
    """RT5/RT7 of the spec (our RT30): \\_ is U+00AD in \\htmltag, U+2011 elsewhere."""
    assert html(b"{\\*\\htmltag84 a\\_b}c\\_d") == ("a\u00adbc\u2011d", [])


def test_unicode_with_uc2_and_brace_ending_the_skip():
    """\\uc2: two fallback characters (bytes or \\'hh) skipped; '{' ends it (RT31)."""
    assert text(b"{\\uc2\\u8217 ab c\\u8220\\'93\\'94d\\u8221 x{y}}") == ("\u2019 c\u201cd\u201dy", [])


def test_unicode_fallback_ended_by_brace():
    assert text(b"{\\uc2\\u8217 a{b}c}") == ("\u2019bc", [])


def test_uc_scoped_to_group():
    assert text(b"{\\uc2 \\u233 xx}\\u233 xx") == ("\u00e9\u00e9x", [])


def test_uc0_skips_nothing():
    assert text(b"\\uc0\\u233 x") == ("\u00e9x", [])


def test_control_words_do_not_count_as_fallback():
    assert text(b"\\u233\\f0 ?x") == ("\u00e9x", [])


def test_negative_u_is_signed_16_bit():
    assert text(b"\\u-4064 ?") == ("\uf020", [])


def test_surrogate_pair():
    assert text(b"\\u-10179?\\u-8704?") == ("\U0001f600", [])


def test_unpaired_surrogates():
    body = b"\\u-10179?x\\u-8704?\\u-10179?"
    assert text(body) == ("\ufffdx\ufffd\ufffd", [
        (K.LONE_SURROGATE, 0, 8), (K.LONE_SURROGATE, 10, 7), (K.LONE_SURROGATE, 18, 8)])


# -- code pages ----------------------------------------------------------------------------

def test_fcharset128_run_of_hex_pairs_decoded_together():
    """Per-font code page; a double-byte character split over \\'hh\\'hh (and a line break,
    an empty group) comes out whole because the run is decoded together."""
    header = (b"{\\rtf1\\ansi\\ansicpg1252\\fromtext \\deff0{\\fonttbl{\\f0\\fcharset0 Arial;}"
              b"{\\f1\\fcharset128 MS Gothic;}}")
    # 93 fa 96 7b is cp932 for U+65E5 U+672C
    assert text(b"a\\f1\\'93\r\n\\'fa\\'96{}\\'7b\\f0\\'e9", header) == ("a\u65e5\u672c\u00e9", [])


def test_fcharset0_is_1252_whatever_ansicpg():
    header = b"{\\rtf1\\ansi\\ansicpg1251\\fromtext \\deff0{\\fonttbl{\\f0\\fcharset0 A;}{\\f1 B;}}"
    assert text(b"\\'e9\\f1\\'e9", header) == ("\u00e9\u0439", [])


def test_fcharset1_is_the_documents_code_page():
    header = b"{\\rtf1\\ansi\\ansicpg1251\\fromtext \\deff0{\\fonttbl{\\f0\\fcharset1 A;}}"
    assert text(b"\\'e9", header) == ("\u0439", [])


def test_cpg_wins_over_fcharset():
    header = b"{\\rtf1\\ansi\\fromtext \\deff0{\\fonttbl{\\f0\\fcharset0\\cpg1253 A;}}"
    assert text(b"\\'e1", header) == ("\u03b1", [])


@pytest.mark.parametrize("word, expected", [
    (b"\\ansi", "\u00e9"), (b"\\mac", "\u00c8"), (b"\\pc", "\u0398"), (b"\\pca", "\u00da"),
    (b"\\ANSI", "\u00e9"),
])
def test_document_charset_without_ansicpg(word, expected):
    header = b"{\\rtf1" + word + b"\\fromtext \\deff0{\\fonttbl{\\f0 A;}}"
    assert text(b"\\'e9", header) == (expected, [])


def test_htmltag_content_uses_the_documents_code_page():
    header = (b"{\\rtf1\\ansi\\ansicpg1251\\fromhtml1 \\deff0{\\fonttbl{\\f0\\fcharset0 A;}}")
    assert html(b"{\\*\\htmltag84 \\'e9}\\'e9", header) == ("\u0439\u00e9", [])


def test_font_tracked_in_suppressed_text():
    header = (b"{\\rtf1\\ansi\\ansicpg1252\\fromhtml1 \\deff0{\\fonttbl{\\f0\\fcharset0 A;}"
              b"{\\f1\\fcharset204 B;}}")
    assert html(b"\\htmlrtf \\f1 \\htmlrtf0 \\'e9", header) == ("\u0439", [])


def test_plain_resets_to_default_font():
    header = b"{\\rtf1\\ansi\\fromtext \\deff1{\\fonttbl{\\f0\\fcharset0 A;}{\\f1\\fcharset204 B;}}"
    assert text(b"\\f0\\'e9\\plain\\'e9", header) == ("\u00e9\u0439", [])


def test_undefined_font_uses_document_code_page():
    header = b"{\\rtf1\\ansi\\ansicpg1251\\fromtext{\\fonttbl{\\f0\\fcharset0 A;}}"
    assert text(b"\\f9\\'e9", header) == ("\u0439", [])


def test_symbol_charset_read_as_1252():
    """RT23: MSGReader--EmailWith2Attachments (Webdings "P")."""
    header = b"{\\rtf1\\ansi\\ansicpg1251\\fromhtml1 \\deff0{\\fonttbl{\\f0\\fcharset2 Webdings;}}"
    assert html(b"P\\'e9", header) == ("P\u00e9", [])


def test_unknown_code_page_uses_default_and_reports_once():
    """RT29."""
    header = b"{\\rtf1\\ansi\\ansicpg1251\\fromtext{\\fonttbl{\\f0\\cpg4242 A;}}\\f0 "
    assert text(b"\\'e9 x\\par \\'e9", header) == ("\u0439 x\r\n\u0439", [
        (K.AMBIGUOUS_UNKNOWN_CODE_PAGE, 0, 0)])


def test_utf16_code_page_is_unknown_for_bytes():
    """RT28: \\ansicpg1200 (rtf-stream-parser--cpg1200) cannot decode 8-bit text."""
    header = b"{\\rtf1\\ansi\\ansicpg1200\\fromtext{\\fonttbl{\\f0\\fcharset1 A;}}\\f0 "
    assert text(b"a\\'e9", header) == ("a\u00e9", [(K.AMBIGUOUS_UNKNOWN_CODE_PAGE, 0, 0)])


def test_ansicpg65001_is_utf8():
    header = b"{\\rtf1\\ansi\\ansicpg65001\\fromhtml1 {\\fonttbl{\\f0\\fcharset1 A;}}\\f0 "
    assert html(b"\\'c3\\'a9{\\*\\htmltag84 \\'e2\\'82\\'ac}", header) == ("\u00e9\u20ac", [])


def test_c1_holes_of_windows_1252():
    """RT27: 0x81 0x8d 0x8f 0x90 0x9d are the C1 controls, as in Windows and WHATWG."""
    assert text(b"\\'81\\'8d\\'8f\\'90\\'9d\\'80") == ("\x81\x8d\x8f\x90\x9d\u20ac", [])


def test_invalid_bytes_reported_at_their_input_offsets():
    header = b"{\\rtf1\\ansi\\ansicpg932\\fromtext{\\fonttbl{\\f0\\fcharset1 A;}}\\f0 "
    # 0x82 0x20 is an invalid pair in cp932; a lead byte 0x81 ends the run
    assert text(b"a\\'82 b\\'81", header) == ("a\ufffd b\ufffd", [
        (K.INVALID_CODE_PAGE_BYTES, 1, 4), (K.INVALID_CODE_PAGE_BYTES, 7, 4)])


def test_code_page_decoder_option():
    seen = []

    def decoder(code_page, data, errors):
        seen.append((code_page, data))
        return data.decode("latin-1").upper() if code_page == 1252 else None

    result = deencapsulate(TEXT + b"ab\\'e9}",
                           DeencapsulationOptions(code_page_decoder=decoder))
    assert (result.text, result.defects, seen) == ("ABÉ", (), [(1252, b"ab\xe9")])


# -- tokenizer defects pass through; binary data ----------------------------------------

def test_bin_data_skipped():
    assert text(b"a{\\bin3 }{\\}b") == ("ab", [])


def test_ten_thousand_nested_groups():
    result = deencapsulate(TEXT + b"{" * 10_000 + b"x" + b"}" * 10_001)
    assert result.text == ""
    assert [(d.kind, d.offset - len(TEXT), d.length) for d in result.defects] == [
        (K.NESTING_LIMIT_EXCEEDED, 999, 1)]


def test_max_depth_option():
    result = deencapsulate(TEXT + b"{{a}}}", DeencapsulationOptions(max_depth=2))
    assert result.text == ""
    assert [d.kind for d in result.defects] == [K.NESTING_LIMIT_EXCEEDED]


def test_arguments_checked():
    with pytest.raises(TypeError, match="rtf"):
        deencapsulate("{\\rtf1}")
    with pytest.raises(TypeError, match="options"):
        deencapsulate(b"{\\rtf1}", {"max_depth": 3})
    with pytest.raises(TypeError, match="rtf"):
        is_encapsulated(None)


def test_cp950_and_cp936_pairs_cpython_lacks():
    """RT37: read as Big5-HKSCS / GB18030 (as onemail's WHATWG big5 and gbk do)."""
    header = b"{\\rtf1\\ansi\\ansicpg950\\fromtext{\\fonttbl{\\f0\\fcharset136 A;}{\\f1\\fcharset134 B;}}"
    assert text(b"\\f0\\'fa\\'40\\'a3\\'e1\\f1\\'80\\'fe\\'a0", header) == (
        "\U00020547\u20ac\u20ac\ue864", [])


def test_utf16_code_page_unknown_with_a_plugged_decoder():
    """RT28 holds whatever decoder is plugged in."""
    seen = []

    def decoder(code_page, data, errors):
        seen.append(code_page)
        return data.decode("utf-16-le" if code_page == 1200 else "latin-1")

    result = deencapsulate(b"{\\rtf1\\ansi\\ansicpg1200\\fromtext{\\fonttbl{\\f0\\fcharset1 A;}}"
                           b"\\f0 ab}", DeencapsulationOptions(code_page_decoder=decoder))
    assert (result.text, seen) == ("ab", [1252])
    assert [d.kind for d in result.defects] == [K.AMBIGUOUS_UNKNOWN_CODE_PAGE]


def test_options_checked():
    with pytest.raises(TypeError, match="code_page_decoder"):
        DeencapsulationOptions(code_page_decoder="cp1252")
    with pytest.raises(ValueError, match="max_depth"):
        DeencapsulationOptions(max_depth=0)
    with pytest.raises(TypeError, match="max_depth"):
        DeencapsulationOptions(max_depth="5")


@pytest.mark.parametrize(
    ("word", "defect_offset", "defect_length"),
    [(rb"\u70000?", 22, 7), (rb"\u-99999999999?", 24, 12)],
)
def test_unicode_value_outside_16_bits_is_fffd_not_nul(word, defect_offset, defect_length):
    """RT46: the low 16 bits of -2**31 gave U+0000 (tester's finding)."""
    from onemail.rtf import RtfDefect, RtfDefectKind, deencapsulate

    r = deencapsulate(rb"{\rtf1\ansi\fromtext a" + word + b"b}")
    assert r.text == "a\ufffdb"
    assert r.defects == (RtfDefect(RtfDefectKind.PARAMETER_OVERFLOW, defect_offset, defect_length),)


@pytest.mark.parametrize(("code_page", "data", "text"), [
    (28591, b"\x80\xe9", "\x80\u00e9"),  # ISO-8859-1's own bytes (mail reads it as windows-1252)
    (20127, b"abc", "abc"),
    (28599, b"\xfd", "\u0131"),  # ISO-8859-9's dotless i
    (10006, b"\xa1", "\u0393"),  # Mac Greek, a page outside ForCodePage's list
    (20932, b"\xb0\xa1", "\u4e9c"),  # EUC-JP
    (50220, b"\x1b$B0!\x1b(B", "\u4e9c"),
    (50225, b"\x1b$)C\x0e0!\x0f", "\uac00"),  # ISO-2022-KR
    (1026, b"\xc1", "A"),  # an EBCDIC page of no decoder: cpNNN
])
def test_the_standalone_decoder_s_code_pages(code_page, data, text):
    """The codec of each code page comes from the charset facts (scripts/data/charsets.toml, via
    the generated rtf/_tables/code_pages.py); other pages are CPython's cpNNN."""
    errors: list = []
    assert (encapsulation_module.cpython_code_page_decoder(code_page, data, errors), errors) == (text, [])


@pytest.mark.parametrize("code_page", [1200, 1201, 12000, 12001, 50222, 38598, 42])
def test_code_pages_the_standalone_decoder_cannot_read(code_page):
    """UTF-16/32 (RT28), and pages CPython has no codec for: None (then AmbiguousUnknownCodePage)."""
    assert encapsulation_module.cpython_code_page_decoder(code_page, b"a", []) is None


def test_the_facts_give_every_code_page_of_the_text_layer_a_reading():
    """The generated table and the text layer read one table of facts: every code page
    ``onemail.text.for_code_page`` knows has a CPython codec here, or is UTF-16/32, or is one of
    the two CPython has no codec for."""
    from onemail.rtf._tables.code_pages import CODEC_NAMES, NOT_BYTE_CODE_PAGES
    from onemail.text.charsets import known_code_pages

    assert set(known_code_pages()) - set(CODEC_NAMES) - NOT_BYTE_CODE_PAGES == {50222, 38598}
    assert NOT_BYTE_CODE_PAGES == {1200, 1201, 12000, 12001}
