"""UTF-7 and IMAP modified UTF-7: one quirk per test, text and issues (kind, offset, length)."""

from __future__ import annotations

import pytest

from onemail.text import IssueKind, TextIssue, for_label, utf7

U = IssueKind.INVALID_UTF7
M = IssueKind.INVALID_IMAP_UTF7
NC = IssueKind.MALFORMED_IMAP_UTF7


def dec(data: bytes, offset: int = 0):
    issues: list[TextIssue] = []
    text = for_label("utf-7").decode(data, issues, offset)
    return text, [(i.kind, i.offset, i.length) for i in issues]


def dec_imap(data: bytes, offset: int = 0):
    issues: list[TextIssue] = []
    text = utf7.decode_imap(data, issues=issues, offset=offset)
    return text, [(i.kind, i.offset, i.length) for i in issues]


# ---- decoding UTF-7 -------------------------------------------------------------------------

def test_plus_minus_is_plus():
    assert dec(b"1 +- 1 = 2") == ("1 + 1 = 2", [])


def test_direct_mode_accepts_every_ascii_byte():
    data = bytes(b for b in range(0x80) if b != ord("+"))
    assert dec(data) == (data.decode("ascii"), [])


def test_run_ends_at_dash_absorbed():
    assert dec(b"+AGE--x") == ("a-x", [])


def test_run_ends_at_non_base64_byte_kept():
    assert dec(b"+AGE.x") == ("a.x", [])


def test_run_ends_at_end_of_input():
    assert dec(b"x+AGE") == ("xa", [])


def test_surrogate_pair_in_one_run():
    assert dec(b"+2D3eAA-") == ("\U0001f600", [])


def test_high_byte_is_invalid():
    assert dec(b"a\x80b\xff") == ("a\ufffdb\ufffd", [(U, 1, 1), (U, 3, 1)])


def test_high_byte_ends_a_run():
    assert dec(b"+AGE\xe9") == ("a\ufffd", [(U, 4, 1)])


def test_empty_run_is_invalid():
    """T30: "+" followed by neither base64 nor "-" is U+FFFD for the "+"; the byte stays."""
    assert dec(b"1 + 1") == ("1 \ufffd 1", [(U, 2, 1)])


def test_plus_at_end_is_an_empty_run():
    assert dec(b"a+") == ("a\ufffd", [(U, 1, 1)])


def test_nonzero_leftover_bits():
    # "+AGF": 18 bits, one unit U+0061, two leftover bits "01" in the third character.
    assert dec(b"+AGF-") == ("a\ufffd", [(U, 3, 1)])


def test_six_or_more_leftover_bits():
    # "+AGEA": 24 bits, one unit, eight leftover bits in characters 3 and 4.
    assert dec(b"+AGEA-x") == ("a\ufffdx", [(U, 3, 2)])


def test_single_base64_character_run():
    assert dec(b"C++") == ("C\ufffd", [(U, 2, 1)])


def test_unpaired_high_surrogate_at_run_end():
    # U+D83D then the run closes: the unit's three characters (its two pad bits are zero).
    assert dec(b"+2D0-x") == ("\ufffdx", [(U, 1, 3)])


def test_lone_high_surrogate_and_bad_pad_bits_overlap():
    # "+2D3": U+D837 with pad bits "11": two issues sharing the byte "3".
    assert dec(b"+2D3-x") == ("\ufffd\ufffdx", [(U, 1, 3), (U, 3, 1)])


def test_unpaired_high_surrogate_before_bmp_unit():
    # U+D83D U+0061: the high surrogate is reported, the next unit read again.
    assert dec(b"+2D0AYQ-") == ("\ufffda", [(U, 1, 3)])


def test_lone_low_surrogate():
    # U+DE00 U+0061
    assert dec(b"+3gAAYQ-") == ("\ufffda", [(U, 1, 3)])


def test_surrogate_halves_in_two_runs_do_not_pair():
    """T32: each run is decoded on its own."""
    assert dec(b"+2D0-+3gA-") == ("\ufffd\ufffd", [(U, 1, 3), (U, 6, 3)])


def test_offset_is_added():
    assert dec(b"a\x80", offset=100) == ("a\ufffd", [(U, 101, 1)])


def test_no_issue_list_costs_nothing_and_gives_same_text():
    assert for_label("utf-7").decode(b"+2D0-\x80+") == dec(b"+2D0-\x80+")[0]


def test_python_codec_face_replace_equals_native():
    data = b"a\x80+2D0-+AGF-+!"
    assert data.decode("onemail-utf-7", "replace") == dec(data)[0]
    with pytest.raises(UnicodeDecodeError):
        data.decode("onemail-utf-7")


# ---- encoding UTF-7 -------------------------------------------------------------------------

def test_encode_direct_set():
    direct = "ABCXYZabcxyz0189'(),-./:? \t\r\n"
    assert utf7.encode(direct) == direct.encode("ascii")


