"""``onemail.message.mapi``: MAPI properties into a Message (shared by .msg and TNEF)."""

from __future__ import annotations

from datetime import UTC, datetime

from onemail.message import Address, MessageIssue
from onemail.message import mapi as m
from onemail.message.formats import ReadContext
from onemail.message.reader import read_bytes
from onemail.text import IssueKind, for_code_page

CTX = ReadContext(False, 0, read_bytes)
UNIX_EPOCH = 116444736000000000  # 1970-01-01 in 100 ns units since 1601


def test_filetime():
    assert m.filetime(UNIX_EPOCH) == datetime(1970, 1, 1, tzinfo=UTC)
    assert m.filetime(UNIX_EPOCH + 10) == datetime(1970, 1, 1, 0, 0, 0, 1, tzinfo=UTC)
    assert (m.filetime(0), m.filetime(-5), m.filetime(1 << 62)) == (None, None, None)


def test_a_property_bag_keeps_the_first_value_of_a_tag():
    bag = m.PropertyBag("msg")
    bag.put(m.SUBJECT, m.PT_STRING8, b"first")
    bag.put(m.SUBJECT, m.PT_STRING8, b"second")
    bag.put(m.MESSAGE_CODEPAGE, m.PT_LONG, 1252)
    assert (bag.raw(m.SUBJECT), bag.raw(0x0005), bag.int(m.SUBJECT), bag.int(m.MESSAGE_CODEPAGE)) == (
        b"first", None, None, 1252)


def test_message_charset_order_and_the_internet_code_pages():
    bag = m.PropertyBag("msg")
    assert m.message_charset(bag) is None and m.message_charset(bag, 1251) is for_code_page(1251)
    bag.put(m.INTERNET_CODEPAGE, m.PT_LONG, 50220)  # ISO-2022-JP: string8 is in code page 932
    assert m.message_charset(bag) is for_code_page(932)
    bag.put(m.MESSAGE_CODEPAGE, m.PT_LONG, 1250)
    assert m.message_charset(bag, 1251) is for_code_page(1250)


def test_build_message_decodes_strings_recipients_and_the_body():
    bag = m.PropertyBag("msg")
    bag.put(m.SUBJECT, m.PT_STRING8, b"caf\xe9")
    bag.put(m.MESSAGE_CODEPAGE, m.PT_LONG, 1252)
    bag.put(m.BODY, m.PT_UNICODE, "h\u00e9llo\r\n".encode("utf-16le"))
    bag.put(m.CLIENT_SUBMIT_TIME, m.PT_SYSTIME, m.filetime(UNIX_EPOCH))
    recipient = m.PropertyBag("msg/recip0")
    recipient.put(m.DISPLAY_NAME, m.PT_UNICODE, "Ann".encode("utf-16le"))
    recipient.put(m.SMTP_ADDRESS, m.PT_UNICODE, b"a\x00@\x00b\x00")
    recipient.put(m.RECIPIENT_TYPE, m.PT_LONG, 2)  # Cc
    msg = m.build_message("msg", bag, [recipient], [], ctx=CTX)
    assert (msg.subject, msg.to, msg.cc, msg.date) == (
        "caf\u00e9", (), (Address("Ann", "a@b"),), datetime(1970, 1, 1, tzinfo=UTC))
    assert [(p.path, p.media_type, p.text, p.origin) for p in msg.parts] == [
        ("body.txt", "text/plain", "h\u00e9llo\r\n", "PidTagBody")]
    assert msg.issues == ()


def test_an_odd_length_unicode_string_is_damage_at_its_last_byte():
    bag = m.PropertyBag("msg")
    bag.put(m.SUBJECT, m.PT_UNICODE, b"a\x00b")
    msg = m.build_message("msg", bag, [], [], ctx=CTX)
    assert (msg.subject, msg.issues) == ("a", (MessageIssue(IssueKind.INVALID_UTF16, "msg:0x0037001F", 2, 1),))
