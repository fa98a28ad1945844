"""No public decoder or reader raises on any bytes (issue 16), including digit runs longer than
CPython's 4,300-digit ``int()`` limit, and issues stay inside the input: the RTF reader,
de-encapsulation and compressed RTF; every charset and its ``onemail-*`` codec; RFC 2047
``decode_text`` and RFC 2231 ``parse_header_params`` (with and without ``max_issues``); UTF-7
and IMAP UTF-7; ``read`` and ``read_mbox`` (no ``internal error``); ``detect`` and ``repair``
(whose steps replay)."""

from __future__ import annotations

import codecs

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import onemail.text  # noqa: F401 - registers the onemail-* codecs
from onemail.rtf import Decompressor, RtfReader, decompress, deencapsulate, is_encapsulated
from onemail.text import charsets
from onemail.text.issues import BoundedIssues

codecs.register_error("test.mark", lambda exc: (f"<{exc.start}>", exc.end))
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

_RTF_PIECES = [b"{", b"}", b"\\", b"{\\rtf1", b"\\fromhtml1", b"\\fromtext", b"{\\*\\htmltag64 ",
               b"\\u", b"\\uc", b"\\'", b"\\'e9", b"\\bin", b"\\f", b"\\ansicpg", b"\\cpg",
               b"\\fcharset", b"{\\fonttbl", b"\\htmlrtf", b"-", b" ", b"\r\n", b"\\par"]
digit_runs = st.builds(lambda sign, n, d: sign + d * n, st.sampled_from([b"", b"-", b"0"]),
                       st.sampled_from([1, 5, 10, 11, 12, 4300, 4301, 20000]),
                       st.sampled_from([b"1", b"9", b"0", b"7"]))
rtf_like = st.lists(st.one_of(st.sampled_from(_RTF_PIECES), digit_runs, st.binary(max_size=6)),
                    max_size=30).map(b"".join)
any_input = st.one_of(st.binary(max_size=300), rtf_like)


@SETTINGS
@given(data=any_input)
def test_rtf_readers_never_raise(data):
    reader = RtfReader(data)
    for token in reader:
        assert 0 <= token.offset and token.offset + token.length <= len(data)
    for defect in reader.defects:
        assert 0 <= defect.offset and defect.offset + defect.length <= len(data)
    result = deencapsulate(data)
    assert isinstance(result.text, str)
    for defect in result.defects:
        assert 0 <= defect.offset and defect.offset + defect.length <= len(data)
    assert is_encapsulated(data) in (None, "html", "text")


@SETTINGS
@given(head=st.binary(min_size=16, max_size=16), body=any_input, cut=st.integers(0, 400))
def test_compressed_rtf_never_raises(head, body, cut):
    for stream in (head + body, b"\x00\x00\x00\x00" + head[4:8] + b"LZFu" + head[12:] + body,
                   head[:8] + b"MELA" + head[12:] + body):
        result = decompress(stream)
        for defect in result.defects:
            assert 0 <= defect.offset and defect.offset + defect.length <= len(stream)
        d = Decompressor()
        out = d.decompress(stream[:cut]) + d.decompress(stream[cut:]) + d.finish()
        assert isinstance(out, bytes)


@pytest.mark.parametrize("cs", charsets.known_charsets(), ids=lambda cs: cs.key)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.one_of(any_input, digit_runs))
def test_charset_decoders_and_python_codecs_never_raise(cs, data):
    for issues in (None, [], BoundedIssues(limit=3)):
        text = cs.decode(data, issues, 5)
        assert isinstance(text, str)
        for issue in issues or ():
            assert 5 <= issue.offset and issue.offset + issue.length <= 5 + len(data)
    name = f"onemail-{cs.key}"
    # (not "surrogateescape": by Python's contract it re-raises for a byte below 0x80, and an
    # ESC that opens no known sequence is an error of ISO-2022)
    for errors in ("replace", "ignore", "backslashreplace", "test.mark"):
        try:
            out = data.decode(name, errors)
        except UnicodeDecodeError as exc:  # only "use 'replace'" for a literal U+FFFD is allowed
            assert "literal U+FFFD" in exc.reason, (errors, exc)
        else:
            assert isinstance(out, str)
        dec = codecs.getincrementaldecoder(name)(errors)
        try:
            dec.decode(data[:7])
            dec.decode(data[7:], final=True)
        except UnicodeDecodeError as exc:
            assert "literal U+FFFD" in exc.reason, (errors, exc)


