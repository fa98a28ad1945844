"""The RTF tokenizer (spec 002 "The tokenizer"): tokens, geometry and defects."""

from __future__ import annotations

import doctest

import pytest

from onemail.rtf import RtfDefect, RtfDefectKind, RtfReader
from onemail.rtf import reader as reader_module
from onemail.rtf.reader import (
    Binary,
    ControlSymbol,
    ControlWord,
    GroupEnd,
    GroupStart,
    HexEscape,
    Text,
)

K = RtfDefectKind


def read(data: bytes, **kwargs):
    reader = RtfReader(data, **kwargs)
    tokens = reader.read_all()
    return tokens, [(d.kind, d.offset, d.length) for d in reader.defects]


def test_doctests():
    assert doctest.testmod(reader_module).failed == 0


def test_every_token_kind_with_offsets():
    tokens, defects = read(b"{\\rtf1 Hi\\'e9\\*\\~\\u-10179?}")
    assert tokens == [
        GroupStart(0),
        ControlWord(1, 6, "rtf", 1),  # the delimiting space belongs to the word
        Text(7, 2, b"Hi"),
        HexEscape(9, 4, 0xE9),
        ControlSymbol(13, 2, "*"),
        ControlSymbol(15, 2, "~"),
        ControlWord(17, 8, "u", -10179),
        Text(25, 1, b"?"),
        GroupEnd(26),
    ]
    assert defects == []


def test_only_one_space_belongs_to_the_word():
    tokens, _ = read(b"\\par  x")
    assert tokens == [ControlWord(0, 5, "par", None), Text(5, 2, b" x")]


def test_case_is_kept():
    tokens, _ = read(b"\\ANSI\\ansi")
    assert [t.name for t in tokens] == ["ANSI", "ansi"]


def test_cr_lf_between_tokens_skipped():
    tokens, _ = read(b"a\r\nb\rc\nd")
    assert tokens == [Text(0, 1, b"a"), Text(3, 1, b"b"), Text(5, 1, b"c"), Text(7, 1, b"d")]


def test_backslash_before_line_break_is_par():
    tokens, _ = read(b"a\\\r\nb\\\nc")
    assert tokens == [Text(0, 1, b"a"), ControlWord(1, 3, "par", None), Text(4, 1, b"b"),
                      ControlWord(5, 2, "par", None), Text(7, 1, b"c")]


def test_text_run_keeps_tabs_nul_and_high_bytes():
    tokens, _ = read(b"a\tb\x00\xff c")
    assert tokens == [Text(0, 7, b"a\tb\x00\xff c")]


def test_escaped_braces_and_backslash_are_symbols():
    tokens, _ = read(b"\\{\\}\\\\")
    assert tokens == [ControlSymbol(0, 2, "{"), ControlSymbol(2, 2, "}"),
                      ControlSymbol(4, 2, "\\")]


def test_binary_skipped_unparsed():
    tokens, defects = read(b"{\\bin4 a}{\\b}")
    assert tokens == [GroupStart(0), ControlWord(1, 6, "bin", 4), Binary(7, 4, b"a}{\\"),
                      Text(11, 1, b"b"), GroupEnd(12)]
    assert defects == []


def test_binary_truncated():
    tokens, defects = read(b"\\bin10 abc")
    assert tokens == [ControlWord(0, 7, "bin", 10), Binary(7, 3, b"abc")]
    assert defects == [(K.BINARY_DATA_TRUNCATED, 7, 3)]


def test_parameter_overflow_clamped():
    tokens, defects = read(b"\\fs99999999999 \\li-99999999999")
    assert tokens == [ControlWord(0, 15, "fs", 2**31 - 1), ControlWord(15, 15, "li", -(2**31))]
    assert defects == [(K.PARAMETER_OVERFLOW, 3, 11), (K.PARAMETER_OVERFLOW, 18, 12)]


def test_invalid_hex_escape_dropped():
    tokens, defects = read(b"a\\'4gb\\'zz")
    assert tokens == [Text(0, 1, b"a"), Text(4, 2, b"gb"), Text(8, 2, b"zz")]
    assert defects == [(K.INVALID_HEX_ESCAPE, 1, 3), (K.INVALID_HEX_ESCAPE, 6, 2)]


@pytest.mark.parametrize("data, start", [(b"ab\\", 2), (b"ab\\'", 2), (b"ab\\'4", 2)])
def test_truncated_token(data, start):
    tokens, defects = read(data)
    assert tokens == [Text(0, 2, b"ab")]
    assert defects == [(K.TRUNCATED_TOKEN, start, len(data) - start)]


def test_unbalanced_group_end_dropped():
    tokens, defects = read(b"{}}x")
    assert tokens == [GroupStart(0), GroupEnd(1), Text(3, 1, b"x")]
    assert defects == [(K.UNBALANCED_GROUP_END, 2, 1)]


def test_unclosed_groups():
    tokens, defects = read(b"{{a}")
    assert len(tokens) == 4
    assert defects == [(K.UNCLOSED_GROUPS, 4, 0)]


def test_ten_thousand_nested_groups_stop_at_the_limit():
    data = b"{" * 10_000 + b"x" + b"}" * 10_000
    tokens, defects = read(data)
    assert tokens == [GroupStart(i) for i in range(1000)]
    assert defects == [(K.NESTING_LIMIT_EXCEEDED, 1000, 1)]


def test_max_depth_option():
    tokens, defects = read(b"{{{}}}", max_depth=2)
    assert tokens == [GroupStart(0), GroupStart(1)]
    assert defects == [(K.NESTING_LIMIT_EXCEEDED, 2, 1)]


def test_deep_balanced_nesting_within_limit_is_linear_and_complete():
    depth = 1000
    data = (b"{a" * depth + b"}" * depth) * 50
    tokens, defects = read(data)
    assert len(tokens) == 3 * depth * 50
    assert defects == []


def test_arguments_checked():
    with pytest.raises(TypeError, match="data"):
        RtfReader("{\\rtf1}")
    with pytest.raises(ValueError, match="max_depth"):
        RtfReader(b"", max_depth=0)
    with pytest.raises(TypeError, match="max_depth"):
        RtfReader(b"", max_depth=1.5)


def test_accepts_bytearray_and_memoryview():
    assert RtfReader(bytearray(b"a")).read_all() == RtfReader(memoryview(b"a")).read_all()


def test_iterates_once():
    reader = RtfReader(b"a")
    list(reader)
    with pytest.raises(RuntimeError):
        iter(reader)


def test_defect_json():
    assert RtfDefect(K.UNCLOSED_GROUPS, 3, 0).to_json() == {"kind": "UnclosedGroups", "offset": 3, "length": 0}
