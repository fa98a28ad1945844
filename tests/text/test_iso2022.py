"""ISO-2022-JP family, ISO-2022-KR, HZ: one quirk per test, text and issues (kind, offset, length)."""

from __future__ import annotations

import codecs

import pytest

from onemail.text import IssueKind, TextIssue, for_label

BAD = IssueKind.INVALID_ISO2022
AMB = IssueKind.AMBIGUOUS_ISO2022_REPERTOIRE
ESC = b"\x1b"
JIS = ESC + b"$B"
ASCII = ESC + b"(B"


def dec(label: str, data: bytes, offset: int = 0):
    issues: list[TextIssue] = []
    text = for_label(label).decode(data, issues, offset)
    return text, [(i.kind, i.offset, i.length) for i in issues]


# ---- ISO-2022-JP ----------------------------------------------------------------------------

def test_jis_x_0208_with_reset():
    assert dec("iso-2022-jp", JIS + b"F|K\\8l" + ASCII + b"!") == ("日本語!", [])


def test_jis_c_6226_1978_escape():
    assert dec("iso-2022-jp", ESC + b"$@F|" + ASCII) == ("日", [])


def test_missing_reset_before_line_end():
    """T35: LF returns to ASCII; the next line is not read as JIS X 0208; no issue."""
    assert dec("iso-2022-jp", JIS + b"F|\nabc") == ("日\nabc", [])


def test_missing_reset_before_cr():
    assert dec("iso-2022-jp", JIS + b"F|\r\nabc") == ("日\r\nabc", [])


def test_lead_byte_before_line_end_is_unpaired():
    assert dec("iso-2022-jp", JIS + b"F|K\nx") == ("日\ufffd\nx", [(BAD, 5, 1)])


def test_unpaired_byte_before_reset_and_at_end():
    assert dec("iso-2022-jp", JIS + b"F" + ASCII + b"a" + JIS + b"K") == (
        "\ufffda\ufffd", [(BAD, 3, 1), (BAD, 11, 1)])


def test_space_inside_two_byte_mode_is_space():
    assert dec("iso-2022-jp", JIS + b"F| K\\" + ASCII) == ("日 本", [])


def test_jis_x_0212_under_plain_iso_2022_jp_is_ambiguous():
    """T36: decoded, AmbiguousIso2022Repertoire over the escape sequence."""
    data = ESC + b"$(DB3" + ASCII
    assert dec("iso-2022-jp", data) == ("\u6646", [(AMB, 0, 4)])


@pytest.mark.parametrize("label", ["iso-2022-jp-1", "iso-2022-jp-2"])
def test_jis_x_0212_in_repertoire(label):
    assert dec(label, ESC + b"$(DB3" + ASCII) == ("\u6646", [])


def test_jis_x_0212_pair_without_mapping():
    # Row 1 of JIS X 0212 is empty: one U+FFFD over the pair's two (JIS) bytes.
    assert dec("iso-2022-jp-1", ESC + b"$(D!!B3" + ASCII) == ("\ufffd\u6646", [(BAD, 4, 2)])


def test_jis_x_0208_pair_without_mapping():
    # Row 9 of JIS X 0208 is empty in the Encoding Standard's index.
    assert dec("iso-2022-jp", JIS + b"F|)!F|" + ASCII) == ("日\ufffd日", [(BAD, 5, 2)])


def test_half_width_katakana_escape_under_iso_2022_jp_is_ambiguous():
    assert dec("iso-2022-jp", ESC + b"(I12" + ASCII) == ("\uff71\uff72", [(AMB, 0, 3)])


@pytest.mark.parametrize("label", ["cp50220", "cp50221", "cp50222", "windows-50221", "x-windows-50222"])
def test_half_width_katakana_escape_in_microsoft_variants(label):
    assert dec(label, ESC + b"(I12" + ASCII) == ("\uff71\uff72", [])


