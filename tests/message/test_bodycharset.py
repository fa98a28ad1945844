"""Body charset choice (spec README decision 3) and the WHATWG prescan, one quirk per test."""

from __future__ import annotations

import pytest

import onemail
from onemail.message import MessageIssueKind
from onemail.message.bodycharset import decode_body, prescan, xml_declaration
from onemail.text import IssueKind, TextIssue, for_code_page

K = IssueKind
M = MessageIssueKind


def run(data: bytes, media_type: str = "text/plain", declared=None):
    issues: list[TextIssue] = []
    text, cs, source = decode_body(data, media_type, declared, issues=issues)
    return text, cs.name, source, [(i.kind, i.offset, i.length) for i in issues]


def test_declared():
    assert run(b"caf\xe9", declared="iso-8859-1") == ("café", "windows-1252", "declared", [])


def test_declared_code_page_charset():
    assert run(b"caf\xe9", declared=for_code_page(1252)) == ("café", "windows-1252", "declared", [])


def test_no_charset_ascii_is_us_ascii_without_issue():
    assert run(b"plain\r\n") == ("plain\r\n", "us-ascii", "default", [])


def test_no_charset_utf8():
    assert run("Mobilité".encode()) == ("Mobilité", "utf-8", "default",
                                        [(M.AMBIGUOUS_DEFAULT_CHARSET, 0, 9)])


def test_no_charset_8bit_goes_to_detector():
    text, name, source, issues = run("Die Hasen und die Frösche klagten über ihre Lage".encode("cp1252"))
    assert source == "detected"
    assert issues[0] == (M.AMBIGUOUS_DETECTED_CHARSET, 0, 48)


def test_detected_tie_looks_at_the_second_row_only():
    """M2 (hostile test): a KOI8-R reply below an English quote ties koi8-r with koi8-u (the
    same reading); rows further down show bounds that round to the same score (D16) and must
    not send the body to windows-1252."""
    reply = ("Здравствуйте, Иван Петрович!\nСпасибо за Ваше письмо. Завтра утром я отправлю Вам "
             "договор и счёт за прошлый месяц. Можем ли мы встретиться в четверг после обеда? "
             "Заранее благодарю за ответ.\nС уважением, Екатерина\n\n")
    data = reply.encode("koi8_r") + (
        b"On Mon, 3 Jun 2024 at 10:15, John Smith <john.smith@example.com> wrote:\n"
        b"> Hi,\n> Could you please send me the contract and last month's invoice?\n"
        b"> We also need to schedule a meeting for next week to discuss the budget.\n"
        b"> Thanks in advance,\n> John\n")
    text, name, source, _ = run(data)
    assert (name, source) == ("koi8-r", "detected")
    assert text.startswith(reply)


def test_us_ascii_label_on_utf8_body_is_mislabelled():
    """M6 (hostile test): a mailer's default us-ascii on a UTF-8 body; other 8-bit bytes keep
    the label's windows-1252 reading."""
    body = "Grüße – naïve café".encode()
    for label in ("us-ascii", "US-ASCII", "ascii", "ANSI_X3.4-1968"):
        assert run(body, declared=label) == ("Grüße – naïve café", "utf-8", "detected",
                                             [(M.AMBIGUOUS_MISLABELLED_CHARSET, 0, len(body))])
    assert run(b"caf\xe9", declared="us-ascii") == ("café", "windows-1252", "declared", [])
    assert run(b"plain", declared="us-ascii") == ("plain", "us-ascii", "declared", [])


def test_unknown_label_valid_utf8():
    assert run("é".encode(), declared="x-unknown") == ("é", "utf-8", "default",
                                                      [(K.AMBIGUOUS_UNKNOWN_CHARSET, 0, 2)])


def test_unknown_label_ascii():
    assert run(b"abc", declared="x-unknown") == ("abc", "us-ascii", "default",
                                                 [(K.AMBIGUOUS_UNKNOWN_CHARSET, 0, 3)])


def test_bom_wins_over_declared():
    text, name, source, issues = run(b"\xef\xbb\xbfcaf\xc3\xa9", declared="iso-8859-1")
    assert (text, name, source, issues) == ("\ufeffcafé", "utf-8", "bom", [(M.AMBIGUOUS_CHARSET_CONFLICT, 0, 3)])


def test_bom_without_declared():
    assert run(b"\xff\xfea\x00") == ("\ufeffa", "utf-16le", "bom", [(M.AMBIGUOUS_IN_BAND_CHARSET, 0, 2)])


