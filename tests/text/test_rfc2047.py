"""RFC 2047 encoded words: one test per decode and encode rule of spec 000 "Encoded words".

Each test checks the text and every issue (kind, offset, length).
"""

from __future__ import annotations

import pytest

from onemail.text import IssueKind, TextIssue
from onemail.text.rfc2047 import decode_text, encode

K = IssueKind


def dec(value, **kw):
    issues: list[TextIssue] = []
    text = decode_text(value, issues=issues, **kw)
    return text, [(i.kind, i.offset, i.length) for i in issues]


# --- unfolding ------------------------------------------------------------------------------

def test_fold_crlf_removed_white_space_kept():
    assert dec(b"Hello\r\n world") == ("Hello world", [])


def test_fold_bare_lf_and_bare_cr_removed():
    assert dec(b"a\n\tb\r c") == ("a\tb c", [])


def test_line_end_without_white_space_is_not_a_fold_and_stays():
    assert dec(b"a\r\nb") == ("a\r\nb", [])


def test_fold_between_words_then_offsets_map_back_to_input():
    # the fold (2 bytes at 17) is removed; the bad '=' at byte 30 of the input is reported there
    v = b"=?utf-8?q?a?=\r\n =?utf-8?q?b=?="
    assert dec(v) == ("ab=", [(K.INVALID_QUOTED_PRINTABLE, 27, 1)])
    assert v[27:28] == b"="


# --- white space between words -----------------------------------------------------------------

def test_white_space_between_adjacent_words_dropped():
    assert dec("=?utf-8?q?a?= \t =?iso-8859-1?q?b?=") == ("ab", [])


def test_white_space_between_word_and_text_kept():
    assert dec("x  =?utf-8?q?a?=  y") == ("x  a  y", [])


def test_words_without_white_space_between_are_adjacent():
    assert dec("=?utf-8?q?a?==?utf-8?q?b?=") == ("ab", [])


# --- joined as bytes ------------------------------------------------------------------------------

def test_adjacent_words_same_charset_joined_as_bytes():
    # "é" (C3 A9) split across a Q word and a B word (qQ== is A9)
    assert dec("=?UTF-8?Q?caf=C3?= =?utf-8?B?qQ==?=") == ("café", [])


def test_split_character_in_different_charsets_is_not_joined():
    text, issues = dec("=?utf-8?q?=C3?= =?windows-1252?q?=A9?=")
    assert text == "\ufffd©"
    assert issues == [(K.INVALID_UTF8, 10, 3)]


def test_charset_issue_offsets_cover_the_encoded_characters():
    # the invalid byte FF comes from the group "/w==": its base64 characters are at 14-15
    assert dec("=?utf-8?b?YWJj/w==?=") == ("abc\ufffd", [(K.INVALID_UTF8, 14, 2)])


# --- charset*language -----------------------------------------------------------------------------

def test_charset_language_accepted_language_ignored():
    assert dec("=?ISO-8859-1*fr?Q?caf=E9?=") == ("café", [])


# --- B --------------------------------------------------------------------------------------------

def test_b_characters_outside_alphabet_skipped():
    assert dec("=?utf-8?b?Y!W.J-j?=") == ("abc", [])


def test_b_data_after_padding_skipped():
    assert dec("=?utf-8?b?YQ==YWJj?=") == ("a", [])


def test_b_missing_padding_invalid_keeps_bytes():
    # the incomplete last group "YQ" starts at 10 and runs to the end of the text
    assert dec("=?utf-8?b?YQ?=") == ("a", [(K.INVALID_BASE64, 10, 2)])


def test_b_wrong_padding_invalid():
    assert dec("=?utf-8?b?YWI==?=") == ("ab", [(K.INVALID_BASE64, 10, 5)])


def test_b_padding_on_complete_group_invalid():
    assert dec("=?utf-8?b?YWJj=?=") == ("abc", [(K.INVALID_BASE64, 14, 1)])


def test_b_one_character_tail_invalid_and_dropped():
    assert dec("=?utf-8?b?YWJjZ?=") == ("abc", [(K.INVALID_BASE64, 14, 1)])


# --- Q --------------------------------------------------------------------------------------------

def test_q_underscore_is_space_and_hex_escape_is_byte():
    assert dec("=?iso-8859-1?q?a_b=E9=e9?=") == ("a béé", [])


