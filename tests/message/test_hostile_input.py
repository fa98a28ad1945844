"""Issue 16 through ``read()``: each fault class of the issue on a whole message, exact results.

Faults 1 (numbers of any length), 4 (issue lists bounded per place, the count of the rest) and
5 (the memory bombs: a CRLF storm, RFC 2231 duplicates and continuations) and the dense damage
classes of ``bench/bombs.py`` (UTF-7, ISO-2022-JP, a Shift_JIS lead before ASCII). The other
faults have their tests where their code is: TNEF counts and MIME parts in test_reader.py,
.msg loops in test_msg.py, the mbox separator in test_mbox.py, soft line breaks in
test_transfer.py, RTF and compressed RTF in tests/rtf/test_hardening.py, round trips in
tests/text, human output in tests/cli/test_forged_output.py.
"""

from __future__ import annotations

import struct

from onemail.message import read
from onemail.message.model import MAX_ISSUES
from onemail.rtf import compress


def _issues(issues):
    return [(i.kind.value, i.where, i.offset, i.length, i.count) for i in issues]


def test_eml_with_a_section_number_of_4301_digits():
    """Fault 1: a 4 KB .eml lost its whole message to int()'s 4,300-digit limit."""
    data = (b"From: a@b\r\nContent-Type: text/plain\r\nContent-Disposition: attachment; filename*"
            + b"1" * 4301 + b"=a.txt\r\n\r\nhello\r\n")
    msg = read(data)
    assert msg.error is None and msg.issues == ()
    assert [(p.filename, p.is_attachment, p.data) for p in msg.parts] == [("a.txt", True, b"hello\r\n")]


def test_tnef_with_an_rtf_body_whose_parameter_has_4301_digits():
    """Fault 1: a 672-byte TNEF (its compressed RTF body) was an internal error."""
    rtf = b"{\\rtf1\\ansi{\\fonttbl\\f0 A;}\\f" + b"1" * 4301 + b" hello}"
    stream = compress(rtf)
    props = (struct.pack("<I", 1) + struct.pack("<HHI", 0x0102, 0x1009, 1)
             + struct.pack("<I", len(stream)) + stream + b"\0" * (-len(stream) % 4))
    attribute = struct.pack("<BII", 1, 0x00069003, len(props)) + props + struct.pack("<H", sum(props) & 0xFFFF)
    msg = read(struct.pack("<IH", 0x223E9F78, 0) + attribute)
    assert (msg.format, msg.error, msg.issues) == ("tnef", None, ())
    assert [(p.media_type, p.text) for p in msg.parts] == [("text/rtf", rtf.decode())]


def test_headers_of_openers_keep_max_issues_each():
    """Fault 4: 20 headers of 1 MiB of ``=?`` gave 10.5 million issues (here 2 of 100 kB)."""
    value = b"=?" * 50_000
    msg = read(b"From: a@b\r\nSubject: " + value + b"\r\nSubject: " + value + b"\r\n\r\nx")
    assert msg.subject == value.decode()
    for header in msg.headers[1:]:
        assert len(header.issues) == MAX_ISSUES + 1
        assert _issues(header.issues[:2]) == [("MalformedEncodedWord", "header:Subject", 0, 6, 1),
                                              ("MalformedEncodedWord", "header:Subject", 2, 6, 1)]
        # 49,998 malformed words in all (the last two openers are no word)
        assert _issues(header.issues[-1:]) == [("TooManyIssues", "header:Subject", 200, 99_800, 49_898)]


def test_crlf_storm_body():
    """Fault 5 (41x the input in memory): a body of nothing but CR LF is kept as it is."""
    msg = read(b"Subject: storm\r\n\r\n" + b"\r\n" * 100_000)
    assert (len(msg.parts), msg.parts[0].text, msg.issues) == (1, "\r\n" * 100_000, ())


def test_rfc2231_duplicates_and_continuations():
    """Fault 5: 20,000 duplicate sections 0 (stable order: joined), 20,000 continuations."""
    msg = read(b"Content-Disposition: attachment" + b"; filename*0*=a" * 20_000 + b"\r\n\r\nx\r\n")
    # filename*0*= without a charset's quotes: MalformedExtendedValue at the first value (T56)
    assert msg.parts[0].filename == "a" * 20_000
    assert _issues(msg.issues) == [("MalformedExtendedValue", "part:1/filename", 24, 1, 1)]
    sections = b"".join(b"; filename*%d=a" % k for k in range(20_000))
    msg = read(b"Content-Disposition: attachment" + sections + b"\r\n\r\nx\r\n")
    assert (msg.parts[0].filename, msg.issues) == ("a" * 20_000, ())


