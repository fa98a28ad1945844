"""One record per message (onemail.message.records, M30, M31): the fields, nested messages,
body text from HTML and RTF on real corpus messages, and the JSON Schema on every record of
the mail corpus."""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace

import pytest
from paths import CORPUS

from onemail.message import read
from onemail.message.records import (
    SCHEMA_VERSION,
    SOURCE_FIELDS,
    attachment_parts,
    build_records,
    record_id,
    schema,
)
from onemail.message.source import CONTAINERS, Source

MAIL = CORPUS / "mail"


def _records(rel: str, **kw) -> list[dict]:
    path = MAIL / rel
    return build_records(read(path), Source(str(path), "eml"), **kw)


def _corpus_files() -> list:
    return sorted(p for p in MAIL.rglob("*") if p.suffix in (".eml", ".msg", ".tnef"))


def test_every_record_of_the_mail_corpus_validates_against_the_json_schema():
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(schema())
    jsonschema.Draft202012Validator.check_schema(schema())
    files = _corpus_files()
    assert len(files) == 3384
    count = nested = 0
    for path in files:
        for record in build_records(read(path), Source(str(path), "eml"), saved_paths=True):
            errors = [f"{e.json_path}: {e.message}" for e in validator.iter_errors(record)]
            assert not errors, (path, errors[:3])
            count += 1
            nested += record["parent_id"] is not None
    assert (count, nested) == (3737, 353)


def test_the_schema_names_every_key_a_record_has_and_the_container_kinds():
    s = schema()
    record = _records("aerc/lib__jwz__testdata__0003.acfc5ad94bbd27118a0d8685d18c89dd.eml")[0]
    assert list(record) == list(s["properties"]) == s["required"]
    assert list(record["source"]) == list(SOURCE_FIELDS) == list(s["$defs"]["source"]["properties"])
    assert set(s["$defs"]["source"]["properties"]["container"]["enum"]) == CONTAINERS
    assert s["properties"]["schema_version"]["const"] == SCHEMA_VERSION == record["schema_version"]
    assert schema() is not schema()  # a new dict each time: a caller may change its own


def test_a_plain_message_gives_one_record_with_its_fields():
    rel = "aerc/lib__jwz__testdata__0003.acfc5ad94bbd27118a0d8685d18c89dd.eml"
    (r,) = _records(rel)
    assert r["id"] == record_id(Source(str(MAIL / rel), "eml"))
    assert (r["parent_id"], r["part"], r["format"], r["error"]) == (None, None, "rfc822", None)
    assert r["source"] == {**dict.fromkeys(SOURCE_FIELDS), "path": str(MAIL / rel),
                           "container": "eml", "index": 0}
    assert r["message_id"] == "E17hrT0-0004gj-00@rhenium.btinternet.com"
    assert (r["date"], r["date_raw"]) == ("2002-08-22T12:52:38Z", "Thu, 22 Aug 2002 13:52:38 +0100")
    assert r["body_text_from"] == "text/plain"
    assert r["body_text"] == read(MAIL / rel).text
    assert r["body_html"] is None
    assert all(set(a) == {"name", "address", "group"} for key in ("from", "to", "cc", "bcc", "reply_to")
               for a in r[key])


def test_date_with_fractions_of_a_second_and_none():
    from datetime import datetime, timedelta, timezone

    msg = read(b"Subject: x\r\n\r\nbody")
    when = datetime(2002, 8, 30, 17, 42, 52, 332140, tzinfo=timezone(timedelta(hours=1)))
    (r,) = build_records(replace(msg, date=when), Source("-", "stdin"))
    assert (r["date"], r["date_raw"]) == ("2002-08-30T16:42:52.332140Z", None)
    (r,) = build_records(msg, Source("-", "stdin"))
    assert r["date"] is None