def test_q_bad_equals_stays_literal():
    assert dec("=?utf-8?q?a=ZZb=4?=") == (
        "a=ZZb=4", [(K.INVALID_QUOTED_PRINTABLE, 11, 1), (K.INVALID_QUOTED_PRINTABLE, 15, 1)])


# --- word syntax ----------------------------------------------------------------------------------

def test_word_ends_at_first_question_equals():
    assert dec("=?utf-8?q?a?=b?=") == ("ab?=", [])


def test_space_inside_text_accepted_and_reported():
    assert dec("=?utf-8?q?a b?= x") == ("a b x", [(K.MALFORMED_ENCODED_WORD, 0, 15)])


def test_tab_inside_b_text_accepted_and_reported():
    assert dec("=?utf-8?b?YW\tJj?=") == ("abc", [(K.MALFORMED_ENCODED_WORD, 0, 17)])


def test_line_break_inside_text_not_a_word_resume_two_bytes_later():
    text, issues = dec(b"=?utf-8?q?a\r\nb?= =?utf-8?q?c?=")
    assert text == "=?utf-8?q?a\r\nb?= c"
    assert issues == [(K.MALFORMED_ENCODED_WORD, 0, 16)]


def test_bad_encoding_letter_not_a_word():
    assert dec("=?utf-8?x?abc?=") == ("=?utf-8?x?abc?=", [(K.MALFORMED_ENCODED_WORD, 0, 10)])


def test_encoding_letters_are_case_insensitive():
    assert dec("=?utf-8?Q?a?= =?utf-8?b?Yg==?=") == ("ab", [])


def test_missing_close_not_a_word():
    assert dec("=?utf-8?q?abc") == ("=?utf-8?q?abc", [(K.MALFORMED_ENCODED_WORD, 0, 10)])


def test_resume_two_bytes_later_finds_inner_word():
    # the outer "=?utf-8?x?" is malformed; scanning resumes at byte 2 and finds nothing until 10
    text, issues = dec("=?utf-8?x?=?utf-8?q?b?=")
    assert text == "=?utf-8?x?b"
    assert issues == [(K.MALFORMED_ENCODED_WORD, 0, 10)]


def test_empty_charset_is_plain_text_no_issue():
    assert dec("=??q?a?=") == ("=??q?a?=", [])


def test_charset_with_space_is_plain_text_no_issue():
    assert dec("=?utf 8?q?a?=") == ("=?utf 8?q?a?=", [])


def test_missing_question_mark_structure_is_plain_text_no_issue():
    assert dec("what =?utf-8 is") == ("what =?utf-8 is", [])
    assert dec("=?utf-8?q") == ("=?utf-8?q", [])


def test_word_longer_than_75_decoded_and_reported():
    v = "=?utf-8?q?" + "a" * 64 + "?="
    assert len(v) == 76
    assert dec(v) == ("a" * 64, [(K.ENCODED_WORD_TOO_LONG, 0, 76)])
    assert dec(v[:-3] + "?=") == ("a" * 63, [])


def test_empty_encoded_text():
    assert dec("x =?utf-8?q??= y") == ("x  y", [])


# --- charsets -------------------------------------------------------------------------------------

def test_unknown_charset_rule():
    assert dec("=?x-unknown?q?caf=E9?=") == ("café", [(K.AMBIGUOUS_UNKNOWN_CHARSET, 14, 6)])
    assert dec("=?x-unknown?q?caf=C3=A9?=") == ("café", [(K.AMBIGUOUS_UNKNOWN_CHARSET, 14, 9)])


def test_latin1_label_decodes_as_windows_1252():
    assert dec("=?iso-8859-1?q?=80?=") == ("€", [])


def test_utf16_word():
    assert dec("=?utf-16le?b?YQBiAA==?=") == ("ab", [])


# --- plain 8-bit text -----------------------------------------------------------------------------

def test_plain_utf8_text_no_issue():
    assert dec("Grüße".encode()) == ("Grüße", [])


def test_plain_8bit_not_utf8_uses_fallback():
    assert dec(b"caf\xe9 =?utf-8?q?x?= na\xefve") == (
        "café x naïve", [(K.AMBIGUOUS_RAW_8BIT, 3, 1), (K.AMBIGUOUS_RAW_8BIT, 21, 1)])


def test_plain_8bit_fallback_argument():
    assert dec(b"\xe0\xa4 x", fallback="koi8-r") == ("Ю╓ x", [(K.AMBIGUOUS_RAW_8BIT, 0, 2)])


# --- arguments, str input, offset -----------------------------------------------------------------

