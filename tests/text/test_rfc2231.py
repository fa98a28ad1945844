"""RFC 2231 parameters: one test per rule of spec 000 "Parameters (RFC 2231)".

Each test checks the value, charset, language, method and every issue (kind, offset, length).
"""

from __future__ import annotations

import pytest

from onemail.text import IssueKind
from onemail.text.rfc2231 import DecodedParameter, ParameterCollector, encode, parse_header_params

K = IssueKind


def resolve(*params, **kw):
    c = ParameterCollector(**kw)
    for name, value, offset in params:
        c.add(name, value, offset=offset)
    return [(p.name, p.value, p.charset, p.language, p.method,
             [(i.kind, i.offset, i.length) for i in p.issues]) for p in c.resolve()]


def test_extended_value_charset_language_percent():
    assert resolve(("title*", "iso-8859-1'en'caf%E9", 100)) == [
        ("title", "café", "windows-1252", "en", "extended", [])]


def test_continuations_ordered_by_number_and_joined_as_bytes():
    # "€" (E2 82 AC) split between sections given out of order
    assert resolve(("n*1*", "%82%AC", 40), ("n*0*", "utf-8''%E2", 10), ("n*2", "!", 60)) == [
        ("n", "€!", "utf-8", None, "continuation", [])]


def test_continuation_order_is_stable_for_duplicate_numbers():
    assert resolve(("n*0", "a", 0), ("n*1", "b", 5), ("n*1", "c", 9)) == [
        ("n", "abc", None, None, "continuation", [])]


def test_charset_only_in_section_zero():
    # a charset-looking prefix in section 1 is literal text
    assert resolve(("n*0*", "utf-8''a", 0), ("n*1*", "utf-8''b", 20)) == [
        ("n", "autf-8''b", "utf-8", None, "continuation", [])]


def test_star_sections_percent_decoded_plain_sections_literal():
    assert resolve(("n*0*", "utf-8''%41", 0), ("n*1", "%41", 20)) == [
        ("n", "A%41", "utf-8", None, "continuation", [])]


def test_missing_quotes_malformed_then_utf8():
    assert resolve(("n*", "caf%C3%A9", 7)) == [
        ("n", "café", "utf-8", None, "extended", [(K.MALFORMED_EXTENDED_VALUE, 7, 9)])]


def test_missing_quotes_malformed_then_fallback():
    assert resolve(("n*", "caf%E9", 7)) == [
        ("n", "café", "windows-1252", None, "extended",
         [(K.MALFORMED_EXTENDED_VALUE, 7, 6), (K.AMBIGUOUS_RAW_8BIT, 10, 3)])]


def test_empty_charset_utf8_else_fallback_without_malformed():
    assert resolve(("a*", "''%C3%A9", 0), ("b*", "'de'%E9", 20)) == [
        ("a", "é", "utf-8", None, "extended", []),
        ("b", "é", "windows-1252", "de", "extended", [(K.AMBIGUOUS_RAW_8BIT, 24, 3)])]


def test_unknown_charset_rule_in_extended_value():
    assert resolve(("n*", "x-foo''%E9", 0)) == [
        ("n", "é", "windows-1252", None, "extended", [(K.AMBIGUOUS_UNKNOWN_CHARSET, 7, 3)])]


def test_bad_percent_escape_kept_literally():
    assert resolve(("n*", "utf-8''100%_%4", 0)) == [
        ("n", "100%_%4", "utf-8", None, "extended",
         [(K.INVALID_PERCENT_ESCAPE, 10, 1), (K.INVALID_PERCENT_ESCAPE, 12, 1)])]


def test_charset_decode_issue_covers_the_escape():
    assert resolve(("n*", "utf-8''a%FFb", 50)) == [
        ("n", "a\ufffdb", "utf-8", None, "extended", [(K.INVALID_UTF8, 58, 3)])]


def test_plain_value_utf8():
    assert resolve(("name", "Grüße.txt".encode(), 3)) == [
        ("name", "Grüße.txt", "utf-8", None, "plain", [])]


def test_plain_value_fallback():
    assert resolve(("name", b"caf\xe9", 3)) == [
        ("name", "café", "windows-1252", None, "plain", [(K.AMBIGUOUS_RAW_8BIT, 6, 1)])]


def test_plain_ascii_value_has_no_charset():
    assert resolve(("charset", "us-ascii", 0)) == [("charset", "us-ascii", None, None, "plain", [])]


def test_encoded_word_in_plain_value_decoded():
    assert resolve(("filename", "=?utf-8?q?caf=C3=A9?=.txt", 10)) == [
        ("filename", "café.txt", None, None, "encoded-word",
         [(K.AMBIGUOUS_ENCODED_WORD_IN_QUOTED_STRING, 10, 25)])]