@pytest.mark.parametrize("char", list("!\"#$%&*;<=>@[]^_`{|}\\~"))
def test_encode_optional_direct_goes_to_base64(char):
    out = utf7.encode(char)
    assert out.startswith(b"+") and out != b"+-"
    assert dec(out) == (char, [])


def test_encode_plus_alone():
    assert utf7.encode("a+b") == b"a+-b"
    assert utf7.encode("++") == b"+-+-"


def test_encode_dash_only_before_continuing_character():
    assert utf7.encode("\u00e9a") == b"+AOk-a"
    assert utf7.encode("\u00e9-") == b"+AOk--"
    assert utf7.encode("\u00e9/") == b"+AOk-/"
    assert utf7.encode("\u00e9.") == b"+AOk."
    assert utf7.encode("\u00e9 ") == b"+AOk "
    assert utf7.encode("\u00e9") == b"+AOk"


def test_encode_astral():
    assert utf7.encode("\U0001f600") == b"+2D3eAA"


def test_encode_lone_surrogate_is_unencodable():
    issues = []
    assert for_label("utf-7").encode("a\ud800b", issues) == b"a?b"
    assert issues == [TextIssue(IssueKind.UNENCODABLE, 1, 1)]


def test_encode_rejects_bytes():
    with pytest.raises(TypeError):
        utf7.encode(b"x")


# ---- IMAP modified UTF-7 --------------------------------------------------------------------

def test_imap_ampersand_dash():
    assert dec_imap(b"Tom &- Jerry") == ("Tom & Jerry", [])


def test_imap_comma_is_slash():
    # U+FFFF U+FFFF: "////////" in base64, ",,,," pairs in IMAP's alphabet
    assert dec_imap(b"&,,,,,,,,-") == ("\uffff\uffff\uffff", [])


def test_imap_missing_dash_still_decodes():
    """T31: the run decodes; a zero-length issue marks where the "-" belongs."""
    assert dec_imap(b"&Jjo!") == ("\u263a!", [(M, 4, 0)])
    assert dec_imap(b"x&Jjo") == ("x\u263a", [(M, 5, 0)])


def test_imap_slash_ends_run_without_dash():
    assert dec_imap(b"&Jjo/a") == ("\u263a/a", [(M, 4, 0)])


def test_imap_bytes_outside_printable_ascii():
    assert dec_imap(b"a\tb\x7f\xe9") == ("a\ufffdb\ufffd\ufffd", [(M, 1, 1), (M, 3, 1), (M, 4, 1)])


def test_imap_empty_run():
    assert dec_imap(b"a& b") == ("a\ufffd b", [(M, 1, 1)])
    assert dec_imap(b"a&") == ("a\ufffd", [(M, 1, 1)])


def test_imap_one_character_run_without_dash():
    # "&b": six leftover bits (U+FFFD over "b") and no "-" (zero-length, after "b")
    assert dec_imap(b"a&b") == ("a\ufffd", [(M, 2, 1), (M, 3, 0)])


def test_imap_bad_leftover_bits():
    # "a" inside the run is also non-canonical (T83)
    assert dec_imap(b"&AGF-", offset=10) == ("a\ufffd", [(NC, 10, 5), (M, 13, 1)])


def test_imap_lone_surrogate():
    assert dec_imap(b"&2D0AYQ-") == ("\ufffda", [(NC, 0, 8), (M, 1, 3)])
    assert dec_imap(b"&2D0-") == ("\ufffd", [(M, 1, 3)])


def test_imap_non_canonical_run():
    """T83 (issue 13): printable ASCII (here "&") inside a run is decoded and reported once."""
    assert dec_imap(b"&BBYAJgQW-") == ("Ж&Ж", [(NC, 0, 10)])
    assert dec_imap(b"a&AEE-b", offset=3) == ("aAb", [(NC, 4, 5)])
    assert dec_imap(b"&AEE") == ("A", [(NC, 0, 4), (M, 4, 0)])
    # canonical: "&-", and controls or non-ASCII in base64
    assert dec_imap(b"&-&BBYEFg-&AAk-") == ("&ЖЖ\t", [])


def test_imap_encode_always_closed_and_ampersand():
    assert utf7.encode_imap("\u00e9") == b"&AOk-"
    assert utf7.encode_imap("a&b") == b"a&-b"
    assert utf7.encode_imap("~/\\") == b"~/\\"
    assert utf7.encode_imap("\uffff\uffff\uffff") == b"&,,,,,,,,-"


def test_imap_python_codec_face_missing_dash():
    assert b"&Jjo!".decode("onemail-imap-utf-7", "replace") == "\u263a!"
    with pytest.raises(UnicodeDecodeError):
        b"&Jjo!".decode("onemail-imap-utf-7")


def test_imap_rejects_str():
    with pytest.raises(TypeError):
        utf7.decode_imap("&-")