def test_body_text_from_html_on_a_real_message():
    """csdmc2010 TRAIN_02276: HTML only, a layout table, links with text, ``&copy;``."""
    (r,) = _records("csdmc2010-spam-corpus/naive_bayes__data__TRAINING__TRAIN_02276.eml")
    assert r["body_text_from"] == "text/html"
    assert r["body_html"].startswith("<!DOCTYPE HTML PUBLIC")
    assert r["body_text"] == (
        "View Online <http://ea44e4e02.fiqogas.cn/>\n\n"
        "Home <http://45c.fiqogas.cn/> | About Us <http://2b1c916a.fiqogas.cn/> | "
        "Unsubscribe <http://a6e66269c2.fiqogas.cn/> | Privacy Policy <http://0ff.fiqogas.cn/>\n\n"
        "\u00a9 Ekiutie. 2006-2009 All rights reserved.")


def test_body_text_from_a_plain_rtf_body_on_a_real_message():
    """mimekit-tnef rtf.tnef: a TNEF whose only body is plain (not encapsulated) RTF: its text,
    not its markup (``\\\\`` is a literal backslash of the text)."""
    (r,) = _records("mimekit-tnef/UnitTests__TestData__tnef__rtf.tnef")
    assert r["body_text_from"] == "text/rtf"
    assert r["body_html"] is None
    assert r["body_text"] == (
        "aafgag'alga'kgk\n\nagka;kgag\n\n\naf;kafkk'g\nahakg'akgq[arja'kmba'hgmpgkjaqpgbmdvb\nad\n"
        "\\hge\nrgtad\nadfhadhadhb\n-- Greg\nGreg Allen\nSenior Engineer/QADirector Team\n"
        "Compuware Corporation\ngallen@numega.com\n978-287-4494 (Office)\n978-318-6939 (Fax) ")


def test_rtf_body_attachments_are_listed_with_size_and_sha256():
    rel = ("tika-msg-tnef/tika-parsers__tika-parsers-standard__tika-parsers-standard-modules__"
           "tika-parser-microsoft-module__src__test__resources___957b2e1455.tnef")
    msg = read(MAIL / rel)
    (r,) = build_records(msg, Source("w.tnef", "tnef"), saved_paths=True)
    assert r["body_text"] == "These are five files.\n\n\n   \nFive files from Hell!  (Well Outlook actually)  "
    names = [a["filename"] for a in r["attachments"]]
    assert names == ["quick.doc", "quick.html", "quick.pdf", "quick.txt", "quick.xml"]
    (parts,) = attachment_parts(msg)
    for a, p in zip(r["attachments"], parts, strict=True):
        assert a["size"] == len(p.data) and a["sha256"] == hashlib.sha256(p.data).hexdigest()
        assert a["saved_path"] == f"{r['id']}/{a['filename']}"
    assert [a["size"] for a in r["attachments"]] == [19968, 428, 18638, 235, 143]


def test_a_nested_message_is_a_record_of_its_own_after_its_parent():
    """aerc jwz 0097: a MIME message holding a winmail.dat (M31)."""
    rel = "aerc/lib__jwz__testdata__0097.39badf2fea6bcebc640bea05ced59b59.eml"
    msg = read(MAIL / rel)
    src = Source(str(MAIL / rel), "eml")
    top, inner = build_records(msg, src)
    assert inner["parent_id"] == top["id"] and inner["part"] == "2"
    assert inner["id"] == record_id(src, part="2")
    assert inner["source"] == top["source"]
    assert inner["format"] == "tnef"
    assert inner["subject"] == "Save up to 70% on international calls!"
    holder = [a for a in top["attachments"] if a["record_id"] is not None]
    assert [(a["part"], a["record_id"]) for a in holder] == [("2", inner["id"])]
    # the parent's issue list has the nested issues prefixed; its record does not repeat them
    assert not any(i["where"].startswith("part:2>") for i in top["issues"])
    assert len(top["issues"]) + len(inner["issues"]) == len(msg.issues)


def test_build_records_is_pure():
    rel = "aerc/lib__jwz__testdata__0097.39badf2fea6bcebc640bea05ced59b59.eml"
    msg = read(MAIL / rel)
    src = Source("a.mbox", "mbox", index=4, offset=100, length=2000)
    first = build_records(msg, src, saved_paths=True)
    assert first == build_records(read(MAIL / rel), src, saved_paths=True)
    assert json.loads(json.dumps(first)) == first  # plain JSON types only


