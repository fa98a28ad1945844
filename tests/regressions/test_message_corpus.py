"""The message layer on the real mail of ../shared/corpus/mail and the bundled examples/.

One pass reads every corpus message (module fixture, a few seconds); the tests check it read
without an exception, that no decoded header holds an encoded word that still decodes, and that
``onemail scan`` counts the same. Named tests pin exact values of real messages (docstrings
name the file).
"""

from __future__ import annotations

import email.header
import hashlib
import re
from collections import Counter

import pytest
from paths import CORPUS, REPO

import onemail
from onemail._cli.mail import scan
from onemail.message import MessageIssueKind
from onemail.text import IssueKind

K = IssueKind
M = MessageIssueKind
MAIL = CORPUS / "mail"
EXAMPLES = REPO / "examples"


def manifest():
    lines = (MAIL / "MANIFEST.tsv").read_text(encoding="utf-8").splitlines()
    head = lines[0].split("\t")
    return [dict(zip(head, line.split("\t"), strict=True)) for line in lines[1:]]


@pytest.fixture(scope="module")
def corpus_messages(corpus):
    out = []
    for row in manifest():
        out.append((row, onemail.read(MAIL / row["file"])))
    return out


def test_every_corpus_message_reads(corpus_messages):
    rows = manifest()
    assert len(corpus_messages) == len(rows) == 3384
    formats = Counter(m.format for _, m in corpus_messages)
    kinds = Counter(row["kind"] for row in rows)
    assert formats["msg"] == kinds["msg"] and formats["tnef"] == kinds["tnef"]
    errors = {row["file"]: m.error for row, m in corpus_messages if m.error}
    # a fuzzer's minimised test case: one "=ybegin" line, no header
    assert errors == {
        "kmime-fuzz/autotests__data__clusterfuzz-testcase-minimized-kmime_fuzzer-4804196479336448.eml":
            "not a message: no header, mbox, Outlook .msg or TNEF signature",
    }


_WORD = re.compile(r"=\?[^?\s]+\?[bBqQ]\?[^?\s]*\?=")


def _decodes(word: str) -> bool:
    """True when the stdlib decodes ``word`` to text that differs from the word itself."""
    try:
        (data, charset), = email.header.decode_header(word)
        if charset is None:
            return False
        return data.decode(charset) != word
    except Exception:  # noqa: BLE001 - unknown charset, bad base64: the word does not decode
        return False


def test_no_decoded_header_holds_an_encoded_word_that_decodes(corpus_messages):
    left = []
    for row, msg in corpus_messages:
        raw = (MAIL / row["file"]).read_bytes()
        for part_msg in [msg] + [p.message for p in msg.walk() if p.message is not None]:
            values = [h.value for h in part_msg.headers]
            values += [a.name for a in part_msg.from_ + part_msg.to + part_msg.cc]
            values += [p.filename for p in part_msg.parts if p.filename]
            for value in values:
                for word in _WORD.findall(value):
                    # a word that only appears after decoding (enmime qp-utf8-header-recursed)
                    # was encoded text, not an encoded word
                    if word.encode() in raw and _decodes(word):
                        left.append((row["file"], word))
    assert left == []


