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
from dataclasses import replace

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


def test_tapered_plan_shrinks_at_the_end_and_reads_the_same(tmp_path, monkeypatch):
    """``taper``: the ranges near an mbox's end shrink (to the floor, here a 4 KiB one), the
    messages and their places are the untapered plan's and the walk's."""
    data = _generated(20_000, seed=3)
    box = tmp_path / "t.mbox"
    box.write_bytes(data)
    monkeypatch.setattr(shards, "TAPER_FLOOR_BYTES", 4096)
    plain = list(onemail.shards([box], target_bytes=64 << 10))
    tapered = list(onemail.shards([box], target_bytes=64 << 10, taper=4))
    assert len(tapered) > len(plain) + 5
    sizes = [s.end - s.start for s in tapered]
    assert max(sizes[-4:]) < 16 << 10 and min(sizes[:-1]) >= 4096
    for shard in tapered[:-1]:  # each as long as the rule asks, the last message completing it
        want = max(4096, min(64 << 10, (len(data) - shard.start) // 4))
        before = list(shards._mbox_range_pieces(shard))[-2][0]  # the message before the last
        assert shard.end - shard.start >= want > before.offset + before.length - shard.start
    assert [(s.start, s.index) for s in tapered][0] == [(s.start, s.index) for s in plain][0]
    assert sum(s.count for s in tapered) == 20_000
    assert _sharded([box], target_bytes=64 << 10, taper=4) == _sequential([box])


def _windowed(path, size, start=0):
    """The spans the planner and a range's reader see (:func:`shards._final_spans`), as offsets
    into the file."""
    with open(path, "rb") as f:
        return [replace(sp, start=w0 + sp.start, end=w0 + sp.end, separator=w0 + sp.separator,
                        unsplit=tuple(w0 + u for u in sp.unsplit),
                        length_conflict=None if sp.length_conflict is None else w0 + sp.length_conflict)
                for sp, _, w0 in shards._final_spans(f, start, size)]


@pytest.mark.parametrize("block", [16, 64, 200, 1024, 4096])
def test_windows_split_as_the_whole_mailbox(tmp_path, monkeypatch, block):
    """Random mailboxes (every line the rules look at, right and wrong Content-Lengths, LF and
    CR LF) read through windows of ``block`` bytes: the spans of the whole mailbox, field for
    field, wherever a window ends (inside a header, a Content-Length body, a separator line)."""
    from mbox_reference import random_mailbox

    monkeypatch.setattr(shards, "BLOCK_BYTES", block)
    rng = random.Random(block)
    path = tmp_path / "r.mbox"
    by_length = 0
    for _ in range(600):
        data = b"From x\n" + b"".join(random_mailbox(rng) for _ in range(rng.randint(1, 8)))
        if rng.random() < 0.3:
            data = data.replace(b"\n", b"\r\n")
        path.write_bytes(data)
        whole = list(spans(data))
        assert _windowed(path, len(data)) == whole
        by_length += sum(s.by_length for s in whole)
    assert by_length > 100


def test_window_ends_at_what_a_content_length_needs(tmp_path, monkeypatch):
    """Three window ends the planner once got wrong (it cut a Content-Length message where the
    walk does not), at every window size: a body that starts with separator lines right after
    the header's empty line (which the line rule leaves out of its span), a length pointing at
    the second separator after the message, a right length before a larger wrong one."""
    body = b"From - Mon Jan  1 00:00:00 2020\nFrom - Mon Jan  1 00:00:00 2020\n"
    cases = [
        [b"Subject: a\nContent-Length: %d\n\n%s" % (len(body), body), b"Subject: b\n\nb\n"],
        [b"Subject: a\nContent-Length: %d\n\n%s" % (len(body) + 9, body + b"x\n\n>From\n"),
         b"Subject: b\n\nb\n"],
        [b"Subject: a\nContent-Length: %d\nContent-Length: 99999\n\n%s" % (len(body), body),
         b"Subject: b\n\nb\n"],
    ]
    path = tmp_path / "c.mbox"
    for case in cases:
        data = _mbox([*case, *case, b"Subject: z\n\nz\n"])
        path.write_bytes(data)
        whole = list(spans(data))
        assert [s.by_length for s in whole] == [True, False, True, False, False]
        for block in range(8, len(data) + 8):
            monkeypatch.setattr(shards, "BLOCK_BYTES", block)
            assert _windowed(path, len(data)) == whole, (case, block)


def test_content_length_bodies_across_planned_cuts(tmp_path, monkeypatch):
    """mboxcl2 messages whose bodies hold separator lines (with headers after them) and are
    longer than a shard: no cut falls inside a body; planned into small tapered shards through
    small windows, LF and CR LF, the shards read as the walk."""
    monkeypatch.setattr(shards, "BLOCK_BYTES", 1500)
    for eol in (b"\n", b"\r\n"):
        rng = random.Random(22)
        fake = b"From a@b Sat Jan  1 00:00:00 2000\nSubject: not a message\n\nx\n".replace(b"\n", eol)
        out = []
        for i in range(300):
            if i % 5 == 0:
                inner = fake * rng.randint(1, 40)
                head = b"Subject: cl%d\nContent-Length: %d\n\n".replace(b"\n", eol) % (i, len(inner))
                out.append(head + inner)
            else:
                out.append(b"Subject: m%d\n\n%s\n".replace(b"\n", eol) % (i, b"w" * rng.randint(0, 300)))
        data = _mbox(out)
        box = tmp_path / "cl.mbox"
        box.write_bytes(data)
        whole = list(spans(data))
        assert len(whole) == 300 and sum(s.by_length for s in whole) == 60
        assert all(s.length_conflict is not None for s in whole if s.by_length)
        inside = [(s.start, s.end) for s in whole if s.by_length]
        planned = list(onemail.shards([box], target_bytes=700, taper=3))
        assert len(planned) > 80 and sum(s.count for s in planned) == 300
        for shard in planned:
            assert not any(a < shard.start < b or a < shard.end < b for a, b in inside)
        assert [(s.start, s.end) for s in planned] == [
            (whole[s.index].separator, whole[s.index + s.count - 1].end) for s in planned]
        assert _sharded([box], target_bytes=700, taper=3) == _sequential([box])


def test_mbox_shorter_than_its_size_when_planned(tmp_path, monkeypatch):
    """A file cut short between the planner's stat and its reads (or a reader's): what is there
    is the mailbox, at every window size."""
    from mbox_reference import random_mailbox

    rng = random.Random(9)
    data = b"From x\n" + b"".join(random_mailbox(rng) for _ in range(6))
    path = tmp_path / "t.mbox"
    path.write_bytes(data)
    for block in (16, 100, 1000, 1 << 20):
        monkeypatch.setattr(shards, "BLOCK_BYTES", block)
        assert _windowed(path, len(data) + 5000) == list(spans(data))


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
    last = shard.index + shard.count
    return Found(Source(shard.path, "mbox", None, index, start, shard.end - start),
                 Message("mbox", error=f"mbox changed since planned: {why} (messages #{index + 1}-#{last}, "
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
                                            "the shard's range (messages #14-#14, bytes ")
    moved = list(onemail.shards([box], target_bytes=1000))[0]
    with open(box, "r+b") as f:  # the range's first byte no longer starts a separator line
        f.write(b"X")
    assert [i.message.error for i in messages(moved)] == [
        f"mbox changed since planned: no separator line at byte 0 (messages #1-#7, bytes 0-{moved.end})"]
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
    with pytest.raises(TypeError, match="^taper must be an int, not float$"):
        list(onemail.shards([], taper=2.0))
    with pytest.raises(ValueError, match="^taper must be 0 or positive, not -1$"):
        list(onemail.shards([], taper=-1))
    with pytest.raises(TypeError, match="Shard"):
        list(messages("box.mbox"))


# ---------------------------------------------------------------------------------------------
# zip archives (ranges of their walk's steps) and PST/OST stores (ranges of folders and items)

PST = CORPUS / "pst"


def _in_plan_order(paths, **kw) -> list:
    """Every shard's items, the shards read in plan order (each pickled on the way)."""
    return [item for shard in onemail.shards(paths, **kw)
            for item in messages(pickle.loads(pickle.dumps(shard)))]


def _record_key(record: dict) -> tuple:
    fields = Source.__dataclass_fields__
    return Source(**{k: v for k, v in record["source"].items() if k in fields}).key()


def _check_split(paths, target: int, kinds: set[str]) -> list:
    """Planned into ``target``-byte shards: more than one of ``kinds``; read in plan order, the
    walk's items; the messages sorted on their source and the records sorted on theirs (each
    shard read alone, in reverse plan order), the walk's. Returns the walk's items."""
    planned = list(onemail.shards(paths, target_bytes=target))
    assert len(planned) > 1 and {s.kind for s in planned} & kinds
    sequential = list(walk(paths))
    assert _in_plan_order(paths, target_bytes=target) == sequential
    found = [i for s in reversed(planned) for i in messages(pickle.loads(pickle.dumps(s)))
             if isinstance(i, Found)]
    assert sorted(found, key=key) == [i for i in sequential if isinstance(i, Found)]
    expected = [r for i in sequential if isinstance(i, Found) for r in build_records(i.message, i.source)]
    got = sorted((r for s in reversed(planned) for r in onemail.records(s)), key=_record_key)
    assert got == expected
    return sequential


@pytest.mark.parametrize("target", [1, 5000, 100_000])
def test_corpus_stores_in_ranges_of_folders_and_items(target):
    """Every corpus PST/OST, cut into pieces of folders and of items down to one item a shard:
    the walk's items and records (an empty store is one whole shard)."""
    pytest.importorskip("pypff", reason="the onemail[pst] extra is not installed")
    stores = sorted(p for p in PST.glob("*") if p.suffix in (".pst", ".ost"))
    if not stores:
        pytest.skip("../shared/corpus/pst is not present")
    split = 0
    for store in stores:
        planned = list(onemail.shards([store], target_bytes=target))
        if len(planned) == 1:
            assert _in_plan_order([store], target_bytes=target) == list(walk([store]))
            continue
        split += 1
        assert {s.kind for s in planned} == {"pst"}
        assert sum(s.count for s in planned) == sum(
            p.stop - p.start for s in planned for p in s.parts)
        _check_split([store], target, {"pst"})
    assert split >= (5 if target == 1 else 2)


def test_one_big_folder_is_cut_between_its_items():
    """aspose-net-Outlook.pst's Inbox (8 messages) in one-item shards: the folder is cut, each
    piece knows the index of its first message."""
    pytest.importorskip("pypff", reason="the onemail[pst] extra is not installed")
    store = PST / "aspose-net-Outlook.pst"
    if not store.exists():
        pytest.skip("../shared/corpus/pst is not present")
    planned = list(onemail.shards([store], target_bytes=1))
    inbox = [(s, p) for s in planned for p in s.parts if p.names == ("Top of Personal Folders", "Inbox")]
    # 11 sub-items: a sub-folder (no weight: it joins the next piece), two items that are no
    # messages, then the 8 messages
    assert [(p.start, p.stop, p.first_message) for _, p in inbox] == [
        (0, 2, 0), (2, 3, 0), (3, 4, 0), *((i, i + 1, i - 3) for i in range(4, 11))]
    got = [(i.source.folder, i.source.index) for s, _ in inbox for i in messages(s) if isinstance(i, Found)
           and i.source.folder.endswith("Inbox")]
    assert got == [("Top of Personal Folders/Inbox", i) for i in range(8)]


def test_corpus_zip_in_ranges_of_members():
    """The corpus's one zip (an .xlsx: nine members, none mail) in ranges: the walk's skips."""
    xlsx = CORPUS / "detect" / "None" / "sample-1.xlsx"
    if not xlsx.exists():
        pytest.skip("../shared/corpus/detect is not present")
    for target in (1, 5000):
        items = _check_split([xlsx], target, {"zip"})
        assert {i.reason for i in items} == {"not-mail"}


def _zipped(path, members: list[tuple[str, bytes]], method=None) -> None:
    import zipfile

    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED if method is None else method) as zf:
        for name, data in members:
            zf.writestr(name, data)


def _corpus_messages(n: int) -> list[bytes]:
    files = sorted(MAIL.rglob("*.eml"))[::7][:n]
    if len(files) < n:
        pytest.skip("../shared/corpus/mail is not present")
    return [p.read_bytes() for p in files]


def test_generated_zip_of_many_members_nested_and_maildir(tmp_path):
    """A zip of 400 corpus messages in folders, an mbox member (one step: the member stays in
    one shard), a Maildir (tmp/ files skipped), a gzipped member, a zip inside the zip (not
    opened: a limit skip), an encrypted member, a member that is no mail: in ranges of every
    size, the walk's items and records."""
    import gzip

    mails = _corpus_messages(400)
    inner = tmp_path / "inner.zip"
    _zipped(inner, [("x.eml", mails[0])])
    members = [(f"d{i % 5}/m{i}.eml", m) for i, m in enumerate(mails)]
    members += [("box.mbox", _mbox([b"Subject: b%d\n\n%s\n" % (i, b"q" * 300) for i in range(50)])),
                ("Maildir/cur/1.host:2,S", mails[1]), ("Maildir/new/2.host", mails[2]),
                ("Maildir/tmp/3.host", mails[3]), ("old.eml.gz", gzip.compress(mails[4])),
                ("inner.zip", inner.read_bytes()), ("notes.txt", b"Title: no mail\n\n"),
                ("secret.eml", mails[5])]
    path = tmp_path / "mail.zip"
    _zipped(path, members)
    raw = bytearray(path.read_bytes())  # secret.eml: the encryption flag set in both headers
    for sig, at in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        pos = raw.rindex(sig, 0, raw.rindex(b"secret.eml") + 1)
        raw[pos + at] |= 1
    path.write_bytes(bytes(raw))
    sequential = list(walk([path]))
    reasons = [i.reason for i in sequential if isinstance(i, Skipped)]
    assert sorted(reasons) == ["encrypted", "incomplete", "limit", "not-mail"]
    assert sum(isinstance(i, Found) for i in sequential) == 400 + 50 + 2 + 1
    for target in (1, 3000, 50_000, 1 << 20):
        planned = list(onemail.shards([path], target_bytes=target))
        assert {s.kind for s in planned} == {"zip"} and len(planned) > 1
        _check_split([path], target, {"zip"})
    # the tmp/ skip (no output) joins the next step's shard: the mbox member, whole
    [box] = [s for s in onemail.shards([path], target_bytes=1) if s.parts[1] == "box.mbox"]
    assert box.parts[0] == "Maildir/tmp/3.host"
    assert [type(i).__name__ for i in messages(box)] == ["Skipped"] + ["Found"] * 50


def test_zip_inside_a_folder_and_a_small_zip(tmp_path):
    """A zip found in a folder keeps its member name as the archive; a zip under target_bytes
    whose members give more is looked at (SNIFF_DIVISOR) and cut; a tiny one joins a batch."""
    mails = _corpus_messages(60)
    (tmp_path / "a").mkdir()
    _zipped(tmp_path / "a" / "big.zip", [(f"m{i}.eml", m) for i, m in enumerate(mails)])
    _zipped(tmp_path / "a" / "tiny.zip", [("t.eml", mails[0])])
    (tmp_path / "a" / "z.eml").write_bytes(mails[1])
    size = (tmp_path / "a" / "big.zip").stat().st_size
    total = sum(len(m) for m in mails)
    assert total > size  # deflated
    target = (size + total) // 2
    planned = list(onemail.shards([tmp_path], target_bytes=target))
    zips = [s for s in planned if s.kind == "zip"]
    assert len(zips) >= 2 and all(s.member == "a/big.zip" for s in zips)
    assert any(s.kind == "files" and any(t.member == "a/tiny.zip" for t in s.tasks) for s in planned)
    items = _check_split([tmp_path], target, {"zip"})
    assert {i.source.archive for i in items if isinstance(i, Found)} == {"a/big.zip", "a/tiny.zip", None}
    # stored members too
    _zipped(tmp_path / "stored.zip", [(f"m{i}.eml", m) for i, m in enumerate(mails)], method=0)
    _check_split([tmp_path / "stored.zip"], 10_000, {"zip"})


def test_zip_budget_holds_across_shards(tmp_path, monkeypatch):
    """The output budget of one archive (MAX_RATIO over its size) is spent in walk order by the
    members' declared sizes (M45): cut into one-member shards, the archive gives the members it
    gives read whole, the same limit skip at the same member, and nothing after it."""
    import onemail.message.containers as containers

    monkeypatch.setattr(containers, "RATIO_FLOOR_BYTES", 4000)
    monkeypatch.setattr(containers, "MAX_RATIO", 5)
    members = [(f"m{i:02}.eml", b"Subject: n%d\n\n%s\n" % (i, b"a" * 3000)) for i in range(50)]
    path = tmp_path / "b.zip"
    _zipped(path, members)
    budget = 5 * path.stat().st_size
    sequential = _check_split([path], 1, {"zip"})
    found = [i for i in sequential if isinstance(i, Found)]
    assert len(found) == budget // len(members[0][1]) < 50
    assert [(i.reason, i.member) for i in sequential if isinstance(i, Skipped)] == [
        ("limit", f"m{len(found):02}.eml"), ("limit", f"m{len(found) + 1:02}.eml")]
    # and over the member count
    monkeypatch.setattr(containers, "MAX_ZIP_MEMBERS", 7)
    monkeypatch.setattr(containers, "MAX_RATIO", 100)
    sequential = _check_split([path], 1, {"zip"})
    assert sum(isinstance(i, Found) for i in sequential) == 7
    assert sequential[-1].detail == "more than 7 members: 43 not read"


def test_damaged_zip_member_is_charged_its_declared_size(tmp_path, monkeypatch):
    """A member that fails its check is a damaged skip in its shard, charged what the central
    directory declares for it: the shards after it are the walk's (M45)."""
    mails = _corpus_messages(12)
    path = tmp_path / "d.zip"
    _zipped(path, [(f"m{i:02}.eml", m) for i, m in enumerate(mails)], method=0)
    raw = bytearray(path.read_bytes())
    at = raw.index(mails[3][:60])
    raw[at + 10] ^= 0xFF
    path.write_bytes(bytes(raw))
    items = _check_split([path], 1, {"zip"})
    assert [(i.reason, i.member) for i in items if isinstance(i, Skipped)] == [("damaged", "m03.eml")]


def _zip_shards(tmp_path, n=30):
    mails = _corpus_messages(n)
    path = tmp_path / "c.zip"
    _zipped(path, [(f"m{i:02}.eml", m) for i, m in enumerate(mails)])
    planned = list(onemail.shards([path], target_bytes=sum(len(m) for m in mails) // 4))
    assert len(planned) >= 3 and {s.kind for s in planned} == {"zip"}
    return path, planned


def _zip_changed(shard: Shard, why: str) -> Found:
    first, last = shard.parts
    return Found(Source(shard.path, "zip", first, 0, archive=""),
                 Message("unknown", error=f"zip archive changed since planned: {why} (members "
                                          f"{first} to {last}, steps {shard.start}-{shard.end - 1})"))


def test_zip_changed_since_planned(tmp_path):
    """Truncated, rewritten (same size, other members), turned into a FIFO, removed: each shard
    is one error message in its place, never an exception or a hang; a shard of another file
    planned beside it is read as planned (M40)."""
    path, planned = _zip_shards(tmp_path)
    other = tmp_path / "o.eml"
    other.write_bytes(b"Subject: other\n\n.\n")
    [beside] = onemail.shards([other])
    raw = path.read_bytes()
    path.write_bytes(raw[:len(raw) - 30])
    for shard in planned:
        assert list(messages(shard)) == [_zip_changed(shard, f"{len(raw) - 30} bytes, {len(raw)} planned")]
    assert [i.message.subject for i in messages(beside)] == ["other"]
    # the same size, a member renamed: another central directory
    path.write_bytes(raw.replace(b"m07.eml", b"m07.txt"))
    for shard in planned:
        assert list(messages(shard)) == [_zip_changed(shard, "its central directory is not the one planned")]
    path.write_bytes(b"PK\x03\x04" + bytes(len(raw) - 4))
    assert list(messages(planned[0])) == [_zip_changed(planned[0], "no readable zip archive")]
    path.unlink()
    os.mkfifo(path)
    for shard in planned:
        assert list(messages(shard)) == [_zip_changed(shard, "not a regular file (FIFO)")]
    path.unlink()
    [item] = messages(planned[1])
    assert item.message.error.startswith("zip archive changed since planned: ") and item.source.member == planned[1].parts[0]
    assert [i.message.subject for i in messages(beside)] == ["other"]
    # the same bytes again: read as planned
    path.write_bytes(raw)
    assert _in_plan_order([path]) == list(walk([path]))
    assert [i for s in planned for i in messages(s)] == list(walk([path]))


def _pst_shards(tmp_path):
    pytest.importorskip("pypff", reason="the onemail[pst] extra is not installed")
    src = PST / "aspose-net-Outlook.pst"
    if not src.exists():
        pytest.skip("../shared/corpus/pst is not present")
    path = tmp_path / "s.pst"
    path.write_bytes(src.read_bytes())
    planned = list(onemail.shards([path], target_bytes=20_000))
    assert len(planned) >= 3 and {s.kind for s in planned} == {"pst"}
    return path, planned


def _pst_changed(shard: Shard, why: str, part: int = 0) -> Found:
    piece, last = shard.parts[part], shard.parts[-1]
    text = (f"PST/OST store changed since planned: {why} (items {piece.start} of "
            f"{'/'.join(piece.names) or 'the root'!r} to {last.stop - 1} of "
            f"{'/'.join(last.names) or 'the root'!r})")
    return Found(Source(shard.path, "pst", None, piece.first_message, folder="/".join(piece.names)),
                 Message("pst", error=text))


def test_pst_changed_since_planned(tmp_path):
    """A store truncated, rewritten, turned into a FIFO or removed since planning: one error
    message per shard in its place; a folder no longer where a piece says (its route, its
    count of items): that piece and the rest of the shard one error message, the pieces before
    it read (M40)."""
    import dataclasses

    path, planned = _pst_shards(tmp_path)
    raw = path.read_bytes()
    sequential = list(walk([path]))
    assert [i for s in planned for i in messages(s)] == sequential
    path.write_bytes(raw[:len(raw) // 2])
    for shard in planned:
        assert list(messages(shard)) == [_pst_changed(shard, f"{len(raw) // 2} bytes, {len(raw)} planned")]
    changed = bytearray(raw)
    changed[200] ^= 0xFF  # inside the header's root structure: its checksum fails
    path.write_bytes(bytes(changed))
    [item] = messages(planned[0])
    assert item.message.error.startswith("PST/OST store changed since planned: not a readable "
                                         "PST/OST file (OSError: ")
    # another store of the same size (two corpus stores are 271,360 bytes)
    small = tmp_path / "small.pst"
    small.write_bytes((PST / "tika-testPST_variousBodyTypes.pst").read_bytes())
    split = list(onemail.shards([small], target_bytes=1))
    assert len(split) == 4
    small.write_bytes((PST / "aspose-net-test.ost").read_bytes())
    for shard in split:
        assert list(messages(shard)) == [_pst_changed(shard, "its header is not the one planned")]
    path.write_bytes(b"!BDN" + bytes(len(raw) - 4))
    for shard in planned:
        [item] = messages(shard)
        assert item.message.error.startswith("PST/OST store changed since planned: ")
    path.unlink()
    os.mkfifo(path)
    for shard in planned:
        assert list(messages(shard)) == [_pst_changed(shard, "not a regular file (FIFO)")]
    path.unlink()
    assert [i.message.error is not None for s in planned for i in messages(s)] == [True] * len(planned)
    path.write_bytes(raw)
    several = next(s for s in planned if len(s.parts) >= 2)
    first, second = several.parts[:2]
    moved = dataclasses.replace(several, parts=(first, dataclasses.replace(second, items=second.items + 1),
                                                *several.parts[2:]))
    got = list(messages(moved))
    alone = list(messages(dataclasses.replace(several, parts=(first,))))
    folder = "/".join(second.names) or "the root"
    assert got == [*alone, _pst_changed(moved, f"the folder {folder!r} holds {second.items} items, "
                                               f"{second.items + 1} planned", 1)]
    renamed = dataclasses.replace(several, parts=(dataclasses.replace(first, names=("Nowhere",) * len(first.names)),))
    if first.route:
        [item] = messages(renamed)
        assert item.message.error.startswith("PST/OST store changed since planned: no folder 'Nowhere'")


def test_pst_item_that_cannot_be_read_keeps_its_index(tmp_path, monkeypatch):
    """An item of a message class whose message cannot be built is a damaged skip that keeps
    its place in the folder's numbering (M47): the layout plans it, so the shards after it
    give the walk's indexes."""
    import onemail.message.pst as pst

    path, _ = _pst_shards(tmp_path)
    real = pst._message

    def flaky(item, ctx, issues):
        if (item.get_identifier() >> 5) % 3 == 0:
            raise OSError("unreadable item")
        return real(item, ctx, issues)

    monkeypatch.setattr(pst, "_message", flaky)
    sequential = list(walk([path]))
    damaged = [i for i in sequential if isinstance(i, Skipped) and i.reason == "damaged"]
    assert len(damaged) >= 3
    assert all("cannot be read (OSError: unreadable item)" in i.detail for i in damaged)
    def indexes(items):
        return [i.source.index for i in items if isinstance(i, Found)
                and i.source.folder == "Top of Personal Folders/Inbox"]

    inbox, unread = indexes(sequential), indexes(walk([path], read=False))
    assert unread == list(range(8))  # read=False builds no message: no damage, no gap
    assert inbox == sorted(inbox) and set(inbox) < set(unread)  # the gaps: the damaged items
    assert _in_plan_order([path], target_bytes=1) == sequential


def test_zip_shards_read_interleaved_and_after_another_archive(tmp_path):
    """A thread keeps the last zip it read open for its next shard: shards read interleaved
    (two unfinished at once), after another archive's, and after the file was replaced (same
    size, new central directory) all give what they should."""
    path, planned = _zip_shards(tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    other_path, other_planned = _zip_shards(other)
    sequential = list(walk([path]))
    a, b = messages(planned[0]), messages(planned[1])
    first = [next(a), next(b)]
    interleaved = first[:1] + list(a) + first[1:] + list(b)
    assert interleaved == [i for s in planned[:2] for i in messages(s)]
    mixed = [i for s, o in zip(planned, other_planned, strict=False) for i in (*messages(s), *messages(o))]
    assert [i for i in mixed if i.source.path == str(path)] == sequential[:len([
        i for s in planned[:len(other_planned)] for i in messages(s)])]
    raw = path.read_bytes()
    path.write_bytes(raw.replace(b"m07.eml", b"m07.txt"))
    assert list(messages(planned[0])) == [_zip_changed(planned[0], "its central directory is not the one planned")]
    path.write_bytes(raw)
    assert [i for s in planned for i in messages(s)] == sequential


def test_release_closes_the_zip_a_thread_holds_open(tmp_path):
    """Reading a zip shard keeps its file open for the next shard of the same file; a library
    user who is done closes it with ``release`` (idempotent)."""
    from onemail.message.shards import release

    path = tmp_path / "mail.zip"
    _zipped(path, [(f"m{i}.eml", b"Subject: s%d\n\nbody\n" % i) for i in range(20)])
    planned = list(onemail.shards([path], target_bytes=1))
    assert {s.kind for s in planned} == {"zip"} and len(planned) > 1

    def open_fds() -> set[str]:
        return {os.readlink(f"/proc/self/fd/{fd}") for fd in os.listdir("/proc/self/fd")
                if os.path.exists(f"/proc/self/fd/{fd}")}

    subjects = [r["subject"] for s in planned for r in onemail.records(s)]
    assert subjects == [f"s{i}" for i in range(20)]
    assert str(path) in open_fds()
    release()
    assert str(path) not in open_fds()
    release()  # nothing held: no effect
    assert [r["subject"] for r in onemail.records(planned[0])][:1] == ["s0"]  # opens it again
    release()
    assert str(path) not in open_fds()


def test_windows_from_a_line_that_is_no_separator(tmp_path):
    """A window that does not start at a ``From `` line gives no message (as the split), even
    when envelope lines follow."""
    path = tmp_path / "n.mbox"
    path.write_bytes(b"Subject: x\n\n" + _mbox([b"Subject: a\n\na\n", b"Subject: b\n\nb\n"]))
    assert _windowed(path, path.stat().st_size) == []
    assert _windowed(path, path.stat().st_size, start=1) == []