def test_katakana_byte_outside_0x21_0x5f():
    assert dec("cp50221", ESC + b"(I1`" + ASCII) == ("\uff71\ufffd", [(BAD, 4, 1)])


@pytest.mark.parametrize("label", ["cp50221", "cp50222"])
def test_so_si_katakana_in_cp50221_cp50222(label):
    assert dec(label, b"a\x0e12\x0fb") == ("a\uff71\uff72b", [])


@pytest.mark.parametrize("label", ["iso-2022-jp", "iso-2022-jp-2", "cp50220"])
def test_so_si_in_a_variant_without_them(label):
    assert dec(label, b"a\x0e12\x0fb") == ("a\ufffd12\ufffdb", [(BAD, 1, 1), (BAD, 4, 1)])


def test_line_end_ends_so():
    assert dec("cp50222", b"\x0e1\n1") == ("\uff71\n1", [])


def test_jis_roman():
    assert dec("iso-2022-jp", ESC + b"(Ja\\~" + ASCII + b"\\~") == ("a\u00a5\u203e\\~", [])


def test_unknown_escape_is_one_replacement():
    """T37: the whole escape sequence (ESC, intermediates, final) is one U+FFFD."""
    assert dec("iso-2022-jp", b"a" + ESC + b"(Zb") == ("a\ufffdb", [(BAD, 1, 3)])


def test_escape_without_final_byte():
    assert dec("iso-2022-jp", b"a" + ESC + b"$\nb") == ("a\ufffd\nb", [(BAD, 1, 2)])
    assert dec("iso-2022-jp", b"a" + ESC) == ("a\ufffd", [(BAD, 1, 1)])


def test_high_bytes_in_ascii_and_two_byte_mode():
    assert dec("iso-2022-jp", b"a\x80" + JIS + b"F|\xa4\xa2" + ASCII) == (
        "a\ufffd日\ufffd\ufffd", [(BAD, 1, 1), (BAD, 7, 1), (BAD, 8, 1)])


def test_offset_is_added():
    assert dec("iso-2022-jp", b"\x80", offset=7) == ("\ufffd", [(BAD, 7, 1)])


def test_gb2312_and_ksc5601_in_iso_2022_jp_2():
    data = ESC + b"$A<:" + ESC + b"$(C0!" + ASCII
    assert dec("iso-2022-jp-2", data) == ("\u5df1\uac00", [])
    assert dec("iso-2022-jp", data) == ("\u5df1\uac00", [(AMB, 0, 3), (AMB, 5, 4)])


def test_g2_single_shift():
    data = ESC + b".A" + ESC + b"Ni" + ESC + b".F" + ESC + b"Na"
    assert dec("iso-2022-jp-2", data) == ("\u00e9\u03b1", [])
    assert dec("iso-2022-jp", data) == ("\u00e9\u03b1", [(AMB, 0, 3), (AMB, 6, 3)])


def test_single_shift_without_g2():
    assert dec("iso-2022-jp-2", ESC + b"Nix") == ("\ufffdx", [(BAD, 0, 3)])
    assert dec("iso-2022-jp-2", ESC + b".A" + ESC + b"N\n") == ("\ufffd\n", [(BAD, 3, 2)])


def test_jis_x_0213_plane_2_not_decoded():
    """T38."""
    assert dec("iso-2022-jp-3", ESC + b"$(P!!" + ASCII) == ("\ufffd", [(BAD, 4, 2)])


def test_jis_x_0213_plane_1_jis_x_0208_part():
    assert dec("iso-2022-jp-3", ESC + b"$(QF|" + ASCII) == ("日", [])


def test_jis_x_0213_plane_1_beyond_jis_x_0208():
    """T38: plane 1 by its own table (CPython's euc_jis_2004); one pair may give two code points."""
    data = ESC + b"$(O~e$w)_" + ASCII
    assert dec("iso-2022-jp-3", data) == ("\u9dd7\u304b\u309a\u00e9", [])
    assert dec("iso-2022-jp", data) == ("\u9dd7\u304b\u309a\u00e9", [(AMB, 0, 4)])


