"""A process pool for ``scan --jobs N`` and ``export --jobs N`` that never hangs.

Shards (:func:`onemail.shards`) run on ``jobs`` worker processes, one shard per worker at a
time, so one big mbox keeps every worker busy. Each worker sends what it reads back in batches
(``work(shard)`` yields the items: a message's counts for ``scan``, a record's JSON line for
``export``); the parent hands them to ``on_items`` in the order of each shard.

What can go wrong, and what happens:

* **A worker dies** (SIGKILL, the out-of-memory killer, SIGBUS, a crash in a C extension): the
  parent sees its process end (a sentinel, never a blocking read) and its shard is run again in a
  fresh worker; the items the dead worker had already delivered are not delivered twice (a shard
  reads the same way each time, so the first ones of the retry are dropped). A shard whose
  worker dies twice is a *failed shard* with its cause (``killed by SIGKILL``, ``exit code 3``),
  and the run goes on with the others.
* **The code raises** while reading a shard (a bug: readers do not raise on bad input): the
  shard is failed with the exception, without a retry (it would raise again).
* **Ctrl-C (SIGINT) or SIGTERM**: the parent stops handing out shards, stops its workers
  (SIGTERM, then SIGKILL after :data:`GRACE_SECONDS`), waits for each of them, and returns what
  finished, with the shards that did not. Workers ignore SIGINT (a terminal sends it to the whole
  process group; only the parent acts on it) and die with the parent if it is killed
  (``PR_SET_PDEATHSIG`` on Linux; elsewhere a worker ends when its pipe closes). The caller
  prints its summary and exits with :data:`EXIT_INTERRUPTED` (128 + the signal's number: 130
  for SIGINT, 143 for SIGTERM).

Progress counts bytes (an mbox range's length, a file's size, when its shard is done) and
messages (as they arrive), so one big mbox moves the bar shard by shard.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any, TextIO

__all__ = ["EXIT_INTERRUPTED", "GRACE_SECONDS", "Failure", "Outcome", "Progress", "outcome_summary",
           "plan", "print_pool_summary", "run", "shard_bytes", "shard_place", "usable_cpus"]

Work = Callable[[Any], Iterable[Any]]
"""A worker's work: a module-level function of one shard giving picklable items."""
OnItems = Callable[[Any, list[Any]], None]
OnDone = Callable[[Any], None] | None
Size = Callable[[Any], int] | None

GRACE_SECONDS = 2.0
"""How long stopped workers get to end after SIGTERM before SIGKILL."""

BATCH = 64
"""Items a worker sends at a time by default (fewer at the end of a shard): :func:`run`'s
``batch``."""

EXIT_INTERRUPTED = {signal.SIGINT: 130, signal.SIGTERM: 143}
"""The exit code after a stop by SIGINT or SIGTERM: 128 plus the signal's number (the shell's
convention)."""


@dataclass(frozen=True, slots=True)
class Failure:
    """A shard that could not be read to its end.

    :param shard: the :class:`~onemail.message.shards.Shard`.
    :param error: the cause (``"worker killed by SIGKILL (twice)"``, an exception).
    :param delivered: what of the shard was delivered before it failed (kept), counted as
        :func:`run`'s ``size`` counts (by default, items).
    """

    shard: object
    error: str
    delivered: int


@dataclass(slots=True)
class Outcome:
    """What a :func:`run` did.

    :param done: shards read to their end.
    :param items: what was delivered, counted by :func:`run`'s ``size`` (messages).
    :param bytes_done: bytes of the shards read to their end.
    :param failed: shards that failed (:class:`Failure`), in the order they failed.
    :param lost_workers: workers that died (each death, retried or not).
    :param retried: shards run again after their worker died (and then read or failed).
    :param interrupted: the signal that stopped the run (``signal.SIGINT`` / ``SIGTERM``), or
        ``None`` when it ran to its end.
    :param unfinished: shards planned but not read to their end because of the stop (those
        running: with the items they had delivered; those waiting), in plan order.
    :param unfinished_delivered: for each of :attr:`unfinished`, the size (messages) of the
        items it delivered before the stop (0 for those waiting): they were handed on.
    """

    done: int = 0
    items: int = 0
    bytes_done: int = 0
    failed: list[Failure] = field(default_factory=list)
    lost_workers: int = 0
    retried: int = 0
    interrupted: signal.Signals | None = None
    unfinished: list[object] = field(default_factory=list)
    unfinished_delivered: list[int] = field(default_factory=list)


