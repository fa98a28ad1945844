"""onemail.read / read_mbox on small synthetic inputs: sniffing, transfer encodings, headers,
parameters, bad input. Real messages are in tests/regressions/test_message_corpus.py."""

from __future__ import annotations

import io
import struct

import pytest
from paths import REPO

import onemail
from onemail.message import MessageIssueKind, read, read_mbox, sniff
from onemail.text import IssueKind

K = IssueKind
M = MessageIssueKind


def kinds(msg):
    return [(i.kind, i.where, i.offset, i.length) for i in msg.issues]


# -- sniffing and sources ------------------------------------------------------------------


@pytest.mark.parametrize("data, fmt", [
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1rest", "msg"),
    (b"\x78\x9f\x3e\x22\x00\x00", "tnef"),
    (b"From a@b Sat Jan  1 00:00:00 2000\nSubject: x\n\nbody\n", "mbox"),
    (b"Subject: x\r\n\r\nbody", "rfc822"),
    (b"\r\nbody without headers", "rfc822"),
    (b"\x89PNG\r\n\x1a\n\x00\x00", None),
    (b"", None),
])
def test_sniff(data, fmt):
    assert sniff(data) == fmt


def test_sources_bytes_path_file(tmp_path):
    data = b"Subject: hi\r\n\r\nbody\r\n"
    path = tmp_path / "m.eml"
    path.write_bytes(data)
    for source in (data, bytearray(data), memoryview(data), str(path), path, io.BytesIO(data)):
        assert read(source).subject == "hi"


def test_top_level_names():
    assert onemail.read is read and onemail.read_mbox is read_mbox


def test_wrong_types_raise():
    with pytest.raises(TypeError):
        read(42)
    with pytest.raises(TypeError):
        read(io.StringIO("Subject: x\n\n"))


def test_unreadable_path_raises_oserror(tmp_path):
    with pytest.raises(OSError):
        read(tmp_path / "missing.eml")


# -- bad input: a clear error or issue, never an exception ---------------------------------


def test_binary_junk_is_an_error():
    msg = read(bytes(range(256)) * 4)
    assert msg.error == "not a message: no header, mbox, Outlook .msg or TNEF signature"
    assert msg.parts == ()


def test_empty_input():
    assert read(b"").error == "empty input"


def test_truncated_message():
    data = (b"Subject: t\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n"
            b"Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\nY2Fmw6k")
    msg = read(data)
    assert msg.error is None
    assert msg.parts[0].text == "café"
    assert (K.INVALID_BASE64, "part:1", 7, 0) in kinds(msg)
    assert any(i.kind is M.MALFORMED_MIME_STRUCTURE for i in msg.issues)


def test_truncated_msg_file():
    msg = read(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 100)
    assert msg.format == "msg" and msg.error == "not a readable Outlook .msg: 108 bytes, shorter than the 512-byte compound file header"


@pytest.mark.parametrize("seed", range(8))
def test_junk_with_an_ole2_signature(seed):
    """olefile takes any sector shift and fails on str(2**huge): the header is checked first."""
    import random

    junk = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + random.Random(seed).randbytes(20000)
    msg = read(junk)
    assert msg.format == "msg" and msg.error.startswith("not a readable Outlook .msg: bad compound file header")
    # a plausible header over junk sectors: olefile's own short reason
    plausible = junk[:0x1A] + bytes.fromhex("0300feff09000600") + junk[0x22:]
    error = read(plausible).error
    assert error.startswith("not a readable Outlook .msg: ") and len(error) < 120 and "sys." not in error


def test_msg_with_a_missing_stream():
    """examples/ruby-msg-test_Blammo.msg with the subject's stream renamed in the directory."""
    data = (REPO / "examples" / "ruby-msg-test_Blammo.msg").read_bytes()
    name = "__substg1.0_0037001E".encode("utf-16-le")
    assert data.count(name) == 1
    msg = read(data.replace(name, name[:-2] + b"X\x00"))
    assert (msg.error, msg.subject) == (None, None)
    assert kinds(msg) == [(M.MALFORMED_MSG, "msg:__substg1.0_0037001E", 0, 0)]
    assert msg.html.endswith("</html>\r\n")