# ---- ISO-2022-KR ----------------------------------------------------------------------------

def test_iso_2022_kr():
    data = ESC + b"$)C\r\n\x0e0!0\"\x0f a"
    assert dec("iso-2022-kr", data) == ("\r\n\uac00\uac01 a", [])


def test_iso_2022_kr_so_without_header():
    assert dec("iso-2022-kr", b"\x0e0!\x0f") == ("\uac00", [])


def test_iso_2022_kr_line_end_ends_so():
    assert dec("iso-2022-kr", b"\x0e0!\n0!") == ("\uac00\n0!", [])


def test_iso_2022_kr_jis_escape_is_ambiguous():
    assert dec("iso-2022-kr", JIS + b"F|" + ASCII) == ("日", [(AMB, 0, 3)])


# ---- HZ-GB-2312 -----------------------------------------------------------------------------

def test_hz():
    assert dec("hz-gb-2312", b"~{<:Ky2;S{#,NpJ)l6HK!#~}Bye.") == ("己所不欲，勿施於人。Bye.", [])


def test_hz_tilde_tilde_and_continuation():
    assert dec("hz-gb-2312", b"a~~b~\nc~\r\nd") == ("a~bcd", [])


def test_hz_bad_tilde():
    assert dec("hz-gb-2312", b"a~xb~") == ("a\ufffdxb\ufffd", [(BAD, 1, 1), (BAD, 4, 1)])


def test_hz_line_end_in_gb_mode():
    assert dec("hz-gb-2312", b"~{<:\n<:") == ("己\n<:", [])


def _streamed(label: str, data: bytes):
    """Decode in two chunks at every split; each gives one-shot's text and issues."""
    one = dec(label, data)
    for k in range(len(data) + 1):
        d = for_label(label).new_decoder()
        issues: list[TextIssue] = []
        text = d.decode(data[:k], issues=issues) + d.decode(data[k:], final=True, issues=issues)
        assert (text, [(i.kind, i.offset, i.length) for i in issues]) == one, k
    return one


def test_hz_tilde_of_shift_out_is_no_trail_byte():
    """T39 (issue 13): "~}" leaves GB mode; the byte before it is unpaired, not a pair with "~"."""
    assert _streamed("hz-gb-2312", b"~{.~}x") == ("\ufffdx", [(BAD, 2, 1)])
    assert _streamed("hz-gb-2312", b"~{<:.~}x") == ("己\ufffdx", [(BAD, 4, 1)])
    # a "~" trail not followed by "}" is still a trail byte (GB 0xFE), and "~~}" is pair + shift out
    assert _streamed("hz-gb-2312", b"~{<~~}a") == ("件a", [])


def test_hz_white_space_before_a_line_end_does_not_keep_gb_mode():
    """T35 (issue 13): the line end returns to ASCII also after a tab or space."""
    assert _streamed("hz-gb-2312", b"~{\t\nAB") == ("\t\nAB", [])
    assert _streamed("hz-gb-2312", b"~{<: \r\n<:") == ("己 \r\n<:", [])


def test_hz_unpaired_and_high_bytes():
    assert dec("hz-gb-2312", b"~{<\xa1~}") == ("\ufffd\ufffd", [(BAD, 2, 1), (BAD, 3, 1)])


# ---- encoders and the Python codec face -----------------------------------------------------

@pytest.mark.parametrize(("label", "text"), [
    ("iso-2022-jp", "日本語のテキスト abc"), ("iso-2022-jp-1", "日本\u6646"),
    ("iso-2022-jp-2", "日本 é α 가 己"), ("iso-2022-jp-3", "日本語"),
    ("cp50220", "日本語"), ("cp50221", "ｱｲｳ 日本"), ("cp50222", "ｱｲｳ 日本"),
    ("iso-2022-kr", "가나다 abc"), ("hz-gb-2312", "己所不欲 ~ abc"),
])
def test_encode_round_trip(label, text):
    issues = []
    data = for_label(label).encode(text, issues)
    assert issues == []
    assert dec(label, data) == (text, [])


