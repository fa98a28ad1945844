"""Address lists: RFC 5322 section 3.4 and 4.4, the examples of its Appendix A, and M11."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import onemail
from onemail.message import MessageIssueKind
from onemail.message.addresses import parse_addresses

M = MessageIssueKind


def addrs(raw: bytes, issues=None):
    return [(a.name, a.address, a.group) for a in parse_addresses(raw, where="header:To", issues=issues)]


def malformed(raw: bytes):
    issues = []
    out = addrs(raw, issues)
    return out, [(i.kind, i.offset, i.length) for i in issues]


# -- RFC 5322 Appendix A, every address example -------------------------------------------


@pytest.mark.parametrize("raw, expected", [
    # A.1.1
    (b"John Doe <jdoe@machine.example>", [("John Doe", "jdoe@machine.example", None)]),
    (b"Mary Smith <mary@example.net>", [("Mary Smith", "mary@example.net", None)]),
    # A.1.2
    (b'"Joe Q. Public" <john.q.public@example.com>', [("Joe Q. Public", "john.q.public@example.com", None)]),
    (b"Mary Smith <mary@x.test>, jdoe@example.org, Who? <one@y.test>",
     [("Mary Smith", "mary@x.test", None), ("", "jdoe@example.org", None), ("Who?", "one@y.test", None)]),
    (b'<boss@nil.test>, "Giant; \\"Big\\" Box" <sysservices@example.net>',
     [("", "boss@nil.test", None), ('Giant; "Big" Box', "sysservices@example.net", None)]),
    # A.1.3
    (b"Pete <pete@silly.example>", [("Pete", "pete@silly.example", None)]),
    (b"A Group:Ed Jones <c@a.test>,joe@where.test,John <jdoe@one.test>;",
     [("Ed Jones", "c@a.test", "A Group"), ("", "joe@where.test", "A Group"), ("John", "jdoe@one.test", "A Group")]),
    (b"Undisclosed recipients:;", []),
    # A.2
    (b'"Mary Smith: Personal Account" <smith@home.example>',
     [("Mary Smith: Personal Account", "smith@home.example", None)]),
    # A.3
    (b"Jane Brown <j-brown@other.example>", [("Jane Brown", "j-brown@other.example", None)]),
    # A.5
    (b"Pete(A nice \\) chap) <pete(his account)@silly.test(his host)>", [("Pete", "pete@silly.test", None)]),
    (b"A Group(Some people)\r\n     :Chris Jones <c@(Chris's host.)public.example>,\r\n"
     b"         joe@example.org,\r\n  John <jdoe@one.test> (my dear friend); (the end of the group)",
     [("Chris Jones", "c@public.example", "A Group"), ("", "joe@example.org", "A Group"),
      ("John", "jdoe@one.test", "A Group")]),
    (b"(Empty list)(start)Hidden recipients  :(nobody(that I know))  ;", []),
    # A.6.1
    (b"Joe Q. Public <john.q.public@example.com>", [("Joe Q. Public", "john.q.public@example.com", None)]),
    (b"Mary Smith <@node.test:mary@example.net>, , jdoe@test  . example",
     [("Mary Smith", "mary@example.net", None), ("", "jdoe@test.example", None)]),
    # A.6.3
    (b"John Doe <jdoe@machine(comment).  example>", [("John Doe", "jdoe@machine.example", None)]),
    (b"Mary Smith\r\n  \r\n          <mary@example.net>", [("Mary Smith", "mary@example.net", None)]),
])
def test_rfc5322_appendix_a(raw, expected):
    out, issues = malformed(raw)
    assert (out, issues) == (expected, [])


def test_issue_13_comment_example_through_read():
    msg = onemail.read(b"From: Pete(A nice \\) chap) <pete(his account)@silly.test(his host)>\r\n\r\n")
    assert [(a.name, a.address) for a in msg.from_] == [("Pete", "pete@silly.test")]
    assert msg.issues == ()


def test_obs_route_with_several_domains():
    assert addrs(b"<@a.test,@b.test:x@y.test>") == [("", "x@y.test", None)]


def test_quoted_local_part_stays_quoted():
    assert addrs(b'"john doe"@example.com') == [("", '"john doe"@example.com', None)]


def test_domain_literal():
    assert addrs(b"x@[192.0.2.1]") == [("", "x@[192.0.2.1]", None)]


def test_comment_gives_the_name_rfc822_style():
    assert addrs(b"jdoe@example.org (John Doe)") == [("John Doe", "jdoe@example.org", None)]


def test_encoded_words_in_names_also_quoted_and_with_specials():
    assert addrs(b"=?utf-8?q?Doe,_J=C3=B6rg?= <j@x.org>, =?utf-8?q?a?= =?utf-8?q?b?= <y@x.org>") == [
        ("Doe, Jörg", "j@x.org", None), ("ab", "y@x.org", None)]
    assert addrs(b'"=?utf-8?b?5pel5pys?=" <c@x.org>') == [("日本", "c@x.org", None)]


def test_raw_utf8_name():
    assert addrs('"Müller, A" <a@example.org>, b@example.org'.encode()) == [
        ("Müller, A", "a@example.org", None), ("", "b@example.org", None)]


# -- M11: what real mail holds -------------------------------------------------------------


def test_display_name_that_is_the_address_is_one_mailbox():
    assert malformed(b"user@example.com <user@example.com>") == (
        [("user@example.com", "user@example.com", None)], [])


def test_quoted_name_followed_by_a_bare_address():
    assert malformed(b'"Joe Bloggs" joe@example.com, x@y.test') == (
        [("Joe Bloggs", "joe@example.com", None), ("", "x@y.test", None)], [(M.MALFORMED_ADDRESS, 0, 12)])


def test_from_line_that_carries_a_date():
    """aerc's jwz test messages: an mbox From line pasted into the header."""
    assert malformed(b"a@b.com  Thu Aug 22 12:46:39 2002") == (
        [("", "a@b.com", None)], [(M.MALFORMED_ADDRESS, 9, 24)])


