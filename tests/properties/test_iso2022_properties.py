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


# Characters the encoders handle specially or that decoders treat specially: the framing
# controls (T82), line ends (T35), "~" (HZ), JIS X 0201 Roman's two, and a few letters of each
# set; with T40's six characters left out (they read back as their full-width forms).
_TEXT_CHARS = ("\x1b\x0e\x0f\r\n~\\ a-z0-9日本語가나다己所不欲ｱｲé¥‾\u00e0\u0391\u3042\u30a2")
_T40 = set("\u00a2\u00a3\u00ac\u2016\u2212\u301c")


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["iso-2022-jp", "iso-2022-jp-1", "iso-2022-jp-2", "cp50220", "cp50221",
                        "cp50222", "iso-2022-kr", "hz-gb-2312"]),
       st.text(alphabet=st.sampled_from(list(_TEXT_CHARS)) | st.characters(max_codepoint=0x3000),
               max_size=30))
def test_encode_round_trip(label, text):
    """T82: every character is written so that it reads back, or is ``?`` with ``Unencodable``."""
    text = "".join(c for c in text if c not in _T40 and not "\ud800" <= c <= "\udfff")
    cs = for_label(label)
    issues = []
    data = cs.encode(text, issues)
    assert data.isascii()
    bad = [i.offset for i in issues]
    assert all(i.length == 1 and i.kind.value == "Unencodable" for i in issues)
    assert bad == sorted(set(bad))
    expected = "".join("?" if k in bad else c for k, c in enumerate(text))
    found = []
    assert cs.decode(data, found) == expected
    assert found == []