def test_encode_unencodable():
    issues = []
    assert for_label("iso-2022-jp").encode("a\u00e9b", issues) == b"a?b"
    assert issues == [TextIssue(IssueKind.UNENCODABLE, 1, 1)]


def test_python_codec_face():
    data = JIS + b"F|\x80" + ESC + b"(Z" + ESC + b"$(D B3"
    assert data.decode("onemail-iso-2022-jp", "replace") == for_label("iso-2022-jp").decode(data)
    with pytest.raises(UnicodeDecodeError):
        data.decode("onemail-iso-2022-jp")
    assert (ESC + b"$(DB3").decode("onemail-iso-2022-jp") == "\u6646"  # ambiguity is no error


def test_python_incremental_decoder_state_is_an_int():
    dec_ = codecs.getincrementaldecoder("onemail-iso-2022-jp")()
    assert dec_.decode(JIS + b"F") == ""
    pending, state = dec_.getstate()
    assert pending == b"F" and state == 3  # G0 = JIS X 0208
    assert dec_.decode(b"|" + ASCII, final=True) == "日"
    dec_.reset()
    assert dec_.getstate() == (b"", 0)


def test_hz_encoder_escapes_tilde_after_gb_text():
    """CPython's hz encoder writes this "~" unescaped; ours writes "~~"."""
    text = "aa。a。a。a。a。a。~"
    data = for_label("hz-gb-2312").encode(text)
    assert data.endswith(b"~}~~")
    assert dec("hz-gb-2312", data) == (text, [])


def test_hz_encoder_unencodable():
    issues = []
    assert for_label("hz-gb-2312").encode("己\ud55c己~", issues) == b"~{<:~}?~{<:~}~~"
    assert issues == [TextIssue(IssueKind.UNENCODABLE, 1, 1)]


def test_cp50221_encoder_writes_no_jis_x_0212():
    """CPython's iso2022_jp_ext would write U+00A1 in JIS X 0212, outside cp50221's repertoire."""
    issues = []
    assert for_label("cp50221").encode("\u00a1\uff71", issues) == b"?\x1b(I1\x1b(B"
    assert issues == [TextIssue(IssueKind.UNENCODABLE, 0, 1)]


@pytest.mark.parametrize("label", ["iso-2022-jp", "iso-2022-jp-2", "cp50221", "iso-2022-kr"])
def test_encoder_framing_controls_are_unencodable(label):
    """T82 (issue 16): ESC, SO and SI in the text are ``?`` + ``Unencodable``, not written raw."""
    issues: list[TextIssue] = []
    data = for_label(label).encode("a\x1bb\x0ec\x0fd", issues)
    assert data == b"a?b?c?d"
    assert [(i.kind, i.offset, i.length) for i in issues] == [
        (IssueKind.UNENCODABLE, 1, 1), (IssueKind.UNENCODABLE, 3, 1), (IssueKind.UNENCODABLE, 5, 1)]
    assert dec(label, data) == ("a?b?c?d", [])


def test_encoder_framing_control_among_kanji_and_unencodable():
    issues: list[TextIssue] = []
    data = for_label("iso-2022-jp").encode("日\x1b\u00e9本", issues)
    assert data == JIS + b"F|" + ASCII + b"??" + JIS + b"K\\" + ASCII
    assert [(i.kind, i.offset, i.length) for i in issues] == [
        (IssueKind.UNENCODABLE, 1, 1), (IssueKind.UNENCODABLE, 2, 1)]


def test_hz_encoder_writes_controls_as_they_are():
    """HZ has no ESC/SO/SI framing: they are written and read back."""
    assert for_label("hz-gb-2312").encode("\x1b\x0e\x0f") == b"\x1b\x0e\x0f"
    assert dec("hz-gb-2312", b"\x1b\x0e\x0f") == ("\x1b\x0e\x0f", [])
