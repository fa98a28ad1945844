"""Every label of encodings.json resolves to its encoding; spec 000 "Charsets" cases."""

from __future__ import annotations

import encodings.aliases
import json
import re
import tomllib

import pytest
from paths import CHARSET_FACTS, REPO, WHATWG

from onemail.text import charsets, for_code_page, for_label
from onemail.text.charsets import is_us_ascii_label, known_code_pages, single_byte_table

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
        for_label("utf-8").new_decoder().decode(b"\xff", final=True, issues=())


# Labels met in real mail that the WHATWG table lacks (issue 13): label -> (key, name).
MAIL_LABELS = {
    "ms-kanji": ("shift_jis", "shift_jis"),  # IANA alias MS_Kanji of Shift_JIS
    "windows31j": ("shift_jis", "shift_jis"),  # IANA Windows-31J
    "x-ms-cp932": ("shift_jis", "shift_jis"),  # code page 932 spelled "ms-cp932", "x-" dropped
    "ibm932": ("shift_jis", "shift_jis"),  # mail-only (glibc IBM932, ICU ibm-932)
    "x-shift-jis": ("shift_jis", "shift_jis"),  # WHATWG shift-jis, "x-" dropped
    "eucjp": ("euc-jp", "euc-jp"),
    "euc_jp": ("euc-jp", "euc-jp"),
    "x-eucjp": ("euc-jp", "euc-jp"),
    "iso2022jp": ("iso-2022-jp", "iso-2022-jp"),
    "x-iso-2022-jp": ("iso-2022-jp", "iso-2022-jp"),
    "junet": ("iso-2022-jp", "iso-2022-jp"),  # GNU Emacs alias
    "x-gb2312": ("gbk", "gbk"),
    "x-big5": ("big5", "big5"),
    "x-windows-950": ("big5", "big5"),  # code page 950
    "uhc": ("euc-kr", "euc-kr"),  # CPython alias of cp949
    "x-windows-949": ("euc-kr", "ks_c_5601-1987"),  # code page 949: its header name
    "ks_c_5601": ("euc-kr", "euc-kr"),
    "euc_kr": ("euc-kr", "euc-kr"),
    "ksc-5601": ("euc-kr", "euc-kr"),  # IANA KSC_5601
    "tis620": ("windows-874", "windows-874"),  # IANA TIS-620 / WHATWG tis-620
    "mac-iceland": ("x-mac-icelandic", "x-mac-icelandic"),  # CPython mac_iceland
}


@pytest.mark.parametrize(("label", "expected"), sorted(MAIL_LABELS.items()))
def test_labels_met_in_mail(label, expected):
    cs = for_label(label)
    assert (cs.key, cs.name) == expected
    assert for_label(label.upper()) is cs


def test_mac_icelandic_decodes_its_own_letters():
    """T80: Mac Icelandic is CPython's table (Apple's ICELAND.TXT), not Mac Roman."""
    data = bytes([0xA0, 0xDC, 0xDD, 0xDE, 0xDF, 0xE0, 0x80])
    assert for_label("x-mac-icelandic").decode(data) == data.decode("mac_iceland") == "ÝÐðÞþý\u00c4"
    assert for_label("macintosh").decode(data) != data.decode("mac_iceland")


@pytest.mark.parametrize(("label", "key", "name"), [
    ("csISO2022KR", "iso-2022-kr", "iso-2022-kr"),  # mail-only before WHATWG's replacement
    ("hz-gb-2312", "hz-gb-2312", "hz-gb-2312"),
    ("windows-949", "euc-kr", "ks_c_5601-1987"),  # code page spelling before WHATWG
    ("cp936", "gbk", "gb2312"),
    ("ms936", "gbk", "gb2312"),
    ("x-cp-01252", "windows-1252", "windows-1252"),
    ("ISO_8859-1:1987", "windows-1252", "windows-1252"),  # IANA's name of row 4
    ("csWindows31J", "shift_jis", "shift_jis"),
    ("latin", "windows-1252", "windows-1252"),  # CPython alias of latin_1
    ("cp367", "windows-1252", "windows-1252"),  # IANA US-ASCII; code page 367 is not known
    ("CCSID00858", "ibm858", "ibm00858"),
    ("IBM-00858", "ibm858", "ibm00858"),  # Unicode TS #22: the zeros that begin a number go
    ("ISO_8859-01", "windows-1252", "windows-1252"),
    ("x-mac-ce", "x-mac-ce", "x-mac-ce"),
    ("utf_16", "utf-16le", "utf-16le"),
    ("user-defined", "x-user-defined", "x-user-defined"),
])
def test_precedence_and_loose_forms(label, key, name):
    cs = for_label(label)
    assert (cs.key, cs.name) == (key, name)