def test_msg_cut_in_half():
    data = (REPO / "examples" / "ruby-msg-test_Blammo.msg").read_bytes()
    msg = read(data[: len(data) // 2])
    assert msg.format == "msg"
    assert msg.error is not None or any(i.kind is M.MALFORMED_MSG for i in msg.issues)


def test_truncated_tnef():
    data = struct.pack("<IHBII", 0x223E9F78, 0, 1, 0x00018004, 50) + b"short"
    msg = read(data)
    assert msg.format == "tnef" and msg.error is None
    assert kinds(msg) == [(M.MALFORMED_TNEF, "tnef:attSubject", 6, 14)]


def test_bogus_charset_and_transfer_encoding():
    data = (b"Subject: x\r\nContent-Type: text/plain; charset=x-bogus\r\n"
            b"Content-Transfer-Encoding: x-bogus\r\n\r\ncaf\xc3\xa9")
    msg = read(data)
    part = msg.parts[0]
    assert (part.text, part.charset, part.charset_source) == ("café", "utf-8", "default")
    assert kinds(msg) == [(M.AMBIGUOUS_UNKNOWN_TRANSFER_ENCODING, "part:1", 0, 0),
                          (K.AMBIGUOUS_UNKNOWN_CHARSET, "part:1", 0, 5)]


def test_50_mb_header():
    value = b"a" * (50 << 20)
    msg = read(b"Subject: " + value + b"\r\nX-Next: ok\r\n\r\nbody")
    assert len(msg.subject) == 1 << 20
    assert msg.header("X-Next") == "ok"
    assert kinds(msg) == [(M.HEADER_TOO_LONG, "header:Subject", 1 << 20, (50 << 20) - (1 << 20))]


def test_long_fields_are_cut_and_keep_their_true_length():
    """Folded and repeated over-long fields keep their true lengths in HeaderTooLong; only the
    first MiB of each is kept."""
    mib = 1 << 20
    data = (b"Subject: x\r\nX-Fold:  " + b"a" * (3 * mib) + b"\r\n " + b"b" * mib
            + b"\r\nSubject: " + b"c" * (2 * mib) + b"\n\nbody")
    msg = read(data)
    assert [len(h.raw) for h in msg.headers] == [1, mib, mib]
    assert kinds(msg) == [(M.HEADER_TOO_LONG, "header:X-Fold", mib, 3 * mib + 3),
                          (M.HEADER_TOO_LONG, "header:Subject", mib, mib)]
    assert msg.header("X-Fold") == "a" * mib and msg.subject == "x"
    assert [h.value[:1] for h in msg.headers] == ["x", "a", "c"] and msg.parts[0].text == "body"


def test_long_part_field_is_cut_and_reported():
    """An over-long field in a part's header block; a body line over 1 MiB stays whole."""
    mib = 1 << 20
    body = b"X-Looks: like a field " + b"b" * (2 * mib)
    data = (b"Subject: s\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n"
            b"Content-Type: text/plain\r\nX-Long: " + b"a" * (3 * mib) + b"\r\n\r\nhi\r\n--b\r\n"
            b"Content-Type: text/plain\r\n\r\n" + body + b"\r\n--b--\r\n")
    msg = read(data)
    assert [p.text for p in msg.parts] == ["hi", body.decode()]
    assert kinds(msg) == [(M.HEADER_TOO_LONG, "part:1/header:X-Long", mib, 2 * mib)]


# -- headers -------------------------------------------------------------------------------


def test_headers_in_order_with_issues():
    msg = read(b"X-A: 1\r\nSubject: =?utf-8?q?caf=C3=A9?=\r\n folded\r\nX-A: 2\r\n\r\n")
    assert [(h.name, h.value) for h in msg.headers] == [("X-A", "1"), ("Subject", "café folded"), ("X-A", "2")]
    assert msg.header("x-a") == "1"


def test_addresses_display_names_decoded_addresses_as_written():
    msg = read(b'From: =?iso-8859-1?q?J=F6rg?= <j@example.org>\r\n'
               b'To: "M\xc3\xbcller, A" <a@example.org>, b@example.org\r\n'
               b"Cc: =?utf-8?b?5pel5pys?= <c@example.org>\r\n\r\n")
    assert [str(a) for a in msg.from_] == ["Jörg <j@example.org>"]
    assert [(a.name, a.address) for a in msg.to] == [("Müller, A", "a@example.org"), ("", "b@example.org")]
    assert [(a.name, a.address) for a in msg.cc] == [("日本", "c@example.org")]


def test_date():
    msg = read(b"Date: Tue, 10 May 2005 15:27:03 -0500\r\n\r\n")
    assert msg.date.isoformat() == "2005-05-10T15:27:03-05:00"
    assert read(b"Date: yesterday\r\n\r\n").date is None


def test_rfc2231_file_name_split_inside_a_character():
    """Segments are joined as bytes before decoding (spec 000 "Parameters")."""
    msg = read(b"Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n"
               b"Content-Type: application/octet-stream\r\n"
               b"Content-Disposition: attachment; filename*0*=utf-8''%E6%97;\r\n"
               b" filename*1*=%A5%E6%9C%AC.txt\r\n\r\nx\r\n--b--\r\n")
    assert msg.parts[0].filename == "日本.txt"
    assert msg.parts[0].disposition == "attachment"


def test_rfc2047_in_quoted_file_name():
    msg = read(b'Content-Type: application/pdf; name="=?utf-8?b?5pel5pys?=.pdf"\r\n\r\n')
    assert msg.parts[0].filename == "日本.pdf"
    assert [i.kind for i in msg.issues] == [K.AMBIGUOUS_ENCODED_WORD_IN_QUOTED_STRING]


def test_raw_8bit_utf8_subject():
    msg = read("Subject: Москва - столица России.\r\n\r\n".encode())
    assert msg.subject == "Москва - столица России."
    assert msg.issues == ()


# -- mbox ----------------------------------------------------------------------------------


def test_read_mbox_iterates_all_and_unquotes():
    data = (b"From a@b Sat Jan  1 00:00:00 2000\nSubject: one\n\n>From here\n\n"
            b"From c@d Sat Jan  1 00:00:01 2000\nSubject: two\n\nbody\n")
    msgs = list(read_mbox(data))
    assert [(m.format, m.subject) for m in msgs] == [("mbox", "one"), ("mbox", "two")]
    assert msgs[0].parts[0].text == "From here\n"  # the blank line before "From " separates
    assert read(data).subject == "one"


def test_read_mbox_of_a_single_message():
    assert [m.subject for m in read_mbox(b"Subject: only\r\n\r\n")] == ["only"]


# -- nested messages -----------------------------------------------------------------------


def test_message_rfc822_is_nested():
    msg = read(b"Subject: outer\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n"
               b"Content-Type: message/rfc822\r\n\r\nSubject: =?utf-8?q?inn=C3=A9r?=\r\n"
               b"Content-Type: text/plain; charset=bogus\r\n\r\nx\r\n--b--\r\n")
    inner = msg.parts[0].message
    assert inner.subject == "innér"
    assert [p.path for p in msg.walk()] == ["1", "1"]
    assert (K.AMBIGUOUS_UNKNOWN_CHARSET, "part:1>part:1", 0, 1) in kinds(msg)



def _rfc822_chain(levels: int) -> bytes:
    """level0 wrapping level1 ... wrapping a text/plain message at ``levels``."""
    data = b"Subject: level0\r\n"
    for n in range(1, levels + 1):
        data += b"Content-Type: message/rfc822\r\n\r\nSubject: level%d\r\n" % n
    return data + b"Content-Type: text/plain\r\n\r\nleaf\r\n"


def test_top_level_message_rfc822_keeps_the_enclosed_message():
    """A message/rfc822 envelope: the enclosed message is one part, its headers decoded."""
    msg = read(_rfc822_chain(1))
    assert [(p.path, p.media_type) for p in msg.parts] == [("1", "message/rfc822")]
    inner = msg.parts[0].message
    assert inner.subject == "level1"
    assert [(p.path, p.media_type, p.text) for p in inner.parts] == [("1", "text/plain", "leaf\r\n")]
    assert msg.issues == ()


def test_message_rfc822_chain_keeps_every_level():
    """message/rfc822 in message/rfc822 ...: every level's headers, none skipped."""
    msg = read(_rfc822_chain(5))
    subjects = []
    while msg is not None:
        subjects.append(msg.subject)
        msg = msg.parts[0].message
    assert subjects == [f"level{n}" for n in range(6)]
    attached = read(b"Subject: outer\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n"
                    b"Content-Type: message/rfc822\r\n\r\nSubject: mid\r\nContent-Type: message/rfc822\r\n\r\n"
                    b"Subject: innermost\r\n\r\nx\r\n--b--\r\n")
    mid = attached.parts[0].message
    assert mid.subject == "mid" and mid.parts[0].media_type == "message/rfc822"
    assert mid.parts[0].message.subject == "innermost"


def test_nested_messages_cut_at_max_depth_are_reported():
    from onemail.message.formats import MAX_DEPTH

    msg = read(_rfc822_chain(MAX_DEPTH + 5))
    inner, n = msg, 0
    while inner.parts[0].message is not None:
        inner, n = inner.parts[0].message, n + 1
    assert (n, inner.subject, inner.parts[0].media_type) == (MAX_DEPTH, f"level{MAX_DEPTH}", "message/rfc822")
    last = inner.parts[0]
    assert kinds(msg) == [(M.MESSAGE_NESTING_LIMIT_EXCEEDED, ">".join(["part:1"] * (MAX_DEPTH + 1)), 0,
                           len(last.data))]


def test_tnef_in_tnef_chain_stops_at_max_depth():
    """A winmail.dat attached to a winmail.dat ... (each level a new stream): the reader stopped
    only at Python's recursion limit and lost the whole message."""
    from onemail.message import tnef
    from onemail.message.formats import MAX_DEPTH

    def attribute(level, att_id, value):
        return struct.pack("<BII", level, att_id, len(value)) + value + struct.pack("<H", sum(value) & 0xFFFF)

    data = b""
    for n in range(300, -1, -1):
        data = (struct.pack("<IH", tnef.SIGNATURE, 0) + attribute(tnef.LVL_MESSAGE, 0x00018004, b"level%d\0" % n)
                + (attribute(tnef.LVL_ATTACHMENT, 0x0006800F, data) if data else b""))
    msg = read(data)
    inner, levels = msg, 0
    while inner.parts and inner.parts[0].message is not None:
        inner, levels = inner.parts[0].message, levels + 1
    assert (msg.error, msg.subject, levels, inner.subject) == (None, "level0", MAX_DEPTH, f"level{MAX_DEPTH}")
    assert [(i.kind, i.where) for i in msg.issues] == [
        (M.MESSAGE_NESTING_LIMIT_EXCEEDED, ">".join(["part:att1"] * (MAX_DEPTH + 1)))]


def _deep_multipart(levels: int) -> bytes:
    data = [b"Subject: top\r\n"]
    data += [b"Content-Type: multipart/mixed; boundary=b%d\r\n\r\n--b%d\r\n" % (n, n) for n in range(levels)]
    data.append(b"Content-Type: text/plain\r\n\r\nleaf\r\n")
    data += [b"--b%d--\r\n" % n for n in reversed(range(levels))]
    return b"".join(data)


@pytest.mark.parametrize("levels", [1000, 5000])
def test_deep_multipart_is_cut_not_lost(levels):
    """The stdlib parser recurses per level; nesting below MAX_MIME_LEVELS is one opaque leaf."""
    from onemail.message.formats import MAX_MIME_LEVELS

    data = _deep_multipart(levels)
    msg = read(data)
    assert (msg.error, msg.subject) == (None, "top")
    path = ".".join(["1"] * MAX_MIME_LEVELS)
    (part,) = msg.parts
    assert (part.path, part.media_type, part.text) == (path, "multipart/mixed", None)
    assert part.data.startswith(b"--b%d\r\n" % MAX_MIME_LEVELS)
    assert part.data.endswith(b"--b%d--" % MAX_MIME_LEVELS)
    assert kinds(msg) == [(M.MESSAGE_NESTING_LIMIT_EXCEEDED, f"part:{path}", 0, len(part.data))]


@pytest.mark.parametrize("content_type", [
    b"Content-Type:\r\n multipart/mixed;\r\n\tboundary=\"b%d\"",  # folded before the type
    b"CONTENT-TYPE: MULTIPART/MIXED; BOUNDARY=b%d",
])
def test_deep_multipart_written_otherwise_is_cut(content_type):
    from onemail.message.formats import MAX_MIME_LEVELS

    data = [b"Subject: top\r\n"]
    data += [content_type % n + b"\r\n\r\n--b%d\r\n" % n for n in range(1500)]
    data += [b"Content-Type: text/plain\r\n\r\nleaf\r\n"] + [b"--b%d--\r\n" % n for n in reversed(range(1500))]
    msg = read(b"".join(data))
    (part,) = msg.parts
    assert (msg.error, msg.subject, part.path.count(".") + 1, part.media_type) == (
        None, "top", MAX_MIME_LEVELS, "multipart/mixed")
    assert [i.kind for i in msg.issues] == [M.MESSAGE_NESTING_LIMIT_EXCEEDED]


def test_multipart_at_the_level_cap_is_kept_whole():
    from onemail.message.formats import MAX_MIME_LEVELS

    msg = read(_deep_multipart(MAX_MIME_LEVELS))
    assert [(p.path, p.text) for p in msg.parts] == [(".".join(["1"] * MAX_MIME_LEVELS), "leaf")]
    assert msg.issues == ()


def test_deep_message_rfc822_chain_does_not_lose_the_message():
    msg = read(_rfc822_chain(3000))
    assert (msg.error, msg.subject) == (None, "level0")
    assert any(i.kind is M.MESSAGE_NESTING_LIMIT_EXCEEDED for i in msg.issues)


def test_delivery_status_keeps_every_field_block():
    """message/delivery-status: the per-recipient block after the per-message one is kept."""
    msg = read(b"Subject: bounce\r\nContent-Type: multipart/report; boundary=b\r\n\r\n--b\r\n"
               b"Content-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; a.example\r\n\r\n"
               b"Final-Recipient: rfc822; x@b.example\r\nAction: failed\r\n\r\n--b--\r\n")
    (part,) = msg.parts
    assert (part.media_type, part.message, part.charset) == ("message/delivery-status", None, "us-ascii")
    assert part.text == "Reporting-MTA: dns; a.example\r\n\r\nFinal-Recipient: rfc822; x@b.example\r\nAction: failed\r\n"


def test_read_mbox_memory_maps_a_large_file(tmp_path, monkeypatch):
    import onemail.message.formats as formats

    monkeypatch.setattr(formats, "MMAP_BYTES", 10)
    path = tmp_path / "box.mbox"
    path.write_bytes(b"From a@b Sat Jan  1 00:00:00 2000\nSubject: one\n\n>From here\n\n"
                     b"From c@d Sat Jan  1 00:00:01 2000\nSubject: two\n\nbody\n")
    assert [(m.subject, m.parts[0].text) for m in read_mbox(path)] == [("one", "From here\n"), ("two", "body\n")]


def test_mbox_separator_without_line_feed():
    """Found by tests/properties/test_message_never_raises.py: a file that is only "From "."""
    assert read(b"From ").error == "empty mbox"
    assert list(read_mbox(b"From x")) == []



def test_repair_flag_repairs_and_reports():
    msg = read("Subject: cafÃ©\r\n\r\nhello".encode(), repair=True)
    assert msg.subject == "café"
    assert [r.where for r in msg.repairs] == ["header:Subject", "subject"]
    assert read("Subject: cafÃ©\r\n\r\n".encode()).subject == "cafÃ©"


# -- raw 8-bit header text (M9) ------------------------------------------------------------


def test_raw_8bit_subject_in_the_declared_body_charset():
    """M9: a KOI8-R subject written raw (alone it reads as EUC-KR); the part declares koi8-r."""
    subject = "Отчёт"
    data = (b"From: ivan@example.com\r\nSubject: " + subject.encode("koi8_r")
            + b"\r\nContent-Type: text/plain; charset=koi8-r\r\n\r\n"
            + "Добрый день! Встречаемся в четверг в десять.".encode("koi8_r"))
    msg = read(data)
    assert msg.subject == subject
    assert msg.parts[0].text.startswith("Добрый день!")


def test_raw_8bit_subject_detected_with_the_body():
    """M9: no charset anywhere; the subject alone reads as GBK, with the body it is KOI8-R."""
    subject = "Здравствуйте, Иван Петрович!"
    body = ("Добрый день, коллеги! Высылаю отчёт за май. Прошу посмотреть таблицу продаж "
            "и сообщить, если есть вопросы. С уважением, Мария.").encode("koi8_r")
    data = b"Subject: " + subject.encode("koi8_r") + b"\r\nContent-Type: text/plain\r\n\r\n" + body
    msg = read(data)
    assert msg.subject == subject
    assert msg.parts[0].charset == "koi8-r"


def test_raw_8bit_header_hint_ignores_utf8_and_ascii_bodies():
    """M9: a UTF-8 or US-ASCII body says nothing about legacy header bytes."""
    for ctype in (b"text/plain; charset=utf-8", b"text/plain; charset=us-ascii"):
        data = b"Subject: caf\xe9 cr\xe8me\r\nContent-Type: " + ctype + b"\r\n\r\nhello"
        assert read(data).subject == "café crème"


def test_a_stdlib_message_is_a_source():
    """read(email.message.Message): written back by the stdlib's generator, then read."""
    import email
    from email import policy

    data = (b"Subject: =?utf-8?q?caf=C3=A9?=\r\nFrom: A <a@example.org>\r\n"
            b"Content-Type: text/plain; charset=utf-8\r\n\r\nbonjour\r\n")
    for pol in (policy.compat32, policy.default):
        em = email.message_from_bytes(data, policy=pol)
        msg = read(em)
        assert (msg.subject, [str(a) for a in msg.from_], msg.parts[0].text) == (
            "café", ["A <a@example.org>"], "bonjour\r\n")


def _tnef(*attributes: bytes) -> bytes:
    return struct.pack("<IH", 0x223E9F78, 0) + b"".join(attributes)


def _attribute(level: int, att_id: int, value: bytes) -> bytes:
    return struct.pack("<BII", level, att_id, len(value)) + value + struct.pack("<H", sum(value) & 0xFFFF)


def test_tnef_value_counts_are_bounded_by_the_bytes_left():
    """Issue 16: a 29-byte TNEF whose multi-valued PtypNull property counts 2^20 values cost
    0.5 s and 8 MB per 8 bytes; a count the attribute cannot hold is damage, for every type."""
    props = struct.pack("<I", 1) + struct.pack("<HHI", 0x1001, 0x0001, 1 << 20)
    data = _tnef(_attribute(1, 0x00069003, props))
    assert len(data) == 29
    msg = read(data)
    assert kinds(msg) == [(M.MALFORMED_TNEF, "tnef:attMsgProps", 23, 4)]
    # 64 such properties (533 bytes): one issue, the list stops at the first
    props = struct.pack("<I", 64) + struct.pack("<HHI", 0x1001, 0x0001, 1 << 20) * 64
    assert kinds(read(_tnef(_attribute(1, 0x00069003, props)))) == [(M.MALFORMED_TNEF, "tnef:attMsgProps", 23, 508)]
    # a multi-valued PtypInteger32 (0x1003) counting more values than 4-byte slots left
    props = struct.pack("<I", 1) + struct.pack("<HHI", 0x1003, 0x0001, 3) + struct.pack("<II", 7, 8)
    assert kinds(read(_tnef(_attribute(1, 0x00069003, props)))) == [(M.MALFORMED_TNEF, "tnef:attMsgProps", 23, 12)]
    props = struct.pack("<I", 1) + struct.pack("<HHI", 0x1003, 0x0001, 2) + struct.pack("<II", 7, 8)
    msg = read(_tnef(_attribute(1, 0x00069003, props)))
    assert (msg.issues, next(p.value for p in msg.properties if p.tag == 1)) == ((), (7, 8))


def test_issue_lists_are_bounded_per_place_with_the_count_left_out():
    """Issue 16: 10 MB of invalid bytes was 10 million issues; now runs merge and each place
    keeps MAX_ISSUES, then one TooManyIssues with the count of the rest."""
    from onemail.message.model import MAX_ISSUES

    body = b"\xff" * 1_000_000  # one run
    msg = read(b"Content-Type: text/plain; charset=shift_jis\r\n\r\n" + body)
    assert kinds(msg) == [(K.INVALID_SHIFT_JIS, "part:1", 0, 1_000_000)]
    body = b"\x81 " * 500_000  # half a million separate errors
    msg = read(b"Content-Type: text/plain; charset=shift_jis\r\n\r\n" + body)
    issues = msg.parts[0].issues
    assert len(issues) == MAX_ISSUES + 1
    assert [(i.kind, i.offset, i.length) for i in issues[:2]] == [(K.INVALID_SHIFT_JIS, 0, 1), (K.INVALID_SHIFT_JIS, 2, 1)]
    last = issues[-1]
    assert (last.kind, last.offset, last.offset + last.length, last.count) == (
        K.TOO_MANY_ISSUES, 2 * MAX_ISSUES, 1_000_000 - 1, 500_000 - MAX_ISSUES)
    assert last.to_json() == {"kind": "TooManyIssues", "where": "part:1", "offset": 200,
                              "length": 999_799, "count": 499_900}


def test_malformed_lines_and_addresses_are_bounded_too():
    from onemail.message.model import MAX_ISSUES

    data = b"Subject: s\r\n" + b"".join(b"junk%d\r\nX-%d: v\r\n" % (k, k) for k in range(300)) + b"\r\nbody"
    msg = read(data)
    block = [i for i in msg.issues if i.where == "headers"]
    assert len(block) == MAX_ISSUES + 1 and block[-1].kind is K.TOO_MANY_ISSUES and block[-1].count == 200
    msg = read(b"To: " + b", ".join(b"junk words" for _ in range(300)) + b"\r\n\r\n")
    assert msg.to == ()
    to = [i for i in msg.issues if i.where == "header:To"]
    assert len(to) == MAX_ISSUES + 1 and (to[-1].kind, to[-1].count) == (K.TOO_MANY_ISSUES, 200)


def test_parts_past_max_parts_are_one_opaque_leaf():
    """M15: 10 005 tiny parts: 10 000 read, the rest one leaf with its bytes as they stand."""
    from onemail.message.formats import MAX_PARTS

    part = b"--b\r\nContent-Type: text/plain\r\n\r\nx\r\n"
    head = b'Content-Type: multipart/mixed; boundary="b"\r\n\r\n'
    msg = read(head + part * MAX_PARTS + b"--b--\r\n")
    assert (len(msg.parts), msg.issues) == (MAX_PARTS, ())
    msg = read(head + part * (MAX_PARTS + 5) + b"--b--\r\n")
    rest = msg.parts[-1]
    assert (len(msg.parts), rest.path, rest.media_type) == (MAX_PARTS + 1, str(MAX_PARTS + 1), "application/octet-stream")
    assert rest.data == part * 5 + b"--b--\r\n"
    assert kinds(msg) == [(M.TOO_MANY_PARTS, f"part:{MAX_PARTS + 1}", 0, len(rest.data))]


def test_mojibake_is_reported_by_default_and_left_as_it_is():
    """Issue 17: a correctly declared UTF-8 body shown as mojibake with zero issues."""
    body = "メール".encode().decode("windows-1252").encode() + b" ok"  # ãƒ¡ãƒ¼ãƒ« ok
    data = b"Subject: caf\xc3\x83\xc2\xa9\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + body
    msg = read(data)
    assert (msg.subject, msg.parts[0].text) == ("cafÃ©", body.decode())
    assert kinds(msg) == [(M.SUSPECTED_MOJIBAKE, "header:Subject", 0, 7), (M.SUSPECTED_MOJIBAKE, "part:1", 0, len(body))]
    assert [r.to_json() for r in msg.mojibake] == [["header:Subject", [["windows-1252", "utf-8"]]],
                                                   ["part:1", [["windows-1252", "utf-8"]]]]
    repaired = read(data, repair=True)
    assert (repaired.subject, repaired.parts[0].text, repaired.mojibake) == ("café", "メール ok", ())


def test_clean_text_is_not_suspected():
    msg = read("Subject: Grüße aus Köln\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nFörstår inte".encode())
    assert (msg.issues, msg.mojibake) == ((), ())
