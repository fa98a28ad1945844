"""Properties of :class:`BoundedIssues` (ADR 0016): what the decoders give it is exactly what
appending each issue of a plain list gives, for every charset, one-shot and streaming; and the
class matches a plain model of its rules on any sequence of issues."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import any_bytes, split_points

from onemail.text import charsets
from onemail.text.issues import BoundedIssues, IssueKind, TextIssue

CHARSETS = charsets.known_charsets()
SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Dense damage: runs of bytes no charset maps, lone surrogates, leads before ASCII.
_RUNS = [b"\xff" * 40, b"\xa0" * 20, b"\x80" * 17, b"\x00\xdc" * 9, b"\xdc\x00" * 9,
         b"\xff\xff\xff\xff" * 5, b"\x81 " * 9, b"\xef\xbf\xbd", b"+//0-", b"\x84\x31\xa4\x37"]


def damaged(cs):
    return st.lists(st.one_of(any_bytes(cs, 40), st.sampled_from(_RUNS)), max_size=6).map(b"".join)


def _fed(issues, limit):
    b = BoundedIssues(limit=limit)
    for i in issues:
        b.append(i)
    return b


@pytest.mark.parametrize("cs", CHARSETS, ids=lambda cs: cs.key)
@SETTINGS
@given(data=st.data(), limit=st.integers(0, 6))
def test_decoding_into_bounded_issues_equals_feeding_the_plain_issues(cs, data, limit):
    raw = data.draw(damaged(cs))
    plain: list = []
    text = cs.decode(raw, plain, 3)
    bounded = BoundedIssues(limit=limit)
    assert cs.decode(raw, bounded, 3) == text
    want = _fed(plain, limit)
    assert bounded == want and bounded.dropped == want.dropped
    assert len(bounded) <= limit + 1


@pytest.mark.parametrize("cs", CHARSETS, ids=lambda cs: cs.key)
@SETTINGS
@given(data=st.data(), limit=st.integers(0, 6))
def test_streaming_into_bounded_issues_equals_feeding_the_plain_issues(cs, data, limit):
    raw = data.draw(damaged(cs))
    cuts = data.draw(split_points(raw))
    plain: list = []
    bounded = BoundedIssues(limit=limit)
    texts = []
    for issues in (plain, bounded):
        dec = cs.new_decoder()
        last, out = 0, []
        for cut in [*cuts, len(raw)]:
            out.append(dec.decode(raw[last:cut], issues=issues))
            last = cut
        out.append(dec.decode(b"", final=True, issues=issues))
        texts.append("".join(out))
    assert texts[0] == texts[1]
    want = _fed(plain, limit)
    assert bounded == want and bounded.dropped == want.dropped


# ------------------------------------------------------------------------- the model

_KINDS = [IssueKind.INVALID_UTF8, IssueKind.INVALID_BASE64, IssueKind.MALFORMED_ENCODED_WORD]
issue_lists = st.lists(st.builds(TextIssue, st.sampled_from(_KINDS), st.integers(0, 30),
                                 st.integers(0, 3)), max_size=40)


def _model(issues, limit):
    """The rules of the docstring, written plainly: (kept issues, dropped, dropped span)."""
    kept: list[list] = []  # [kind, offset, end]
    last: dict = {}  # kind -> ("kept", index) or ("dropped", end)
    dropped, span = 0, None
    ends: dict = {}
    for i in issues:
        end = i.offset + i.length
        where = last.get(i.kind)
        if where is not None and i.length and ends[i.kind] == i.offset:
            ends[i.kind] = end
            if where[0] == "kept":
                kept[where[1]][2] = end
            else:
                span = (span[0], max(span[1], end))
            continue
        if span is None and len(kept) < limit:
            kept.append([i.kind, i.offset, end])
            where = ("kept", len(kept) - 1)
        else:
            dropped += 1
            span = (i.offset, end) if span is None else (min(span[0], i.offset), max(span[1], end))
            where = ("dropped",)
        if i.length:
            last[i.kind], ends[i.kind] = where, end
        else:
            last.pop(i.kind, None)
    out = [TextIssue(k, o, e - o) for k, o, e in kept]
    if span is not None:
        out.append(TextIssue(IssueKind.TOO_MANY_ISSUES, span[0], span[1] - span[0]))
    return out, dropped


@settings(max_examples=400, deadline=None)
@given(issues=issue_lists, limit=st.integers(0, 8), how=st.integers(0, 2))
def test_bounded_issues_follow_the_model(issues, limit, how):
    b = BoundedIssues(limit=limit)
    if how == 0:
        for i in issues:
            b.append(i)
    elif how == 1:
        b.extend(issues)
    else:
        for i in issues:
            b.add_runs(i.kind, [(i.offset, i.length)])
    assert (list(b), b.dropped) == _model(issues, limit)


# ------------------------------------------------- merging keeps offsets and lengths exact


def _bytes_of(issues, kind):
    covered: set[int] = set()
    for i in issues:
        if i.kind is kind:
            covered.update(range(i.offset, i.offset + i.length))
    return covered


@pytest.mark.parametrize("cs", CHARSETS, ids=lambda cs: cs.key)
@SETTINGS
@given(data=st.data())
def test_merged_runs_cover_exactly_the_bytes_of_their_issues(cs, data):
    """Without a bound, each merged issue starts at one of its issues and ends at another, and
    the bytes of every kind are the same as in the plain list (nothing lost, nothing added)."""
    raw = data.draw(damaged(cs))
    plain: list = []
    cs.decode(raw, plain, 3)
    bounded = BoundedIssues(limit=10**6)
    cs.decode(raw, bounded, 3)
    assert bounded.dropped == 0
    starts = {(i.kind, i.offset) for i in plain}
    ends = {(i.kind, i.offset + i.length) for i in plain}
    for i in bounded:
        assert (i.kind, i.offset) in starts and (i.kind, i.offset + i.length) in ends
    for kind in {i.kind for i in plain}:
        assert _bytes_of(bounded, kind) == _bytes_of(plain, kind)
    # and a run is only merged where its issues touch: as many issues as maximal touching runs
    runs = 0
    end: dict = {}
    for i in plain:
        if not (i.length and end.get(i.kind) == i.offset):
            runs += 1
        end[i.kind] = i.offset + i.length if i.length else None
    assert len(bounded) == runs


@settings(max_examples=300, deadline=None)
@given(issues=issue_lists, limit=st.integers(0, 8))
def test_too_many_issues_spans_exactly_what_was_dropped(issues, limit):
    b = BoundedIssues(limit=limit)
    b.extend(issues)
    kept = b[:-1] if b.dropped else list(b)
    if b.dropped:
        last = b[-1]
        assert last.kind is IssueKind.TOO_MANY_ISSUES
        # every byte of an issue is in a kept issue of its kind or in the span of the last
        for i in issues:
            inside_kept = any(k.kind is i.kind and k.offset <= i.offset and
                              i.offset + i.length <= k.offset + k.length for k in kept)
            inside_span = last.offset <= i.offset and i.offset + i.length <= last.offset + last.length
            assert inside_kept or inside_span
        assert min(i.offset for i in issues) <= last.offset
        assert last.offset + last.length <= max(i.offset + i.length for i in issues)
    assert len(kept) <= limit


# ------------------------------------- header decoders in batches and decoders in chunks

_HEADER = [b"=?", b"?=", b"=?utf-8?q?", b"=?utf-8?b?", b"=?shift_jis?b?", b"=FF", b"=C3=A9", b"_",
           b"/w==", b"gSA=", b"\xff", b"\x81 ", b"\xc3\xa9", b"\x1b$B", b" ", b"\r\n ", b"a", b'"',
           b"; ", b"filename", b"*0*", b"*1", b"=", b"utf-8''", b"''", b"%FF", b"%C3%A9", b"%", b"x-foo"]
header_values = st.lists(st.sampled_from(_HEADER), max_size=40).map(b"".join)


def _header_results(value: bytes, limit: int):
    from onemail.text.rfc2047 import decode_text
    from onemail.text.rfc2231 import parse_header_params

    plain: list = []
    text = decode_text(value, issues=plain, offset=4)
    bounded = BoundedIssues(limit=limit)
    decode_text(value, issues=bounded, offset=4)
    found: list = []
    main, params = parse_header_params(value, issues=found, offset=4)
    _, cut = parse_header_params(value, offset=4, max_issues=limit)
    return (text, plain, list(bounded), bounded.dropped, main, found,
            [(p.name, p.value, p.issues) for p in params], [(p.issues, p.dropped) for p in cut])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=header_values, spill=st.integers(1, 5), limit=st.integers(0, 4))
def test_header_issues_in_small_batches_are_the_same(value, spill, limit):
    """RFC 2047 and RFC 2231 map their issues a batch at a time (IssueSpill, SpanLocator): any
    batch size gives the same text and the same issues, exact offsets and order."""
    from unittest import mock

    from onemail.text import _header

    whole = _header_results(value, limit)
    with mock.patch.object(_header, "SPILL", spill):
        assert _header_results(value, limit) == whole
    # max_issues is the message layer's cut of the full list, per parameter
    for (_, _, full), (issues, dropped) in zip(whole[6], whole[7], strict=True):
        assert issues[:limit] == full[:limit] and dropped == max(0, len(full) - limit)


@pytest.mark.parametrize("label", ["shift_jis", "gb18030", "big5", "euc-jp", "euc-kr", "johab",
                                   "iso-2022-jp", "iso-2022-kr", "hz-gb-2312", "utf-7"])
@SETTINGS
@given(data=st.data(), chunk=st.integers(1, 9), limit=st.integers(0, 6))
def test_decoding_an_accumulator_in_small_chunks_is_the_same(label, data, chunk, limit):
    """_codecs.decode_bounded: an accumulator's input in chunks of any size gives what feeding
    the one-piece plain issues gives."""
    from unittest import mock

    from onemail.text import _codecs, utf7

    cs = charsets.for_label(label)
    raw = data.draw(damaged(cs))
    plain: list = []
    text = cs.decode(raw, plain, 2)
    want = _fed(plain, limit)
    with mock.patch.object(_codecs, "BOUNDED_CHUNK", chunk), mock.patch.object(utf7, "BOUNDED_CHUNK", chunk):
        got = BoundedIssues(limit=limit)
        assert cs.decode(raw, got, 2) == text
        assert cs.decode(raw, None, 2) == text
    assert got == want and got.dropped == want.dropped
