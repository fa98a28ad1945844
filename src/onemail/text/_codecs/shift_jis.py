"""Shift_JIS: the Encoding Standard's Shift_JIS decoder and encoder (index jis0208, EUDC).

Implements Encoding Standard "Shift_JIS decoder" and "Shift_JIS encoder". Pointers 8836-10715
decode to the Private Use Area (U+E000-U+E757, Windows EUDC). Decoding uses CPython's ``cp932``
C codec where ``onemail.text._codecs._cjk`` proves it equal to the standard, else the reference
state machine :meth:`_ref`.

Errors (``InvalidShiftJis``, one per U+FFFD): a lead (0x81-0x9F, 0xE0-0xFC) followed by a byte
that gives no code point consumes both bytes, except that an ASCII byte is re-read (length 1);
0xA0 and 0xFD-0xFF consume one byte; a lead at the end of the input is one error of length 1.

The encoder ("index Shift_JIS pointer") skips pointers 8272-8835 (NEC duplicates of IBM
extensions), writes U+0080 as 0x80, U+00A5 as 0x5C, U+203E as 0x7E, half-width katakana as one
byte, and U+2212 as U+FF0D. Ambiguities T14 (cp932's extra bytes, EUDC) and T16 (error
lengths).
"""

from __future__ import annotations

from typing import Any

from ..issues import IssueKind
from . import ErrorRecord
from ._cjk import FFFD, NO_ENTRY, CjkCodec, first_pointers

EUDC_POINTERS = range(8836, 10716)
ENCODER_SKIPPED_POINTERS = range(8272, 8836)


class ShiftJisCodec(CjkCodec):
    """Shift_JIS per the Encoding Standard."""

    __slots__ = ()
    invalid_kind = IssueKind.INVALID_SHIFT_JIS
    fast_key = "shift_jis"
    boundary = rb"[\x00-\x80\xa0-\xdf\xfd-\xff]"  # never a lead

    def _load_tables(self) -> tuple[Any, ...]:
        from .._tables.index_jis0208 import TABLE

        return (TABLE,)

    def _ref(self, data: bytes, i: int, end: int, final: bool, out: list[str],
             errs: list[ErrorRecord] | None, once: bool) -> tuple[int, bool]:
        (table,) = self.tables
        is_boundary: Any = self._fast[5] if once else None
        emit = out.append
        while i < end:
            b = data[i]
            if b <= 0x80:
                emit(chr(b))
                i += 1
            elif 0xA1 <= b <= 0xDF:
                emit(chr(0xFF61 - 0xA1 + b))
                i += 1
            elif 0x81 <= b <= 0x9F or 0xE0 <= b <= 0xFC:
                if i + 1 >= end:
                    if not final:
                        return i, True
                    emit(FFFD)
                    if errs is not None:
                        errs.append((i, 1))
                    return end, False
                b2 = data[i + 1]
                if 0x40 <= b2 <= 0x7E or 0x80 <= b2 <= 0xFC:
                    p = (b - (0x81 if b < 0xA0 else 0xC1)) * 188 + b2 - (0x40 if b2 < 0x7F else 0x41)
                    c = chr(0xE000 - 8836 + p) if 8836 <= p <= 10715 else table[p]
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
        if cp <= 0x80:
            return bytes((cp,))
        if cp == 0xA5:
            return b"\x5c"
        if cp == 0x203E:
            return b"\x7e"
        if 0xFF61 <= cp <= 0xFF9F:
            return bytes((cp - 0xFF61 + 0xA1,))
        if cp == 0x2212:
            cp = 0xFF0D
        m = self._rev
        if m is None:
            m = self._rev = first_pointers(self.tables[0], ENCODER_SKIPPED_POINTERS)
        p = m.get(cp)
        if p is None:
            return None
        lead, trail = divmod(p, 188)
        return bytes((lead + (0x81 if lead < 0x1F else 0xC1), trail + (0x40 if trail < 0x3F else 0x41)))


def codec(key: str, tables: tuple[Any, ...] | None = None) -> ShiftJisCodec:
    """Return the Shift_JIS codec (``key`` is ``"shift_jis"``); ``tables`` is for the generator."""
    return ShiftJisCodec(key, tables)
