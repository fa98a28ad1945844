"""Steps 3a and 3b of the CJK fast path (``_cjk.py``): units looked for in the input bytes; windows.

Each case mixes a disagreeing unit at a unit start, the same bytes inside another unit
(a false match) and agreeing units of the same character; the result must equal the
reference decoder's, with and without an issue list, whole and in chunks.
"""

from __future__ import annotations

import random

import pytest

from onemail.text import IncrementalDecoder, for_label
from onemail.text._tables.cjk_suspects import BYTE_SCAN


def _check(label: str, data: bytes) -> None:
    codec = for_label(label)._codec
    want, _ = codec.reference_decode(data, None, 0)
    issues: list = []
    assert for_label(label).decode(data, issues) == want
    assert issues == []
    dec = IncrementalDecoder(for_label(label))
    got = "".join(dec.decode(data[i:i + 7]) for i in range(0, len(data), 7)) + dec.decode(b"", final=True)
    assert got == want


BIG5 = [
    b"abc \xa2\x41 def",  # fullwidth solidus in C, U+2215 in the standard
    b"\xa1\xfe\xa2\x41\xa1\xfe",  # the agreeing unit of the same C character around it
    b"\xa4\xa2\x41\xa4\xa4",  # a2 41 inside a unit (trail a2, then 'A'): no match
    b"\xa4\xa1\xc2\xa4",  # a1 c2 straddling two units
    b"\xa1\x45\xa2\x47 \xa2\x42\xa2\x40\xa2\x42",
    b"\xa4\xa4" * 3000 + b"\xa2\x41",  # no boundary byte within the look-back
    b"\xa4\xa4" * 3000 + b"\xa4\xa2\x41",
    # 0xA1 common: the search switches from hopping to the regex before these units
    b"\xa1\x41" * 600 + b"\xa1\x45\xa4\xa1\xc2\xa4\xa1\xa1\xc2" + b"\xa1\x41 " * 100 + b"\xa2\x41",
]


@pytest.mark.parametrize("data", BIG5)
def test_big5_cases(data):
    _check("big5", data)


EUC_JP = [
    b"~ \x8f\xa2\xb7 ~",  # '~' in C for 8F A2 B7, U+FF5E in the standard
    b"\xa4\xa2\x8f\xa2\xb7",  # no boundary before: alignment from the run's start
    b"\xa1\xc1\xa1\xf1 \x8e\xa1\x8f\xb0\xa1\x8f\xa2\xb7",
]


@pytest.mark.parametrize("data", EUC_JP)
def test_euc_jp_cases(data):
    _check("euc-jp", data)


@pytest.mark.parametrize("label", ["big5", "euc-jp"])
def test_random_streams_of_units(label):
    """Random valid streams rich in disagreeing and group units, at every alignment."""
    _, units = BYTE_SCAN[label]
    codec = for_label(label)._codec
    # the disagreeing units and agreeing units of the same C character
    pool = list(units) + {"big5": [b"\xa1\xfe", b"\xa2\x40"], "euc-jp": [b"~"]}[label]
    rng = random.Random(label)
    fill = {"big5": [b"\xa4\xa4", b"\xa4\xa1", b"\xa1\xa4", b"A", b"\n"],
            "euc-jp": [b"\xa4\xa2", b"\x8e\xa1", b"\x8f\xb0\xa1", b"~", b"\n"]}[label]
    for _ in range(300):
        data = b"".join(rng.choice(pool if rng.random() < 0.3 else fill) for _ in range(rng.randrange(1, 40)))
        got: list = []
        want: list = []
        assert codec.decode(data, got, 0) == codec.reference_decode(data, want, 0)[0], data
        assert got == want == [], data


GB18030 = [
    b"\xc4\xe3 \x81\x30\x81\x30 \xba\xc3",  # gbk stops at a four-byte unit: one window
    b"\xc4\xe3\x81\x30\x81\x30\xba\xc3\x95\x32\x82\x36",  # no boundary byte after it: window to the end
    b"\x81\x30\x81\x30a" * 20 + b"\xc4\xe3",  # more windows than _MAX_SPLITS: the rest to gb18030
    b"\xc4\xe3 \x81\x35\xf4\x37 \xa6\xd9",  # a suspect unit in the window: whole input to step 3/4
    b"\xc4\xe3 \x80 \x81\x30\x81",  # 0x80 (the euro sign) and an unfinished sequence at the end
]


@pytest.mark.parametrize("label", ["gb18030", "gbk"])
@pytest.mark.parametrize("data", GB18030)
def test_gb18030_windows(label, data):
    """Step 3b: gbk decodes up to a unit it rejects, gb18030 a window after it."""
    codec = for_label(label)._codec
    want: list = []
    got: list = []
    assert for_label(label).decode(data, got) == codec.reference_decode(data, want, 0)[0]
    assert got == want


@pytest.mark.parametrize("label", ["big5", "euc-jp", "gb18030"])
def test_boundary_search_is_the_familys(label):
    """Step 4's span search uses the boundary class (a step-3a unit regex once took its place)."""
    codec = for_label(label)._codec
    codec._fast_path()
    assert codec._fast[4].__self__.pattern == codec.boundary
