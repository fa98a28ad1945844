"""One quirk per case: the CJK decoders' and encoders' error paths (Encoding Standard steps).

Each case gives the input, the exact text and the exact issues ``(offset, length)`` (kind is the
family's ``Invalid*``); decoding is done with ``offset=100`` to check that it is added. The
"restore" cases check that a byte the standard pushes back is re-read and not counted in the
error's length.
"""

from __future__ import annotations

import pytest

from onemail.text import IssueKind, TextIssue, for_label

KIND = {
    "gb18030": IssueKind.INVALID_GB18030, "gbk": IssueKind.INVALID_GB18030,
    "big5": IssueKind.INVALID_BIG5, "euc-jp": IssueKind.INVALID_EUC_JP,
    "shift_jis": IssueKind.INVALID_SHIFT_JIS, "euc-kr": IssueKind.INVALID_EUC_KR,
    "johab": IssueKind.INVALID_JOHAB,
}
F = "\ufffd"

CASES = [
    # Shift_JIS
    ("shift_jis", b"\x81\x41", "\u3001", []),
    ("shift_jis", b"\x81\x7f", F + "\x7f", [(0, 1)]),  # ASCII trail restored
    ("shift_jis", b"\x85\x40", F + "@", [(0, 1)]),  # pointer 752 has no entry: ASCII restored
    ("shift_jis", b"\x81\xfd", F, [(0, 2)]),  # not a trail byte, not ASCII: consumed
    ("shift_jis", b"\x80\xa1\xdf", "\x80\uff61\uff9f", []),
    ("shift_jis", b"\xa0\xfd\xfe\xff", F * 4, [(0, 1), (1, 1), (2, 1), (3, 1)]),  # cp932 maps these
    ("shift_jis", b"\xf0\x40\xf9\xfc", "\ue000\ue757", []),  # EUDC
    ("shift_jis", b"a\x81", "a" + F, [(1, 1)]),  # lead at the end
    # EUC-KR
    ("euc-kr", b"\x81\x41\xa1\xa1", "\uac02\u3000", []),
    ("euc-kr", b"\xc7\x41", F + "A", [(0, 1)]),  # pointer without entry: ASCII restored
    ("euc-kr", b"\xa1\x40", F + "@", [(0, 1)]),  # 0x40 is below the trail range: restored
    ("euc-kr", b"\xc9\xa1", F, [(0, 2)]),  # user-defined row: no entry, non-ASCII consumed
    ("euc-kr", b"\x80\xff\x81", F * 3, [(0, 1), (1, 1), (2, 1)]),
    # Big5
    ("big5", b"\x88\x62\x88\x64\x88\xa3\x88\xa5", "\u00ca\u0304\u00ca\u030c\u00ea\u0304\u00ea\u030c", []),
    ("big5", b"\xa1\x40\xa2\x41\xa1\x45", "\u3000\u2215\u2027", []),  # not big5hkscs's U+FF0F, U+2022
    ("big5", b"\xa1\x7f", F + "\x7f", [(0, 1)]),
    ("big5", b"\xa1\x80", F, [(0, 2)]),  # 0x80 is no trail byte and not ASCII
    ("big5", b"\x80\xff", F * 2, [(0, 1), (1, 1)]),
    ("big5", b"\xa1", F, [(0, 1)]),
    # EUC-JP
    ("euc-jp", b"\xa4\xa2\x8e\xa1\x5c\x7e", "\u3042\uff61\\~", []),
    ("euc-jp", b"\xa1\xc1\xa1\xdd\x8f\xa2\xb7", "\uff5e\uff0d\uff5e", []),  # not euc_jp's U+301C, U+2212, ~
    ("euc-jp", b"\x8e\xe0", F, [(0, 2)]),  # 0x8E then a non-katakana byte: both consumed
    ("euc-jp", b"\x8e\x41", F + "A", [(0, 1)]),
    ("euc-jp", b"\x8f\xa1\xa1", F, [(0, 3)]),  # JIS X 0212 pointer 0 has no entry
    ("euc-jp", b"\x8f\xa1\x41", F + "A", [(0, 2)]),  # 0x8F and the lead consumed, ASCII restored
    ("euc-jp", b"\x8f\x41", F + "A", [(0, 1)]),
    ("euc-jp", b"\x8f\xa1", F, [(0, 2)]),  # unfinished at the end: one error over both bytes
    ("euc-jp", b"\x8f", F, [(0, 1)]),
    ("euc-jp", b"\x80\xa0\xff", F * 3, [(0, 1), (1, 1), (2, 1)]),
    ("euc-jp", b"\xad\xa1", "\u2460", []),  # NEC row 13 (CPython's euc_jp lacks it)
    # gb18030 (GBK decodes the same)
    ("gb18030", b"\x80\x81\x40\xa3\xa0\xa6\xd9\xa8\xbc", "\u20ac\u4e02\u3000\ufe10\u1e3f", []),
    ("gb18030", b"\x81\x30\x81\x30\x81\x35\xf4\x37", "\x80\ue7c7", []),
    ("gb18030", b"\x90\x30\x81\x30\xe3\x32\x9a\x35", "\U00010000\U0010ffff", []),
    ("gb18030", b"\xe3\x32\x9a\x36", F, [(0, 4)]),  # pointer past 1237575
    ("gb18030", b"\x84\x31\xa5\x30", F, [(0, 4)]),  # pointer 39420: between the ranges
    ("gb18030", b"\x81\x30\x41", F + "0A", [(0, 1)]),  # restore second and byte
    ("gb18030", b"\x81\x30\x81\x41", F + "0\u4e04", [(0, 1)]),  # restore second, third, byte
    ("gb18030", b"\x81\x30\x81", F, [(0, 3)]),  # unfinished at the end: one error of 3
    ("gb18030", b"\x81\x30", F, [(0, 2)]),
    ("gb18030", b"\x81\x7f", F + "\x7f", [(0, 1)]),
    ("gb18030", b"\x81\xff", F, [(0, 2)]),
    ("gb18030", b"\xff", F, [(0, 1)]),
    ("gbk", b"\x81\x30\x81\x30\x80", "\x80\u20ac", []),
    # Johab (CPython's codec, ambiguity T15)
    ("johab", b"\x88\x61 ", "\uac00 ", []),
    ("johab", b"a\xff\x41", "a" + F + "A", [(1, 1)]),
    ("johab", b"\x84", F, [(0, 1)]),
]


