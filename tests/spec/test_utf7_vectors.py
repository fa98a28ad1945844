"""RFC 2152 and RFC 3501 section 5.1.3 examples, both ways (spec 000 "UTF-7 and IMAP UTF-7").

The RFC 2152 vectors with their real capitalisation (the copy in ../shared/spec is lower-cased;
../shared/spec/README.md lists them).
"""

from __future__ import annotations

import pytest

from onemail.text import for_label, utf7

RFC2152 = [
    (b"Hi Mom -+Jjo--!", "Hi Mom -\u263a-!"),
    (b"A+ImIDkQ.", "A\u2262\u0391."),
    (b"+ZeVnLIqe-", "\u65e5\u672c\u8a9e"),
    (b"Item 3 is +AKM-1.", "Item 3 is \u00a31."),
]

# What our encoder writes for the same texts: "!" is an "optional direct" character and goes
# to base64 (spec 000); a run at the end of the text is left open (RFC 2152 allows it).
RFC2152_ENCODED = [
    b"Hi Mom -+Jjo--+ACE",
    b"A+ImIDkQ.",
    b"+ZeVnLIqe",
    b"Item 3 is +AKM-1.",
]

IMAP = [
    (b"&ZeVnLIqe-", "\u65e5\u672c\u8a9e"),
    (b"Entw&APw-rfe", "Entw\u00fcrfe"),
    (b"&Jjo-!", "\u263a!"),
]


@pytest.mark.parametrize(("data", "text"), RFC2152, ids=[d.decode() for d, _ in RFC2152])
def test_rfc2152_decode(data, text):
    issues = []
    assert for_label("UTF-7").decode(data, issues) == text
    assert issues == []


@pytest.mark.parametrize(("pair", "encoded"), list(zip(RFC2152, RFC2152_ENCODED, strict=True)),
                         ids=[e.decode() for e in RFC2152_ENCODED])
def test_rfc2152_encode(pair, encoded):
    _, text = pair
    issues = []
    assert for_label("utf-7").encode(text, issues) == encoded
    assert issues == []
    assert for_label("utf-7").decode(encoded) == text


def test_rfc2152_vectors_that_we_write_identically():
    """Two of the four RFC vectors are exactly what our encoder writes."""
    assert utf7.encode("A\u2262\u0391.") == b"A+ImIDkQ."
    assert utf7.encode("Item 3 is \u00a31.") == b"Item 3 is +AKM-1."


@pytest.mark.parametrize(("data", "text"), IMAP, ids=[d.decode() for d, _ in IMAP])
def test_imap_both_ways(data, text):
    issues = []
    assert utf7.decode_imap(data, issues=issues) == text
    assert issues == []
    assert utf7.encode_imap(text) == data


@pytest.mark.parametrize(("data", "text"), IMAP, ids=[d.decode() for d, _ in IMAP])
def test_imap_python_codec_face(data, text):
    assert data.decode("onemail-imap-utf-7") == text
    assert text.encode("onemail-imap-utf-7") == data
