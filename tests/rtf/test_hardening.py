"""Issue 16 in ``onemail.rtf``: digit runs of any length, memory near the input size, and the
streaming ``Decompressor`` agreeing with ``decompress`` on refused streams (RT6, RT60)."""

from __future__ import annotations

import struct
import tracemalloc

import pytest

from onemail.cli import main
from onemail.rtf import Decompressor, RtfDefect, RtfDefectKind, RtfReader, decompress, deencapsulate
from onemail.rtf.reader import ControlWord, GroupStart, Text

K = RtfDefectKind
INT_MAX = 2**31 - 1
INT_MIN = -(2**31)
HEAD = b"{\\rtf1\\ansi\\ansicpg1252\\fromtext \\deff0{\\fonttbl{\\f0 Arial;}}"


# ------------------------------------------------------------------------- digit runs


def test_a_parameter_of_4301_digits_is_clamped_not_raised():
    """CPython's int() refuses more than 4,300 digits; the tokenizer clamps (spec 002)."""
    data = b"{\\rtf" + b"1" * 4301
    reader = RtfReader(data)
    assert reader.read_all() == [GroupStart(0), ControlWord(1, 4305, "rtf", INT_MAX)]
    assert reader.defects == [RtfDefect(K.PARAMETER_OVERFLOW, 5, 4301),
                              RtfDefect(K.UNCLOSED_GROUPS, 4306, 0)]


@pytest.mark.parametrize(("digits", "number", "overflow"), [
    (b"000000000024", 24, False),  # leading zeros do not count
    (b"-000000000024", -24, False),
    (b"00000000002147483647", INT_MAX, False),
    (b"00000000002147483648", INT_MAX, True),
    (b"-0000000002147483648", INT_MIN, False),
    (b"-0000000002147483649", INT_MIN, True),
    (b"0" * 5000, 0, False),
    (b"-" + b"0" * 5000, 0, False),
    (b"9" * 100000, INT_MAX, True),
    (b"-" + b"9" * 100000, INT_MIN, True),
])
def test_long_parameters(digits, number, overflow):
    reader = RtfReader(b"\\fs" + digits + b" x")
    assert reader.read_all() == [ControlWord(0, 4 + len(digits), "fs", number),
                                 Text(4 + len(digits), 1, b"x")]
    assert reader.defects == ([RtfDefect(K.PARAMETER_OVERFLOW, 3, len(digits))] if overflow else [])


def test_deencapsulation_of_long_digit_runs():
    """\\u, \\uc, \\f and \\ansicpg with 5,000 digits: clamped, reported once each."""
    data = (HEAD + b"\\u" + b"9" * 5000 + b" a\\uc" + b"7" * 5000 + b" bc\\f" + b"1" * 5000
            + b" x\\ansicpg" + b"4" * 5000 + b" y}")
    result = deencapsulate(data)
    u, uc, f, cpg = (data.index(w) + len(w) for w in (b"\\u9", b"\\uc", b"\\f1", b"\\ansicpg4"))
    assert result.kind == "text"
    assert result.text == "\ufffdbcxy"
    assert result.defects == (
        RtfDefect(K.PARAMETER_OVERFLOW, u - 1, 5000),
        RtfDefect(K.PARAMETER_OVERFLOW, uc, 5000),
        RtfDefect(K.PARAMETER_OVERFLOW, f - 1, 5000),
        RtfDefect(K.PARAMETER_OVERFLOW, cpg - 1, 5000),
        RtfDefect(K.AMBIGUOUS_UNKNOWN_CODE_PAGE, data.index(b" y") + 1, 0),
    )