def test_scan_counts_match_reading(corpus_messages):
    """scan's summary of the corpus folder equals reading each file alone: read_mbox for the
    files that are mailboxes (a first ``From `` line: four hold several messages, M20), read for
    the others; README.md and MANIFEST.tsv are the two skips (not mail)."""
    summary = scan([str(MAIL)])
    messages = []
    for row, msg in corpus_messages:
        head = (MAIL / row["file"]).read_bytes()[:8]
        boxed = head.startswith(b"From ") or head.startswith(b"\xef\xbb\xbfFrom ")
        messages += list(onemail.read_mbox(MAIL / row["file"])) if boxed else [msg]
    assert summary["files"] == 3386 and summary["skipped"] == {"not-mail": 2}
    assert summary["messages"] == len(messages) == 3384 + 5
    assert summary["unreadable"] == []
    assert [f["path"].rsplit("/", 1)[1] for f in summary["failures"]] == [
        "autotests__data__clusterfuzz-testcase-minimized-kmime_fuzzer-4804196479336448.eml"]
    parts = sum(1 for m in messages for _ in m.walk())
    assert summary["parts"] == parts
    assert summary["issues"] == Counter(i.kind.value for m in messages for i in m.issues)
    charsets = Counter(f"{p.charset} ({p.charset_source})" for m in messages for p in m.walk()
                       if p.charset_source)
    assert summary["charsets"] == charsets
    assert summary["charsets"]["utf-8 (declared)"] > 500


# -- named real cases ----------------------------------------------------------------------


# -- named real cases ----------------------------------------------------------------------


def test_rfc2047_cjk_subject():
    """examples/imap_tools-raw_email-euc-kr.eml: =?EUC-KR?B?...?= subject, EUC-KR body."""
    msg = onemail.read(EXAMPLES / "imap_tools-raw_email-euc-kr.eml")
    assert msg.subject == "NOTE: 한국말로 하는 것"
    assert [(a.name, a.address) for a in msg.from_] == [("Jamis Buck", "jamis@37signals.com")]
    part = msg.parts[0]
    assert (part.charset, part.charset_source) == ("euc-kr", "declared")
    assert part.text.startswith("대부분의 마찬가지로, 우리는 하나님을 믿습니다.\r\n")
    assert msg.issues == ()


def test_iso_2022_jp_mail():
    """examples/jpmobile-docomo-jis.eml: ISO-2022-JP encoded-word subject and 7-bit JIS body."""
    msg = onemail.read(EXAMPLES / "jpmobile-docomo-jis.eml")
    assert msg.subject == "テスト"
    assert (msg.parts[0].text, msg.parts[0].charset) == ("テスト本文\n\n", "iso-2022-jp")
    assert msg.issues == ()


def test_rfc2231_continued_utf8_file_name():
    """examples/imap_tools-japanese_attachment_long_name.eml: filename*0*= / filename*1*=."""
    msg = onemail.read(EXAMPLES / "imap_tools-japanese_attachment_long_name.eml")
    assert msg.parts[0].filename == "かきくけこ" * 5 + ".txt"
    assert msg.subject == "まみむめも" * 10


def test_raw_8bit_utf8_subject():
    """cyrus-imapd cassandane headers-utf8.bin: raw UTF-8 in Subject and a From display name."""
    msg = onemail.read(MAIL / "cyrus-imapd/cassandane__data__mime__headers-utf8.bin.eml")
    assert msg.subject == "Москва - столица России."
    assert [(a.name, a.address) for a in msg.from_] == [("Фёдор Михайлович Достоевский", "fyodor@local")]
    assert msg.issues == ()


def test_html_meta_charset_disagrees_with_header():
    """imap_tools attachment_inline2.eml part 1.2: charset="ISO-8859-1", <meta ... GB18030>."""
    msg = onemail.read(MAIL / "imap_tools/tests__messages__attachment_inline2.eml")
    part = next(p for p in msg.parts if p.path == "1.2")
    assert (part.media_type, part.charset, part.charset_source) == ("text/html", "gb18030", "in-band")
    meta = '<meta http-equiv="Content-Type" content="text/html; charset=GB18030">'
    assert part.text.startswith(meta + "<div>")
    assert [(i.kind, i.where, i.offset, i.length) for i in part.issues] == [
        (M.AMBIGUOUS_CHARSET_CONFLICT, "part:1.2", 0, len(meta))]


