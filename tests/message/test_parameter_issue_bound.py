"""Issue 16: a parameter of a million bad escapes keeps at most MAX_ISSUES issues in ``read()``.

The text layer bounds each parameter (``max_issues``); the message layer's ``bounded()`` over a
field's parameters then gives what it gives on every issue (count included).
"""

from __future__ import annotations

from onemail.message import read
from onemail.message.model import MAX_ISSUES


def test_content_disposition_of_bad_escapes():
    msg = read(b"From: a@b\r\nContent-Disposition: attachment; filename*=utf-8''"
               + b"%FF" * 9000 + b"\r\n\r\nx\r\n")
    issues = [(i.kind.value, i.where, i.offset, i.length, i.count) for i in msg.issues
              if i.where == "part:1/filename"]
    assert len(issues) == MAX_ISSUES + 1
    assert issues[:2] == [("InvalidUtf8", "part:1/filename", 29, 3, 1),
                          ("InvalidUtf8", "part:1/filename", 32, 3, 1)]
    assert issues[-1] == ("TooManyIssues", "part:1/filename", 329, 26700, 8900)
