"""Content-Transfer-Encoding: base64 (RFC 2045 6.8, M13), quoted-printable (6.7), uuencode (M14)."""

from __future__ import annotations

import base64

import pytest

import onemail
from onemail.message import MessageIssueKind
from onemail.message.transfer import CHUNK_BYTES, decode_transfer
from onemail.text import IssueKind

K = IssueKind
M = MessageIssueKind


def run(body: bytes, cte: str):
    found = []
    out = decode_transfer(body, cte, issues=found)
    return out.data, out.trailer, [(i.kind, i.offset, i.length) for i in found]


# -- base64 --------------------------------------------------------------------------------


@pytest.mark.parametrize("body, data, issues", [
    (b"Y2Fm\r\nw6k=\r\n", b"caf\xc3\xa9", []),
    (b"Y2Fmw6k", b"caf\xc3\xa9", [(K.INVALID_BASE64, 7, 0)]),
    (b"Y2F*mw6k=", b"caf\xc3\xa9", [(K.INVALID_BASE64, 3, 1)]),
    (b"YQ==\r\nYg==", b"ab", [(K.INVALID_BASE64, 4, 0)]),
    (b"Y", b"", [(K.INVALID_BASE64, 1, 0)]),
])
def test_base64(body, data, issues):
    assert run(body, "base64") == (data, b"", issues)


def test_base64_stops_after_padding():
    """A mailing-list footer after the padding is not decoded as base64 (M13)."""
    body = b"Y2Fmw6k=\r\n\r\n_______________\r\nList mailing list\r\n"
    assert run(body, "base64") == (b"caf\xc3\xa9", b"\r\n_______________\r\nList mailing list\r\n",
                                   [(M.AMBIGUOUS_TEXT_AFTER_BASE64, 10, 38)])


def test_base64_stops_at_a_line_that_is_not_base64():
    """No padding (a multiple of three bytes): the footer line ends the data."""
    body = b"YWJj\r\nZGVm\r\n-- \r\nSent from the list\r\n"
    assert run(body, "base64") == (b"abcdef", b"-- \r\nSent from the list\r\n",
                                   [(M.AMBIGUOUS_TEXT_AFTER_BASE64, 12, 25)])


def test_damage_inside_the_data_is_skipped_not_an_end():
    body = b"QUFB\r\nQU*FB\r\nQUFB\r\n"
    assert run(body, "base64") == (b"AAAAAAAAA", b"", [(K.INVALID_BASE64, 8, 1)])


def test_the_footer_cannot_change_the_charset():
    """A UTF-8 body in base64 with a Latin footer: the body stays UTF-8, the footer is text."""
    body = base64.encodebytes("Grüße aus Köln\n".encode()) + "\r\nListe: Ankündigung\r\n".encode("latin-1")
    msg = onemail.read(b"Content-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\n" + body)
    part = msg.parts[0]
    assert (part.text, part.charset) == ("Grüße aus Köln\n\r\nListe: Ankündigung\r\n", "utf-8")
    assert part.data == "Grüße aus Köln\n".encode()
    assert [(i.kind, i.offset) for i in msg.issues] == [(M.AMBIGUOUS_TEXT_AFTER_BASE64, 25),
                                                        (M.AMBIGUOUS_DEFAULT_CHARSET, 0)]


def test_large_base64_in_chunks_equals_one_piece():
    data = bytes(range(256)) * (3 * CHUNK_BYTES // 256)
    body = base64.encodebytes(data)
    assert run(body, "base64") == (data, b"", [])
    damaged = body[:100] + b"*" + body[100:]
    assert run(damaged, "base64") == (data, b"", [(K.INVALID_BASE64, 100, 1)])


# -- quoted-printable (RFC 2045 6.7) -------------------------------------------------------


@pytest.mark.parametrize("body, data, issues", [
    (b"a==b ==44", b"a==b =D", [(K.INVALID_QUOTED_PRINTABLE, 1, 1), (K.INVALID_QUOTED_PRINTABLE, 2, 1),
                               (K.INVALID_QUOTED_PRINTABLE, 5, 1)]),
    (b"caf=C3=A9 =ZZ x=\r\ny", b"caf\xc3\xa9 =ZZ xy", [(K.INVALID_QUOTED_PRINTABLE, 10, 1)]),
    (b"line  \r\nnext\t\r\n", b"line\r\nnext\r\n", []),  # rule 3: transport padding
    (b"soft=  \r\nbreak", b"softbreak", []),  # rule 5: white space after a soft break
    (b"keep  =\r\nme", b"keep  me", []),  # white space before a soft break is content
    (b"lower=3d=c3=a9", b"lower=\xc3\xa9", []),
    (b"end=", b"end", []),
    (b"=4\r\n1", b"=4\r\n1", [(K.INVALID_QUOTED_PRINTABLE, 0, 1)]),
])
def test_quoted_printable(body, data, issues):
    assert run(body, "quoted-printable") == (data, b"", issues)


def test_soft_break_storm_is_linear():
    body = b"a=\r\n" * 500_000
    assert run(body, "quoted-printable") == (b"a" * 500_000, b"", [])


# -- uuencode (M14) ------------------------------------------------------------------------

UU = b"begin 644 hello.txt\n&:&5L;&\\*\n`\nend\n"


def test_uuencode_transfer_encoding():
    found = []
    out = decode_transfer(UU, "x-uuencode", issues=found)
    assert (out.data, out.name, found) == (b"hello\n", "hello.txt", [])


def test_uuencode_part_takes_the_name_of_its_begin_line():
    msg = onemail.read(b"Content-Type: application/octet-stream\r\nContent-Transfer-Encoding: x-uuencode\r\n\r\n" + UU)
    (part,) = msg.parts
    assert (part.filename, part.data) == ("hello.txt", b"hello\n")


def test_uuencoded_file_inside_a_text_body_is_an_attachment():
    body = b"See the file:\n" + UU + b"Bye\n"
    msg = onemail.read(b"Content-Type: text/plain\r\n\r\n" + body)
    assert [(p.path, p.media_type, p.filename, p.data, p.text) for p in msg.parts] == [
        ("1", "text/plain", None, body, "See the file:\nBye\n"),
        ("1.uu1", "text/plain", "hello.txt", b"hello\n", None)]
    assert [(i.kind, i.where, i.offset, i.length) for i in msg.issues] == [
        (M.AMBIGUOUS_UUENCODED_FILE, "part:1", 14, len(UU))]


def test_begin_without_end_is_text():
    body = b"begin 644 of the meeting is at ten\nno more\n"
    msg = onemail.read(b"Content-Type: text/plain\r\n\r\n" + body)
    assert [(p.path, p.text) for p in msg.parts] == [("1", body.decode())]


# -- message/rfc822 in base64 or quoted-printable ------------------------------------------


@pytest.mark.parametrize("cte", ["base64", "quoted-printable"])
def test_encoded_message_rfc822_is_decoded_then_read(cte):
    inner = "Subject: =?utf-8?q?caf=C3=A9?=\r\n\r\nbonjour à tous\r\n".encode()
    body = base64.encodebytes(inner) if cte == "base64" else inner.replace(b"=", b"=3D").replace(b"\xc3\xa0", b"=C3=A0")
    msg = onemail.read(b"Content-Type: message/rfc822\r\nContent-Transfer-Encoding: " + cte.encode()
                       + b"\r\n\r\n" + body)
    nested = msg.parts[0].message
    assert (nested.subject, nested.parts[0].text) == ("café", "bonjour à tous\r\n")
