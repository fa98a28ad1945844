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
    no line starting with ``From `` (so every mbox variant can hold them unquoted), not ending
    with an empty line (which, with no empty line between messages, would be the mbox's)."""
    files = sorted(p for p in MAIL.rglob("*.eml"))
    out = []
    step = max(1, len(files) // (n * 3))
    for p in (files[i] for k in range(step) for i in range(k, len(files), step)):
        data = p.read_bytes()
        if data.startswith(b"From ") or not data.endswith(b"\n") or data.endswith((b"\n\n", b"\n\r\n")):
            continue
        if b"\nFrom " in data or b">From " in data:
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
    ole = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(100)
    assert recognise(ole) is None  # an OLE2 file without an Outlook stream: a .doc, an .xls
    assert recognise(ole, hint=True) == "msg"
    assert recognise(ole + "__substg1.0_0037001F".encode("utf-16-le")) == "msg"
    assert recognise(b"\x1f\x8b\x08") == "gzip"
    assert recognise(b"BZh91AY&SY") == "bzip2"
    assert recognise(b"\xfd7zXZ\x00\x00") == "xz"
    assert recognise(b"PK\x03\x04") == "zip"
    assert recognise(b"!BDN\x00") == "pst"
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


# -- mbox variants (M20-M22) -----------------------------------------------------------------

ENVELOPE = b"From a@b.example Sat Jan  1 00:00:00 2000\n"


def _quote_rd(data: bytes) -> bytes:
    """mboxrd: every line matching ``>*From `` gains one ``>``."""
    import re

    return re.sub(rb"(?m)^(>*From )", rb">\1", data)


def _quote_o(data: bytes) -> bytes:
    """mboxo: only lines starting with ``From `` gain a ``>``."""
    import re

    return re.sub(rb"(?m)^From ", rb">From ", data)


def _with_length(data: bytes) -> bytes:
    """The message with a Content-Length field giving its body's length (mboxcl)."""
    i = data.find(b"\n\n")
    j = data.find(b"\r\n\r\n")
    if i < 0 or (0 <= j < i):
        head, body = data[:j + 2], data[j + 2:]
    else:
        head, body = data[:i + 1], data[i + 1:]
    sep = b"\r\n" if head.endswith(b"\r\n") else b"\n"
    # the body starts after the empty line: drop it from ``body`` and count what follows
    empty, rest = body[:len(sep)], body[len(sep):]
    assert empty == sep
    return head + b"Content-Length: %d" % len(rest) + sep + empty + rest


VARIANTS = {
    "mboxo": lambda ds: b"".join(ENVELOPE + _quote_o(d) + b"\n" for d in ds),
    "mboxrd": lambda ds: b"".join(ENVELOPE + _quote_rd(d) + b"\n" for d in ds),
    "mboxcl": lambda ds: b"".join(ENVELOPE + _with_length(_quote_o(d)) + b"\n" for d in ds),
    "mboxcl2": lambda ds: b"".join(ENVELOPE + _with_length(d) + b"\n" for d in ds),
    # Google Takeout / GYB and Thunderbird exports: bare separators
    "bare": lambda ds: b"".join(b"From \n" + _quote_rd(d) + b"\n" for d in ds),
    "thunderbird": lambda ds: b"".join(b"From - Sat Jan  1 00:00:00 2000\n" + _quote_rd(d) + b"\n" for d in ds),
    # no empty line between messages: bare or RFC 4155 envelope lines still separate
    "no-empty-line": lambda ds: b"".join(b"From -\n" + _quote_rd(d) for d in ds),
    "no-time": lambda ds: b"".join(b"From a@b.example\n" + _quote_rd(d) + b"\n" for d in ds),
    "crlf": lambda ds: b"".join(b"From a@b Sat Jan  1 00:00:00 2000\r\n" + _quote_rd(d) + b"\r\n" for d in ds),
}


def _crlf_samples(samples):
    return [d.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n") for d in samples]


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_each_mbox_variant_gives_the_messages_read_one_by_one(tmp_path, variant):
    samples = _samples(6)
    if variant == "crlf":
        samples = _crlf_samples(samples)
    (tmp_path / "box").write_bytes(VARIANTS[variant](samples))
    found = _messages(walk([tmp_path / "box"]))
    assert len(found) == 6
    for f, data in zip(found, samples, strict=True):
        if variant in ("mboxcl", "mboxcl2"):
            data = _with_length(data)  # the field is the message's own
        _same(f.message, read(data))
        assert f.source.container == "mbox"


def _body_with(lines: bytes) -> bytes:
    return b"Subject: meeting\nFrom: a@b.example\n\nHello,\n\n" + lines + b"\nBye\n"


def test_a_body_from_line_does_not_split():
    """Unquoted body lines starting with From: one message, each line reported (M20)."""
    msg = _body_with(b"From 9:30 until 10:00 we meet.\nBring coffee.\n\nFrom Russia with love\nYear: 1963\n")
    box = ENVELOPE + msg + b"\n" + ENVELOPE + b"Subject: two\n\nx\n"
    found = _messages(walk_data(box))
    assert [f.message.subject for f in found] == ["meeting", "two"]
    issues = [(i.kind.value, i.where, i.offset, i.length) for i in found[0].message.issues
              if i.where == "mbox"]
    first = msg.index(b"From 9:30")
    second = msg.index(b"From Russia")
    assert issues == [("AmbiguousMboxSeparator", "mbox", first, 30),
                      ("AmbiguousMboxSeparator", "mbox", second, 21)]
    assert "From 9:30 until 10:00 we meet." in found[0].message.parts[0].text


def test_quoting_is_undone_and_reported():
    box = ENVELOPE + _quote_rd(_body_with(b">From the past\nFrom now\n"))
    (f,) = walk_data(box)
    text = f.message.parts[0].text
    assert ">From the past\nFrom now\n" in text
    quoted = [(i.kind.value, i.offset, i.length) for i in f.message.issues if i.where == "mbox"]
    raw = box[len(ENVELOPE):]
    assert quoted == [("AmbiguousMboxQuoting", raw.index(b">>From"), 1),
                      ("AmbiguousMboxQuoting", raw.index(b">From now"), 1)]


def test_content_length_wins_over_a_separator_inside_and_is_reported():
    """mboxcl2: a forwarded message's unquoted From line inside a Content-Length body (M22)."""
    inner = b"\nFrom c@d.example Sat Jan  1 00:00:00 2000\nFrom: c@d.example\nSubject: inner\n\n>From x\n"
    body = b"see below\n" + inner
    msg = b"Subject: outer\nContent-Length: %d\n\n" % len(body) + body
    box = ENVELOPE + msg + b"\n" + ENVELOPE + b"Subject: next\n\nx\n"
    found = _messages(walk_data(box))
    assert [f.message.subject for f in found] == ["outer", "next"]
    outer = found[0].message
    where = [(i.kind.value, i.offset) for i in outer.issues if i.where == "mbox"]
    assert where == [("AmbiguousMboxContentLength", msg.index(b"From c@d"))]
    assert outer.parts[0].text.endswith(">From x\n")  # mboxcl2: not unquoted
    assert found[0].source.length == len(msg)


def test_a_wrong_content_length_is_ignored():
    msg = b"Subject: one\nContent-Length: 5000\n\nbody\n"
    box = ENVELOPE + msg + b"\n" + ENVELOPE + b"Subject: two\n\nx\n"
    assert [f.message.subject for f in walk_data(box)] == ["one", "two"]


# -- Maildir, MH ---------------------------------------------------------------------------


def _maildir(root, samples):
    """A Maildir with a Maildir++ folder ``.Work.2020``: returns the expected
    ``(member, folder, flags)`` in walk order."""
    for sub in ("cur", "new", "tmp", ".Work.2020/cur", ".Work.2020/new", ".Work.2020/tmp"):
        (root / sub).mkdir(parents=True)
    names = [(".Work.2020/cur/1600000000.M1P1.host:2,S", "Work/2020", "S"),
             ("cur/1500000000.M1P1.host:2,RS", None, "RS"),
             ("cur/1500000001.M2P1.host!2,", None, ""),
             ("new/1500000002.M3P1.host", None, None)]
    for (name, _, _), data in zip(names, samples, strict=True):
        (root / name).write_bytes(data)
    (root / "tmp" / "1500000003.M4P1.host").write_bytes(samples[0])
    (root / "dovecot-uidlist").write_bytes(b"3 V1 N4\n")
    return names


def test_maildir_with_flags_and_maildir_plus_plus_folders(tmp_path):
    samples = _samples(4)
    names = _maildir(tmp_path, samples)
    items = list(walk([tmp_path]))
    found = _messages(items)
    assert [(f.source.member, f.source.folder, f.source.flags) for f in found] == names
    assert {f.source.container for f in found} == {"maildir"}
    for f, data in zip(found, samples, strict=True):
        _same(f.message, read(data))
    skipped = [(s.member, s.reason) for s in items if isinstance(s, Skipped)]
    assert skipped == [("dovecot-uidlist", "not-mail"), ("tmp/1500000003.M4P1.host", "incomplete")]
    assert sorted(found, key=lambda f: f.source.key()) == found


def test_mh_folder_in_numeric_order(tmp_path):
    samples = _samples(3)
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    for number, data in zip((10, 2, 1), samples, strict=True):
        (inbox / str(number)).write_bytes(data)
    (inbox / ".mh_sequences").write_bytes(b"unseen: 2\n")
    found = _messages(walk([tmp_path]))
    assert [(f.source.member, f.source.container) for f in found] == [
        ("inbox/1", "mh"), ("inbox/2", "mh"), ("inbox/10", "mh")]
    for f, data in zip(found, samples[::-1], strict=True):
        _same(f.message, read(data))
    assert sorted(found, key=lambda f: f.source.key()) == found


# -- gzip, bzip2, xz --------------------------------------------------------------------------


def _compress(kind: str, data: bytes) -> bytes:
    import bz2
    import gzip
    import lzma

    return {"gzip": gzip.compress, "bzip2": bz2.compress, "xz": lzma.compress}[kind](data)


@pytest.mark.parametrize("kind", ["gzip", "bzip2", "xz"])
def test_compressed_mbox_and_eml(tmp_path, kind):
    samples = _samples(4)
    box = VARIANTS["mboxrd"](samples)
    (tmp_path / "box.mbox.x").write_bytes(_compress(kind, box))
    (tmp_path / "one.x").write_bytes(_compress(kind, samples[0]))
    found = _messages(walk([tmp_path]))
    assert [(f.source.member, f.source.container, f.source.compression, f.source.index) for f in found] == [
        ("box.mbox.x", "mbox", kind, i) for i in range(4)] + [("one.x", "eml", kind, 0)]
    for f, data in zip(found, [*samples, samples[0]], strict=True):
        _same(f.message, read(data))
        if f.source.container == "mbox":
            assert box[f.source.offset:f.source.offset + f.source.length] == data


def test_concatenated_gzip_members(tmp_path):
    samples = _samples(2)
    box = VARIANTS["mboxrd"](samples)
    half = box.index(b"\nFrom ", 10) + 1
    (tmp_path / "box.gz").write_bytes(_compress("gzip", box[:half]) + _compress("gzip", box[half:]))
    assert len(_messages(walk([tmp_path / "box.gz"]))) == 2


@pytest.mark.parametrize("kind", ["gzip", "bzip2", "xz"])
def test_truncated_compressed_file_keeps_what_was_read_and_reports(tmp_path, kind):
    samples = _samples(3)
    box = VARIANTS["mboxrd"](samples)
    half = box.index(b"\nFrom ", 10) + 1
    tail = _compress(kind, box[half:])  # a second stream, cut short (bzip2 gives nothing of a
    # block before its end, so the first stream is whole)
    (tmp_path / "box").write_bytes(_compress(kind, box[:half]) + tail[: len(tail) * 2 // 3])
    items = list(walk([tmp_path / "box"]))
    assert isinstance(items[-1], Skipped)
    assert (items[-1].reason, items[-1].detail) == ("damaged", f"{kind} stream truncated")
    assert all(isinstance(i, Found) for i in items[:-1]) and items[:-1]
    # only the last message read reaches the cut, and says so (offset into its bytes, length 0)
    cut = [i for i in items[:-1] if any(x.kind.value == "TruncatedContainer" for x in i.message.issues)]
    assert cut == [items[-2]]
    last = items[-2]
    assert [(x.where, x.offset, x.length) for x in last.message.issues
            if x.kind.value == "TruncatedContainer"] == [("container", items[-1].offset - (last.source.offset or 0), 0)]


def test_decompression_bomb_is_bounded(tmp_path, monkeypatch):
    import onemail.message.containers as containers

    monkeypatch.setattr(containers, "RATIO_FLOOR_BYTES", 1 << 16)
    samples = _samples(1)
    bomb = b"From a Sat Jan  1 00:00:00 2000\n" + samples[0] + b"\n" + bytes(50 << 20)
    packed = _compress("gzip", bomb)
    (tmp_path / "bomb.gz").write_bytes(packed)
    items = list(walk([tmp_path / "bomb.gz"]))
    limit = max(1 << 16, containers.MAX_RATIO * len(packed))
    assert [type(i).__name__ for i in items] == ["Found", "Skipped"]
    assert items[1].reason == "limit" and items[1].offset == limit
    assert items[1].detail.startswith(f"decompressed output over {limit} bytes")
    assert items[0].source.offset + items[0].source.length <= limit
    # the message that met the limit says so in its own issues (a record alone shows it)
    assert [(x.kind.value, x.where, x.offset, x.length) for x in items[0].message.issues][-1:] == [
        ("TruncatedContainer", "container", limit - (items[0].source.offset or 0), 0)]


# -- zip ------------------------------------------------------------------------------------


def _zip(path, members: list[tuple[str, bytes]], **kw):
    import zipfile

    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, **kw) as zf:
        for name, data in members:
            zf.writestr(name, data)


def test_zip_of_eml_mbox_maildir_and_compressed(tmp_path):
    samples = _samples(6)
    box = VARIANTS["mboxrd"](samples[1:3])
    _zip(tmp_path / "mail.zip", [
        ("z/a.eml", samples[0]),
        ("box.mbox", box),
        ("Maildir/cur/1500000000.M1.host:2,S", samples[3]),
        ("Maildir/new/1500000001.M2.host", samples[4]),
        ("old.eml.gz", _compress("gzip", samples[5])),
        ("notes/readme.md", b"# notes\n"),
    ])
    items = list(walk([tmp_path]))
    found = _messages(items)
    got = [(f.source.archive, f.source.member, f.source.container, f.source.flags, f.source.compression)
           for f in found]
    assert got == [  # name order: "Maildir" before "box.mbox"
        ("mail.zip", "Maildir/cur/1500000000.M1.host:2,S", "maildir", "S", None),
        ("mail.zip", "Maildir/new/1500000001.M2.host", "maildir", None, None),
        ("mail.zip", "box.mbox", "mbox", None, None),
        ("mail.zip", "box.mbox", "mbox", None, None),
        ("mail.zip", "old.eml.gz", "eml", None, "gzip"),
        ("mail.zip", "z/a.eml", "eml", None, None),
    ]
    order = [3, 4, 1, 2, 5, 0]
    for f, i in zip(found, order, strict=True):
        _same(f.message, read(samples[i]))
    assert [(s.member, s.reason) for s in items if isinstance(s, Skipped)] == [("notes/readme.md", "not-mail")]
    assert sorted(found, key=lambda f: f.source.key()) == found


def test_named_zip_has_an_empty_archive_path(tmp_path):
    _zip(tmp_path / "a.zip", [("m.eml", _samples(1)[0])])
    (f,) = walk([tmp_path / "a.zip"])
    assert (f.source.path, f.source.archive, f.source.member) == (str(tmp_path / "a.zip"), "", "m.eml")


def test_hostile_zip_member_names_are_only_names(tmp_path):
    """Names are never file system paths: nothing is written, each name is recorded as given
    (separators normalised), NUL cut by zipfile, control characters kept for the CLI to escape."""
    data = _samples(1)[0]
    names = ["../../etc/passwd", "/abs/olute.eml", "C:\\win\\x.eml", "a\nsummary: forged\x1b[2J.eml",
             "CON", "x" * 10_000]
    _zip(tmp_path / "h.zip", [(n, data) for n in names])
    before = set(os.listdir(tmp_path))
    found = _messages(walk([tmp_path / "h.zip"]))
    assert set(os.listdir(tmp_path)) == before
    members = sorted(f.source.member for f in found)
    assert members == sorted(["../../etc/passwd", "abs/olute.eml", "C:/win/x.eml",
                              "a\nsummary: forged\x1b[2J.eml", "CON", "x" * 10_000])


def test_zip_bomb_of_members_and_of_ratio_is_bounded(tmp_path, monkeypatch):
    import onemail.message.containers as containers

    monkeypatch.setattr(containers, "RATIO_FLOOR_BYTES", 1 << 16)
    monkeypatch.setattr(containers, "MAX_ZIP_MEMBERS", 5)
    data = _samples(1)[0]
    _zip(tmp_path / "many.zip", [(f"m{i}.eml", data) for i in range(8)])
    items = list(walk([tmp_path / "many.zip"]))
    assert len(_messages(items)) == 5
    assert [(s.reason, s.detail) for s in items if isinstance(s, Skipped)] == [
        ("limit", "more than 5 members: 3 not read")]
    _zip(tmp_path / "bomb.zip", [("big.eml", data + bytes(20 << 20)), ("after.eml", data)])
    items = list(walk([tmp_path / "bomb.zip"]))
    reasons = [(type(i).__name__, getattr(i, "reason", None), getattr(i, "member", None)) for i in items]
    assert reasons[0] == ("Found", None, None)  # after.eml sorts first
    assert reasons[1] == ("Skipped", "limit", "big.eml")


def test_unreadable_zip_member_is_one_skip_and_the_walk_goes_on(tmp_path):
    import zipfile

    samples = _samples(2)
    path = tmp_path / "bad.zip"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_STORED) as zf:
        zf.writestr("a.eml", samples[0])
        zf.writestr("b.eml", samples[1])
    raw = bytearray(path.read_bytes())
    at = raw.index(samples[0][:40])
    raw[at + 5] ^= 0xFF  # a stored byte changed: the CRC fails
    path.write_bytes(bytes(raw))
    (tmp_path / "z.eml").write_bytes(samples[1])
    items = list(walk([tmp_path]))
    assert [(type(i).__name__, getattr(i, "reason", None)) for i in items] == [
        ("Skipped", "damaged"), ("Found", None), ("Found", None)]
    assert items[0].member == "a.eml" and "CRC" in items[0].detail
    _same(items[1].message, read(samples[1]))


def test_truncated_zip_is_one_skip(tmp_path):
    _zip(tmp_path / "t.zip", [("a.eml", _samples(1)[0])])
    raw = (tmp_path / "t.zip").read_bytes()
    (tmp_path / "t.zip").write_bytes(raw[: len(raw) // 2])
    (s,) = walk([tmp_path / "t.zip"])
    assert s.reason == "damaged" and s.detail.startswith("not a readable zip archive")


# -- standard input and FIFOs ---------------------------------------------------------------


def test_standard_input(monkeypatch):
    import io
    import sys

    samples = _samples(3)
    box = VARIANTS["mboxrd"](samples)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(_compress("xz", box))))
    found = _messages(walk(["-"]))
    assert [(f.source.path, f.source.container, f.source.compression) for f in found] == [("-", "mbox", "xz")] * 3
    for f, data in zip(found, samples, strict=True):
        _same(f.message, read(data))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs POSIX FIFOs")
@pytest.mark.parametrize("packed", [False, True])
def test_fifo_mbox_needs_no_seek(tmp_path, packed, monkeypatch):
    import onemail.message.containers as containers

    monkeypatch.setattr(containers, "SPILL_BYTES", 1000)  # through the temporary file too
    samples = _samples(4)
    box = VARIANTS["mboxrd"](samples)
    payload = _compress("gzip", box) if packed else box
    from fifo import fed_fifo

    with fed_fifo(tmp_path, payload) as fifo:
        found = _messages(walk([fifo]))
    assert len(found) == 4
    for f, data in zip(found, samples, strict=True):
        _same(f.message, read(data))


def test_task_for_gives_the_walk_s_own_task(tmp_path):
    """A worker handed one file of a folder reads it as the walk does (walk_file with root)."""
    from onemail.message.containers import FileTask, task_for, tasks, walk_file, walk_task

    samples = _samples(4)
    _maildir(tmp_path / "Maildir", samples)
    inbox = tmp_path / "mh" / "inbox"
    inbox.mkdir(parents=True)
    (inbox / "3").write_bytes(samples[0])
    (tmp_path / "plain.eml").write_bytes(samples[1])
    planned = [t for t in tasks([tmp_path]) if isinstance(t, FileTask)]
    assert [t.container for t in planned] == ["maildir"] * 3 + [None, "maildir", "mh", None]
    for task in planned:
        assert task_for(str(tmp_path), task.member) == task
        assert list(walk_file(task.file, root=tmp_path)) == list(walk_task(task))


def test_memory_mapped_zip(tmp_path, monkeypatch):
    """A zip of MMAP_BYTES or more is read through its memory map (an mmap has no seekable()
    before Python 3.13: zipfile raised AttributeError on every zip of 64 MiB or more)."""
    from onemail.message import formats

    samples = _samples(3)
    _zip(tmp_path / "m.zip", [(f"m{i}.eml", data) for i, data in enumerate(samples)])
    whole = list(walk([tmp_path / "m.zip"]))
    monkeypatch.setattr(formats, "MMAP_BYTES", 16)
    assert list(walk([tmp_path / "m.zip"])) == whole
    assert len(_messages(whole)) == 3
