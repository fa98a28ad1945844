"""Shards: picklable pieces of an archive that processes, Dask or Spark read independently.

:func:`shards` plans the work for a list of paths; :func:`messages` (and, through the record
builder, :func:`records`) reads one shard. Reading every shard, in any order, on any machine,
gives the same messages with the same :class:`~onemail.message.source.Source` as reading the
paths sequentially, once sorted on :meth:`Source.key`.

How each container is cut:

* **An mbox** (a file starting with ``"From "``): byte ranges cut exactly at message
  separators. The planner reads the file once, in blocks, and finds the separators with the very
  rule :func:`onemail.read_mbox` splits with (:func:`onemail.message.reader.mbox_spans`), so a
  shard starts at a separator line and ends where the last of its messages ends. Whole messages
  are added to a shard until it holds at least ``target_bytes``; a message larger than that is a
  shard of its own. A shard knows the number of its first message in the mbox and how many it
  holds, so each message keeps its sequential index. Planning reads each mbox once, with plain
  reads (never a memory map: a file truncated during planning is a short read, not a SIGBUS).
* **A folder** (any folder: a Maildir, MH folder, a tree of ``.eml`` files): batches of its
  files, in the order the sequential walk meets them, a batch closed when it holds
  ``target_bytes`` or :data:`MAX_BATCH_FILES` files. An mbox of ``target_bytes`` or more found
  in a folder is cut into byte ranges as above.
* **A zip archive**: ranges of its members (by uncompressed size).
* **Anything else** named on the command line (one ``.eml``, ``.msg``, TNEF, a FIFO, ``-``):
  one shard, read whole.

A shard describes what was planned: the file's size and modification time at planning
(:attr:`Shard.size`, :attr:`Shard.mtime_ns`) and, for an mbox range, its exact bounds and message
count. Reading checks them (M40): a file that is gone, no longer a regular file (turned into a
FIFO: never opened, opening one would wait for a writer), or shorter than the range's end gives
one error message for the whole shard at the shard's place; a range whose bytes no longer split
into the planned messages gives the messages it does find and one error message after them.
Reading a shard never raises on what it finds on disk, and never touches another shard's bytes.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from .formats import ReadContext, sniff
from .model import Message
from .source import Source

__all__ = [
    "DEFAULT_TARGET_BYTES",
    "KINDS",
    "MAX_BATCH_FILES",
    "Shard",
    "messages",
    "records",
    "shards",
]

DEFAULT_TARGET_BYTES = 16 << 20
"""Bytes of input a shard holds at least (its last message completes it), 16 MiB: small enough
that a 200 MB mbox gives a dozen shards to balance over the cores and that a worker holds one
shard in memory at a time (about 16 MiB beside the ~60 MB of a process that has read mail), large
enough that the work per shard (about 1 s of decoding on one core) dwarfs the cost of handing it
to a worker (milliseconds, also for a Dask or Spark task)."""

MAX_BATCH_FILES = 512
"""Files of a folder in one shard at most: a batch of small messages is closed after this many
even below ``target_bytes``, so that a Maildir of 1 KB messages still spreads over the workers
and a retried shard repeats little work."""

KINDS = frozenset({"mbox", "files", "zip", "whole", "unreadable"})
"""What a :class:`Shard` covers (:attr:`Shard.kind`)."""

_BOM = b"\xef\xbb\xbf"
_BLOCK = 8 << 20  # bytes the planner reads at a time
_SNIFF = 4096
_MBOXRD_QUOTE = re.compile(rb"^>(>*From )", re.M)


@dataclass(frozen=True, slots=True)
class Shard:
    """One piece of work (module docstring). Frozen, picklable, comparable.

    :param kind: one of :data:`KINDS`: ``"mbox"`` (a byte range of an mbox), ``"files"`` (a
        batch of a folder's files), ``"zip"`` (a range of a zip archive's members), ``"whole"``
        (one file or stream read whole), ``"unreadable"`` (a path that could not be planned;
        reading it gives one error message).
    :param path: the path as named by the caller (:attr:`Source.path` of every message).
    :param member: for ``"mbox"`` and ``"whole"``: the file inside the folder ``path`` holding
        the messages (``/``-separated, relative to ``path``), or ``None`` when ``path`` is
        the file itself.
    :param start: ``"mbox"``: byte offset of the first separator line in the file;
        ``"zip"``: index of the first member (in the archive's order); else 0.
    :param end: ``"mbox"``: byte offset where the last message ends (the line feed before the
        next separator, or the end of the file); ``"zip"``: index past the last member; else 0.
    :param index: the index (:attr:`Source.index`) of the shard's first message.
    :param count: ``"mbox"``: messages planned; ``"files"`` / ``"zip"``: files or members.
    :param members: ``"files"``: the batch's files relative to ``path`` (``/``-separated);
        ``"zip"``: the names of the members ``start`` to ``end``.
    :param size: the file's size in bytes at planning (``"files"``: the batch's total), or -1.
    :param mtime_ns: the file's modification time at planning (ns), or -1.
    :param problem: ``"unreadable"``: why (the ``OSError`` message, "not a regular file").
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
    problem: str | None = None

    @property
    def file(self) -> str:
        """The file this shard opens: ``path``, or ``path/member``."""
        return self.path if self.member is None else os.path.join(self.path, self.member)

    @property
    def weight(self) -> int:
        """The bytes of input the shard covers (for progress): an mbox range's length, else
        :attr:`size` (0 when unknown)."""
        if self.kind == "mbox":
            return self.end - self.start
        return max(self.size, 0)