def test_control_characters_are_dropped():
    assert malformed(b"a\x01b@c.d") == ([("", "ab@c.d", None)], [(M.MALFORMED_ADDRESS, 1, 1)])


def test_unterminated_quote_is_junk():
    """csdmc2010 TRAIN_02661: To: "T hibody  <hibody@csmining.org>"""
    assert malformed(b'"T hibody  <hibody@csmining.org>') == (
        [("T hibody", "hibody@csmining.org", None)], [(M.MALFORMED_ADDRESS, 0, 1)])


def test_unclosed_angle_bracket():
    assert malformed(b"a@b, <c@d") == ([("", "a@b", None), ("", "c@d", None)], [(M.MALFORMED_ADDRESS, 5, 1)])


def test_junk_after_a_mailbox_is_skipped_to_the_comma():
    assert malformed(b"<a@b> junk, c@d") == ([("", "a@b", None), ("", "c@d", None)], [(M.MALFORMED_ADDRESS, 6, 4)])


@pytest.mark.parametrize("raw, issues", [
    (b"undisclosed recipients", [(M.MALFORMED_ADDRESS, 0, 22)]),
    (b"@", [(M.MALFORMED_ADDRESS, 0, 1)]),
    (b"a@", [(M.MALFORMED_ADDRESS, 0, 2)]),
    (b"@b", [(M.MALFORMED_ADDRESS, 0, 2)]),
    (b"<>", []),
    (b"", []),
])
def test_no_mailbox_is_invented_out_of_junk(raw, issues):
    assert malformed(raw) == ([], issues)


def test_local_part_without_domain_is_kept():
    assert malformed(b"foo") == ([("", "foo", None)], [(M.MALFORMED_ADDRESS, 0, 3)])
    assert malformed(b"<postmaster>") == ([("", "postmaster", None)], [])


def test_addresses_of_every_field_through_read():
    msg = onemail.read(b"From: a@x.test\r\nTo: b@x.test\r\nCc: c@x.test\r\nBcc: d@x.test\r\n"
                       b"Reply-To: e@x.test\r\n\r\n")
    assert [[a.address for a in f] for f in (msg.from_, msg.to, msg.cc, msg.bcc, msg.reply_to)] == [
        ["a@x.test"], ["b@x.test"], ["c@x.test"], ["d@x.test"], ["e@x.test"]]


