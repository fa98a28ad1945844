"""Shards (issue 15 item 1): sharded reading gives the sequential messages, places and order.

Every corpus mbox, the mail corpus as one mbox, a generated 200,000-message mbox, folders and
zip archives are read both ways; a shard whose file changed since planning (truncated, turned
into a FIFO, removed, rewritten) is one error message in its place (M40), and the other shards
are untouched.
"""

from __future__ import annotations

import os
import pickle
import random

import pytest
from paths import CORPUS

import onemail
from onemail.message import Message, read_mbox, shards
from onemail.message.containers import Found, Skipped, walk
from onemail.message.mbox import unquote
from onemail.message.reader import mbox_spans
from onemail.message.shards import Shard, key, messages
from onemail.message.source import Source

MAIL = CORPUS / "mail"


def _sharded(paths, **kw) -> list:
    """Every shard's items (each shard pickled on the way, as to another process), sorted."""
    planned = list(onemail.shards(paths, **kw))
    got = []
    for shard in planned:
        again = pickle.loads(pickle.dumps(shard))
        assert again == shard
        got.extend(onemail.records(again))
    return sorted(got, key=key)


def _sequential(paths) -> list:
    items = list(walk(paths))
    assert items == sorted(items, key=key)  # the walk's order is the key's
    return items


def _mbox(messages: list[bytes]) -> bytes:
    return b"".join(b"From a@example.org Sat Jan  1 00:00:%02d 2000\n" % (i % 60) + m
                    for i, m in enumerate(messages))


# ---------------------------------------------------------------------------------------------
# the items of the sequential walk


def test_the_mail_corpus_in_batches():
    """The whole mail corpus folder (3,386 files; 1,440 start with an mbox ``From `` line) in
    64 KiB batches: the walk's items, equal."""
    if not MAIL.exists():
        pytest.skip("../shared/corpus/mail is not present")
    planned = list(onemail.shards([MAIL], target_bytes=1 << 16))
    assert len(planned) > 100 and {s.kind for s in planned} == {"files", "whole"}
    assert sum(s.count if s.kind == "files" else 1 for s in planned) == 3386
    got = _sharded([MAIL], target_bytes=1 << 16)
    # four files are mailboxes of several messages (M20: sisimai rhost-cox-01 2, kmime
    # simple-encapsulated 2, mimekit simple.mbox.txt 3, unmunged.mbox.txt 2)
    assert len(got) == 3386 + 5
    assert got == _sequential([MAIL])


def test_corpus_as_one_mbox(tmp_path, monkeypatch):
    """A third of the mail corpus in one mbox (mboxrd-quoted), planned through a 64 KiB window
    (so messages straddle the planner's blocks) into 64 KiB shards."""
    files = sorted(MAIL.rglob("*.eml"))[::3]
    if not files:
        pytest.skip("../shared/corpus/mail is not present")
    bodies = []
    for path in files:
        data = path.read_bytes()
        if data.startswith(b"From "):
            data = data[data.find(b"\n") + 1:]
        data = data.replace(b"\nFrom ", b"\n>From ")
        bodies.append(data if data.endswith(b"\n") else data + b"\n")
    box = tmp_path / "corpus.mbox"
    box.write_bytes(_mbox(bodies))
    monkeypatch.setattr(shards, "_BLOCK", 1 << 16)
    planned = list(onemail.shards([box], target_bytes=1 << 16))
    assert len(planned) > 50 and {s.kind for s in planned} == {"mbox"}
    assert sum(s.count for s in planned) == len(bodies)
    assert _sharded([box], target_bytes=1 << 16) == _sequential([box])


