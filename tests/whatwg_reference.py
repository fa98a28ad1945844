"""The Encoding Standard's decoders written out in pure Python, for the tests (not for speed).

Each follows the algorithm of ``../shared/whatwg-encoding/encoding.bs`` step by step ("restore
byte to ioQueue" is a push-back). The UTF-8 and UTF-16 ones also return the error spans (byte
offset, length) of each U+FFFD. The CJK ones take keyword switches that reproduce the documented
deviations of the recorded oracle (``docs/ambiguities.md`` T20-T24), so that a difference between
onemail and the oracle is explained only when the standard gives onemail's text AND the named
deviation gives the oracle's; their ``errors`` list receives the ``(offset, length)`` of each
error (the bytes it consumed, restored bytes excluded).
"""

from __future__ import annotations

import bisect
import functools

from paths import WHATWG

FFFD = "\ufffd"


def utf8_reference(data: bytes) -> tuple[str, list[tuple[int, int]]]:
    """The Encoding Standard's UTF-8 decoder; returns (text, [(offset, length) per U+FFFD]).

    An error spans the bytes of the sequence read so far (its maximal subpart); the byte that
    broke it is read again ("prepend byte to stream").
    """
    out: list[str] = []
    errors: list[tuple[int, int]] = []
    needed = seen = cp = start = 0
    lower, upper = 0x80, 0xBF
    i, n = 0, len(data)
    while i < n:
        b = data[i]
        if needed == 0:
            if b <= 0x7F:
                out.append(chr(b))
            elif 0xC2 <= b <= 0xDF:
                needed, cp = 1, b & 0x1F
            elif 0xE0 <= b <= 0xEF:
                lower = 0xA0 if b == 0xE0 else 0x80
                upper = 0x9F if b == 0xED else 0xBF
                needed, cp = 2, b & 0xF
            elif 0xF0 <= b <= 0xF4:
                lower = 0x90 if b == 0xF0 else 0x80
                upper = 0x8F if b == 0xF4 else 0xBF
                needed, cp = 3, b & 0x7
            else:
                out.append(FFFD)
                errors.append((i, 1))
            start, seen = i, 0
            i += 1
            continue
        if not lower <= b <= upper:
            out.append(FFFD)
            errors.append((start, seen + 1))
            needed = seen = cp = 0
            lower, upper = 0x80, 0xBF
            continue  # re-read b
        lower, upper = 0x80, 0xBF
        cp = (cp << 6) | (b & 0x3F)
        seen += 1
        i += 1
        if seen == needed:
            out.append(chr(cp))
            needed = seen = cp = 0
    if needed:
        out.append(FFFD)
        errors.append((start, seen + 1))
    return "".join(out), errors



def utf16_reference(data: bytes, big_endian: bool) -> tuple[str, list[tuple[int, int]]]:
    """The Encoding Standard's shared UTF-16 decoder; returns (text, [(offset, length)])."""
    out: list[str] = []
    errors: list[tuple[int, int]] = []
    lead_byte = lead_surrogate = None
    unit_start = surrogate_start = 0
    for i, b in enumerate(data):
        if lead_byte is None:
            lead_byte, unit_start = b, i
            continue
        unit = (lead_byte << 8) + b if big_endian else (b << 8) + lead_byte
        lead_byte = None
        if lead_surrogate is not None:
            lead, lead_surrogate = lead_surrogate, None
            if 0xDC00 <= unit <= 0xDFFF:
                out.append(chr(0x10000 + ((lead - 0xD800) << 10) + (unit - 0xDC00)))
                continue
            out.append(FFFD)  # the lead surrogate alone; the unit is read again
            errors.append((surrogate_start, 2))
        if 0xD800 <= unit <= 0xDBFF:
            lead_surrogate, surrogate_start = unit, unit_start
        elif 0xDC00 <= unit <= 0xDFFF:
            out.append(FFFD)
            errors.append((unit_start, 2))
        else:
            out.append(chr(unit))
    if lead_byte is not None or lead_surrogate is not None:
        start = surrogate_start if lead_surrogate is not None else unit_start
        out.append(FFFD)
        errors.append((start, len(data) - start))
    return "".join(out), errors


# ---------------------------------------------------------------------------------------------
# CJK (text only)


