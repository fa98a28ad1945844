"""gb18030 and GBK: the Encoding Standard's gb18030 decoder (both) and gb18030/GBK encoders.

Implements Encoding Standard "gb18030 decoder", "gb18030 encoder" and "GBK encoder" (the
gb18030 encoder with *is GBK* set). The GBK decoder *is* the gb18030 decoder, so ``gbk``
decodes four-byte sequences too. Decoding uses CPython's ``gb18030`` C codec where
``onemail.text._codecs._cjk`` proves it equal to the standard (the generated suspect characters
cover the pairs where the two differ), else the reference state machine :meth:`_ref`.

Errors (``InvalidGb18030``, one per U+FFFD): a lead 0x81-0xFE followed by a byte that gives no
code point consumes the lead and the byte, except that an ASCII byte is re-read (length 1); a
lead, a digit and a byte outside 0x81-0xFE, or lead, digit, lead and a non-digit, consume only
the first byte (the others are restored and re-read); a four-byte sequence whose pointer is not
in the ranges consumes four bytes; 0xFF consumes one; an unfinished sequence at the end is one
error over all its bytes (ambiguity T16). The index is the standard's GB18030-2022 one, not
CPython's 2005 mapping (T10); GBK decodes four-byte sequences (T11).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from typing import Any

from ..issues import IssueKind
from . import ErrorRecord
from ._cjk import FFFD, NO_ENTRY, CjkCodec, first_pointers

# GB18030-2005 compatibility: the gb18030 encoder's side table (code point -> two bytes).
ENCODER_SIDE_TABLE = {
    0xE78D: b"\xa6\xd9", 0xE78E: b"\xa6\xda", 0xE78F: b"\xa6\xdb", 0xE790: b"\xa6\xdc",
    0xE791: b"\xa6\xdd", 0xE792: b"\xa6\xde", 0xE793: b"\xa6\xdf", 0xE794: b"\xa6\xec",
    0xE795: b"\xa6\xed", 0xE796: b"\xa6\xf3", 0xE81E: b"\xfe\x59", 0xE826: b"\xfe\x61",
    0xE82B: b"\xfe\x66", 0xE82C: b"\xfe\x67", 0xE832: b"\xfe\x6d", 0xE843: b"\xfe\x7e",
    0xE854: b"\xfe\x90", 0xE864: b"\xfe\xa0",
}


def ranges_code_point(pointer: int, starts: Sequence[int], code_points: Sequence[int]) -> int | None:
    """Return the "index gb18030 ranges code point" for ``pointer``, or ``None``."""
    if 39419 < pointer < 189000 or pointer > 1237575:
        return None
    if pointer == 7457:
        return 0xE7C7
    k = bisect_right(starts, pointer) - 1
    return code_points[k] + pointer - starts[k]


def ranges_pointer(cp: int, starts: Sequence[int], code_points: Sequence[int]) -> int:
    """Return the "index gb18030 ranges pointer" for code point ``cp``."""
    if cp == 0xE7C7:
        return 7457
    k = bisect_right(code_points, cp) - 1
    return starts[k] + cp - code_points[k]


class Gb18030Codec(CjkCodec):
    """gb18030 / GBK (``key`` selects the encoder)."""

    __slots__ = ()
    invalid_kind = IssueKind.INVALID_GB18030
    fast_key = "gb18030"
    boundary = rb"[\x00-\x2f\x3a-\x80\xff]"  # never a lead nor a digit

    def _load_tables(self) -> tuple[Any, ...]:
        from .._tables.index_gb18030 import RANGES_CODE_POINTS, RANGES_POINTERS, TABLE

        return TABLE, RANGES_POINTERS, RANGES_CODE_POINTS

    def _ref(self, data: bytes, i: int, end: int, final: bool, out: list[str],
             errs: list[ErrorRecord] | None, once: bool) -> tuple[int, bool]:
        table, starts, code_points = self.tables
        is_boundary: Any = self._fast[5] if once else None
        emit = out.append
        while i < end:
            b = data[i]
            if b < 0x80:
                emit(chr(b))
                i += 1
            elif b == 0x80:
                emit("\u20ac")
                i += 1
            elif b == 0xFF:
                emit(FFFD)
                if errs is not None:
                    errs.append((i, 1))
                i += 1
                if once and is_boundary[data[i - 1]]:
                    return i, False  # a once-run never crosses a boundary byte
                continue  # other errors do not end a once-run
            else:
                # gb18030 first = b; how many bytes does this sequence need?
                if i + 1 >= end:
                    break
                b2 = data[i + 1]
                if 0x30 <= b2 <= 0x39:
                    if i + 2 >= end:
                        break
                    b3 = data[i + 2]
                    if not 0x81 <= b3 <= 0xFE:
                        n = 1  # restore << second, byte >>: only the first byte is consumed
                    else:
                        if i + 3 >= end:
                            break
                        b4 = data[i + 3]
                        if not 0x30 <= b4 <= 0x39:
                            n = 1  # restore << second, third, byte >>
                        else:
                            cp = ranges_code_point(
                                (b - 0x81) * 12600 + (b2 - 0x30) * 1260 + (b3 - 0x81) * 10 + b4 - 0x30,
                                starts, code_points,
                            )
                            if cp is not None:
                                emit(chr(cp))
                                i += 4
                                if once:
                                    return i, False
                                continue
                            n = 4
                else:
                    if 0x40 <= b2 <= 0x7E or 0x80 <= b2 <= 0xFE:
                        c = table[(b - 0x81) * 190 + b2 - (0x40 if b2 < 0x7F else 0x41)]
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
        if cp == 0xE5E5:
            return None
        is_gbk = self.key == "gbk"
        if is_gbk and cp == 0x20AC:
            return b"\x80"
        side = ENCODER_SIDE_TABLE.get(cp)
        if side is not None:
            return side
        pointers = self._pointers()
        p = pointers.get(cp)
        if p is not None:
            lead, trail = divmod(p, 190)
            return bytes((lead + 0x81, trail + (0x40 if trail < 0x3F else 0x41)))
        if is_gbk:
            return None
        _, starts, code_points = self.tables
        p = ranges_pointer(cp, starts, code_points)
        b1, p = divmod(p, 12600)
        b2, p = divmod(p, 1260)
        b3, b4 = divmod(p, 10)
        return bytes((b1 + 0x81, b2 + 0x30, b3 + 0x81, b4 + 0x30))

    def _pointers(self) -> dict[int, int]:
        m = self._rev
        if m is None:
            m = self._rev = first_pointers(self.tables[0])
        return m


def codec(key: str, tables: tuple[Any, ...] | None = None) -> Gb18030Codec:
    """Return the codec for ``key`` (``"gb18030"`` or ``"gbk"``); ``tables`` for the generator."""
    return Gb18030Codec(key, tables)
