"""``looks_binary`` and the BOM and UTF-16/32 shape rules (onemail.detect._binary, spec 004)."""

from __future__ import annotations

import pytest

from onemail.detect import looks_binary
from onemail.detect._binary import BINARY_WINDOW, bom_charset, utf16_32_shape


def test_a_nul_byte_in_the_first_8_kib_means_binary():
    assert looks_binary(b"\x89PNG\r\n\x1a\n\x00\x00") is True
    assert looks_binary(b"ab\x00cd") is True
    assert looks_binary(b"x" * BINARY_WINDOW + b"\x00") is False  # past the window
    assert (looks_binary(b"text\n"), looks_binary(b"")) == (False, False)


def test_utf_16_and_utf_32_keep_their_nuls():
    assert looks_binary("hi there".encode("utf-16le")) is False
    assert looks_binary("héllo wörld and more text".encode("utf-16be")) is False
    assert looks_binary(b"\xff\xfe\x00\x00\x00\x00") is False  # a UTF-32LE BOM


def test_bom_charset_tries_utf_32_first():
    assert bom_charset(b"\xff\xfe\x00\x00") == ("utf-32le", 4)
    assert bom_charset(b"\x00\x00\xfe\xff") == ("utf-32be", 4)
    assert bom_charset(b"\xef\xbb\xbfx") == ("utf-8", 3)
    assert bom_charset(b"\xff\xfeh\x00") == ("utf-16le", 2)
    assert bom_charset(b"\xfe\xff") == ("utf-16be", 2)
    assert bom_charset(b"ab") is None


@pytest.mark.parametrize(("codec", "shape"), [
    ("utf-16le", "utf-16le"), ("utf-16be", "utf-16be"), ("utf-32le", "utf-32le"), ("utf-32be", "utf-32be"),
    ("ascii", None),
])
def test_utf16_32_shape(codec, shape):
    assert utf16_32_shape("hello world".encode(codec)) == shape


def test_wrong_types():
    with pytest.raises(TypeError, match="data must be bytes-like, not str"):
        looks_binary("text")  # type: ignore[arg-type]
