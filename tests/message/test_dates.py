"""The Date header: RFC 5322 3.3, its obsolete forms (4.3, Appendix A.5/A.6.2/A.6.3) and M12."""

from __future__ import annotations

import pytest

import onemail
from onemail.message import MessageIssueKind
from onemail.message.dates import parse_date

M = MessageIssueKind


def read(raw: bytes):
    issues = []
    value = parse_date(raw, where="header:Date", issues=issues)
    return value.isoformat() if value else None, [(i.kind, i.offset, i.length) for i in issues]


@pytest.mark.parametrize("raw, iso", [
    (b"Fri, 21 Nov 1997 09:55:06 -0600", "1997-11-21T09:55:06-06:00"),  # A.1.1
    (b"Tue, 1 Jul 2003 10:52:37 +0200", "2003-07-01T10:52:37+02:00"),  # A.1.2
    (b"Thu, 13 Feb 1969 23:32:54 -0330", "1969-02-13T23:32:54-03:30"),  # A.1.3
    (b"Thu,\r\n      13\r\n        Feb\r\n          1969\r\n      23:32\r\n               -0330 (Newfoundland Time)",
     "1969-02-13T23:32:00-03:30"),  # A.5
    (b"21 Nov 97 09:55:06 GMT", "1997-11-21T09:55:06+00:00"),  # A.6.2
    (b"Fri, 21 Nov 1997 09(comment):   55  :  06 -0600", "1997-11-21T09:55:06-06:00"),  # A.6.3
])
def test_rfc5322_appendix_a(raw, iso):
    assert read(raw) == (iso, [])


@pytest.mark.parametrize("raw, iso", [
    (b"Thu, 22 Apr 10 08:54:28 +0400", "2010-04-22T08:54:28+04:00"),  # a zone's digits are no year
    (b"1 Jan 49 00:00 +0000", "2049-01-01T00:00:00+00:00"),
    (b"1 Jan 50 00:00 +0000", "1950-01-01T00:00:00+00:00"),
    (b"1 Jan 103 00:00 +0000", "2003-01-01T00:00:00+00:00"),
    (b"Mon, 3 Feb 2003 1:02:03 PM EST", "2003-02-03T13:02:03-05:00"),
    (b"2002-08-22T12:46:39+02:00", "2002-08-22T12:46:39+02:00"),
    (b"1 Jan 2000 00:00:00 -0000", "2000-01-01T00:00:00+00:00"),
    (b"Wed, 31 Dec 1969 19:00:00 CET", "1969-12-31T19:00:00+00:00"),  # unknown zone: -0000 (4.3)
    (b"10 January 2005 10:00 +0100", "2005-01-10T10:00:00+01:00"),
    (b"Tue, 029 Apr 2019 23:34:45 -0800 (PST)", "2019-04-29T23:34:45-08:00"),
    (b"Sat, 31 Dec 2016 23:59:60 +0000", "2016-12-31T23:59:59+00:00"),  # a leap second
])
def test_obsolete_and_real_world_forms(raw, iso):
    assert read(raw) == (iso, [])


def test_asctime_without_zone_is_utc_and_reported():
    assert read(b"Thu Aug 22 12:46:39 2002") == ("2002-08-22T12:46:39+00:00", [(M.MALFORMED_DATE, 0, 24)])


@pytest.mark.parametrize("raw", [b"yesterday", b"Sat, 30 Feb 2000 10:00:00 +0000", b"9" * 5000,
                                 b"Wed, 15 Dec 2010    59:10 -0500"])
def test_unreadable_dates_are_none_and_reported(raw):
    assert read(raw) == (None, [(M.MALFORMED_DATE, 0, len(raw))])


def test_date_through_read():
    msg = onemail.read(b"Date: Tue, 10 May 2005 15:27:03 -0500\r\n\r\n")
    assert (msg.date.isoformat(), msg.issues) == ("2005-05-10T15:27:03-05:00", ())
    bad = onemail.read(b"Date: yesterday\r\n\r\n")
    assert bad.date is None
    assert [(i.kind, i.where, i.offset, i.length) for i in bad.issues] == [(M.MALFORMED_DATE, "header:Date", 0, 9)]