def test_text_plain_without_charset_utf8():
    """mikel-mail raw_email5.eml: no Content-Type; 8-bit UTF-8 body."""
    msg = onemail.read(MAIL / "mikel-mail/spec__fixtures__emails__plain_emails__raw_email5.eml")
    part = msg.parts[0]
    assert (part.media_type, part.charset, part.charset_source) == ("text/plain", "utf-8", "default")
    assert "Envoyé par le service de messagerie texte de Bell Mobilité.\r\n" in part.text
    assert [(i.kind, i.offset, i.length) for i in part.issues] == [(M.AMBIGUOUS_DEFAULT_CHARSET, 0, 274)]


def test_msg_html_body_from_compressed_rtf():
    """examples/ruby-msg-test_Blammo.msg: the HTML exists only as \\fromhtml1 compressed RTF."""
    msg = onemail.read(EXAMPLES / "ruby-msg-test_Blammo.msg")
    assert (msg.format, msg.subject) == ("msg", "BlammoBlammo")
    assert [(a.name, a.address) for a in msg.from_] == [("TripleNickel", "TripleNickel@mapi32.net")]
    assert [(p.path, p.media_type, p.origin) for p in msg.parts] == [
        ("body.txt", "text/plain", "PidTagBody"), ("body.rtf", "text/html", "PidTagRtfCompressed")]
    html = msg.html
    assert html.startswith('<html xmlns:v="urn:schemas-microsoft-com:vml" ')
    assert "<p class=MsoNormal>Blam<o:p></o:p></p>" in html
    assert html.endswith("</html>\r\n") and len(html) == 1471
    assert msg.text.startswith("Blam")


def test_tnef_attachment():
    """examples/mimekit-one-file.tnef: one attachment, AUTHORS, 244 bytes."""
    msg = onemail.read(EXAMPLES / "mimekit-one-file.tnef")
    assert (msg.format, msg.subject, msg.error, msg.issues) == ("tnef", "one-file", None, ())
    (att,) = msg.parts
    assert (att.path, att.filename, att.disposition, len(att.data)) == ("att1", "AUTHORS", "attachment", 244)
    assert att.data.startswith(b"\n                              Authors of tnef\n")
    assert hashlib.sha256(att.data).hexdigest().startswith("36c47da7d11846ca")


def test_winmail_dat_attached_to_an_eml():
    """roundcube tnef1.eml: application/ms-tnef winmail.dat, opened as a nested message."""
    msg = onemail.read(MAIL / "roundcube/tests__MessageRendering__data__greenmail__test-message-rendering_localhost__INBOX__tnef1.eml")
    (part,) = msg.parts
    assert (part.media_type, part.filename) == ("application/ms-tnef", "winmail.dat")
    assert (part.message.format, part.message.subject) == ("tnef", "one-file")
    assert [(p.filename, len(p.data)) for p in msg.walk()] == [("winmail.dat", 2272), ("AUTHORS", 244)]


def test_msg_string8_properties_use_the_ansi_code_page():
    """hiraoka-msgreader nonUnicodeCP932.msg: internet code page 50220, string8 in cp932."""
    msg = onemail.read(MAIL / "hiraoka-msgreader/test__nonUnicodeCP932.msg")
    assert msg.subject == "日本語 Non Unicode タイトル"
    assert msg.parts[0].charset == "shift_jis"


def test_msg_nested_messages():
    """hiraoka-msgreader msgInMsgInMsg.msg: embedded .msg inside an embedded .msg."""
    msg = onemail.read(MAIL / "hiraoka-msgreader/test__msgInMsgInMsg.msg")
    nested = msg.parts[2].message
    assert nested is not None and nested.format == "msg"
    assert any(p.message is not None for p in nested.parts)


def test_tnef_checksum_damage_is_located():
    """tnefparse IPM-DistList.tnef: two attributes whose checksums do not match their data."""
    msg = onemail.read(MAIL / "tnefparse/tests__examples__IPM-DistList.tnef")
    top = [(i.kind, i.where, i.offset) for i in msg.issues if not i.where.startswith("part:")]
    assert top == [(M.MALFORMED_TNEF, "tnef:attMsgProps", 103), (M.MALFORMED_TNEF, "tnef:attAttachment", 8406)]