@dataclass(slots=True)
class _Task:
    number: int
    shard: object
    attempt: int = 0
    delivered: int = 0  # items handed to on_items so far (over all attempts)
    seen: int = 0  # items received from the current attempt
    counted: int = 0  # the size of the items delivered


class _Worker:
    def __init__(self, ctx: Any, work: Work, batch: int) -> None:
        parent, child = ctx.Pipe(duplex=True)
        self.proc = ctx.Process(target=_serve, args=(child, work, batch), daemon=True)
        self.proc.start()
        child.close()
        self.conn = parent
        self.task: _Task | None = None

    def stop(self) -> None:
        if self.proc.is_alive():
            try:
                self.proc.terminate()
            except OSError:  # already gone
                pass

    def close(self) -> None:
        self.conn.close()
        self.proc.close()


def _die_with_parent() -> None:
    """Ask Linux to SIGKILL this process when its parent ends (``prctl(PR_SET_PDEATHSIG)``);
    elsewhere a worker ends when its pipe closes."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG = 1
    except (OSError, AttributeError):
        pass
    if os.getppid() == 1:  # the parent ended before prctl took effect
        os._exit(1)


def _serve(conn: Connection, work: Work, batch_items: int) -> None:
    """A worker's loop: receive ``(number, shard)``, send ``("items", number, [...])`` batches
    of ``batch_items`` items and ``("done", number, [...])``, or ``("error", number, [...], text)``;
    ``None`` ends it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _die_with_parent()
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        number, shard = task
        batch: list[Any] = []
        try:
            for item in work(shard):
                batch.append(item)
                if len(batch) >= batch_items:
                    conn.send(("items", number, batch))
                    batch = []
        except Exception as exc:  # noqa: BLE001 - a bug in reading: the parent reports it
            conn.send(("error", number, batch, f"internal error: {type(exc).__name__}: {exc}"))
        else:
            conn.send(("done", number, batch))


