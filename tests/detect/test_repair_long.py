"""Repair of long text: linear time, memory near the input's (issue 16 item 5, issue 17).

``bench/bombs.py --only repair`` measures the time and peak RSS; these tests hold the exact
results of the paths a long text takes (no timing assertions)."""

from __future__ import annotations

import re

from onemail.detect import _repair, repair


def test_long_sub_equals_re_sub() -> None:
    # the joined-in-chunks substitution of a long text is re.sub's output, piece for piece
    pattern = re.compile("[\u00c3\u00c2][\x80-\xbf\u00a0-\u00bf]")
    text = "Caf\u00c3\u00a9 d\u00c3\u00a9j\u00c3\u00a0 vu, \u00c3\u00bcber. " * 20_000
    assert len(text) > _repair.COUNT_IN_ONE_CALL

    def fix(m: re.Match) -> str:
        return m.group()[::-1] if m.start() % 3 else m.group()

    assert _repair._sub(pattern, fix, text) == pattern.sub(fix, text)
    assert _repair._sub(pattern, fix, "x") == "x"


def test_lost_no_break_space_in_long_text() -> None:
    # "Ã" + space is "à" whose no-break space became a space (D13); the look at the next
    # characters ("s ", "quel") reads the text in place: a slice of the rest per run made the
    # repair of a long text quadratic
    unit = "d\u00c3\u00a9j\u00c3  vu, \u00c3 s 2, \u00c3 quelque "
    text = unit * 10_000
    out = repair(text)
    assert out.steps == (("windows-1252", "utf-8"),)
    # ("Ã" and two spaces: the no-break space was the first one)
    assert out.text == "d\u00e9j\u00e0 vu, \u00e0s 2, \u00e0quelque " * 10_000
    # the same answer as on one unit
    assert repair(unit).text * 10_000 == out.text