def test_examples_all_read_cleanly():
    for path in sorted(EXAMPLES.iterdir()):
        if path.name != "NOTICE":
            msg = onemail.read(path)
            assert msg.error is None, path.name


def test_raw_8bit_windows_1251_subject_by_the_detector():
    """cyrus-imapd headers-utf8.bin re-encoded to windows-1251 (synthetic from real text): the
    8-bit header text of the message goes to the detector together."""
    data = (MAIL / "cyrus-imapd/cassandane__data__mime__headers-utf8.bin.eml").read_bytes()
    msg = onemail.read(data.decode("utf-8").encode("windows-1251"))
    assert msg.subject == "Москва - столица России."
    assert [(a.name, a.address) for a in msg.from_] == [("Фёдор Михайлович Достоевский", "fyodor@local")]
    assert [(i.kind, i.where, i.offset, i.length) for i in msg.issues] == [
        (K.AMBIGUOUS_RAW_8BIT, "header:From", 1, 28), (K.AMBIGUOUS_RAW_8BIT, "header:Subject", 0, 23)]


def test_raw_8bit_koi8r_subject_by_the_detector():
    """cyrus-imapd cassandane headers-koi8r.bin: raw KOI8-R Subject and From."""
    msg = onemail.read(MAIL / "cyrus-imapd/cassandane__data__mime__headers-koi8r.bin.eml")
    assert msg.subject == "Москва - столица России."
    assert msg.from_[0].name == "Фёдор Михайлович Достоевский"


def test_text_plain_without_charset_windows_1252():
    """james-mime4j mimetools-testmsgs infinite.msg: no charset, Portuguese in 8-bit Latin."""
    msg = onemail.read(MAIL / "james-mime4j/core__src__test__resources__mimetools-testmsgs__infinite.msg.eml")
    part = msg.parts[0]
    assert (part.media_type, part.charset, part.charset_source) == ("text/plain", "windows-1252", "detected")
    assert "> > Sócrates,\r\n> > \r\n> >     porque você faz tanta questão de se indispor" in part.text
    assert [(i.kind, i.offset, i.length) for i in part.issues] == [(M.AMBIGUOUS_DETECTED_CHARSET, 0, 3904)]


def test_shift_jis_body_labelled_utf8():
    """thunderbird message-reader wronglyDeclaredShift_JIS.eml: charset=utf8, Shift_JIS bytes (M6)."""
    msg = onemail.read(MAIL / "thunderbird/mail__test__browser__message-reader__data__wronglyDeclaredShift_JIS.eml")
    part = msg.parts[0]
    assert (part.charset, part.charset_source) == ("shift_jis", "detected")
    assert part.text.startswith("メールを簡単に。\n\nメッセージの高速全文検索、タブ表示、アーカイブ。")
    assert [(i.kind, i.offset, i.length) for i in part.issues] == [(M.AMBIGUOUS_MISLABELLED_CHARSET, 0, 141)]


def test_utf8_body_labelled_iso_2022_jp():
    """sisimai-set-of-emails mailbox mbox-0 #30: charset=iso-2022-jp, UTF-8 bytes (M6)."""
    msg = onemail.read(MAIL / "sisimai-set-of-emails/mailbox__mbox-0__30.eml")
    part = msg.parts[0]
    assert (part.charset, part.charset_source) == ("utf-8", "detected")
    assert part.text.startswith("このメールに添付されているメッセージは、送信できませんでした。\r\n")