def test_plain_value_with_malformed_word_is_plain():
    assert resolve(("x", "=?utf-8?z?a?=", 0)) == [
        ("x", "=?utf-8?z?a?=", None, None, "plain", [(K.MALFORMED_ENCODED_WORD, 0, 10)])]


def test_names_case_insensitive_first_spelling_kept():
    assert resolve(("Name", "a", 0), ("NAME", "b", 5)) == [("Name", "a", None, None, "plain", [])]


def test_extended_value_wins_over_plain():
    assert resolve(("filename", "fallback.txt", 0), ("FileName*", "utf-8''%C3%A9", 30)) == [
        ("filename", "é", "utf-8", None, "extended", [])]


def test_fallback_argument():
    assert resolve(("n", b"\xe0", 0), fallback="koi8-r") == [
        ("n", "Ю", "koi8-r", None, "plain", [(K.AMBIGUOUS_RAW_8BIT, 0, 1)])]


def test_decoded_parameter_is_frozen_and_slotted():
    p = DecodedParameter("n", "v", None, None, "plain", ())
    with pytest.raises(AttributeError):
        p.value = "x"
    assert not hasattr(p, "__dict__")


def test_add_wrong_types_raise():
    c = ParameterCollector()
    with pytest.raises(TypeError, match="name"):
        c.add(b"n", "v")
    with pytest.raises(TypeError, match="value"):
        c.add("n", 5)


# --- encode ---------------------------------------------------------------------------------------

def test_encode_token():
    assert encode("charset", "utf-8") == ["charset=utf-8"]


def test_encode_quoted_string_for_other_ascii():
    assert encode("filename", 'a "b"\\c.txt') == ['filename="a \\"b\\"\\\\c.txt"']
    assert encode("x", "") == ['x=""']


def test_encode_extended_value():
    assert encode("filename", "café.txt") == ["filename*=utf-8''caf%C3%A9.txt"]


def test_encode_sections_whole_characters_charset_first_only():
    parts = encode("f", "€" * 6, part_length=20)
    assert parts == ["f*0*=utf-8''%E2%82%AC%E2%82%AC", "f*1*=%E2%82%AC%E2%82%AC",
                     "f*2*=%E2%82%AC%E2%82%AC"]
    c = ParameterCollector()
    for k, part in enumerate(parts):
        name, _, value = part.partition("=")
        c.add(name, value, offset=k * 100)
    assert c.resolve()[0].value == "€" * 6


def test_encode_other_charset():
    assert encode("f", "café", charset="iso-8859-15") == ["f*=iso-8859-15''caf%E9"]


def test_encode_arguments():
    with pytest.raises(ValueError, match="part_length"):
        encode("f", "é", part_length=0)
    with pytest.raises(TypeError, match="value"):
        encode("f", b"x")


# --- parse_header_params --------------------------------------------------------------------------

def params(value):
    main, ps = parse_header_params(value)
    return main, [(p.name, p.value, [(i.kind, i.offset, i.length) for i in p.issues]) for p in ps]


def test_parse_quoted_strings_and_comments():
    assert params('text/plain (x) ; charset = "us-ascii" (c); format=flowed (d) (e)') == (
        "text/plain", [("charset", "us-ascii", []), ("format", "flowed", [])])
    assert params("a/b; name=file (1).txt") == ("a/b", [("name", "file (1).txt", [])])


def test_parse_missing_semicolons_and_unquoted_spaces():
    assert params("text/plain charset=utf-8 name=my file.txt") == (
        "text/plain", [("charset", "utf-8", []), ("name", "my file.txt", [])])


def test_parse_unterminated_quote_and_stray_quote():
    assert params('attachment; filename="a.txt"x; b="open') == (
        "attachment", [("filename", "a.txt", []), ("b", "open", [])])


def test_parse_rfc2231_offsets_are_bytes_into_the_value():
    v = "attachment; filename*=utf-8''a%FF"
    assert params(v) == ("attachment", [("filename", "a\ufffd", [(K.INVALID_UTF8, 30, 3)])])
    assert v[30:33] == "%FF"


def test_parse_backslash_escapes_only_quote_and_backslash():
    assert params('a/b; f="C:\\TEMP\\x.png"; g="C:\\\\x \\"y\\""') == (
        "a/b", [("f", "C:\\TEMP\\x.png", []), ("g", 'C:\\x "y"', [])])


def test_parse_stray_semicolons_and_junk():
    assert params("a/b;; junk ; =v; x=1;") == ("a/b", [("x", "1", [])])


def test_parse_bytes_with_8bit_value():
    assert params(b'attachment; filename="caf\xe9.txt"') == (
        "attachment", [("filename", "café.txt", [(K.AMBIGUOUS_RAW_8BIT, 25, 1)])])


