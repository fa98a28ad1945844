"""Exhaustive table tests of the single-byte, x-user-defined, UTF-8 and UTF-16 decoders.

* Every pointer of every single-byte index file decodes to its code point and every code point of
  the BMP (plus astral samples) encodes as the standard's single-byte encoder says (ASCII as is,
  else the index pointer + 0x80, else ``?`` with ``Unencodable``).
* Every byte of every DOS code page equals CPython's ``cpNNN`` (no WHATWG index exists for them),
  decoding and encoding.
* x-user-defined per its algorithm, both ways.
* UTF-8: every 1- and 2-byte sequence, every combination of byte-class representatives up to 4
  bytes and a seeded sample of 3- and 4-byte sequences against the standard's UTF-8 decoder
  written out below in pure Python (maximal-subpart replacement).
* UTF-16LE/BE: every sequence of up to 4 code units drawn from unit classes, with and without an
  odd trailing byte, against the standard's shared UTF-16 decoder written out below.

Texts and issues (kind, byte offset, length) are compared. Encoding Standard sections
"single-byte decoder/encoder", "x-user-defined", "UTF-8 decoder", "shared UTF-16 decoder".
"""

from __future__ import annotations

import itertools
import random
import tomllib

import pytest
from paths import CHARSET_FACTS
from whatwg_reference import index as read_index
from whatwg_reference import utf8_reference, utf16_reference

from onemail.text import IssueKind, TextIssue, for_label

# The single-byte encodings and where their tables come from: the charset facts.
_FACTS = [d for d in tomllib.loads(CHARSET_FACTS.read_text(encoding="utf-8"))["decoder"] if "table" in d]
SINGLE_BYTE = [d["key"] for d in _FACTS if d["table"] == "whatwg"]
CPYTHON_TABLES = {d["key"]: d["table"].split(":", 1)[1] for d in _FACTS if d["table"].startswith("cpython:")}
FFFD = "\ufffd"
ALL_BYTES = bytes(range(256))
# Every scalar value of the BMP and a few astral ones: the encoder's whole domain, sampled above.
SCALARS = [*range(0xD800), *range(0xE000, 0x10000), 0x10000, 0x1F600, 0x10FFFF]
SCALAR_TEXT = "".join(map(chr, SCALARS))


def check_table_decode(cs, expected_chars: list[str | None], kind: IssueKind) -> None:
    """Decode all 256 bytes in one call: byte b gives expected_chars[b], None = U+FFFD + issue."""
    issues: list[TextIssue] = []
    text = cs.decode(ALL_BYTES, issues, 1000)
    assert text == "".join(FFFD if c is None else c for c in expected_chars)
    assert issues == [TextIssue(kind, 1000 + b, 1) for b, c in enumerate(expected_chars) if c is None]
    # one byte at a time too (no state may leak between bytes)
    assert [cs.decode(bytes((b,))) for b in range(256)] == [FFFD if c is None else c for c in expected_chars]


def check_table_encode(cs, byte_of: dict[int, int]) -> None:
    """Encode every scalar in one call: ``byte_of[cp]`` or ``?`` with an ``Unencodable`` issue."""
    issues: list[TextIssue] = []
    out = cs.encode(SCALAR_TEXT, issues)
    want = bytes(byte_of.get(cp, 0x3F) for cp in SCALARS)
    assert out == want
    missing = [i for i, cp in enumerate(SCALARS) if cp not in byte_of]
    assert [i.offset for i in issues] == missing
    assert {(i.kind, i.length) for i in issues} == {(IssueKind.UNENCODABLE, 1)}


@pytest.mark.parametrize("name", [*SINGLE_BYTE, "iso-8859-8-i"])
def test_single_byte_index(name):
    index = read_index("iso-8859-8" if name == "iso-8859-8-i" else name)
    assert index and max(index) < 128
    cs = for_label(name)
    assert cs.key == name
    chars = [chr(b) for b in range(128)] + [chr(index[p]) if p in index else None for p in range(128)]
    check_table_decode(cs, chars, IssueKind.INVALID_SINGLE_BYTE)
    # The standard's encoder: ASCII as is, else the index pointer (the first, should a code point
    # occur twice: none does in these indexes) plus 0x80.
    byte_of = {cp: cp for cp in range(128)}
    for pointer in sorted(index, reverse=True):
        byte_of[index[pointer]] = 0x80 + pointer
    assert len(byte_of) == 128 + len(index)  # every code point occurs once
    check_table_encode(cs, byte_of)


def test_the_fact_lists():
    assert len(SINGLE_BYTE) == 27
    assert sorted(CPYTHON_TABLES.values()) == sorted(
        [f"cp{cp}" for cp in (437, 737, 775, 850, 852, 855, 857, 858, 860, 861, 862, 863, 864, 865, 869)]
        + ["mac_greek", "mac_iceland", "mac_latin2", "mac_turkish"])


