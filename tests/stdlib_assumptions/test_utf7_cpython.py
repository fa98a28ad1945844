"""Pin the CPython fact onemail's UTF-7 fast path relies on (onemail.text.utf7 "Speed").

When CPython's ``utf-7`` codec decodes ``data`` in strict mode without raising, the result has no
surrogate code point and ``data`` does not end with ``+``, onemail's reference decoder gives the
same text and no issue.
"""

from __future__ import annotations

import itertools
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from onemail.text import utf7

_SURROGATE = re.compile("[\ud800-\udfff]")
PIECES = [b"+", b"-", b"A", b"AGE", b"2D", b"3g", b"2D3eAA", b"+AOk", b"/", b" ", b"\x80", b"a",
          b"9", b"+-", b"+2D0", b"3gA", b"AGF", b"~", b"\\", b"Q", b"w", b"\x00", b"\r\n", b"!"]


def _fast_path_applies(data: bytes) -> str | None:
    try:
        text = data.decode("utf-7")
    except UnicodeDecodeError:
        return None
    if data.endswith(b"+") or _SURROGATE.search(text):
        return None
    return text


def _reference(data: bytes):
    issues = []
    text = utf7._decode_chunk(data, issues, 0, True, None)[0]
    return text, issues


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=12).map(b"".join))
def test_cpython_strict_agrees_with_reference(data):
    text = _fast_path_applies(data)
    if text is not None:
        assert _reference(data) == (text, [])


def test_cpython_strict_agrees_on_all_short_inputs():
    checked = 0
    for length in range(1, 6):
        for tup in itertools.product(b"+-A/Qw 9", repeat=length):
            data = bytes(tup)
            text = _fast_path_applies(data)
            if text is not None:
                assert _reference(data) == (text, []), data
                checked += 1
    assert checked > 2000


def test_cpython_exceptions_that_the_fast_path_checks():
    assert b"+3gA-".decode("utf-7") == "\ude00"  # a lone surrogate is returned
    assert b"a+".decode("utf-7") == "a"  # a final "+" is dropped
