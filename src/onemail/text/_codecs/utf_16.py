"""UTF-16LE/BE (Encoding Standard "shared UTF-16 decoder") and UTF-32LE/BE.

UTF-16: CPython's C codecs report exactly the Encoding Standard's errors (a lone low surrogate,
a lead surrogate not followed by a trail one with the next code unit re-read, a dangling lead
surrogate or odd byte at the end as one error); tested exhaustively over code-unit classes.
No byte order mark is sniffed: a BOM is decoded as U+FEFF and kept.

UTF-32 has no Encoding Standard algorithm; spec 000 "Decoding details": the runtime's decoder
with replacement. A unit above U+10FFFF or in the surrogate range is one 4-byte error; a
truncated tail is one error.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable

from ..issues import IssueKind, TextIssue
from . import (
    RECORD_UTF_16BE,
    RECORD_UTF_16LE,
    RECORD_UTF_32BE,
    RECORD_UTF_32LE,
    Codec,
    State,
    encode_with,
    recording,
    report,
)


class _UnitCodec(Codec):
    __slots__ = ("_decode_fn", "_python_name", "_record")

    def __init__(self, key: str, python_name: str) -> None:
        super().__init__(key)
        self._python_name = python_name
        self._record = {"utf-16-le": RECORD_UTF_16LE, "utf-16-be": RECORD_UTF_16BE,
                        "utf-32-le": RECORD_UTF_32LE, "utf-32-be": RECORD_UTF_32BE}[python_name]
        # codecs.utf_16_le_decode etc. take (data, errors, final) and return (text, consumed).
        self._decode_fn: Callable[[bytes, str, bool], tuple[str, int]] = getattr(codecs, python_name.replace("-", "_") + "_decode")

    def decode(self, data: bytes, issues: list[TextIssue] | None, offset: int) -> str:
        try:
            text: str = self._decode_fn(data, "strict", True)[0]
            return text
        except UnicodeDecodeError:
            pass
        return self.decode_chunk(data, issues, offset, True, None)[0]

    def decode_chunk(self, data: bytes, issues: list[TextIssue] | None, offset: int, final: bool,
                     state: State) -> tuple[str, int, State]:
        # With final=False the C decoder leaves an odd byte or a waiting lead surrogate unconsumed.
        if issues is None:
            text, used = self._decode_fn(data, "replace", final)
            return text, used, None
        with recording(issues, self.invalid_kind, offset) as spans:
            text, used = self._decode_fn(data, self._record, final)
        report(spans, self.invalid_kind, issues, offset)
        return text, used, None

    def encode(self, text: str, issues: list[TextIssue] | None) -> bytes:
        return encode_with(self._python_name, text, issues)


class Utf16Codec(_UnitCodec):
    """UTF-16LE or UTF-16BE per the Encoding Standard."""

    __slots__ = ()
    invalid_kind = IssueKind.INVALID_UTF16


class Utf32Codec(_UnitCodec):
    """UTF-32LE or UTF-32BE (mail-only; the runtime's decoder with replacement)."""

    __slots__ = ()
    invalid_kind = IssueKind.INVALID_UTF32


def codec(key: str) -> _UnitCodec:
    """Return the codec for ``utf-16le``, ``utf-16be``, ``utf-32le`` or ``utf-32be``."""
    endian = "be" if key.endswith("be") else "le"
    if key.startswith("utf-16"):
        return Utf16Codec(key, f"utf-16-{endian}")
    return Utf32Codec(key, f"utf-32-{endian}")
