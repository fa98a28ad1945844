"""Compressed RTF (MS-OXRTFCP): decompression with every check, compression, and the CRC.

Implements spec 002 "Compressed RTF" (MS-OXRTFCP 2.1-2.3). A stream is a 16-byte header
(COMPSIZE, RAWSIZE, COMPTYPE, CRC; little-endian) and contents. ``LZFu`` contents are LZ77 over
a 4096-byte circular dictionary preloaded with 207 bytes of common RTF; ``MELA`` contents are
the RTF itself.

How the hot loops work (pure Python, standard library only):

- **Decompression.** The dictionary is not a separate 4096-byte ring: the output buffer is.
  It starts with the 207-byte preload, so the ring position of output byte ``w`` is
  ``w & 0xFFF``, and a reference to ring offset ``o`` reads from ``w - ((w - o) & 0xFFF)``.
  A distance of 0 is the end marker; a source before the buffer's start is a dictionary
  position nothing was written to (it reads as NUL bytes, RT3). For each control byte a
  precompiled ``struct`` format splits its whole group in one C call into literal runs
  (``bytes``, appended as they are) and references (big-endian ints, one slice each;
  overlapping ones repeat their period). ``bench/rtf_compression.py`` times it beside
  ``compressed_rtf`` and prints the ratio.
- **Compression.** Each two-byte pair keeps the list of its positions (the hash chain; trimmed
  to the window every 64 KiB). At a position, the candidates are the newest 128 positions of
  its pair within the 4095 bytes before the cursor. Instead of comparing them one by one in
  Python, ``bytes.find`` searches the span from the oldest candidate for the current prefix:
  it returns the oldest occurrence with at least that length, the match is extended byte by
  byte, and the search resumes after it for one byte more. The result is exactly the
  longest match among the candidates, the oldest one on a tie (RT9; pinned against a plain
  model in the property tests).
- **CRC.** ``binascii.crc32`` computes the standard CRC-32 (start ``0xFFFFFFFF``, final
  inversion). MS-OXRTFCP's CRC is the same register without either inversion, so
  ``crc32(x) == binascii.crc32(x, 0xFFFFFFFF) ^ 0xFFFFFFFF`` (pinned against the spec's
  table-driven definition, :func:`crc32_reference`, in the tests).
"""

from __future__ import annotations

import binascii
import struct
from array import array
from bisect import bisect_left
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from .defects import RtfDefect, RtfDefectKind

__all__ = [
    "GREEDY",
    "LAZY",
    "MAX_EXPANSION_RATIO",
    "MAX_OUTPUT_BYTES",
    "DecompressionResult",
    "Decompressor",
    "compress",
    "crc32",
    "crc32_reference",
    "decompress",
]

#: MS-OXRTFCP 2.1.3.1.1: the dictionary's initial contents (207 bytes).
PRELOAD = (
    b"{\\rtf1\\ansi\\mac\\deff0\\deftab720{\\fonttbl;}{\\f0\\fnil \\froman \\fswiss "
    b"\\fmodern \\fscript \\fdecor MS Sans SerifSymbolArialTimes New RomanCourier"
    b"{\\colortbl\\red0\\green0\\blue0\r\n\\par \\pard\\plain\\f0\\fs20\\b\\i\\u\\tab\\tx"
)
_PRELOAD_SIZE = len(PRELOAD)  # 207
_RING = 4096  # dictionary size (MS-OXRTFCP 2.1.3.1.1)
_MASK = _RING - 1
_HEADER = struct.Struct("<II4sI")  # COMPSIZE, RAWSIZE, COMPTYPE, CRC (MS-OXRTFCP 2.1.3.1.1)
LZFU = b"LZFu"  # COMPTYPE 0x75465A4C
MELA = b"MELA"  # COMPTYPE 0x414C454D

#: Spec 002: ``MaxOutputBytes``, the default limit on RAWSIZE and on the bytes produced.
MAX_OUTPUT_BYTES = 256 * 1024 * 1024
#: Spec 002: RAWSIZE above this many times the input length is refused. Honest data expands
#: at most 17 bytes per 2-byte reference plus 1/8 byte of control (17 / 2.125 = 8 : 1).
MAX_EXPANSION_RATIO = 20

