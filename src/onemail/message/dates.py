"""The Date header: RFC 5322 section 3.3 date-time, its obsolete forms (4.3), and what mailers write.

Read from the raw bytes of the value, comments removed (A.5: ``-0330 (Newfoundland Time)``) and
white space allowed around the colons of the time (A.6.3). Accepted, besides RFC 5322:

* two- and three-digit years (4.3: 00-49 are 2000-2049, 50-999 have 1900 added);
* the obsolete zones ``UT``, ``GMT``, ``EST`` ... ``PDT`` (4.3), ``UTC`` and ``Z``; military
  and other alphabetic zones mean ``-0000`` (4.3), as does ``-0000`` itself: the time is given
  in UTC with no local zone known;
* ``asctime`` order (``Thu Aug 22 12:46:39 2002``, what mbox From lines hold), the month before
  the day, full month and day names, ``AM`` / ``PM``, ``+hh:mm`` zones, ISO 8601
  (``2002-08-22T12:46:39+02:00``), a missing day of the week or seconds.

The result is an aware :class:`datetime.datetime`. A date read with a repair (no zone at all:
taken as UTC) or not read (``None``) is a ``MalformedDate`` issue covering the value.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone

from .headers import strip_comments
from .issues import MessageIssueKind
from .model import MessageIssue

__all__ = ["parse_date"]

_MONTHS = {m: n for n, m in enumerate(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1)}
_ZONES = {"ut": 0, "utc": 0, "gmt": 0, "z": 0, "est": -300, "edt": -240, "cst": -360,
          "cdt": -300, "mst": -420, "mdt": -360, "pst": -480, "pdt": -420}
_ISO = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})(?:[t ]+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:[.,]\d+)?)?"
                  r"\s*(z|[+-]\d{2}:?\d{2})?\b")
_TIME = re.compile(r"(\d{1,2})\s*:\s*(\d{2})(?:\s*:\s*(\d{2}))?(?:[.,]\d+)?(?:\s*([ap])\.?m\.?\b)?")
_ZONE = re.compile(r"([+-])(\d{2}):?(\d{2})\b|\b([a-z]{1,5})\b")
_WORD = re.compile(r"[a-z]+|\d+")
_AFTER_WORD = re.compile(r"[a-z]+|(?<![+\-0-9])\d+")  # after the time: a zone's digits are no year


# The fast path: RFC 5322 3.3 as nearly every mailer writes it, numeric zone, an optional
# trailing comment; anything else (or an impossible date) goes through the tolerant reader.
_STRICT = re.compile(rb"[ \t]*(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun),[ \t]*)?([0-9]{1,2})[ \t]+"
                     rb"(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[ \t]+([0-9]{4})[ \t]+"
                     rb"([0-9]{2}):([0-9]{2})(?::([0-9]{2}))?[ \t]+([+-])([0-9]{2})([0-9]{2})"
                     rb"(?:[ \t]+\([^()\\]*\))?[ \t]*")
_MONTH_BYTES = {m.encode().capitalize(): n for m, n in _MONTHS.items()}


def parse_date(raw: bytes, *, where: str = "header:Date",
               issues: list[MessageIssue] | None = None) -> datetime | None:
    """Read a Date value (module docstring).

    Implements RFC 5322 3.3 and 4.3.

    :param raw: the raw value bytes (after ``Date:``; folds and comments allowed).
    :param where: the place of issues.
    :param issues: list to append a ``MalformedDate`` issue to (offset 0, the value's length),
        or ``None``.
    :returns: an aware ``datetime``, or ``None`` when no date can be read.

    >>> parse_date(b"Thu,\\r\\n  13\\r\\n   Feb\\r\\n  1969\\r\\n 23:32\\r\\n  -0330 (Newfoundland Time)").isoformat()
    '1969-02-13T23:32:00-03:30'
    """
    m = _STRICT.fullmatch(raw)
    if m is not None:
        d, mo, y, h, mi, sec, sign, zh, zm = m.groups()
        if int(zm) < 60 and int(zh) < 24:
            offset = (int(zh) * 60 + int(zm)) * (-1 if sign == b"-" else 1)
            value, _ = _make(int(y), _MONTH_BYTES[mo], int(d), int(h), int(mi), int(sec or 0), offset)
            if value is not None:
                return value
    text = strip_comments(raw[:1000]).decode("latin-1").lower()
    value, repaired = _read(text)
    if (value is None or repaired) and issues is not None and raw.strip():
        issues.append(MessageIssue(MessageIssueKind.MALFORMED_DATE, where, 0, len(raw)))
    return value


def _read(text: str) -> tuple[datetime | None, bool]:
    """``(datetime or None, whether a repair was needed)`` for a lower-cased, comment-free value."""
    m = _ISO.search(text)
    if m is not None:
        y, mo, d, h, mi, s, zone = m.groups()
        offset = _numeric_zone(zone) if zone else None
        return _make(int(y), int(mo), int(d), int(h or 0), int(mi or 0), int(s or 0), offset)
    t = _TIME.search(text)
    if t is None:
        return None, True
    hour, minute, second = int(t.group(1)), int(t.group(2)), int(t.group(3) or 0)
    if t.group(4) == "p" and hour < 12:
        hour += 12
    elif t.group(4) == "a" and hour == 12:
        hour = 0
    before, after = text[:t.start()], text[t.end():]
    # the day, the month and the year around the time: "13 Feb 1969 23:32", "Aug 22 12:46:39 2002"
    month = day = year = None
    digits: list[str] = []
    for w in _WORD.findall(before) + _AFTER_WORD.findall(after[:40]):
        if w.isdigit():
            if len(w) <= 4:
                digits.append(w)
        elif month is None and w[:3] in _MONTHS and (len(w) == 3 or _full_month(w)):
            month = _MONTHS[w[:3]]
    four = next((k for k, n in enumerate(digits) if len(n) == 4), None)
    if four is not None:
        year = int(digits[four])
        day = next((int(n) for k, n in enumerate(digits) if k != four and len(n) <= 3), None)
    elif len(digits) >= 2 and len(digits[0]) <= 2:
        day, year = int(digits[0]), _obs_year(int(digits[1]), len(digits[1]))
    if month is None or day is None or year is None:
        return None, True
    zone = _ZONE.search(after)
    offset = None
    while zone is not None:
        if zone.group(1):
            offset = _numeric_zone(zone.group(0))
            break
        word = zone.group(4)
        if word in _ZONES:
            offset = _ZONES[word]
            break
        if word not in ("am", "pm") and word[:3] not in _MONTHS and not _day_name(word):
            offset = 0  # an alphabetic zone whose meaning is not known: -0000 (RFC 5322 4.3)
            break
        zone = _ZONE.search(after, zone.end())
    return _make(year, month, day, hour, minute, second, offset)


def _full_month(word: str) -> bool:
    return word in ("january", "february", "march", "april", "june", "july", "august", "september",
                    "october", "november", "december", "sept")


def _day_name(word: str) -> bool:
    return word[:3] in ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


def _obs_year(year: int, digits: int) -> int:
    """RFC 5322 4.3: two digits 00-49 are 2000-2049, 50-99 and three digits have 1900 added."""
    if digits <= 2:
        return year + (2000 if year < 50 else 1900)
    if digits == 3:
        return year + 1900
    return year


def _numeric_zone(zone: str) -> int | None:
    """Minutes east of UTC for ``+hhmm`` / ``-hh:mm`` / ``z``; ``None`` when out of range."""
    if zone == "z":
        return 0
    sign = -1 if zone[0] == "-" else 1
    digits = zone[1:].replace(":", "")
    hours, minutes = int(digits[:2]), int(digits[2:4])
    if minutes >= 60 or hours >= 24:
        return None
    return sign * (hours * 60 + minutes)


def _make(year: int, month: int, day: int, hour: int, minute: int, second: int,
          offset: int | None) -> tuple[datetime | None, bool]:
    if second == 60:  # a leap second (RFC 5322 3.3 allows 60)
        second = 59
    tz = UTC if offset is None or offset == 0 else timezone(timedelta(minutes=offset))
    try:
        return datetime(year, month, day, hour, minute, second, tzinfo=tz), offset is None
    except (ValueError, OverflowError):
        return None, True