def _context() -> Any:
    """Fork where there is one (workers share the modules the parent loaded), else spawn."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def _death(proc: Any) -> str:
    code = proc.exitcode
    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        note = " (out of memory?)" if -code == signal.SIGKILL else ""
        return f"worker killed by {name}{note}"
    return f"worker ended with exit code {code}"


class _Stop:
    """SIGINT and SIGTERM set :attr:`signal` while :func:`run` runs; the old handlers are put
    back after."""

    def __init__(self) -> None:
        self.signal: signal.Signals | None = None
        self.old: dict[signal.Signals, Any] = {}

    def __enter__(self) -> _Stop:
        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                self.old[sig] = signal.signal(sig, self._handle)
            except ValueError:  # not the main thread: no handlers, the caller stops us
                pass
        return self

    def _handle(self, signum: int, frame: object) -> None:
        if self.signal is None:
            self.signal = signal.Signals(signum)

    def __exit__(self, *exc: object) -> None:
        for sig, old in self.old.items():
            signal.signal(sig, old)


def run(shards: Iterable[Any], work: Work, *, jobs: int,
        on_items: Callable[[Any, list[Any]], None],
        on_done: Callable[[object], None] | None = None,
        progress: Callable[[Outcome, int, bool], None] | None = None,
        warm: Callable[[], None] | None = None, batch: int = BATCH,
        size: Callable[[Any], int] | None = None) -> Outcome:
    """Run ``work(shard)`` for every shard on ``jobs`` processes (module docstring).

    :param shards: the plan (an iterable of picklable shards; read lazily, a few ahead).
    :param work: a module-level function ``work(shard) -> iterable of picklable items``.
    :param jobs: worker processes, at least 1.
    :param on_items: called in this process with ``(shard, items)`` for each batch, in order
        within a shard (shards interleave).
    :param on_done: called with each shard read to its end.
    :param progress: called now and then with ``(outcome, bytes planned, planning finished)``.
    :param warm: called once in this process before the workers start (imports they share).
    :param batch: items a worker sends at a time (1 when each item already folds many
        messages).
    :param size: how many messages an item stands for (default 1): what
        :attr:`Outcome.items` and :attr:`Failure.delivered` count.
    :returns: the :class:`Outcome`; never raises for a worker's death or a stop signal.
    """
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    if batch < 1:
        raise ValueError(f"batch must be at least 1, not {batch}")
    ctx = _context()
    if warm is not None and ctx.get_start_method() == "fork":
        warm()
    out = Outcome()
    plan = iter(shards)
    planned_bytes = 0
    planning = True
    waiting: deque[_Task] = deque()
    numbers = 0
    workers: list[_Worker] = []
    last_progress = 0.0

    def plan_more() -> None:
        nonlocal planning, numbers, planned_bytes
        while planning and len(waiting) < jobs:
            try:
                shard = next(plan)
            except StopIteration:
                planning = False
                return
            waiting.append(_Task(numbers, shard))
            numbers += 1
            planned_bytes += getattr(shard, "weight", 0)

    with _Stop() as stop:
        try:
            while True:
                if stop.signal is not None:
                    break
                plan_more()
                # replace dead workers; hand out work
                for w in workers:
                    if w.task is None and waiting:
                        w.task = waiting.popleft()
                        try:
                            w.conn.send((w.task.number, w.task.shard))
                        except OSError:  # died meanwhile: found below
                            pass
                while len(workers) < jobs and waiting:
                    w = _Worker(ctx, work, batch)
                    workers.append(w)
                    w.task = waiting.popleft()
                    w.conn.send((w.task.number, w.task.shard))
                busy = [w for w in workers if w.task is not None]
                if not busy:
                    if not planning and not waiting:
                        break
                    continue
                ready = wait([w.conn for w in busy] + [w.proc.sentinel for w in busy], timeout=0.2)
                for w in busy:
                    if w.conn in ready:
                        _receive(w, out, on_items, on_done, size)
                for w in list(workers):
                    if w.proc.sentinel in ready or not w.proc.is_alive():
                        _reap(w, workers, waiting, out, on_items, on_done, size)
                if progress is not None and time.monotonic() - last_progress >= 0.1:
                    last_progress = time.monotonic()
                    progress(out, planned_bytes, not planning)
        finally:
            _shutdown(workers)
        if stop.signal is not None:
            out.interrupted = stop.signal
            running = sorted((w.task for w in workers if w.task is not None), key=lambda t: t.number)
            out.unfinished = [t.shard for t in running] + [t.shard for t in waiting] + list(plan)
            out.unfinished_delivered = [t.counted for t in running]
            out.unfinished_delivered += [0] * (len(out.unfinished) - len(running))
        for w in workers:
            w.close()
    if progress is not None:
        progress(out, planned_bytes, not planning)
    return out


def _deliver(task: _Task, items: list[Any], on_items: OnItems, size: Size) -> int:
    """Hand the items of the current attempt that were not handed out by an earlier one;
    return their size."""
    start = task.seen
    task.seen += len(items)
    fresh = items[max(0, task.delivered - start):]
    if not fresh:
        return 0
    task.delivered += len(fresh)
    n = len(fresh) if size is None else sum(size(item) for item in fresh)
    task.counted += n
    on_items(task.shard, fresh)
    return n


def _receive(w: _Worker, out: Outcome, on_items: OnItems, on_done: OnDone, size: Size) -> None:
    """Take every message waiting on a worker's pipe."""
    while w.task is not None:
        try:
            if not w.conn.poll():
                return
            msg = w.conn.recv()
        except (EOFError, OSError):
            return
        kind, number = msg[0], msg[1]
        task = w.task
        if number != task.number:  # cannot happen: one task per worker at a time
            continue
        out.items += _deliver(task, msg[2], on_items, size)
        if kind == "done":
            out.done += 1
            out.bytes_done += getattr(task.shard, "weight", 0)
            w.task = None
            if on_done is not None:
                on_done(task.shard)
        elif kind == "error":
            out.failed.append(Failure(task.shard, msg[3], task.counted))
            w.task = None


