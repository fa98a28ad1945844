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


def test_separator_rule_is_exposed_for_shards():
    from onemail.message.mbox import is_separator, mbox_spans, next_separator, spans

    samples = _samples(5)
    box = VARIANTS["mboxrd"](samples)
    starts = [s.separator for s in spans(box)]
    assert len(starts) == 5
    # cutting anywhere and moving to the next separator gives the sequential messages
    cuts = sorted({0, *(next_separator(box, p) for p in range(0, len(box), len(box) // 7))} - {-1})
    assert set(cuts) <= set(starts)
    sharded = []
    for a, b in zip(cuts, [*cuts[1:], len(box)], strict=True):
        sharded += list(mbox_spans(box, start=a, end=b))
    assert sharded == list(mbox_spans(box))
    assert all(is_separator(box, s) for s in starts)
    assert not is_separator(box, starts[1] + 1)


def test_mbox_splitting_is_linear_on_hostile_lines():
    """Issue 16 item 3: an unterminated last From line full of ``0:00 `` and many candidate
    lines: the work is bounded per line (checked by counting, never timing)."""
    from onemail.message.mbox import spans

    data = b"From a\nSubject: x\n\n" + b"From " + b"0:00 " * 40_000
    assert [s.unsplit for s in spans(data)] == [(19,)]
    many = b"From a\nSubject: x\n\n" + b"\nFrom x\nTitle: y\nNote: z\n" * 20_000
    (span,) = spans(many)
    assert len(span.unsplit) == 20_000