# ---------------------------------------------------------------------------------------------
# planning


def shards(paths: Iterable[str | os.PathLike[str]], *,
           target_bytes: int = DEFAULT_TARGET_BYTES) -> Iterator[Shard]:
    """Plan ``paths`` into shards (module docstring), lazily, in sequential reading order.

    :param paths: files and folders (``str`` or ``os.PathLike``); ``"-"`` is standard input
        (one ``"whole"`` shard, readable only in the process that has that input).
    :param target_bytes: bytes a shard holds at least (its last message or file completes it);
        a positive ``int``.
    :returns: an iterator of :class:`Shard`; a path that cannot be planned (missing, a folder
        that cannot be listed, a socket) is one ``"unreadable"`` shard. Never raises ``OSError``.
    :raises TypeError: ``paths`` is a single string, or ``target_bytes`` is not an ``int``.
    :raises ValueError: ``target_bytes`` is not positive.
    """
    if isinstance(paths, (str, bytes, os.PathLike)):
        raise TypeError("paths must be a list of paths, not a single path")
    if not isinstance(target_bytes, int) or isinstance(target_bytes, bool):
        raise TypeError(f"target_bytes must be an int, not {type(target_bytes).__name__}")
    if target_bytes < 1:
        raise ValueError(f"target_bytes must be positive, not {target_bytes}")
    for p in paths:
        yield from _plan_path(os.fspath(p), target_bytes)


def _plan_path(path: str, target: int) -> Iterator[Shard]:
    if path == "-":
        yield Shard("whole", "-")
        return
    try:
        st = os.stat(path)
    except OSError as exc:
        yield Shard("unreadable", path, problem=_problem(path, exc))
        return
    if stat.S_ISDIR(st.st_mode):
        yield from _plan_folder(path, st, target)
    elif stat.S_ISFIFO(st.st_mode):
        yield Shard("whole", path)
    elif not stat.S_ISREG(st.st_mode):
        yield Shard("unreadable", path, problem=_not_regular(st.st_mode))
    else:
        yield from _plan_file(path, None, st, target)


def _plan_file(path: str, member: str | None, st: os.stat_result, target: int) -> Iterator[Shard]:
    """A regular file named by the caller (``member`` None) or found in a folder."""
    file = path if member is None else os.path.join(path, member)
    try:
        with _open_regular(file) as f:
            head = f.read(_SNIFF)
            if head.startswith(b"PK\x03\x04") and member is None and zipfile.is_zipfile(f):
                yield from _plan_zip(path, st, target)
                return
            base = 3 if head.startswith(_BOM + b"From ") else 0
            if head[base:base + 5] != b"From " or st.st_size < target and member is not None:
                yield Shard("whole", path, member, size=st.st_size, mtime_ns=st.st_mtime_ns)
                return
            yield from _plan_mbox(f, path, member, base, st, target)
    except OSError as exc:
        yield Shard("unreadable", path, member, problem=_problem(file, exc))