def _reap(w: _Worker, workers: list[_Worker], waiting: deque[_Task], out: Outcome,
          on_items: OnItems, on_done: OnDone, size: Size) -> None:
    """A worker's process ended: take what it sent before, then retry or fail its shard."""
    _receive(w, out, on_items, on_done, size)
    w.proc.join()
    workers.remove(w)
    task = w.task
    cause = _death(w.proc)
    w.close()
    out.lost_workers += 1
    if task is None:
        return
    if task.attempt == 0:
        task.attempt = 1
        task.seen = 0
        out.retried += 1
        waiting.appendleft(task)
    else:
        out.failed.append(Failure(task.shard, f"{cause} (twice)", task.counted))


def _shutdown(workers: list[_Worker]) -> None:
    """Stop every worker and wait for it: an idle one is told to end, a busy one (or one that
    does not end) gets SIGTERM, then SIGKILL after :data:`GRACE_SECONDS`."""
    for w in workers:
        if w.task is None:
            try:
                w.conn.send(None)
            except OSError:
                pass
        else:
            w.stop()
    deadline = time.monotonic() + GRACE_SECONDS
    for w in workers:
        w.proc.join(max(0.0, deadline - time.monotonic()))
    for w in workers:
        if w.proc.is_alive():
            w.proc.kill()
            w.proc.join()



# ---------------------------------------------------------------------------------------------
# progress


class Progress:
    """A one-line progress bar on stderr: bytes of the shards done of those planned so far (a
    ``+`` while planning goes on), messages, messages per second."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.start = time.monotonic()
        self.shown = False

    def __call__(self, out: Outcome, planned: int, final: bool) -> None:
        width = 30
        filled = width * out.bytes_done // planned if planned else 0
        rate = out.items / max(time.monotonic() - self.start, 1e-9)
        more = "" if final else "+"
        self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {_mb(out.bytes_done)}/"
                          f"{_mb(planned)}{more} MB  {out.items} messages  {rate:.0f}/s")
        self.stream.flush()
        self.shown = True

    def done(self) -> None:
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()


def _mb(n: int) -> str:
    return f"{n / 1e6:.1f}"


# ---------------------------------------------------------------------------------------------
# scan


def outcome_summary(out: Outcome) -> tuple[dict[str, object], int | None]:
    """What a run adds to a scan summary, only what happened (``failed_shards``,
    ``workers_lost`` and ``retried``, ``interrupted`` with ``unfinished``), and the exit code it
    calls for (:data:`EXIT_INTERRUPTED` after a stop, 1 after a failed shard or a lost worker,
    else ``None``)."""
    keys: dict[str, object] = {}
    code = None
    if out.failed:
        keys["failed_shards"] = [dict(_describe(f.shard), delivered=f.delivered, error=f.error)
                                 for f in out.failed]
    if out.lost_workers:
        keys["workers_lost"] = out.lost_workers
        keys["retried"] = out.retried
    if out.interrupted is not None:
        keys["interrupted"] = out.interrupted.name
        keys["unfinished"] = [dict(_describe(s), delivered=n) if n else _describe(s)
                              for s, n in zip(out.unfinished, out.unfinished_delivered, strict=True)]
        code = EXIT_INTERRUPTED[out.interrupted]
    elif out.failed or out.lost_workers:
        code = 1
    return keys, code


def usable_cpus() -> int:
    """CPUs this process may run on (its affinity mask where the OS has one): ``--jobs`` is
    capped at this (decoding is CPU-bound; more workers than CPUs only add start-up and
    switching)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


MIN_SHARD_BYTES = 1 << 20
"""The smallest shards :func:`shard_bytes` asks for: 1 MiB is some 200 messages of mail, about
0.2 s of decoding, far above the milliseconds a shard costs to hand out."""

SHARDS_PER_JOB = 8
"""Shards per worker :func:`shard_bytes` aims at: with eight, the last shard to finish leaves
the other workers idle for at most about an eighth of a worker's share."""


