"""The header section: raw fields with offsets, only an empty line ends it (M10)."""

from __future__ import annotations

import pytest

import onemail
from onemail.message import MessageIssueKind
from onemail.message.fields import split_header

M = MessageIssueKind


def split(data: bytes):
    issues = []
    fields, body = split_header(data, 0, len(data), issues=issues, where="headers")
    return ([(f.name, f.value, f.offset, f.length) for f in fields], body,
            [(i.kind, i.where, i.offset, i.length) for i in issues])


def test_issue_13_header_line_without_a_colon():
    data = b"X-A: 1\r\nInvalidHeader\r\nSubject: hi\r\nFrom: a@example.com\r\n\r\nbody"
    msg = onemail.read(data)
    assert (msg.subject, [a.address for a in msg.from_], msg.parts[0].text) == ("hi", ["a@example.com"], "body")
    assert [(i.kind, i.where, i.offset, i.length) for i in msg.issues] == [(M.MALFORMED_HEADER, "headers", 8, 13)]
    assert [h.name for h in msg.headers] == ["X-A", "Subject", "From"]


def test_junk_such_as_nbsp_before_a_name():
    data = "X-A: 1\r\n\u00a0Subject: junk\r\nSubject: hi\r\n\r\n".encode()
    assert split(data) == ([(b"X-A", b"1", 5, 1), (b"Subject", b"hi", 34, 2)], 40,
                           [(M.MALFORMED_HEADER, "headers", 8, 15)])


def test_offsets_folds_and_true_lengths():
    data = b"Subject: a\r\n b\r\nX-Empty:\r\nX-Obs  : c\r\n\r\n"
    assert split(data) == ([(b"Subject", b"a\r\n b", 9, 5), (b"X-Empty", b"", 24, 0), (b"X-Obs", b"c", 35, 1)],
                           40, [])


def test_empty_header_section():
    assert split(b"\r\nbody") == ([], 2, [])
    assert split(b"\nbody") == ([], 1, [])
    assert split(b"") == ([], 0, [])


def test_no_empty_line_the_body_starts_at_the_first_line_that_is_no_field():
    assert split(b"Subject: a\r\nHello\r\nNote: x") == ([(b"Subject", b"a", 9, 1)], 12,
                                                      [(M.MALFORMED_HEADER, "headers", 12, 0)])


def test_body_without_its_empty_line_keeps_its_text():
    """No field follows the first line that is no field: the body starts there."""
    data = b"From: a@b\r\nHello there,\r\nI write\r\n\r\nRegards"
    fields, body, issues = split(data)
    assert (data[body:], issues) == (b"Hello there,\r\nI write\r\n\r\nRegards",
                                     [(M.MALFORMED_HEADER, "headers", 11, 0)])


def test_a_delimiter_line_ends_the_section():
    """enmime qp-utf8-header-no-break: preamble and the first part's fields before any empty line."""
    data = (b"Content-Type: multipart/alternative; boundary=b\r\nThis is a preamble.\r\n--b\r\n"
            b"Content-Type: text/plain\r\n\r\nhi\r\n--b--\r\n")
    msg = onemail.read(data)
    assert [(p.path, p.media_type, p.text) for p in msg.parts] == [("1", "text/plain", "hi")]


def test_a_line_starting_with_two_dashes_is_no_field():
    """spamassassin spam 015: ----9-274170048-9813316604=:18061 has the shape of a field."""
    data = (b"Content-Type: multipart/alternative;\r\n boundary=\"--9-27=:1\"\r\n \r\n----9-27=:1\r\n"
            b"Content-Type: text/plain\r\n\r\nGood Day\r\n----9-27=:1--\r\n")
    msg = onemail.read(data)
    assert [(p.media_type, p.text) for p in msg.parts] == [("text/plain", "Good Day")]


def test_parameter_that_lost_the_white_space_of_its_fold():
    """enmime bad-header-wrap: name="..." on a line of its own after a field ending in ';'."""
    data = (b"Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n"
            b"Content-Type: application/zip;\r\nname=\"a.zip\"\r\nContent-Disposition: attachment\r\n\r\nx\r\n--b--\r\n")
    msg = onemail.read(data)
    (part,) = msg.parts
    assert (part.filename, part.disposition) == ("a.zip", "attachment")
    assert [(i.kind, i.where, i.offset, i.length) for i in msg.issues] == [
        (M.MALFORMED_HEADER, "part:1/headers", 82, 12)]


@pytest.mark.parametrize("prefix", [b"\xef\xbb\xbf", b"From a@b Sat Jan  1 00:00:00 2000\r\n"])
def test_bom_and_envelope_line_before_the_fields(prefix):
    msg = onemail.read(b"Content-Type: message/rfc822\r\n\r\n" + prefix + b"Subject: inner\r\n\r\nx")
    assert (msg.parts[0].message.subject, msg.issues) == ("inner", ())


def test_leading_fold_without_a_field():
    assert split(b" fold\r\nSubject: a\r\n\r\n") == ([(b"Subject", b"a", 16, 1)], 21,
                                                     [(M.MALFORMED_HEADER, "headers", 0, 5)])


def test_every_field_keeps_its_raw_bytes_and_offset():
    data = b"Subject: =?utf-8?q?caf=C3=A9?=\r\nX-B:  two\r\n\r\n"
    msg = onemail.read(data)
    assert [(h.name, h.value, h.raw, h.offset) for h in msg.headers] == [
        ("Subject", "café", b"=?utf-8?q?caf=C3=A9?=", 9), ("X-B", "two", b"two", 38)]
    assert all(data[h.offset:h.offset + len(h.raw)] == h.raw for h in msg.headers)


def test_junk_lines_are_linear():
    """Many lines that are no field before one that is: each is looked at once."""
    data = b"X: 1\n" + b"junk\n" * 200_000 + b"Subject: s\n\nbody"
    fields, body, issues = split(data)
    assert (len(fields), len(issues), issues[0][2:]) == (2, 1, (5, 5 * 200_000 - 1))
