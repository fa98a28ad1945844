"""Western text read as a CJK page, repaired back (D44, D45; spec 004 "Repair")."""

from __future__ import annotations

import pytest

from onemail.detect import Repair, repair
from onemail.detect._langmodel import page_log_likelihood


def _moji(text: str, right: str, wrong: str) -> str:
    return text.encode(right).decode(wrong)


def test_d44_a_sign_between_ascii_is_no_language() -> None:
    # "’s" read as GBK is one ideograph; its reading back holds no letter, only the sign
    original = "Of, ietsch tande rbed ete be, tieuwse\u2019s voollij. Hemten car m"
    moji = _moji(original, "cp1252", "gbk")
    assert "\u62af" in moji  # 抯
    out = repair(moji)
    assert out.text == original
    assert out.steps == (("gbk", "windows-1252"),)


def test_d44_a_sign_and_a_letter_in_a_row_still_count() -> None:
    # one kana beside ASCII: read back as windows-1252 it is "‚â" (two non-ASCII characters in
    # a row), not the letters of one language: the clean text stays
    for clean in ("BSQR489\u3084LFX488", "Project Wittenburg \u306e", "Adwords.net\u7b49\u3002"):
        assert repair(clean).text == clean


def test_d44_private_use_of_a_shift_jis_reading() -> None:
    # Swedish "ö" and "d" (F6 64) are a user-defined row of cp932: U+E48C
    original = "Ansl nytt ningag gtr\u00f6drigt"
    moji = _moji(original, "cp1252", "cp932")
    assert moji == "Ansl nytt ningag gtr\ue48crigt"
    out = repair(moji)
    assert out.text == original
    assert out.steps == (("shift_jis", "windows-1252"),)


def test_d45_the_cjk_page_whose_letters_fit() -> None:
    # 鏮 is Big5 E7 6E ("ón") and GBK E7 5F ("ç_"): the scores tie, the letters decide
    original = "Mados qu cinunif ici\u00f3nosi entr"
    moji = _moji(original, "cp1252", "big5")
    assert moji == "Mados qu cinunif ici\u93ee" "osi entr"
    out = repair(moji)
    assert out.text == original
    assert out.steps == (("big5", "windows-1252"),)
    # and French "é" + "d" read as Big5 comes back through Big5, not GBK's "ŽM"
    original = "Rm\u00e9diat utr\u00e9ciall ursquil io. Ura, teu"
    assert repair(_moji(original, "cp1252", "big5")).text == original


def test_page_log_likelihood() -> None:
    good = page_log_likelihood("acci\u00f3n".encode("cp1252"), "windows-1252")
    bad = page_log_likelihood("acci\u00e7_".encode("cp1252"), "windows-1252")
    assert good > bad
    assert page_log_likelihood(b"plain ascii", "windows-1252") == 0.0


def test_d46_a_lead_and_one_continuation_of_a_longer_sequence() -> None:
    from onemail.detect._repair import signatures

    # Ukrainian "ні", "ві" are windows-1251's three-byte leads and a continuation byte, then a
    # letter: no sequence; "Ні" (a two-byte lead) still counts
    assert signatures("\u043d\u0456\u0446 \u0432\u0456\u043d") == 0
    assert signatures("\u041d\u0456") == 1
    assert signatures("Caf\u00c3\u00a9") == 1
    assert signatures("l\u00e2\u20ac\u2122s") == 2  # a three-byte run counts twice (D27)
    # UTF-8 Ukrainian read as GBK comes back (its clean reading lost 6 points per "ні")
    original = "\u0410\u043c\u0456\u043d\u0456\u0439 \u043d\u043e\u0457\u043c\u043e\u043b \u0438\u043d\u0430\u0440\u0456\u0454."
    assert repair(original.encode("utf-8").decode("gbk")).text == original


