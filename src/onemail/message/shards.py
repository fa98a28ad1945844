"""Shards: picklable pieces of an archive that processes, Dask or Spark read independently.

:func:`shards` plans the work for a list of paths; :func:`messages` reads one shard into the
items of the walk, :func:`records` into records. Reading every shard, in any order, on any
machine, gives the items of the sequential walk (:func:`onemail.message.containers.walk`: each
:class:`~onemail.message.containers.Found` message with its :class:`~onemail.message.source.
Source`, each :class:`~onemail.message.containers.Skipped` path), equal once sorted on
:func:`key` (for messages, :meth:`Source.key`).

Planning starts from the walk's own plan (:func:`onemail.message.containers.tasks`: the files in
walk order, Maildir and MH folders recognised, the paths that cannot be walked). Then:

* **An mbox** (a regular file the walk reads as one, of ``target_bytes`` or more): byte ranges
  cut exactly at message separators. The planner reads the file once, in blocks, and finds its
  messages with the walk's own rule (:func:`onemail.message.mbox.spans`), keeping a message's
  end only once the data the rule looks at for it is all in hand (:func:`_final_spans`); whole
  messages are added to a shard until it holds at least ``target_bytes`` (a message larger than
  that is a shard of its own). A shard knows the index of its first message and how many it
  holds, so each message keeps its sequential index. Files are read with plain reads, never
  memory-mapped: a file truncated while it is planned or read is a short read, never a SIGBUS.
* **Other files** (.eml, .msg, TNEF, a small mbox, a Maildir's or MH folder's messages):
  batches of the walk's file tasks, closed when a batch holds ``target_bytes`` or
  :data:`MAX_BATCH_FILES` files; each read by the walk's per-file step
  (:func:`onemail.message.containers.walk_task`).
* **Compressed files, zip archives, PST/OST stores, FIFOs, standard input**: one shard each, read
  whole by the walk's per-file step (their parts are not cut yet; standard input can be read
  only by the process that has it).
* **What the walk cannot walk** (a missing path, a folder that cannot be listed): a shard that
  gives the walk's ``Skipped`` item.

A shard describes what was planned: the file's size and modification time at planning
(:attr:`Shard.size`, :attr:`Shard.mtime_ns`) and, for an mbox range, its exact bounds and message
count. Reading checks them (M40): an mbox that is gone, no longer a regular file (turned into a
FIFO: never opened, opening one would wait for a writer), or shorter than the range's end is one
``Found`` item for the whole range, its :class:`Source` the range (first index, offset, length)
and its message's :attr:`~onemail.message.Message.error` what changed; a range whose bytes no
longer split into the planned messages gives the messages it does find, then one such item for
the rest. A file of a batch is checked as the walk checks a folder's files (a FIFO is a
``Skipped`` item, ``not-regular``, and is not opened). Reading a shard never raises on what it
finds on disk and never touches another shard's bytes.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from .containers import MAIL_SUFFIXES, FileTask, Found, Skipped, recognise, tasks, walk_task
from .formats import ReadContext
from .mbox import MboxSpan, read_span, spans
from .model import Message
from .source import Source

__all__ = [
    "DEFAULT_TARGET_BYTES",
    "KINDS",
    "MAX_BATCH_FILES",
    "Shard",
    "key",
    "messages",
    "records",
    "shards",
]

DEFAULT_TARGET_BYTES = 16 << 20
"""Bytes of input a shard holds at least (its last message completes it), 16 MiB: small enough
that a 200 MB mbox gives a dozen shards to balance over the cores, large enough that the work
per shard (a few seconds of decoding on one core) dwarfs the cost of handing it to a worker
(milliseconds, also for a Dask or Spark task). A worker holds one planner block
(:data:`BLOCK_BYTES`) and one message at a time, not the shard."""

MAX_BATCH_FILES = 512
"""Files in one batch at most: a batch of small messages is closed after this many even below
``target_bytes``, so that a Maildir of 1 KB messages still spreads over the workers and a
retried shard repeats little work."""

BLOCK_BYTES = 1 << 20
"""Bytes read at a time from an mbox, by the planner and by a worker reading a range: the window
the split rule runs on holds about this much beside the message being read."""

KINDS = frozenset({"mbox", "files", "whole", "skipped"})
"""What a :class:`Shard` covers (:attr:`Shard.kind`)."""

_HEAD = 64 << 10  # bytes read to recognise a large file (containers.HEAD_BYTES)
_BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True, slots=True)
class Shard:
    """One piece of work (module docstring). Frozen, picklable, comparable.

    :param kind: one of :data:`KINDS`: ``"mbox"`` (a byte range of an mbox), ``"files"`` (a
        batch of the walk's files), ``"whole"`` (one file or stream read whole), ``"skipped"``
        (what the walk cannot walk: reading gives :attr:`skipped`).
    :param tasks: the walk's file tasks (:class:`~onemail.message.containers.FileTask`):
        one for ``"mbox"`` and ``"whole"``, the batch for ``"files"``, none for ``"skipped"``.
    :param start: ``"mbox"``: byte offset of the first message's separator line; else 0.
    :param end: ``"mbox"``: byte offset where the last message ends (its
        :attr:`Source.offset` + :attr:`Source.length`); else 0.
    :param index: ``"mbox"``: the :attr:`Source.index` of the first message; else 0.
    :param count: ``"mbox"``: messages planned; else the number of tasks.
    :param size: bytes of the file at planning (``"files"``: of the batch's files), -1 unknown.
    :param mtime_ns: the file's modification time at planning (ns), or -1.
    :param skipped: ``"skipped"``: the walk's item, else ``None``.
    """

    kind: str
    tasks: tuple[FileTask, ...] = field(default=())
    start: int = 0
    end: int = 0
    index: int = 0
    count: int = 0
    size: int = -1
    mtime_ns: int = -1
    skipped: Skipped | None = None

    @property
    def path(self) -> str:
        """The path the caller named that this shard is part of."""
        if self.skipped is not None:
            return self.skipped.path
        return self.tasks[0].path if self.tasks else ""

    @property
    def member(self) -> str | None:
        """The file inside :attr:`path` of a one-file shard (``/``-separated), else ``None``."""
        if self.skipped is not None:
            return self.skipped.member
        return self.tasks[0].member if len(self.tasks) == 1 else None

    @property
    def weight(self) -> int:
        """The bytes of input the shard covers (for progress and cost): an mbox range's length,
        else :attr:`size` (0 when unknown)."""
        if self.kind == "mbox":
            return self.end - self.start
        return max(self.size, 0)


def key(item: Found | Skipped) -> tuple[Any, ...]:
    """The sort key of a walk item: :meth:`Source.key` of a message; a skipped item sorts at
    its place (its path, archive, member, folder and offset) as a source there would."""
    if isinstance(item, Found):
        return item.source.key()
    return Source(item.path, item.container or "eml", item.member, 0, item.offset,
                  folder=item.folder, archive=item.archive).key()


# ---------------------------------------------------------------------------------------------
# planning


def shards(paths: Iterable[str | os.PathLike[str]], *,
           target_bytes: int = DEFAULT_TARGET_BYTES) -> Iterator[Shard]:
    """Plan ``paths`` into shards (module docstring), lazily, in the walk's order.

    :param paths: files, folders, or ``"-"`` for standard input (``str`` or ``os.PathLike``).
    :param target_bytes: bytes a shard holds at least (its last message or file completes it);
        a positive ``int``.
    :returns: an iterator of :class:`Shard`. Never raises ``OSError``: what cannot be planned
        is a ``"skipped"`` or ``"whole"`` shard whose reading says why.
    :raises TypeError: ``paths`` is a single path or holds something that is no path, or
        ``target_bytes`` is not an ``int``.
    :raises ValueError: ``target_bytes`` is not positive.
    """
    if not isinstance(target_bytes, int) or isinstance(target_bytes, bool):
        raise TypeError(f"target_bytes must be an int, not {type(target_bytes).__name__}")
    if target_bytes < 1:
        raise ValueError(f"target_bytes must be positive, not {target_bytes}")
    if isinstance(paths, (str, bytes, os.PathLike)):
        raise TypeError("paths must be a list of paths, not a single path")
    return _plan(tasks(paths), target_bytes)


def _plan(planned: Iterable[FileTask | Skipped], target: int) -> Iterator[Shard]:
    batch: list[FileTask] = []
    acc = 0

    def close() -> Shard:
        nonlocal batch, acc
        shard = Shard("files", tuple(batch), count=len(batch), size=acc)
        batch, acc = [], 0
        return shard

    for task in planned:
        if isinstance(task, Skipped):
            if batch:
                yield close()
            yield Shard("skipped", skipped=task)
            continue
        try:
            st = os.stat(task.file) if task.file != "-" else None
        except OSError:
            st = None
        if st is None or not stat.S_ISREG(st.st_mode) or st.st_size >= target:
            if batch:
                yield close()
            if st is not None and stat.S_ISREG(st.st_mode):
                yield from _plan_file(task, st, target)
            else:  # standard input, a FIFO, a path gone: the per-file step reads or reports it
                yield Shard("whole", (task,), count=1,
                            mtime_ns=st.st_mtime_ns if st is not None else -1)
            continue
        batch.append(task)
        acc += st.st_size
        if acc >= target or len(batch) >= MAX_BATCH_FILES:
            yield close()
    if batch:
        yield close()


def _plan_file(task: FileTask, st: os.stat_result, target: int) -> Iterator[Shard]:
    """A regular file of ``target`` bytes or more: byte ranges when the walk reads it as an
    mbox, else one ``"whole"`` shard."""
    whole = Shard("whole", (task,), count=1, size=st.st_size, mtime_ns=st.st_mtime_ns)
    try:
        with _open_regular(task.file) as f:
            head = f.read(_HEAD)
            hint = task.member is None or task.file.lower().endswith(MAIL_SUFFIXES)
            if recognise(head, hint=hint) != "mbox":
                yield whole
                return
            first = 3 if head.startswith(_BOM) else 0
            planned = list(_plan_mbox(f, task, first, st, target))
    except OSError:
        planned = []
    # an mbox without a message, or one that could not be read: the per-file step says so
    yield from planned or [whole]


def _plan_mbox(f: BinaryIO, task: FileTask, first: int, st: os.stat_result,
               target: int) -> Iterator[Shard]:
    """Cut an open mbox into ranges of whole messages (module docstring)."""
    size, mtime = st.st_size, st.st_mtime_ns
    start = -1  # separator offset of the open shard's first message; -1: none open
    index = first_index = count = last_end = 0
    for span, _, w0 in _final_spans(f, first, size):
        if start < 0:
            start, first_index, count = w0 + span.separator, index, 0
        count += 1
        index += 1
        last_end = w0 + span.end
        if last_end - start >= target:
            yield Shard("mbox", (task,), start, last_end, first_index, count, size, mtime)
            start = -1
    if start >= 0:
        yield Shard("mbox", (task,), start, last_end, first_index, count, size, mtime)


# The split rule looks past a message's end (M20: the header after a candidate separator; M22: the
# bytes a Content-Length points at, anywhere ahead). A message's span is final once two more
# spans follow it in the window (the next separator's header section ends before the one after)
# and no Content-Length in its header section points past the second one's separator: this
# over-approximates where the rule could honour a length (mbox.spans decides), so a window grows
# to cover it rather than cut a decision short.
_CONTENT_LENGTH = re.compile(rb"^content-length[ \t]*:[ \t]*([0-9]{1,20})", re.I | re.M)
_NEAR_SEPARATOR = re.compile(rb"(?:\r?\n){0,2}From |[ \t\r\n]{0,4}$")


def _final_spans(f: BinaryIO, start: int, size: int) -> Iterator[tuple[MboxSpan, bytes, int]]:
    """Yield the messages of the mbox in ``f`` from the separator line at ``start`` up to
    ``size`` as the walk splits them, each ``(span, window, w0)``: the span's offsets are into
    ``window``, whose first byte is the file's byte ``w0``.

    The file is read in blocks of :data:`BLOCK_BYTES` into a window that starts at a separator
    line; the spans whose end is final (the comment above) are yielded and the window moves on
    to the first one that is not. A window that holds no final span grows geometrically, so each
    byte is scanned a bounded number of times; a read that ends early (the file was truncated)
    makes what was read the end of the mailbox.
    """
    w0 = start
    f.seek(w0)
    window = f.read(min(BLOCK_BYTES, size - w0))
    need = 0
    while True:
        eof = w0 + len(window) >= size
        found = list(spans(window))
        if eof:
            for span in found:
                yield span, window, w0
            return
        done = 0
        for k in range(len(found) - 2):
            reach = _reach(f, window, w0, found[k], size)
            if reach is not None and reach > w0 + found[k + 2].separator:
                need = reach
                break
            yield found[k], window, w0
            done = k + 1
        keep = found[done].separator if found else 0
        w0 += keep
        window = window[keep:]
        grow = max(BLOCK_BYTES, len(window), need + BLOCK_BYTES - w0 - len(window))
        need = 0
        more = f.read(min(grow, size - w0 - len(window)))
        if not more:  # shorter than planned: what is there is the mailbox
            size = w0 + len(window)
        window += more


def _reach(f: BinaryIO, window: bytes, w0: int, span: MboxSpan, size: int) -> int | None:
    """The file offset a ``Content-Length`` in the span's header section could make its end
    (the largest such length counted from the first empty line), when bytes there could be a
    separator or the mailbox's end; else ``None``."""
    lf = window.find(b"\n\n", span.start, span.end)  # the header's end: the first empty line
    crlf = window.find(b"\n\r\n", span.start, span.end if lf < 0 else lf + 2)  # (not the body)
    if lf < 0 and crlf < 0:
        return None
    head_end = crlf if crlf >= 0 else lf
    if b"content-length" not in window[span.start:head_end + 1].lower():  # the regex is slower
        return None
    lengths = [int(m.group(1)) for m in _CONTENT_LENGTH.finditer(window, span.start, head_end + 1)]
    if not lengths:
        return None
    body = head_end + (2 if window[head_end + 1:head_end + 2] == b"\n" else 3)
    target = w0 + body + max(lengths)
    if target > size:
        return None
    if target - w0 + 10 <= len(window):
        near = window[target - w0:target - w0 + 10]
    else:
        near = os.pread(f.fileno(), 10, target)
    return target if _NEAR_SEPARATOR.match(near) or target + 4 >= size else None


# ---------------------------------------------------------------------------------------------
# reading


def messages(shard: Shard, *, repair: bool = False) -> Iterator[Found | Skipped]:
    """Yield the walk items of ``shard`` (module docstring), in the walk's order.

    :param shard: a :class:`Shard` from :func:`shards` (planned in this or another process).
    :param repair: as for :func:`onemail.read`.
    :returns: :class:`~onemail.message.containers.Found` messages and
        :class:`~onemail.message.containers.Skipped` items, as
        :func:`~onemail.message.containers.walk` gives them for the same files; an mbox range
        that changed since planning is a message with an error in its place (M40). Never
        raises ``OSError``.
    :raises TypeError: ``shard`` is not a :class:`Shard`.
    """
    if not isinstance(shard, Shard):
        raise TypeError(f"shard must be a Shard, not {type(shard).__name__}")
    if shard.kind == "mbox":
        yield from _read_mbox_range(shard, repair)
    elif shard.kind == "skipped":
        if shard.skipped is not None:
            yield shard.skipped
    else:
        for task in shard.tasks:
            yield from _read_task(task, repair)


def records(shard: Shard, *, repair: bool = False) -> Iterator[dict[str, Any]]:
    """Yield the records of ``shard`` (:func:`onemail.message.records.build_records` of each
    message of :func:`messages`, in order: a message's own record, then its nested messages').

    Skipped items give no record (as in ``onemail export``); :func:`messages` has them. A
    message that could not be read, an mbox range changed since planning among them, is a
    record whose ``error`` says why.

    :param shard: a :class:`Shard` from :func:`shards`.
    :param repair: as for :func:`onemail.read`.
    :raises TypeError: ``shard`` is not a :class:`Shard`.
    """
    from .records import build_records

    for item in messages(shard, repair=repair):
        if isinstance(item, Found) and item.message is not None:
            yield from build_records(item.message, item.source)


def _read_task(task: FileTask, repair: bool) -> Iterator[Found | Skipped]:
    """One file by the walk's per-file step, after the check the walk makes of a folder's
    files: a file found in a folder must still be a regular file (a FIFO is never opened); a
    named one may be a FIFO."""
    if task.file != "-" and task.member is not None:
        try:
            mode = os.stat(task.file).st_mode
        except OSError:
            mode = None  # the per-file step says why
        if mode is not None and not stat.S_ISREG(mode):
            from .._walk import not_regular

            yield Skipped(task.path, "not-regular", not_regular(mode), task.member,
                          folder=task.folder, container=task.container)
            return
    yield from walk_task(task, repair=repair)


def _read_mbox_range(shard: Shard, repair: bool) -> Iterator[Found]:
    from .reader import read_bytes

    ctx = ReadContext(repair, 0, read_bytes)
    for src, span, window in _mbox_range_pieces(shard):
        if span is None:
            yield Found(src, Message("mbox", error=window.decode("utf-8", "replace")))
        else:
            yield Found(src, read_span(window, span, ctx))


def _mbox_range_pieces(shard: Shard) -> Iterator[tuple[Source, MboxSpan | None, bytes]]:
    """Yield ``(source, span, window)`` for each message of an mbox range (the span's offsets
    into ``window``), or ``(source of the range's rest, None, why as UTF-8)`` for what cannot
    be read. The split must give the planned number of messages, the last one ending at the
    planned end."""
    task = shard.tasks[0]
    container = task.container or "mbox"

    def source(index: int, offset: int, length: int) -> Source:
        return Source(task.path, container, task.member, index, offset, length, task.folder,
                      task.flags)

    def failed(index: int, start: int, why: str) -> tuple[Source, None, bytes]:
        last = shard.index + shard.count - 1
        text = f"mbox changed since planned: {why} (messages {index}-{last}, bytes {start}-{shard.end})"
        return source(index, start, shard.end - start), None, text.encode("utf-8")

    try:
        with _open_regular(task.file) as f:
            size = os.fstat(f.fileno()).st_size
            if size < shard.end:
                yield failed(shard.index, shard.start, f"{size} bytes, the shard ends at byte {shard.end}")
                return
            if os.pread(f.fileno(), 5, shard.start) != b"From ":
                yield failed(shard.index, shard.start, f"no separator line at byte {shard.start}")
                return
            found, last = 0, shard.start
            for span, window, w0 in _final_spans(f, shard.start, size):
                end = w0 + span.end
                if found == shard.count or end > shard.end:
                    break
                yield source(shard.index + found, w0 + span.start, span.end - span.start), span, window
                found += 1
                last = end
                if end == shard.end:
                    break
    except OSError as exc:
        yield failed(shard.index, shard.start, _problem(task.file, exc))
        return
    if found != shard.count or last != shard.end:  # the rest: from the last message found's end
        yield failed(shard.index + found, last, f"{found} of {shard.count} messages found in the "
                     "shard's range")


# ---------------------------------------------------------------------------------------------
# files


def _open_regular(file: str) -> BinaryIO:
    """Open ``file`` for reading bytes without ever blocking: ``O_NONBLOCK`` (a path that turned
    into a FIFO opens at once instead of waiting for a writer), then only a regular file is
    kept; anything else raises ``OSError`` (``EINVAL``)."""
    fd = os.open(file, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            from .._walk import not_regular

            raise OSError(errno.EINVAL, not_regular(mode), file)
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "rb")


def _problem(path: str, exc: OSError) -> str:
    from .._walk import stat_problem

    if exc.errno == errno.EINVAL and (exc.strerror or "").startswith("not a regular"):
        return exc.strerror or "not a regular file"
    return stat_problem(path, exc)

