"""``onemail.message.repair``: mojibake reported by default (M16), repaired on request."""

from __future__ import annotations

from onemail.message import MessageIssue, MessageIssueKind, read
from onemail.message.model import RepairRecord
from onemail.message.repair import CHECK_CHARACTERS, mark_mojibake, repair_message

# UTF-8 text read as windows-1252 and written back as UTF-8 (a classic double encoding)
DATA = ("Subject: Caf\u00c3\u00a9 cr\u00c3\u00a8me\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
        "d\u00c3\u00a9j\u00c3\u00a0 vu\r\n").encode("utf-8")
STEPS = (("windows-1252", "utf-8"),)


def test_reported_by_default_and_left_as_it_is():
    msg = read(DATA)
    assert (msg.subject, msg.parts[0].text) == ("Caf\u00c3\u00a9 cr\u00c3\u00a8me", "d\u00c3\u00a9j\u00c3\u00a0 vu\r\n")
    # lengths are of the raw bytes: the Subject value (16) and the part body (15)
    assert msg.issues == (MessageIssue(MessageIssueKind.SUSPECTED_MOJIBAKE, "header:Subject", 0, 16),
                          MessageIssue(MessageIssueKind.SUSPECTED_MOJIBAKE, "part:1", 0, 15))
    assert msg.mojibake == (RepairRecord("header:Subject", STEPS), RepairRecord("part:1", STEPS))
    assert msg.repairs == ()


def test_repaired_on_request_with_replayable_steps():
    msg = read(DATA, repair=True)
    assert (msg.subject, msg.header("Subject"), msg.parts[0].text) == (
        "Caf\u00e9 cr\u00e8me", "Caf\u00e9 cr\u00e8me", "d\u00e9j\u00e0 vu\r\n")
    assert msg.repairs == (RepairRecord("header:Subject", STEPS), RepairRecord("subject", STEPS),
                           RepairRecord("part:1", STEPS))
    assert (msg.issues, msg.mojibake) == ((), ())


def test_clean_text_is_left_alone():
    msg = read("Subject: Caf\u00e9\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nd\u00e9j\u00e0\r\n".encode())
    assert mark_mojibake(msg) is msg
    assert repair_message(msg).repairs == ()
    assert CHECK_CHARACTERS == 4096
