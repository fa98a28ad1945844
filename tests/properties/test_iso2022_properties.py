"""ISO-2022 family and HZ properties: never raises, issues in bounds, chunked == one-shot."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from onemail.text import for_label

LABELS = ["iso-2022-jp", "iso-2022-jp-1", "iso-2022-jp-2", "iso-2022-jp-3", "cp50220", "cp50221",
          "cp50222", "iso-2022-kr", "hz-gb-2312"]
PIECES = [b"\x1b(B", b"\x1b(J", b"\x1b(I", b"\x1b$@", b"\x1b$B", b"\x1b$(D", b"\x1b$A", b"\x1b$(C",
          b"\x1b$)C", b"\x1b.A", b"\x1b.F", b"\x1bN", b"\x1b$(P", b"\x1b$(Q", b"\x1b(Z", b"\x1b",
          b"\x1b$", b"\x0e", b"\x0f", b"\r\n", b"\n", b"F|", b"0!", b"<:", b"!!", b")!", b"B3", b"1",
          b"a", b" ", b"\x80", b"\xa4\xa2", b"~", b"~{", b"~}", b"~~", b"~\n", b"`"]
near_iso2022 = st.one_of(st.binary(max_size=40),
                         st.lists(st.sampled_from(PIECES), max_size=16).map(b"".join))


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(LABELS), near_iso2022)
def test_never_raises_issues_in_bounds(label, data):
    cs = for_label(label)
    issues = []
    text = cs.decode(data, issues)
    for i in issues:
        assert 0 <= i.offset and 0 < i.length and i.offset + i.length <= len(data), i
    assert text.count("\ufffd") == sum(1 for i in issues if not i.kind.is_ambiguous)
    assert cs.decode(data) == text
    assert data.decode(f"onemail-{label}", "replace") == text


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(LABELS), near_iso2022, st.lists(st.integers(0, 60), max_size=5))
def test_chunked_equals_one_shot(label, data, cuts):
    cs = for_label(label)
    whole = []
    expected = cs.decode(data, whole)
    dec = cs.new_decoder()
    got, issues, prev = [], [], 0
    for b in [*sorted({min(c, len(data)) for c in cuts}), len(data)]:
        got.append(dec.decode(data[prev:b], issues=issues))
        prev = b
    got.append(dec.decode(b"", final=True, issues=issues))
    assert "".join(got) == expected
    assert issues == whole


def test_byte_by_byte_equals_one_shot():
    for label in LABELS:
        cs = for_label(label)
        data = b"".join(PIECES) * 2
        whole = []
        expected = cs.decode(data, whole)
        dec = cs.new_decoder()
        issues = []
        got = [dec.decode(data[i:i + 1], issues=issues) for i in range(len(data))]
        got.append(dec.decode(b"", final=True, issues=issues))
        assert "".join(got) == expected, label
        assert issues == whole, label


# Characters every ISO-2022-JP variant's encoder (CPython) and decoder (onemail) share.
_JA = ("あいうえおかきくけこをんアイウエオヴー日本語漢字東京大阪、。「」・"
       "ＡＢＣ０１２ａｂｃ αβγ АБВ abcXYZ 0123 .,:;!?()")


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(LABELS[:7]), st.text(alphabet=_JA, max_size=30))
def test_jp_encode_decode_round_trip(label, text):
    cs = for_label(label)
    issues = []
    data = cs.encode(text, issues)
    assert issues == []
    found = []
    assert cs.decode(data, found) == text
    assert found == []


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="己所不欲勿施於人中文，。 abc~{}", max_size=30))
def test_hz_encode_decode_round_trip(text):
    cs = for_label("hz-gb-2312")
    data = cs.encode(text)
    found = []
    assert cs.decode(data, found) == text
    assert found == []


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="가나다라마바사한국어 abc\r\n", max_size=30))
def test_kr_encode_decode_round_trip(text):
    cs = for_label("iso-2022-kr")
    data = cs.encode(text)
    found = []
    assert cs.decode(data, found) == text
    assert found == []
