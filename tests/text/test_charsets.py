"""``onemail.text.charsets``: labels to charsets, code pages, Charset identity, decode().

Every label of the standard and the mail-only ones: tests/spec/test_labels.py; the tables
against the charset facts: tests/spec/test_tables_current.py."""

from __future__ import annotations

import pickle

import pytest

from onemail.text import (
    IssueKind,
    TextIssue,
    charsets,
    decode,
    decode_unknown,
    for_code_page,
    for_label,
)


def test_labels_compare_loosely_and_give_one_identity():
    assert for_label("  X-EUC_JP ") is for_label("euc-jp") is for_label("eucjp")
    assert for_label("utf8") is for_label("UTF-8")
    assert repr(for_label("latin1")) == "<Charset windows-1252>"  # the Encoding Standard's table
    assert for_label("unknown-8bit") is None and for_label("replacement") is None


def test_code_pages_and_their_header_names():
    assert repr(for_code_page(936)) == "<Charset gb2312 (gbk)>"
    assert repr(for_code_page(949)) == "<Charset ks_c_5601-1987 (euc-kr)>"
    assert repr(for_code_page(20127)) == "<Charset us-ascii (windows-1252)>"
    assert for_code_page(99999) is None
    pages = charsets.known_code_pages()
    assert (pages[:5], pages == sorted(pages), 932 in pages, 65001 in pages) == (
        [437, 737, 775, 850, 852], True, True, True)
    assert all(for_code_page(cp) is not None for cp in pages)
    with pytest.raises(TypeError, match="code_page must be int, not bool"):
        for_code_page(True)


def test_us_ascii_labels():
    assert [charsets.is_us_ascii_label(label) for label in ("ascii", "cp20127", "US-ASCII", "latin1")] == [
        True, True, True, False]


def test_known_charsets_are_sorted_identities():
    known = charsets.known_charsets()
    assert [c.name for c in known] == sorted(c.name for c in known)
    assert len({c.key for c in known}) == len(known)  # one identity per decoder
    assert for_label("utf-8") in known


def test_single_byte_table_is_the_decoder_s_table():
    table = charsets.single_byte_table("windows-1252")
    assert (len(table), table[0x80], table[0x81], table[0xE9]) == (256, "\u20ac", "\x81", "\u00e9")
    assert charsets.single_byte_table("koi8-r")[0xF0] == "\u041f"
    with pytest.raises(KeyError):
        charsets.single_byte_table("utf-8")
    with pytest.raises(TypeError, match="key must be str"):
        charsets.single_byte_table(1252)  # type: ignore[arg-type]


def test_a_charset_decodes_and_encodes_with_issues():
    utf8 = for_label("utf-8")
    issues: list[TextIssue] = []
    assert utf8.decode(b"a\xffb", issues, 10) == "a\ufffdb"
    assert issues == [TextIssue(IssueKind.INVALID_UTF8, 11, 1)]
    issues = []
    assert for_label("koi8-r").encode("\u041f\u0440\u0438\u0432\u0435\u0442\u20ac", issues) == (
        b"\xf0\xd2\xc9\xd7\xc5\xd4?")
    assert issues == [TextIssue(IssueKind.UNENCODABLE, 6, 1)]


def test_a_charset_is_immutable_and_pickles_to_itself():
    utf8 = for_label("utf-8")
    assert pickle.loads(pickle.dumps(utf8)) is utf8
    with pytest.raises(AttributeError, match="immutable"):
        utf8.name = "x"


def test_the_incremental_decoder_holds_a_split_sequence():
    issues: list[TextIssue] = []
    decoder = for_label("utf-8").new_decoder()
    assert (decoder.decode(b"\xc3", issues=issues), decoder.decode(b"\xa9", final=True, issues=issues)) == (
        "", "\u00e9")
    assert issues == []
    decoder.reset()
    assert (decoder.decode(b"\xc3", issues=issues), decoder.decode(b"", final=True, issues=issues)) == (
        "", "\ufffd")
    assert issues == [TextIssue(IssueKind.INVALID_UTF8, 0, 1)]


def test_decode_and_the_unknown_charset_rule():
    assert decode(b"caf\xe9", "latin1") == charsets.DecodeResult("caf\u00e9", for_label("windows-1252"), ())
    unknown = decode(b"caf\xe9", None)
    assert (unknown.text, unknown.charset, unknown.issues) == (
        "caf\u00e9", for_label("windows-1252"), (TextIssue(IssueKind.AMBIGUOUS_UNKNOWN_CHARSET, 0, 4),))
    assert decode_unknown(b"caf\xc3\xa9") == ("caf\u00e9", for_label("utf-8"))
    with pytest.raises(TypeError, match="label must be str, not bytes"):
        for_label(b"utf-8")  # type: ignore[arg-type]
