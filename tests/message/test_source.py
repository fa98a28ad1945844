"""``onemail.message.source``: where a message came from."""

from __future__ import annotations

import pickle

from onemail.message.source import CONTAINERS, Source


def test_json_leaves_out_what_is_absent():
    assert Source("inbox.mbox", "mbox", index=3, offset=1200, length=340).to_json() == {
        "path": "inbox.mbox", "container": "mbox", "index": 3, "offset": 1200, "length": 340}
    assert Source("Maildir", "maildir", member="cur/1.host:2,RS", flags="RS").to_json() == {
        "path": "Maildir", "container": "maildir", "member": "cur/1.host:2,RS", "index": 0,
        "flags": "RS"}


def test_key_orders_as_a_sequential_read_meets_the_messages():
    sources = [Source("b.mbox", "mbox", index=0, offset=0),
               Source("a.mbox", "mbox", index=1, offset=500),
               Source("a.mbox", "mbox", index=0, offset=0),
               Source("a.zip", "zip", member="m/2.eml"),
               Source("a.zip", "zip", member="m/1.eml")]
    assert [(s.path, s.member, s.index) for s in sorted(sources, key=Source.key)] == [
        ("a.mbox", None, 0), ("a.mbox", None, 1), ("a.zip", "m/1.eml", 0),
        ("a.zip", "m/2.eml", 0), ("b.mbox", None, 0)]


def test_picklable_and_the_containers():
    s = Source("-", "stdin", compression="gzip")
    assert pickle.loads(pickle.dumps(s)) == s
    assert CONTAINERS == {"eml", "mbox", "maildir", "mh", "msg", "tnef", "pst", "zip", "stdin"}


def test_archive_member_and_name_order():
    from onemail.message.source import name_key

    assert sorted(["10", "2", "1", "a10", "a2", "a.b", "a"], key=name_key) == [
        "1", "2", "10", "a", "a2", "a10", "a.b"]
    inside = Source("box", "eml", member="x.eml", archive="a.zip")
    beside = Source("box", "eml", member="b.eml")
    assert inside.to_json()["archive"] == "a.zip"
    # a zip's members come at the zip's place among its folder's files
    assert sorted([beside, inside], key=Source.key) == [inside, beside]
    assert sorted([Source("m", "mh", member="inbox/10"), Source("m", "mh", member="inbox/9")],
                  key=Source.key)[0].member == "inbox/9"


def test_a_folder_named_with_a_trailing_slash_joins_with_one_slash():
    from onemail.message.source import Skipped, place_name

    assert place_name("examples/", member="NOTICE") == "examples/NOTICE"
    assert place_name("examples//", member="a.eml") == "examples/a.eml"
    assert place_name("examples", member="NOTICE") == "examples/NOTICE"
    assert place_name("/", member="x.eml") == "/x.eml"
    assert place_name("mail/", archive="a.zip", member="m.eml") == "mail/a.zip!m.eml"
    assert place_name("a.zip", archive="", member="m.eml") == "a.zip!m.eml"
    assert place_name("box/") == "box/"  # a path alone is as given
    assert Source("Maildir/", "maildir", member="cur/1").where == "Maildir/cur/1"
    assert Skipped("examples/", "not-mail", "", member="NOTICE").where == "examples/NOTICE"