def _plan_mbox(f, path: str, member: str | None, base: int, st: os.stat_result,
               target: int) -> Iterator[Shard]:
    """Cut an open mbox into ranges of whole messages (module docstring).

    The file is read in blocks into a window that always starts at a separator line; the
    window's spans are final except the last one (its message may go on past the window), which
    starts the next window. A message larger than a block grows the window geometrically, so
    each byte is scanned a bounded number of times.
    """
    from .reader import mbox_spans

    size, mtime = st.st_size, st.st_mtime_ns
    w0 = base  # file offset of the window's first byte: the start of a separator line
    f.seek(w0)
    window = f.read(min(_BLOCK, size - w0))
    index = 0
    first = -1  # separator offset of the open shard's first message, -1: none open
    first_index = count = last_end = 0
    while True:
        eof = w0 + len(window) >= size or not window
        held = None  # (separator, end) of the window's last span, relative to the window
        sep = 0
        for _start, e in mbox_spans(window):
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
            held = (sep, e)
            sep = e + 1
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


def _plan_zip(path: str, st: os.stat_result, target: int) -> Iterator[Shard]:
    try:
        with zipfile.ZipFile(path) as zf:
            infos = [i for i in zf.infolist() if not i.is_dir()]
    except (OSError, zipfile.BadZipFile, ValueError) as exc:
        yield Shard("unreadable", path, problem=f"zip archive not readable: {exc}")
        return
    start, acc = 0, 0
    for n, info in enumerate(infos):
        acc += info.file_size
        if acc >= target or n + 1 - start >= MAX_BATCH_FILES or n + 1 == len(infos):
            yield Shard("zip", path, None, start, n + 1, 0, n + 1 - start,
                        tuple(i.filename for i in infos[start:n + 1]), st.st_size, st.st_mtime_ns)
            start, acc = n + 1, 0


def _plan_folder(top: str, st: os.stat_result, target: int) -> Iterator[Shard]:
    """Batches of a folder's files in the sequential walk's order (:mod:`onemail._walk`)."""
    from .._walk import walk

    batch: list[str] = []
    acc = 0

    def close() -> Shard:
        nonlocal batch, acc
        shard = Shard("files", top, count=len(batch), members=tuple(batch), size=acc)
        batch, acc = [], 0
        return shard

    for file, problem in walk([top]):
        rel = os.path.relpath(file, top).replace(os.sep, "/")
        if problem is not None:
            if batch:
                yield close()
            yield Shard("unreadable", top, rel, problem=problem)
            continue
        try:
            fst = os.stat(file)
        except OSError as exc:
            if batch:
                yield close()
            yield Shard("unreadable", top, rel, problem=_problem(file, exc))
            continue
        if fst.st_size >= target:  # a large file: an mbox is cut into ranges
            if batch:
                yield close()
            yield from _plan_file(top, rel, fst, target)
            continue
        batch.append(rel)
        acc += fst.st_size
        if acc >= target or len(batch) >= MAX_BATCH_FILES:
            yield close()
    if batch:
        yield close()


# ---------------------------------------------------------------------------------------------
# reading


def messages(shard: Shard, *, repair: bool = False) -> Iterator[tuple[Message, Source]]:
    """Yield each message of ``shard`` with its place, in sequential order (module docstring).

    :param shard: a :class:`Shard` from :func:`shards` (planned in this or another process).
    :param repair: as for :func:`onemail.read`.
    :returns: ``(Message, Source)`` pairs. What changed on disk since planning, or cannot be
        read, is a message whose :attr:`Message.error` says so, at the shard's place (M40).
        Never raises ``OSError``.
    :raises TypeError: ``shard`` is not a :class:`Shard`.
    """
    if not isinstance(shard, Shard):
        raise TypeError(f"shard must be a Shard, not {type(shard).__name__}")
    from .reader import read_bytes

    ctx = ReadContext(repair, 0, read_bytes)
    if shard.kind == "mbox":
        yield from _read_mbox_range(shard, ctx)
    elif shard.kind == "files":
        for rel in shard.members:
            yield from _read_file(shard.path, rel, ctx)
    elif shard.kind == "zip":
        yield from _read_zip(shard, ctx)
    elif shard.kind == "whole":
        yield from _read_file(shard.path, shard.member, ctx)
    else:
        yield _failed(shard, shard.problem or "not readable")


