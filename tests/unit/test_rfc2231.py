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
        c.add(name, value, offset)
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
        c.add(name, value, k * 100)
    assert c.resolve()[0].value == "€" * 6


def test_encode_other_charset():
    assert encode("f", "café", "iso-8859-15") == ["f*=iso-8859-15''caf%E9"]


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