def test_dense_damage_bodies_are_bounded_per_part():
    """bench/bombs.py: a Shift_JIS lead before ASCII; UTF-7 runs too short for a character."""
    msg = read(b"Content-Type: text/plain; charset=shift_jis\r\n\r\n" + b"\x81 " * 100_000)
    part = msg.parts[0]
    assert (part.charset, part.text) == ("shift_jis", "\ufffd " * 100_000)
    assert len(part.issues) == MAX_ISSUES + 1
    assert _issues(part.issues[:1] + part.issues[-1:]) == [
        ("InvalidShiftJis", "part:1", 0, 1, 1), ("TooManyIssues", "part:1", 200, 199_799, 99_900)]
    msg = read(b"Content-Type: text/plain; charset=utf-7\r\n\r\n" + b"+A-" * 70_000)
    part = msg.parts[0]
    assert (part.charset, part.text) == ("utf-7", "\ufffd" * 70_000)
    assert _issues(part.issues[:1] + part.issues[-1:]) == [
        ("InvalidUtf7", "part:1", 1, 1, 1), ("TooManyIssues", "part:1", 301, 209_698, 69_900)]


def test_high_bytes_declared_utf7_or_iso_2022_jp_are_mislabelled():
    """0xFF is in neither 7-bit charset: the body is read as what the detector finds (M6)."""
    for label in (b"utf-7", b"iso-2022-jp"):
        msg = read(b"Content-Type: text/plain; charset=" + label + b"\r\n\r\n" + b"\xff" * 200_000)
        part = msg.parts[0]
        assert (part.charset, part.charset_source, part.text) == ("windows-1256", "detected", "\u06d2" * 200_000)
        assert _issues(part.issues) == [("AmbiguousMislabelledCharset", "part:1", 0, 200_000, 1)]


def test_address_of_unterminated_quotes_scans_once(monkeypatch):
    """Fresh-user report F1: each of 10,000 unterminated quotes in ``To:`` scanned to the end
    of the value (20 KB: 10 s, 40 KB: 47 s). After the first unterminated quote every later one
    is unterminated too, so one scan decides them all."""
    from onemail.message import addresses

    calls = []
    delimited = addresses._delimited

    def counted(raw, pos, close):
        calls.append(pos)
        return delimited(raw, pos, close)

    monkeypatch.setattr(addresses, "_delimited", counted)
    msg = read(b"To: " + b'"\\' * 10_000 + b"\n\nx\n")
    assert calls == [1]
    assert msg.to == () and msg.error is None
    assert {i.kind.value for i in msg.issues} == {"MalformedAddress", "TooManyIssues"}
    # a quote after an escaped one still closes where it does
    assert [(a.name, a.address) for a in read(b'To: "a\\" b" <x@y>\n\n').to] == [('a" b', "x@y")]


def test_comments_stripped_in_one_pass():
    """Fresh-user report F2: a comment regular expression tried from each of 16,000 unclosed
    ``(`` (9 s for 32 KB of ``(\\``). strip_comments is one pass: nested comments and a
    backslash inside them as RFC 5322 3.2.2 has them; an unclosed ``(`` stays."""
    from onemail.message.headers import strip_comments, token

    assert strip_comments(b"(a (nested) one) base64 (\\)) x") == b"  base64   x"
    assert strip_comments(b"(unclosed (in) x") == b"(unclosed   x"
    assert strip_comments(b"a) \\(b) c") == b"a) \\  c"  # outside a comment \ quotes nothing
    assert strip_comments(b"(a \\( b) c") == b"  c"
    assert token(b"(comment (nested)) Base64 (x)") == "base64"
    value = b"(\\" * 16_000
    assert strip_comments(value) == value
    msg = read(b"Content-Transfer-Encoding: " + value + b"\n\nx\n")
    assert msg.error is None and msg.parts[0].text == "x\n"


def test_m56_fields_past_the_cap_are_one_issue():
    """Fresh-user report F4: a million 8-byte fields took 306 MB (38 times the input). Past
    MAX_FIELDS only the first field of each name the reader uses is kept (M56)."""
    from onemail.message.fields import MAX_FIELDS

    head = b"X-A: b\r\n" * (MAX_FIELDS + 5000)
    data = head + b"Subject: late\r\nX-A: c\r\nSubject: later\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\xc3\xa9\r\n"
    msg = read(data)
    assert len(msg.headers) == MAX_FIELDS + 2
    assert [h.name for h in msg.headers[MAX_FIELDS:]] == ["Subject", "Content-Type"]
    assert (msg.subject, msg.parts[0].text, msg.parts[0].charset) == ("late", "é\r\n", "utf-8")
    start = 8 * MAX_FIELDS
    assert _issues(msg.issues) == [("TooManyHeaderFields", "headers", start, len(head) + 80 - start, 1)]
    # under the cap: every field, no issue
    assert len(read(b"X-A: b\r\n" * MAX_FIELDS + b"\r\nx").headers) == MAX_FIELDS
