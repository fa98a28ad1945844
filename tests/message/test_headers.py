"""``onemail.message.headers``: one header value decoded, MIME parameters, the raw 8-bit charset.

Offsets are bytes into the raw value (the bytes after ``Name:``)."""

from __future__ import annotations

from onemail.message import MessageIssue
from onemail.message.fields import Field
from onemail.message.headers import decode_header, parameters, raw_8bit_fallback, token
from onemail.message.model import Header
from onemail.text import IssueKind, for_label


def _field(value: bytes) -> Field:
    return Field(b"Subject", value, 9, len(value))


def test_an_encoded_word_decoded():
    raw = b"=?utf-8?q?caf=C3=A9?= ok"
    assert decode_header(_field(raw)) == Header("Subject", "caf\u00e9 ok", (), raw, 9)


def test_damage_inside_an_encoded_word_is_placed_in_the_raw_value():
    header = decode_header(_field(b"=?utf-8?q?caf=C3?= ok"))
    # "=C3" starts at byte 13 of the raw value: a lone UTF-8 lead byte, three bytes as written
    assert (header.value, header.issues) == ("caf\ufffd ok", (
        MessageIssue(IssueKind.INVALID_UTF8, "header:Subject", 13, 3),))


def test_raw_8bit_text_in_the_fallback_charset():
    amb = (MessageIssue(IssueKind.AMBIGUOUS_RAW_8BIT, "header:Subject", 3, 1),)
    assert (decode_header(_field(b"caf\xe9")).value, decode_header(_field(b"caf\xe9")).issues) == (
        "caf\u00e9", amb)  # windows-1252 by default (M9)
    assert decode_header(_field(b"caf\xe9"), fallback=for_label("koi8-r")).value == "caf\u0418"


def test_parameters_plain_and_rfc_2231():
    issues: list[MessageIssue] = []
    assert parameters(b'attachment; filename="a b.txt"; Size=3', "part:1", issues=issues) == (
        "attachment", {"filename": "a b.txt", "size": "3"})
    assert parameters(b"attachment; filename*=utf-8''caf%C3%A9.txt", "part:1", issues=issues) == (
        "attachment", {"filename": "caf\u00e9.txt"})
    assert issues == []
    assert parameters(b"attachment; filename*=utf-8''caf%C3.txt", "part:1", issues=issues) == (
        "attachment", {"filename": "caf\ufffd.txt"})
    assert issues == [MessageIssue(IssueKind.INVALID_UTF8, "part:1/filename", 32, 3)]


def test_token_drops_comments_and_quotes():
    assert token(b' (a (nested) comment) "Base64" ; x') == "base64"
    assert token(b"QUOTED-PRINTABLE") == "quoted-printable"


def test_raw_8bit_fallback_uses_the_body_s_declared_charset_when_the_bytes_fit():
    latin = [Field(b"Subject", b"caf\xe9", 0, 4)]
    assert raw_8bit_fallback(latin, body_label="iso-8859-15") is for_label("iso-8859-15")
    # UTF-8 says nothing about bytes that are not UTF-8: the detector reads them
    assert raw_8bit_fallback(latin, body_label="utf-8") is for_label("windows-1252")
    # nothing to decide for ASCII or UTF-8 header bytes
    assert raw_8bit_fallback([Field(b"Subject", b"ascii", 0, 5)], body_label="iso-8859-15") is None
    assert raw_8bit_fallback([Field(b"Subject", b"caf\xc3\xa9", 0, 5)], body_label="iso-8859-15") is None
