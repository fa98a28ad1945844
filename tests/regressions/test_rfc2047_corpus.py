"""Every header field of the real mail in ``../shared/corpus/mail/`` through decode_text.

decode_text never raises, every issue lies inside the value, and no well-formed encoded word
of the input is left in the output undecoded.
"""

from __future__ import annotations

import re

import pytest
from mail_headers import MAIL, corpus_headers

from onemail.text.rfc2047 import decode_text
from onemail.text.rfc2231 import parse_header_params

# A well-formed encoded word without white space or line breaks (RFC 2047 §2).
_WORD = re.compile(rb"=\?[^?\s]+\?[BbQq]\?[^?\s]*\?=")


@pytest.fixture(scope="module")
def headers():
    if not MAIL.exists():
        pytest.skip("../shared/corpus/mail is not present")
    return corpus_headers()


def test_corpus_header_values_decode(headers):
    assert len(headers) > 50_000
    with_words = 0
    for rel, name, value in headers:
        issues: list = []
        text = decode_text(value, issues=issues)
        for i in issues:
            assert 0 <= i.offset and i.offset + i.length <= len(value), (rel, name, i)
        words = _WORD.findall(value)
        if words:
            with_words += 1
            for w in words:
                assert w.decode("latin-1") not in text, (rel, name, w)
    assert with_words > 500


def test_corpus_parameters_parse(headers):
    seen = 0
    for rel, name, value in headers:
        if name.lower() in (b"content-type", b"content-disposition"):
            seen += 1
            main, params = parse_header_params(value)
            for p in params:
                for i in p.issues:
                    assert 0 <= i.offset and i.offset + i.length <= len(value), (rel, p, i)
    assert seen > 5000
