""":class:`onemail.text.issues.BoundedIssues`: runs merge, the list is bounded, offsets exact
(issue 16 item 4; ADR 0016)."""

from __future__ import annotations

import copy
import pickle

import pytest

from onemail.text import for_label
from onemail.text.issues import MAX_ISSUES, BoundedIssues, IssueKind, TextIssue

K = IssueKind
U8 = K.INVALID_UTF8
SJ = K.INVALID_SHIFT_JIS
TOO_MANY = K.TOO_MANY_ISSUES


def T(kind, offset, length):  # noqa: N802 - reads like the class
    return TextIssue(kind, offset, length)


def test_a_run_of_one_kind_is_one_issue():
    b = BoundedIssues()
    b.extend([T(U8, 3, 1), T(U8, 4, 2), T(U8, 6, 1), T(U8, 8, 1)])
    assert b == [T(U8, 3, 4), T(U8, 8, 1)] and b.dropped == 0


def test_runs_are_per_kind_even_when_kinds_interleave():
    b = BoundedIssues()
    b.extend([T(U8, 0, 1), T(K.INVALID_BASE64, 1, 1), T(U8, 1, 1), T(K.INVALID_BASE64, 2, 3)])
    assert b == [T(U8, 0, 2), T(K.INVALID_BASE64, 1, 4)]


def test_a_zero_length_issue_is_a_position_and_ends_its_kind_run():
    b = BoundedIssues()
    b.extend([T(U8, 0, 1), T(U8, 1, 0), T(U8, 1, 1), T(U8, 2, 0), T(U8, 2, 0)])
    assert b == [T(U8, 0, 1), T(U8, 1, 0), T(U8, 1, 1), T(U8, 2, 0), T(U8, 2, 0)]


def test_the_bound_and_the_final_issue():
    b = BoundedIssues(limit=3)
    b.extend(T(U8, 10 * i, 2) for i in range(10))  # ten separate issues
    assert b[:3] == [T(U8, 0, 2), T(U8, 10, 2), T(U8, 20, 2)]
    assert b[3] == T(TOO_MANY, 30, 62)  # from 30 to the end of the last one, 92
    assert len(b) == 4 and b.dropped == 7


def test_a_kept_run_keeps_growing_after_the_bound_and_a_dropped_run_counts_once():
    b = BoundedIssues(limit=2)
    b.extend([T(U8, 0, 1), T(SJ, 5, 1), T(U8, 1, 1), T(U8, 9, 1), T(U8, 10, 1), T(U8, 11, 3)])
    assert b == [T(U8, 0, 2), T(SJ, 5, 1), T(TOO_MANY, 9, 5)]
    assert b.dropped == 1  # 9..14 is one run
    b.append(T(U8, 2, 1))  # not where the kind's last issue (the dropped run) ended
    assert b == [T(U8, 0, 2), T(SJ, 5, 1), T(TOO_MANY, 2, 12)] and b.dropped == 2


def test_dropped_issues_out_of_order_widen_the_span_both_ways():
    b = BoundedIssues(limit=1)
    b.extend([T(U8, 50, 1), T(U8, 70, 2), T(U8, 20, 1), T(K.INVALID_BASE64, 90, 0)])
    assert b == [T(U8, 50, 1), T(TOO_MANY, 20, 70)] and b.dropped == 3


def test_limit_zero_keeps_only_the_count():
    b = BoundedIssues(limit=0)
    b.append(T(U8, 4, 1))
    b.append(T(U8, 5, 1))
    assert b == [T(TOO_MANY, 4, 2)] and b.dropped == 1


def test_add_run_and_add_runs_are_append():
    a, b, c = BoundedIssues(limit=2), BoundedIssues(limit=2), BoundedIssues(limit=2)
    runs = [(0, 3), (3, 1), (7, 1), (9, 2), (11, 1), (20, 1)]
    for o, n in runs:
        a.append(T(U8, o, n))
        b.add_run(U8, o, n)
    c.add_runs(U8, runs)
    assert a == b == c == [T(U8, 0, 4), T(U8, 7, 1), T(TOO_MANY, 9, 12)]
    assert a.dropped == b.dropped == c.dropped == 2


def test_plus_equals_and_clear():
    b = BoundedIssues(limit=1)
    b += [T(U8, 0, 1), T(U8, 5, 1)]
    assert b == [T(U8, 0, 1), T(TOO_MANY, 5, 1)]
    b.clear()
    assert b == [] and b.dropped == 0
    b.append(T(U8, 1, 1))  # no run from before the clear
    assert b == [T(U8, 1, 1)]


def test_it_only_grows():
    b = BoundedIssues()
    b.append(T(U8, 0, 1))
    for call in (lambda: b.insert(0, T(U8, 1, 1)), b.pop, lambda: b.remove(b[0]), b.sort,
                 b.reverse, lambda: b.__setitem__(0, T(U8, 1, 1)), lambda: b.__delitem__(0)):
        with pytest.raises(TypeError, match="only grows"):
            call()
    with pytest.raises(TypeError):
        b *= 2
    assert b == [T(U8, 0, 1)]


