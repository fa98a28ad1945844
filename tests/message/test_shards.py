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
import zipfile

import pytest
from paths import CORPUS

import onemail
from onemail.message import read_mbox, shards
from onemail.message.reader import mbox_spans
from onemail.message.shards import Shard, messages
from onemail.message.source import Source

MAIL = CORPUS / "mail"
BOM = b"\xef\xbb\xbf"


def _corpus_files() -> list[str]:
    out = []
    for root, dirs, files in os.walk(MAIL):
        dirs.sort()
        out.extend(os.path.join(root, f) for f in sorted(files) if f != "MANIFEST.tsv" and f != "README.md")
    return out


def _corpus_mboxes() -> list[str]:
    out = []
    for path in _corpus_files():
        with open(path, "rb") as f:
            head = f.read(8)
        if head.startswith(b"From ") or head.startswith(BOM + b"From "):
            out.append(path)
    return out


def _sequential(path: str) -> list[tuple[object, Source]]:
    """The reference: read_mbox's messages, each with its place from the same split rule."""
    with open(path, "rb") as f:
        data = f.read()
    base = 3 if data.startswith(BOM) else 0
    spans = list(mbox_spans(data[base:]))
    msgs = list(read_mbox(path))
    assert len(msgs) == len(spans)
    return [(m, Source(path, "mbox", None, i, base + s, e - s))
            for i, (m, (s, e)) in enumerate(zip(msgs, spans, strict=True))]


def _sharded(paths, **kw) -> list:
    planned = list(onemail.shards(paths, **kw))
    for shard in planned:
        assert pickle.loads(pickle.dumps(shard)) == shard
    got = [pair for shard in planned for pair in onemail.records(shard)]
    return sorted(got, key=lambda pair: pair[1].key())


def _mbox(messages: list[bytes]) -> bytes:
    return b"".join(b"From a@example.org Sat Jan  1 00:00:%02d 2000\n" % (i % 60) + m
                    for i, m in enumerate(messages))


# ---------------------------------------------------------------------------------------------
# the same messages as a sequential read


def test_every_corpus_mbox_one_message_per_shard():
    """Each corpus file that is an mbox (1,440 of them, 1 to 3 messages each), cut after every
    message (target_bytes=1), reads as read_mbox does: messages, places, order."""
    mboxes = _corpus_mboxes()
    if not mboxes:
        pytest.skip("../shared/corpus/mail is not present")
    assert len(mboxes) >= 1000
    for path in mboxes:
        assert _sharded([path], target_bytes=1) == _sequential(path), path


def test_corpus_as_one_mbox(tmp_path, monkeypatch):
    """A third of the mail corpus in one mbox (mboxrd-quoted), planned through a 64 KiB window
    (so messages straddle the planner's blocks) into 64 KiB shards."""
    files = [f for f in _corpus_files() if f.endswith(".eml")][::3]
    if not files:
        pytest.skip("../shared/corpus/mail is not present")
    bodies = []
    for path in files:
        with open(path, "rb") as f:
            data = f.read()
        if data.startswith(b"From "):
            data = data[data.find(b"\n") + 1:]
        data = data.replace(b"\nFrom ", b"\n>From ")
        bodies.append(data if data.endswith(b"\n") else data + b"\n")
    box = tmp_path / "corpus.mbox"
    box.write_bytes(_mbox(bodies))
    monkeypatch.setattr(shards, "_BLOCK", 1 << 16)
    planned = list(onemail.shards([box], target_bytes=1 << 16))
    assert len(planned) > 50
    assert {s.kind for s in planned} == {"mbox"}
    assert _sharded([box], target_bytes=1 << 16) == _sequential(str(box))
    assert sum(s.count for s in planned) == len(bodies)


