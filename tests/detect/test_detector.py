"""``detect()`` (onemail.detect._detector): one sentence per family, BOMs, bytes-likes, types.

The rules one by one: tests/spec/test_detect_rules.py; near ties: tests/detect/test_near_ties.py;
the corpus: tests/regressions/test_detect_corpus.py."""

from __future__ import annotations

import pytest

from onemail.detect import Candidate, Detection, detect

RUSSIAN = "Привет, как дела? Всё хорошо."


@pytest.mark.parametrize(("text", "codec", "charset"), [
    ("Grüße aus Köln", "utf-8", "utf-8"),
    (RUSSIAN, "cp1251", "windows-1251"),
    (RUSSIAN, "koi8-r", "koi8-r"),
    ("Zażółć gęślą jaźń, to jest polski tekst.", "iso-8859-2", "iso-8859-2"),
    ("こんにちは、元気ですか", "shift_jis", "shift_jis"),
    ("안녕하세요 반갑습니다 오늘 날씨가 좋네요", "euc-kr", "euc-kr"),
])
def test_one_sentence_of_each_family(text, codec, charset):
    found = detect(text.encode(codec))
    assert (found.charset, found.candidates[0].charset) == (charset, charset)
    assert found.confidence >= 96


def test_a_byte_order_mark_is_the_one_candidate():
    assert detect(b"\xef\xbb\xbfhi") == Detection("utf-8", 100, (Candidate("utf-8", 100),))
    assert detect(b"\xff\xfeh\x00i\x00") == Detection("utf-16le", 100, (Candidate("utf-16le", 100),))


def test_ascii_and_empty_input_are_utf_8_with_high_confidence():
    """D56: 7-bit input decodes alike under every ASCII-compatible candidate (not 0, the
    spec's "indistinguishable"); KOI8-R-like ties of alike readings do not lower it either."""
    assert (detect(b"").charset, detect(b"").confidence) == ("utf-8", 100)
    assert (detect(b"plain ascii").charset, detect(b"plain ascii").confidence) == ("utf-8", 99)
    assert detect(b"ASCII control data\x00\x01 with NULs").confidence == 99


def test_bytes_likes_and_wrong_types():
    assert detect(bytearray("Grüße".encode())).charset == detect(memoryview("Grüße".encode())).charset == "utf-8"
    for bad in ("text", None, 5):
        with pytest.raises(TypeError, match="data must be bytes-like"):
            detect(bad)  # type: ignore[arg-type]


def test_utf_8_rule_confidence_is_the_chance_of_its_margin():
    """D96: valid Greek UTF-8 whose two-byte sequences GBK reads as ideographs (runner-up 84)
    is no 48 (the design's three times the margin) but the chance D36's curve gives that
    margin; a runner-up a third of the scale behind still gives 100."""
    found = detect("Ελληνικά".encode())
    assert (found.charset, found.candidates[1].score) == ("utf-8", 84)
    assert found.confidence == 99
    assert detect("日本語のテキスト".encode()).confidence == 100
