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
from onemail.message import Message, shards
from onemail.message.containers import FileTask, Found, Skipped, walk
from onemail.message.formats import ReadContext
from onemail.message.mbox import read_span, spans
from onemail.message.reader import read_bytes
from onemail.message.records import build_records
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
        got.extend(messages(again))
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
    assert len(planned) > 100 and {s.kind for s in planned} <= {"files", "whole", "mbox"}
    assert sum(len(s.tasks) for s in planned if s.kind != "mbox") + len(
        {s.tasks[0] for s in planned if s.kind == "mbox"}) == 3386
    got = _sharded([MAIL], target_bytes=1 << 16)
    sequential = _sequential([MAIL])
    assert sum(isinstance(i, Found) for i in sequential) >= 3380
    assert got == sequential


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
    monkeypatch.setattr(shards, "BLOCK_BYTES", 1 << 16)
    planned = list(onemail.shards([box], target_bytes=1 << 16))
    assert len(planned) > 50 and {s.kind for s in planned} == {"mbox"}
    sequential = _sequential([box])
    assert sum(s.count for s in planned) == len(sequential) > 1000
    assert _sharded([box], target_bytes=1 << 16) == sequential


def _generated(n: int, seed: int = 15) -> bytes:
    """``n`` small messages with what the split rule must get right: body lines starting
    ``From `` that separate nothing (no empty line before, or no header after), ``>From``
    quoting, a header without a body, CR LF line ends and an empty CR LF line before the next
    separator, RFC 4155 envelopes and bare ``From `` separators (Google Takeout)."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        r = rng.random()
        if r < 0.02:
            body = b"Subject: m%d\n" % i
        elif r < 0.1:
            body = b"Subject: m%d\r\n\r\nbody\r\nFrom me to you\r\n" % i
        elif r < 0.15:
            body = b"Subject: m%d\r\n\r\nbody\r\n\r\n" % i
        elif r < 0.2:
            body = b"Subject: m%d\n\n>From quoted\n>>From twice\nFrom 9:30 to 10:00\n" % i
        elif r < 0.25:
            body = b"Subject: m%d\n\nblank line, then no header:\n\nFrom here on\nx\n\n" % i
        else:
            body = b"Subject: m%d\n\nb\n" % i
        sep = b"From a@b Sat Jan  1 00:00:00 2000\n" if i % 7 else b"From \n"
        out.append(sep + body)
    return b"".join(out) + b"\n"


def test_generated_200000_messages(tmp_path, monkeypatch):
    """200,000 small messages. Planned through 64 KiB windows into 100 kB shards, the pieces
    (place and bytes) of every shard are exactly the sequential split's; planned through 1 MiB
    windows into 1 MiB shards, the shards tile the same split, and the first and last read as the
    walk reads them."""
    data = _generated(200_000)
    box = tmp_path / "big.mbox"
    box.write_bytes(data)
    whole = list(spans(data))
    assert len(whole) == 200_000
    monkeypatch.setattr(shards, "BLOCK_BYTES", 1 << 16)
    got = []
    for shard in onemail.shards([box], target_bytes=100_000):
        for src, span, window in shards._mbox_range_pieces(shard):
            assert span is not None
            assert window[span.start:span.end] == data[src.offset:src.offset + src.length]
            got.append((src.index, src.offset, src.length))
    assert got == [(i, sp.start, sp.end - sp.start) for i, sp in enumerate(whole)]
    monkeypatch.setattr(shards, "BLOCK_BYTES", 1 << 20)
    planned = list(onemail.shards([box], target_bytes=1 << 20))
    assert len(planned) > 5 and sum(s.count for s in planned) == 200_000
    for shard in planned:
        first, last = whole[shard.index], whole[shard.index + shard.count - 1]
        assert (shard.start, shard.end) == (first.separator, last.end)
    ctx = ReadContext(False, 0, read_bytes)
    for shard in (planned[0], planned[-1]):
        mine = [item.message for item in messages(shard)]
        assert mine == [read_span(data, sp, ctx) for sp in whole[shard.index:shard.index + shard.count]]


def test_records_of_shards_are_the_records_of_the_walk(tmp_path):
    """onemail.records(shard): build_records of each message, in order; skipped items give
    none (as in onemail export)."""
    box = tmp_path / "box.mbox"
    box.write_bytes(_mbox([b"Subject: r%d\n\n%s\n" % (i, b"w" * 300) for i in range(20)]))
    (tmp_path / "notes.txt").write_bytes(b"Title: no mail\n\n")
    expected = [r for item in walk([tmp_path]) if isinstance(item, Found)
                for r in build_records(item.message, item.source)]
    planned = list(onemail.shards([tmp_path], target_bytes=1000))
    got = sorted((r for s in planned for r in onemail.records(s)),
                 key=lambda r: (r["source"]["member"], r["source"]["index"]))
    assert len(got) == 20 and got == expected


def test_small_files_batched_big_ones_whole(tmp_path):
    """Below target_bytes a file joins a batch read by the walk's per-file step; a large file
    that is no mbox is one whole shard; a large mbox named *.eml is cut like any mbox."""
    eml = tmp_path / "one.eml"
    eml.write_bytes(b"Subject: c\n\nz\n")
    [shard] = onemail.shards([eml])
    assert (shard.kind, shard.tasks, shard.size) == ("files", (FileTask(str(eml), str(eml)),), 14)
    assert _sharded([eml]) == _sequential([eml])
    big = tmp_path / "big.eml"
    big.write_bytes(b"Subject: a\n\n" + b"x\n" * 100)
    assert [s.kind for s in onemail.shards([big], target_bytes=10)] == ["whole"]
    assert _sharded([big], target_bytes=10) == _sequential([big])
    box = tmp_path / "box.eml"
    box.write_bytes(_mbox([b"Subject: a\n\n" + b"x\n" * 100, b"Subject: b\n\n"]))
    assert [s.kind for s in onemail.shards([box], target_bytes=10)] == ["mbox", "mbox"]
    assert _sharded([box], target_bytes=10) == _sequential([box])


def test_bom_content_length_and_long_messages(tmp_path, monkeypatch):
    """What the rule looks far ahead for: a Content-Length body (mboxcl2, unquoted From lines
    that separate nothing) larger than the planner's window, wrong and stale lengths, a BOM, a
    message larger than a window; planned through 4 KiB windows into 1-byte shards."""
    monkeypatch.setattr(shards, "BLOCK_BYTES", 4096)
    inner = b"\n".join(b"line %d" % i for i in range(2000)) + b"\n\nFrom a@b Sat Jan  1 00:00:00 2000\nSubject: fake\n\nx\n"
    messages_ = [
        b"Subject: one\nContent-Length: %d\n\n%s" % (len(inner), inner),
        b"Subject: stale\nContent-Length: 5\n\nlonger body\n",
        b"Subject: far\nContent-Length: 900000\n\nshort\n",
        b"Subject: big\n\n" + b"y" * 20000 + b"\n",
        b"Subject: last\nContent-Length: 3\n\nabc",
    ]
    box = tmp_path / "cl.mbox"
    box.write_bytes(b"\xef\xbb\xbf" + b"\n".join(_mbox([m]) for m in messages_))
    sequential = _sequential([box])
    assert [i.message.subject for i in sequential] == ["one", "stale", "far", "big", "last"]
    planned = list(onemail.shards([box], target_bytes=1))
    assert [s.count for s in planned] == [1] * 5 and planned[0].start == 3
    assert _sharded([box], target_bytes=1) == sequential


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
    assert kinds.count("files") >= 2 and kinds.count("mbox") >= 5
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
    assert [len(s.tasks) for s in planned] == [shards.MAX_BATCH_FILES, 3]


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
                 Message("mbox", error=f"mbox changed since planned: {why} (messages {index}-{last}, "
                                       f"bytes {start}-{shard.end})"))


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
        assert item == _damaged(shard, f"{planned[2].start + 100} bytes, the shard ends at byte {shard.end}")
    # cut inside the separator line after shard 1: that line separates nothing now (a "From "
    # line without its line feed), so shard 1's last message is not the planned one
    with open(box, "r+b") as f:
        f.truncate(planned[2].start + 10)
    got = list(messages(planned[1]))
    assert [i.message.error is None for i in got] == [True] * 6 + [False]
    sixth = got[5].source
    assert got[-1] == _damaged(planned[1], "6 of 7 messages found in the shard's range", 13,
                               sixth.offset + sixth.length)


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
    moved = list(onemail.shards([box], target_bytes=1000))[0]
    with open(box, "r+b") as f:  # the range's first byte no longer starts a separator line
        f.write(b"X")
    assert [i.message.error for i in messages(moved)] == [
        f"mbox changed since planned: no separator line at byte 0 (messages 0-6, bytes 0-{moved.end})"]
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
    assert planned[-1].kind == "files"
    assert got[6:] == [Skipped(str(tmp_path / "d"), "not-regular", "not a regular file (FIFO)",
                              member="a.eml")]
    eml.unlink()
    assert [i.reason for i in messages(planned[-1])] == ["unreadable"]


def test_unreadable_paths(tmp_path):
    missing = tmp_path / "missing"
    assert _sharded([missing]) == _sequential([missing])
    assert [i.reason for i in _sharded([missing])] == ["unreadable"]
    assert [s.kind for s in onemail.shards([missing])] == ["skipped"]


def test_fifo_and_stdin_are_whole_shards(tmp_path):
    fifo = tmp_path / "p"
    os.mkfifo(fifo)
    assert list(onemail.shards([fifo, "-"])) == [
        Shard("whole", (FileTask(str(fifo), str(fifo)),), count=1, mtime_ns=fifo.stat().st_mtime_ns),
        Shard("whole", (FileTask("-", "-"),), count=1)]


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