# ------------------------------------------------------------ headers, parameters, messages

_HEADER_PIECES = [b"=?", b"?=", b"?", b"=?utf-8?q?", b"=?utf-8?b?", b"=?shift_jis?b?", b"=?x-foo*en?q?",
                  b"=FF", b"=C3=A9", b"_", b"w6k=", b"gSA", b"\xff", b"\x81 ", b"\xc3\xa9", b"\x1b$B",
                  b"\x1b(B", b" ", b"\t", b"\r\n ", b"\r\n", b"\n", b"a", b'"', b"\\", b"(", b")"]
_PARAM_PIECES = [b"; ", b";", b"filename", b"name", b"*", b"*0", b"*1*", b"*0*", b"=", b"'", b"''",
                 b"utf-8''", b"us-ascii'en'", b"%", b"%FF", b"%C3%A9", b"%4", b"attachment", b"text/plain"]
header_like = st.lists(st.one_of(st.sampled_from(_HEADER_PIECES), st.sampled_from(_PARAM_PIECES),
                                 digit_runs, st.binary(max_size=4)), max_size=30).map(b"".join)


@SETTINGS
@given(value=st.one_of(header_like, st.binary(max_size=200)), offset=st.sampled_from([0, 9]))
def test_header_decoders_never_raise(value, offset):
    from onemail.text.rfc2047 import decode_text
    from onemail.text.rfc2231 import parse_header_params

    for issues in ([], BoundedIssues(limit=3)):
        assert isinstance(decode_text(value, issues=issues, offset=offset), str)
        for issue in issues:
            assert offset <= issue.offset and issue.offset + issue.length <= offset + len(value)
    for max_issues in (None, 2):
        found: list = []
        main, params = parse_header_params(value, issues=found, offset=offset, max_issues=max_issues)
        assert isinstance(main, str)
        for p in params:
            assert isinstance(p.value, str) and (max_issues is None or len(p.issues) <= max_issues + 1)
            for issue in (*p.issues, *found):
                assert offset <= issue.offset and issue.offset + issue.length <= offset + len(value)


@SETTINGS
@given(data=st.one_of(header_like, st.binary(max_size=200)))
def test_utf7_and_imap_decoders_never_raise(data):
    from onemail.text import utf7

    for decode in (utf7.decode, utf7.decode_imap):
        for issues in (None, [], BoundedIssues(limit=2)):
            assert isinstance(decode(data, issues=issues, offset=3), str)
            for issue in issues or ():
                assert 3 <= issue.offset and issue.offset + issue.length <= 3 + len(data)


_FIELDS = [b"Subject: ", b"From: ", b"To: ", b"Content-Type: ", b"Content-Disposition: ",
           b"Content-Transfer-Encoding: ", b"Content-Length: ", b"Date: ", b"MIME-Version: 1.0\r\n",
           b"Content-Type: multipart/mixed; boundary=b\r\n", b"--b\r\n", b"--b--\r\n",
           b"Content-Type: text/plain; charset=", b"Content-Type: application/ms-tnef\r\n",
           b"base64", b"quoted-printable", b"\r\n", b"\n", b"From a@b Thu Jan  1 00:00:00 2024\n",
           b"From ", b"0:00 ", b"x\xff"]
message_like = st.lists(st.one_of(st.sampled_from(_FIELDS), header_like, digit_runs), max_size=25).map(b"".join)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.one_of(message_like, st.binary(max_size=300)))
def test_message_readers_never_raise(data):
    from onemail.message import read, read_mbox

    msg = read(data)
    assert msg.error is None or "internal" not in msg.error
    for part in msg.walk():
        assert part.text is None or isinstance(part.text, str)
    for m in read_mbox(data):
        assert m.error is None or "internal" not in m.error


@SETTINGS
@given(data=st.one_of(message_like, st.binary(max_size=300)))
def test_detect_and_repair_never_raise(data):
    from onemail.detect import apply_steps, detect, repair

    found = detect(data)
    assert 0 <= found.confidence <= 100
    text = data.decode("latin-1")
    fixed = repair(text)
    assert apply_steps(text, fixed.steps) == fixed.text