def test_iso_2022_jp_extended_value():
    assert resolve(("name*", "iso-2022-jp''%1B%24BF%7CK%5C%1B%28B.txt", 0)) == [
        ("name", "日本.txt", "iso-2022-jp", None, "extended", [])]


def test_euc_kr_character_split_between_sections():
    # 한 is C7 D1 in EUC-KR: its two bytes are in two sections
    assert resolve(("n*0*", "euc-kr''%C7", 0), ("n*1*", "%D1", 20)) == [
        ("n", "한", "euc-kr", None, "continuation", [])]


def test_issue_across_sections_written_out_of_order_covers_both():
    # the truncated UTF-8 sequence E2 82: E2 in section 0 (its "%E2" at 57), 82 in section 1
    # (its "%82" at 10): one issue from 10 to 60
    assert resolve(("n*1*", "%82!", 10), ("n*0*", "utf-8''%E2", 50)) == [
        ("n", "\ufffd!", "utf-8", None, "continuation", [(K.INVALID_UTF8, 10, 50)])]


# --- parameter syntax (issue 13 item 3; T85, T86, T87) -------------------------------------------

def params_and_list(value, **kw):
    found: list = []
    main, ps = parse_header_params(value, issues=found, **kw)
    return (main, [(p.name, p.value, [(i.kind, i.offset, i.length) for i in p.issues]) for p in ps],
            [(i.kind, i.offset, i.length) for i in found])


def test_parse_folded_quoted_value_is_unfolded():
    """RFC 2046 5.1.1 / RFC 5322 2.2.3: the CR LF goes, the white space after it stays (T85)."""
    assert params_and_list('multipart/mixed; boundary="foo\r\n bar"') == (
        "multipart/mixed", [("boundary", "foo bar", [])], [])


def test_parse_folded_unquoted_value_keeps_the_white_space():
    assert params_and_list("attachment; filename=Partnership Agreement\r\n\tForm 11.pdf") == (
        "attachment", [("filename", "Partnership Agreement\tForm 11.pdf", [])], [])


def test_parse_offsets_through_a_fold_and_escapes():
    v = "attachment;\r\n filename*=utf-8''a%FF"
    assert params_and_list(v)[1] == [("filename", "a\ufffd", [(K.INVALID_UTF8, 32, 3)])]
    assert v[32:35] == "%FF"
    # the \xff is at byte 11 of the value: the backslash of the quoted pair counts
    assert params_and_list(b'a/b; n="\\"x\xff"')[1] == [("n", '"x\xff', [(K.AMBIGUOUS_RAW_8BIT, 11, 1)])]


def test_parse_comments_around_values():
    assert params_and_list("a/b; name=one(comment)")[1] == [("name", "one", [])]
    assert params_and_list("text/plain (plain text); charset=utf-8") == (
        "text/plain", [("charset", "utf-8", [])], [])
    assert params_and_list("(comment) base64") == ("base64", [], [])
    assert params_and_list("a/b; charset=(c)utf-8(d) ; x=(a(b)c)1") == (
        "a/b", [("charset", "utf-8", []), ("x", "1", [])], [])


def test_parse_unterminated_comment_after_a_quoted_value():
    assert params_and_list('multipart/mixed; boundary="AAA" (unterminated') == (
        "multipart/mixed", [("boundary", "AAA", [])], [(K.MALFORMED_PARAMETER, 32, 13)])


def test_parse_quoted_main_value():
    assert params_and_list('"attachment"; filename=a.txt') == ("attachment", [("filename", "a.txt", [])], [])


def test_parse_missing_semicolon_before_a_folded_parameter():
    assert params_and_list("text/plain\r\n charset=utf-8") == ("text/plain", [("charset", "utf-8", [])], [])


def test_parse_nameless_parameter_dropped():
    """T86: ``*=test`` has no name: dropped, its span reported."""
    assert params_and_list("attachment; *=test; filename=a") == (
        "attachment", [("filename", "a", [])], [(K.MALFORMED_PARAMETER, 12, 6)])


def test_parse_no_main_value_keeps_the_parameter():
    assert params_and_list('name="x.pdf"') == ("", [("name", "x.pdf", [])], [])
    assert params_and_list("; name=x.pdf") == ("", [("name", "x.pdf", [])], [])


def test_parse_junk_and_stray_text_reported():
    assert params_and_list("a/b;; junk ; =v; x=1;") == (
        "a/b", [("x", "1", [])], [(K.MALFORMED_PARAMETER, 6, 4), (K.MALFORMED_PARAMETER, 13, 2)])
    assert params_and_list('attachment; filename="a.txt"x; b="open')[2] == [(K.MALFORMED_PARAMETER, 28, 1)]


