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
            out.append(dec.decode(raw[last:cut], False, issues=issues))
            last = cut
        out.append(dec.decode(b"", True, issues=issues))
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