def test_record_ids_depend_on_the_place_only():
    a = Source("inbox.mbox", "mbox", index=3)
    assert record_id(a) == "a201eae25a2740cfdbaa92ecc0ae8f15"
    assert record_id(replace(a, offset=5, length=7, container="stdin")) == record_id(a)
    assert len({record_id(a), record_id(replace(a, index=4)), record_id(a, part="2"),
                record_id(replace(a, member="x")), record_id(replace(a, folder="x"))}) == 5


def test_issues_are_objects_with_a_count():
    data = b"Subject: =?utf-8?B?w6k?= \xff\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\xff\xfe"
    msg = read(data)
    (r,) = build_records(msg, Source("-", "stdin"))
    assert r["issues"] == [{**i.to_json(), "count": i.count} for i in msg.issues]
    assert r["issues"] and all(list(i) == ["kind", "where", "offset", "length", "count"] for i in r["issues"])


def test_charsets_say_how_each_text_part_was_chosen():
    rel = "csdmc2010-spam-corpus/naive_bayes__data__TRAINING__TRAIN_02276.eml"
    (r,) = _records(rel)
    msg = read(MAIL / rel)
    assert r["charsets"] == [{"part": p.path, "media_type": p.media_type, "charset": p.charset,
                              "source": p.charset_source} for p in msg.parts if p.charset]
    assert r["charsets"]


def test_an_unreadable_input_is_a_record_with_its_error():
    (r,) = build_records(read(b"\x00\x01binary junk"), Source("-", "stdin"))
    assert r["error"] and r["format"] == "unknown"
    assert r["body_text"] is None and r["attachments"] == []


def test_wrong_argument_types_raise():
    msg = read(b"Subject: x\r\n\r\nbody")
    with pytest.raises(TypeError, match="message must be a Message"):
        build_records(b"Subject: x", Source("-", "stdin"))
    with pytest.raises(TypeError, match="source must be a Source"):
        build_records(msg, "x.eml")
    with pytest.raises(TypeError, match="source must be a Source"):
        record_id("x.eml")


def test_body_parts_and_attachments_m30():
    """Only the first text/plain, text/html and RTF bodies are bodies: a second inline text
    part (a list footer) and an inline image without a name are attachments."""
    data = (b"MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n"
            b"--b\r\nContent-Type: multipart/alternative; boundary=c\r\n\r\n"
            b"--c\r\nContent-Type: text/plain\r\n\r\nplain\r\n"
            b"--c\r\nContent-Type: text/html\r\n\r\n<p>html</p>\r\n--c--\r\n"
            b"--b\r\nContent-Type: text/plain\r\n\r\nfooter\r\n"
            b"--b\r\nContent-Type: image/png\r\nContent-ID: <img1@x>\r\n\r\nPNG\r\n--b--\r\n")
    (r,) = build_records(read(data), Source("-", "stdin"), saved_paths=True)
    assert (r["body_text"], r["body_text_from"], r["body_html"]) == ("plain", "text/plain", "<p>html</p>")
    assert [(a["part"], a["media_type"], a["filename"], a["content_id"], a["size"]) for a in r["attachments"]] == [
        ("2", "text/plain", None, None, 6), ("3", "image/png", None, "img1@x", 3)]
    assert [a["saved_path"].split("/", 1)[1] for a in r["attachments"]] == ["part-2.txt", "part-3.png"]


def test_html_only_message_gets_text_from_html():
    data = (b"Content-Type: text/html; charset=utf-8\r\n\r\n"
            b"<ul><li>caf\xc3\xa9 &amp; cr\xc3\xa8me</li><li><a href='https://x.org'>site</a></li></ul>")
    (r,) = build_records(read(data), Source("-", "stdin"))
    assert r["body_text"] == "* caf\u00e9 & cr\u00e8me\n* site <https://x.org>"
    assert r["body_text_from"] == "text/html"


def test_message_id_without_angle_brackets():
    (r,) = build_records(read(b"Message-ID:  <abc@example.org> (comment)\r\n\r\nx"), Source("-", "stdin"))
    assert r["message_id"] == "abc@example.org"
