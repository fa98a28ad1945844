"""MS-OXRTFCP conformance: the worked examples of section 3.1 (4 in older revisions), the
preloaded dictionary, the CRC definition and the end-marker-only stream (spec 002
"Compressed RTF"). The examples are read from the corpus, where they are stored as
``MS-OXRTFCP--3.1.1-simple`` and ``MS-OXRTFCP--3.1.2-crossing-writepos``; the hex below is
the specification's printed bytes, so the tests also run without the corpus."""

from __future__ import annotations

import random

import pytest
from paths import CORPUS

from onemail.rtf import compress, crc32, decompress
from onemail.rtf.compressed import PRELOAD, crc32_reference

SIMPLE_RTF = b"{\\rtf1\\ansi\\ansicpg1252\\pard hello world}\r\n"
SIMPLE = bytes.fromhex(
    "2d0000002b0000004c5a4675f1c5c7a703000a007263706731323542320af320"
    "68656c090020627705b06c647d0a800fa0"
)
CROSSING_RTF = b"{\\rtf1 WXYZWXYZWXYZWXYZWXYZ}"
CROSSING = bytes.fromhex("1a0000001c0000004c5a4675e2d44b51410004205758595a0d6e7d010eb0")
EXAMPLES = [("3.1.1-simple", SIMPLE_RTF, SIMPLE), ("3.1.2-crossing-writepos", CROSSING_RTF, CROSSING)]


@pytest.mark.parametrize(("name", "rtf", "stream"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_worked_example_decompresses(name, rtf, stream):
    result = decompress(stream)
    assert result.data == rtf
    assert result.defects == ()
    assert result.crc_verified is True


@pytest.mark.parametrize(("name", "rtf", "stream"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_worked_example_compresses_byte_for_byte(name, rtf, stream):
    assert compress(rtf) == stream
    assert compress(rtf, level=2) == stream  # nothing for lazy matching to improve here


@pytest.mark.parametrize(("name", "rtf", "stream"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_worked_examples_match_the_corpus_copies(corpus, name, rtf, stream):
    base = f"MS-OXRTFCP--{name}"
    assert (CORPUS / "rtf" / "compressed" / f"{base}.bin").read_bytes() == stream
    assert (CORPUS / "rtf" / "rtf" / f"{base}.rtf").read_bytes() == rtf


def test_header_fields_of_the_simple_example():
    # COMPSIZE counts the bytes after itself; RAWSIZE the RTF; CRC over the contents.
    assert int.from_bytes(SIMPLE[0:4], "little") == len(SIMPLE) - 4 == 45
    assert int.from_bytes(SIMPLE[4:8], "little") == len(SIMPLE_RTF) == 43
    assert SIMPLE[8:12] == b"LZFu"
    assert int.from_bytes(SIMPLE[12:16], "little") == crc32(SIMPLE[16:]) == 0xA7C7C5F1


def test_preloaded_dictionary():
    assert len(PRELOAD) == 207
    assert PRELOAD.startswith(b"{\\rtf1\\ansi\\mac\\deff0\\deftab720{\\fonttbl;}")
    assert PRELOAD.endswith(b"\\par \\pard\\plain\\f0\\fs20\\b\\i\\u\\tab\\tx")


def test_empty_input_is_the_end_marker_only():
    stream = compress(b"")
    assert stream[16:] == bytes.fromhex("010cf0")
    assert stream[:12] == bytes.fromhex("0f000000000000004c5a4675")
    result = decompress(stream)
    assert (result.data, result.defects, result.crc_verified) == (b"", (), True)


def test_outlook_empty_body_is_one_nul_byte():
    """RT8: Outlook writes a NUL literal before the end marker; the reader keeps it."""
    contents = bytes.fromhex("02000d00")  # literal NUL, then the end marker at 208
    stream = (len(contents) + 12).to_bytes(4, "little") + (1).to_bytes(4, "little") + b"LZFu"
    stream += crc32(contents).to_bytes(4, "little") + contents
    result = decompress(stream)
    assert (result.data, result.defects, result.crc_verified) == (b"\x00", (), True)


def test_crc_equals_the_table_driven_definition():
    rng = random.Random(5)
    samples = [b"", b"\x00", b"\xff" * 7, SIMPLE[16:], CROSSING[16:]]
    samples += [rng.randbytes(rng.randrange(1, 3000)) for _ in range(40)]
    for sample in samples:
        assert crc32(sample) == crc32_reference(sample)
        half = len(sample) // 2
        assert crc32(sample[half:], crc=crc32(sample[:half])) == crc32(sample)


def test_crc_has_no_inversion():
    # Start 0 and no final inversion: the CRC of NUL bytes is 0, unlike zlib's CRC-32.
    assert crc32(b"\x00" * 10) == 0
    assert crc32_reference(b"\x01") == 0x77073096  # table[1] of polynomial 0xEDB88320
