"""The MIME tree: RFC 2046 section 5.1.1's sample message, CFWS and quoting in the MIME fields."""

from __future__ import annotations

import pytest

import onemail
from onemail.message import MessageIssueKind

M = MessageIssueKind

RFC2046_SAMPLE = (
    "From: Nathaniel Borenstein <nsb@bellcore.com>\r\n"
    "To: Ned Freed <ned@innosoft.com>\r\n"
    "Date: Sun, 21 Mar 1993 23:56:48 -0800 (PST)\r\n"
    "Subject: Sample message\r\n"
    "MIME-Version: 1.0\r\n"
    'Content-type: multipart/mixed; boundary="{boundary}"\r\n'
    "\r\n"
    "This is the preamble.  It is to be ignored, though it\r\n"
    "is a handy place for composition agents to include an\r\n"
    "explanatory note to non-MIME conformant readers.\r\n"
    "\r\n"
    "--simple boundary\r\n"
    "\r\n"
    "This is implicitly typed plain US-ASCII text.\r\n"
    "It does NOT end with a linebreak.\r\n"
    "--simple boundary\r\n"
    "Content-type: text/plain; charset=us-ascii\r\n"
    "\r\n"
    "This is explicitly typed plain US-ASCII text.\r\n"
    "It DOES end with a linebreak.\r\n"
    "\r\n"
    "--simple boundary--\r\n"
    "\r\n"
    "This is the epilogue.  It is also to be ignored.\r\n")


@pytest.mark.parametrize("boundary", ["simple boundary", "simple\r\n boundary"])
def test_rfc2046_section_5_1_1_sample(boundary):
    """The sample as written, and with its boundary parameter folded (unfolded before parsing)."""
    msg = onemail.read(RFC2046_SAMPLE.format(boundary=boundary).encode())
    assert [(p.path, p.media_type, p.charset, p.text) for p in msg.parts] == [
        ("1", "text/plain", "us-ascii", "This is implicitly typed plain US-ASCII text.\r\n"
                                        "It does NOT end with a linebreak."),
        ("2", "text/plain", "us-ascii", "This is explicitly typed plain US-ASCII text.\r\n"
                                        "It DOES end with a linebreak.\r\n")]
    assert (msg.subject, msg.date.isoformat(), [str(a) for a in msg.from_]) == (
        "Sample message", "1993-03-21T23:56:48-08:00", ["Nathaniel Borenstein <nsb@bellcore.com>"])
    assert msg.issues == ()


def _one(fields: bytes, body: bytes = b"x"):
    (part,) = onemail.read(fields + b"\r\n" + body).parts
    return part


def test_comments_in_content_type_and_transfer_encoding():
    part = _one(b"Content-Type: text/plain (plain text); charset=utf-8\r\n"
                b"Content-Transfer-Encoding: (comment) base64\r\n", b"Y2Fmw6k=")
    assert (part.media_type, part.charset, part.text) == ("text/plain", "utf-8", "café")


def test_quoted_and_commented_disposition():
    part = _one(b'Content-Type: application/pdf\r\nContent-Disposition: "attachment"; filename=a.pdf\r\n')
    assert (part.disposition, part.filename) == ("attachment", "a.pdf")
    part = _one(b"Content-Type: application/pdf\r\nContent-Disposition: attachment (file); filename=a.pdf\r\n")
    assert (part.disposition, part.filename) == ("attachment", "a.pdf")


def test_parameter_with_a_comment_and_a_folded_unquoted_file_name():
    part = _one(b"Content-Type: application/octet-stream; name=one(comment)\r\n")
    assert part.filename == "one"
    part = _one(b"Content-Type: application/pdf\r\n"
                b"Content-Disposition: attachment; filename=Partnership Agreement\r\n\tForm 11.pdf\r\n")
    assert part.filename == "Partnership Agreement\tForm 11.pdf"


