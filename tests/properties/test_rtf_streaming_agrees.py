"""The streaming ``Decompressor`` equals ``decompress`` at every split, defects included (RT6,
RT60), on honest streams and on streams whose header fields, length and contents are damaged."""

from __future__ import annotations

import struct

from hypothesis import given, settings
from hypothesis import strategies as st

from onemail.rtf import Decompressor, compress, decompress
from onemail.rtf.compressed import MAX_EXPANSION_RATIO, MAX_OUTPUT_BYTES


def _mangle(stream: bytes, compsize, rawsize, comptype, cut, extra) -> bytes:
    head = bytearray(stream[:16].ljust(16, b"\0"))
    if compsize is not None:
        head[0:4] = struct.pack("<I", compsize)
    if rawsize is not None:
        head[4:8] = struct.pack("<I", rawsize)
    if comptype is not None:
        head[8:12] = comptype
    out = bytes(head) + stream[16:] + extra
    return out[:cut] if cut is not None else out


honest = st.builds(lambda data, mela: compress(data, mela=mela), st.binary(max_size=200),
                   st.booleans())
streams = st.one_of(
    honest,
    st.builds(_mangle, honest,
              st.one_of(st.none(), st.integers(0, 600), st.just(2**32 - 1)),
              st.one_of(st.none(), st.integers(0, 6000), st.integers(0, 2**32 - 1)),
              st.one_of(st.none(), st.sampled_from([b"LZFu", b"MELA", b"LZFx"])),
              st.one_of(st.none(), st.integers(0, 300)), st.binary(max_size=20)),
    st.binary(max_size=40).map(lambda b: b"LZFu" if len(b) < 4 else b),
)


def _ratio_differs(stream: bytes) -> bool:
    """RT6: the streaming ratio check uses COMPSIZE + 4, the one-shot one the input length."""
    if len(stream) < 16:
        return False
    compsize, rawsize, comptype, _ = struct.unpack_from("<II4sI", stream)
    if comptype not in (b"LZFu", b"MELA") or rawsize > MAX_OUTPUT_BYTES:
        return False
    return ((rawsize > MAX_EXPANSION_RATIO * len(stream))
            != (rawsize > MAX_EXPANSION_RATIO * max(16, compsize + 4)))


def _streamed(pieces) -> tuple:
    d = Decompressor()
    data = b"".join(d.decompress(p) for p in pieces) + d.finish()
    return data, d.defects, d.crc_verified


@settings(max_examples=150, deadline=None)
@given(stream=streams)
def test_streaming_equals_one_shot_at_every_split(stream):
    one = decompress(stream)
    want = (one.data, one.defects, one.crc_verified)
    whole = _streamed([stream])
    if not _ratio_differs(stream):
        assert whole == want
    for cut in range(len(stream) + 1):
        assert _streamed([stream[:cut], stream[cut:]]) == whole, cut


@settings(max_examples=100, deadline=None)
@given(stream=streams, cuts=st.lists(st.integers(0, 400), max_size=8))
def test_streaming_equals_one_shot_in_many_chunks(stream, cuts):
    points = [0, *sorted(set(cuts)), len(stream)]
    pieces = [stream[a:b] for a, b in zip(points, points[1:], strict=False)]
    got = _streamed(pieces)
    assert got == _streamed([stream])
    if not _ratio_differs(stream):
        one = decompress(stream)
        assert got == (one.data, one.defects, one.crc_verified)