@pytest.mark.parametrize("label", ["csISO2022CN", "iso_2022_cn_ext", "ibm1200", "ibm-949", "cp1125",
                                   "shift_jis_2004", "mbcs", "ansi", "base64", "ütf-8", "-", "x-"])
def test_not_charsets_we_decode(label):
    """T80: no IBM CCSID rule beyond the facts; CPython codecs outside the facts stay unknown."""
    assert for_label(label) is None


def test_generated_keys_are_loose_forms_and_resolve():
    """Every key of the generated tables is a loose form (T80: lower-case letters and digits, so
    its own loose form) and resolves to its decoder, also spelled with "x-", "_" and capitals."""
    from onemail.text._tables import labels as t

    for table in (t.MAIL_ONLY, t.LABELS):
        for k, key in table.items():
            assert re.fullmatch("[a-z0-9]+", k) and not re.search("(?<![0-9])0+(?=[0-9])", k), k
            cs = for_label(k)
            assert (cs is None) if key == "replacement" else (cs.key == key), k
            assert for_label("X_" + k.upper()) is cs


def test_every_iana_row_resolves_to_one_decoder():
    rows = [line.split("\t") for line in (REPO / "scripts" / "data" / "iana-character-sets.tsv")
            .read_text(encoding="ascii").splitlines() if line and not line.startswith("#")]
    assert len(rows) == 78
    for mib, name, preferred, aliases in rows:
        found = {for_label(n) and for_label(n).key for n in [name, preferred, *aliases.split()] if n}
        assert len(found) == 1, (mib, name, found)
    assert for_label("Extended_UNIX_Code_Packed_Format_for_Japanese").key == "euc-jp"
    assert for_label("csISO2022CNEXT") is None


FACTS = tomllib.loads(CHARSET_FACTS.read_text(encoding="utf-8"))["decoder"]
FACT_OF = {d["key"]: d for d in FACTS}


def test_cpython_names_of_the_facts_resolve():
    for d in FACTS:
        for codec in d.get("python", []):
            names = [codec] + [a for a, c in encodings.aliases.aliases.items() if c == codec]
            for name in names:
                cs = for_label(name)
                # mail-only and WHATWG take precedence; where they do, they agree here
                assert cs is not None and cs.key == d["key"], (name, d["key"], cs)


def test_facts_are_the_decoders_and_code_pages():
    assert {cs.key for cs in charsets.known_charsets()} == {d["key"] for d in FACTS}
    assert known_code_pages() == sorted(int(cp) for d in FACTS for cp in d.get("code_pages", {}))
    for d in FACTS:
        for cp, name in d.get("code_pages", {}).items():
            cs = for_code_page(int(cp))
            assert (cs.name, cs.key) == (name, d["key"])
        for label in d.get("labels", []):
            assert for_label(label).key == d["key"], label


@pytest.mark.parametrize(("label", "expected"), [
    ("US-ASCII", True), ("ascii", True), ("ANSI_X3.4-1968", True), ("iso646-us", True),
    ("ISO_646.irv:1991", True), ("cp367", True), ("csASCII", True), ("us", True), ("646", True),
    ("cp20127", True), ("x-us-ascii", True),
    ("iso-8859-1", False), ("windows-1252", False), ("utf-8", False), ("", False), ("ascii8", False),
])
def test_is_us_ascii_label(label, expected):
    assert is_us_ascii_label(label) is expected


def test_single_byte_table_is_the_decoders_table():
    for cs in charsets.known_charsets():
        try:
            table = single_byte_table(cs.key)
        except KeyError:
            assert "table" not in FACT_OF[cs.key]
            continue
        assert len(table) == 256
        assert cs.decode(bytes(range(256))) == table.replace("\ufffe", "\ufffd")
    with pytest.raises(KeyError):
        single_byte_table("utf-8")
    with pytest.raises(TypeError, match="key"):
        single_byte_table(1252)