@functools.cache
def index(name: str) -> dict[int, int]:
    """``pointer -> code point`` of ``index-<name>.txt`` (lines ``pointer<TAB>code point<TAB>...``)."""
    table = {}
    for line in (WHATWG / f"index-{name}.txt").read_text(encoding="utf-8").split("\n"):
        if line.strip() and not line.startswith("#"):
            pointer, code_point = line.split("\t")[:2]
            table[int(pointer)] = int(code_point, 16)
    return table


@functools.cache
def gb18030_ranges() -> tuple[list[int], list[int]]:
    pairs = sorted(index("gb18030-ranges").items())
    return [p for p, _ in pairs], [c for _, c in pairs]


def gb18030_ranges_code_point(pointer: int) -> int | None:
    """The standard's "index gb18030 ranges code point"."""
    if 39419 < pointer < 189000 or pointer > 1237575:
        return None
    if pointer == 7457:
        return 0xE7C7
    pointers, code_points = gb18030_ranges()
    i = bisect.bisect_right(pointers, pointer) - 1
    return code_points[i] + pointer - pointers[i]


class _Error(str):
    """A handler's "error" result (written as U+FFFD; told apart from an index's code points)."""


ERROR = _Error(FFFD)


def _run(data: bytes, step, errors: list | None) -> str:
    """Drive a handler: ``step(byte or None, restore) -> str | ERROR | None``; ``restore(*bytes)``.

    Appends ``(offset, length)`` per error to ``errors``: the bytes from the end of the previous
    result up to the read position after any restore, that is, the bytes the error consumed.
    """
    queue = list(data)
    queue.reverse()
    out = []
    n = len(data)
    start = 0

    def restore(*bs):
        queue.extend(reversed(bs))

    def emit(r):
        nonlocal start
        if r is None:
            return
        out.append(r)
        at = n - len(queue)
        if r is ERROR and errors is not None:
            errors.append((start, at - start))
        start = at

    while queue:
        emit(step(queue.pop(), restore))
    emit(step(None, restore))  # end-of-queue: these decoders restore nothing here
    return "".join(out)


def gb18030(data: bytes, *, old_index=(), restore_null_four_byte=False, errors=None) -> str:
    """The gb18030 decoder (also GBK's).

    :param old_index: ``(pointer, code point)`` pairs replacing index entries (T20: the oracle's
        pre-2023 index).
    :param restore_null_four_byte: the oracle's older text: a four-byte sequence whose pointer
        has no code point restores its last three bytes (T22); the standard consumes all four.
    """
    table = index("gb18030")
    old = dict(old_index)
    first = second = third = 0

    def step(b, restore):
        nonlocal first, second, third
        if b is None:
            if first or second or third:
                first = second = third = 0
                return ERROR
            return None
        if third:
            if not 0x30 <= b <= 0x39:
                restore(second, third, b)
                first = second = third = 0
                return ERROR
            cp = gb18030_ranges_code_point(((first - 0x81) * 12600) + ((second - 0x30) * 1260)
                                           + ((third - 0x81) * 10) + b - 0x30)
            if cp is None and restore_null_four_byte:
                restore(second, third, b)
            first = second = third = 0
            return ERROR if cp is None else chr(cp)
        if second:
            if 0x81 <= b <= 0xFE:
                third = b
                return None
            restore(second, b)
            first = second = 0
            return ERROR
        if first:
            if 0x30 <= b <= 0x39:
                second = b
                return None
            lead, first = first, 0
            pointer = None
            offset = 0x40 if b < 0x7F else 0x41
            if 0x40 <= b <= 0x7E or 0x80 <= b <= 0xFE:
                pointer = (lead - 0x81) * 190 + (b - offset)
            cp = None if pointer is None else old.get(pointer, table.get(pointer))
            if cp is not None:
                return chr(cp)
            if b < 0x80:
                restore(b)
            return ERROR
        if b < 0x80:
            return chr(b)
        if b == 0x80:
            return "\u20ac"
        if 0x81 <= b <= 0xFE:
            first = b
            return None
        return ERROR

    return _run(data, step, errors)


BIG5_PAIRS = {1133: "\u00ca\u0304", 1135: "\u00ca\u030c", 1164: "\u00ea\u0304", 1166: "\u00ea\u030c"}


