"""Properties of compressed RTF (spec 002 "Compressed RTF"), hypothesis and mutation tests.

- ``decompress(compress(x))`` gives ``x`` back with a verified CRC and no defect, for any
  bytes up to 64 KiB (so the 4096-byte ring wraps many times), at both levels.
- The streaming ``Decompressor`` equals the one-shot function at any chunking.
- Corpus streams cut at every length, and with seeded byte flips, never raise and report
  exactly the defects the cut or the flipped field implies.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rtf_corpus import stream_named

from onemail.rtf import Decompressor, RtfDefectKind, compress, crc32, decompress

K = RtfDefectKind

# Pieces that make RTF-like, highly repetitive input (long matches, overlaps, NUL bytes).
_PIECES = [b"\\par ", b"{\\f0 ", b"}", b"\\'e9", b"\\'82\\'a0", b"hello", b" ", b"\r\n",
           b"\x00", b"\xff", b"aaaaaaaaaaaaaaaaaaaaaaaa", b"<td>", b"\\htmltag", b"{\\*"]
rtf_like = st.lists(st.one_of(st.sampled_from(_PIECES), st.binary(max_size=8)),
                    max_size=400).map(b"".join)


def _large(seed: int, size: int, style: int) -> bytes:
    """``size`` bytes from ``seed``: random (0), RTF-like pieces (1), a 3-letter alphabet (2)."""
    rng = random.Random(seed)
    if style == 0:
        return rng.randbytes(size)
    if style == 1:
        out = bytearray()
        while len(out) < size:
            out += rng.choice(_PIECES) if rng.random() < 0.8 else rng.randbytes(rng.randrange(9))
        return bytes(out[:size])
    return bytes(rng.choice(b"ab\x00") for _ in range(size))


# Up to 64 KiB, so the 4096-byte ring wraps many times (hypothesis itself draws small inputs).
large = st.builds(_large, st.integers(0, 2**32), st.integers(0, 65536), st.integers(0, 2))
any_bytes = st.one_of(st.binary(max_size=600), rtf_like, large)


@settings(max_examples=40, deadline=None)
@given(data=any_bytes, level=st.sampled_from([1, 2]))
def test_round_trip(data, level):
    stream = compress(data, level=level)
    result = decompress(stream)
    assert result.data == data
    assert result.defects == ()
    assert result.crc_verified is True


@settings(max_examples=40, deadline=None)
@given(data=any_bytes, mela=st.booleans(), cuts=st.lists(st.integers(0, 70000), max_size=6))
def test_streaming_equals_one_shot(data, mela, cuts):
    stream = compress(data, mela=mela)
    d = Decompressor()
    parts, last = [], 0
    for cut in sorted(set(cuts)) + [len(stream)]:
        parts.append(d.decompress(stream[last:cut]))
        last = max(last, cut)
    parts.append(d.finish())
    one = decompress(stream)
    assert b"".join(parts) == one.data == data
    assert d.defects == one.defects and d.crc_verified == one.crc_verified


@settings(max_examples=200, deadline=None)
@given(data=st.binary(max_size=300))
def test_never_raises_and_defects_lie_inside_the_input(data):
    result = decompress(data)
    assert isinstance(result.data, bytes)
    for defect in result.defects:
        assert 0 <= defect.offset and defect.offset + defect.length <= len(data)
    assert len(result.data) <= 20 * len(data)


# ------------------------------------------------------------------------------- mutations

MUTATED = ["MS-OXRTFCP--3.1.1-simple", "MimeKit--attachments", "Aspose.Email-for-Java--message",
           "MSGReader--LZFu"]


def expected_after_cut(stream: bytes, n: int, produced: int) -> list[RtfDefectKind]:
    """The defects of ``stream[:n]`` by spec 002's checks (for an honest ``stream``), given
    that ``produced`` bytes came out."""
    if n < 16:
        return [K.HEADER_TRUNCATED]
    rawsize = int.from_bytes(stream[4:8], "little")
    size = [K.RAW_SIZE_MISMATCH] if produced != rawsize else []
    if n == len(stream):
        return size
    if rawsize > 20 * n:
        return [K.COMPRESSED_SIZE_MISMATCH, K.EXPANSION_RATIO_EXCEEDED]
    if stream[8:12] == b"MELA":
        return [K.COMPRESSED_SIZE_MISMATCH, *size]
    # The end marker is the last two bytes of every corpus stream: any cut loses it.
    return [K.COMPRESSED_SIZE_MISMATCH, K.MISSING_END_MARKER, K.CRC_MISMATCH, *size]


@pytest.mark.parametrize("group", MUTATED)
def test_every_truncation(corpus, group):
    stream, rtf = stream_named(group)
    for n in range(len(stream) + 1):
        result = decompress(stream[:n])
        expected = expected_after_cut(stream, n, len(result.data))
        assert [d.kind for d in result.defects] == expected, n
        assert rtf.startswith(result.data), n
        if K.MISSING_END_MARKER not in expected and n >= 16 and stream[8:12] == b"LZFu":
            assert result.data == b"" or n == len(stream)
        if K.MISSING_END_MARKER in [d.kind for d in result.defects]:
            assert result.defects[1].offset == n
        if K.HEADER_TRUNCATED in [d.kind for d in result.defects]:
            assert result.defects[0].length == n


@pytest.mark.parametrize("group", MUTATED)
def test_seeded_byte_flips(corpus, group):
    stream, rtf = stream_named(group)
    mela = stream[8:12] == b"MELA"
    honest = [d.kind for d in decompress(stream).defects]
    rng = random.Random(group)
    for _ in range(400):
        at = rng.randrange(len(stream))
        mutated = bytearray(stream)
        mutated[at] ^= rng.randrange(1, 256)
        mutated = bytes(mutated)
        result = decompress(mutated)
        got = [d.kind for d in result.defects]
        for defect in result.defects:
            assert 0 <= defect.offset and defect.offset + defect.length <= len(stream)
        if at < 4:  # COMPSIZE
            assert got[0] == K.COMPRESSED_SIZE_MISMATCH, at
        elif at < 8:  # RAWSIZE: refused, or decoded as before (MELA: RAWSIZE bytes of it)
            rawsize = int.from_bytes(mutated[4:8], "little")
            if got in ([K.OUTPUT_LIMIT_EXCEEDED], [K.EXPANSION_RATIO_EXCEEDED]):
                assert result.data == b""
            else:
                assert result.data == (stream[16 : 16 + rawsize] if mela else rtf), at
                assert got == ([K.RAW_SIZE_MISMATCH] if len(result.data) != rawsize else [])
        elif at < 12:  # COMPTYPE: one byte cannot turn LZFu into MELA or back
            assert got == [K.UNKNOWN_COMPRESSION_TYPE] and result.data == b"", at
        elif at < 16:  # CRC: MELA ignores it
            assert got == (honest if mela else [K.CRC_MISMATCH]), at
            assert result.data == rtf
        elif mela:  # MELA contents are copied as they are
            assert got == honest and result.data == mutated[16:], at
        else:  # CRC-32 detects every single-byte change
            assert K.CRC_MISMATCH in got, at
            assert result.crc_verified is False
        if at >= 4:
            d = Decompressor()
            data = d.decompress(mutated[: at + 1]) + d.decompress(mutated[at + 1 :]) + d.finish()
            assert (data, d.defects) == (result.data, result.defects), at


def _honest_header(contents: bytes, rawsize: int) -> bytes:
    return ((len(contents) + 12).to_bytes(4, "little") + rawsize.to_bytes(4, "little") + b"LZFu"
            + crc32(contents).to_bytes(4, "little") + contents)


@settings(max_examples=150, deadline=None)
@given(contents=st.binary(max_size=400), rawsize=st.integers(0, 4000))
def test_random_contents_never_raise(contents, rawsize):
    stream = _honest_header(contents, rawsize)
    result = decompress(stream)
    got = [d.kind for d in result.defects]
    if rawsize > 20 * len(stream):
        assert (result.data, got, result.crc_verified) == (b"", [K.EXPANSION_RATIO_EXCEEDED], False)
    else:
        assert result.crc_verified is True
        assert set(got) <= {K.REFERENCE_BEYOND_DICTIONARY, K.MISSING_END_MARKER,
                            K.RAW_SIZE_MISMATCH}
        assert (K.RAW_SIZE_MISMATCH in got) == (len(result.data) != rawsize)
    d = Decompressor()
    data = d.decompress(stream[:20]) + d.decompress(stream[20:]) + d.finish()
    assert (data, d.defects) == (result.data, result.defects)


try:
    import compressed_rtf
except ImportError:  # the oracle is optional (the bench extra)
    compressed_rtf = None


@pytest.mark.skipif(compressed_rtf is None, reason="compressed_rtf is not installed")
@settings(max_examples=150, deadline=None)
@given(contents=st.binary(max_size=400))
def test_random_contents_agree_with_compressed_rtf(contents):
    """Where no unwritten position is read (RT3: the oracle reads spaces there), the PyPI
    package decodes the same bytes."""
    stream = _honest_header(contents, 0)
    ours = decompress(stream)
    if K.REFERENCE_BEYOND_DICTIONARY in [d.kind for d in ours.defects]:
        return
    try:
        theirs = compressed_rtf.decompress(stream)
    except Exception:  # it raises on a reference cut after its first byte
        assert ours.defects[0].kind == K.MISSING_END_MARKER
        return
    assert theirs == ours.data


# --------------------------------------------------- the compressor against a plain model

def model_contents(rtf: bytes, lazy: bool = False, limit: int = 128) -> bytes:
    """Spec 002 "Compression" written plainly (RT9, RT10): slow, obviously right."""
    from onemail.rtf.compressed import PRELOAD

    buf = PRELOAD + rtf
    end = len(buf)

    def longest(w):
        if w + 1 >= end:
            return 0, 0
        cands = [p for p in range(max(0, w - 4095), w) if buf[p:p + 2] == buf[w:w + 2]][-limit:]
        best, best_p = 0, 0
        for p in cands:  # oldest first; only a longer match replaces
            n = 0
            while n < min(17, end - w) and buf[p + n] == buf[w + n]:
                n += 1
            if n > best:
                best, best_p = n, p
        return best, best_p

    tokens = []
    w = len(PRELOAD)
    while w < end:
        n, p = longest(w)
        if lazy and 2 <= n < 17 and longest(w + 1)[0] > n:
            n = 0
        if n >= 2:
            tokens.append(((p & 4095) << 4 | (n - 2)).to_bytes(2, "big"))
            w += n
        else:
            tokens.append(buf[w:w + 1])
            w += 1
    tokens.append(((w & 4095) << 4).to_bytes(2, "big"))
    out = bytearray()
    for i in range(0, len(tokens), 8):
        group = tokens[i:i + 8]
        out.append(sum(1 << b for b, t in enumerate(group) if len(t) == 2))
        out += b"".join(group)
    return bytes(out)


@settings(max_examples=30, deadline=None)
@given(data=st.one_of(
    st.binary(max_size=300),
    st.lists(st.sampled_from([b"a", b"b", b"ab", b"\\par ", b"{\\rtf1", b"\x00"]),
             max_size=1500).map(b"".join)),
    lazy=st.booleans())
def test_compressor_equals_the_plain_model(data, lazy):
    # Two-letter text puts far more than 128 candidates in the window (the limit matters).
    assert compress(data, level=2 if lazy else 1)[16:] == model_contents(data, lazy)


def test_candidate_limit_changes_the_choice():
    # 200 copies of "ab" then "abX...": the newest 128 "ab" positions are the candidates.
    data = b"abc" + b"ab" * 200 + b"abc"
    assert compress(data)[16:] == model_contents(data)
    assert model_contents(data, limit=1000) != model_contents(data)  # the old "abc" is not seen