def test_d47_an_ideograph_alone_in_a_patch_stays() -> None:
    # a Chinese comment in a kernel patch (lkml, notmuch corpus): GBK reads 在 back as "ÔÚ",
    # a word of non-ASCII letters only, which Western text never has; Big5 reads 愛 as "·R"
    line = "\t//if (Check_D_MediaPower())        ; \u5728 6250 don't care\n"
    text = "--- a/drivers/staging/x.c\n+++ b/drivers/staging/x.c\n" + line * 40
    assert repair(text).text == text
    assert repair(line).text == line
    assert repair("The word \u611b means love").text == "The word \u611b means love"
    # an accented letter and its ASCII neighbour read as one ideograph still come back
    original = "y \u00e9l dijo que la canci\u00f3n es buena"
    moji = _moji(original, "cp1252", "gbk")
    assert repair(moji).text == original


def test_d47_east_asian_words_alone_in_markup_stay() -> None:
    for clean in ("I vs. \u718a It's Destiny...", "<dc:subject>\u8eab\u8fba</dc:subject>",
                  "\t\t<title>\u7a93</title>"):
        assert repair(clean).text == clean
    # (a Western text whose only accent is a word alone comes back since D85)


def test_d85_an_accented_word_alone_comes_back() -> None:
    # the only accent starts a short word: its CJK character stands alone, touching no ASCII
    # letter; a rare character (no likelier than random as Chinese or Japanese) that reads back
    # as a word whose letters have a language's neighbours is Western text
    for original, page, step in (("\u00c6r unsen som aredkvas erem.", "big5", "big5"),
                                 ("\u00dcs komentotz ierneur melfenn rd ali", "gbk", "gbk"),
                                 ("So dlera landerho ionkters \u00f6r\u00e4f", "gbk", "gbk"),
                                 ("So, esteu. \u00c9t usper reff femettes rest", "big5", "big5")):
        moji = _moji(original, "cp1252", page)
        assert repair(moji) == Repair(original, ((step, "windows-1252"),)), original


def test_d85_east_asian_words_alone_that_stay() -> None:
    from onemail.detect._repair import _neighbours_fit, _no_east_word, _word_shaped

    # common characters (愛, 在, 身辺: likelier than random as Chinese or Japanese) are words
    assert not _no_east_word("\u611b") and not _no_east_word("\u5728") and not _no_east_word("\u8eab\u8fba")
    assert _no_east_word("\u8eb6") and _no_east_word("\u9c0e\u92d0")  # 躶, 鰎鋐: unseen in the profiles
    assert not _no_east_word("\uc0ac\ub791")  # Hangul: Korean's model decides
    # 熊 is unseen in the profiles, but its Shift_JIS and Big5 readings have no word's shape
    assert not _word_shaped("\u0152F") and not _word_shaped("\u00c9\u00ed\u00dex")
    assert _word_shaped("\u00c6r") and _word_shaped("\u00f6r\u00e4f") and _word_shaped("\u00e9")
    # the letters' neighbours: "Ìx" (忞 read through Big5) and "šr" start no word of any language
    assert _neighbours_fit("\u00dcs", "windows-1252") and _neighbours_fit("\u00e9n", "windows-1252")
    assert not _neighbours_fit("\u00ccx", "windows-1252") and not _neighbours_fit("\u0161r", "windows-1252")
    for clean in ("\u5fde<br>", "Id somedufas (\u6b73) onsi ents fulleho bourdu pla", "I vs. \u718a It's Destiny..."):
        assert repair(clean).text == clean


def test_d48_korean_read_as_gbk_or_big5_comes_back() -> None:
    original = "\uc18c\uc758\uc6c0, \uc9c0\ub300, \uc6d0\uc5d0 \ud574 \ubc29\ub300 \uc801\uace0\ub97c\uae30."
    for page, name in (("gbk", "gbk"), ("big5", "big5")):
        moji = original.encode("euc_kr").decode(page)
        out = repair(moji)
        assert out.text == original, name
        assert out.steps == ((name, "euc-kr"),)
    # clean Chinese stays Chinese (its EUC-KR reading has few common syllables)
    for clean in ("\u4e2d\u6587\u7684\u6587\u5b57\uff0c\u6211\u4eec\u90fd\u559c\u6b22\u3002",
                  "\u5317\u4eac \u4e0a\u6d77 \u5e7f\u5dde"):
        assert repair(clean).text == clean