@pytest.mark.parametrize(("label", "data", "text", "issues"), CASES, ids=[f"{c[0]}-{c[1].hex()}" for c in CASES])
def test_decode(label, data, text, issues):
    got: list[TextIssue] = []
    assert for_label(label).decode(data, got, 100) == text
    assert got == [TextIssue(KIND[label], 100 + o, n) for o, n in issues]
    assert for_label(label).decode(data) == text  # no issue list: same text


@pytest.mark.parametrize(("label", "data", "text", "issues"), CASES, ids=[f"{c[0]}-{c[1].hex()}" for c in CASES])
def test_decode_byte_by_byte(label, data, text, issues):
    dec = for_label(label).new_decoder()
    got: list[TextIssue] = []
    out = "".join(dec.decode(data[i:i + 1], issues=got) for i in range(len(data)))
    out += dec.decode(b"", final=True, issues=got)
    assert out == text
    assert got == [TextIssue(KIND[label], o, n) for o, n in issues]


# Found by fuzzing: a reference run that crossed a boundary byte (0xFF) covered the suspect
# unit 0xA3 0xA0, which the C codec then decoded (as U+E5E5) when re-decoding from there.
REGRESSION = (b"\x8f\xa2\xb7\xa6\xd9\xff\xa3\xa0\xa4\xab\xb7\xb1\xd6\xd0\xa6\xff\xff\x8f\xa2\xb7\x841\x974"
              b"\xff\xff\xa5\xcab\x836\x843\x829\x839\xd2\x9dh\xa6\xd9\xfd\xa2\xd9\x81\x816\xd31")