def test_copies_and_pickles_are_plain_lists():
    b = BoundedIssues(limit=1)
    b.extend([T(U8, 0, 1), T(U8, 3, 1)])
    for other in (copy.copy(b), pickle.loads(pickle.dumps(b)), list(b), b.copy()):
        assert type(other) is list and other == [T(U8, 0, 1), T(TOO_MANY, 3, 1)]


def test_arguments():
    assert BoundedIssues().limit == MAX_ISSUES == 100
    with pytest.raises(TypeError, match="limit must be an int"):
        BoundedIssues(limit=2.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="limit must be >= 0"):
        BoundedIssues(limit=-1)


# ----------------------------------------------------------- the decoders and the bound


def test_ten_megabytes_of_invalid_shift_jis_is_one_issue():
    """Issue 16: 10 MB of invalid Shift_JIS gave 10 million issues and 2.3 GB."""
    data = b"\xff" * 10_000_000
    issues = BoundedIssues()
    text = for_label("shift_jis").decode(data, issues)
    assert text == "\ufffd" * 10_000_000
    assert issues == [T(SJ, 0, 10_000_000)] and issues.dropped == 0


def test_ten_megabytes_of_0xff_declared_utf_8_is_one_issue():
    issues = BoundedIssues()
    assert for_label("utf-8").decode(b"ab" + b"\xff" * 10_000_000, issues, 7) == "ab" + "\ufffd" * 10_000_000
    assert issues == [T(U8, 9, 10_000_000)]


def test_dense_separate_damage_is_bounded_with_the_exact_count():
    data = b"\x81 " * 1000  # a Shift_JIS lead before a space: 1000 errors of 1 byte, apart
    issues = BoundedIssues()
    assert for_label("shift_jis").decode(data, issues) == "\ufffd " * 1000
    assert issues[:MAX_ISSUES] == [T(SJ, 2 * i, 1) for i in range(MAX_ISSUES)]
    assert issues[MAX_ISSUES] == T(TOO_MANY, 2 * MAX_ISSUES, 2 * 1000 - 2 * MAX_ISSUES - 1)
    assert len(issues) == MAX_ISSUES + 1 and issues.dropped == 900


@pytest.mark.parametrize(("label", "unit", "kind", "width"), [
    ("windows-1253", b"\xaa", K.INVALID_SINGLE_BYTE, 1),
    ("utf-16le", b"\x00\xdc", K.INVALID_UTF16, 2),
    ("utf-16be", b"\xdc\x00", K.INVALID_UTF16, 2),
    ("utf-32le", b"\xff\xff\xff\xff", K.INVALID_UTF32, 4),
    ("utf-32be", b"\x00\x11\x00\x00", K.INVALID_UTF32, 4),
    ("gb18030", b"\xff", K.INVALID_GB18030, 1),
    ("big5", b"\xff", K.INVALID_BIG5, 1),
    ("euc-jp", b"\xff", K.INVALID_EUC_JP, 1),
    ("euc-kr", b"\xff", K.INVALID_EUC_KR, 1),
    ("shift_jis", b"\xa0", SJ, 1),
])
def test_100_kb_of_one_invalid_unit_is_one_issue_or_one_per_unit(label, unit, kind, width):
    n = 100_000 // width
    cs = for_label(label)
    a = cs.encode("a")
    data = a + unit * n + cs.encode("b")
    bounded: BoundedIssues = BoundedIssues()
    plain: list = []
    text = cs.decode(data, plain)
    assert text == "a" + "\ufffd" * n + "b"
    assert cs.decode(data, bounded) == text
    w = len(a)
    assert plain == [T(kind, w + k * width, width) for k in range(n)]  # spec 000: one per error
    assert bounded == [T(kind, w, n * width)]


def test_extend_with_a_bounded_list_keeps_its_dropped_count_and_span():
    """The message layer decodes a body on trial into its own BoundedIssues and keeps it."""
    from onemail.text import IssueKind, TextIssue
    from onemail.text.issues import BoundedIssues

    trial = BoundedIssues(limit=2)
    trial.extend(TextIssue(IssueKind.INVALID_UTF8, k * 2, 1) for k in range(5))
    assert (len(trial), trial.dropped) == (3, 3)
    kept = BoundedIssues(limit=2)
    kept.extend(trial)
    assert [(i.kind, i.offset, i.length) for i in kept] == [
        (IssueKind.INVALID_UTF8, 0, 1), (IssueKind.INVALID_UTF8, 2, 1), (IssueKind.TOO_MANY_ISSUES, 4, 5)]
    assert kept.dropped == 3
