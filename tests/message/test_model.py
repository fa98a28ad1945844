"""``onemail.message.model``: the frozen results of a read and their JSON."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import pytest

from onemail.message import (
    Address,
    Header,
    MapiProperty,
    Message,
    MessageIssue,
    MessageIssueKind,
    Part,
)
from onemail.message.model import MAX_ISSUES, RepairRecord, bounded
from onemail.text.issues import BoundedIssues, IssueKind, TextIssue

M = MessageIssueKind
U8 = IssueKind.INVALID_UTF8


def test_an_issue_placed_and_shifted():
    assert MessageIssue.at("header:Subject", TextIssue(U8, 3, 1), offset=10) == MessageIssue(
        U8, "header:Subject", 13, 1)
    assert MessageIssue(U8, "part:1", 4, 2).to_json() == {
        "kind": "InvalidUtf8", "where": "part:1", "offset": 4, "length": 2}
    assert MessageIssue(IssueKind.TOO_MANY_ISSUES, "part:1", 4, 2, 7).to_json()["count"] == 7


def test_placed_carries_the_count_a_bounded_list_dropped():
    found = BoundedIssues(limit=2)
    for offset in range(0, 10, 2):
        found.append(TextIssue(U8, offset, 1))
    assert MessageIssue.placed("part:1", found) == [
        MessageIssue(U8, "part:1", 0, 1), MessageIssue(U8, "part:1", 2, 1),
        MessageIssue(IssueKind.TOO_MANY_ISSUES, "part:1", 4, 5, 3)]
    assert MessageIssue.placed("part:1", [TextIssue(U8, 0, 1)]) == [MessageIssue(U8, "part:1", 0, 1)]


def test_bounded_keeps_the_first_and_spans_the_rest():
    issues = [MessageIssue(M.MALFORMED_HEADER, "headers", 10 * i, 2) for i in range(5)]
    assert bounded(issues, limit=3) == [*issues[:3], MessageIssue(IssueKind.TOO_MANY_ISSUES, "headers", 30, 12, 2)]
    assert bounded(issues) is issues and MAX_ISSUES == 100


def test_headers_and_addresses_as_json():
    assert Header("Subject", "hi", raw=b"hi", offset=9).to_json() == {
        "name": "Subject", "value": "hi", "offset": 9, "issues": []}
    assert Address("Ann", "ann@example.org").to_json() == {"name": "Ann", "address": "ann@example.org"}
    assert Address("Ann", "a@b", "Team").to_json() == {"name": "Ann", "address": "a@b", "group": "Team"}
    assert (str(Address("Ann", "a@b")), str(Address("", "a@b"))) == ("Ann <a@b>", "a@b")


def test_mapi_properties_as_json():
    assert MapiProperty(0x0037, 0x001F, "hi").to_json() == {
        "tag": "0x0037", "type": "0x001F", "value": "hi", "property": "PidTagSubject"}
    when = datetime(2020, 1, 2, 3, 4, 5, tzinfo=UTC)
    assert MapiProperty(0x0039, 0x0040, when).to_json()["value"] == "2020-01-02T03:04:05+00:00"
    named = MapiProperty(0x8001, 0x0102, b"abc", "{00020329-0000-0000-C000-000000000046}:Keywords")
    assert named.to_json() == {"tag": "0x8001", "type": "0x0102", "value": {"bytes": 3},
                               "name": "{00020329-0000-0000-C000-000000000046}:Keywords"}
    assert named.canonical_name is None
    assert MapiProperty(0x1234, 0x1102, (b"ab", b"c")).to_json()["value"] == [{"bytes": 2}, {"bytes": 1}]
    assert MapiProperty(0x0001, 0x0002, object()).to_json()["value"] == {"type": "object"}


def test_a_repair_record_as_json():
    assert RepairRecord("subject", (("windows-1252", "utf-8"),)).to_json() == [
        "subject", [["windows-1252", "utf-8"]]]


def _message() -> Message:
    inner = Message("rfc822", parts=(Part("1", "text/plain", text="inner"),))
    return Message(
        "rfc822",
        headers=(Header("Subject", "s"), Header("X-Tag", "first"), Header("x-tag", "second")),
        parts=(Part("1", "text/plain", filename="notes.txt", text="attached"),
               Part("2", "text/plain", text="body", data=b"body"),
               Part("3", "text/html", disposition="inline", text="<p>b</p>"),
               Part("4", "message/rfc822", message=inner)))


def test_message_header_text_html_and_walk():
    msg = _message()
    assert (msg.header("x-TAG"), msg.header("Date")) == ("first", None)
    assert (msg.text, msg.html) == ("body", "<p>b</p>")  # part 1 is an attachment (a file name)
    assert [p.path for p in msg.walk()] == ["1", "2", "3", "4", "1"]
    assert [p.is_attachment for p in msg.parts] == [True, False, False, False]


def test_message_json_and_text_false():
    data = _message().to_json(text=False)
    assert list(data) == ["format", "error", "subject", "from", "to", "cc", "bcc", "reply_to", "date",
                          "headers", "parts", "issues"]
    assert data["parts"][1] == {
        "path": "2", "media_type": "text/plain", "disposition": None, "filename": None, "charset": None,
        "charset_source": None, "origin": "mime", "bytes": 4, "issues": []}
    assert data["parts"][3]["message"]["parts"][0]["path"] == "1"
    assert _message().to_json()["parts"][1]["text"] == "body"


def test_results_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        _message().subject = "x"  # type: ignore[misc]
