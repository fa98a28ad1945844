"""The ``onemail-<name>`` Python codecs with error handlers other than ``"replace"`` when the
text holds a literal U+FFFD (issue 16: 40 kB took 5.9 s; one streaming pass now, same results).
"""

from __future__ import annotations

import codecs
import random

import pytest

from onemail.text import charsets
from onemail.text import codec_registry as registry


def _tag(exc: UnicodeDecodeError):
    return (f"<{exc.start}:{exc.end}>", exc.end)


codecs.register_error("test.tag", _tag)


def test_utf_8_ignore_with_literal_replacement_characters():
    data = b"\xef\xbf\xbd\xff" * 10000  # 40 kB: the case of issue 16
    assert data.decode("onemail-utf-8", "ignore") == "\ufffd" * 10000
    assert data.decode("onemail-utf-8", "backslashreplace") == "\ufffd\\xff" * 10000
    assert data[:12].decode("onemail-utf-8", "test.tag") == "\ufffd<3:4>\ufffd<7:8>\ufffd<11:12>"


@pytest.mark.parametrize(("name", "data", "errors", "text"), [
    ("onemail-utf-7", b"+//0-\x80" * 1000, "ignore", "\ufffd" * 1000),
    ("onemail-utf-7", b"a+//0-\x80b", "test.tag", "a\ufffd<6:7>b"),
    ("onemail-gb18030", b"\x84\x31\xa4\x37\xff" * 1000, "ignore", "\ufffd" * 1000),
    ("onemail-utf-16le", b"\xfd\xff\x00\xdc" * 1000, "ignore", "\ufffd" * 1000),
    ("onemail-utf-16be", b"\xff\xfd\xdc\x00a\x00", "test.tag", "\ufffd<2:4>\u6100"),
])
def test_other_charsets(name, data, errors, text):
    assert data.decode(name, errors) == text


def test_incremental_decoder_with_a_literal_replacement_character():
    """It raised ("use 'replace'") when a chunk held one; it now finds each issue's U+FFFD."""
    data = b"x\xef\xbf\xbd\xffy\xef\xbf\xbd\xc3"
    for cut in range(len(data) + 1):
        dec = codecs.getincrementaldecoder("onemail-utf-8")("ignore")
        assert dec.decode(data[:cut]) + dec.decode(data[cut:], final=True) == "x\ufffdy\ufffd", cut
    dec = codecs.getincrementaldecoder("onemail-utf-8")("test.tag")
    assert dec.decode(data[:6]) == "x\ufffd<4:5>y"  # offsets into the chunk, as Python's
    assert dec.decode(data[6:], final=True) == "\ufffd<3:4>"


def _literals(cs):
    return {"utf-8": b"\xef\xbf\xbd", "gb18030": b"\x84\x31\xa4\x37", "utf-16le": b"\xfd\xff",
            "utf-16be": b"\xff\xfd", "utf-7": b"+//0-", "utf-32le": b"\xfd\xff\x00\x00",
            "utf-32be": b"\x00\x00\xff\xfd"}.get(cs.key)


@pytest.mark.parametrize("cs", charsets.known_charsets(), ids=lambda cs: cs.key)
def test_the_locator_gives_what_decoding_each_prefix_gives(cs):
    """:class:`_Locator` equals the definition ``len(cs.decode(data[:offset]))``."""
    rng = random.Random(cs.key)
    literal = _literals(cs)
    for _ in range(40):
        parts = []
        for _ in range(rng.randrange(1, 12)):
            r = rng.random()
            if r < 0.3 and literal:
                parts.append(literal)
            elif r < 0.7:
                parts.append(rng.randbytes(rng.randrange(1, 5)))
            else:
                parts.append(rng.choice([b"xyz", b"\x1b$B", b"\x1b(B", b"~{", b"+AGE-"]))
        data = b"".join(parts)
        issues: list = []
        cs.decode(data, issues)
        locate = registry._Locator(cs, data)
        for issue in [i for i in issues if not i.kind.is_ambiguous and i.length]:
            assert locate(issue) == len(cs.decode(data[:issue.offset])), (data, issue)


@pytest.mark.parametrize("key", ["utf-8", "utf-7", "gb18030", "shift_jis", "iso-2022-jp", "utf-16le"])
def test_decoding_in_chunks_equals_decoding_at_once(monkeypatch, key):
    """Long inputs are decoded for the handler in chunks; the result is the same."""
    cs = charsets.for_label(key)
    rng = random.Random(key)
    data = b"".join(rng.choice([b"\xef\xbf\xbd", b"\xff", b"ab", b"\x1b$B", b"+//0-", b"\x81",
                                rng.randbytes(3)]) for _ in range(300))
    name = f"onemail-{cs.key}"
    want = {e: data.decode(name, e) for e in ("ignore", "test.tag", "backslashreplace")}
    monkeypatch.setattr(registry, "_CHUNK", 7)
    registry._cache.clear()
    try:
        for errors, text in want.items():
            assert data.decode(name, errors) == text, errors
    finally:
        registry._cache.clear()


def test_utf_8_literal_replacement_characters_next_to_errors_in_one_pass():
    # EF BF BD right after a cut sequence (E0, F0 9F 98) and an unpaired surrogate (ED A0 80):
    # each EF starts a sequence, so every EF BF BD is a literal U+FFFD, and the issues' U+FFFD
    # fall between them (codec_registry._Locator.indexes merges both by byte offset)
    unit = b"\xe0\xef\xbf\xbd\xf0\x9f\x98\xef\xbf\xbd\xed\xa0\x80\xef\xbf\xbdx"
    data = unit * 20_000  # 340,000 bytes: more than one chunk of the handler path
    assert data.decode("onemail-utf-8", "ignore") == "\ufffd\ufffd\ufffdx" * 20_000
    assert data[:17].decode("onemail-utf-8", "backslashreplace") == (
        "\\xe0\ufffd\\xf0\\x9f\\x98\ufffd\\xed\\xa0\\x80\ufffdx")
    assert data[:17].decode("onemail-utf-8", "test.tag") == (
        "<0:1>\ufffd<4:7>\ufffd<10:11><11:12><12:13>\ufffdx")
    dec = codecs.getincrementaldecoder("onemail-utf-8")("ignore")
    text = "".join(dec.decode(data[k:k + 7]) for k in range(0, 17 * 100, 7)) + dec.decode(b"", True)
    assert text == "\ufffd\ufffd\ufffdx" * 100