def test_offset_added_to_every_issue():
    assert dec("=?utf-8?q?=?=", offset=100) == ("=", [(K.INVALID_QUOTED_PRINTABLE, 110, 1)])


def test_str_offsets_count_utf8_bytes():
    # "é" is two bytes, so the bad '=' is at byte 13, not character 12
    assert dec("é =?utf-8?q?=?=") == ("é =", [(K.INVALID_QUOTED_PRINTABLE, 13, 1)])


def test_str_with_surrogateescape_behaves_as_bytes():
    raw = b"caf\xe9"
    assert dec(raw.decode("utf-8", "surrogateescape")) == dec(raw)


def test_no_issue_list_makes_no_issues():
    assert decode_text("=?utf-8?q?=?=", issues=None) == "="


def test_wrong_types_raise():
    with pytest.raises(TypeError, match="value"):
        decode_text(5)
    with pytest.raises(ValueError, match="fallback"):
        decode_text("x", fallback="no-such-charset")


# --- encode ---------------------------------------------------------------------------------------

def test_encode_printable_ascii_unchanged():
    assert encode("Hello, world (x) ?=") == "Hello, world (x) ?="


def test_encode_ascii_with_open_sequence_encoded():
    assert encode("a =?b c") == "a =?utf-8?B?PT9i?= c"


def test_encode_groups_tokens_with_white_space_between():
    assert encode("x é  ü y") == "x =?utf-8?B?w6kgIMO8?= y"


def test_encode_q_when_shorter_and_q_alphabet():
    assert encode("Kindergärtnerinnen (a.b)") == "=?utf-8?Q?Kinderg=C3=A4rtnerinnen?= (a.b)"
    assert encode("Kindergärtnerinnenschule!*+-/_=?") == (
        "=?utf-8?Q?Kinderg=C3=A4rtnerinnenschule!*+-/=5F=3D=3F?=")
    assert encode("a_b=c?é") == "=?utf-8?B?YV9iPWM/w6k=?="


def test_encode_words_at_most_75_never_cutting_a_character():
    text = "ü" * 100
    out = encode(text)
    words = out.split(" ")
    assert all(len(w) <= 75 for w in words)
    assert len(words) == 5
    assert decode_text(out) == text


def test_encode_non_utf8_charset_writes_its_name():
    assert encode("café", charset="latin1") == "=?windows-1252?Q?caf=E9?="


def test_encode_tab_and_line_breaks_are_encoded():
    out = encode("a\tb\r\nc")
    assert out == "=?utf-8?B?YQliDQpj?="
    assert decode_text(out) == "a\tb\r\nc"


def test_encode_astral_character_and_surrogate_pair_not_cut():
    text = "\U0001F600" * 20
    words = encode(text, charset="utf-16le").split(" ")
    assert all(len(w) <= 75 for w in words)
    assert decode_text(" ".join(words)) == text


def test_encode_wrong_types_raise():
    with pytest.raises(TypeError, match="text"):
        encode(b"x")
    with pytest.raises(ValueError, match="charset"):
        encode("é", charset="no-such-charset")


def test_package_re_exports_lazily():
    import onemail.text as text
    from onemail.text import rfc2231

    assert text.decode_text is decode_text
    assert text.parse_header_params is rfc2231.parse_header_params
    assert text.ParameterCollector is rfc2231.ParameterCollector
    assert text.DecodedParameter is rfc2231.DecodedParameter


# --- CJK and ISO-2022 charsets --------------------------------------------------------------------

def test_cjk_words_shift_jis_and_iso_2022_jp():
    assert dec("=?shift_jis?B?k/qWe4zq?= =?ISO-2022-JP?B?GyRCJUYlOSVIGyhC?=") == ("日本語テスト", [])


def test_cjk_character_split_across_words_joined_as_bytes():
    # 日 is 93 FA in Shift_JIS: the lead byte ends the first word
    assert dec("=?shift_jis?Q?=93?= =?shift_jis?Q?=FA=96=7B?=") == ("日本", [])


def test_cjk_invalid_bytes_reported_at_their_encoded_characters():
    # 0x85 0x40 is unmapped in Shift_JIS: U+FFFD, then "@" (the trail byte is re-read as ASCII)
    text, issues = dec("=?shift_jis?Q?a=85@?=")
    assert text == "a\ufffd@"
    assert issues == [(K.INVALID_SHIFT_JIS, 15, 3)]


