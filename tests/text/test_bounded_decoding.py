"""Issue 16: decoding into a ``BoundedIssues`` keeps the family's own memory to one chunk.

The families whose one-shot decoding holds one record or issue per error before reporting (the
CJK handler pass, ISO-2022, HZ, UTF-7, Johab) decode an accumulator's input in chunks of
``BOUNDED_CHUNK`` bytes (``_codecs.decode_bounded``); runs of one-byte errors reach a merging
accumulator as one issue. Each case: the exact text and issues, which are also what a plain list
fed to a ``BoundedIssues`` gives (the ADR 0016 contract).
"""

from __future__ import annotations

import pytest

from onemail.text import IssueKind, TextIssue, for_label
from onemail.text._codecs import BOUNDED_CHUNK
from onemail.text.issues import BoundedIssues

K = IssueKind
FFFD = "\ufffd"


def _both(label: str, data: bytes, offset: int = 0):
    """(text, bounded issues, dropped), checked against a plain list fed to a BoundedIssues."""
    cs = for_label(label)
    plain: list[TextIssue] = []
    text = cs.decode(data, plain, offset)
    expected = BoundedIssues()
    expected.extend(plain)
    got = BoundedIssues()
    assert cs.decode(data, got, offset) == text
    assert list(got) == list(expected) and got.dropped == expected.dropped
    assert cs.decode(data, None, offset) == text
    return text, [(i.kind, i.offset, i.length) for i in got], got.dropped


@pytest.mark.parametrize(("label", "kind"), [
    ("shift_jis", K.INVALID_SHIFT_JIS), ("euc-kr", K.INVALID_EUC_KR), ("johab", K.INVALID_JOHAB),
])
def test_lead_byte_before_ascii_many_chunks(label, kind):
    # 81 20 (84 20 in Johab): the lead is an error, the space stays; 40,000 errors
    unit = b"\x84\x20" if label == "johab" else b"\x81\x20"
    text, issues, dropped = _both(label, unit * 40_000)
    assert text == (FFFD + " ") * 40_000
    assert issues == [(kind, 2 * k, 1) for k in range(100)] + [(K.TOO_MANY_ISSUES, 200, 79_799)]
    assert dropped == 39_900


def test_iso_2022_jp_high_bytes_are_one_run_in_ascii_and_two_byte_mode():
    assert _both("iso-2022-jp", b"\xff" * 70_000) == (FFFD * 70_000, [(K.INVALID_ISO2022, 0, 70_000)], 0)
    data = b"\x1b$B" + b"\xff" * 70_000 + b"\x1b(B"
    assert _both("iso-2022-jp", data) == (FFFD * 70_000, [(K.INVALID_ISO2022, 3, 70_000)], 0)
    plain: list[TextIssue] = []
    for_label("iso-2022-jp").decode(data, plain)
    assert plain[:2] == [TextIssue(K.INVALID_ISO2022, 3, 1), TextIssue(K.INVALID_ISO2022, 4, 1)]
    assert len(plain) == 70_000


def test_hz_high_bytes_in_gb_mode():
    assert _both("hz-gb-2312", b"~{" + b"\xff" * 70_000) == (
        FFFD * 70_000, [(K.INVALID_ISO2022, 2, 70_000)], 0)


def test_utf7_high_bytes_and_short_runs():
    assert _both("utf-7", b"\xff" * 70_000, 5) == (FFFD * 70_000, [(K.INVALID_UTF7, 5, 70_000)], 0)
    # "+A-": six bits, no character, bad leftover bits (the "A")
    text, issues, dropped = _both("utf-7", b"+A-" * 30_000)
    assert text == FFFD * 30_000
    assert issues == [(K.INVALID_UTF7, 1 + 3 * k, 1) for k in range(100)] + [
        (K.TOO_MANY_ISSUES, 301, 89_698)]
    assert dropped == 29_900


@pytest.mark.parametrize("label", ["shift_jis", "gb18030", "big5", "euc-jp", "euc-kr", "johab",
                                   "iso-2022-jp", "iso-2022-kr", "hz-gb-2312", "utf-7"])
def test_an_accumulator_gets_the_input_in_chunks(label, monkeypatch):
    cs = for_label(label)
    codec = cs._codec
    seen: list[int] = []
    real = type(codec).decode_chunk

    def spy(self, data, issues, offset, final, state):
        seen.append(len(data))
        return real(self, data, issues, offset, final, state)

    monkeypatch.setattr(type(codec), "decode_chunk", spy)
    # damage in every family, 140,000 bytes; more error records than the CJK families keep in
    # one piece (they try one piece first: runs of lone error bytes are one record each)
    data = b"\x81\x20\xff~{+A" * 20_000 if label in ("iso-2022-jp", "iso-2022-kr", "hz-gb-2312", "utf-7") \
        else b"\x81\x20" * 70_000
    plain: list[TextIssue] = []
    text = cs.decode(data, plain)  # a plain list: one piece (whatever the family does inside)
    seen.clear()
    got = BoundedIssues()
    assert cs.decode(data, got) == text
    assert len(seen) >= len(data) // BOUNDED_CHUNK and max(seen) <= BOUNDED_CHUNK + 16
    expected = BoundedIssues()
    expected.extend(plain)
    assert list(got) == list(expected) and got.dropped == expected.dropped


@pytest.mark.parametrize("label", ["shift_jis", "gb18030", "big5", "euc-jp", "euc-kr"])
def test_cjk_runs_of_lone_error_bytes_decode_in_one_piece(label, monkeypatch):
    """0xFF is a lone error byte in every CJK family: 200,000 of them are one record, so the
    input is decoded in one piece (its text is not joined from chunks)."""
    cs = for_label(label)
    calls: list[int] = []
    real = type(cs._codec).decode_chunk

    def spy(self, data, issues, offset, final, state):
        calls.append(len(data))
        return real(self, data, issues, offset, final, state)

    monkeypatch.setattr(type(cs._codec), "decode_chunk", spy)
    got = BoundedIssues()
    assert cs.decode(b"a" + b"\xff" * 200_000, got) == "a" + FFFD * 200_000
    assert calls == [] and [(i.kind, i.offset, i.length) for i in got] == [(cs._codec.invalid_kind, 1, 200_000)]

