"""Properties of the CJK decoders: the fast path equals the reference; chunking changes nothing.

For gb18030, GBK, Big5, EUC-JP, Shift_JIS and EUC-KR and any bytes (random, built from the
families' interesting bytes, or near-valid text with damage):

* decoding never raises and every issue lies inside the input;
* the decoder as used (C codec, error handler, line-wise fallback) gives exactly the text and
  issues of the pure-Python reference state machine (Encoding Standard decoders);
* streaming through ``IncrementalDecoder`` at random split points equals one-shot decoding, and
  ``decode_chunk`` with ``final=False`` consumes only bytes whose decoding is final.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import near_valid_bytes, split_points

from onemail.text import for_label

LABELS = ["gb18030", "gbk", "big5", "euc-jp", "shift_jis", "euc-kr", "johab"]
# Leads, trails, digits, the suspect units' bytes and ASCII bytes that get restored.
CJK_BYTES = bytes([0x0A, 0x30, 0x35, 0x39, 0x37, 0x40, 0x41, 0x42, 0x45, 0x59, 0x62, 0x7E, 0x7F,
                   0x80, 0x81, 0x84, 0x88, 0x8E, 0x8F, 0x90, 0xA0, 0xA1, 0xA2, 0xA3, 0xA6, 0xA8,
                   0xB7, 0xBC, 0xC1, 0xC7, 0xDF, 0xE0, 0xE3, 0xF0, 0xF4, 0xF9, 0xFC, 0xFD, 0xFE, 0xFF])
# Whole pieces: the C codecs' suspect units (scripts/gen/cjk.py), errors, leads, text.
PIECES = [b"\xa2\x41", b"\xa2\x42", b"\xa1\x45", b"\xa1\xc1", b"\x8f\xa2\xb7", b"\x81\x35\xf4\x37",
          b"\xa3\xa0", b"\xa6\xd9", b"\xa8\xbc", b"\xfe\x59", b"\xfd", b"\xa0", b"\x80", b"\xff",
          b"\x81\x30", b"\x81", b"\x8e", b"\x8f", b"a", b" ", b"\n", b"0", b"\xa4\xa2", b"\x82\xa0",
          b"\xb0\xa1", b"\xc4\xe3"]
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def cjk_bytes(label: str):
    cs = for_label(label)
    return st.one_of(
        st.binary(max_size=60),
        st.lists(st.sampled_from(CJK_BYTES), max_size=60).map(bytes),
        near_valid_bytes(cs),
        st.lists(st.sampled_from(PIECES), max_size=40).map(b"".join),
    )


@SETTINGS
@given(data=st.data(), label=st.sampled_from(LABELS))
def test_equals_reference_and_issues_lie_inside(data, label):
    raw = data.draw(cjk_bytes(label), label="bytes")
    cs = for_label(label)
    issues: list = []
    text = cs.decode(raw, issues)
    for i in issues:
        assert 0 <= i.offset and 0 < i.length and i.offset + i.length <= len(raw)
    assert text.count("\ufffd") >= len(issues)
    if label != "johab":
        ref: list = []
        assert (text, issues) == (cs._codec.reference_decode(raw, ref, 0)[0], ref)


@SETTINGS
@given(data=st.data(), label=st.sampled_from(LABELS))
def test_chunked_equals_one_shot(data, label):
    raw = data.draw(cjk_bytes(label), label="bytes")
    cuts = data.draw(split_points(raw), label="cuts")
    cs = for_label(label)
    whole: list = []
    text = cs.decode(raw, whole)
    dec = cs.new_decoder()
    parts: list = []
    out = []
    prev = 0
    for c in [*cuts, len(raw)]:
        out.append(dec.decode(raw[prev:c], issues=parts))
        prev = c
    out.append(dec.decode(b"", final=True, issues=parts))
    assert "".join(out) == text
    assert parts == whole


@SETTINGS
@given(data=st.data(), label=st.sampled_from(LABELS[:-1]))
def test_non_final_chunk_consumes_only_final_bytes(data, label):
    raw = data.draw(cjk_bytes(label), label="bytes")
    codec = for_label(label)._codec
    text, consumed, state = codec.decode_chunk(raw, None, 0, False, None)
    assert state is None and 0 <= consumed <= len(raw)
    # At most the standard's consumption (a C lead the standard rejects at once, Big5 0x80, may
    # be held back too); what was consumed decodes the same on its own and is the reference's
    # text for it; the rest is at most one unfinished sequence.
    assert consumed <= codec.reference_decode(raw, None, 0, final=False)[1]
    assert text == codec.reference_decode(raw[:consumed], None, 0, final=False)[0]
    assert codec.decode(raw[:consumed], None, 0) == text
    assert len(raw) - consumed <= 3
