"""No public decoder or reader of ``onemail.rtf`` and of the text layer's codecs raises on any
bytes (issue 16), including digit runs longer than CPython's 4,300-digit ``int()`` limit, and
issues stay inside the input."""

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