def test_missing_semicolon_before_a_folded_boundary():
    msg = onemail.read(b'Content-Type: multipart/mixed\r\n boundary="b"\r\n\r\n--b\r\n\r\nhi\r\n--b--\r\n')
    assert [(p.path, p.text) for p in msg.parts] == [("1", "hi")]


def test_unterminated_comment_after_the_boundary():
    msg = onemail.read(b'Content-Type: multipart/mixed; boundary="AAA" (unterminated\r\n\r\n'
                       b"--AAA\r\n\r\nhi\r\n--AAA--\r\n")
    assert [p.text for p in msg.parts] == ["hi"]


def test_missing_media_type_keeps_the_name():
    part = _one(b'Content-Type: name="x.pdf"\r\n')
    assert (part.media_type, part.filename) == ("text/plain", "x.pdf")


def test_rfc2047_inside_rfc2231_continuation_segments():
    part = _one(b'Content-Type: application/pdf\r\nContent-Disposition: attachment; filename*0="=?UTF-8?Q?a=C3=A9?="\r\n')
    assert part.filename == "aé"


def test_multipart_digest_parts_default_to_message_rfc822():
    msg = onemail.read(b"Content-Type: multipart/digest; boundary=b\r\n\r\n--b\r\n\r\n"
                       b"Subject: one\r\n\r\nfirst\r\n--b--\r\n")
    (part,) = msg.parts
    assert (part.media_type, part.message.subject, part.message.parts[0].text) == ("message/rfc822", "one", "first")


def test_multipart_without_boundary_is_text():
    msg = onemail.read(b"Content-Type: multipart/mixed\r\n\r\nno parts here\r\n")
    assert [(p.media_type, p.text) for p in msg.parts] == [("text/plain", "no parts here\r\n")]
    assert [(i.kind, i.where, i.offset) for i in msg.issues] == [(M.MALFORMED_MIME_STRUCTURE, "mime", 14)]


def test_missing_close_delimiter():
    msg = onemail.read(b"Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n\r\nhi\r\n")
    assert [p.text for p in msg.parts] == ["hi\r\n"]
    assert [(i.kind, i.where) for i in msg.issues] == [(M.MALFORMED_MIME_STRUCTURE, "mime")]


def test_outer_boundary_ends_inner_parts():
    """A nested multipart whose close delimiter is missing ends at its parent's delimiter."""
    msg = onemail.read(b"Content-Type: multipart/mixed; boundary=outer\r\n\r\n--outer\r\n"
                       b"Content-Type: multipart/alternative; boundary=inner\r\n\r\n--inner\r\n\r\none\r\n"
                       b"--outer\r\n\r\ntwo\r\n--outer--\r\n")
    assert [(p.path, p.text) for p in msg.parts] == [("1.1", "one"), ("2", "two")]


def test_an_invalid_content_type_is_the_default_and_reported():
    """Fresh-user report F7: a Content-Type that is no ``type/subtype`` became text/plain (RFC
    2045 5.2's advice) with no issue: the field is damage, reported at its value; in a digest
    the default stays message/rfc822."""
    from onemail.message import read

    for value in (b"text/html\x01", b"foo", b"image/", b"application/pdf extra", b""):
        msg = read(b"Content-Type: " + value + b"\r\n\r\n<b>x</b>\r\n")
        assert msg.parts[0].media_type == "text/plain"
        assert [(i.kind.value, i.where, i.offset, i.length) for i in msg.issues] == [
            ("MalformedMimeStructure", "mime", 14, len(value))], value
    assert read(b'Content-Type: "Text/HTML"\r\n\r\n<b>x</b>\r\n').issues == ()
    digest = (b"Content-Type: multipart/digest; boundary=b\r\n\r\n--b\r\nContent-Type: bad\r\n\r\n"
              b"Subject: inner\r\n\r\nhi\r\n--b--\r\n")
    msg = read(digest)
    assert [p.media_type for p in msg.parts] == ["message/rfc822"]
    assert [(i.kind.value, i.where) for i in msg.issues] == [("MalformedMimeStructure", "mime:1")]