@pytest.mark.parametrize(("key", "codec"), sorted(CPYTHON_TABLES.items()))
def test_cpython_table_equals_cpython(key, codec):
    """DOS code pages and the Mac OS pages beyond the standard's: CPython's codec, both ways."""
    cs = for_label(codec)
    assert cs.key == key
    chars = []
    for b in range(256):
        try:
            chars.append(bytes((b,)).decode(codec))
        except UnicodeDecodeError:
            chars.append(None)
    check_table_decode(cs, chars, IssueKind.INVALID_SINGLE_BYTE)
    byte_of = {}
    for cp_ in SCALARS:
        try:
            byte_of[cp_] = chr(cp_).encode(codec)[0]
        except UnicodeEncodeError:
            pass
    check_table_encode(cs, byte_of)


def test_x_user_defined():
    cs = for_label("x-user-defined")
    chars = [chr(b) for b in range(128)] + [chr(0xF780 + b - 0x80) for b in range(0x80, 0x100)]
    check_table_decode(cs, chars, IssueKind.INVALID_SINGLE_BYTE)
    byte_of = {cp: cp for cp in range(128)} | {0xF780 + b: 0x80 + b for b in range(128)}
    check_table_encode(cs, byte_of)


# ---------------------------------------------------------------------------------------------
# UTF-8 (tests/whatwg_reference.py has the standard's decoder written out)


def check_against(cs, reference, cases: list[bytes], kind: IssueKind) -> None:
    """Each case decodes (text and issues) as the reference says; the texts compared in bulk."""
    decode = cs.decode
    refs = [reference(b) for b in cases]
    assert [decode(b) for b in cases] == [t for t, _ in refs]
    for data, (_, errors) in zip(cases, refs, strict=True):
        if errors:
            issues: list[TextIssue] = []
            decode(data, issues, 7)
            assert issues == [TextIssue(kind, 7 + o, n) for o, n in errors], data.hex(" ")


def test_utf8_one_and_two_bytes():
    cases = [bytes((a,)) for a in range(256)] + [bytes(p) for p in itertools.product(range(256), repeat=2)]
    check_against(for_label("utf-8"), utf8_reference, cases, IssueKind.INVALID_UTF8)


# One byte of each class the decoder distinguishes: ASCII; the continuation sub-ranges that the
# E0/ED/F0/F4 bounds cut (80-8F, 90-9F, A0-BF); invalid leads (C0, F5); 2-, 3- and 4-byte leads.
UTF8_CLASSES = (0x41, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5)


def test_utf8_byte_classes_up_to_four_bytes():
    cases = [bytes(p) for n in (3, 4) for p in itertools.product(UTF8_CLASSES, repeat=n)]
    check_against(for_label("utf-8"), utf8_reference, cases, IssueKind.INVALID_UTF8)


def test_utf8_seeded_sample_three_and_four_bytes():
    rng = random.Random(20260521)
    leads = [*range(0xE0, 0xF8)]
    cases = set()
    while len(cases) < 60000:
        n = rng.choice((3, 4))
        tail = [rng.randrange(0x80, 0xC0) if rng.randrange(6) else rng.randrange(256) for _ in range(n - 1)]
        cases.add(bytes([rng.choice(leads), *tail]))
    check_against(for_label("utf-8"), utf8_reference, sorted(cases), IssueKind.INVALID_UTF8)


# ---------------------------------------------------------------------------------------------
# UTF-16


UTF16_UNITS = (0x0041, 0x000D, 0x00E9, 0x4E00, 0xFEFF, 0xFFFF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF)


@pytest.mark.parametrize("name", ["utf-16le", "utf-16be"])
def test_utf16_unit_classes(name):
    big = name.endswith("be")
    order = "big" if big else "little"
    cases = []
    for n in range(5):
        for units in itertools.product(UTF16_UNITS, repeat=n):
            raw = b"".join(u.to_bytes(2, order) for u in units)
            cases += [raw, raw + b"\x41", raw + b"\xd8"]
    check_against(for_label(name), lambda b: utf16_reference(b, big), cases, IssueKind.INVALID_UTF16)


def test_references_are_the_standard():
    """The written-out references on the standard's own examples and known answers."""
    assert utf8_reference(b"\xf0\x9f\x98") == (FFFD, [(0, 3)])
    assert utf8_reference(b"\xe0\x80\x41") == (FFFD + FFFD + "A", [(0, 1), (1, 1)])
    assert utf8_reference(b"\xed\xa0\x80") == (FFFD * 3, [(0, 1), (1, 1), (2, 1)])
    assert utf8_reference(b"\xf4\x90") == (FFFD * 2, [(0, 1), (1, 1)])
    assert utf16_reference(b"\x00\xd8\x41\x00", False) == (FFFD + "A", [(0, 2)])
    assert utf16_reference(b"\xd8\x00\xdc\x00", True) == ("\U00010000", [])
    assert utf16_reference(b"\xd8\x00\x41", True) == (FFFD, [(0, 3)])