def test_bom_agreeing_with_declared_is_declared():
    assert run(b"\xef\xbb\xbfa", declared="utf-8") == ("\ufeffa", "utf-8", "declared", [])


HTML_UTF8 = '<html><head><meta charset="utf-8"></head><body>café</body></html>'.encode()


def test_html_meta_over_declared_when_clean():
    text, name, source, issues = run(HTML_UTF8, "text/html", "iso-8859-1")
    assert (name, source, issues) == ("utf-8", "in-band", [(M.AMBIGUOUS_CHARSET_CONFLICT, 12, 22)])
    assert "café" in text


def test_html_meta_not_clean_keeps_declared():
    data = '<meta charset="utf-8"><p>café</p>'.encode("cp1252")
    text, name, source, issues = run(data, "text/html", "windows-1252")
    assert (name, source, issues) == ("windows-1252", "declared", [(M.AMBIGUOUS_CHARSET_CONFLICT, 0, 22)])
    assert "café" in text


def test_html_meta_without_declared():
    data = b'<meta http-equiv="Content-Type" content="text/html; charset=koi8-r"><p>\xf0\xd2\xc9</p>'
    text, name, source, issues = run(data, "text/html")
    assert (name, source, issues) == ("koi8-r", "in-band", [(M.AMBIGUOUS_IN_BAND_CHARSET, 0, 68)])
    assert text.endswith("<p>При</p>")


def test_html_meta_equal_to_declared():
    assert run(HTML_UTF8, "text/html", "UTF8")[1:] == ("utf-8", "declared", [])


def test_meta_ignored_in_text_plain():
    assert run(HTML_UTF8, "text/plain", "iso-8859-1")[1:3] == ("windows-1252", "declared")


def test_xml_declaration():
    data = b'<?xml version="1.0" encoding="ISO-8859-2"?><a>\xb1</a>'
    assert run(data, "text/xml") == (data.decode("iso-8859-2"), "iso-8859-2", "in-band",
                                     [(M.AMBIGUOUS_IN_BAND_CHARSET, 30, 10)])


@pytest.mark.parametrize("html, label", [
    (b'<meta charset=utf-8>', "utf-8"),
    (b"<META CHARSET='Shift_JIS'>", "shift_jis"),
    (b'<!-- <meta charset="koi8-r"> --><meta charset="gbk">', "gbk"),
    (b'<meta http-equiv="content-type" content="text/html;charset=big5">', "big5"),
    (b'<meta content="text/html; charset=big5">', None),  # no http-equiv: need_pragma unmet
    (b'<meta charset="utf-16le">', "utf-8"),  # UTF-16 means UTF-8 in the prescan
    (b'<meta charset="x-user-defined">', "windows-1252"),
    (b'<p title="<meta charset=koi8-r>"><meta charset=euc-kr>', "euc-kr"),
    (b'<meta charset="nonsense"><meta charset="koi8-u">', "koi8-u"),
    (b" " * 1024 + b'<meta charset="koi8-r">', None),  # beyond the 1024 prescan bytes
    (b"<!-- unclosed <meta charset=koi8-r>", None),
])
def test_prescan(html, label):
    found = prescan(html)
    assert (found[0].lower() if found else None) == label


def test_xml_declaration_only_at_start():
    assert xml_declaration(b' <?xml version="1.0" encoding="utf-8"?>') is None


def test_m6_utf8_body_labelled_iso_2022_jp():
    data = "宛先がみつかりませんでした。".encode()
    assert run(data, declared="iso-2022-jp") == ("宛先がみつかりませんでした。", "utf-8", "detected",
                                                 [(M.AMBIGUOUS_MISLABELLED_CHARSET, 0, len(data))])


def test_m6_few_bad_bytes_keep_utf8():
    data = "日本語のテキストです。".encode() * 3 + b"\xff"
    text, name, source, issues = run(data, declared="utf-8")
    assert (name, source, issues) == ("utf-8", "declared", [(K.INVALID_UTF8, len(data) - 1, 1)])
    assert text.endswith("です。\ufffd")


def test_m6_single_byte_labels_are_kept():
    data = "宛先".encode()
    assert run(data, declared="iso-8859-1")[1:] == ("windows-1252", "declared", [])


def test_doctests():
    import doctest

    import onemail.message.bodycharset as module

    assert doctest.testmod(module).failed == 0


