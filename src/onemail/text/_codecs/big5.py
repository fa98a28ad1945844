"""Big5: the Encoding Standard's Big5 decoder and encoder.

Implements Encoding Standard "Big5 decoder" and "Big5 encoder" over index Big5 (Big5 with the
HKSCS and other common extensions; four pointers decode to two code points each). Decoding uses
CPython's ``big5hkscs`` C codec where ``onemail.text._codecs._cjk`` proves it equal to the
standard, else the reference state machine :meth:`_ref`.

Errors (``InvalidBig5``, one per U+FFFD): a lead 0x81-0xFE followed by a byte that gives no code
point consumes both bytes, except that an ASCII byte is re-read (length 1); 0x80 and 0xFF
consume one byte; a lead at the end of the input is one error of length 1.

The encoder uses the index without pointers below (0xA1 - 0x81) * 157 (no HKSCS bytes are
written; ambiguity T12) and, for U+2550, U+255E, U+2561, U+256A, U+5341 and U+5345, the *last* pointer.
"""

from __future__ import annotations

from typing import Any

from ..issues import IssueKind
from . import ErrorRecord
from ._cjk import FFFD, NO_ENTRY, CjkCodec, first_pointers

# Pointers that decode to two code points (Encoding Standard "Big5 decoder", step 3.6).
TWO_CODE_POINTS = {1133: "\u00ca\u0304", 1135: "\u00ca\u030c", 1164: "\u00ea\u0304", 1166: "\u00ea\u030c"}
# Code points whose encoder pointer is the last one ("index Big5 pointer", step 2).
LAST_POINTER = (0x2550, 0x255E, 0x2561, 0x256A, 0x5341, 0x5345)
# "index Big5 pointer", step 1: entries below this pointer are not used by the encoder.
ENCODER_FIRST_POINTER = (0xA1 - 0x81) * 157


class Big5Codec(CjkCodec):
    """Big5 per the Encoding Standard."""

    __slots__ = ()
    invalid_kind = IssueKind.INVALID_BIG5
    fast_key = "big5"
    scan_leads = b"\xa1\xa2"

    def _load_tables(self) -> tuple[Any, ...]:
        from .._tables.index_big5 import TABLE

        return (TABLE,)

    def _ref(self, data: bytes, i: int, end: int, final: bool, out: list[str],
             errs: list[ErrorRecord] | None, once: bool) -> tuple[int, bool]:
        (table,) = self.tables
        is_boundary: Any = self._fast[5] if once else None
        emit = out.append
        while i < end:
            b = data[i]
            if b < 0x80:
                emit(chr(b))
                i += 1
            elif 0x81 <= b <= 0xFE:
                if i + 1 >= end:
                    if not final:
                        return i, True
                    emit(FFFD)
                    if errs is not None:
                        errs.append((i, 1))
                    return end, False
                b2 = data[i + 1]
                if 0x40 <= b2 <= 0x7E or 0xA1 <= b2 <= 0xFE:
                    p = (b - 0x81) * 157 + b2 - (0x40 if b2 < 0x7F else 0x62)
                    c = TWO_CODE_POINTS.get(p) or table[p]
                    if c != NO_ENTRY:
                        emit(c)
                        i += 2
                        if once:
                            return i, False
                        continue
                n = 1 if b2 < 0x80 else 2  # an ASCII byte is restored
                emit(FFFD)
                if errs is not None:
                    errs.append((i, n))
                i += n
                if once and is_boundary[data[i - 1]]:
                    return i, False  # a once-run never crosses a boundary byte
                continue  # other errors do not end a once-run
            else:
                emit(FFFD)
                if errs is not None:
                    errs.append((i, 1))
                i += 1
                if once and is_boundary[data[i - 1]]:
                    return i, False  # a once-run never crosses a boundary byte
                continue  # other errors do not end a once-run
            if once:
                return i, False
        return i, False

    def _encode_code_point(self, cp: int) -> bytes | None:
        if cp < 0x80:
            return bytes((cp,))
        m = self._rev
        if m is None:
            (table,) = self.tables
            m = first_pointers(table, range(ENCODER_FIRST_POINTER))
            for c in LAST_POINTER:
                m[c] = max(p for p in range(ENCODER_FIRST_POINTER, len(table)) if table[p] == chr(c))
            self._rev = m
        p = m.get(cp)
        if p is None:
            return None
        lead, trail = divmod(p, 157)
        return bytes((lead + 0x81, trail + (0x40 if trail < 0x3F else 0x62)))


def codec(key: str, tables: tuple[Any, ...] | None = None) -> Big5Codec:
    """Return the Big5 codec (``key`` is ``"big5"``); ``tables`` is for the generator."""
    return Big5Codec(key, tables)
