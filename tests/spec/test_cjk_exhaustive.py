"""Every 1- and 2-byte sequence (and the longer gb18030 / EUC-JP shapes) of each CJK decoder.

Three decoders must agree on every case: onemail's decoder as used (the C-codec fast path, the
error handler and the line-wise fallback of ``onemail.text._codecs._cjk``), onemail's pure-Python
reference state machine (``reference_decode``, text and issues) and the independent write-up of
the Encoding Standard's decoders in ``tests/whatwg_reference.py`` (text). Cases are decoded in
one call each, every case followed by 0x0A, after which these decoders are always back in their
initial state; the cases at the end of the input are decoded one by one. Seeded random streams
without separators exercise the resumption of the C codec after the reference.
"""

from __future__ import annotations

import random

import pytest
import whatwg_reference as W

from onemail.text import IssueKind, TextIssue, for_label

FAMILIES = {
    "gb18030": (W.gb18030, IssueKind.INVALID_GB18030),
    "gbk": (W.gb18030, IssueKind.INVALID_GB18030),
    "big5": (W.big5, IssueKind.INVALID_BIG5),
    "euc-jp": (W.euc_jp, IssueKind.INVALID_EUC_JP),
    "shift_jis": (W.shift_jis, IssueKind.INVALID_SHIFT_JIS),
    "euc-kr": (W.euc_kr, IssueKind.INVALID_EUC_KR),
}
LABELS = list(FAMILIES)
DIGITS = range(0x30, 0x3A)


def check(label: str, data: bytes) -> None:
    """Decoder as used == reference (text and issues) == tests/whatwg_reference (text)."""
    cs = for_label(label)
    ours: list[TextIssue] = []
    text = cs.decode(data, ours, 7)
    ref: list[TextIssue] = []
    ref_text, consumed = cs._codec.reference_decode(data, ref, 7)
    assert consumed == len(data)
    assert text == ref_text
    assert ours == ref
    assert {i.kind for i in ours} <= {FAMILIES[label][1]}
    assert text == FAMILIES[label][0](data)


@pytest.mark.parametrize("label", LABELS)
def test_every_one_and_two_byte_sequence(label):
    cases = [bytes((a,)) for a in range(256)] + [bytes((a, b)) for a in range(256) for b in range(256)]
    check(label, b"\n".join(cases) + b"\n")


@pytest.mark.parametrize("label", LABELS)
def test_every_one_byte_and_lead_digit_at_the_end(label):
    for a in range(256):
        check(label, bytes((a,)))
        check(label, bytes((a, 0x30)))
        check(label, b"A" + bytes((a, 0x30, 0x81)))


def test_gb18030_three_byte_prefixes():
    """lead, digit, X: then 0x0A (a non-digit fourth byte), and at the end of the input.

    Every lead and digit with X from each byte class; leads 0x81 and 0xFE with every X.
    """
    classes = (0x00, 0x30, 0x39, 0x40, 0x7E, 0x7F, 0x80, 0x81, 0xA0, 0xFE, 0xFF)
    cases = [bytes((a, d, c)) for a in range(0x81, 0xFF) for d in DIGITS for c in classes]
    cases += [bytes((a, d, c)) for a in (0x81, 0xFE) for d in DIGITS for c in range(256)]
    check("gb18030", b"\n".join(cases) + b"\n")
    check("gb18030", b"".join(cases))


def test_gb18030_non_digit_fourth_byte():
    cases = [bytes((a, d, c, x)) for a in (0x81, 0x84, 0x90, 0xE3, 0xFE) for d in (0x30, 0x35, 0x39)
             for c in (0x81, 0xA0, 0xFE) for x in range(256)]
    check("gb18030", b"\n".join(cases) + b"\n")


def test_euc_jp_every_0x8f_sequence():
    cases = [bytes((0x8F, a, b)) for a in range(256) for b in range(256)]
    check("euc-jp", b"\n".join(cases) + b"\n")
    check("euc-jp", b"".join(cases[::7]))


def _units(label: str) -> list[bytes]:
    """Valid sequences, invalid ones and ASCII to draw random streams from."""
    units = [b"a", b"\n", b"~", b"0", b"\x80", b"\xff", b"\xa0", b"\x8e", b"\x8f", b"\x81\x30"]
    rng = random.Random(label)
    units += [bytes((rng.randrange(0x81, 0xFF), rng.randrange(0x40, 0xFF))) for _ in range(60)]
    cs = for_label(label)
    for text in ("漢字かなカナ한글中文繁體～〜¥‾−①Ⅻ", "\u2027\u2215\u3000\ue78d\u1e3f\uffe0\uff5e"):
        units += [cs.encode(c) for c in text]
    # the suspect units of every family's C codec (scripts/gen/cjk.py)
    units += [b"\xa2\x41", b"\xa2\x42", b"\xa1\x45", b"\xa1\xc1", b"\x8f\xa2\xb7", b"\x81\x35\xf4\x37",
              b"\xa3\xa0", b"\xa6\xd9", b"\xa8\xbc", b"\xfe\x59", b"\xfd", b"\x81\x35\xf4"]
    return units


@pytest.mark.parametrize("label", LABELS)
def test_seeded_random_streams(label):
    rng = random.Random(f"streams-{label}")
    units = _units(label)
    for _ in range(40):
        data = b"".join(rng.choice(units) for _ in range(rng.randrange(1, 400)))
        check(label, data)