def big5(data: bytes, *, errors=None) -> str:
    """The Big5 decoder (the oracle agrees)."""
    table = index("big5")
    lead = 0

    def step(b, restore):
        nonlocal lead
        if b is None:
            if lead:
                lead = 0
                return ERROR
            return None
        if lead:
            leading, lead = lead, 0
            pointer = None
            offset = 0x40 if b < 0x7F else 0x62
            if 0x40 <= b <= 0x7E or 0xA1 <= b <= 0xFE:
                pointer = (leading - 0x81) * 157 + (b - offset)
            if pointer in BIG5_PAIRS:
                return BIG5_PAIRS[pointer]
            cp = None if pointer is None else table.get(pointer)
            if cp is not None:
                return chr(cp)
            if b < 0x80:
                restore(b)
            return ERROR
        if b < 0x80:
            return chr(b)
        if 0x81 <= b <= 0xFE:
            lead = b
            return None
        return ERROR

    return _run(data, step, errors)


def euc_jp(data: bytes, *, restore_non_trail=False, errors=None) -> str:
    """The EUC-JP decoder.

    :param restore_non_trail: the oracle's older text: after a lead, any byte outside 0xA1-0xFE
        is restored (T23); the standard restores only an ASCII byte.
    """
    jis0208, jis0212 = index("jis0208"), index("jis0212")
    lead = 0
    flag = False

    def step(b, restore):
        nonlocal lead, flag
        if b is None:
            if lead:
                lead = 0
                return ERROR
            return None
        if lead == 0x8E and 0xA1 <= b <= 0xDF:
            lead = 0
            return chr(0xFF61 - 0xA1 + b)
        if lead == 0x8F and 0xA1 <= b <= 0xFE:
            flag, lead = True, b
            return None
        if lead:
            leading, lead = lead, 0
            cp = None
            if 0xA1 <= leading <= 0xFE and 0xA1 <= b <= 0xFE:
                cp = (jis0212 if flag else jis0208).get((leading - 0xA1) * 94 + b - 0xA1)
            flag = False
            if cp is not None:
                return chr(cp)
            if b < 0x80 or (restore_non_trail and not 0xA1 <= b <= 0xFE):
                restore(b)
            return ERROR
        if b < 0x80:
            return chr(b)
        if b in (0x8E, 0x8F) or 0xA1 <= b <= 0xFE:
            lead = b
            return None
        return ERROR

    return _run(data, step, errors)


def shift_jis(data: bytes, *, errors=None) -> str:
    """The Shift_JIS decoder (the oracle agrees)."""
    table = index("jis0208")
    lead = 0

    def step(b, restore):
        nonlocal lead
        if b is None:
            if lead:
                lead = 0
                return ERROR
            return None
        if lead:
            leading, lead = lead, 0
            pointer = None
            offset = 0x40 if b < 0x7F else 0x41
            lead_offset = 0x81 if leading < 0xA0 else 0xC1
            if 0x40 <= b <= 0x7E or 0x80 <= b <= 0xFC:
                pointer = (leading - lead_offset) * 188 + b - offset
            if pointer is not None and 8836 <= pointer <= 10715:
                return chr(0xE000 - 8836 + pointer)
            cp = None if pointer is None else table.get(pointer)
            if cp is not None:
                return chr(cp)
            if b < 0x80:
                restore(b)
            return ERROR
        if b <= 0x80:
            return chr(b)
        if 0xA1 <= b <= 0xDF:
            return chr(0xFF61 - 0xA1 + b)
        if 0x81 <= b <= 0x9F or 0xE0 <= b <= 0xFC:
            lead = b
            return None
        return ERROR

    return _run(data, step, errors)


def euc_kr(data: bytes, *, restore_only_without_pointer=False, errors=None) -> str:
    """The EUC-KR decoder.

    :param restore_only_without_pointer: the oracle's older text: an ASCII byte after a lead is
        restored only when it gives no pointer (outside 0x41-0xFE) (T24); the standard restores
        every ASCII byte that does not complete a code point.
    """
    table = index("euc-kr")
    lead = 0

    def step(b, restore):
        nonlocal lead
        if b is None:
            if lead:
                lead = 0
                return ERROR
            return None
        if lead:
            leading, lead = lead, 0
            pointer = None
            if 0x41 <= b <= 0xFE:
                pointer = (leading - 0x81) * 190 + (b - 0x41)
            cp = None if pointer is None else table.get(pointer)
            if cp is not None:
                return chr(cp)
            if b < 0x80 and (pointer is None or not restore_only_without_pointer):
                restore(b)
            return ERROR
        if b < 0x80:
            return chr(b)
        if 0x81 <= b <= 0xFE:
            lead = b
            return None
        return ERROR

    return _run(data, step, errors)
