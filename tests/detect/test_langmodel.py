"""The single-byte language model beyond the design (onemail.detect._langmodel): the page given
the language, the neighbours of near-ties, the signs of prose."""

from __future__ import annotations

import doctest

import pytest

from onemail.detect import _langmodel as langmodel
from onemail.detect import detect
from onemail.detect._tables.language import CONTEXTS, PAGE_LANGUAGES
from onemail.text import for_label


def _decodes_right(text: str, python_codec: str) -> bool:
    data = text.encode(python_codec)
    return for_label(detect(data).charset).decode(data) == text


def test_doctests():
    assert doctest.testmod(langmodel).failed == 0


def test_page_languages_are_the_facts_of_usage():
    """D33: the pages each language is written in (scripts/train_detect.py PAGES): Croatian in
    its Windows page and ISO part (2), in ISO-8859-16, whose scope names it (1), never in
    windows-1257; Czech not in ISO-8859-16, which lacks its letters."""
    assert PAGE_LANGUAGES["windows-1250"]["croatian"] == 2
    assert PAGE_LANGUAGES["iso-8859-2"]["croatian"] == 2
    assert PAGE_LANGUAGES["iso-8859-16"]["croatian"] == 1
    assert PAGE_LANGUAGES["iso-8859-16"]["romanian"] == 1
    assert "croatian" not in PAGE_LANGUAGES["windows-1257"]
    assert "czech" not in PAGE_LANGUAGES["iso-8859-16"]
    assert set(PAGE_LANGUAGES["iso-8859-1"]) <= set(PAGE_LANGUAGES["windows-1252"])


def test_language_rarely_written_in_a_page_loses_there():
    """D33, log P(page | language): Slovene has more ISO-8859-2 files than ISO-8859-16 ones, so the
    Croatian 'miša' (š = 0xB9) is not read as ISO-8859-16 'miča'."""
    assert _decodes_right("Pritisnite tipku miša", "iso8859_2")


def test_near_tie_decided_by_neighbours(monkeypatch):
    """D34: Slovak 'ľ' (windows-1250 0xBE) is 'ž' in ISO-8859-2: one byte, a near-tie of the letter
    frequencies; the neighbours (ľ between e and o) decide."""
    text = "Oddeľovač stĺpcov nie je podporovaný"
    assert _decodes_right(text, "cp1250")
    monkeypatch.setattr(langmodel, "CONTEXT_WEIGHT", 0.0)
    assert detect(text.encode("cp1250")).charset == "iso-8859-2"  # without neighbours: wrong


def test_context_ratio_ignores_non_letters_and_unknown_languages():
    window = "Oddeľovač, „stĺpce“".encode("cp1250")
    a = langmodel.context_log_likelihood(window, "windows-1250", "slovak")
    b = langmodel.context_log_likelihood(window, "windows-1250", "no-such-language")
    assert isinstance(a, float) and isinstance(b, float)
    assert langmodel.context_log_likelihood(b"plain ascii", "windows-1250", "slovak") == 0.0
    assert langmodel.context_log_likelihood(b"", "windows-1250", "slovak") == 0.0


def test_contexts_table_shape():
    classes = "abcdefghijklmnopqrstuvwxyz_H"
    for letters in CONTEXTS.values():
        for before, after in letters.values():
            for side in (before, after):
                for item in side.split():
                    assert item[0] in classes and int(item[1:]) > 0


def test_high_byte_counts_carries_the_window():
    counts, letters, context = langmodel.high_byte_counts("Grüße aus Köln".encode("cp1252"))
    # the window starts one byte before the first high byte; then the line-local ASCII letters,
    # then the bytes whose ASCII letters weigh the languages (ASCII_BYTES around the first high
    # byte, on the lines that hold one: here all of them), then the high bytes that start a word
    # of two letters or more (none here, D95), then those after an ASCII letter (D97)
    assert len(context) == 12 and context[7] == "rüße aus Köln".encode("cp1252")
    assert context[8] == letters == 9
    assert context[9] == "Grüße aus Köln".encode("cp1252")
    assert context[10] == b""
    assert context[11] == "üö".encode("cp1252")
    assert langmodel.high_byte_counts(b"l\x92homme, \x92n \x92\x92")[2][11] == b"\x92"
    assert langmodel.high_byte_counts("Ébène à l-Ædida, Éa".encode("latin-1"))[2][10] == b"\xc9\xc6\xc9"
    assert dict(counts) == {0xFC: 1, 0xDF: 1, 0xF6: 1}
    # a three-item context (no window) is still accepted: no neighbours
    assert langmodel.rank_single_byte(counts, letters, context[:3])[0][1] == "windows-1252"


