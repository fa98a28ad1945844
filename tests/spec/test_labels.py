"""Every label of encodings.json resolves to its encoding; spec 000 "Charsets" cases."""

from __future__ import annotations

import json

import pytest
from paths import WHATWG

from onemail.text import for_code_page, for_label

ENCODINGS = json.loads((WHATWG / "encodings.json").read_text(encoding="utf-8"))
# Labels that step 1 (mail-only labels) takes before the WHATWG table (spec 000 "Charsets").
MAIL_ONLY_FIRST = {"csiso2022kr": "iso-2022-kr", "iso-2022-kr": "iso-2022-kr", "hz-gb-2312": "hz-gb-2312"}


def _all_labels():
    for group in ENCODINGS:
        for enc in group["encodings"]:
            for label in enc["labels"]:
                yield label, enc["name"].lower()


def test_every_whatwg_label_resolves_to_its_encoding():
    checked = 0
    for label, name in _all_labels():
        cs = for_label(label)
        if label in MAIL_ONLY_FIRST:
            assert cs is not None and cs.key == MAIL_ONLY_FIRST[label], label
        elif name == "replacement":
            assert cs is None, label
        else:
            assert cs is not None and cs.key == name, (label, cs)
        # case and surrounding ASCII white space are ignored
        assert for_label(f" \t{label.upper()}\n ") is cs
        checked += 1
    assert checked >= 220


@pytest.mark.parametrize(
    ("label", "name"),
    [
        ("us-ascii", "windows-1252"),
        ("iso-8859-1", "windows-1252"),
        ("ISO-8859-9", "windows-1254"),
        ("latin1", "windows-1252"),
        ("cp1252", "windows-1252"),
        ("windows-1251", "windows-1251"),
        ("codepage-1250", "windows-1250"),
        ("CP437", "ibm437"),
        ("ibm850", "ibm850"),
        ("johab", "johab"),
        ("utf-7", "utf-7"),
        ("x-unicode20utf7", "utf-7"),
        ("utf-32", "utf-32le"),
        ("utf-32be", "utf-32be"),
        ("iso-2022-jp-2", "iso-2022-jp-2"),
        ("x-windows-50221", "csiso2022jp"),
        ("cp936", "gb2312"),
    ],
)
def test_label_names(label, name):
    assert for_label(label).name == name


@pytest.mark.parametrize("label", ["unknown-8bit", "ISO-2022-CN", "iso-2022-cn-ext", "replacement",
                                   "x-unknown", "", "cp1234", "utf-8 x", "windows-99999"])
def test_unknown_labels_are_none(label):
    assert for_label(label) is None


def test_latin1_bytes_0x80_to_0x9f_are_printable():
    data = bytes(range(0x80, 0xA0))
    for label in ("us-ascii", "iso-8859-1"):
        text = for_label(label).decode(data)
        assert text[0] == "\u20ac" and text[1] == "\x81" and text[2] == "\u201a"
    assert for_label("iso-8859-9").decode(b"\xd0\xdd\xfe") == "ĞİÞ".replace("Þ", "ş")


@pytest.mark.parametrize(
    ("cp", "name", "key"),
    [
        (936, "gb2312", "gbk"), (949, "ks_c_5601-1987", "euc-kr"), (28591, "iso-8859-1", "windows-1252"),
        (20127, "us-ascii", "windows-1252"), (932, "shift_jis", "shift_jis"), (65001, "utf-8", "utf-8"),
        (1200, "utf-16le", "utf-16le"), (1252, "windows-1252", "windows-1252"),
        (28599, "iso-8859-9", "windows-1254"), (858, "ibm00858", "ibm858"), (10000, "macintosh", "macintosh"),
        (54936, "gb18030", "gb18030"), (1361, "johab", "johab"), (65000, "utf-7", "utf-7"),
    ],
)
def test_for_code_page(cp, name, key):
    cs = for_code_page(cp)
    assert (cs.name, cs.key) == (name, key)
    assert for_code_page(cp) is cs


def test_for_code_page_is_exactly_the_mapi_list():
    expected = {874, 932, 936, 949, 950, 1200, 1201, *range(1250, 1259), 12000, 12001, 20127, 20866,
                21866, 28591, 28592, 28593, 28594, 28595, 28596, 28597, 28598, 28599, 28600, 28601,
                28603, 28604, 28605, 28606, 38598, 437, 737, 775, 850, 852, 855, 857, 858, 860, 861,
                862, 863, 864, 865, 869, 10000, 10007, 866, 50220, 50221, 50222, 50225, 51932, 51949,
                52936, 54936, 65000, 65001, 1361}
    found = {cp for cp in range(70000) if for_code_page(cp) is not None}
    assert found == expected
    assert for_code_page(28602) is None  # ISO-8859-12 was never published


def test_wrong_types_raise():
    with pytest.raises(TypeError, match="label"):
        for_label(b"utf-8")
    with pytest.raises(TypeError, match="code_page"):
        for_code_page("1252")
    with pytest.raises(TypeError, match="data"):
        for_label("utf-8").decode("text")
    with pytest.raises(TypeError, match="text"):
        for_label("utf-8").encode(b"bytes")
    # Regression (tester): a tuple for issues gave AttributeError from deep inside a codec.
    with pytest.raises(TypeError, match="issues"):
        for_label("utf-8").decode(b"\xff", ())
    with pytest.raises(TypeError, match="issues"):
        for_label("windows-1252").encode("\u2713", ())
    with pytest.raises(TypeError, match="issues"):
        for_label("utf-8").new_decoder().decode(b"\xff", True, ())
