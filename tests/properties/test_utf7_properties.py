"""UTF-7 and IMAP UTF-7 properties: round trips, never raises, issues in bounds, chunking."""

from __future__ import annotations

import codecs

from hypothesis import given, settings
from hypothesis import strategies as st

from onemail.text import for_label, utf7

UTF7 = for_label("utf-7")

# Bytes near UTF-7 / IMAP syntax: shifts, base64 pieces that make surrogates and pad bits.
PIECES = [b"+", b"-", b"&", b"A", b"AGE", b"2D", b"3g", b"2D3eAA", b"+AOk", b"&AOk", b"/", b",",
          b" ", b"\x80", b"\xff", b"\r\n", b"a", b"9", b"+-", b"&-"]
near_utf7 = st.one_of(st.binary(max_size=40),
                      st.lists(st.sampled_from(PIECES), max_size=20).map(b"".join))


def _check_bounds(data, issues):
    for i in issues:
        assert 0 <= i.offset and i.length >= 0 and i.offset + i.length <= len(data), i


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_utf7_round_trip(text):
    issues = []
    encoded = UTF7.encode(text, issues)
    assert issues == []
    assert max(encoded, default=0) < 0x80
    found = []
    assert UTF7.decode(encoded, found) == text
    assert found == []


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_imap_round_trip(text):
    encoded = utf7.encode_imap(text)
    assert all(0x20 <= b <= 0x7E for b in encoded)
    found = []
    assert utf7.decode_imap(encoded, issues=found) == text
    assert found == []


@settings(max_examples=300, deadline=None)
@given(near_utf7)
def test_utf7_never_raises_and_reports_in_bounds(data):
    issues = []
    text = UTF7.decode(data, issues)
    _check_bounds(data, issues)
    assert all(i.length > 0 for i in issues)
    assert UTF7.decode(data) == text
    assert data.decode("onemail-utf-7", "replace") == text


@settings(max_examples=300, deadline=None)
@given(near_utf7)
def test_imap_never_raises_and_reports_in_bounds(data):
    issues = []
    text = utf7.decode_imap(data, issues=issues)
    _check_bounds(data, issues)
    assert utf7.decode_imap(data) == text
    assert data.decode("onemail-imap-utf-7", "replace") == text


@settings(max_examples=200, deadline=None)
@given(near_utf7, st.lists(st.integers(0, 60), max_size=5))
def test_utf7_chunked_equals_one_shot(data, cuts):
    whole = []
    expected = UTF7.decode(data, whole)
    bounds = sorted({min(c, len(data)) for c in cuts})
    dec = UTF7.new_decoder()
    got, issues, prev = [], [], 0
    for b in [*bounds, len(data)]:
        got.append(dec.decode(data[prev:b], final=False, issues=issues))
        prev = b
    got.append(dec.decode(b"", final=True, issues=issues))
    assert "".join(got) == expected
    assert issues == whole


def test_utf7_chunked_at_every_split_of_long_runs():
    data = ("\u65e5\u672c\U0001f600" * 7 + "x").encode("utf-7") + b"+2D0-+AGF"
    whole = []
    expected = UTF7.decode(data, whole)
    for cut in range(len(data) + 1):
        for step in (1, 3):
            dec = UTF7.new_decoder()
            issues = []
            parts = [dec.decode(data[:cut], issues=issues)]
            parts += [dec.decode(data[i:i + step], issues=issues) for i in range(cut, len(data), step)]
            parts.append(dec.decode(b"", final=True, issues=issues))
            assert "".join(parts) == expected, (cut, step)
            assert issues == whole


def test_python_incremental_decoder_packs_state_into_int():
    dec = codecs.getincrementaldecoder("onemail-utf-7")("replace")
    assert dec.decode(b"x+AGEAYgBjAG") == "xabc"  # eight characters consumed, "AG" held
    pending, state = dec.getstate()
    assert pending == b"AG" and isinstance(state, int) and state > 0
    assert dec.decode(b"Q-y", final=True) == "dy"
    assert dec.decode(b"+AGEAYtg9") == "ab"  # U+D83D waits in the state
    assert dec.getstate() == (b"", 3 | (0x3D << 2))
    assert dec.decode(b"3gA-", final=True) == "\U0001f600"
    dec.reset()
    assert dec.getstate() == (b"", 0)
