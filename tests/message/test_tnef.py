"""``onemail.message.tnef``: TNEF streams (MS-OXTNEF) on the bundled examples/mimekit-one-file.tnef
and on streams built here; damage is ``MalformedTnef`` at the attribute's byte offset."""

from __future__ import annotations

import struct
from datetime import UTC, datetime

from paths import REPO

from onemail.message import MessageIssue, MessageIssueKind
from onemail.message.formats import ReadContext
from onemail.message.reader import read_bytes
from onemail.message.tnef import read_tnef

M = MessageIssueKind
ONE_FILE = (REPO / "examples" / "mimekit-one-file.tnef").read_bytes()
CTX = ReadContext(False, 0, read_bytes)


def _stream(*attributes: bytes) -> bytes:
    return struct.pack("<IH", 0x223E9F78, 0) + b"".join(attributes)


def _attribute(level: int, att_id: int, value: bytes, checksum: int | None = None) -> bytes:
    """One attribute: level, id (type in the high word), length, data, 16-bit checksum."""
    if checksum is None:
        checksum = sum(value) & 0xFFFF
    return struct.pack("<BII", level, att_id, len(value)) + value + struct.pack("<H", checksum)


def test_the_mimekit_sample():
    msg = read_tnef(ONE_FILE, CTX)
    assert (msg.format, msg.subject, msg.date, msg.issues) == (
        "tnef", "one-file", datetime(1999, 10, 14, 2, 47, 44, tzinfo=UTC), ())
    assert [(p.path, p.filename, len(p.data), p.origin, p.disposition) for p in msg.parts] == [
        ("att1", "AUTHORS", 244, "attachment", "attachment")]
    assert msg.parts[0].data.startswith(b"\n                              Authors of tnef\n")
    props = {p.tag: p.value for p in msg.properties}
    assert (len(props), props[0x3FFD], props[0x3FDE]) == (57, 1252, 28591)  # message, internet code page


def test_a_cut_property_list_is_one_issue_at_its_attribute():
    msg = read_tnef(ONE_FILE[:500], CTX)
    assert msg.subject == "one-file"  # read before the cut
    assert msg.issues == (MessageIssue(M.MALFORMED_TNEF, "tnef:attMsgProps", 237, 263),)


def test_legacy_subject_checksum_and_trailing_bytes():
    subject = _attribute(1, 0x00018004, b"Hello\x00")
    assert (read_tnef(_stream(subject), CTX).subject, read_tnef(_stream(subject), CTX).issues) == ("Hello", ())
    bad = read_tnef(_stream(_attribute(1, 0x00018004, b"Hello\x00", checksum=1)), CTX)
    assert (bad.subject, bad.issues) == ("Hello", (MessageIssue(M.MALFORMED_TNEF, "tnef:attSubject", 6, 17),))
    trailing = read_tnef(_stream(subject) + b"xx", CTX)
    assert trailing.issues == (MessageIssue(M.MALFORMED_TNEF, "tnef:trailing", 23, 2),)


def test_not_a_stream_and_an_empty_one():
    assert read_tnef(b"", CTX).error == "not a TNEF stream (no 0x223E9F78 signature)"
    empty = read_tnef(_stream(), CTX)
    assert (empty.error, empty.subject, empty.parts, empty.issues) == (None, None, (), ())
