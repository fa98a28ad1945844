"""CPython codec facts the RTF de-encapsulator's default decoder relies on (RT27, RT37)."""

from __future__ import annotations

import codecs

import pytest


@pytest.mark.parametrize("code_page", [437, 850, 874, 932, 949, 950, 1250, 1251, 1252, 1253,
                                       1254, 1255, 1256, 1257, 1258])
def test_cp_spelling_finds_the_windows_code_page(code_page):
    assert codecs.lookup(f"cp{code_page}").name == f"cp{code_page}"


@pytest.mark.parametrize("spelling", ["cp42", "cp1200", "cp10000", "cp20127"])
def test_code_pages_cpython_does_not_spell_cpNNN(spelling):
    with pytest.raises(LookupError):
        codecs.lookup(spelling)


def test_cp1252_holes_raise():
    """RT27: so the walk maps them to C1 controls itself."""
    for byte in (0x81, 0x8D, 0x8F, 0x90, 0x9D):
        with pytest.raises(UnicodeDecodeError):
            bytes([byte]).decode("cp1252")


def test_double_byte_gaps_and_their_supersets():
    """RT37: cp950 lacks FA 40, big5hkscs has it; gbk lacks 0x80 and FE A0, gb18030 has FE A0."""
    with pytest.raises(UnicodeDecodeError):
        b"\xfa\x40".decode("cp950")
    assert b"\xfa\x40".decode("big5hkscs") == "\U00020547"
    with pytest.raises(UnicodeDecodeError):
        b"\x80".decode("gbk")
    with pytest.raises(UnicodeDecodeError):
        b"\xfe\xa0".decode("gbk")
    assert b"\xfe\xa0".decode("gb18030") == "\ue864"


def test_cp932_is_microsofts():
    assert b"\x87\x40\xf0\x40".decode("cp932") == "\u2460\ue000"
