"""Issue 16: RFC 2231 parameters of hostile values in bounded memory, offsets exact.

Issues are made and mapped a batch at a time (``IssueSpill``, ``SpanLocator``); ``max_issues``
keeps the first N issues of each parameter and one ``TooManyIssues`` spanning the rest
(``DecodedParameter.dropped``). Each case: exact values, bounded and not.
"""

from __future__ import annotations

import pytest

from onemail.text import IssueKind, TextIssue
from onemail.text._header import SPILL
from onemail.text.rfc2231 import ParameterCollector, parse_header_params

K = IssueKind
FFFD = "\ufffd"


def test_extended_value_of_bad_bytes_all_and_bounded():
    value = b"attachment; filename*=utf-8''" + b"%FF" * 9000
    main, (p,) = parse_header_params(value)
    assert (main, p.name, p.value, p.charset, p.method, p.dropped) == (
        "attachment", "filename", FFFD * 9000, "utf-8", "extended", 0)
    # each %FF is one byte, one U+FFFD, the three characters of its escape
    assert p.issues == tuple(TextIssue(K.INVALID_UTF8, 29 + 3 * k, 3) for k in range(9000))
    _, (q,) = parse_header_params(value, max_issues=100)
    assert q.value == p.value and q.dropped == 8900
    assert q.issues == p.issues[:100] + (TextIssue(K.TOO_MANY_ISSUES, 329, 27029 - 329),)


def test_bounded_through_a_fold_and_an_offset():
    value = b"attachment;\r\n filename*=utf-8''" + b"%FF" * 9000
    _, (p,) = parse_header_params(value, max_issues=3, offset=100)
    # the first %FF is at 31 of the folded value (the fold stays in the offsets)
    assert p.issues == (TextIssue(K.INVALID_UTF8, 131, 3), TextIssue(K.INVALID_UTF8, 134, 3),
                        TextIssue(K.INVALID_UTF8, 137, 3), TextIssue(K.TOO_MANY_ISSUES, 140, 26991))
    assert p.dropped == 8997


def test_sections_in_reverse_order_bounded():
    # section 1 is written first: the bad bytes of section 0 come first in the decoded bytes
    value = b"a; f*1*=%FF%FF; f*0*=utf-8''%FF%FF"
    _, (p,) = parse_header_params(value)
    assert p.value == FFFD * 4
    assert p.issues == (TextIssue(K.INVALID_UTF8, 28, 3), TextIssue(K.INVALID_UTF8, 31, 3),
                        TextIssue(K.INVALID_UTF8, 8, 3), TextIssue(K.INVALID_UTF8, 11, 3))
    _, (q,) = parse_header_params(value, max_issues=2)
    assert q.issues == p.issues[:2] + (TextIssue(K.TOO_MANY_ISSUES, 8, 6),) and q.dropped == 2


def test_many_junk_parameters_reach_the_list_in_order():
    issues: list[TextIssue] = []
    main, params = parse_header_params(b"a; " + b"x; " * 5000 + b"n=1", issues=issues, offset=2)
    assert main == "a" and [(p.name, p.value) for p in params] == [("n", "1")]
    assert issues == [TextIssue(K.MALFORMED_PARAMETER, 5 + 3 * k, 1) for k in range(5000)]


def test_encoded_word_in_a_quoted_value_with_more_issues_than_a_batch():
    # T55: its issue comes first, before the word's; more issues than one batch (decoded twice)
    n = SPILL + 1000
    value = b'a; filename="=?utf-8?q?' + b"=FF" * n + b'?="'
    _, (p,) = parse_header_params(value)
    length = 12 + 3 * n
    assert (p.value, p.method, p.charset) == (FFFD * n, "encoded-word", None)
    assert p.issues == (TextIssue(K.AMBIGUOUS_ENCODED_WORD_IN_QUOTED_STRING, 13, length),
                        TextIssue(K.ENCODED_WORD_TOO_LONG, 13, length),
                        *(TextIssue(K.INVALID_UTF8, 23 + 3 * k, 3) for k in range(n)))


def test_raw_8bit_value_with_an_encoded_word_reports_the_fallback():
    _, (p,) = parse_header_params(b'a; n="=?x?y?z \xe9"')  # no word decoded, 8-bit not UTF-8
    assert (p.value, p.charset, p.method) == ("=?x?y?z é", "windows-1252", "plain")
    assert p.issues == (TextIssue(K.MALFORMED_ENCODED_WORD, 6, 6),
                        TextIssue(K.AMBIGUOUS_RAW_8BIT, 14, 1))


def test_max_issues_checked():
    with pytest.raises(TypeError, match="max_issues"):
        ParameterCollector(max_issues="3")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_issues"):
        parse_header_params(b"a; b=c", max_issues=-1)
    _, (p,) = parse_header_params(b"a; n*=utf-8''%FF", max_issues=0)
    assert p.issues == (TextIssue(K.TOO_MANY_ISSUES, 13, 3),) and p.dropped == 1
