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


def _forward(inner: bytes) -> bytes:
    return (b'From: a@example.com\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="b"\r\n\r\n'
            b"--b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nsee attached\r\n"
            b"--b\r\nContent-Type: message/rfc822\r\n\r\n" + inner + b"\r\n--b--\r\n")


def test_a_nested_message_s_mojibake_has_its_record_at_the_issue_s_place():
    """Every ``SuspectedMojibake`` issue has the record of its chain at the same place, a
    forwarded message's too (``part:2>header:Subject``), as ``repair=True`` lists a nested
    message's repairs; before, the parent listed the issues and no record for them."""
    msg = read(_forward(DATA))
    assert [(i.kind, i.where) for i in msg.issues] == [
        (MessageIssueKind.SUSPECTED_MOJIBAKE, "part:2>header:Subject"), (MessageIssueKind.SUSPECTED_MOJIBAKE, "part:2>part:1")]
    assert msg.mojibake == (RepairRecord("part:2>header:Subject", STEPS), RepairRecord("part:2>part:1", STEPS))
    assert msg.parts[1].message is not None and msg.parts[1].message.mojibake == (
        RepairRecord("header:Subject", STEPS), RepairRecord("part:1", STEPS))
    repaired = read(_forward(DATA), repair=True)
    assert [r.where for r in repaired.repairs] == ["part:2>header:Subject", "part:2>subject", "part:2>part:1"]


def test_a_nested_message_s_issue_counts_are_kept():
    """A nested message's ``TooManyIssues`` keeps its count in the parent's list (before: 1)."""
    inner = (b"From: c@example.com\r\nSubject: " + b"=?utf-8?q?=FF?= x " * 300
             + b"\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nok\r\n")
    alone = [i for i in read(inner).issues if i.kind.value == "TooManyIssues"]
    nested = [i for i in read(_forward(inner)).issues if i.kind.value == "TooManyIssues"]
    assert [(i.where, i.count) for i in alone] == [("header:Subject", 200)]
    assert [(i.where, i.count) for i in nested] == [("part:2>header:Subject", 200)]


# Mail as a new user's would come: UTF-8 text read as windows-1252 and sent as UTF-8 again, in
# several languages; the body declared UTF-8 (so the decode has zero issues of its own)
_TEXTS = {
    "japanese": "メールを送信しました。明日の会議は十時からです。",
    "russian": "Привет, как дела? Завтра встреча в десять часов.",
    "german": "Grüße aus München, schöne Größe und Übermut.",
    "greek": "Καλημέρα, η συνάντηση αύριο στις δέκα.",
    "chinese": "你好，明天的会议十点开始。请准时参加。",
}


def test_double_encoded_utf8_is_reported_in_every_language():
    """Issue 17, item 5, for more than the issue's example: each body and Subject is reported
    with the chain that undoes it, the text as decoded; repair=True gives the text back."""
    for language, text in _TEXTS.items():
        twice = text.encode().decode("windows-1252", "replace").encode()
        if "\ufffd".encode() in twice:  # (bytes windows-1252 has no character for are lost: not replayable)
            twice = text.encode().decode("iso-8859-1").encode()
        data = (b"Subject: " + twice + b"\r\nContent-Type: text/plain; charset=utf-8\r\n"
                b"Content-Transfer-Encoding: 8bit\r\n\r\n" + twice)
        msg = read(data)
        assert [(i.kind, i.where, i.length) for i in msg.issues] == [
            (MessageIssueKind.SUSPECTED_MOJIBAKE, "header:Subject", len(twice)),
            (MessageIssueKind.SUSPECTED_MOJIBAKE, "part:1", len(twice))], language
        assert msg.parts[0].text == twice.decode(), language
        repaired = read(data, repair=True)
        assert (repaired.subject, repaired.parts[0].text) == (text, text), language


def test_clean_text_in_every_language_is_not_reported():
    for language, text in _TEXTS.items():
        data = (b"Subject: " + text.encode() + b"\r\nContent-Type: text/plain; charset=utf-8\r\n"
                b"Content-Transfer-Encoding: 8bit\r\n\r\n" + text.encode())
        msg = read(data)
        assert (msg.issues, msg.mojibake) == ((), ()), language