def records(shard: Shard, *, repair: bool = False) -> Iterator[tuple[Message, Source]]:
    """Yield the records of ``shard``, in sequential order: for now the ``(Message, Source)``
    pairs of :func:`messages` (the record dicts of issue 14 once their builder is on main).

    :param shard: a :class:`Shard` from :func:`shards`.
    :param repair: as for :func:`onemail.read`.
    :raises TypeError: ``shard`` is not a :class:`Shard`.
    """
    return messages(shard, repair=repair)


def _source(shard: Shard, **kw) -> Source:
    container = kw.pop("container", "mbox")
    return Source(shard.path, container, shard.member, **kw)


def _failed(shard: Shard, why: str) -> tuple[Message, Source]:
    """The one error message standing for a shard (or the rest of one) that cannot be read."""
    if shard.kind == "mbox":
        src = _source(shard, index=shard.index, offset=shard.start, length=shard.end - shard.start)
    elif shard.kind in ("files", "zip") and shard.members:
        src = Source(shard.path, "zip" if shard.kind == "zip" else "eml", shard.members[0])
    else:
        src = Source(shard.path, "eml", shard.member)
    return Message("unknown", error=why), src


def _read_mbox_range(shard: Shard, ctx: ReadContext) -> Iterator[tuple[Message, Source]]:
    from .reader import read_bytes

    for src, chunk, error in _mbox_range_pieces(shard):
        yield (Message("unknown", error=error) if error is not None
               else read_bytes(chunk, "mbox", ctx)), src


def _mbox_range_pieces(shard: Shard) -> Iterator[tuple[Source, bytes, str | None]]:
    """Yield ``(source, message bytes, None)`` for each message of an mbox range, or
    ``(source, b"", why)`` for what cannot be read.

    The planned range is read with a little of what follows it (the next separator line and
    the line after it), so the split rule sees what it saw when planning; the split must give
    the planned number of messages, the last one ending at the planned end.
    """
    from .reader import mbox_spans

    try:
        with _open_regular(shard.file) as f:
            size = os.fstat(f.fileno()).st_size
            if size < shard.end:
                yield _failed_piece(shard, f"mbox changed since planned: {size} bytes, the "
                                           f"shard ends at byte {shard.end}")
                return
            data = _read_range(f, shard.start, shard.end, size)
    except OSError as exc:
        yield _failed_piece(shard, _problem(shard.file, exc))
        return
    length = shard.end - shard.start
    if len(data) < length:
        yield _failed_piece(shard, f"mbox changed since planned: it ends at byte "
                                   f"{shard.start + len(data)}, the shard at byte {shard.end}")
        return
    found = last = 0
    for s, e in mbox_spans(data):
        if found == shard.count or e > length:
            break
        yield _source(shard, index=shard.index + found, offset=shard.start + s,
                      length=e - s), _unquote(data[s:e]), None
        found += 1
        last = e
        if e == length:
            break
    if found != shard.count or last != length:
        rest = Shard("mbox", shard.path, shard.member, shard.start + (last + 1 if found else 0), shard.end,
                     shard.index + found, shard.count - found)
        yield _failed_piece(rest, f"mbox changed since planned: {found} of {shard.count} "
                                  "messages found in the shard's range")


def _failed_piece(shard: Shard, why: str) -> tuple[Source, bytes, str]:
    return _failed(shard, why)[1], b"", why


def _unquote(chunk: bytes) -> bytes:
    """Undo mboxrd ``>From`` quoting, as :func:`onemail.read_mbox` does."""
    return _MBOXRD_QUOTE.sub(rb"\1", chunk) if b">From " in chunk else chunk