def _generated(n: int, seed: int = 15) -> bytes:
    """``n`` small messages with what the split rule must get right: body lines starting
    ``From `` without a time (not separators), ``>From`` quoting, empty messages, CR LF line
    ends, a message ending without a line feed before the next separator."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        r = rng.random()
        if r < 0.02:
            body = b""
        elif r < 0.1:
            body = b"Subject: m%d\r\n\r\nbody\r\nFrom me to you\r\n" % i
        elif r < 0.2:
            body = b"Subject: m%d\n\n>From quoted\n>>From twice\nFrom 9 to 10 no time\n" % i
        elif r < 0.25:
            body = b"Subject: m%d\n\nno final line feed" % i
        else:
            body = b"Subject: m%d\n\nb\n" % i
        sep = b"From a@b Sat Jan  1 00:00:00 2000\n" if i % 7 else b"From a@b 12:30\n"
        if body.endswith(b"final line feed"):
            body += b"\n"  # the line feed before a separator belongs to the mbox
        out.append(sep + body)
    return b"".join(out)


def test_generated_200000_messages(tmp_path, monkeypatch):
    """200,000 small messages: for several shard sizes and planner blocks, the pieces (place and
    bytes) of every shard are exactly the sequential split's; a sample is read both ways."""
    data = _generated(200_000)
    box = tmp_path / "big.mbox"
    box.write_bytes(data)
    spans = list(mbox_spans(data))
    assert len(spans) == 200_000
    expected = [(i, s, e - s) for i, (s, e) in enumerate(spans)]
    for block, target in ((1 << 14, 100_000), (1 << 23, 1 << 30)):
        monkeypatch.setattr(shards, "_BLOCK", block)
        planned = list(onemail.shards([box], target_bytes=target))
        got = []
        for shard in planned:
            for src, chunk, error in shards._mbox_range_pieces(shard):
                assert error is None
                assert chunk == shards._unquote(data[src.offset:src.offset + src.length])
                got.append((src.index, src.offset, src.length))
        assert got == expected, (block, target)
        assert planned[0].start == 0 and planned[-1].end == len(data)
        for a, b in zip(planned, planned[1:], strict=False):
            assert b.start == a.end + 1 and b.index == a.index + a.count
    monkeypatch.setattr(shards, "_BLOCK", 1 << 20)
    planned = list(onemail.shards([box], target_bytes=1 << 20))
    for shard in planned[::4]:  # read_mbox of the shard's bytes: the messages read_mbox gives
        mine = [m for m, _ in messages(shard)]
        assert mine == list(read_mbox(data[shard.start:shard.end]))


def test_bom_and_one_message_without_separator(tmp_path):
    """An mbox saved with a BOM keeps its file offsets; a file without ``From `` is one
    message read whole."""
    box = tmp_path / "bom.mbox"
    box.write_bytes(BOM + _mbox([b"Subject: a\n\nx\n", b"Subject: b\n\ny\n"]))
    got = _sharded([box], target_bytes=1)
    assert [(m.subject, s.index, s.offset) for m, s in got] == [("a", 0, 47), ("b", 1, 105)]
    assert (box.read_bytes()[47:49], box.read_bytes()[105:107]) == (b"Su", b"Su")
    eml = tmp_path / "one.eml"
    eml.write_bytes(b"Subject: c\n\nz\n")
    [shard] = onemail.shards([eml])
    assert shard.kind == "whole"
    [(m, s)] = list(onemail.records(shard))
    assert (m.subject, s) == ("c", Source(str(eml), "eml"))


def test_folder_batches_and_large_mbox_ranges(tmp_path):
    """A folder's files in walk order, batched; a large mbox inside is cut into ranges with its
    member name; the messages are those of reading each file."""
    (tmp_path / "sub").mkdir()
    for i in range(30):
        (tmp_path / f"m{i:02}.eml").write_bytes(b"Subject: e%d\n\nbody %s\n" % (i, b"x" * i))
    big = _mbox([b"Subject: b%d\n\n%s\n" % (i, b"y" * 200) for i in range(100)])
    (tmp_path / "sub" / "box").write_bytes(big)
    (tmp_path / "sub" / "small").write_bytes(BOM + _mbox([b"Subject: s0\n\n>From x\n", b"Subject: s1\n\n.\n"]))
    planned = list(onemail.shards([tmp_path], target_bytes=4000))
    kinds = [s.kind for s in planned]
    assert kinds.count("files") >= 1 and kinds.count("mbox") >= 5
    assert all(s.member == "sub/box" for s in planned if s.kind == "mbox")
    got = _sharded([tmp_path], target_bytes=4000)
    assert [m.subject for m, _ in got] == ([f"e{i}" for i in range(30)] + [f"b{i}" for i in range(100)]
                                           + ["s0", "s1"])
    assert got[-2:] == [(m, Source(str(tmp_path), "mbox", "sub/small", i, s.offset, s.length))
                        for i, (m, s) in enumerate(_sequential(str(tmp_path / "sub" / "small")))]
    assert got[-2][0].parts[0].text == "From x"
    del got[-2:]
    assert got[0][1] == Source(str(tmp_path), "eml", "m00.eml")
    assert got[30][1].member == "sub/box" and got[30][1].index == 0
    assert got[-1][1].index == 99
    expected = _sequential(str(tmp_path / "sub" / "box"))
    assert [m for m, _ in got[30:]] == [m for m, _ in expected]
    assert [(s.offset, s.length) for _, s in got[30:]] == [(s.offset, s.length) for _, s in expected]


def test_folder_batch_limit(tmp_path):
    for i in range(shards.MAX_BATCH_FILES + 3):
        (tmp_path / f"{i:04}.eml").write_bytes(b"Subject: s\n\n.\n")
    planned = list(onemail.shards([tmp_path]))
    assert [s.count for s in planned] == [shards.MAX_BATCH_FILES, 3]