def shard_bytes(paths: list[str], jobs: int) -> int:
    """The ``target_bytes`` for ``paths`` on ``jobs`` workers: the total size of their files
    (folders listed by :func:`onemail.message.containers.tasks`) over ``jobs *
    SHARDS_PER_JOB``, between :data:`MIN_SHARD_BYTES` and
    :data:`~onemail.message.shards.DEFAULT_TARGET_BYTES`."""
    from ..message.containers import FileTask, tasks
    from ..message.shards import DEFAULT_TARGET_BYTES

    total = 0
    for task in tasks([p for p in paths if p != "-"]):
        if isinstance(task, FileTask):
            try:
                total += os.stat(task.file).st_size
            except OSError:
                pass
    return max(MIN_SHARD_BYTES, min(DEFAULT_TARGET_BYTES, total // (jobs * SHARDS_PER_JOB)))


TAPER_PER_JOB = 2
"""The pool's plan tapers each big mbox's last ranges (:func:`onemail.message.shards.shards`'
``taper``) with T = this times the workers: the ranges shrink once less than 2N shards of the
full size are left, down to 1 MiB, so the workers finish within a fraction of a second of each
other instead of up to one full shard apart."""


def plan(paths: list[str], jobs: int) -> Iterator[Any]:
    """The shards of ``paths`` for ``jobs`` workers: :func:`shard_bytes` each, tapered at the end
    of each big mbox (:data:`TAPER_PER_JOB`)."""
    from ..message.shards import shards

    return shards(paths, target_bytes=shard_bytes(paths, jobs), taper=TAPER_PER_JOB * jobs)


def _describe(shard: Any) -> dict[str, Any]:
    """A shard as JSON: where it is and which messages it covers (an mbox's byte range and
    message numbers, a batch's first and last file, a zip's first and last member and its steps, a
    PST/OST store's first and last item with their folders)."""
    d = {"path": shard.path, "member": shard.member, "kind": shard.kind}
    if shard.kind == "mbox":
        d.update(start=shard.start, end=shard.end, first_message=shard.index, messages=shard.count)
    elif shard.kind == "files":
        names = [t.member or t.file for t in shard.tasks]
        d.update(first=names[0], last=names[-1], files=len(names))
    elif shard.kind == "zip" and len(shard.parts) == 2:
        d.update(first=shard.parts[0], last=shard.parts[1], start=shard.start, end=shard.end,
                 steps=shard.count)
    elif shard.kind == "pst" and shard.parts:
        first, last = shard.parts[0], shard.parts[-1]
        d.update(first_folder="/".join(first.names), first_item=first.start,
                 last_folder="/".join(last.names), last_item=max(last.stop - 1, last.start),
                 items=shard.count)
    return d


def print_pool_summary(s: dict[str, Any], w: Callable[[str], object]) -> None:
    """Write the pool's part of a scan summary (failed shards, lost workers, a stop) with
    ``w``."""
    if s.get("workers_lost"):
        w(f"\n{'workers lost':<40}{s['workers_lost']:>8}\n{'shards retried':<40}{s['retried']:>8}\n")
    for title, key in (("failed shards", "failed_shards"), ("unfinished shards", "unfinished")):
        if s.get(key):
            w(f"\n{title}\n")
            for d in s[key]:
                read = f" ({_messages(d['delivered'])} of it read)" if key == "unfinished" and d.get("delivered") else ""
                w(f"  {_place(d)}{read}" + (f": {d['error']}" if "error" in d else "") + "\n")
    if s.get("interrupted"):
        w(f"\ninterrupted by {s['interrupted']}: the counts above are of what was read before the stop\n")


def _messages(n: int) -> str:
    """``1 message``, ``2 messages``."""
    return f"{n} message" if n == 1 else f"{n} messages"


def shard_place(shard: Any) -> str:
    """Where a shard is, for a human (``box.mbox bytes 0-9 (messages #1-#3)``: byte offsets from 0,
    messages numbered from 1 as in the ``#N`` of a message's place; not escaped)."""
    return _place(_describe(shard))


def _place(d: dict[str, Any]) -> str:
    where = d["path"] if d.get("member") is None else f"{d['path']}/{d['member']}"
    if d["kind"] == "mbox":
        return (f"{where} bytes {d['start']}-{d['end']} (messages #{d['first_message'] + 1}-"
                f"#{d['first_message'] + d['messages']})")
    if d["kind"] == "files":
        return f"{where} files {d['first']} to {d['last']}"
    if d["kind"] == "zip" and "steps" in d:
        return f"{where} members {d['first']} to {d['last']} (steps {d['start']}-{d['end'] - 1})"
    if d["kind"] == "pst" and "items" in d:
        return (f"{where} items {d['first_item']} of {d['first_folder'] or 'the root'!r} to "
                f"{d['last_item']} of {d['last_folder'] or 'the root'!r}")
    return where