def _generated(n: int, seed: int = 15) -> bytes:
    """``n`` small messages with what the split rule must get right: body lines starting
    ``From `` without a time (not separators), ``>From`` quoting, empty messages, CR LF line
    ends and an empty CR LF line before the next separator, a separator without a date."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        r = rng.random()
        if r < 0.02:
            body = b""
        elif r < 0.1:
            body = b"Subject: m%d\r\n\r\nbody\r\nFrom me to you\r\n" % i
        elif r < 0.15:
            body = b"Subject: m%d\r\n\r\nbody\r\n\r\n" % i
        elif r < 0.2:
            body = b"Subject: m%d\n\n>From quoted\n>>From twice\nFrom 9 to 10 no time\n" % i
        elif r < 0.25:
            body = b"Subject: m%d\n\nblank line after\n\n" % i
        else:
            body = b"Subject: m%d\n\nb\n" % i
        sep = b"From a@b Sat Jan  1 00:00:00 2000\n" if i % 7 else b"From a@b 12:30\n"
        out.append(sep + body)
    return b"".join(out) + b"\n"


def test_generated_200000_messages(tmp_path, monkeypatch):
    """200,000 small messages: for two shard sizes and planner blocks, the pieces (place and
    bytes) of every shard are exactly the sequential split's; a sample is read both ways."""
    data = _generated(200_000)
    box = tmp_path / "big.mbox"
    box.write_bytes(data)
    spans = list(mbox_spans(data))
    # an empty message after a separator without a date ("From a@b 12:30") is no message of its
    # own: neither an envelope nor followed by a header, the line stays in the message before (M20)
    assert len(spans) == 199_426
    expected = [(i, s, e - s) for i, (s, e) in enumerate(spans)]
    for block, target in ((1 << 14, 100_000), (1 << 23, 4 << 20)):
        monkeypatch.setattr(shards, "_BLOCK", block)
        planned = list(onemail.shards([box], target_bytes=target))
        got = []
        for shard in planned:
            for src, chunk, span, skipped in shards._mbox_range_pieces(shard):
                assert skipped is None
                assert chunk[span.start:span.end] == data[src.offset:src.offset + src.length]
                got.append((src.index, src.offset, src.length))
        assert got == expected, (block, target)
        assert planned[0].start == 0 and planned[-1].end == spans[-1][1]
        for a, b in zip(planned, planned[1:], strict=False):
            assert data[b.start:b.start + 9] == b"From a@b " and b.index == a.index + a.count
    monkeypatch.setattr(shards, "_BLOCK", 1 << 20)
    planned = list(onemail.shards([box], target_bytes=1 << 20))
    for shard in planned[::4]:  # the messages read_mbox gives for the shard's bytes
        mine = [item.message for item in messages(shard)]
        assert mine == list(read_mbox(data[shard.start:shard.end]))
        assert [unquote(data[s:e])[0] for s, e in spans[shard.index:shard.index + 2]] == [
            unquote(data[i.source.offset:i.source.offset + i.source.length])[0]
            for i in list(messages(shard))[:2]]


def test_small_files_and_envelopes_whole(tmp_path):
    """Below target_bytes a file is one whole shard read by the walk's per-file step; a large
    ``*.eml`` starting with ``From `` is one whole shard too, read as the walk reads it (an mbox:
    content decides, M20)."""
    eml = tmp_path / "one.eml"
    eml.write_bytes(b"Subject: c\n\nz\n")
    [shard] = onemail.shards([eml])
    assert shard == Shard("whole", str(eml), size=14, mtime_ns=eml.stat().st_mtime_ns)
    assert _sharded([eml]) == _sequential([eml])
    big = tmp_path / "big.eml"
    big.write_bytes(_mbox([b"Subject: a\n\n" + b"x\n" * 100, b"Subject: b\n\n"]))
    assert [s.kind for s in onemail.shards([big], target_bytes=10)] == ["whole"]
    assert len(_sharded([big], target_bytes=10)) == 2
    assert _sharded([big], target_bytes=10) == _sequential([big])


def test_folder_batches_and_large_mbox_ranges(tmp_path):
    """A folder's files batched; a large mbox inside cut into ranges with its member name; not
    mail skipped; the walk's items."""
    (tmp_path / "sub").mkdir()
    for i in range(30):
        (tmp_path / f"m{i:02}.eml").write_bytes(b"Subject: e%d\n\nbody %s\n" % (i, b"x" * i))
    (tmp_path / "sub" / "box").write_bytes(_mbox([b"Subject: b%d\n\n%s\n" % (i, b"y" * 200)
                                                  for i in range(100)]))
    (tmp_path / "sub" / "small").write_bytes(_mbox([b"Subject: s0\n\n>From x\n", b"Subject: s1\n\n.\n"]))
    (tmp_path / "sub" / "notes.txt").write_bytes(b"Title: not mail\n\ntext\n")
    os.mkfifo(tmp_path / "sub" / "pipe")
    planned = list(onemail.shards([tmp_path], target_bytes=4000))
    kinds = [s.kind for s in planned]
    assert kinds.count("files") >= 2 and kinds.count("mbox") >= 5 and kinds.count("skipped") == 1
    assert all(s.member == "sub/box" for s in planned if s.kind == "mbox")
    got = _sharded([tmp_path], target_bytes=4000)
    assert got == _sequential([tmp_path])
    subjects = [i.message.subject for i in got if isinstance(i, Found)]
    assert subjects == [f"e{i}" for i in range(30)] + [f"b{i}" for i in range(100)] + ["s0", "s1"]
    assert [(i.member, i.reason) for i in got if isinstance(i, Skipped)] == [
        ("sub/notes.txt", "not-mail"), ("sub/pipe", "not-regular")]


def test_folder_batch_limit(tmp_path):
    for i in range(shards.MAX_BATCH_FILES + 3):
        (tmp_path / f"{i:04}.eml").write_bytes(b"Subject: s\n\n.\n")
    planned = list(onemail.shards([tmp_path]))
    assert [s.count for s in planned] == [shards.MAX_BATCH_FILES, 3]


# ---------------------------------------------------------------------------------------------
# what changed since planning (M40), what cannot be planned


def _box(tmp_path, n=40):
    box = tmp_path / "box.mbox"
    box.write_bytes(_mbox([b"Subject: s%d\n\n%s\n" % (i, b"z" * 100) for i in range(n)]))
    return box


