"""EUC-KR: the Encoding Standard's EUC-KR decoder and encoder (index EUC-KR, i.e. code page 949).

Implements Encoding Standard "EUC-KR decoder" and "EUC-KR encoder". Decoding uses CPython's
``cp949`` C codec where ``onemail.text._codecs._cjk`` proves it equal to the standard, else the
reference state machine :meth:`_ref`.

Errors (``InvalidEucKr``, one per U+FFFD): a lead 0x81-0xFE followed by a byte that gives no code
point consumes both bytes, except that an ASCII byte is re-read (length 1); 0x80 and 0xFF
consume one byte; a lead at the end of the input is one error of length 1 (ambiguity T16).
"""

from __future__ import annotations

from typing import Any

from ..issues import IssueKind
from . import ErrorRecord
from ._cjk import FFFD, NO_ENTRY, CjkCodec, first_pointers


class EucKrCodec(CjkCodec):
    """EUC-KR per the Encoding Standard."""

    __slots__ = ()
    invalid_kind = IssueKind.INVALID_EUC_KR
    fast_key = "euc-kr"

    def _load_tables(self) -> tuple[Any, ...]:
        from .._tables.index_euc_kr import TABLE

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
                if 0x41 <= b2 <= 0xFE:
                    c = table[(b - 0x81) * 190 + b2 - 0x41]
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
            m = self._rev = first_pointers(self.tables[0])
        p = m.get(cp)
        if p is None:
            return None
        lead, trail = divmod(p, 190)
        return bytes((lead + 0x81, trail + 0x41))


def codec(key: str, tables: tuple[Any, ...] | None = None) -> EucKrCodec:
    """Return the EUC-KR codec (``key`` is ``"euc-kr"``); ``tables`` is for the generator."""
    return EucKrCodec(key, tables)