@pytest.mark.parametrize("charset", ["iso-2022-jp", "shift_jis", "euc-jp", "euc-kr", "iso-2022-kr",
                                     "gb18030", "hz-gb-2312", "big5", "utf-7"])
def test_encode_cjk_and_stateful_charsets_round_trip(charset):
    text = {"euc-kr": "한국어 메일 텍스트 " * 5, "iso-2022-kr": "한국어 메일 텍스트 " * 5,
            "gb18030": "中文测试邮件内容 " * 6, "hz-gb-2312": "中文测试邮件内容 " * 6,
            "big5": "中文測試郵件內容 " * 6}.get(charset, "日本語のテキストとEnglish混在、長い件名 " * 3)
    out = encode(text, charset=charset)
    assert all(len(w) <= 75 for w in out.split(" "))
    assert decode_text(out) == text


# --- US-ASCII words with UTF-8 bytes (T81, T67) -----------------------------------------------

def test_us_ascii_word_with_utf8_bytes_is_utf8():
    """T81: the rule of a US-ASCII body (M6): valid UTF-8 is UTF-8, reported."""
    assert dec(b"=?us-ascii?Q?caf=C3=A9?=") == ("café", [(K.AMBIGUOUS_ASCII_LABELLED_UTF8, 16, 6)])
    # B: the issue covers the base64 characters of the bytes' group
    assert dec(b"=?ANSI_X3.4-1968?B?w6k=?=") == ("é", [(K.AMBIGUOUS_ASCII_LABELLED_UTF8, 19, 3)])
    # joined words: one decision for the joined bytes
    assert dec(b"=?us-ascii?Q?caf=C3?= =?us-ascii?Q?=A9?=") == (
        "café", [(K.AMBIGUOUS_ASCII_LABELLED_UTF8, 16, 22)])


def test_us_ascii_word_that_is_not_utf8_stays_windows_1252():
    """T67: no issue, windows-1252 as the Encoding Standard's us-ascii label says."""
    assert dec(b"=?us-ascii?Q?caf=E9?=") == ("café", [])
    assert dec(b"=?iso-8859-1?Q?caf=C3=A9?=") == ("cafÃ©", [])


# --- raw ISO-2022-JP in plain text (T84) ------------------------------------------------------

JIS_NIHON = b"\x1b$BF|K\\\x1b(B"  # 日本 in ISO-2022-JP


def test_raw_iso_2022_jp_in_a_header_is_decoded():
    assert dec(b"Re: " + JIS_NIHON + b" end") == ("Re: 日本 end", [(K.AMBIGUOUS_RAW_ISO2022, 4, 10)])
    assert dec("Re: " + JIS_NIHON.decode("ascii")) == ("Re: 日本", [(K.AMBIGUOUS_RAW_ISO2022, 4, 10)])
    # next to an encoded word, and folded
    assert dec(b"a\r\n " + JIS_NIHON + b" =?utf-8?q?x?=") == ("a 日本 x", [(K.AMBIGUOUS_RAW_ISO2022, 4, 10)])


def test_raw_iso_2022_jp_damage_is_reported_by_the_decoder():
    # a lone lead byte in JIS X 0208 mode, then the line end ... none here: a lone byte
    assert dec(b"\x1b$BF\x1b(B") == ("\ufffd", [(K.AMBIGUOUS_RAW_ISO2022, 0, 7), (K.INVALID_ISO2022, 3, 1)])


def test_escape_without_a_two_byte_designation_stays_text():
    assert dec(b"a\x1b(Bb\x1bx") == ("a\x1b(Bb\x1bx", [])


# --- memory and time (issue 16) ---------------------------------------------------------------

def test_many_adjacent_words_are_one_group():
    """10^4 adjacent words of one charset: one decode; an issue in the last maps to its text."""
    data = b" ".join([b"=?utf-8?q?a?="] * 9999 + [b"=?utf-8?q?=FF?="])
    text, issues = dec(data)
    assert text == "a" * 9999 + "\ufffd"
    assert issues == [(K.INVALID_UTF8, 9999 * 14 + 10, 3)]



def test_many_pieces_joined_on_the_way_keep_the_text():
    """10^4 words and gaps (pieces are joined in chunks for memory); 8-bit text after them."""
    data = b"=?utf-8?q?a?= =?iso-8859-2?q?=B1?= x " * 5000 + b"caf\xe9"
    text, issues = dec(data)
    assert text == "aą x " * 5000 + "café"
    assert issues == [(K.AMBIGUOUS_RAW_8BIT, len(data) - 1, 1)]