def test_rtf_html_and_text_commands_do_not_print_a_traceback(tmp_path, capsys):
    src = tmp_path / "digits.rtf"
    src.write_bytes(b"{\\rtf" + b"1" * 4301 + b"\\fromhtml1 {\\*\\htmltag x}}")
    assert main(["rtf", "html", str(src)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("x") and "Traceback" not in err
    src.write_bytes(b"{\\rtf" + b"1" * 4301 + b" x}")
    assert main(["rtf", "html", str(src)]) == 1
    assert "does not encapsulate html" in capsys.readouterr().err


# ---------------------------------------------------------------------------- memory


def _peak(data: bytes) -> tuple[int, str]:
    tracemalloc.start()
    try:
        text = deencapsulate(data).text
        return tracemalloc.get_traced_memory()[1], text
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize(("piece", "char", "bound"), [
    (b"\\u1234?", "\u04d2", 3),  # was 12x (one str object per \uN)
    (b"\\'e9", "é", 2),  # was 32x (one list entry and one int per \'hh)
    (b"caf\\'e9 ", "café ", 8),  # was 37x (one map entry per piece left)
    (b"\\u-10179?\\u-8694?", "\U0001f60a", 3),
])
def test_deencapsulation_memory_stays_near_the_input(piece, char, bound):
    data = HEAD + piece * 100000 + b"}"
    peak, text = _peak(data)
    assert text == char * 100000
    assert peak < bound * len(data)


def test_invalid_bytes_in_a_run_of_text_and_hex_escapes_point_into_the_input():
    # cp932: a lead byte \'81 before \'20 or before the text " d" is one invalid byte; so is
    # \'88 at the end of a run (before \u).
    data = b"{\\rtf1\\ansi\\ansicpg932\\fromtext ab\\'81\\'20\\'81 d\\'88\\u26085?\\'88e}"
    result = deencapsulate(data)
    at = data.index(b"ab")
    assert result.text == "ab\ufffd \ufffd d\ufffd\u65e5\ufffde"
    assert result.defects == (
        RtfDefect(K.INVALID_CODE_PAGE_BYTES, at + 2, 4),
        RtfDefect(K.INVALID_CODE_PAGE_BYTES, at + 10, 4),
        RtfDefect(K.INVALID_CODE_PAGE_BYTES, at + 16, 4),
        RtfDefect(K.INVALID_CODE_PAGE_BYTES, data.rindex(b"\\'88"), 4),
    )


# ------------------------------------------------------------------ Decompressor (RT6)


def _stream(compsize: int, rawsize: int, comptype: bytes, contents: bytes) -> bytes:
    return struct.pack("<II4sI", compsize, rawsize, comptype, 0) + contents


def _streamed(stream: bytes, cut: int) -> tuple[bytes, tuple, bool]:
    d = Decompressor()
    data = d.decompress(stream[:cut]) + d.decompress(stream[cut:]) + d.finish()
    return data, d.defects, d.crc_verified


def test_refused_stream_with_a_wrong_compsize_streams_like_one_shot():
    """The 19-byte case of issue 16: RAWSIZE over the limit and COMPSIZE wrong."""
    stream = _stream(99, 300 * 1024 * 1024, b"LZFu", b"abc")
    assert len(stream) == 19
    want = (RtfDefect(K.COMPRESSED_SIZE_MISMATCH, 0, 4), RtfDefect(K.OUTPUT_LIMIT_EXCEEDED, 4, 4))
    one = decompress(stream)
    assert (one.data, one.defects, one.crc_verified) == (b"", want, False)
    for cut in range(len(stream) + 1):
        assert _streamed(stream, cut) == (b"", want, False), cut


def test_unknown_type_is_refused_before_the_compsize_check_in_both():
    stream = _stream(99, 10, b"LZFx", b"abc")
    want = (RtfDefect(K.UNKNOWN_COMPRESSION_TYPE, 8, 4),)
    assert decompress(stream).defects == want
    for cut in range(len(stream) + 1):
        assert _streamed(stream, cut) == (b"", want, False), cut


def test_missing_end_marker_of_a_compsize_below_12_points_at_the_contents():
    """COMPSIZE 0 declares contents ending at byte 4; both say the end marker is missing at
    byte 16, where the (empty) contents end (RT7)."""
    stream = _stream(0, 10, b"LZFu", b"\x00abc")
    want = (RtfDefect(K.COMPRESSED_SIZE_MISMATCH, 0, 4), RtfDefect(K.MISSING_END_MARKER, 16, 0),
            RtfDefect(K.RAW_SIZE_MISMATCH, 4, 4))
    assert decompress(stream).defects == want
    for cut in range(len(stream) + 1):
        assert _streamed(stream, cut) == (b"", want, True), cut
