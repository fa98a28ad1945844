"""Single-byte encodings: the WHATWG single-byte decoder and encoder, DOS code pages, x-user-defined.

Implements the Encoding Standard "single-byte decoder" / "single-byte encoder" (and the
x-user-defined decoder and encoder, whose table is computed the same way). Decoding is
:func:`codecs.charmap_decode` over a generated 256-character table in which U+FFFE marks an
unmapped byte; since one byte gives one character, the position of each U+FFFD in the output is
the byte offset of the unmapped byte. Encoding is :func:`codecs.charmap_encode` with a map built
from the same table, so it agrees with the decoder (the standard's "index pointer" is the only
pointer for every code point in these indexes: tested).
"""

from __future__ import annotations

import codecs
import re
from typing import Any

from ..issues import IssueKind, TextIssue
from . import RECORD_ENCODE, Codec, State, recording

_charmap_decode = codecs.charmap_decode
_FFFD_RUN = re.compile("\ufffd+")
_charmap_encode = codecs.charmap_encode


class SingleByteCodec(Codec):
    """A table-driven single-byte codec (one byte, one character)."""

    __slots__ = ("table", "_decoding_table", "_encoding_map")
    invalid_kind = IssueKind.INVALID_SINGLE_BYTE

    def __init__(self, key: str, table: str) -> None:
        super().__init__(key)
        self.table = table
        # The table with U+FFFD for each unmapped byte: decoding needs no error handler (one
        # call per unmapped byte made 10 MB of them take 4 s). No table maps a byte to U+FFFD
        # (tested), so each U+FFFD of the text is an unmapped byte.
        self._decoding_table = table.replace("\ufffe", "\ufffd")
        self._encoding_map: Any = None  # codecs.charmap_build's map, built on first use

    def decode(self, data: bytes, issues: list[TextIssue] | None, offset: int) -> str:
        text = _charmap_decode(data, "strict", self._decoding_table)[0]
        if issues is not None and "\ufffd" in text:
            add_runs = getattr(issues, "add_runs", None)
            if add_runs is not None:  # a BoundedIssues: the runs in one call (ADR 0016)
                add_runs(self.invalid_kind,
                         ((offset + m.start(), m.end() - m.start()) for m in _FFFD_RUN.finditer(text)))
                return text
            find = text.find
            i = find("\ufffd")
            kind = self.invalid_kind
            while i >= 0:
                issues.append(TextIssue(kind, offset + i, 1))
                i = find("\ufffd", i + 1)
        return text

    def decode_chunk(self, data: bytes, issues: list[TextIssue] | None, offset: int, final: bool,
                     state: State) -> tuple[str, int, State]:
        return self.decode(data, issues, offset), len(data), None

    def encode(self, text: str, issues: list[TextIssue] | None) -> bytes:
        m = self._encoding_map
        if m is None:
            m = self._encoding_map = codecs.charmap_build(self.table)
        try:
            return _charmap_encode(text, "strict", m)[0]
        except UnicodeEncodeError:
            pass
        with recording() as spans:
            out = _charmap_encode(text, RECORD_ENCODE, m)[0]
        if issues is not None:
            for s, e in spans:
                issues.extend(TextIssue(IssueKind.UNENCODABLE, i, 1) for i in range(s, e))
        return out


def codec(key: str) -> SingleByteCodec:
    """Return the single-byte codec named ``key`` (a key of the generated ``TABLES``)."""
    from .._tables.single_byte import TABLES

    return SingleByteCodec(key, TABLES[key])
