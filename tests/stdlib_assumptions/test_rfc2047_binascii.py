"""CPython facts the RFC 2047 decoder relies on (src/onemail/text/rfc2047.py fast paths)."""

from __future__ import annotations

import binascii

import pytest


def test_a2b_qp_header_mode_is_q_when_every_equals_is_an_escape():
    # used for Q text whose every '=' is followed by two hex digits
    assert binascii.a2b_qp(b"a_b=41=e9 \t\xff?", header=True) == b"a bA\xe9 \t\xff?"


def test_a2b_qp_drops_a_trailing_equals_so_it_is_not_used_then():
    # a bad '=' must stay literal (InvalidQuotedPrintable): the regex check routes it elsewhere
    assert binascii.a2b_qp(b"a=", header=True) == b"a"


@pytest.mark.parametrize("text", [b"YWJj=", b"YWJj=="])
def test_strict_base64_accepts_surplus_padding(text):
    # why the fast path also requires '=' only in the last two places of whole groups
    binascii.a2b_base64(text, strict_mode=True)


@pytest.mark.parametrize("text", [b"YQ==YQ==", b"Y!WJj", b"YQ", b"YWJjZ"])
def test_strict_base64_rejects_what_the_slow_path_repairs(text):
    with pytest.raises(binascii.Error):
        binascii.a2b_base64(text, strict_mode=True)
