"""Spec 000 "Decoding details" cases that tests/spec/test_labels.py does not already cover.

(test_labels.py covers: us-ascii, iso-8859-1 and iso-8859-9 resolving to windows-1252 /
windows-1254, 0x80 -> U+20AC and 0x81 -> U+0081, unknown-8bit and ISO-2022-CN -> None.)

Here: the whole 0x80-0x9F range is printable for the Latin-1 labels; CR, LF and CRLF survive
every charset; a BOM is kept as U+FEFF (no sniffing inside a charset decoder); the unknown-charset
rule (ambiguity T1) with its issue values.
"""

from __future__ import annotations

import pytest

from onemail.text import IssueKind, TextIssue, charsets, decode, decode_unknown, for_label

AMBIGUOUS = IssueKind.AMBIGUOUS_UNKNOWN_CHARSET
CHARSETS = charsets.known_charsets()


PARAMS = [pytest.param(cs, id=cs.key) for cs in CHARSETS]


@pytest.mark.parametrize("label", ["us-ascii", "iso-8859-1", "latin1", "ascii", "cp819", "l1"])
def test_c1_range_is_printable_for_latin1_labels(label):
    """Bytes 0x80-0x9F all map (windows-1252): 0x81, 0x8D, 0x8F, 0x90, 0x9D are U+0081 etc."""
    issues = []
    text = for_label(label).decode(bytes(range(0x80, 0xA0)), issues)
    assert issues == [] and "\ufffd" not in text
    assert text == ("€\x81‚ƒ„…†‡ˆ‰Š‹Œ\x8dŽ\x8f\x90‘’“”•–—˜™š›œ\x9džŸ")


@pytest.mark.parametrize("cs", PARAMS)
def test_line_breaks_survive(cs):
    """CR, LF and CRLF come out exactly as they went in, in every charset."""
    text = "a\rb\nc\r\nd\n\re\r\r\n"
    data = cs.encode(text)
    issues = []
    assert cs.decode(data, issues) == text
    assert [i for i in issues if not i.kind.is_ambiguous] == []
    if cs.key not in ("utf-16le", "utf-16be", "utf-32le", "utf-32be"):
        assert data == text.encode("ascii")  # ASCII-compatible for line breaks


# Charsets that can carry U+FEFF, with the bytes of "\ufeffA".
BOMS = {
    "utf-8": b"\xef\xbb\xbfA",
    "utf-16le": b"\xff\xfeA\x00",
    "utf-16be": b"\xfe\xff\x00A",
    "utf-32le": b"\xff\xfe\x00\x00A\x00\x00\x00",
    "utf-32be": b"\x00\x00\xfe\xff\x00\x00\x00A",
    "gb18030": b"\x84\x31\x95\x33A",
    "utf-7": b"+/v8-A",
}


@pytest.mark.parametrize("key", sorted(BOMS))
def test_bom_is_kept(key):
    cs = next(c for c in CHARSETS if c.key == key)
    issues = []
    assert cs.decode(BOMS[key], issues) == "\ufeffA" and issues == []
    assert cs.decode(BOMS[key] * 2) == "\ufeffA\ufeffA"
    assert cs.encode("\ufeffA") == BOMS[key]


@pytest.mark.parametrize(("key", "data", "text"), [
    ("utf-16le", b"\xfe\xffA\x00", "\ufffeA"),  # the other byte order's BOM is U+FFFE, not a swap
    ("utf-16be", b"\xff\xfe\x00A", "\ufffeA"),
    ("utf-8", b"A\xef\xbb\xbf", "A\ufeff"),
    ("windows-1252", b"\xef\xbb\xbfA", "ï»¿A"),
])
def test_no_bom_sniffing(key, data, text):
    issues = []
    assert for_label(key).decode(data, issues) == text and issues == []


@pytest.mark.parametrize(("data", "text", "name", "extra"), [
    (b"", "", "utf-8", []),
    (b"plain ascii\r\n", "plain ascii\r\n", "utf-8", []),
    (b"caf\xc3\xa9", "café", "utf-8", []),
    (b"\xef\xbb\xbfA", "\ufeffA", "utf-8", []),
    (b"caf\xe9", "café", "windows-1252", []),
    (b"caf\xc3", "caf\xc3", "windows-1252", []),  # truncated UTF-8 is not valid UTF-8
    (b"\x81\x8d\x8f\x90\x9d", "\x81\x8d\x8f\x90\x9d", "windows-1252", []),
    (b"\xed\xa0\x80", "í\xa0€", "windows-1252", []),  # an encoded surrogate is not UTF-8
])
def test_decode_unknown(data, text, name, extra):
    issues = [TextIssue(IssueKind.INVALID_UTF8, 0, 1)]  # issues are appended, never replaced
    got, cs = decode_unknown(data, issues=issues, offset=10)
    assert (got, cs.name) == (text, name)
    assert issues == [TextIssue(IssueKind.INVALID_UTF8, 0, 1), TextIssue(AMBIGUOUS, 10, len(data)), *extra]
    assert decode_unknown(bytearray(data))[0] == text
    assert decode_unknown(memoryview(data), issues=None)[0] == text


def test_decode_unknown_rejects_str():
    with pytest.raises(TypeError, match="data"):
        decode_unknown("text")


@pytest.mark.parametrize("label", [None, "unknown-8bit", "x-unknown", "ISO-2022-CN", "replacement"])
def test_decode_with_unknown_label_applies_the_rule(label):
    result = decode(b"caf\xe9", label)
    assert (result.text, result.charset.name) == ("café", "windows-1252")
    assert result.issues == (TextIssue(AMBIGUOUS, 0, 4),)
    result = decode(b"caf\xc3\xa9", label)
    assert (result.text, result.charset.name, result.issues) == ("café", "utf-8", (TextIssue(AMBIGUOUS, 0, 5),))


def test_decode_with_known_label_has_no_ambiguity():
    result = decode(b"caf\xe9\x81", "ISO-8859-1")
    assert (result.text, result.charset.name, result.issues) == ("café\x81", "windows-1252", ())
    result = decode(b"\xff", "utf-8")
    assert result.issues == (TextIssue(IssueKind.INVALID_UTF8, 0, 1),)
