"""Shards: picklable pieces of an archive that processes, Dask or Spark read independently.

:func:`shards` plans the work for a list of paths; :func:`messages` (and, through the record
builder, :func:`records`) reads one shard. Reading every shard, in any order, on any machine,
gives the items of the sequential walk (:func:`onemail.message.containers.walk`: each
:class:`~onemail.message.containers.Found` message with its :class:`~onemail.message.source.
Source`, each :class:`~onemail.message.containers.Skipped` path), equal once sorted on
:func:`key`.

How each container is cut:

* **An mbox** (a file starting with ``"From "``, not named ``*.eml``, of ``target_bytes`` or
  more): byte ranges cut exactly at message separators. The planner reads the file once, in
  blocks, and finds the messages with the very rule the walk splits with
  (:func:`onemail.message.reader.mbox_spans`), so a shard starts at a separator line and ends
  where the last of its messages ends. Whole messages are added to a shard until it holds at
  least ``target_bytes``; a message larger than that is a shard of its own. A shard knows the
  index of its first message and how many it holds, so each message keeps its sequential index.
  Planning reads each such mbox once with plain reads (never a memory map: a file truncated
  while it is planned is a short read, not a SIGBUS).
* **A folder** (a Maildir, an MH folder, any tree of files): batches of its files, closed when
  a batch holds ``target_bytes`` or :data:`MAX_BATCH_FILES` files; each file is read by the
  walk's own per-file step (:func:`onemail.message.containers.walk_file`). A large mbox found in
  a folder is cut into byte ranges as above.
* **Anything else** (a small mbox, an ``.eml``, ``.msg``, TNEF, a FIFO, ``-``): one shard, read
  whole by the walk's per-file step.

A shard describes what was planned: the file's size and modification time at planning
(:attr:`Shard.size`, :attr:`Shard.mtime_ns`) and, for an mbox range, its exact bounds and message
count. Reading checks them (M40): an mbox that is gone, no longer a regular file (turned into a
FIFO: never opened, opening one would wait for a writer), or shorter than the range's end is one
``Found`` item for the whole range, its :class:`Source` the range (first index, offset, length)
and its message's :attr:`~onemail.message.Message.error` what changed; a range whose bytes no
longer split into the planned messages gives the messages it does find, then one such item for
the rest. A file of a batch is checked as the walk checks a folder's files (a FIFO is a
``Skipped`` item, ``not-regular``). Reading a shard never raises on what it finds on disk, and
never touches another shard's bytes.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from .containers import MAIL_SUFFIXES, Found, Skipped, recognise, walk, walk_file
from .formats import ReadContext
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
that a 200 MB mbox gives a dozen shards to balance over the cores and that a worker holds one
shard in memory at a time (16 MiB beside the ~60 MB of a process that has read mail), large
enough that the work per shard (a few seconds of decoding on one core) dwarfs the cost of
handing it to a worker (milliseconds, also for a Dask or Spark task)."""

MAX_BATCH_FILES = 512
"""Files of a folder in one shard at most: a batch of small messages is closed after this many
even below ``target_bytes``, so that a Maildir of 1 KB messages still spreads over the workers
and a retried shard repeats little work."""

KINDS = frozenset({"mbox", "files", "whole", "skipped"})
"""What a :class:`Shard` covers (:attr:`Shard.kind`)."""

_BLOCK = 8 << 20  # bytes the planner reads at a time
_HEAD = 64 << 10  # bytes read to recognise a large file (containers.HEAD_BYTES)