def test_suspect_unit_after_an_error_run():
    codec = for_label("gb18030")._codec
    got: list[TextIssue] = []
    ref: list[TextIssue] = []
    assert codec.decode(REGRESSION, got, 0) == codec.reference_decode(REGRESSION, ref, 0)[0]
    assert got == ref
    assert "\u3000" in codec.decode(REGRESSION, None, 0)


@pytest.mark.parametrize(("label", "data", "text", "consumed"), [
    ("gb18030", b"a\x81\x30\x81", "a", 1),
    # CPython's gb18030 wants four bytes after lead + digit, so this waits for the next chunk
    # although the standard has already decided (an error, then "0A"): only delayed.
    ("gb18030", b"a\x81\x30\x41", "a", 1),
    ("gb18030", b"a\x81\x30\x41\x42", "a" + F + "0AB", 5),
    ("euc-jp", b"a\x8f\xa1", "a", 1),
    ("big5", b"\xa1\x40\xa1", "\u3000", 2),
    ("shift_jis", b"\x81\x41\x81", "\u3001", 2),
    ("euc-kr", b"\xa1", "", 0),
    ("johab", b"\x88", "", 0),
])
def test_decode_chunk_holds_back_an_unfinished_sequence(label, data, text, consumed):
    codec = for_label(label)._codec
    assert codec.decode_chunk(data, None, 0, False, None) == (text, consumed, None)


ENCODE = [
    ("gbk", "\u20ac", b"\x80", []),
    ("gb18030", "\u20ac", b"\xa2\xe3", []),
    ("gb18030", "\ue5e5x", b"?x", [0]),  # no round trip for U+E5E5 (0xA3 0xA0 is U+3000)
    ("gb18030", "\ue78d\ufe10", b"\xa6\xd9\xa6\xd9", []),  # GB18030-2005 side table
    ("gb18030", "\U00010000\x80", b"\x90\x30\x81\x30\x81\x30\x81\x30", []),
    ("gb18030", "\ue7c7", b"\x81\x35\xf4\x37", []),
    ("gbk", "\U00010000", b"?", [0]),
    ("big5", "\u2550\u5341\u3000", b"\xf9\xf9\xa4\x51\xa1\x40", []),  # last pointer for U+2550, U+5341
    ("big5", "\u00ca", b"?", [0]),  # only HKSCS pointers below 0xA1 leads have it
    ("shift_jis", "\u2252\u0080\u00a5\u203e\uff71\u2212", b"\x81\xe0\x80\x5c\x7e\xb1\x81\x7c", []),
    ("shift_jis", "\ue000", b"?", [0]),  # EUDC is not encoded
    ("euc-jp", "\u00a5\u203e\u2212\uff71\u3042", b"\x5c\x7e\xa1\xdd\x8e\xb1\xa4\xa2", []),
    ("euc-jp", "\u4e02\x80", b"??", [0, 1]),  # JIS X 0212 is not encoded
    ("euc-kr", "\uac02\u3000\u00e9", b"\x81\x41\xa1\xa1?", [2]),
    ("johab", "\uac00\U0001f600", b"\x88\x61?", [1]),
    ("euc-kr", "a\ud800b", b"a?b", [1]),  # a lone surrogate
]


@pytest.mark.parametrize(("label", "text", "data", "unencodable"), ENCODE, ids=[f"{c[0]}-{c[2].hex()}" for c in ENCODE])
def test_encode(label, text, data, unencodable):
    got: list[TextIssue] = []
    assert for_label(label).encode(text, got) == data
    assert got == [TextIssue(IssueKind.UNENCODABLE, i, 1) for i in unencodable]


def test_suspect_unit_after_a_handled_error_is_still_checked():
    """Found by tests/properties/test_cjk_properties.py: cp932's single byte 0xFE (U+F8F2) is
    an error in the standard's Shift_JIS (T14), also after an error the handler read past."""
    from onemail.text import for_label

    issues: list = []
    assert for_label("shift_jis").decode(b"\xfd\x81\x00\xfe", issues) == "\ufffd\ufffd\x00\ufffd"
    assert [(i.kind.value, i.offset, i.length) for i in issues] == [
        ("InvalidShiftJis", 0, 1), ("InvalidShiftJis", 1, 1), ("InvalidShiftJis", 3, 1)]