def test_preamble_and_quote_lines_are_not_the_text():
    """D32 (hostile test): an ASCII preamble holds no neighbours; English lines before Russian
    do not count against the share of Cyrillic letters; dense accents are not diluted."""
    head = b"<html><head><title>x</title></head><body>\n" * 60
    assert detect(head + b" Gr\xfc\xdfe aus K\xf6ln").charset == "windows-1252"
    text = "Здравствуйте! Спасибо за быстрый ответ."
    data = b"Hello, see below.\n" * 30 + text.encode("cp1251")
    assert for_label(detect(data).charset).decode(data).endswith(text)
    dense = ("Le cœur déçu mais l'âme plutôt naïve, Louÿs rêva de crapaüter en canoë au delà des îles.\n"
             * 100).encode("cp1252")
    assert detect(dense).charset == "windows-1252"
    _, _, context = langmodel.high_byte_counts(b"Hello there.\nGr\xfc\xdfe\n")
    assert context[8] == 3  # "Gre": the English line is left out


def test_prose_signs_are_not_letters_of_another_page():
    """D33, D34: ® in Spanish text is a sign, not ISO-8859-16 'ź': the neighbours of a near-tie are read
    only for bytes both pages make letters ('ź' after 'Acme' must not earn context)."""
    for text in ("Catálogo Marca® 2024 © Todos los derechos reservados. ¿Qué modelo prefiere?",
                 "Ofertas: Acme® Pro, Acme® Max, Acme® Mini. Envío gratis."):
        assert _decodes_right(text, "cp1252"), text


def test_sign_between_two_letters_costs():
    """Hostile test: ISO-8859-15 'sœur' (0xBD) is '½' in windows-1252; a sign between two ASCII
    letters is no word (the apostrophe, the middle dot and dashes are punctuation, not signs)."""
    text = "Elle a vu sa sœur et son cœur battait."
    data = text.encode("iso8859_15")
    assert for_label(detect(data).charset).decode(data) == text
    assert _decodes_right("L’été à Barcelona, la col·lecció és a l’àtic.", "cp1252")


def test_letter_touching_a_digit_costs():
    """Hostile test: '£17' is not Polish 'Ł17' (windows-1250), as '60.000€' is not '60.000Ä'."""
    text = "Registered trademark: Foo® and Bar™ are owned by Baz Inc. Price: 20 € / £17."
    assert _decodes_right(text, "cp1252")


def test_text_after_64_kib_of_ascii_is_read():
    """Hostile test: a long inline CSS head pushed the text out of the 64 KiB window."""
    text = "Привет, как дела? Отвечу завтра."
    for size in (2300, 5000):
        data = b"p { color: #333; margin: 0 }\n" * size + text.encode("koi8_r")
        assert for_label(detect(data).charset).decode(data).endswith(text), size


def test_english_quote_above_a_latin_reply():
    """The share of accented letters varies per text (a beta-binomial, SHARE_KAPPA): English
    quote lines above a short Slovak or French reply do not make it another page's language."""
    reply = "Stretnutie bude v pondelok v zasadačke na prízemí."  # with the binomial: windows-1252
    data = b"> Hello, see below.\n" * 30 + reply.encode("cp1250")
    assert for_label(detect(data).charset).decode(data).endswith(reply)
    reply = "Très bien, je serai là jeudi à 10 h. Merci pour l’invitation, à bientôt !"
    data = b"> Hello, see below.\n" * 30 + reply.encode("cp1252")
    assert for_label(detect(data).charset).decode(data).endswith(reply)


