"""UTF-8: the Encoding Standard's UTF-8 decoder (maximal-subpart replacement) and encoder.

Decoding uses CPython's C UTF-8 codec. Its error segmentation is the Unicode "maximal subpart"
practice that the Encoding Standard's UTF-8 decoder specifies (one U+FFFD per maximal subpart of
an ill-formed sequence, the offending byte re-read); the exhaustive 1- and 2-byte tests and the
seeded random streams in ``tests/spec`` pin this. Every error span becomes one ``InvalidUtf8``.

Encoding writes UTF-8; a lone surrogate in the ``str`` becomes ``?`` with ``Unencodable``.
"""

from __future__ import annotations

import codecs

from ..issues import IssueKind, TextIssue
from . import RECORD_UTF_8, Codec, State, encode_with, recording, report

_utf_8_decode = codecs.utf_8_decode


class Utf8Codec(Codec):
    """UTF-8 per the Encoding Standard."""

    __slots__ = ()
    invalid_kind = IssueKind.INVALID_UTF8

    def decode(self, data: bytes, issues: list[TextIssue] | None, offset: int) -> str:
        try:
            text: str = _utf_8_decode(data, "strict", True)[0]
            return text
        except UnicodeDecodeError:
            pass
        return self.decode_chunk(data, issues, offset, True, None)[0]

    def decode_chunk(self, data: bytes, issues: list[TextIssue] | None, offset: int, final: bool,
                     state: State) -> tuple[str, int, State]:
        # With final=False the C decoder leaves an incomplete (but so far valid) tail unconsumed.
        if issues is None:
            text, used = _utf_8_decode(data, "replace", final)
            return text, used, None
        with recording(issues, IssueKind.INVALID_UTF8, offset) as spans:
            text, used = _utf_8_decode(data, RECORD_UTF_8, final)
        report(spans, IssueKind.INVALID_UTF8, issues, offset)
        return text, used, None

    def encode(self, text: str, issues: list[TextIssue] | None) -> bytes:
        return encode_with("utf-8", text, issues)


def codec(key: str) -> Utf8Codec:
    """Return the UTF-8 codec (``key`` is ``"utf-8"``)."""
    return Utf8Codec(key)
