"""Every pointer of the CJK indexes decodes to its code point; the CJK encoders over the BMP.

Encoding Standard "index jis0208", "index jis0212", "index Big5", "index EUC-KR", "index gb18030",
"index gb18030 ranges" and the decoders/encoders of gb18030, GBK, Big5, EUC-JP, Shift_JIS and
EUC-KR. Each test builds one byte string holding every pointer's bytes and decodes it in one call
(vectorised), comparing the text and the issues with what the index files say. The encoder tests
encode every scalar value of the BMP plus astral samples in one call and compare with the
standard's encoder written out below from the index files.
"""

from __future__ import annotations

import bisect
import random

import pytest
import whatwg_reference as W

from onemail.text import IssueKind, TextIssue, for_label

FFFD = "\ufffd"


def _decode(label: str, data: bytes) -> tuple[str, list[TextIssue]]:
    issues: list[TextIssue] = []
    return for_label(label).decode(data, issues), issues


def test_jis0208_through_euc_jp():
    pointers = [p for p in sorted(W.index("jis0208")) if p < 94 * 94]
    data = b"".join(bytes((p // 94 + 0xA1, p % 94 + 0xA1)) for p in pointers)
    text, issues = _decode("euc-jp", data)
    assert issues == []
    assert text == "".join(chr(W.index("jis0208")[p]) for p in pointers)


def test_jis0212_through_euc_jp():
    pointers = sorted(W.index("jis0212"))
    data = b"".join(bytes((0x8F, p // 94 + 0xA1, p % 94 + 0xA1)) for p in pointers)
    text, issues = _decode("euc-jp", data)
    assert issues == []
    assert text == "".join(chr(W.index("jis0212")[p]) for p in pointers)


def _sjis_bytes(p: int) -> bytes:
    lead, trail = divmod(p, 188)
    return bytes((lead + (0x81 if lead < 0x1F else 0xC1), trail + (0x40 if trail < 0x3F else 0x41)))


def test_jis0208_and_eudc_through_shift_jis():
    table = W.index("jis0208")
    pointers = sorted(set(table) | set(range(8836, 10716)))
    data = b"".join(_sjis_bytes(p) for p in pointers)
    text, issues = _decode("shift_jis", data)
    assert issues == []
    assert text == "".join(chr(table[p]) if p in table else chr(0xE000 - 8836 + p) for p in pointers)


def test_big5_index():
    table = W.index("big5")
    pointers = sorted(set(table) | set(W.BIG5_PAIRS))
    data = b"".join(
        bytes((p // 157 + 0x81, p % 157 + (0x40 if p % 157 < 0x3F else 0x62))) for p in pointers
    )
    text, issues = _decode("big5", data)
    assert issues == []
    assert text == "".join(W.BIG5_PAIRS.get(p) or chr(table[p]) for p in pointers)


def test_euc_kr_index():
    table = W.index("euc-kr")
    pointers = sorted(table)
    data = b"".join(bytes((p // 190 + 0x81, p % 190 + 0x41)) for p in pointers)
    text, issues = _decode("euc-kr", data)
    assert issues == []
    assert text == "".join(chr(table[p]) for p in pointers)


@pytest.mark.parametrize("label", ["gb18030", "gbk"])
def test_gb18030_two_byte_index(label):
    table = W.index("gb18030")
    pointers = sorted(table)
    data = b"".join(
        bytes((p // 190 + 0x81, p % 190 + (0x40 if p % 190 < 0x3F else 0x41))) for p in pointers
    )
    text, issues = _decode(label, data)
    assert issues == []
    assert text == "".join(chr(table[p]) for p in pointers)


def _four(p: int) -> bytes:
    b1, p = divmod(p, 12600)
    b2, p = divmod(p, 1260)
    b3, b4 = divmod(p, 10)
    return bytes((b1 + 0x81, b2 + 0x30, b3 + 0x81, b4 + 0x30))


def _all_four_byte_sequences() -> bytes:
    """Every lead, digit, lead, digit sequence, in pointer order (pointer = position / 4)."""
    digits = [bytes((d,)) for d in range(0x30, 0x3A)]
    tails = [bytes((b3,)) + d4 for b3 in range(0x81, 0xFF) for d4 in digits]
    return b"".join(bytes((b1,)) + d2 + tail for b1 in range(0x81, 0xFF) for d2 in digits for tail in tails)


def test_gb18030_every_four_byte_sequence():
    """All 1,587,600 sequences lead, digit, lead, digit: the ranges code point or one error of 4."""
    data = _all_four_byte_sequences()
    n = len(data) // 4
    assert data[:8] == b"\x81\x30\x81\x30\x81\x30\x81\x31" and _four(n - 1) == data[-4:]
    text, issues = _decode("gb18030", data)
    cps = [W.gb18030_ranges_code_point(p) for p in range(n)]
    assert text == "".join(FFFD if c is None else chr(c) for c in cps)
    assert [(i.offset, i.length) for i in issues] == [(4 * p, 4) for p, c in enumerate(cps) if c is None]
    assert {i.kind for i in issues} == {IssueKind.INVALID_GB18030}


def test_gbk_decodes_four_byte_sequences():
    """GBK's decoder is gb18030's (a sample: every 101st pointer)."""
    pointers = range(0, 126 * 10 * 126 * 10, 101)
    text, issues = _decode("gbk", b"".join(map(_four, pointers)))
    cps = [W.gb18030_ranges_code_point(p) for p in pointers]
    assert text == "".join(FFFD if c is None else chr(c) for c in cps)
    assert len(issues) == cps.count(None)


# ---------------------------------------------------------------------------------------------
# Encoders, written out from the standard's encoder algorithms


def _first_pointers(table: dict[int, int], keep=lambda p: True) -> dict[int, int]:
    m: dict[int, int] = {}
    for p in sorted(table):
        if keep(p):
            m.setdefault(table[p], p)
    return m


def _expected_encoder(label: str):
    """Return ``cp -> bytes | None`` per the Encoding Standard's encoder for ``label``."""
    if label in ("gb18030", "gbk"):
        ptr = _first_pointers(W.index("gb18030"))
        starts, cps = W.gb18030_ranges()
        side = {0xE78D: b"\xa6\xd9", 0xE78E: b"\xa6\xda", 0xE78F: b"\xa6\xdb", 0xE790: b"\xa6\xdc",
                0xE791: b"\xa6\xdd", 0xE792: b"\xa6\xde", 0xE793: b"\xa6\xdf", 0xE794: b"\xa6\xec",
                0xE795: b"\xa6\xed", 0xE796: b"\xa6\xf3", 0xE81E: b"\xfe\x59", 0xE826: b"\xfe\x61",
                0xE82B: b"\xfe\x66", 0xE82C: b"\xfe\x67", 0xE832: b"\xfe\x6d", 0xE843: b"\xfe\x7e",
                0xE854: b"\xfe\x90", 0xE864: b"\xfe\xa0"}

        def enc(cp):
            if cp < 0x80:
                return bytes((cp,))
            if cp == 0xE5E5:
                return None
            if label == "gbk" and cp == 0x20AC:
                return b"\x80"
            if cp in side:
                return side[cp]
            if cp in ptr:
                p = ptr[cp]
                return bytes((p // 190 + 0x81, p % 190 + (0x40 if p % 190 < 0x3F else 0x41)))
            if label == "gbk":
                return None
            if cp == 0xE7C7:
                return _four(7457)
            k = bisect.bisect_right(cps, cp) - 1
            return _four(starts[k] + cp - cps[k])

        return enc
    if label == "big5":
        table = W.index("big5")
        ptr = _first_pointers(table, lambda p: p >= (0xA1 - 0x81) * 157)
        for cp in (0x2550, 0x255E, 0x2561, 0x256A, 0x5341, 0x5345):
            ptr[cp] = max(p for p, c in table.items() if c == cp and p >= (0xA1 - 0x81) * 157)

        def enc(cp):
            if cp < 0x80:
                return bytes((cp,))
            p = ptr.get(cp)
            if p is None:
                return None
            return bytes((p // 157 + 0x81, p % 157 + (0x40 if p % 157 < 0x3F else 0x62)))

        return enc
    if label == "euc-kr":
        ptr = _first_pointers(W.index("euc-kr"))

        def enc(cp):
            if cp < 0x80:
                return bytes((cp,))
            p = ptr.get(cp)
            return None if p is None else bytes((p // 190 + 0x81, p % 190 + 0x41))

        return enc
    sjis = label == "shift_jis"
    ptr = _first_pointers(W.index("jis0208"), (lambda p: not 8272 <= p <= 8835) if sjis else (lambda p: True))

    def enc(cp):
        if cp < 0x80 or (sjis and cp == 0x80):
            return bytes((cp,))
        if cp == 0xA5:
            return b"\x5c"
        if cp == 0x203E:
            return b"\x7e"
        if 0xFF61 <= cp <= 0xFF9F:
            return bytes((cp - 0xFF61 + 0xA1,)) if sjis else bytes((0x8E, cp - 0xFF61 + 0xA1))
        if cp == 0x2212:
            cp = 0xFF0D
        p = ptr.get(cp)
        if p is None:
            return None
        return _sjis_bytes(p) if sjis else bytes((p // 94 + 0xA1, p % 94 + 0xA1))

    return enc


SCALARS = [*range(0xD800), *range(0xE000, 0x10000), 0x10000, 0x20000, 0x2A6D6, 0x1F600, 0x10FFFF]
LABELS = ["gb18030", "gbk", "big5", "euc-jp", "shift_jis", "euc-kr"]


@pytest.mark.parametrize("label", LABELS)
def test_encoder_over_the_bmp(label):
    enc = _expected_encoder(label)
    expected = [enc(cp) for cp in SCALARS]
    issues: list[TextIssue] = []
    out = for_label(label).encode("".join(map(chr, SCALARS)), issues)
    assert out == b"".join(b"?" if b is None else b for b in expected)
    assert issues == [TextIssue(IssueKind.UNENCODABLE, i, 1) for i, b in enumerate(expected) if b is None]


# Code points whose encoder bytes decode to something else (the standard's encoders are not
# injective on these): EUC-JP/Shift_JIS U+00A5, U+203E (ASCII bytes), U+2212 (as U+FF0D);
# gb18030's GB18030-2005 side table (decodes to the 2022 mapping).
NOT_ROUND_TRIP = {0xA5, 0x203E, 0x2212} | {
    0xE78D, 0xE78E, 0xE78F, 0xE790, 0xE791, 0xE792, 0xE793, 0xE794, 0xE795, 0xE796,
    0xE81E, 0xE826, 0xE82B, 0xE82C, 0xE832, 0xE843, 0xE854, 0xE864,
}


@pytest.mark.parametrize("label", LABELS)
def test_encode_then_decode_round_trips(label):
    """Every encodable scalar value decodes back to itself (except NOT_ROUND_TRIP)."""
    enc = _expected_encoder(label)
    chars = [chr(cp) for cp in SCALARS if cp not in NOT_ROUND_TRIP and cp != 0x0A and enc(cp) is not None]
    cs = for_label(label)
    issues: list[TextIssue] = []
    assert cs.decode(cs.encode("\n".join(chars)), issues).split("\n") == chars
    assert issues == []


@pytest.mark.parametrize("label", LABELS)
def test_encoder_each_scalar_alone_and_in_random_runs(label):
    """Alone, most characters take the C-encoder path; runs mix it with the error handler."""
    enc = _expected_encoder(label)
    cs = for_label(label)
    got = [cs.encode(chr(cp)) for cp in SCALARS]
    assert got == [enc(cp) or b"?" for cp in SCALARS]
    rng = random.Random(label)
    sample = [cp for cp in SCALARS if cp > 0x7F]
    for _ in range(200):
        cps = [rng.choice(sample) if rng.random() < 0.7 else rng.randrange(0x20, 0x7F) for _ in range(30)]
        issues: list[TextIssue] = []
        assert cs.encode("".join(map(chr, cps)), issues) == b"".join(enc(cp) or b"?" for cp in cps)
        assert issues == [TextIssue(IssueKind.UNENCODABLE, i, 1) for i, cp in enumerate(cps) if enc(cp) is None]