@dataclass(frozen=True, slots=True)
class Shard:
    """One piece of work (module docstring). Frozen, picklable, comparable.

    :param kind: one of :data:`KINDS`: ``"mbox"`` (a byte range of an mbox), ``"files"`` (a
        batch of a folder's files), ``"whole"`` (one file or stream read whole), ``"skipped"``
        (a path the planner could not read: reading gives its ``Skipped`` item).
    :param path: the path as named by the caller (:attr:`Source.path` of every message).
    :param member: ``"mbox"``, ``"whole"``, ``"skipped"``: the file inside the folder ``path``
        (``/``-separated, relative to ``path``), or ``None`` when ``path`` is the file itself.
    :param start: ``"mbox"``: byte offset of the first separator line in the file; else 0.
    :param end: ``"mbox"``: byte offset where the last message ends (as
        :attr:`Source.offset` + :attr:`Source.length` of that message); else 0.
    :param index: ``"mbox"``: the :attr:`Source.index` of the first message.
    :param count: ``"mbox"``: messages planned; ``"files"``: files in the batch.
    :param members: ``"files"``: the batch's files relative to ``path`` (``/``-separated).
    :param size: bytes of the file at planning (``"files"``: of the batch), or -1 (unknown).
    :param mtime_ns: the file's modification time at planning (ns), or -1.
    :param problem: ``"skipped"``: ``(reason, detail)`` of the ``Skipped`` item.
    """

    kind: str
    path: str
    member: str | None = None
    start: int = 0
    end: int = 0
    index: int = 0
    count: int = 0
    members: tuple[str, ...] = field(default=())
    size: int = -1
    mtime_ns: int = -1
    problem: tuple[str, str] | None = None

    @property
    def file(self) -> str:
        """The file this shard opens: ``path``, or ``path/member``."""
        return self.path if self.member is None else os.path.join(self.path, self.member)

    @property
    def weight(self) -> int:
        """The bytes of input the shard covers (for progress and cost): an mbox range's length,
        else :attr:`size` (0 when unknown)."""
        if self.kind == "mbox":
            return self.end - self.start
        return max(self.size, 0)


def key(item: Found | Skipped) -> tuple:
    """The sort key of a walk item: :meth:`Source.key` of a message; a skipped path sorts at
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

    :param paths: files and folders (``str`` or ``os.PathLike``); ``"-"`` is standard input
        (one ``"whole"`` shard, readable only in the process that has that input).
    :param target_bytes: bytes a shard holds at least (its last message or file completes it);
        a positive ``int``.
    :returns: an iterator of :class:`Shard`. A path that cannot be planned (missing, a folder
        that cannot be listed, a socket) is a ``"skipped"`` shard. Never raises ``OSError``.
    :raises TypeError: ``paths`` is a single path, or ``target_bytes`` is not an ``int``.
    :raises ValueError: ``target_bytes`` is not positive.
    """
    if isinstance(paths, (str, bytes, os.PathLike)):
        raise TypeError("paths must be a list of paths, not a single path")
    if not isinstance(target_bytes, int) or isinstance(target_bytes, bool):
        raise TypeError(f"target_bytes must be an int, not {type(target_bytes).__name__}")
    if target_bytes < 1:
        raise ValueError(f"target_bytes must be positive, not {target_bytes}")
    for p in paths:
        p = os.fspath(p)
        yield from _plan_path(os.fsdecode(p) if isinstance(p, bytes) else p, target_bytes)


def _plan_path(path: str, target: int) -> Iterator[Shard]:
    if path == "-":
        yield Shard("whole", "-")
        return
    try:
        st = os.stat(path)
    except OSError:
        yield Shard("whole", path)  # the walk's per-file step says why
        return
    if stat.S_ISDIR(st.st_mode):
        yield from _plan_folder(path, st, target)
    elif stat.S_ISREG(st.st_mode) and st.st_size >= target:
        yield from _plan_file(path, None, st, target)
    else:
        yield Shard("whole", path, size=st.st_size if stat.S_ISREG(st.st_mode) else -1,
                    mtime_ns=st.st_mtime_ns)


def _plan_file(path: str, member: str | None, st: os.stat_result, target: int) -> Iterator[Shard]:
    """A regular file of ``target`` bytes or more: byte ranges when it is an mbox the walk
    splits, else one ``"whole"`` shard."""
    file = path if member is None else os.path.join(path, member)
    whole = Shard("whole", path, member, size=st.st_size, mtime_ns=st.st_mtime_ns)
    try:
        with _open_regular(file) as f:
            head = f.read(_HEAD)
            hint = member is None or file.lower().endswith(MAIL_SUFFIXES)
            # the walk reads an mbox named *.eml as one message after its envelope line
            if (not head.startswith(b"From ") or recognise(head, hint=hint) != "mbox"
                    or file.lower().endswith(".eml")):
                yield whole
                return
            yield from _plan_mbox(f, path, member, st, target)
    except OSError:
        yield whole  # the walk's per-file step says why


