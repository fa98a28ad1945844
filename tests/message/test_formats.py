"""``onemail.message.formats``: sniffing a container, the nesting depth, nested issues' places.

Sniffing inside ``read`` on whole inputs: tests/message/test_reader.py (test_sniff)."""

from __future__ import annotations

import pytest

from onemail.message import MessageIssue, MessageIssueKind, read
from onemail.message.formats import (
    MAX_DEPTH,
    OLE_SIGNATURE,
    TNEF_SIGNATURE,
    ReadContext,
    nested_issues,
    sniff,
)
from onemail.message.reader import read_bytes
from onemail.text import IssueKind


@pytest.mark.parametrize(("data", "fmt"), [
    (OLE_SIGNATURE + b"rest", "msg"),
    (TNEF_SIGNATURE, "tnef"),
    (b"From a@b Sat Jan  1 00:00:00 2000\n", "mbox"),
    (b"\r\nan empty header section, then a body", "rfc822"),
    (b"\n\x00", None),  # an empty header section with a NUL byte: binary
    (b"\xef\xbb\xbfSubject: x\r\n", "rfc822"),  # a UTF-8 BOM before the first field
    (b"  X-A: b\r\n", "rfc822"),  # white space before the first field name
    (b"Subject x\r\n", None),  # no colon
    (b"", None),
    (b"\x00\x01", None),
])
def test_sniff(data, fmt):
    assert sniff(data) == fmt


def test_a_nested_message_is_read_one_level_deeper():
    issues: list[MessageIssue] = []
    ctx = ReadContext(False, 0, read_bytes)
    assert ctx.nested(b"Subject: in\r\n\r\nx", None, "part:2", issues=issues).subject == "in"
    assert issues == [] and ctx.enter("part:2", issues=issues).depth == 1


def test_beyond_max_depth_is_one_issue_covering_the_bytes():
    issues: list[MessageIssue] = []
    ctx = ReadContext(False, MAX_DEPTH, read_bytes)
    assert ctx.nested(b"Subject: in\r\n\r\nx", None, "part:2", issues=issues) is None
    assert issues == [MessageIssue(MessageIssueKind.MESSAGE_NESTING_LIMIT_EXCEEDED, "part:2", 0, 16)]
    assert MAX_DEPTH == 20


def test_nested_issues_are_placed_under_the_part_holding_the_message():
    msg = read(b"Subject: =?utf-8?q?a=FF?=\r\n\r\nx")
    assert nested_issues(msg, "part:2") == [
        MessageIssue(IssueKind.INVALID_UTF8, "part:2>header:Subject", 11, 3)]
