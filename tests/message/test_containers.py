"""Containers recognised by content (onemail.message.containers): every container is built here
from corpus messages and must give exactly those messages, read exactly as read one by one."""

from __future__ import annotations

import os

import pytest
from paths import CORPUS

from onemail.message import read
from onemail.message.containers import SKIP_REASONS, Found, Skipped, recognise, walk, walk_data
from onemail.message.source import Source

MAIL = CORPUS / "mail"


def _samples(n: int = 8) -> list[bytes]:
    """``n`` corpus messages spread over the sources: no envelope line, ending with a line feed,
    no line starting with ``From `` (so every mbox variant can hold them unquoted)."""
    files = sorted(p for p in MAIL.rglob("*.eml"))
    out = []
    for p in files[:: max(1, len(files) // (n * 3))]:
        data = p.read_bytes()
        if data.startswith(b"From ") or not data.endswith(b"\n") or b"\nFrom " in data or b">From " in data:
            continue
        if read(data).error:
            continue
        out.append(data)
        if len(out) == n:
            break
    assert len(out) == n
    return out


def _same(msg, alone) -> None:
    """The message found in a container equals the same bytes read alone (format aside)."""
    a, b = msg.to_json(), alone.to_json()
    a.pop("format"), b.pop("format")
    assert a == b


def _messages(items) -> list:
    return [i for i in items if isinstance(i, Found)]


def test_recognise_by_content_not_suffix():
    assert recognise(b"From a@b Sat Jan  1 00:00:00 2000\nSubject: x\n\n") == "mbox"
    assert recognise(b"Received: from x\r\nSubject: hi\r\n\r\nbody") == "eml"
    assert recognise(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(100)) == "msg"
    assert recognise(b"\x78\x9f\x3e\x22" + bytes(10)) == "tnef"
    # a header-like text without any mail field is a message only with a hint
    assert recognise(b"Title: notes\nAuthor: me\n\ntext") is None
    assert recognise(b"Title: notes\nAuthor: me\n\ntext", hint=True) == "eml"
    assert recognise(b"\x89PNG\r\n\x1a\n") is None


def test_folder_of_messages_without_suffixes(tmp_path):
    samples = _samples(4)
    for i, data in enumerate(samples):
        (tmp_path / f"m{i}").write_bytes(data)
    (tmp_path / "notes.txt").write_bytes(b"Title: notes\n\nnot mail")
    (tmp_path / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(40))
    (tmp_path / "empty").write_bytes(b"")
    items = list(walk([tmp_path]))
    found = _messages(items)
    assert [f.source for f in found] == [Source(str(tmp_path), "eml", f"m{i}", 0, 0, len(d))
                                         for i, d in enumerate(samples)]
    for f, data in zip(found, samples, strict=True):
        _same(f.message, read(data))
    skipped = {(s.member, s.reason) for s in items if isinstance(s, Skipped)}
    assert skipped == {("notes.txt", "not-mail"), ("image.png", "not-mail"), ("empty", "empty")}
    assert all(s.reason in SKIP_REASONS for s in items if isinstance(s, Skipped))


def test_walk_order_is_source_key_order(tmp_path):
    data = _samples(1)[0]
    for name in ("b", "a.b/x", "a/y", "a/z/w", "c.eml"):
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    found = _messages(walk([tmp_path], read=False))
    assert [f.source.member for f in found] == ["a/y", "a/z/w", "a.b/x", "b", "c.eml"]
    assert sorted(found, key=lambda f: f.source.key()) == found
    assert all(f.message is None for f in found)


def test_mbox_gives_every_message_with_its_place(tmp_path):
    samples = _samples(3)
    box = b"".join(b"From a@b Sat Jan  1 00:00:00 2000\n" + d + b"\n" for d in samples)
    (tmp_path / "box").write_bytes(box)
    found = _messages(walk([tmp_path / "box"]))
    assert len(found) == 3
    for i, (f, data) in enumerate(zip(found, samples, strict=True)):
        src = f.source
        assert (src.container, src.index, src.member) == ("mbox", i, None)
        assert box[src.offset:src.offset + src.length] == data
        _same(f.message, read(data))


def test_eml_with_an_envelope_line_is_one_message(tmp_path):
    (tmp_path / "a.eml").write_bytes(b"From x Sat Jan  1 00:00:00 2000\nSubject: one\n\n"
                                     b"From me\n\nFrom a Sat Jan  1 00:00:00 2000\nSubject: two\n\n")
    (f,) = _messages(walk([tmp_path / "a.eml"]))
    assert (f.source.container, f.source.offset, f.message.subject) == ("eml", 32, "one")


def test_named_junk_is_read_and_fails_in_its_place(tmp_path):
    (tmp_path / "junk").write_bytes(b"\x00\x01\x02")
    (f,) = walk([tmp_path / "junk"])
    assert f.message.error == "not a message: no header, mbox, Outlook .msg or TNEF signature"


def test_missing_and_unreadable_paths_are_skipped(tmp_path):
    items = list(walk([tmp_path / "nope"]))
    assert [(i.reason, i.detail) for i in items] == [("unreadable", "No such file or directory")]
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "fifo")
        (s,) = walk([tmp_path])
        assert (s.member, s.reason) == ("fifo", "not-regular")


def test_walk_data_and_type_errors():
    (f,) = walk_data(b"Subject: hi\r\n\r\nbody")
    assert (f.source.path, f.source.container, f.message.subject) == ("-", "stdin", "hi")
    with pytest.raises(TypeError):
        list(walk("a/path"))
    with pytest.raises(TypeError):
        list(walk([3]))