def test_d49_non_latin_letters_inside_an_ascii_word() -> None:
    for original in ("M\u00e1rorca", "Mpodeli, nt inci\u00f3ng uega"):
        moji = original.encode("utf-8").decode("cp1251")
        out = repair(moji)
        assert out.text == original
        assert out.steps == (("windows-1251", "utf-8"),)
    # homoglyphs stay (a visible case: Cyrillic "е" in an English word)
    assert repair("K\u0435\u0435p pushin to the top bwoy!").text == "K\u0435\u0435p pushin to the top bwoy!"


def test_d78_an_ascii_sign_inside_a_word_is_no_reading() -> None:
    # 鋊 is GBK E4 60 ("ä`") and Big5 E8 73 ("ès"); 黶 is GBK FC 73 ("üs") and Big5 F9 7D ("ù}"):
    # the reading that puts a backtick or a brace inside the word loses
    for original, page, step in (("Avard \u00e8sechiles rendr occ", "big5", "big5"),
                                 ("Nem\u00fcss. Ritlials. Ernsche elc gradierse.", "gbk", "gbk")):
        assert repair(_moji(original, "cp1252", page)) == Repair(original, ((step, "windows-1252"),))
    from onemail.detect._repair import _not_in_words

    # a guillemet or an inverted question mark inside a word, a capital after a small letter
    assert [_not_in_words(t) for t in ("a\u00e5\u00bbe", "ngr\u00bfOzi", "Uktie\u00c4b", "DieRi")] == [1, 1, 1, 1]
    assert [_not_in_words(t) for t in ("a\u00e7\u00f5e", "Uktie\u00dft", "l\u2019\u00e9t\u00e9", "col\u00b7lecci\u00f3",
                                        "don't, e.g. well-known")] == [0, 0, 0, 0, 0]


def test_d79_western_accents_of_no_single_language() -> None:
    from onemail.detect._repair import _one_language, _western_letters

    # a Spanish title and a Portuguese name: no language has both "ñ" and "ã"
    original = "Se\u00f1or Jo\u00e3o da Silva chegou"
    assert not _one_language(original) and _western_letters(original)
    for page in ("gbk", "big5", "cp932"):
        assert repair(_moji(original, "cp1252", page)).text == original, page
    # a sign closes a word's accents: "‚â" (Shift_JIS "や") opens none; "ú°" has a symbol
    assert not _western_letters("BSQR489\u201a\u00e2LFX488")
    assert not _western_letters("verl\u00fa\u00b0 sociddred")
    assert _western_letters("\u201cIliters\u00e9r\u201d\u2026 Medandi")
    for clean in ("BSQR489\u3084LFX488", "Wora nexitiong. Antene ma\u6eab ideresta",
                  "Slyl hernspris etw verl\u89e3 sociddred, ha atchign"):
        assert repair(clean).text == clean


def test_d73_an_ideograph_between_ascii_in_mostly_east_asian_text() -> None:
    for original, page, right in (("\u76ee\u524d\u5e02\u9762\u4e0a\u7684\u5f88\u591a\u5c0f\u4ea7\u54c1\u53ea\u6709"
                                   "1\u4e2aSD\u5361\u63d2\u69fd", "gbk", "gbk"),
                                  ("\u3053\u308c\u3092SI\u696d\u754c\u3067\u8a00\u3048\u3070SIer\u306f", "cp932",
                                   "shift_jis")):
        moji = original.encode(page).decode("cp1252")
        assert repair(moji) == Repair(original, (("windows-1252", right),))
    # Western text read as GBK keeps the rule: an ideograph against ASCII letters in Latin prose
    for clean in ("Se\u00f1or M\u00fcller", "El ni\u00f1o", "\u00d1o\u00f1o", "S\u00e3o Paulo"):
        assert repair(clean).text == clean


def test_d86_the_ascii_letters_the_trail_bytes_become() -> None:
    from onemail.detect._langmodel import ascii_letter_log_likelihood

    # 鉶 is GBK E3 6F ("ão") and Big5 E4 78 ("äx"); 髊 is Big5 F5 65 ("õe") and GBK F3 71
    # ("óq"): the non-ASCII letters alone favour "ä" and "ó", the letters after them decide
    for original, page in (("Era v\u00e3o", "gbk"), ("Mossossi esoroste eus\u00f5estr s", "big5"),
                           ("Aravraesp dasso \u00f5est da rechuman as, \u00edve", "big5")):
        moji = _moji(original, "cp1252", page)
        assert repair(moji) == Repair(original, ((page, "windows-1252"),)), original
    assert ascii_letter_log_likelihood(b"o") > ascii_letter_log_likelihood(b"x")
    assert ascii_letter_log_likelihood(b"E") == ascii_letter_log_likelihood(b"e")  # (case-folded)
    assert ascii_letter_log_likelihood(b"\xe3 - 1") == 0.0


