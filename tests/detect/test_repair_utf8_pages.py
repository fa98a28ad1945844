"""UTF-8 read as the pages of D9 beyond windows-1252, and what came with them (D54, D70-D77;
spec 004 "Repair")."""

from __future__ import annotations

import pytest

from onemail.detect import Repair, repair
from onemail.detect._repair import rare_chars


def _moji(text: str, page: str) -> str:
    return text.encode("utf-8").decode(page)


@pytest.mark.parametrize(("original", "page", "steps"), [
    ("It\u2019s fine \u2013 really", "cp1257", (("windows-1257", "utf-8"),)),
    ("Rock\u2019n\u2019roll", "cp1257", (("windows-1257", "utf-8"),)),
    ("Tr\u00e8s bien", "cp1257", (("windows-1257", "utf-8"),)),
    ("Ein Dankesch\u00f6n", "iso8859_2", (("iso-8859-2", "utf-8"),)),
    ("Das Gem\u00fcse", "iso8859_2", (("iso-8859-2", "utf-8"),)),
])
def test_d70_the_pages_own_runs_are_signatures(original: str, page: str, steps: tuple) -> None:
    moji = _moji(original, page)
    assert moji != original
    assert repair(moji) == Repair(original, steps)


def test_d70_runs_that_tell_nothing_stay() -> None:
    # ftfy's negative and real-world cases: capitals of one word, a no-break space after a letter,
    # quotes typed as accents, a letter before two punctuation marks
    for clean in ("H\u00c5\u00d8YA ER BL\u00c5\u00d8YD", "SELK\u00c4\xa0EDELL\u00c4\xa0MAAHAN via @YouTube",
                  "voce nao vai pegar o trem pra l\u00e1\u00b4\u00b4",
                  "I'm not such a fan of Charlotte Bront\u00eb\u2026\u201d"):
        assert repair(clean) == Repair(clean, ()), clean


@pytest.mark.parametrize(("original", "page"), [
    ("A h\u00e1z \u00e1ra", "iso8859_2"),                     # lĂĄ: windows-1250 reads "å"
    ("Yadoun on stabalo cest\u00e1 manta", "iso8859_2"),      # (a known limit of stop 21)
    ("Ein Dankesch\u00f6n", "iso8859_2"),                     # windows-1250 reads "Ü" inside the word
])
def test_d71_the_reading_whose_letters_fit(original: str, page: str) -> None:
    moji = _moji(original, page)
    out = repair(moji)
    assert out.text == original
    assert out.steps == (("iso-8859-2", "utf-8"),)


@pytest.mark.parametrize(("original", "page", "moji"), [
    ("\u00c0 bient\u00f4t", "cp1257", None),
    ("Rm iki nc te \u00fcnla", "cp1257", "Rm iki nc te \u0106\u00bcnla"),  # (a known limit of stop 21)
    ("\u00c4rger", "cp1257", "\u0106\u201erger"),          # an opening quote inside the word
    ("\u00c4rger", "iso8859_2", "\u0102\x84rger"),          # a C1 control inside the word
    ("\u017dluva", "mac_roman", "\u2248\u03a9luva"),         # Mac Roman's lead of Latin Extended-A
])
def test_d72_a_sign_inside_a_word(original: str, page: str, moji: str | None) -> None:
    made = _moji(original, page)
    if moji is not None:
        assert made == moji
    assert repair(made).text == original


def test_d72_a_spacing_accent_after_a_letter_is_no_sign() -> None:
    # "Lørdag" as windows-1250: Ă¸ after a capital may be a word (D29), and the cedilla is a
    # spacing accent careless typing puts after a letter
    assert repair("L\u0102\u00b8rdag den 9.").steps == ()
    assert repair("Bremer/Mccoy \u2013 Dr\u00c3\u00a5ber").steps == ()  # (windows-1252: ftfy negative)


def test_d54_letters_glued_to_the_front_of_an_ascii_word_too() -> None:
    from onemail.detect._repair import _glued_letters

    assert _glued_letters("\u2248\u03a9luva") == 1
    assert _glued_letters("Op\u0413\u00a9cli") == 1  # (D54's side)
    assert _glued_letters("\u03a9 is ohm, \u03b1-helix, TGF\u03b21") == 0