def _plan_mbox(f, path: str, member: str | None, st: os.stat_result,
               target: int) -> Iterator[Shard]:
    """Cut an open mbox into ranges of whole messages (module docstring).

    The file is read in blocks into a window that always starts at a separator line; the
    window's spans are final except the last one (its message may go on past the window, and
    the rule treats the end of the data specially), which starts the next window. A message
    larger than a block grows the window geometrically, so each byte is scanned a bounded number
    of times. A separator line starts after the last line feed before its message.
    """
    from .reader import mbox_spans

    size, mtime = st.st_size, st.st_mtime_ns
    w0 = 0  # file offset of the window's first byte: the start of a separator line
    f.seek(0)
    window = f.read(min(_BLOCK, size))
    index = 0
    first = -1  # separator offset of the open shard's first message, -1: none open
    first_index = count = last_end = 0
    while True:
        eof = w0 + len(window) >= size or not window
        held: tuple[int, int] | None = None  # (separator, end) of the window's last span
        for s, e in mbox_spans(window):
            if held is not None:  # the previous span is final: another one follows it
                hs, he = held
                if first < 0:
                    first, first_index, count = w0 + hs, index, 0
                count += 1
                index += 1
                last_end = w0 + he
                if last_end - first >= target:
                    yield Shard("mbox", path, member, first, last_end, first_index, count,
                                size=size, mtime_ns=mtime)
                    first = -1
            held = (window.rfind(b"\n", 0, s - 1) + 1, e)
        if eof:
            if held is not None:
                if first < 0:
                    first, first_index, count = w0 + held[0], index, 0
                count += 1
                last_end = w0 + held[1]
            if first >= 0:
                yield Shard("mbox", path, member, first, last_end, first_index, count,
                            size=size, mtime_ns=mtime)
            return
        keep = held[0] if held is not None else 0
        w0 += keep
        more = f.read(min(max(_BLOCK, len(window) - keep), size - w0 - len(window) + keep))
        window = window[keep:] + more
        if not more:  # the file ended early (truncated while planning): what is there is final
            size = w0 + len(window)


def _plan_folder(top: str, st: os.stat_result, target: int) -> Iterator[Shard]:
    """Batches of a folder's files (:func:`onemail.message.containers.tasks`: the same files,
    in the same order, as the walk's)."""
    from .containers import tasks

    batch: list[str] = []
    acc = 0

    def close() -> Shard:
        nonlocal batch, acc
        shard = Shard("files", top, count=len(batch), members=tuple(batch), size=acc)
        batch, acc = [], 0
        return shard

    for task in tasks([top]):
        if isinstance(task, Skipped):
            if batch:
                yield close()
            yield Shard("skipped", top, task.member, problem=(task.reason, task.detail))
            continue
        file, rel = task.file, task.member
        try:
            fst = os.stat(file)
        except OSError:
            fst = None
        if fst is not None and fst.st_size >= target:  # a large file: an mbox is cut into ranges
            if batch:
                yield close()
            yield from _plan_file(top, rel, fst, target)
            continue
        batch.append(rel)
        acc += fst.st_size if fst is not None else 0
        if acc >= target or len(batch) >= MAX_BATCH_FILES:
            yield close()
    if batch:
        yield close()


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
    elif shard.kind == "files":
        for rel in shard.members:
            yield from _read_file(shard.path, rel, repair)
    elif shard.kind == "whole":
        if shard.path == "-":
            yield from walk(["-"], repair=repair)
        else:
            yield from _read_file(shard.path, shard.member, repair)
    else:
        reason, detail = shard.problem or ("unreadable", "")
        yield Skipped(shard.path, reason, detail, member=shard.member)


def records(shard: Shard, *, repair: bool = False) -> Iterator[Found | Skipped]:
    """Yield the records of ``shard``, in the walk's order: for now the items of
    :func:`messages` (the record dicts of issue 14 once their builder is on main).

    :param shard: a :class:`Shard` from :func:`shards`.
    :param repair: as for :func:`onemail.read`.
    :raises TypeError: ``shard`` is not a :class:`Shard`.
    """
    return messages(shard, repair=repair)