def test_winmail_dat_that_is_not_tnef():
    """zbateson m4006.txt: an application/ms-tnef winmail.dat that holds a PNG."""
    msg = onemail.read(MAIL / "zbateson-mail-mime-parser/tests___data__emails__m4006.txt.eml")
    part = msg.parts[0]
    assert part.message.error == "not a TNEF stream (no 0x223E9F78 signature)"
    assert [(i.kind, i.where, i.offset, i.length) for i in msg.issues] == [(M.MALFORMED_TNEF, "part:1", 0, 1325)]
    assert part.issues == msg.issues


def test_detector_tie_falls_back_to_windows_1252():
    """csdmc2010 spam TRAIN_00322: charset=UTF-8 with one 0xA9 byte; the detector ties
    iso-8859-2 ("Š"), iso-8859-4 and shift_jis, so windows-1252 reads it (M6, M2, T1). The file
    starts with ``From ``: an mbox of one message, whose final empty line is the mbox's (M20),
    so the body is 2,784 bytes, not 2,785."""
    msg = onemail.read(MAIL / "csdmc2010-spam-corpus/naive_bayes__data__TRAINING__TRAIN_00322.eml")
    part = msg.parts[0]
    assert (part.charset, part.charset_source) == ("windows-1252", "detected")
    assert "and OH 44114 <br>\n  © 2009 Questex Media Group" in part.text
    assert [(i.kind, i.offset, i.length) for i in part.issues] == [(M.AMBIGUOUS_MISLABELLED_CHARSET, 0, 2784)]


def test_msg_date_from_transport_headers():
    """rtf/msg Aspose.Email Message-2.msg: no PidTagClientSubmitTime; the Date is taken from
    PidTagTransportMessageHeaders, which are also the message's headers."""
    msg = onemail.read(CORPUS / "rtf/msg/Aspose.Email-for-Java--Message-2.msg")
    assert msg.date.isoformat() == "2016-04-25T05:34:21+00:00"
    assert msg.header("Date") is not None


def test_named_properties():
    """hiraoka-msgreader voteYes.msg (__nameid_version1.0) and mimekit multi-name-property.tnef:
    named properties carry "{GUID}:0xLID" or "{GUID}:name" (MS-OXMSG 2.2.3, MS-OXTNEF 2.1.3.4)."""
    msg = onemail.read(MAIL / "hiraoka-msgreader/test__voteYes.msg")
    named = {p.tag: (p.name, p.value) for p in msg.properties if p.tag >= 0x8000}
    assert named[0x8007] == ("{00020386-0000-0000-c000-000000000046}:content-type",
                             'application/ms-tnef; charset="iso-2022-jp"; name="winmail.dat"')
    assert named[0x8000][0] == "{00062008-0000-0000-c000-000000000046}:0x8580"
    tnef = onemail.read(MAIL / "mimekit-tnef/UnitTests__TestData__tnef__multi-name-property.tnef")
    named = {p.tag: p.name for p in tnef.properties if p.tag >= 0x8000}
    assert named[0x8016] == "{00062002-0000-0000-c000-000000000046}:0x820D"


def test_deeply_nested_parser_test_is_read_whole():
    """horde-mime deeply_nested.txt: 101 nested multipart/mixed levels, under the level cap."""
    msg = onemail.read(MAIL / "horde-mime" / "test__Unnamespaced__fixtures__deeply_nested.txt.eml")
    (part,) = msg.parts
    assert (msg.error, part.path.count(".") + 1, part.media_type) == (None, 101, "text/plain")
    assert not any(i.kind is M.MESSAGE_NESTING_LIMIT_EXCEEDED for i in msg.issues)


def test_encapsulated_messages_beyond_max_depth():
    """kmime bug519598-encapsulated-message: 21 message/rfc822 levels; every level up to
    MAX_DEPTH (20) is opened (before, every other level was lost), the last one is reported."""
    msg = onemail.read(MAIL / "kmime" / "autotests__data__bug519598-encapsulated-message.mbox.eml")
    levels = 0
    while msg.parts and msg.parts[0].message is not None:
        msg, levels = msg.parts[0].message, levels + 1
    assert levels == 20