def test_parse_encoded_word_in_continuation_sections():
    """T87: literal sections joined, then read like a plain quoted value (T55)."""
    assert params_and_list('attachment; filename*0="=?UTF-8?Q?a=C3=A9?="')[1] == [
        ("filename", "aé", [(K.AMBIGUOUS_ENCODED_WORD_IN_QUOTED_STRING, 24, 19)])]
    # a word cut between two sections: joined first
    assert params_and_list('attachment; filename*0="=?UTF-8?Q?a"; filename*1="=C3=A9?="')[1] == [
        ("filename", "aé", [(K.AMBIGUOUS_ENCODED_WORD_IN_QUOTED_STRING, 24, 34)])]
    # an extended section is percent-encoding, not RFC 2047
    assert params_and_list("a/b; n*0*=utf-8''%3D%3Fx; n*1=%3F=")[1] == [("n", "=?x%3F=", [])]


def test_parse_offset_argument():
    assert params_and_list("attachment; filename*=utf-8''a%FF; *=x", offset=100) == (
        "attachment", [("filename", "a\ufffd", [(K.INVALID_UTF8, 130, 3)])],
        [(K.MALFORMED_PARAMETER, 135, 3)])


def test_parse_arguments():
    with pytest.raises(TypeError, match="value"):
        parse_header_params(12)
    with pytest.raises(TypeError, match="offset"):
        parse_header_params("a/b", offset="1")
    with pytest.raises(TypeError, match="issues"):
        parse_header_params("a/b", issues=())


# --- raw ISO-2022-JP, US-ASCII labels (T84, T81) --------------------------------------------------

def test_parse_raw_iso_2022_jp_in_a_plain_value():
    v = b'attachment; filename="\x1b$BF|K\\\x1b(B.txt"'
    main, ps = parse_header_params(v)
    assert [(p.value, p.charset, [(i.kind, i.offset, i.length) for i in p.issues]) for p in ps] == [
        ("日本.txt", "iso-2022-jp", [(K.AMBIGUOUS_RAW_ISO2022, 22, 10)])]


def test_us_ascii_extended_value_with_utf8_bytes():
    """T81: as a US-ASCII body that is valid UTF-8 (M6); otherwise windows-1252 (T67)."""
    assert resolve(("f*", "us-ascii''caf%C3%A9", 22)) == [
        ("f", "café", "utf-8", None, "extended", [(K.AMBIGUOUS_ASCII_LABELLED_UTF8, 35, 6)])]
    assert resolve(("f*", "ANSI_X3.4-1968''caf%E9", 0)) == [("f", "café", "windows-1252", None, "extended", [])]


# --- limits (issue 16: T88) -----------------------------------------------------------------------

def test_section_number_of_4301_digits():
    """CPython refuses int() of more than 4,300 digits: such a section number never reaches it."""
    assert params("attachment; filename*" + "1" * 4301 + "=a") == ("attachment", [("filename", "a", [])])
    # more than 18 significant digits sort after every other section, in source order
    assert params("a/b; n*1=b; n*" + "9" * 30 + "=c; n*0=a; n*" + "0" * 40 + "5=d") == (
        "a/b", [("n", "abdc", [])])


def test_long_white_space_before_a_parenthesis_is_linear_and_kept():
    """Issue 16: the trailing-comment strip was quadratic; this is no comment (no '(')."""
    assert params("attachment; filename=a" + " " * 80000 + "b)") == (
        "attachment", [("filename", "a" + " " * 80000 + "b)", [])])


# --- encode round trips (issue 16: T89) -----------------------------------------------------------

def test_encode_value_that_looks_like_an_encoded_word():
    assert encode("filename", "=?utf-8?q?x?=") == ["filename*=utf-8''%3D%3Futf-8%3Fq%3Fx%3F%3D"]
    assert params("a/b; " + encode("filename", "=?utf-8?q?x?=")[0]) == ("a/b", [("filename", "=?utf-8?q?x?=", [])])


def test_encode_utf7_as_one_piece():
    """The old character-by-character encoding left "+AOk" open so that "a" joined the run."""
    assert encode("n", "éa", charset="utf-7") == ["n*=utf-7''+AOk-a"]
    parts = encode("n", "éa" * 3, charset="utf-7", part_length=8)
    assert parts == ["n*0*=utf-7''+AOk-a", "n*1*=+AOk-a", "n*2*=+AOk-a"]
    assert params("a/b; " + "; ".join(parts)) == ("a/b", [("n", "éa" * 3, [])])


def test_encode_iso_2022_jp_parts_each_closed():
    parts = encode("n", "日本語", charset="iso-2022-jp", part_length=14)
    assert parts == ["n*0*=iso-2022-jp''%1B$BF|%1B%28B", "n*1*=%1B$BK%5C%1B%28B", "n*2*=%1B$B8l%1B%28B"]
    assert params("a/b; " + "; ".join(parts)) == ("a/b", [("n", "日本語", [])])
