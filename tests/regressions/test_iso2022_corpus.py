"""Real ISO-2022-JP mail from ../shared/corpus/mail/ (MANIFEST column has_iso2022).

Header and body bytes are read straight from the files.
"""

from __future__ import annotations

import base64
import re

from onemail.text import IssueKind, for_label

AMB = IssueKind.AMBIGUOUS_ISO2022_REPERTOIRE


def _split(raw: bytes) -> tuple[bytes, bytes]:
    head, _, body = raw.partition(b"\n\n")
    return head, body


def _subject_bytes(head: bytes) -> bytes:
    """The Subject's encoded words (B encoding) joined as bytes before charset conversion."""
    subject = re.search(rb"^Subject:(.*(?:\n[ \t].*)*)", head, re.M).group(1)
    return b"".join(base64.b64decode(w) for w in re.findall(rb"=\?ISO-2022-JP\?B\?([^?]*)\?=", subject))


def test_jpmobile_pc_mail_single_body_and_subject(corpus):
    """jpmobile/spec__unit__email-fixtures__pc-mail-single.eml (Thunderbird, charset=ISO-2022-JP)."""
    raw = (corpus / "mail" / "jpmobile" / "spec__unit__email-fixtures__pc-mail-single.eml").read_bytes()
    head, body = _split(raw)
    cs = for_label("ISO-2022-JP")
    issues = []
    assert cs.decode(body, issues) == "本文です\n\n"
    assert issues == []
    subject = _subject_bytes(head)
    assert cs.decode(subject, issues) == (
        "タイトルの長いメールの場合の対処を実装するためのテストケースとしてのメールに含まれている"
        "件名であるサブジェクト部分")
    assert issues == []


def test_jpmobile_iphone_jis_half_width_katakana(corpus):
    """jpmobile/spec__unit__email-fixtures__iphone-jis.eml: iPhone Mail writes ESC ( I under
    charset=iso-2022-jp; decoded, each ESC ( I reported (T36)."""
    raw = (corpus / "mail" / "jpmobile" / "spec__unit__email-fixtures__iphone-jis.eml").read_bytes()
    _, body = _split(raw)
    issues = []
    assert for_label("iso-2022-jp").decode(body, issues) == "(=\uff9f\u03c9\uff9f)\uff89\n\n\n"
    assert [(i.kind, i.offset, i.length) for i in issues] == [(AMB, 2, 3), (AMB, 11, 3), (AMB, 19, 3)]
    assert for_label("cp50221").decode(body) == "(=\uff9f\u03c9\uff9f)\uff89\n\n\n"


def test_joruri_iso_2022_jp_2_base64_body(corpus):
    """joruri-mail/test__fixtures__emails__charset__iso-2022-jp-2.eml (base64 text part)."""
    raw = (corpus / "mail" / "joruri-mail" / "test__fixtures__emails__charset__iso-2022-jp-2.eml").read_bytes()
    part = raw.split(b"Content-Transfer-Encoding: base64\r\n\r\n")[1].split(b"\r\n")[0]
    issues = []
    assert for_label("iso-2022-jp-2").decode(base64.b64decode(part), issues) == "エンコードテスト"
    assert issues == []
