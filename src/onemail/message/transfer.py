"""Content-Transfer-Encoding: base64 and quoted-printable bodies decoded with damage reported.

RFC 2045 sections 6.7 and 6.8. The bytes are decoded by CPython's ``binascii`` (C code); the
damage is found by a scan over the encoded body that runs only when the fast check fails:

* base64: characters outside the alphabet (other than CR, LF, space, tab) are skipped and each
  run of them is one ``InvalidBase64`` issue; data after the padding, and a tail that is not a
  whole quantum, are ``InvalidBase64`` too (the bytes that can be decoded are kept, as in
  RFC 2047 B decoding, spec 000).
* quoted-printable: ``=`` not followed by two hex digits or a line end stays a literal ``=``
  (``InvalidQuotedPrintable``, as ``binascii.a2b_qp`` does).

Offsets are bytes into the encoded body as it stands in the message.
"""

from __future__ import annotations

import binascii
import re

from ..text import IssueKind, TextIssue
from .issues import MessageIssueKind

__all__ = ["decode_transfer"]

_B64_CLEAN = re.compile(rb"[A-Za-z0-9+/\r\n \t]*={0,2}[\r\n \t]*\Z")
_B64_JUNK = re.compile(rb"[^A-Za-z0-9+/=\r\n \t]+")
_QP_BAD = re.compile(rb"=(?![0-9A-Fa-f]{2}|[ \t]*(?:\r\n|\n|\r|\Z))")

MAX_ISSUES_PER_BODY = 100
"""At most this many transfer-encoding issues per body: junk input (a binary file sent as
base64 by mistake) would otherwise produce one issue per run of junk."""

IDENTITY = frozenset({"", "7bit", "8bit", "binary"})


def decode_transfer(body: bytes, cte: str, issues: list[TextIssue]) -> bytes:
    """Remove the Content-Transfer-Encoding ``cte`` (lower case) from ``body``.

    :param body: the encoded body bytes.
    :param cte: ``base64``, ``quoted-printable``, an identity encoding, or anything else.
    :param issues: list to append to (byte offsets into ``body``).
    :returns: the decoded bytes.
    :issues: ``InvalidBase64``, ``InvalidQuotedPrintable``, ``AmbiguousUnknownTransferEncoding``
        (M5: the body is taken as it stands).
    """
    if cte in IDENTITY:
        return body
    if cte == "base64":
        return _base64(body, issues)
    if cte == "quoted-printable":
        if b"=" in body:
            n = 0
            for m in _QP_BAD.finditer(body):
                issues.append(TextIssue(IssueKind.INVALID_QUOTED_PRINTABLE, m.start(), 1))
                n += 1
                if n >= MAX_ISSUES_PER_BODY:
                    break
        return binascii.a2b_qp(body)
    issues.append(TextIssue(MessageIssueKind.AMBIGUOUS_UNKNOWN_TRANSFER_ENCODING, 0, 0))
    return body


_ALPHABET = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_NOT_B64 = bytes(sorted(set(range(256)) - set(_ALPHABET + b"=")))
_PAD_RUN = re.compile(rb"(=+)")


def _base64(body: bytes, issues: list[TextIssue]) -> bytes:
    alpha = body.translate(None, _NOT_B64)
    if len(alpha) % 4 == 0 and _B64_CLEAN.match(body):
        try:
            return binascii.a2b_base64(alpha)
        except binascii.Error:  # "=" inside a quantum: fall through to the careful path
            pass
    n = 0
    for m in _B64_JUNK.finditer(body):
        issues.append(TextIssue(IssueKind.INVALID_BASE64, m.start(), m.end() - m.start()))
        n += 1
        if n >= MAX_ISSUES_PER_BODY:
            break
    out = []
    pieces = _PAD_RUN.split(alpha)  # [data, pad, data, pad, ..., data]
    end = len(body.rstrip(b"\r\n \t"))
    for i in range(0, len(pieces), 2):
        seg = pieces[i]
        if not seg:
            continue
        if i > 0 and n < MAX_ISSUES_PER_BODY:  # data after padding
            at = _nth_pad(body, i // 2)
            issues.append(TextIssue(IssueKind.INVALID_BASE64, at, end - at))
            n += 1
        padded = i + 1 < len(pieces)
        extra = len(seg) % 4
        if extra == 1 or (extra and not padded):
            if n < MAX_ISSUES_PER_BODY:
                issues.append(TextIssue(IssueKind.INVALID_BASE64, end, 0))
                n += 1
        if extra == 1:
            seg = seg[:-1]
        elif extra:
            seg += b"=" * (4 - extra)
        out.append(binascii.a2b_base64(seg))
    return b"".join(out)


def _nth_pad(body: bytes, k: int) -> int:
    """Byte offset in ``body`` of the ``k``-th (from 1) run of padding characters."""
    pos = -1
    for _ in range(k):
        pos = body.find(b"=", pos + 1)
        while body[pos + 1:pos + 2] == b"=":
            pos += 1
    return pos + 1