def test_letter_for_an_english_apostrophe_costs():
    """A hostile test's spam: windows-1252 "I’ll", "couldn’t" (0x92) read as Mac Roman "Iíll",
    "couldnít"."""
    for text in ("Thanks for your email. I’ll get back to you tomorrow.", "I don’t know yet.",
                 "There’s no charge, and you couldn’t buy a better deal."):
        assert _decodes_right(text, "cp1252"), text


def test_end_of_high_and_long_ascii_runs():
    """The counted stretch ends just after the n-th high byte; ASCII runs of LOCAL_ASCII_RUN
    bytes or more are cut as re.split of ``[\\x00-\\x7f]{LOCAL_ASCII_RUN,}`` cuts them, but for
    the ASCII letters that touch a high byte (at most WORD_BYTES each side, D95)."""
    import random
    import re

    data = b"a" * 3000 + b"\xe9" * 5 + b"b" * 100 + b"\xe8" * 10
    assert [langmodel._end_of_high(data, n) for n in (1, 5, 6, 15, 16)] == [3001, 3005, 3106, 3115, 3115]
    long_run = re.compile(rb"[\x00-\x7f]{%d,}" % langmodel.LOCAL_ASCII_RUN)
    width = langmodel.WORD_BYTES

    def kept(m: re.Match[bytes]) -> bytes:
        run = m.group()
        head = re.match(rb"[A-Za-z]{0,%d}" % width, run).group() if m.start() else b""
        tail = re.search(rb"[A-Za-z]{0,%d}\Z" % width, run).group() if m.end() < len(m.string) else b""
        return head + tail

    rng = random.Random(2)
    for _ in range(200):
        parts = []
        for _ in range(rng.randint(0, 6)):
            parts.append(rng.choice([b"A ", b"ab", b"x"]) * (rng.choice([1, 5, 1023, 1024, 1025, 3000]) // 2 + 1))
            parts.append(b"\xe9" * rng.randint(0, 3))
        data = b"".join(parts)
        assert langmodel._drop_long_ascii(data) == long_run.sub(kept, data)
    # a lone accent in a long machine log keeps the letters of its word
    log = b"key = value\n" * 200 + b'"Product"="Anna\x92s Trackpad"\n' + b"key = value\n" * 200
    assert langmodel._drop_long_ascii(log[1000:-1000]).count(b"Anna\x92s") == 1


def test_contraction_context_equals_the_look_behind_pattern():
    """The high byte of ``’ll`` / ``n’t`` is found high byte first (a fast scan); the bytes found
    equal those of the look-behind alternation it replaced."""
    import random
    import re

    reference = re.compile(rb"(?<=[A-Za-z])([\x80-\xff])ll(?![A-Za-z])|(?<=n)([\x80-\xff])t(?![A-Za-z])")
    assert langmodel._context(b"I\x92ll say you couldn\x92t, x\x92llama, n\x92ts")[6] == b"\x92\x92"
    assert langmodel._context(b"\xb0\xa1n\x92t\xc4\xe3")[6] == b"\x92"  # mostly high bytes
    rng = random.Random(5)
    # (mostly ASCII windows and mostly high ones take the two patterns)
    for alphabet in (b"nlltaAZ \x92\xd5\xe9\x80\xff'.xy", b"nlt \x92\xd5\xe9\x80\xff\xb0\xa1"):
        for _ in range(20000):
            window = bytes(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
            expected = b"".join(a + b for a, b in reference.findall(window))
            assert langmodel._context(window)[6] == expected, window


def test_single_byte_counts_equal_the_classified_text():
    """classify_single_byte counts every page's decoded text from its bytes: each Counts field
    equals classify's of the decoded text (random bytes with at least one high byte, and every
    byte value)."""
    import codecs
    import random

    from onemail.detect._scoring import Counts, classify, classify_single_byte

    rng = random.Random(6)
    for label in langmodel.SINGLE_BYTE:
        chars = langmodel.table(label)
        samples = [bytes(range(256)), bytes(range(128, 256)), b"caf\xe9"]
        samples += [bytes(rng.randrange(256) for _ in range(rng.randint(0, 40))) + bytes([rng.randrange(128, 256)])
                    for _ in range(100)]
        for data in samples:
            want = classify(codecs.charmap_decode(data, "replace", chars)[0])
            got = classify_single_byte(data, chars)
            assert all(getattr(got, f) == getattr(want, f) for f in Counts.__slots__), (label, data)
    # pure ASCII is counted as classify counts it (apart), through the decoded text
    assert classify_single_byte(b"plain", langmodel.table("windows-1252")).latin == classify("plain").latin


def test_languages_without_a_profile_read_by_their_cldr_letters():
    """D60: Maltese and Breton have no lingua or langdetect profile; their letters (Unicode
    CLDR's exemplar sets) make the page that spells them all in one language win: Maltese
    ISO-8859-3 was read as Polish ISO-8859-2 (``ħ`` as ``ą``), Breton windows-1252 as
    windows-1257 (``ñ ù`` as ``ń ł``)."""
    maltese = ("Il-Ħadd li għadda ġejna mill-belt u sibna ċ-ċavetta taż-żgħir fil-ġnien, "
               "imbagħad morna għand il-ħabib tagħna li joqgħod ħdejn il-knisja ta' San Ġorġ.")
    assert _decodes_right(maltese, "iso8859_3")
    breton = ("Emañ ar vugale o c'hoari er porzh, hag ar c'hazh a zo kousket war an daol. "
              "Deuit d'ar gêr bremañ, rak troioù hir a vo d'ober warc'hoazh gant ar re all.")
    assert _decodes_right(breton, "cp1252")
    assert _decodes_right(breton, "cp850")
    assert "maltese" in PAGE_LANGUAGES["iso-8859-3"]


def test_ascii_letters_decide_where_two_high_bytes_cannot():
    """D61: a Welsh text with two high bytes (``ŷ``, ``â``) in ISO-8859-14 was windows-1250
    (Romanian ``â``); its ASCII letters are Welsh. The same Welsh in windows-1252, whose
    ``»`` ISO-8859-14 reads as a letter, stays windows-1252 (a page listed for a language is
    its page even without ``ŵ ŷ``)."""
    welsh = ("Mae'r pwyllgor yn cyfarfod yn y Tŷ bob dydd Llun, ac fe fydd y cadeirydd yn siarad "
             "â'r aelodau am y cynllun newydd ar gyfer y dref a'r ardal gyfagos. Bydd croeso "
             "i bawb sydd eisiau gwybod mwy am y gwaith a wneir gan y cyngor lleol yn ystod y "
             "flwyddyn nesaf, a gofynnir i'r trigolion ddweud eu barn cyn diwedd y mis.")
    assert _decodes_right(welsh, "iso8859_14")
    assert _decodes_right("Cartref » Newyddion » Mae'r cyngor yn fodlon â'r canlyniad a "
                          "ddaeth gan y pwyllgor ddoe, meddai'r cadeirydd wrth y wasg.", "cp1252")


def test_english_quote_lines_do_not_count_as_the_reply_letters():
    """D61, D32: the ASCII letters that weigh the languages are those of the lines that hold a
    high byte, not of 30 English quote lines above a Slovak reply."""
    reply = "Stretnutie bude v pondelok v zasadačke na prízemí."
    data = b"> Hello, see below.\n" * 30 + reply.encode("cp1250")
    counts, letters, context = langmodel.high_byte_counts(data)
    assert context[9] == reply.encode("cp1250")


def test_quotation_mark_between_two_letters_costs():
    """D62: a quotation mark or bracket between two ASCII letters is no word: Portuguese
    ``AÇOR`` in windows-1252 read as Mac Roman ``A«OR``, in Mac Roman read as windows-1252
    ``A‚OR``; the apostrophe ``’`` still stands inside words (``l’invitation``)."""
    for codec in ("cp1252", "mac_roman"):
        assert _decodes_right("O AÇOR: Outubro de 2011, aproxima-se o fim", codec), codec
    assert _decodes_right("Merci pour l’invitation, je viendrai à la fête demain.", "cp1252")


def test_alike_page_reported_only_when_it_writes_the_language():
    """D62: Finnish ``60.000€`` in ISO-8859-15 is not reported as ISO-8859-7 (the Greek page,
    earlier in the list, reads the euro sign alike): the page's languages judge the letters'
    frequencies after it."""
    data = "Pikalaina heti tilille 10 - 60.000€ |".encode("iso8859_15")
    assert detect(data).charset == "iso-8859-15"


def test_a_heading_in_capitals_keeps_its_page():
    """D63: the share of capitals is drawn per text (CASE_KAPPA), not letter by letter: a
    windows-1251 heading in capitals was KOI8-R, whose small letters sit on the same bytes (each
    capital cost log 0.05 alone)."""
    for heading in ("САОПШТЕЊЕ ЗА ЈАВНОСТ: НОВИ РЕД ВОЖЊЕ ГРАДСКОГ ПРЕВОЗА",
                    "ВНИМАНИЕ! ОБЪЯВЛЕНИЕ ДЛЯ ЖИЛЬЦОВ ДОМА"):
        assert _decodes_right(heading, "cp1251"), heading


@pytest.mark.xfail(strict=True, reason="D63 known limit: a KOI8-R heading in capitals reads as small windows-1251 "
                   "letters at CASE_KAPPA 5 (right at 2), a Greek windows-1253 one as small KOI8-R letters "
                   "(right at 1, which loses 2 visible answers); wrong on the former model too")
@pytest.mark.parametrize("heading,codec", [("ВНИМАНИЕ! ОБЪЯВЛЕНИЕ ДЛЯ ЖИЛЬЦОВ ДОМА", "koi8_r"),
                                           ("ΑΝΑΚΟΙΝΩΣΗ ΓΙΑ ΤΟΥΣ ΦΟΙΤΗΤΕΣ ΤΟΥ ΠΑΝΕΠΙΣΤΗΜΙΟΥ", "cp1253")])
def test_limit_heading_in_capitals_against_small_letters(heading, codec):
    assert _decodes_right(heading, codec)


def test_capitals_that_open_words_are_drawn_at_their_rate():
    """D95: a title line whose high bytes are capitals opening words (Maltese Ġ in ISO-8859-3) is
    not read as the signs of another page (Mac Roman ’, which has no case): a word's first letter
    is a capital about one time in five. A one-letter word keeps the rate of all letters: Mac
    Roman breadcrumbs ``Home » News`` (0xC8) are no windows-1252 capital ``È`` opening a word."""
    assert _decodes_right("Ġenesi 3 | Il-Bibbja | Ġwanni 1", "iso8859_3")
    assert langmodel._initial_case_term(3, 0) > langmodel._case_term(3, 0)
    assert langmodel.high_byte_counts(b"Home \xc8 News \xc8 Sports")[2][10] == b""
    assert langmodel.high_byte_counts(b"\xc8tre \xc9l\xe8ve")[2][10] == b"\xc8\xc9"


def test_a_lone_high_byte_in_a_long_log_keeps_its_word():
    """D95: one high byte among kilobytes of ASCII (a macOS ioreg log) keeps the ASCII letters of
    its word for the share term: ``Anna’s`` in Mac Roman was ISO-8859-5 ``Annaеs`` (no ASCII
    letter near it at all says nothing against a non-Latin alphabet, D32)."""
    head = "".join(f'    | | |   "Key{i}" = {i * 7}, "Name{i}"="Device {i}"\n' for i in range(60))
    tail = "".join(f'    | | |   "Port{i}" = <{i:08x}>, "State"=Idle\n' for i in range(60))
    for name in ("Anna’s Trackpad", "Zoë’s Mouse", "Café Display"):
        assert _decodes_right(head + f'    | | |   "Product"="{name}"\n' + tail, "mac_roman"), name


@pytest.mark.xfail(strict=True, reason="D60 known limit: a short Maltese line whose high bytes are capital Ġ "
                   "(and one ġ) reads as Estonian Õ (windows-1252, which reads windows-1257's bytes alike): "
                   "the CLDR letters give no frequencies and no ASCII letters of their own; Estonian õ is "
                   "frequent (with D95's rate of capitals that open words, a title line of two is right)")
def test_limit_short_maltese_line_of_capital_g():
    assert _decodes_right("Ġob 12 | Il-Ktieb Imqaddes | L-Ġenesi u l-Ġudikanti", "iso8859_3")
