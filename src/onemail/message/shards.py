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
* **A zip archive** (of ``target_bytes`` or more, or of at least ``target_bytes //``
  :data:`SNIFF_DIVISOR` whose members declare ``target_bytes`` or more): ranges of the steps of
  its walk (:class:`~onemail.message.containers.ZipLayout`: its members in walk order, Maildir
  and MH folders inside recognised, and the walk's skips), planned from the central directory
  without decompressing anything, each range holding at least ``target_bytes`` of declared
  output; each read by :meth:`~onemail.message.containers.ZipArchive.items`, the walk's own
  member code (bounded members, names never used as paths, nested containers). A member is
  never cut: a large mbox member is one shard's work. The archive's output budget is spent by
  declared sizes in walk order, so each range starts with the budget the sequential walk has
  left there (M45).
* **A PST/OST store** (of ``target_bytes`` or more): ranges of its walk, folder by folder in
  walk order and item by item within a folder (:class:`~onemail.message.pst.PstPart`: a
  folder's route, names and a range of its sub-items, with the index of its first message), each
  of at least ``target_bytes`` of items (PidTagMessageSize). Planning opens every item to read
  its message class (so that a piece knows its first message's index, M47), nothing more; each
  piece is read by :meth:`~onemail.message.pst.PstStore.items`, the walk's own item code. An
  item is never cut (its attachments and embedded messages go with it).
* **Compressed files, FIFOs, standard input**: one shard each, read whole by the walk's
  per-file step (a compressed stream cannot be entered past its start without decompressing
  what is before: docs/scale.md "Limits"; standard input can be read only by the process that
  has it).
* **What the walk cannot walk** (a missing path, a folder that cannot be listed): a shard that
  gives the walk's ``Skipped`` item.

A shard describes what was planned: the file's size and modification time at planning
(:attr:`Shard.size`, :attr:`Shard.mtime_ns`) and, for an mbox range, its exact bounds and message
count. Reading checks them (M40): an mbox that is gone, no longer a regular file (turned into a
FIFO: never opened, opening one would wait for a writer), or shorter than the range's end is one
``Found`` item for the whole range, its :class:`Source` the range (first index, offset, length)
and its message's :attr:`~onemail.message.Message.error` what changed; a range whose bytes no
longer split into the planned messages gives the messages it does find, then one such item for
the rest. A zip or PST/OST shard also records the file's fingerprint (a digest of the central
directory, of the store's header) and, for a PST piece, its folder's route and number of items:
a file that changed is one error message for the shard, or for the PST pieces from the first
that no longer matches (M46). A file of a batch is checked as the walk checks a folder's files
(a FIFO is a ``Skipped`` item, ``not-regular``, and is not opened). Reading a shard never
raises on what it finds on disk and never touches another shard's bytes.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from .containers import (
    MAIL_SUFFIXES,
    FileTask,
    Found,
    Skipped,
    ZipArchive,
    open_zip,
    recognise,
    tasks,
    walk_pst_part,
    walk_task,
)
from .formats import ReadContext
from .mbox import FROMS, LENGTHS, ListedMarks, MboxSpan, mbox_start, read_span, split, trim_end
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
    "release",
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

KINDS = frozenset({"mbox", "zip", "pst", "files", "whole", "skipped"})
"""What a :class:`Shard` covers (:attr:`Shard.kind`)."""

SNIFF_DIVISOR = 16
"""A file below ``target_bytes`` but of at least ``target_bytes // SNIFF_DIVISOR`` bytes is
looked at when planned (its first bytes read): a zip archive whose members give
``target_bytes`` or more is cut like a larger one. Smaller files are batched unopened: a zip
under a sixteenth of a shard that gives a whole shard compresses mail more than 16:1, which mail
rarely does (text 3-5:1), and opening every small file would make planning a Maildir cost one
read per message."""

_HEAD = 64 << 10  # bytes read to recognise a large file (containers.HEAD_BYTES)


@dataclass(frozen=True, slots=True)
class Shard:
    """One piece of work (module docstring). Frozen, picklable, comparable.

    :param kind: one of :data:`KINDS`: ``"mbox"`` (a byte range of an mbox), ``"zip"`` (a range
        of a zip archive's walk), ``"pst"`` (pieces of a PST/OST store), ``"files"`` (a
        batch of the walk's files), ``"whole"`` (one file or stream read whole), ``"skipped"``
        (what the walk cannot walk: reading gives :attr:`skipped`).
    :param tasks: the walk's file tasks (:class:`~onemail.message.containers.FileTask`):
        one for ``"mbox"``, ``"zip"``, ``"pst"`` and ``"whole"``, the batch for ``"files"``, none
        for ``"skipped"``.
    :param start: ``"mbox"``: byte offset of the first message's separator line; ``"zip"``: the
        first step; else 0.
    :param end: ``"mbox"``: byte offset where the last message ends (its
        :attr:`Source.offset` + :attr:`Source.length`); ``"zip"``: the step after the last;
        else 0.
    :param index: ``"mbox"``: the :attr:`Source.index` of the first message; else 0.
    :param count: ``"mbox"``: messages planned; ``"zip"``: steps; ``"pst"``: sub-items; else the
        number of tasks.
    :param size: bytes of the file at planning (``"files"``: of the batch's files), -1 unknown.
    :param mtime_ns: the file's modification time at planning (ns), or -1.
    :param skipped: ``"skipped"``: the walk's item, else ``None``.
    :param fingerprint: ``"zip"``: the archive's :attr:`~onemail.message.containers.ZipLayout.
        fingerprint`; ``"pst"``: a digest of the store's header; else ``""``.
    :param parts: ``"zip"``: the members of the range's first and last steps; ``"pst"``: the
        :class:`~onemail.message.pst.PstPart` pieces (a folder and a range of its items) read
        in order; else ``()``.
    :param work: ``"zip"``, ``"pst"``: the bytes of output (members' declared sizes) or of
        items (their PidTagMessageSize) the shard covers, for :attr:`weight`; else -1.

    ``"zip"``: :attr:`start` and :attr:`end` are the range of the steps of the archive's walk
    (:attr:`~onemail.message.containers.ZipLayout.members`), :attr:`count` their number.
    ``"pst"``: :attr:`index` is 0 and :attr:`count` the number of items covered.
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
    fingerprint: str = ""
    parts: tuple[Any, ...] = ()
    work: int = -1

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
        if self.work >= 0:
            return self.work
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
           target_bytes: int = DEFAULT_TARGET_BYTES, taper: int = 0) -> Iterator[Shard]:
    """Plan ``paths`` into shards (module docstring), lazily, in the walk's order.

    :param paths: files, folders, or ``"-"`` for standard input (``str`` or ``os.PathLike``).
    :param target_bytes: bytes a shard holds at least (its last message or file completes it);
        a positive ``int``.
    :param taper: ``0`` (the default), or a positive ``int`` T: the ranges near an mbox's end
        get smaller, a range starting R bytes before the end holding at least ``min(
        target_bytes, R // T)`` bytes, and at least ``min(target_bytes,``
        :data:`TAPER_FLOOR_BYTES` ``)``: on a pool of workers the last shards of a big mbox are
        small, so that the workers finish together (``onemail scan --jobs N`` uses T = 2N).
    :returns: an iterator of :class:`Shard`. Never raises ``OSError``: what cannot be planned
        is a ``"skipped"`` or ``"whole"`` shard whose reading says why.
    :raises TypeError: ``paths`` is a single path or holds something that is no path, or
        ``target_bytes`` or ``taper`` is not an ``int``.
    :raises ValueError: ``target_bytes`` is not positive, or ``taper`` is negative.
    """
    for name, value in (("target_bytes", target_bytes), ("taper", taper)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if target_bytes < 1:
        raise ValueError(f"target_bytes must be positive, not {target_bytes}")
    if taper < 0:
        raise ValueError(f"taper must be 0 or positive, not {taper}")
    if isinstance(paths, (str, bytes, os.PathLike)):
        raise TypeError("paths must be a list of paths, not a single path")
    return _plan(tasks(paths), target_bytes, taper)


TAPER_FLOOR_BYTES = 1 << 20
"""The smallest range a tapered plan (:func:`shards`' ``taper``) cuts near an mbox's end: 1 MiB,
some 150 messages of mail, a few tenths of a second of reading, far above the milliseconds a
shard costs to hand out."""


def _plan(planned: Iterable[FileTask | Skipped], target: int, taper: int = 0) -> Iterator[Shard]:
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
                yield from _plan_file(task, st, target, taper)
            else:  # standard input, a FIFO, a path gone: the per-file step reads or reports it
                yield Shard("whole", (task,), count=1,
                            mtime_ns=st.st_mtime_ns if st is not None else -1)
            continue
        if st.st_size >= target // SNIFF_DIVISOR:
            cut = _plan_sniffed(task, st, target)
            if cut:
                if batch:
                    yield close()
                yield from cut
                continue
        batch.append(task)
        acc += st.st_size
        if acc >= target or len(batch) >= MAX_BATCH_FILES:
            yield close()
    if batch:
        yield close()


def _plan_file(task: FileTask, st: os.stat_result, target: int, taper: int = 0) -> Iterator[Shard]:
    """A regular file of ``target`` bytes or more: byte ranges when the walk reads it as an
    mbox, else one ``"whole"`` shard."""
    whole = Shard("whole", (task,), count=1, size=st.st_size, mtime_ns=st.st_mtime_ns)
    try:
        with _open_regular(task.file) as f:
            head = f.read(_HEAD)
            hint = task.member is None or task.file.lower().endswith(MAIL_SUFFIXES)
            kind = recognise(head, hint=hint)
            if kind in ("zip", "pst"):
                yield from (_plan_zip if kind == "zip" else _plan_pst)(f, task, st, target) or [whole]
                return
            if kind != "mbox":
                yield whole
                return
            first = max(0, mbox_start(head))
            planned = list(_plan_mbox(f, task, first, st, target, taper))
    except OSError:
        planned = []
    # an mbox without a message, or one that could not be read: the per-file step says so
    yield from planned or [whole]


def _plan_sniffed(task: FileTask, st: os.stat_result, target: int) -> list[Shard]:
    """A regular file under ``target`` bytes (:data:`SNIFF_DIVISOR`): its ranges when it is a
    zip archive whose members give ``target`` bytes or more, else ``[]`` (batch it)."""
    try:
        with _open_regular(task.file) as f:
            if recognise(f.read(8)) != "zip":
                return []
            return _plan_zip(f, task, st, target)
    except OSError:
        return []


def _plan_zip(f: BinaryIO, task: FileTask, st: os.stat_result, target: int) -> list[Shard]:
    """Ranges of the steps of an open zip archive's walk, each of ``target`` bytes of declared
    output or more (its last member completes it), from the central directory alone; ``[]``
    when the archive is unreadable or gives one range only (read whole)."""
    archive = open_zip(f)
    if archive is None:
        return []
    with archive:
        layout = archive.layout
    ranges: list[tuple[int, int, int]] = []
    first = acc = 0
    for i, n in enumerate(layout.sizes):
        acc += n
        if acc >= target:
            ranges.append((first, i + 1, acc))
            first, acc = i + 1, 0
    if first < len(layout.sizes):
        ranges.append((first, len(layout.sizes), acc))
    if len(ranges) < 2:
        return []
    return [Shard("zip", (task,), a, b, 0, b - a, st.st_size, st.st_mtime_ns,
                  fingerprint=layout.fingerprint, parts=(layout.members[a], layout.members[b - 1]),
                  work=n) for a, b, n in ranges]


def _plan_pst(f: BinaryIO, task: FileTask, st: os.stat_result, target: int) -> list[Shard]:
    """Ranges of a PST/OST store's walk (folders in walk order, each folder's sub-items in its
    order), each of ``target`` bytes of items or more (PidTagMessageSize; its last item completes
    it): pieces of one or more folders, a large folder cut between its items. ``[]`` when the
    store cannot be opened here or gives one range only (read whole)."""
    from .pst import PstPart, open_store

    store = open_store(f)
    if store is None or isinstance(store, str):
        return []
    with store:
        try:
            folders = store.layout()
        except Exception:  # noqa: BLE001 - pypff failing past what the walk reports: read it whole
            return []
        fingerprint = store.fingerprint
    shards_: list[Shard] = []
    parts: list[PstPart] = []
    acc = items = 0

    def close() -> None:
        nonlocal parts, acc, items
        shards_.append(Shard("pst", (task,), count=items, size=st.st_size, mtime_ns=st.st_mtime_ns,
                             fingerprint=fingerprint, parts=tuple(parts), work=acc))
        parts, acc, items = [], 0, 0

    for folder in folders:
        if folder.sizes is None:
            parts.append(PstPart(folder.route, folder.names, -1, 0, 0, 0))
            continue
        start = message = 0
        for i, size in enumerate(folder.sizes):
            acc += size
            if acc >= target:
                parts.append(PstPart(folder.route, folder.names, len(folder.sizes), start, i + 1,
                                     message))
                items += i + 1 - start
                message += sum(folder.messages[start:i + 1])
                start = i + 1
                close()
        if start < len(folder.sizes):
            parts.append(PstPart(folder.route, folder.names, len(folder.sizes), start,
                                 len(folder.sizes), message))
            items += len(folder.sizes) - start
    if parts:
        close()
    return shards_ if len(shards_) > 1 else []


def _plan_mbox(f: BinaryIO, task: FileTask, first: int, st: os.stat_result,
               target: int, taper: int = 0) -> Iterator[Shard]:
    """Cut an open mbox into ranges of whole messages (module docstring; ``taper``:
    :func:`shards`)."""
    size, mtime = st.st_size, st.st_mtime_ns
    start = -1  # separator offset of the open shard's first message; -1: none open
    index = first_index = count = last_end = 0
    floor, want = min(target, TAPER_FLOOR_BYTES), target
    for w0, _, separator, _, end, _ in _final(f, first, size):
        if start < 0:
            start, first_index, count = w0 + separator, index, 0
            if taper:
                want = max(floor, min(target, (size - start) // taper))
        count += 1
        index += 1
        last_end = w0 + end
        if last_end - start >= want:
            yield Shard("mbox", (task,), start, last_end, first_index, count, size, mtime)
            start = -1
    if start >= 0:
        yield Shard("mbox", (task,), start, last_end, first_index, count, size, mtime)


# The split rule looks past a message's end (M20: the header after a candidate separator; M22: the
# bytes a Content-Length points at, anywhere ahead). A message's span is final once two more
# spans follow it in the window (the next separator's header section ends before the one after)
# and no Content-Length field in its header section (any of them: the rule takes the first
# well-formed one) points at the second one's separator or past it (less 4 bytes: the line ends
# the rule allows before a separator line), where the header the rule must read may not be in
# the window yet. This over-approximates where the rule could honour a length (mbox.spans
# decides), so a window grows to cover it rather than cut a decision short. (Until 2026-12-02 a
# length pointing exactly at the second separator, a length other than the largest, and a
# header whose empty line is the one the line rule leaves out of the span were missed: a window
# end there cut a Content-Length message where the walk does not.)
_CONTENT_LENGTH = re.compile(rb"^content-length[ \t]*:[ \t]*([0-9]{1,20})", re.I | re.M)
_NEAR_SEPARATOR = re.compile(rb"(?:\r?\n){0,2}From |[ \t\r\n]{0,4}$")


def _final_spans(f: BinaryIO, start: int, size: int) -> Iterator[tuple[MboxSpan, bytes, int]]:
    """Yield the messages of the mbox in ``f`` from the separator line at ``start`` up to
    ``size`` as the walk splits them, each ``(span, window, w0)``: the span's offsets are into
    ``window``, whose first byte is the file's byte ``w0`` (:func:`_final`)."""
    for w0, window, sep, first, end, span in _final(f, start, size):
        yield (span or MboxSpan(first, end, sep)), window, w0


def _final(f: BinaryIO, start: int, size: int) -> Iterator[tuple[int, bytes, int, int, int, MboxSpan | None]]:
    """Yield ``(w0, window, separator, start, end, span)`` for each message of the mbox in ``f``
    from the separator line at ``start`` up to ``size`` as the walk splits them: offsets into
    ``window``, whose first byte is the file's byte ``w0``; ``span`` the message's
    :class:`~onemail.message.mbox.MboxSpan`, or ``None`` for a message the line rule alone ends
    (``MboxSpan(start, end, separator)``: the planner needs no object).

    The file is read in blocks of :data:`BLOCK_BYTES` into a window that starts at a separator
    line. The window's marks are found by one search (:class:`~onemail.message.mbox.
    ListedMarks`). A message whose next ``"From "`` line is an envelope (a separator by its own
    line, M20) with no ``content-length`` line between its separator and that one (so no
    ``Content-Length`` field can end it, M22) ends there, final as soon as that line is in the
    window: it is taken from the marks alone. Any other message (a ``content-length`` line in
    it, a ``"From "`` line that needs the header after it, the last of the window) is split by
    :func:`~onemail.message.mbox.split` from its separator and kept once final (the comment
    above). The window then moves on to the first message not kept. A window that keeps none
    grows geometrically, so each byte is searched a bounded number of times; a read that ends
    early (the file was truncated) makes what was read the end of the mailbox.
    """
    w0 = start
    f.seek(w0)
    window = f.read(min(BLOCK_BYTES, size - w0))
    if window[:5] != b"From ":  # not at a separator: no message (as mbox.spans)
        return
    need = 0
    while True:
        n = len(window)
        eof = w0 + n >= size
        marks = ListedMarks(window, n)
        envelopes, first_mark = marks.envelopes, marks.first
        sep = 0  # a separator the sequential split takes (the window starts at one)
        nl = window.find(b"\n", 0, n)  # the line feed of its line
        read_on = False  # the window decides no more
        while nl >= 0 and not read_on:
            j = first_mark(FROMS, nl, n)  # the next "From " line's line feed
            if j >= 0 and j in envelopes and first_mark(LENGTHS, nl, j) < 0:
                yield w0, window, sep, nl + 1, trim_end(window, nl + 1, j + 1), None
                sep, nl = j + 1, envelopes[j]
                continue
            # the full rule from here, a span kept once two follow it (or at the end), until the
            # next message can be taken from the marks again
            found: list[tuple[MboxSpan, bool]] = []
            for item in split(window, sep, n, marks=marks):
                found.append(item)
                if len(found) < 3:
                    continue
                span, has_length = found[0]
                if not eof and has_length:  # else no Content-Length field is in its header
                    reach = _reach(f, window, w0, span, found[1][0].separator, size)
                    if reach is not None and reach + 4 >= w0 + found[2][0].separator:
                        need, read_on = reach, True
                        break
                yield w0, window, sep, span.start, span.end, span
                del found[0]
                sep = found[0][0].separator
                nl = window.find(b"\n", sep, n)
                j = first_mark(FROMS, nl, n)
                if j >= 0 and j in envelopes and first_mark(LENGTHS, nl, j) < 0:
                    break
            else:
                if eof:  # every span is final at the end
                    for span, _ in found:
                        yield w0, window, span.separator, span.start, span.end, span
                    return
                read_on = True
        if eof:  # a last separator line without its line feed: nothing after it
            return
        w0 += sep
        window = window[sep:]
        grow = max(BLOCK_BYTES, len(window), need + BLOCK_BYTES - w0 - len(window))
        need = 0
        more = f.read(min(grow, size - w0 - len(window)))
        if not more:  # shorter than planned: what is there is the mailbox
            size = w0 + len(window)
        window += more


def _reach(f: BinaryIO, window: bytes, w0: int, span: MboxSpan, stop: int, size: int) -> int | None:
    """The farthest file offset a ``Content-Length`` field in the span's header section could
    make its end (counted from the first empty line) where the bytes could be a separator or the
    mailbox's end; else ``None``. ``stop``: the next span's separator (the header's empty line
    can be the one the span leaves out before it). Every field's value is tried: the rule takes
    the first well-formed one, which a window cut short may not show."""
    lf = window.find(b"\n\n", span.start - 1, stop)  # the header's end: the first empty line
    crlf = window.find(b"\n\r\n", span.start - 1, stop if lf < 0 else lf + 2)  # (not the body)
    if lf < 0 and crlf < 0:
        return None
    head_end = crlf if crlf >= 0 else lf
    if b"content-length" not in window[span.start:head_end + 1].lower():  # the regex is slower
        return None
    lengths = [int(m.group(1)) for m in _CONTENT_LENGTH.finditer(window, span.start, head_end + 1)]
    if not lengths:
        return None
    body = head_end + (2 if window[head_end + 1:head_end + 2] == b"\n" else 3)
    reach = None
    for length in sorted(set(lengths), reverse=True):  # the rule takes one: any may end it
        target = w0 + body + length
        if target > size:
            continue
        if target - w0 + 10 <= len(window):
            near = window[target - w0:target - w0 + 10]
        else:
            near = os.pread(f.fileno(), 10, target)
        if _NEAR_SEPARATOR.match(near) or target + 4 >= size:
            reach = target
            break
    return reach


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
    elif shard.kind == "zip":
        yield from _read_zip_range(shard, repair)
    elif shard.kind == "pst":
        yield from _read_pst_range(shard, repair)
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

    A zip or PST shard leaves its file open for this thread's next shard of the same file;
    :func:`release` closes it.

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
        last = shard.index + shard.count
        text = f"mbox changed since planned: {why} (messages #{index + 1}-#{last}, bytes {start}-{shard.end})"
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


def _changed(shard: Shard, why: str, part: int = 0) -> Found:
    """The one message in place of a zip or PST shard whose file changed since planning (M40,
    M46), or of its pieces from ``part`` on (PST): its source is the place of the first message
    it stands for."""
    task = shard.tasks[0]
    if shard.kind == "zip":
        first, last = shard.parts
        src = Source(task.path, "zip", first, 0, archive=task.member or "")
        text = (f"zip archive changed since planned: {why} (members {first} to {last}, "
                f"steps {shard.start}-{shard.end - 1})")
        return Found(src, Message("unknown", error=text))
    piece, last = shard.parts[part], shard.parts[-1]
    src = Source(task.path, "pst", task.member, piece.first_message, folder="/".join(piece.names))
    text = (f"PST/OST store changed since planned: {why} (items {piece.start} of "
            f"{'/'.join(piece.names) or 'the root'!r} to {last.stop - 1} of "
            f"{'/'.join(last.names) or 'the root'!r})")
    return Found(src, Message("pst", error=text))


def _read_pst_range(shard: Shard, repair: bool) -> Iterator[Found | Skipped]:
    """The pieces of a PST/OST store a shard covers (:meth:`PstStore.items`), once the store is
    checked to be the one planned (its size and header); a piece whose folder is no longer where
    planned, and the pieces after it, are one error message."""
    from .pst import EXTRA_MESSAGE, PstChanged, open_store

    def problem(store: Any) -> str | None:
        if store is None:
            return EXTRA_MESSAGE
        if isinstance(store, str):
            return f"not a readable PST/OST file ({store})"
        return None if store.fingerprint == shard.fingerprint else "its header is not the one planned"

    def read(store: Any) -> Iterator[Found | Skipped]:
        for n, part in enumerate(shard.parts):
            try:
                yield from walk_pst_part(shard.tasks[0], store, part, repair=repair)
            except PstChanged as exc:
                yield _changed(shard, str(exc), n)
                return

    yield from _read_held(shard, open_store, problem, read)


def _read_zip_range(shard: Shard, repair: bool) -> Iterator[Found | Skipped]:
    """The steps of a zip archive's walk a shard covers (:meth:`ZipArchive.items`), once the
    archive is checked to be the one planned: the same size and central directory."""

    def problem(archive: Any) -> str | None:
        if archive is None:
            return "no readable zip archive"
        if archive.layout.fingerprint != shard.fingerprint:
            return "its central directory is not the one planned"
        return None

    def read(archive: ZipArchive) -> Iterator[Found | Skipped]:
        return archive.items(shard.tasks[0], first=shard.start, stop=shard.end, repair=repair)

    yield from _read_held(shard, open_zip, problem, read)


def _read_held(shard: Shard, opener: Callable[[BinaryIO], Any], problem: Callable[[Any], str | None],
               read: Callable[[Any], Iterator[Found | Skipped]]) -> Iterator[Found | Skipped]:
    """Open the shard's file with ``opener`` (held: :func:`_held`); a size other than planned,
    or what ``problem`` finds in the opened file, is the one error message in the shard's place
    (M46); else ``read(opened)``'s items."""
    task = shard.tasks[0]
    try:
        with _held(task.file, opener) as (size, opened):
            why = f"{size} bytes, {shard.size} planned" if size != shard.size else problem(opened)
            if why is not None:
                yield _changed(shard, why)
                return
            yield from read(opened)
    except OSError as exc:
        yield _changed(shard, _problem(task.file, exc))


class _Held(threading.local):
    """The zip archive or PST/OST store a thread read last, kept open: the shards of one file
    that a worker reads one after another open it once (a zip's central directory costs about
    12 us a member to read, which every shard of a 100,000-member archive would pay again;
    ``pypff`` reads a store's index when it opens it)."""

    key: tuple[Any, ...] | None = None
    file: BinaryIO | None = None
    opened: Any = None
    busy = False

    def drop(self) -> None:
        if self.opened is not None and not isinstance(self.opened, str):
            self.opened.close()
        if self.file is not None:
            self.file.close()
        self.key = self.file = self.opened = None


_HELD = _Held()


def release() -> None:
    """Close the zip archive or PST/OST store this thread holds open from reading shards.

    Reading a zip or PST shard (:func:`messages`, :func:`records`) keeps its file open for the
    next shard of the same file in the same thread, so the shards of one archive a worker reads
    one after another open it once. A program that is done with shards calls this to close it
    (a worker process needs not: the file closes at exit). Idempotent; never raises ``OSError``
    (a close that fails is ignored: the file was only read).
    """
    if _HELD.busy:
        return  # an unfinished shard of this thread still reads it: closed by the next open
    try:
        _HELD.drop()
    except OSError:
        _HELD.key = _HELD.file = _HELD.opened = None


def _identity(st: os.stat_result, file: str, opener: Any) -> tuple[Any, ...]:
    from . import containers as c

    bounds = (c.MAX_RATIO, c.RATIO_FLOOR_BYTES, c.MAX_DECOMPRESSED_BYTES, c.MAX_ZIP_MEMBERS)
    return (os.getpid(), opener, file, st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_mode,
            bounds)


@contextlib.contextmanager
def _held(file: str, opener: Callable[[BinaryIO], Any]) -> Iterator[tuple[int, Any]]:
    """``(size, opener(f))`` for the file ``file`` (``opener``: :func:`open_zip` or
    :func:`~onemail.message.pst.open_store`), from the thread's held one when the path still
    names the same file (device, inode, size, modification time and mode, under the same
    bounds; in the same process: a forked child never shares the parent's file offset), else
    opened afresh (:func:`_open_regular`, so a FIFO is never opened for reading) and held for
    the next shard. One in use by an unfinished shard of this thread is not shared: the other
    is opened for itself. What the opener gives that cannot be read (``None``, a problem text)
    is not held. Raises ``OSError``."""
    held = _HELD
    if not held.busy and held.key is not None and held.key == _identity(os.stat(file), file, opener):
        held.busy = True
        try:
            yield os.fstat(held.file.fileno()).st_size if held.file else 0, held.opened
        finally:
            held.busy = False
        return
    f = _open_regular(file)
    try:
        st = os.fstat(f.fileno())
        opened = opener(f)
    except BaseException:
        f.close()
        raise
    if opened is None or isinstance(opened, str) or held.busy:
        try:
            yield st.st_size, opened
        finally:
            if opened is not None and not isinstance(opened, str):
                opened.close()
            f.close()
        return
    held.drop()
    held.key, held.file, held.opened, held.busy = _identity(st, file, opener), f, opened, True
    try:
        yield st.st_size, opened
    finally:
        held.busy = False


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