def _read_file(path: str, member: str | None, repair: bool) -> Iterator[Found | Skipped]:
    """One file by the walk's per-file step, after a check that it is still what the walk
    would open: inside a folder a regular file (a FIFO is never opened), named a regular file
    or a FIFO."""
    file = path if member is None else os.path.join(path, member)
    try:
        mode = os.stat(file).st_mode
    except OSError:
        mode = None  # the per-file step says why
    if mode is not None and not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode) and member is None):
        from .._walk import not_regular

        yield Skipped(path, "not-regular", not_regular(mode), member=member)
        return
    if member is None:
        yield from walk_file(file, repair=repair)
    else:
        yield from walk_file(file, root=path, member=member, repair=repair)


def _read_mbox_range(shard: Shard, repair: bool) -> Iterator[Found]:
    from .mbox import read_span
    from .reader import read_bytes

    ctx = ReadContext(repair, 0, read_bytes)
    for src, data, span, error in _mbox_range_pieces(shard):
        yield Found(src, Message("mbox", error=error) if error is not None
                    else read_span(data, span, ctx))


def _mbox_range_pieces(shard: Shard) -> Iterator[tuple]:
    """Yield ``(source, range bytes, span, None)`` for each message of an mbox range (read with
    :func:`onemail.message.mbox.read_span`, as the walk reads it), or
    ``(source of the range's rest, b"", None, why)`` for what cannot be read.

    The planned range is read with a little of what follows it (the next separator line and
    the line after it), so the split rule sees what it saw when planning; the split must give
    the planned number of messages, the last one ending at the planned end.
    """
    from .mbox import spans

    try:
        with _open_regular(shard.file) as f:
            size = os.fstat(f.fileno()).st_size
            if size < shard.end:
                yield _failed(shard, f"mbox changed since planned: {size} bytes, the shard "
                                     f"ends at byte {shard.end}")
                return
            data = _read_range(f, shard.start, shard.end, size)
    except OSError as exc:
        yield _failed(shard, f"mbox changed since planned: {_problem(shard.file, exc)}")
        return
    length = shard.end - shard.start
    if len(data) < length:
        yield _failed(shard, f"mbox changed since planned: it ends at byte "
                             f"{shard.start + len(data)}, the shard at byte {shard.end}")
        return
    found = last = 0
    for span in spans(data):
        s, e = span.start, span.end
        if found == shard.count or e > length:
            break
        yield Source(shard.path, "mbox", shard.member, shard.index + found, shard.start + s,
                     e - s), data, span, None
        found += 1
        last = e
        if e == length:
            break
    if found != shard.count or last != length:
        start = shard.start + (_line_after(data, last) if found else 0)
        rest = Shard("mbox", shard.path, shard.member, start, shard.end, shard.index + found,
                     shard.count - found)
        yield _failed(rest, f"mbox changed since planned: {found} of {shard.count} messages "
                            "found in the shard's range")


def _line_after(data: bytes, end: int) -> int:
    """Where the line after a message ending at ``end`` starts (M20: a message keeps its last
    line feed; an empty line after it is the mbox's)."""
    if end and data[end - 1:end] != b"\n":
        nl = data.find(b"\n", end)
        end = len(data) if nl < 0 else nl + 1
    if data[end:end + 1] == b"\n":
        return end + 1
    return end + 2 if data[end:end + 2] == b"\r\n" else end


def _failed(shard: Shard, why: str) -> tuple[Source, bytes, None, str]:
    """The one error message standing for an mbox range (or the rest of one) not read: its
    source is the range (first index, offset, length)."""
    src = Source(shard.path, "mbox", shard.member, shard.index, shard.start, shard.end - shard.start)
    last = shard.index + shard.count - 1
    return src, b"", None, f"{why} (messages {shard.index}-{last}, bytes {shard.start}-{shard.end})"


def _read_range(f, start: int, end: int, size: int) -> bytes:
    """Bytes ``start`` to ``end`` of ``f``, then what follows up to three line feeds (the end of
    the range's last line, the next separator line and the line after it), or to the end of
    the file."""
    f.seek(start)
    data = f.read(end - start)
    if len(data) < end - start or end >= size:
        return data
    tail = b""
    while tail.count(b"\n") < 3:
        more = f.read(4096)
        if not more:
            break
        tail += more
    return data + tail


# ---------------------------------------------------------------------------------------------
# files


def _open_regular(file: str):
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