def test_d87_one_archaic_greek_letter_is_no_reading() -> None:
    # Danish "Ås" read as GBK is 舠 (C5 73); its Big5 bytes, CD B1, read as UTF-8 are "ͱ"
    # (GREEK SMALL LETTER HETA): one archaic letter, no symbol as "γ" may be, and the UTF-8
    # reading won over the Western one (D11)
    original = "For ejdsk. \u00c5s"
    moji = _moji(original, "cp1252", "gbk")
    assert moji == "For ejdsk. \u8220"
    assert repair(moji) == Repair(original, (("gbk", "windows-1252"),))
    for clean in ("IL2R\u03b3", "x \u03d1 y", "IL2R\u0371"):
        assert repair(clean).text == clean


def test_d88_quotes_around_a_word_without_an_accent() -> None:
    from onemail.detect._repair import _alone_runs_are_words, _signs_at_words

    # German quotes and an ellipsis in windows-1252 read as Shift_JIS: 兎 (93 65) and 賠 (94 85);
    # no letter comes back, only typography at a word's edges (EUC-KR's reading was taken,
    # "÷ÍrdeÛÓ")
    original = "Ic \u201cerde\u201d\u2026 Ich"
    moji = _moji(original, "cp1252", "cp932")
    assert moji == "Ic \u514erde\u8ce0 Ich"
    assert repair(moji) == Repair(original, (("shift_jis", "windows-1252"),))
    assert [_signs_at_words(t) for t in ("\u201cerde\u201d\u2026", "don\u2019t", "\u00bfqu\u00e9")] == [True, True, True]
    # a sign inside a word, a closing mark opening one, marks touching no letter: Shift_JIS
    # text glued to English words stays
    assert [_signs_at_words(t) for t in ("\u201cI\u2013k\u2039\u2026m", "\u2019B\u201a\u00abmp", "\u201a\u00b7r",
                                         " \u2013 ")] == [False] * 4
    for clean in ("Ionrenti \u7684\u5317\u7403mandshela getediess", "De also edn \u9054\u304dmp readie",
                  "Ingso barl, assio nov ori sakospe ded, \u3059r"):
        assert repair(clean).text == clean
    # a run alone that opens a quoted word ("“e", the text cut short) reads back as a word
    assert _alone_runs_are_words("Sidtedere \u8aa1till \u514e", "shift_jis", "windows-1252")


@pytest.mark.xfail(strict=True, reason="known limit (issue 17 item 4): a letter only the text's own language "
                   "writes, with that language left out of the model (bench/repair.py's cross-validation): "
                   "Portuguese 'ã' is unseen, costs FLOOR, and Big5's 'äx' (Finnish, Swedish) wins over GBK's "
                   "'ão' by 10 nats; generated iso-8859-1>gbk short 90 %, long 95 %, windows-1252>gbk short "
                   "90 %, windows-1252>big5 short 95 % ('çã')")
def test_limit_a_letter_of_the_left_out_language_only() -> None:
    import subprocess
    import sys
    from pathlib import Path

    import onemail

    code = (
        "from onemail.detect._tables import language as t\n"
        "for table in (t.LANGUAGES, t.COMMON_LETTERS, t.CONTEXTS, t.ASCII_LETTERS):\n"
        "    table.pop('portuguese', None)\n"
        "for page in t.PAGE_LANGUAGES.values():\n"
        "    page.pop('portuguese', None)\n"
        "from onemail.detect import repair\n"
        "print(repair('Era v\\u9276').text)\n"
    )
    src = str(Path(onemail.__file__).resolve().parent.parent)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, encoding="utf-8",
                       env={"PYTHONPATH": src, "PYTHONIOENCODING": "utf-8"}, check=True)
    assert r.stdout.strip() == "Era v\u00e3o"