def _read_range(f, start: int, end: int, size: int) -> bytes:
    """Bytes ``start`` to ``end`` of ``f``, then the following lines up to two line feeds (the
    next separator line and the line after it), or to the end of the file."""
    f.seek(start)
    data = f.read(end - start)
    if len(data) < end - start or end >= size:
        return data
    tail = b""
    while tail.count(b"\n") < 2:
        more = f.read(4096)
        if not more:
            break
        tail += more
    return data + tail


def _read_file(path: str, member: str | None, ctx: ReadContext) -> Iterator[tuple[Message, Source]]:
    """A file read whole: one message, or the messages of an mbox."""
    from .reader import mbox_spans, read_bytes

    file = path if member is None else os.path.join(path, member)
    try:
        if path == "-":
            import sys

            data = sys.stdin.buffer.read()
            container = "stdin"
        else:
            with _open_regular(file, fifo=member is None) as f:
                data = f.read()
            container = "eml"
    except OSError as exc:
        yield Message("unknown", error=_problem(file, exc)), Source(path, "eml", member)
        return
    base = 3 if data.startswith(_BOM + b"From ") else 0
    fmt = sniff(data[base:base + _SNIFF])
    if fmt != "mbox":
        kind = fmt if fmt in ("msg", "tnef") else container
        yield read_bytes(data, None, ctx), Source(path, kind, member)
        return
    if base:
        data = data[base:]
    for n, (s, e) in enumerate(mbox_spans(data)):
        yield (read_bytes(_unquote(data[s:e]), "mbox", ctx),
               Source(path, "mbox", member, n, base + s, e - s))


def _read_zip(shard: Shard, ctx: ReadContext) -> Iterator[tuple[Message, Source]]:

    try:
        f = _open_regular(shard.path)
    except OSError as exc:
        yield _failed(shard, _problem(shard.path, exc))
        return
    with f:
        try:
            zf = zipfile.ZipFile(f)
        except (OSError, zipfile.BadZipFile, ValueError) as exc:
            yield _failed(shard, f"zip archive not readable: {exc}")
            return
        yield from _read_zip_members(shard, zf, ctx)


def _read_zip_members(shard: Shard, zf: zipfile.ZipFile,
                      ctx: ReadContext) -> Iterator[tuple[Message, Source]]:
    from .reader import read_bytes

    with zf:
        for name in shard.members:
            try:
                data = zf.read(name)
            except (OSError, KeyError, zipfile.BadZipFile, ValueError, EOFError) as exc:
                yield Message("unknown", error=f"zip member not readable: {exc}"), Source(
                    shard.path, "zip", name)
                continue
            yield read_bytes(data, None, ctx), Source(shard.path, "zip", name)


# ---------------------------------------------------------------------------------------------
# files


def _open_regular(file: str, *, fifo: bool = False):
    """Open ``file`` for reading bytes without ever blocking: ``O_NONBLOCK`` (a path that turned
    into a FIFO opens at once instead of waiting for a writer), then only a regular file (or,
    with ``fifo``, a FIFO) is kept; anything else raises ``OSError`` (``EINVAL``)."""
    fd = os.open(file, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISFIFO(mode) and fifo:
            os.set_blocking(fd, True)
        elif not stat.S_ISREG(mode):
            raise OSError(errno.EINVAL, _not_regular(mode), file)
        else:
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "rb")


def _not_regular(mode: int) -> str:
    for test, name in ((stat.S_ISFIFO, "FIFO"), (stat.S_ISSOCK, "socket"),
                       (stat.S_ISCHR, "character device"), (stat.S_ISBLK, "block device"),
                       (stat.S_ISDIR, "folder")):
        if test(mode):
            return f"not a regular file ({name})"
    return "not a regular file"


def _problem(path: str, exc: OSError) -> str:
    if exc.errno == errno.EINVAL and exc.strerror and exc.strerror.startswith("not a regular"):
        return exc.strerror
    if os.path.islink(path):
        return f"unreachable symbolic link ({exc.strerror or exc})"
    return exc.strerror or str(exc)