def test_d74_every_letter_of_the_greek_hebrew_arabic_thai_blocks() -> None:
    # letters of the modern alphabets, whether the model has their language's counts or not;
    # marks and points, archaic and Coptic letters stay rare (GBK's bytes of 結構 read as UTF-8
    # are "\u033f\u03f0", a line of the detect corpus)
    assert rare_chars("\u03b1\u03ce \u05d0\u05ea \u0628\u064a \u0e01\u0e2e") == 0
    assert rare_chars("\u05b0") == 1
    assert rare_chars("\u0371\u03e2") == 2
    assert repair("PT GETFPREGS (fpreg \u7d50\u69cb)").steps == ()
    for original, page in (("\u039a\u03b1\u03bb\u03b7\u03bc\u03ad\u03c1\u03b1 \u03c3\u03b1\u03c2", "mac_roman"),
                           ("\u05e9\u05dc\u05d5\u05dd \u05e2\u05d5\u05dc\u05dd", "mac_roman"),
                           ("\u039a\u03b1\u03bb\u03b7\u03bc\u03ad\u03c1\u03b1 \u03c3\u03b1\u03c2", "cp437")):
        assert repair(_moji(original, page)).text == original


def test_d75_only_signs_between_ascii_is_western_text() -> None:
    # English apostrophes read back as Shift_JIS were kanji inside the word ("Rock地池oll")
    for clean in ("Rock\u2019n\u2019roll", "rock\u2018n\u2019roll is fine", "\u201cRock\u201dn\u2019roll"):
        assert repair(clean) == Repair(clean, ()), clean
    # Shift_JIS read as windows-1252 with other characters still comes back
    original = "\u30c6\u30b9\u30c8\u3067\u3059\u5730\u6c60"
    assert repair(original.encode("cp932").decode("cp1252")).text == original


def test_d76_one_character_twice_is_no_signature() -> None:
    from onemail.detect._repair import signatures

    # "à" is windows-1252's lead 0xE0 and CP437's continuation 0x85: no page reads "àà" as UTF-8
    assert signatures("L\u00e0\u00e0\u00e0\u00e0\u00e0\u00e0\u00e0\u00e0,") == 0
    assert signatures("F\u00c3\u00b6rst\u00c3\u00a5r") == 2
    for clean in ("L\u00e0\u00e0\u00e0\u00e0\u00e0\u00e0\u00e0\u00e0,", "Ol\u00e9\u00e9\u00e9\u00e9\u00e9 !",
                  "Ahhh l\u00e0\u00e0\u00e0\u00e0\u00e0\u00e0"):
        assert repair(clean) == Repair(clean, ()), clean


def test_d77_a_euc_kr_reading_writes_hangul() -> None:
    # "àà" is EUC-KR E0 E0, the Hanja 薛: a reading of Hanja only is no Korean
    assert "\u00e0\u00e0".encode("cp1252").decode("euc_kr") == "\u859b"
    assert repair("L\u00e0\u00e0\u00e0\u00e0\u00e0\u00e0\u00e0\u00e0").steps == ()
    # Korean read as windows-1252 still comes back
    original = "\uc548\ub155\ud558\uc138\uc694, \ubc18\uac11\uc2b5\ub2c8\ub2e4"
    out = repair(original.encode("euc_kr").decode("cp1252"))
    assert out.text == original
    assert out.steps == (("windows-1252", "euc-kr"),)


def test_d77_hanja_without_hangul_read_as_utf8() -> None:
    for original in ("Billy Idol \u043d\u0430 50!", "\u0421\u0431\u043e\u0433\u043e\u043c Destiny's Child"):
        moji = original.encode("utf-8").decode("euc_kr")
        assert repair(moji) == Repair(original, (("euc-kr", "utf-8"),))
    # one ideograph alone reads as one IPA letter or mark: it stays
    for clean in ("Lask \u53ef cesson uillen ngette", "Idandmien hottlywhi, ine (\u7403) ionse"):
        assert repair(clean).text == clean
