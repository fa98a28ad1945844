"""Hypothesis strategies shared by the property tests (house style section 5)."""

from __future__ import annotations

from hypothesis import strategies as st

# Bytes that start, continue or break multi-byte sequences of some family, plus ASCII that
# decoders must re-read after an invalid lead, CR/LF, ESC/SO/SI (ISO-2022), "+"/"-" (UTF-7) and
# the surrogate halves of UTF-16/32.
INTERESTING_BYTES = bytes(
    [0x00, 0x0A, 0x0D, 0x0E, 0x0F, 0x1B, 0x24, 0x28, 0x29, 0x2B, 0x2D, 0x30, 0x39, 0x40, 0x41, 0x42,
     0x4A, 0x7E, 0x7F, 0x80, 0x81, 0x8E, 0x8F, 0x9F, 0xA0, 0xA1, 0xBF, 0xC2, 0xD8, 0xDC, 0xDF, 0xE0,
     0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFE, 0xFF]
)

_interesting = st.sampled_from(INTERESTING_BYTES)


@st.composite
def near_valid_bytes(draw, charset, max_chars: int = 40) -> bytes:
    """Bytes of some text in ``charset`` with damage: inserted bytes, cuts and deletions.

    :param charset: a :class:`onemail.text.Charset` (its encoder makes the valid part).
    """
    text = draw(st.text(max_size=max_chars))
    data = bytearray(charset.encode(text))
    for _ in range(draw(st.integers(0, 4))):
        op = draw(st.integers(0, 2))
        at = draw(st.integers(0, len(data)))
        if op == 0:
            data[at:at] = draw(st.binary(min_size=1, max_size=3) | st.lists(_interesting, min_size=1, max_size=3).map(bytes))
        elif op == 1:
            del data[at:at + draw(st.integers(1, 2))]
        else:
            del data[at:]
    return bytes(data)


def any_bytes(charset, max_size: int = 80):
    """Random bytes, bytes from the interesting set, or near-valid bytes of ``charset``."""
    return st.one_of(
        st.binary(max_size=max_size),
        st.lists(_interesting, max_size=max_size).map(bytes),
        near_valid_bytes(charset),
    )


@st.composite
def split_points(draw, data: bytes) -> list[int]:
    """Sorted cut positions (0..len(data), repeats allowed: empty chunks) for chunked decoding."""
    cuts = draw(st.lists(st.integers(0, len(data)), max_size=6))
    return sorted(cuts)