_MAX_MATCH = 17  # 4-bit length field + 2
_MAX_CANDIDATES = 128  # spec 002 "Compression": at most 128 candidates per position
_GROUP_MAX = 17  # a control byte and up to eight 2-byte references

_HT = RtfDefectKind.HEADER_TRUNCATED
_UCT = RtfDefectKind.UNKNOWN_COMPRESSION_TYPE
_CSM = RtfDefectKind.COMPRESSED_SIZE_MISMATCH
_OLE = RtfDefectKind.OUTPUT_LIMIT_EXCEEDED
_ERE = RtfDefectKind.EXPANSION_RATIO_EXCEEDED
_MEM = RtfDefectKind.MISSING_END_MARKER
_RBD = RtfDefectKind.REFERENCE_BEYOND_DICTIONARY
_CRC = RtfDefectKind.CRC_MISMATCH
_RSM = RtfDefectKind.RAW_SIZE_MISMATCH


# --------------------------------------------------------------------------------------- CRC


def _crc_table() -> tuple[int, ...]:
    """Return the 256-entry table of the reflected polynomial 0xEDB88320 (MS-OXRTFCP 2.1.3.2)."""
    table = []
    for byte in range(256):
        c = byte
        for _ in range(8):
            c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
        table.append(c)
    return tuple(table)


_CRC_TABLE = _crc_table()


def crc32_reference(data: bytes | bytearray | memoryview, crc: int = 0) -> int:
    """Compute the MS-OXRTFCP CRC byte by byte from the table (the spec's definition; slow).

    Implements MS-OXRTFCP 2.1.3.2: ``crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)`` from a
    start value of 0, with no final inversion. :func:`crc32` is the fast equivalent.

    :param data: bytes-like.
    :param crc: the register to continue from (0 for a new CRC).
    :returns: the CRC as an unsigned 32-bit int.
    """
    table = _CRC_TABLE
    for byte in bytes(data):
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc


def crc32(data: bytes | bytearray | memoryview, crc: int = 0) -> int:
    """Compute the CRC of compressed RTF contents (reflected 0xEDB88320, start 0, no inversion).

    Implements MS-OXRTFCP 2.1.3.2 (spec 002 "Compressed RTF"). Runs in C through
    ``binascii.crc32``, whose register differs only by the start value and the final
    inversion: ``crc32(x, c) == binascii.crc32(x, c ^ 0xFFFFFFFF) ^ 0xFFFFFFFF``.

    :param data: bytes-like; the contents after the 16-byte header, padding included.
    :param crc: the CRC of the preceding bytes, to continue a running CRC (default 0).
    :returns: the CRC as an unsigned 32-bit int.
    :raises TypeError: if ``data`` is not bytes-like.

    >>> contents = "03000a007263706731323542320af32068656c090020627705b06c647d0a800fa0"
    >>> hex(crc32(bytes.fromhex(contents)))  # MS-OXRTFCP 3.1.1
    '0xa7c7c5f1'
    """
    return binascii.crc32(data, crc ^ 0xFFFFFFFF) ^ 0xFFFFFFFF


# -------------------------------------------------------------------------------- decompress


@dataclass(frozen=True, slots=True)
class DecompressionResult:
    """The outcome of :func:`decompress`.

    :param data: the RTF bytes recovered (possibly partial; empty when the stream was refused).
    :param defects: the damage found, as ``RtfDefect(kind, offset, length)`` with byte offsets
        into the compressed input, in the order the checks ran.
    :param crc_verified: True only for ``LZFu`` contents whose CRC matched.
    """

    data: bytes
    defects: tuple[RtfDefect, ...]
    crc_verified: bool


def _group_structs() -> tuple[tuple[Any, int], ...]:
    """For each control byte: ``(unpack_from, size)`` of the 1 to 16 bytes of its tokens.

    The format reads each run of literals as one ``Ns`` item (bytes) and each reference as a
    big-endian ``H`` (int), so one C call splits a whole group (MS-OXRTFCP 2.2.1.1).
    """
    table = []
    for flags in range(256):
        fmt, run = ">", 0
        for bit in range(8):
            if flags >> bit & 1:
                if run:
                    fmt += f"{run}s"
                    run = 0
                fmt += "H"
            else:
                run += 1
        if run:
            fmt += f"{run}s"
        st = struct.Struct(fmt)
        table.append((st.unpack_from, st.size))
    return tuple(table)