def _damaged(shard: Shard, why: str, index: int | None = None, start: int | None = None) -> Found:
    index = shard.index if index is None else index
    start = shard.start if start is None else start
    last = shard.index + shard.count - 1
    return Found(Source(shard.path, "mbox", None, index, start, shard.end - start),
                 Message("mbox", error=f"{why} (messages {index}-{last}, bytes {start}-{shard.end})"))


def test_truncated_since_planned(tmp_path):
    """Truncated after planning: the shards past the new end are one error message each, in
    their place; the shards before it read as planned."""
    box = _box(tmp_path)
    planned = list(onemail.shards([box], target_bytes=1000))
    assert [s.count for s in planned] == [7, 7, 7, 7, 7, 5]
    with open(box, "r+b") as f:
        f.truncate(planned[2].start + 100)
    results = [list(messages(s)) for s in planned]
    assert [len(r) for r in results] == [7, 7, 1, 1, 1, 1]
    assert all(i.message.error is None for r in results[:2] for i in r)
    for shard, [item] in zip(planned[2:], results[2:], strict=True):
        assert item == _damaged(shard, f"mbox changed since planned: {planned[2].start + 100} bytes, "
                                       f"the shard ends at byte {shard.end}")
    # cut inside the separator line after shard 1: that line separates nothing now (a "From "
    # line without its line feed), so shard 1's last message is not the planned one
    with open(box, "r+b") as f:
        f.truncate(planned[2].start + 10)
    got = list(messages(planned[1]))
    assert [i.message.error is None for i in got] == [True] * 6 + [False]
    sixth = got[5].source
    assert got[-1] == _damaged(planned[1], "mbox changed since planned: 6 of 7 messages found in "
                               "the shard's range", 13, sixth.offset + sixth.length)
    assert box.read_bytes()[got[-1].source.offset:got[-1].source.offset + 5] == b"From "


def test_rewritten_since_planned(tmp_path):
    """The same size but a separator gone: the messages found, then one error message for the
    rest; the next shards read as planned."""
    box = _box(tmp_path)
    planned = list(onemail.shards([box], target_bytes=1000))
    data = bytearray(box.read_bytes())
    cut = data.index(b"\nFrom ", planned[1].start + 200) + 1
    data[cut:cut + 5] = b"Xrom "
    box.write_bytes(bytes(data))
    got = list(messages(planned[1]))
    assert [i.message.error is None for i in got] == [True] * 6 + [False]
    assert got[-1].message.error.startswith("mbox changed since planned: 6 of 7 messages found in "
                                            "the shard's range (messages 13-13, bytes ")
    assert [(i.message.error, i.source.index) for s in planned[2:] for i in messages(s)] == [
        (None, i) for i in range(14, 40)]


def test_turned_into_fifo_or_removed(tmp_path):
    """A file replaced by a FIFO after planning is never opened for a blocking read; a removed
    file is the walk's unreadable item; neither raises."""
    box = _box(tmp_path)
    (tmp_path / "d").mkdir()
    eml = tmp_path / "d" / "a.eml"
    eml.write_bytes(b"Subject: a\n\n.\n")
    planned = list(onemail.shards([box, tmp_path / "d"], target_bytes=1000))
    box.unlink()
    os.mkfifo(box)
    eml.unlink()
    os.mkfifo(eml)
    got = [item for s in planned for item in messages(s)]
    assert [i.message.error.split(" (messages")[0] for i in got[:6]] == [
        "mbox changed since planned: not a regular file (FIFO)"] * 6
    assert got[6:] == [Skipped(str(tmp_path / "d"), "not-regular", "not a regular file (FIFO)",
                              member="a.eml")]
    eml.unlink()
    assert [i.reason for i in messages(planned[-1])] == ["unreadable"]


def test_unreadable_paths(tmp_path):
    missing = tmp_path / "missing"
    assert _sharded([missing]) == _sequential([missing])
    assert [i.reason for i in _sharded([missing])] == ["unreadable"]


def test_fifo_named_is_one_whole_shard(tmp_path):
    fifo = tmp_path / "p"
    os.mkfifo(fifo)
    assert list(onemail.shards([fifo])) == [Shard("whole", str(fifo), mtime_ns=fifo.stat().st_mtime_ns)]


def test_key_of_skipped_items_sorts_in_place():
    a = Found(Source("p", "mbox", "x", 3, 100, 10), None)
    b = Skipped("p", "unreadable", "", member="x/")
    c = Found(Source("p", "eml", "y"), None)
    d = Skipped("p", "not-mail", "", member="z")
    assert sorted([d, c, b, a], key=key) == [a, b, c, d]


def test_wrong_arguments():
    with pytest.raises(TypeError, match="list of paths"):
        list(onemail.shards("box.mbox"))
    with pytest.raises(ValueError, match="positive"):
        list(onemail.shards([], target_bytes=0))
    with pytest.raises(TypeError, match="int"):
        list(onemail.shards([], target_bytes=1.5))
    with pytest.raises(TypeError, match="Shard"):
        list(messages("box.mbox"))