def test_utf8_body_cut_short_stays_utf8():
    """Issue 13: a short body declared UTF-8 whose last character is cut short is UTF-8 with
    InvalidUtf8, not relabelled (before: re-read as iso-8859-16 by M6)."""
    issues = []
    text, cs, source = decode_body(b"caf\xc3", "text/plain", "utf-8", issues=issues)
    assert (text, cs.name, source) == ("caf\ufffd", "utf-8", "declared")
    assert [(i.kind, i.offset, i.length) for i in issues] == [(K.INVALID_UTF8, 3, 1)]
    issues = []
    text, cs, source = decode_body("€ 5 \u20ac".encode()[:-1], "text/plain", "utf-8", issues=issues)
    assert (text, cs.name, [(i.kind, i.offset, i.length) for i in issues]) == (
        "€ 5 \ufffd", "utf-8", [(K.INVALID_UTF8, 6, 2)])


def test_latin1_body_labelled_utf8_is_still_relabelled():
    data = "Grüße aus Köln".encode("latin-1")
    issues = []
    text, cs, source = decode_body(data, "text/plain", "utf-8", issues=issues)
    assert (text, source) == ("Grüße aus Köln", "detected")
    assert [(i.kind, i.offset, i.length) for i in issues] == [(M.AMBIGUOUS_MISLABELLED_CHARSET, 0, len(data))]


@pytest.mark.parametrize("label, bound", [("utf-7", 7.5), ("iso-2022-jp", 5.6)])
def test_a_mislabelled_body_lets_the_declared_reading_go_before_the_next(label, bound):
    """0xFF bytes declared in a 7-bit charset: the declared reading (every byte an error) is
    dropped before windows-1256 is tried (M6), so the peak of traced memory is ~2 bytes per
    input byte lower (bench/bombs.py utf7-invalid / iso2022-invalid at 8 MB: 84 -> 67 MB peak
    RSS, over the 4x + 50 MB goal before). Traced memory, not time: deterministic."""
    import tracemalloc

    data = b"Content-Type: text/plain; charset=" + label.encode() + b"\r\n\r\n" + b"\xff" * (4 << 20)
    tracemalloc.start()
    try:
        msg = onemail.read(data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert (msg.parts[0].charset, msg.parts[0].charset_source) == ("windows-1256", "detected")
    assert msg.parts[0].text == "\u06d2" * (4 << 20)
    assert peak < bound * len(data)


# --- M50: NUL characters in the text (binary content sent as text) ---------------------------

def _nul_issues(data: bytes, media: str = "text/plain", declared: str | None = "us-ascii"):
    found: list = []
    text, cs, _ = decode_body(data, media, declared, issues=found)
    return text, [(i.kind.value, i.offset, i.length) for i in found if i.kind.value == "AmbiguousNulInText"]


def test_a_body_of_nul_bytes_is_kept_and_reported_once():
    text, found = _nul_issues(b"\0" * 4096)
    assert text == "\0" * 4096 and found == [("AmbiguousNulInText", 0, 4096)]


def test_the_issue_is_at_the_first_run_of_nuls():
    text, found = _nul_issues(b"abc\0\0def\0gh", "text/html", "utf-8")
    assert text == "abc\0\0def\0gh" and found == [("AmbiguousNulInText", 3, 2)]


def test_utf16_nul_units_count_whole_units_on_unit_boundaries():
    data = "ab".encode("utf-16le") + b"\0\0\0\0" + "\u0100".encode("utf-16le")  # U+0100 is 00 01
    text, found = _nul_issues(data, declared="utf-16le")
    assert text == "ab\0\0\u0100" and found == [("AmbiguousNulInText", 4, 4)]
    assert _nul_issues("Ā and ā".encode("utf-16le"), declared="utf-16le")[1] == []  # NUL bytes, no NUL text
    # a pair, a lone surrogate (one U+FFFD of one unit), a BOM before the NULs: still whole units
    data = b"\xff\xfe" + "😀".encode("utf-16le") + b"\x00\xd8" + b"\0\0" * 3 + b"a\0"
    text, found = _nul_issues(data, declared="utf-16le")
    assert text == "\ufeff😀\ufffd\0\0\0a" and found == [("AmbiguousNulInText", 8, 6)]
    text, found = _nul_issues("x\0".encode("utf-32be"), declared="utf-32be")
    assert found == [("AmbiguousNulInText", 4, 4)]


def test_text_without_nul_is_not_reported():
    assert _nul_issues(b"plain text\r\n")[1] == []


def test_read_reports_the_part():
    from onemail.message import read

    msg = read(b"From: a@example.com\r\nContent-Type: text/plain\r\n\r\nbefore\0after\r\n")
    assert msg.parts[0].text == "before\0after\r\n"
    assert [(i.kind.value, i.where, i.offset, i.length) for i in msg.issues] == [
        ("AmbiguousNulInText", "part:1", 6, 1)]