_GROUPS = _group_structs()

# Outcomes of _inflate.
_END = 0  # the end marker was read
_MORE = 1  # (streaming) stopped before a group that is not complete yet
_CUT = 2  # the data ended before the end marker
_LIMIT = 3  # the output limit was reached


def _copy_ref(out: bytearray, w: int, d: int, length: int) -> None:
    """Append a reference whose source overlaps the output or starts before the buffer.

    ``d`` (1..4095) is the distance back from ``w == len(out)``. Bytes before the buffer's
    start are dictionary positions nothing was written to and read as NUL (RT3).
    """
    s = w - d
    if s < 0:
        lead = min(-s, length)
        out += bytes(lead)
        length -= lead
        s = 0
        if not length:
            return
        d = len(out) - s
    if d >= length:
        out += out[s : s + length]
    else:  # overlapping: the bytes repeat with period d
        out += (out[s:] * (length // d + 1))[:length]


def _inflate(
    src: bytes, pos: int, end: int, out: bytearray, limit: int, final: bool, bad_refs: list[int]
) -> tuple[int, int]:
    """Decode LZFu tokens of ``src[pos:end]`` onto ``out`` (MS-OXRTFCP 2.2.1).

    ``out`` holds the dictionary and the output: its index ``w`` is at ring position
    ``w & 0xFFF``, and at least the last 4096 bytes written are in it. Stops at the end marker,
    at ``end`` (when not ``final``: before the first group that is not complete), or when
    ``len(out)`` exceeds ``limit``. Positions in ``src`` of references to unwritten dictionary
    positions are appended to ``bad_refs``.

    The fast path splits each complete group with one ``struct`` call and handles literal runs
    and references that lie inside the written output. A group holding anything else (the end
    marker, a reference to an unwritten position) is rolled back and decoded by
    :func:`_tokens`, which also decodes the incomplete tail.

    :returns: ``(pos, outcome)``: where decoding stopped and one of _END, _MORE, _CUT, _LIMIT.
    """
    groups = _GROUPS
    w = len(out)
    fast_end = end - _GROUP_MAX
    while pos <= fast_end:
        unpack, size = groups[src[pos]]
        w0 = w
        for item in unpack(src, pos + 1):
            if item.__class__ is int:  # a reference
                d = (w - (item >> 4)) & 4095
                length = (item & 15) + 2
                s = w - d
                if d >= length and s >= 0:
                    out += out[s : s + length]
                elif d and s >= 0:  # overlapping: the bytes repeat with period d
                    out += (out[s:w] * (length // d + 1))[:length]
                else:  # the end marker, or unwritten positions: the careful path
                    break
                w += length
            else:  # a run of literals
                out += item
                w += len(item)
        else:
            pos += size + 1
            if w > limit:
                return pos, _LIMIT
            continue
        del out[w0:]
        pos, outcome = _tokens(src, pos, end, out, final, bad_refs, 1)
        if outcome is not None:
            return pos, outcome
        w = len(out)
        if w > limit:
            return pos, _LIMIT
    while pos < end:
        pos, outcome = _tokens(src, pos, end, out, final, bad_refs, 1)
        if outcome is not None:
            return pos, outcome
        if len(out) > limit:
            return pos, _LIMIT
    return pos, (_CUT if final else _MORE)


def _tokens(
    src: bytes, pos: int, end: int, out: bytearray, final: bool, bad_refs: list[int], groups: int
) -> tuple[int, int | None]:
    """Decode ``groups`` groups token by token (the careful path of :func:`_inflate`).

    :returns: ``(pos, outcome)``; outcome None when the groups were decoded without stopping.
    """
    w = len(out)
    for _ in range(groups):
        if pos >= end:
            return pos, (_CUT if final else _MORE)
        flags = src[pos]
        if not final and pos + _GROUP_SIZE[flags] > end:
            return pos, _MORE
        pos += 1
        for bit in range(8):
            if flags >> bit & 1:
                if pos + 2 > end:
                    return end, _CUT
                ref = src[pos] << 8 | src[pos + 1]
                d = (w - (ref >> 4)) & _MASK
                if not d:
                    return pos + 2, _END
                length = (ref & 15) + 2
                if w - d < 0:
                    bad_refs.append(pos)
                _copy_ref(out, w, d, length)
                pos += 2
                w += length
            else:
                if pos >= end:
                    return end, _CUT
                out.append(src[pos])
                pos += 1
                w += 1
    return pos, None


# Size of the group a control byte announces (the byte, 8 tokens of 1 or 2 bytes).
_GROUP_SIZE = tuple(9 + bin(flags).count("1") for flags in range(256))


def _check_type(value: object, name: str) -> bytes:
    """Return ``value`` as bytes; any object with the buffer protocol is accepted."""
    if isinstance(value, bytes):
        return value
    try:
        return memoryview(value).tobytes()  # type: ignore[arg-type]  # TypeError if no buffer
    except TypeError:
        raise TypeError(f"{name} must be bytes-like, not {type(value).__name__}") from None


def _check_limit(max_output: object) -> int:
    if not isinstance(max_output, int) or isinstance(max_output, bool):
        raise TypeError(f"max_output must be an int, not {type(max_output).__name__}")
    if max_output < 0:
        raise ValueError(f"max_output must be >= 0, got {max_output}")
    return max_output


def _header_checks(data: bytes, total: int, max_output: int,
                   defects: list[RtfDefect]) -> tuple[int, bytes, int, int] | None:
    """Run the header checks of spec 002 in order; return ``(rawsize, type, crc, end)`` or None.

    ``total`` is the input length the size checks compare against. ``end`` is where the
    contents end: the declared ``COMPSIZE + 4`` clipped to ``total`` (spec 002: "the declared
    range, or what is there").
    """
    compsize, rawsize, comptype, crc = _HEADER.unpack_from(data)
    if comptype != LZFU and comptype != MELA:
        defects.append(RtfDefect(_UCT, 8, 4))
        return None
    end = compsize + 4
    if end != total:
        defects.append(RtfDefect(_CSM, 0, 4))
        end = max(16, min(end, total))
    if rawsize > max_output:
        defects.append(RtfDefect(_OLE, 4, 4))
        return None
    if rawsize > MAX_EXPANSION_RATIO * total:
        defects.append(RtfDefect(_ERE, 4, 4))
        return None
    return rawsize, comptype, crc, end


def decompress(data: bytes, max_output: int = MAX_OUTPUT_BYTES) -> DecompressionResult:
    """Decompress a ``PidTagRtfCompressed`` stream, checking everything, never raising on data.

    Implements MS-OXRTFCP 2.2 with the checks of spec 002 "Compressed RTF", in this order:
    header length; COMPTYPE; COMPSIZE against the bytes present; RAWSIZE against
    ``max_output`` and against 20 times the input length (both before any output buffer
    exists); then, while decoding, references to unwritten dictionary positions and a missing
    end marker; then the CRC; then the number of bytes produced against RAWSIZE.
    ``MELA`` contents are copied without CRC validation (MS-OXRTFCP 2.2.3.1): RAWSIZE bytes,
    clipped to the bytes present (RT1).

    :param data: the whole stream, header included (bytes-like).
    :param max_output: the most bytes to produce (default 256 MiB). A RAWSIZE above it
        refuses the stream; decoding stops when the output would exceed it (RT5).
    :returns: :class:`DecompressionResult` ``(data, defects, crc_verified)``.
    :issues: ``HeaderTruncated`` (0, n) and ``UnknownCompressionType`` (8, 4): empty output.
        ``CompressedSizeMismatch`` (0, 4): the declared range or what is there is decoded.
        ``OutputLimitExceeded`` and ``ExpansionRatioExceeded`` (4, 4): empty output.
        ``ReferenceBeyondDictionary`` (the reference's offset, 2): NUL bytes used (RT3).
        ``MissingEndMarker`` (where the data ended, 0): everything decoded.
        ``CrcMismatch`` (12, 4) and ``RawSizeMismatch`` (4, 4): everything decoded (RT2, RT4).
        ``OutputLimitExceeded`` (the token's offset, 0) when decoding reaches ``max_output``.
    :raises TypeError: if ``data`` is not bytes-like or ``max_output`` is not an int.
    :raises ValueError: if ``max_output`` is negative.

    >>> r = decompress(bytes.fromhex("1a0000001c0000004c5a4675e2d44b51410004205758595a0d6e7d010eb0"))
    >>> r.data, r.defects, r.crc_verified
    (b'{\\\\rtf1 WXYZWXYZWXYZWXYZWXYZ}', (), True)
    """
    data = _check_type(data, "data")
    max_output = _check_limit(max_output)
    defects: list[RtfDefect] = []
    n = len(data)
    if n < 16:
        return DecompressionResult(b"", (RtfDefect(_HT, 0, n),), False)
    checked = _header_checks(data, n, max_output, defects)
    if checked is None:
        return DecompressionResult(b"", tuple(defects), False)
    rawsize, comptype, crc, end = checked
    if comptype == MELA:
        # RT1: RAWSIZE bytes clipped to the bytes present; COMPSIZE does not cut the text.
        result = data[16 : 16 + rawsize]
        if len(result) != rawsize:
            defects.append(RtfDefect(_RSM, 4, 4))
        return DecompressionResult(result, tuple(defects), False)
    out = bytearray(PRELOAD)
    bad_refs: list[int] = []
    pos, outcome = _inflate(data, 16, end, out, _PRELOAD_SIZE + max_output, True, bad_refs)
    for at in bad_refs:
        defects.append(RtfDefect(_RBD, at, 2))
    if outcome == _CUT:
        defects.append(RtfDefect(_MEM, end, 0))
    elif outcome == _LIMIT:
        defects.append(RtfDefect(_OLE, pos, 0))
        del out[_PRELOAD_SIZE + max_output :]
    verified = crc32(memoryview(data)[16:end]) == crc
    if not verified:
        defects.append(RtfDefect(_CRC, 12, 4))
    del out[:_PRELOAD_SIZE]
    if len(out) != rawsize:
        defects.append(RtfDefect(_RSM, 4, 4))
    return DecompressionResult(bytes(out), tuple(defects), verified)


# ---------------------------------------------------------------------------------- compress

#: Compression levels: the spec's greedy search, and lazy matching (RT10).
GREEDY = 1
LAZY = 2


def _pair_keys(buf: bytes) -> array[int]:
    """Return, for each position ``j`` of ``buf``, a 16-bit key of the pair ``buf[j:j+2]``.

    Built in C: the pairs at even and at odd positions are the buffer read as 16-bit words
    from offset 0 and from offset 1. The last position gets key 0 (it has no pair and is never
    searched from).
    """
    n = len(buf)
    keys = array("H", bytes(2 * n))
    half = n // 2
    keys[0 : 2 * half : 2] = array("H", buf[: 2 * half])
    odd = (n - 1) // 2
    keys[1 : 2 * odd : 2] = array("H", buf[1 : 1 + 2 * odd])
    return keys


class _Matcher:
    """The hash chain of two-byte pairs over the preload and the input (spec 002 "Compression").

    ``chains[key]`` lists (ascending) the positions of the pair ``key`` inserted so far; lists
    are trimmed to the window every 64 KiB so memory stays bounded.
    """

    __slots__ = ("buf", "keys", "chains", "trim_at")

    def __init__(self, buf: bytes) -> None:
        self.buf = buf
        self.keys = _pair_keys(buf)
        self.chains: defaultdict[int, list[int]] = defaultdict(list)
        self.trim_at = 1 << 16

    def trim(self, w: int) -> None:
        lo = w - _RING
        for lst in self.chains.values():
            if lst and lst[0] < lo:
                del lst[: bisect_left(lst, lo)]
        self.trim_at = w + (1 << 16)

    def longest(self, w: int, end: int) -> tuple[int, int]:
        """Return ``(length, position)`` of the longest match at ``w`` (length 0: none).

        Among the newest 128 positions of the pair at ``w`` within the 4095 bytes before it,
        the longest match of 2..17 bytes (at most ``end - w``), the oldest one on a tie.
        """
        lst = self.chains.get(self.keys[w])
        if not lst:
            return 0, 0
        n = len(lst)
        k = n - _MAX_CANDIDATES if n > _MAX_CANDIDATES else 0
        lo = w - _MASK
        if lst[k] < lo:
            k = bisect_left(lst, lo, k)
            if k == n:
                return 0, 0
        p = lst[k]
        buf = self.buf
        maxlen = end - w
        if maxlen > _MAX_MATCH:
            maxlen = _MAX_MATCH
        length = 2
        while length < maxlen and buf[p + length] == buf[w + length]:
            length += 1
        while length < maxlen:
            q = buf.find(buf[w : w + length + 1], p + 1, w + length)
            if q < 0:
                break
            p = q
            length += 1
            while length < maxlen and buf[p + length] == buf[w + length]:
                length += 1
        return length, p


def _lzfu(rtf: bytes, level: int) -> bytes:
    """Return the LZFu contents (tokens and end marker, no header) for ``rtf``."""
    buf = PRELOAD + rtf
    end = len(buf)
    m = _Matcher(buf)
    keys = m.keys
    chains = m.chains
    longest = m.longest
    for j in range(min(_PRELOAD_SIZE, end - 1)):
        chains[keys[j]].append(j)
    out = bytearray(b"\x00")
    ci = 0  # index of the current control byte in out
    flags = 0
    bit = 1
    w = _PRELOAD_SIZE
    last = end - 1  # a pair starts at most here
    lazy = level >= LAZY
    pending = None  # (length, position) found at w by the lazy look-ahead
    while w < end:
        if w >= m.trim_at:
            m.trim(w)
        if pending is not None:
            length, p = pending
            pending = None
        elif w < last:
            length, p = longest(w, end)
        else:
            length = 0
        if lazy and 2 <= length < _MAX_MATCH and w + 1 < last:
            chains[keys[w]].append(w)
            nlength, np_ = longest(w + 1, end)
            if nlength > length:  # a literal now, the longer match at w + 1 next
                pending = (nlength, np_)
                length = 0
            start = w + 1  # w is in its chain already
        else:
            start = w
        if length >= 2:
            ref = (p & _MASK) << 4 | (length - 2)
            out.append(ref >> 8)
            out.append(ref & 0xFF)
            flags |= bit
            stop = w + length
            for j in range(start, stop):
                chains[keys[j]].append(j)
            w = stop
        else:
            out.append(buf[w])
            if start == w:
                chains[keys[w]].append(w)
            w += 1
        bit <<= 1
        if bit == 256:
            out[ci] = flags
            ci = len(out)
            out.append(0)
            flags = 0
            bit = 1
    ref = (w & _MASK) << 4  # the end marker: a reference to the write position
    out.append(ref >> 8)
    out.append(ref & 0xFF)
    out[ci] = flags | bit
    return bytes(out)


def compress(rtf: bytes, *, mela: bool = False, level: int = GREEDY) -> bytes:
    """Compress RTF into a ``PidTagRtfCompressed`` stream (header included).

    Implements MS-OXRTFCP 2.3 as spec 002 "Compression" describes it: a hash chain of
    two-byte pairs, at most 128 candidates per position within the 4095 bytes before the
    cursor, the longest match of 2 to 17 bytes, the oldest one on a tie, matches that overlap
    the bytes being written, then the end marker. Empty input gives the contents
    ``01 0C F0`` (RT8). ``level=LAZY`` (2) defers a match by one byte when the next position
    has a longer one (RT10); the output decodes the same either way.

    :param rtf: the RTF bytes (any bytes; bytes-like).
    :param mela: write an uncompressed ``MELA`` stream instead (RAWSIZE = COMPSIZE - 12, CRC 0).
    :param level: ``GREEDY`` (1, default) or ``LAZY`` (2).
    :returns: the stream: COMPSIZE, RAWSIZE, COMPTYPE, CRC (little-endian), then contents.
    :raises TypeError: if ``rtf`` is not bytes-like.
    :raises ValueError: if ``level`` is not 1 or 2.

    >>> compress(b"{\\\\rtf1 WXYZWXYZWXYZWXYZWXYZ}").hex()
    '1a0000001c0000004c5a4675e2d44b51410004205758595a0d6e7d010eb0'
    >>> compress(b"")[16:].hex()
    '010cf0'
    """
    rtf = _check_type(rtf, "rtf")
    if level not in (GREEDY, LAZY):
        raise ValueError(f"level must be {GREEDY} (greedy) or {LAZY} (lazy), got {level!r}")
    if mela:
        return _HEADER.pack(len(rtf) + 12, len(rtf), MELA, 0) + rtf
    contents = _lzfu(rtf, level)
    return _HEADER.pack(len(contents) + 12, len(rtf), LZFU, crc32(contents)) + contents


# ------------------------------------------------------------------------------- streaming


class Decompressor:
    """Decompress a ``PidTagRtfCompressed`` stream chunk by chunk, with explicit state.

    Implements the same checks as :func:`decompress` (spec 002 "Compressed RTF") with memory
    bounded by the chunk size: the dictionary is the last 4 KiB of output (kept in a buffer
    trimmed by multiples of 4096 bytes so ring positions stay ``index & 0xFFF``).
    The state is :attr:`state`: ``"header"`` (collecting the 16 header bytes), ``"lzfu"`` or
    ``"mela"`` (contents), ``"trailer"`` (after the end marker or the output limit: padding,
    CRC only), ``"refused"`` (a header check failed: nothing more is produced), ``"done"``.

    Differences from :func:`decompress`, because the input length is known only at the end
    (RT6): the expansion check compares RAWSIZE with COMPSIZE + 4, and
    ``CompressedSizeMismatch`` is found by :meth:`finish` (it is placed in :attr:`defects`
    where the one-shot function puts it, also for a stream refused by RAWSIZE: RT60). Apart
    from that check, every chunking gives the output, defects and ``crc_verified`` of
    :func:`decompress` (property-tested at every split).

    :param max_output: the most bytes to produce (default 256 MiB).
    :raises TypeError, ValueError: for a bad ``max_output``.

    >>> d = Decompressor()
    >>> stream = compress(b"{\\\\rtf1 hello}")
    >>> d.decompress(stream[:7]) + d.decompress(stream[7:]) + d.finish()
    b'{\\\\rtf1 hello}'
    >>> d.defects, d.crc_verified
    ((), True)
    """

    __slots__ = (
        "state", "max_output", "consumed", "produced", "crc_verified", "_defects", "_csm_at",
        "_header", "_rawsize", "_crc", "_end", "_running_crc", "_pending", "_pending_at",
        "_window", "_base",
    )

    def __init__(self, *, max_output: int = MAX_OUTPUT_BYTES) -> None:
        self.max_output = _check_limit(max_output)
        self.state = "header"
        self.consumed = 0  # input bytes given so far
        self.produced = 0  # output bytes returned so far
        self.crc_verified = False
        self._defects: list[RtfDefect] = []
        self._csm_at = 0
        self._header = b""
        self._rawsize = self._crc = self._end = self._running_crc = 0
        self._pending = b""  # contents not decoded yet (an incomplete group)
        self._pending_at = 16  # input offset of _pending[0]
        self._window = bytearray()
        self._base = 0  # output position (with the preload) of _window[0]; a multiple of 4096

    @property
    def defects(self) -> tuple[RtfDefect, ...]:
        """The defects found so far (all of them after :meth:`finish`)."""
        return tuple(self._defects)

    def decompress(self, chunk: bytes) -> bytes:
        """Feed the next bytes of the stream; return the RTF bytes that became available.

        :param chunk: bytes-like, the continuation of the stream.
        :returns: output bytes (possibly empty).
        :raises TypeError: if ``chunk`` is not bytes-like.
        :raises ValueError: if :meth:`finish` was already called.
        """
        chunk = _check_type(chunk, "chunk")
        if self.state == "done":
            raise ValueError("Decompressor.decompress called after finish()")
        start = self.consumed
        self.consumed += len(chunk)
        if self.state == "header":
            need = 16 - len(self._header)
            self._header += chunk[:need]
            chunk = chunk[need:]
            start += need
            if len(self._header) < 16:
                return b""
            self._start()
        # Only the declared range is contents; bytes after it are ignored.
        if self.state in ("lzfu", "trailer"):
            inside = max(0, min(len(chunk), self._end - start))
            chunk = chunk[:inside]
            self._running_crc = crc32(chunk, self._running_crc)
        if self.state == "lzfu":
            return self._run(chunk, False)
        if self.state == "mela":
            room = self._rawsize - self.produced
            if room <= 0:
                return b""
            chunk = chunk[:room]
            self.produced += len(chunk)
            return chunk
        return b""

    def finish(self) -> bytes:
        """Signal the end of the stream; return the last output bytes and complete :attr:`defects`.

        :returns: output bytes (possibly empty).
        :raises ValueError: if called twice.
        """
        if self.state == "done":
            raise ValueError("Decompressor.finish called twice")
        state = self.state
        defects = self._defects
        tail = b""
        if state == "header":
            defects.append(RtfDefect(_HT, 0, self.consumed))
        elif self._csm_at >= 0:  # not refused by COMPTYPE: decompress checks COMPSIZE next
            if self._end != self.consumed:
                defects.insert(self._csm_at, RtfDefect(_CSM, 0, 4))
            if state == "lzfu":
                tail = self._run(b"", True)
                if self.state == "lzfu":  # the data ended before the end marker
                    defects.append(RtfDefect(_MEM, max(16, min(self._end, self.consumed)), 0))
        self.state = "done"
        if state in ("header", "refused"):
            return b""
        if state != "mela":
            self.crc_verified = self._running_crc == self._crc
            if not self.crc_verified:
                defects.append(RtfDefect(_CRC, 12, 4))
        if self.produced != self._rawsize:
            defects.append(RtfDefect(_RSM, 4, 4))
        return tail

    def _start(self) -> None:
        """Run the header checks (spec 002 order) and choose the state."""
        compsize, rawsize, comptype, crc = _HEADER.unpack(self._header)
        self._rawsize, self._crc, self._end = rawsize, crc, compsize + 4
        if comptype != LZFU and comptype != MELA:
            self._defects.append(RtfDefect(_UCT, 8, 4))
            self.state = "refused"
            self._csm_at = -1  # decompress stops before the COMPSIZE check
            return
        self._csm_at = len(self._defects)
        if rawsize > self.max_output:
            self._defects.append(RtfDefect(_OLE, 4, 4))
            self.state = "refused"
        elif rawsize > MAX_EXPANSION_RATIO * max(16, self._end):
            self._defects.append(RtfDefect(_ERE, 4, 4))
            self.state = "refused"
        elif comptype == MELA:
            self.state = "mela"
        else:
            self.state = "lzfu"
            self._window = bytearray(PRELOAD)

    def _run(self, chunk: bytes, final: bool) -> bytes:
        """Decode the pending contents and ``chunk``; return the new output."""
        src = self._pending + chunk if self._pending else chunk
        window = self._window
        emitted = len(window)
        limit = _PRELOAD_SIZE + self.max_output - self._base
        bad_refs: list[int] = []
        pos, outcome = _inflate(src, 0, len(src), window, limit, final, bad_refs)
        at = self._pending_at
        for ref_pos in bad_refs:
            self._defects.append(RtfDefect(_RBD, at + ref_pos, 2))
        if outcome == _MORE:
            self._pending = src[pos:]
            self._pending_at = at + pos
        else:
            self._pending = b""
            self._pending_at = at + len(src)
            if outcome == _END:
                self.state = "trailer"
            elif outcome == _LIMIT:
                self._defects.append(RtfDefect(_OLE, at + pos, 0))
                del window[limit:]
                self.state = "trailer"
        start = max(emitted, _PRELOAD_SIZE - self._base)
        out = bytes(window[start:])
        self.produced += len(out)
        if len(window) >= 3 * _RING:  # keep the last 4096 bytes (and more) as the dictionary
            cut = (len(window) - _RING) & ~_MASK
            del window[:cut]
            self._base += cut
        return out