def test_malformed_address_issue_through_read():
    msg = onemail.read(b"From: a@b.com  Thu Aug 22 12:46:39 2002\r\n\r\nbody")
    assert [(i.kind, i.where, i.offset, i.length) for i in msg.issues] == [
        (M.MALFORMED_ADDRESS, "header:From", 9, 24)]
    assert msg.to_json()["from"] == [{"name": "", "address": "a@b.com"}]


def test_encoded_words_in_an_addr_spec_stay_as_written():
    """RFC 2047 section 5: no encoded word in an addr-spec (FreeBSD list spam in the corpus)."""
    assert addrs(b"=?iso-2022-jp?B?MTIx?=@FreeBSD.ORG") == [("", "=?iso-2022-jp?B?MTIx?=@FreeBSD.ORG", None)]


_ATOM = st.text(alphabet="abcxyzABC019!#$%&'*+/=?^_`{|}~-", min_size=1, max_size=6)
_NAME = st.lists(st.text(alphabet="abc XYZ019-", min_size=0, max_size=8), max_size=3).map(" ".join)
_ADDRESS = st.tuples(_ATOM, st.lists(_ATOM, min_size=1, max_size=3)).map(lambda t: t[0] + "@" + ".".join(t[1]))
_MAILBOX = st.one_of(
    _ADDRESS,
    st.tuples(_NAME, _ADDRESS).map(lambda t: f"{t[0]} <{t[1]}>"),
    st.tuples(_NAME, _ADDRESS).map(lambda t: f'"{t[0]}" <{t[1]}>'),
    st.tuples(_NAME, _ADDRESS).map(lambda t: f'"{t[0]}," <{t[1]}>'))


@settings(max_examples=300, deadline=None)
@given(st.lists(_MAILBOX, max_size=4), st.sampled_from([",", ", ", " ,\r\n ", ",,"]))
def test_the_fast_path_gives_what_the_parser_gives(mailboxes, sep):
    from onemail.message import addresses as A

    raw = sep.join(mailboxes).encode()
    fast = A._simple(raw)
    slow = tuple(A._Parser(raw, A._W1252, "h", []).parse())
    assert fast is None or fast == slow


def test_t84_raw_iso_2022_jp_in_subject_and_addresses():
    """Fresh-user report F3: the all-ASCII fast path of decode_header left raw ISO-2022-JP in
    Subject as its escapes, and the address parser dropped each ESC as a control and read the
    return escape's ``(`` as a comment. A JIS run is one opaque piece (T84) as a word, inside
    a quoted string and inside a comment; a space ends a run that never returns to ASCII."""
    from onemail.message import read

    jis = b"\x1b$B2q5D\x1b(B"  # 会議
    msg = read(b"Subject: " + jis + b"\r\nFrom: " + jis + b" <a@b>\r\nTo: \"" + jis
               + b"\" <c@d>, e@f (" + jis + b"), Taro" + jis + b" <g@h>\r\n\r\nhi\r\n")
    assert msg.subject == "会議"
    assert [(a.name, a.address) for a in msg.from_ + msg.to] == [
        ("会議", "a@b"), ("会議", "c@d"), ("会議", "e@f"), ("Taro会議", "g@h")]
    assert {(i.kind.value, i.where) for i in msg.issues} == {
        ("AmbiguousRawIso2022", "header:Subject"), ("AmbiguousRawIso2022", "header:From"),
        ("AmbiguousRawIso2022", "header:To")}
    # JIS codes that are specials: 0x22 0x5C (∠) in a quoted string, 0x22 0x21 (◆) bare
    assert read(b'From: "\x1b$B"\\\x1b(B" <a@b>\n\n').from_[0].name == "∠"
    assert read(b"From: \x1b$B\"!\x1b(B <a@b>\n\n").from_[0].name == "◆"
    # no return to ASCII: the run ends at the space
    assert [(a.name, a.address) for a in read(b"From: \x1b$B2q5D <a@b>\n\n").from_] == [("会議", "a@b")]