def test_zip_member_ranges(tmp_path):
    archive = tmp_path / "mail.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for i in range(10):
            zf.writestr(f"d/{i}.eml", b"Subject: z%d\n\n%s\n" % (i, b"q" * 500))
    planned = list(onemail.shards([archive], target_bytes=1200))
    assert [(s.kind, s.start, s.end) for s in planned] == [("zip", 0, 3), ("zip", 3, 6), ("zip", 6, 9),
                                                           ("zip", 9, 10)]
    got = _sharded([archive], target_bytes=1200)
    assert [(m.subject, s) for m, s in got] == [(f"z{i}", Source(str(archive), "zip", f"d/{i}.eml"))
                                                for i in range(10)]


# ---------------------------------------------------------------------------------------------
# what changed since planning (M40), what cannot be planned


def _box(tmp_path, n=40):
    box = tmp_path / "box.mbox"
    box.write_bytes(_mbox([b"Subject: s%d\n\n%s\n" % (i, b"z" * 100) for i in range(n)]))
    return box


def test_truncated_since_planned(tmp_path):
    """Truncated after planning: the shards past the new end are one error message each, at
    their place; the shards before it read as planned."""
    box = _box(tmp_path)
    planned = list(onemail.shards([box], target_bytes=1000))
    assert [s.count for s in planned] == [7, 7, 7, 7, 7, 5]
    with open(box, "r+b") as f:
        f.truncate(planned[2].start + 100)
    results = [list(messages(s)) for s in planned]
    assert [len(r) for r in results] == [7, 7, 1, 1, 1, 1]
    assert all(m.error is None for r in results[:2] for m, _ in r)
    for shard, [(m, src)] in zip(planned[2:], results[2:], strict=True):
        assert m.error == f"mbox changed since planned: {planned[2].start + 100} bytes, the shard ends at byte {shard.end}"
        assert src == Source(str(box), "mbox", None, shard.index, shard.start, shard.end - shard.start)
    # cut inside the separator line after shard 1: that line separates nothing now (a "From "
    # line without its line feed), so shard 1's last message is not the planned one
    with open(box, "r+b") as f:
        f.truncate(planned[2].start + 10)
    got = list(messages(planned[1]))
    assert [m.error for m, _ in got] == [None] * 6 + [
        "mbox changed since planned: 6 of 7 messages found in the shard's range"]
    assert got[-1][1] == Source(str(box), "mbox", None, 13, got[5][1].offset + got[5][1].length + 1,
                                planned[1].end - got[5][1].offset - got[5][1].length - 1)


def test_rewritten_since_planned(tmp_path):
    """The same size but a separator gone: the messages found, then one error for the rest."""
    box = _box(tmp_path)
    planned = list(onemail.shards([box], target_bytes=1000))
    data = bytearray(box.read_bytes())
    cut = data.index(b"\nFrom ", planned[1].start + 200) + 1
    data[cut:cut + 5] = b"Xrom "
    box.write_bytes(bytes(data))
    got = list(messages(planned[1]))
    assert [m.error is None for m, _ in got] == [True] * 6 + [False]
    assert got[-1][0].error == "mbox changed since planned: 6 of 7 messages found in the shard's range"
    assert got[-1][1].index == planned[1].index + 6
    assert [(m.error, s.index) for s in planned[2:] for m, s in messages(s)] == [
        (None, i) for i in range(14, 40)]


def test_turned_into_fifo_or_removed(tmp_path):
    """A file replaced by a FIFO after planning is never opened for a blocking read; a removed
    file is its error; neither raises."""
    box = _box(tmp_path)
    eml = tmp_path / "a.eml"
    eml.write_bytes(b"Subject: a\n\n.\n")
    planned = list(onemail.shards([box, eml], target_bytes=1000))
    box.unlink()
    os.mkfifo(box)
    eml.unlink()
    got = [pair for s in planned for pair in messages(s)]
    assert [m.error for m, _ in got] == ["not a regular file (FIFO)"] * 6 + ["No such file or directory"]
    assert got[-1][1] == Source(str(eml), "eml")


def test_unreadable_paths(tmp_path):
    missing = tmp_path / "missing"
    planned = list(onemail.shards([missing]))
    assert planned == [Shard("unreadable", str(missing), problem="No such file or directory")]
    [(m, src)] = list(messages(planned[0]))
    assert (m.error, src) == ("No such file or directory", Source(str(missing), "eml"))


def test_fifo_named_is_one_whole_shard(tmp_path):
    fifo = tmp_path / "p"
    os.mkfifo(fifo)
    assert list(onemail.shards([fifo])) == [Shard("whole", str(fifo))]


def test_wrong_arguments():
    with pytest.raises(TypeError, match="list of paths"):
        list(onemail.shards("box.mbox"))
    with pytest.raises(ValueError, match="positive"):
        list(onemail.shards([], target_bytes=0))
    with pytest.raises(TypeError, match="int"):
        list(onemail.shards([], target_bytes=1.5))
    with pytest.raises(TypeError, match="Shard"):
        list(messages("box.mbox"))
