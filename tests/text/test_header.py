"""The helpers RFC 2047 and RFC 2231 share (``onemail.text._header``): one case per rule."""

from __future__ import annotations

import pytest

from onemail.text import IssueKind, TextIssue, for_label
from onemail.text._header import (
    FOLD,
    SPILL,
    IssueSpill,
    SpanLocator,
    char_units,
    close_run,
    decode_ascii,
    decode_bytes,
    escape_spans,
    map_issues,
    stateful_chunks,
    unfold,
    unfold_fast,
    value_bytes,
)

K = IssueKind


def test_unfold_maps_offsets_back():
    data = b"ab\r\n cd\n\tef"
    unfolded, folds = unfold(data)
    assert unfolded == b"ab cd\tef" == unfold_fast(data) == FOLD.sub(b"", data)
    # "d" is at 4 unfolded, 6 folded; a span over the fold covers it
    assert folds.issues([TextIssue(K.INVALID_UTF8, 4, 1), TextIssue(K.INVALID_UTF8, 1, 4)]) == [
        TextIssue(K.INVALID_UTF8, 6, 1), TextIssue(K.INVALID_UTF8, 1, 6)]
    assert unfold(b"no folds") == (b"no folds", None)


def test_value_bytes_modes_and_errors():
    assert value_bytes(b"a", "v") == (b"a", 0)
    assert value_bytes("é", "v") == (b"\xc3\xa9", 1)
    assert value_bytes("\udce9", "v") == (b"\xe9", 1)
    assert value_bytes("\ud800", "v") == (b"\xed\xa0\x80", 2)
    with pytest.raises(TypeError, match="v must be"):
        value_bytes(1, "v")


def test_decode_bytes_rules():
    found: list[TextIssue] = []
    assert decode_bytes(b"caf\xc3\xa9", for_label("us-ascii"), True, found)[0] == "café"
    assert found == [TextIssue(K.AMBIGUOUS_ASCII_LABELLED_UTF8, 3, 2)]
    found = []
    text, cs = decode_bytes(b"caf\xe9", for_label("us-ascii"), True, found)
    assert (text, cs.name, found) == ("café", "windows-1252", [])
    text, cs = decode_bytes(b"x", None, False, found)
    assert (text, found) == ("x", [TextIssue(K.AMBIGUOUS_UNKNOWN_CHARSET, 0, 1)])


def test_decode_ascii_raw_iso_2022_jp():
    found: list[TextIssue] = []
    assert decode_ascii(b"a \x1b$BF|\x1b(B b", found, 10) == ("a 日 b", True)
    assert found == [TextIssue(K.AMBIGUOUS_RAW_ISO2022, 12, 8)]
    assert decode_ascii(b"a\x1b(Jb", found, 0) == ("a\x1b(Jb", False)


def test_map_issues_covers_both_ends_and_past_the_end():
    # three decoded bytes from "%41", "b" and "%43" at 0, 3, 4 (source coordinates)
    spans = list(escape_spans(b"%41b%43", 0, 7, 0x25))
    assert spans == [(None, 0, 3), (None, 3, 4), (None, 4, 7)]
    local = [TextIssue(K.INVALID_UTF8, 0, 2), TextIssue(K.INVALID_UTF8, 2, 0), TextIssue(K.INVALID_UTF8, 5, 1)]
    locate = SpanLocator(lambda: iter(spans), lambda key, s, e: (s, e))
    assert map_issues(local, locate, 3, 99) == [
        TextIssue(K.INVALID_UTF8, 0, 4), TextIssue(K.INVALID_UTF8, 4, 0), TextIssue(K.INVALID_UTF8, 7, 0)]
    assert map_issues([TextIssue(K.INVALID_UTF8, 0, 0)], SpanLocator(lambda: iter([]), None), 0, 99) == [
        TextIssue(K.INVALID_UTF8, 99, 0)]


def test_span_locator_goes_on_in_order_and_starts_again_for_an_earlier_byte():
    made = []

    def spans():
        made.append(1)
        return ((None, 10 * k, 10 * k + 3) for k in range(100))

    locate = SpanLocator(spans, lambda key, s, e: (s, e))
    assert locate([1, 5]) == {1: (10, 13), 5: (50, 53)}
    assert locate([6, 99]) == {6: (60, 63), 99: (990, 993)}  # went on: one walk
    assert len(made) == 1
    assert locate([5]) == {5: (50, 53)}  # an earlier byte: from the start again
    assert len(made) == 2


def test_issue_spill_hands_on_batches_in_order():
    batches: list[list[TextIssue]] = []
    spill = IssueSpill(batches.append)
    issues = [TextIssue(K.INVALID_UTF8, k, 1) for k in range(2 * SPILL + 5)]
    spill.append(issues[0])
    spill.extend(issues[1:3])
    spill.extend(iter(issues[3:]))
    assert [len(b) for b in batches] == [SPILL, SPILL] and len(spill) == 5
    spill.spill()
    assert [i for b in batches for i in b] == issues and not spill
    spill.spill()  # nothing held: nothing handed on
    assert len(batches) == 3


def test_char_units_keep_surrogate_pairs():
    assert char_units("a\ud83d\ude00b\ud800") == ["a", "\ud83d\ude00", "b", "\ud800"]


def test_stateful_chunks_are_each_closed():
    cs = for_label("utf-7")
    assert close_run(cs, b"+AOk") == b"+AOk-"
    assert close_run(cs, b"a+-b") == b"a+-b"
    pieces = stateful_chunks(list("éaé"), cs, len, 6)
    assert pieces == [b"+AOk-a", b"+AOk-"]
    assert cs.decode(b"".join(pieces)) == "éaé"
