"""EUC-JP: the Encoding Standard's EUC-JP decoder and encoder.

Implements Encoding Standard "EUC-JP decoder" (JIS X 0208 through index jis0208, half-width
katakana after 0x8E, JIS X 0212 after 0x8F through index jis0212) and "EUC-JP encoder" (JIS X
0208 only; U+00A5 -> 0x5C, U+203E -> 0x7E, U+2212 encoded as U+FF0D). Decoding uses CPython's
``euc_jp`` C codec where ``onemail.text._codecs._cjk`` proves it equal to the standard, else the
reference state machine :meth:`_ref`. The ISO-2022-JP family decoder rewrites its two-byte sets
to this form and calls this decoder.

Errors (``InvalidEucJp``, one per U+FFFD): a lead (0x8E, 0x8F or 0xA1-0xFE) followed by a byte
that gives no code point consumes both bytes, except that an ASCII byte is re-read (length 1);
0x8F, a lead 0xA1-0xFE and a byte that gives no code point consume three bytes (two when the
last is ASCII, which is re-read); other bytes 0x80-0xFF consume one; an unfinished sequence at
the end of the input is one error over all its bytes (ambiguity T16). Mappings: T13.
"""

from __future__ import annotations

from typing import Any

from ..issues import IssueKind
from . import ErrorRecord
from ._cjk import FFFD, NO_ENTRY, CjkCodec, first_pointers


class EucJpCodec(CjkCodec):
    """EUC-JP per the Encoding Standard."""

    __slots__ = ()
    invalid_kind = IssueKind.INVALID_EUC_JP
    fast_key = "euc-jp"
    scan_leads = b"\x8f"
    boundary = rb"[\x00-\x8d\x90-\xa0\xff]"  # never a lead

    def _load_tables(self) -> tuple[Any, ...]:
        from .._tables.index_jis0208 import TABLE as JIS0208
        from .._tables.index_jis0212 import TABLE as JIS0212

        return JIS0208, JIS0212

    def _ref(self, data: bytes, i: int, end: int, final: bool, out: list[str],
             errs: list[ErrorRecord] | None, once: bool) -> tuple[int, bool]:
        jis0208, jis0212 = self.tables
        is_boundary: Any = self._fast[5] if once else None
        emit = out.append
        while i < end:
            b = data[i]
            if b < 0x80:
                emit(chr(b))
                i += 1
            elif b == 0x8E or b == 0x8F or 0xA1 <= b <= 0xFE:
                if i + 1 >= end:
                    break
                b2 = data[i + 1]
                if b == 0x8E and 0xA1 <= b2 <= 0xDF:
                    emit(chr(0xFF61 - 0xA1 + b2))
                    i += 2
                    if once:
                        return i, False
                    continue
                if b == 0x8F and 0xA1 <= b2 <= 0xFE:
                    # EUC-JP jis0212 is true and EUC-JP leading is b2.
                    if i + 2 >= end:
                        break
                    b3 = data[i + 2]
                    if 0xA1 <= b3 <= 0xFE:
                        c = jis0212[(b2 - 0xA1) * 94 + b3 - 0xA1]
                        if c != NO_ENTRY:
                            emit(c)
                            i += 3
                            if once:
                                return i, False
                            continue
                    n = 2 if b3 < 0x80 else 3  # an ASCII byte is restored
                else:
                    if 0xA1 <= b <= 0xFE and 0xA1 <= b2 <= 0xFE:
                        c = jis0208[(b - 0xA1) * 94 + b2 - 0xA1]
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
        else:
            return i, False
        # An unfinished sequence starts at i and the input ends.
        if not final:
            return i, True
        emit(FFFD)
        if errs is not None:
            errs.append((i, end - i))
        return end, False

    def _encode_code_point(self, cp: int) -> bytes | None:
        if cp < 0x80:
            return bytes((cp,))
        if cp == 0xA5:
            return b"\x5c"
        if cp == 0x203E:
            return b"\x7e"
        if 0xFF61 <= cp <= 0xFF9F:
            return bytes((0x8E, cp - 0xFF61 + 0xA1))
        if cp == 0x2212:
            cp = 0xFF0D
        m = self._rev
        if m is None:
            m = self._rev = first_pointers(self.tables[0])
        p = m.get(cp)
        if p is None:
            return None
        lead, trail = divmod(p, 94)  # p < 8836 (note in the standard's encoder)
        return bytes((lead + 0xA1, trail + 0xA1))


def codec(key: str, tables: tuple[Any, ...] | None = None) -> EucJpCodec:
    """Return the EUC-JP codec (``key`` is ``"euc-jp"``); ``tables`` is for the generator."""
    return EucJpCodec(key, tables)
