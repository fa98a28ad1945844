#!/usr/bin/env python3
"""Scale-out: messages per second on one core, on ``--jobs`` cores and on a Dask LocalCluster,
the CPU seconds of every process, and the peak memory of every process, in one run (issue 15).

Builds, in a temporary folder (or ``--keep DIR``, reused when its mboxes have the sizes asked
for), an mbox of ``--size`` (1024) MB and one of ``--small`` (200) MB from the messages of
``../shared/corpus/mail/`` (every ``.eml``, its envelope line dropped, ``From `` lines quoted the
mboxrd way, repeated until the size is reached), then runs, each in a fresh process:

* ``onemail scan --jobs 1 BIG --json`` (the anchor: one process, the sequential walk) and
  ``onemail scan --jobs N BIG --json`` (shards on the pool of N workers);
* ``onemail export --jobs 1 BIG -o /dev/null`` and ``--jobs N`` (records built and written);
* a Dask ``LocalCluster(n_workers=N, threads_per_worker=1, processes=True)`` counting the
  messages among the records of ``onemail.dask.bag([BIG])`` (records of nested messages left
  out of the count; cluster start-up timed apart);
* ``onemail scan --jobs 1`` and ``--jobs N`` of SMALL, for memory.

Two ratios of ``--jobs N`` to ``--jobs 1`` are printed for scan and export (goal >= 1.8 for two
jobs on a two-core machine):

* **by the wall clock**: true only on otherwise idle cores;
* **from CPU seconds**: the CPU seconds of ``--jobs 1`` over the larger of the CPU seconds of
  the busiest process of the ``--jobs N`` run (its parent or a worker) and those of all its
  processes over N. On N idle cores the run lasts at least as long as each, so this is the
  wall-clock ratio idle cores would give, and the neighbours' load does not change it (a
  process's CPU seconds are its own work).

While each command runs, ``/proc/PID/stat`` and ``/proc/PID/status`` of it and of every process
under it are read every 0.1 s: the CPU seconds of each (the last value read before it ended)
and the peak ``RssAnon`` (anonymous memory: what the process allocated, not the mbox pages the
kernel caches or maps) of the command's own process and the highest of its workers, for the
small and the big mbox (goal: the same for both, independent of the mbox's size). The machine's
load average is printed before each command and at the end.

Run: ``python bench/scale.py [--size 1024] [--small 200] [--jobs 2] [--no-export] [--no-dask]
[--keep DIR]``; ``--small 0`` leaves the memory rows out. Needs the package; the Dask row needs
the ``onemail[dask]`` extra (left out without it).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAIL = (ROOT / ".." / "shared" / "corpus" / "mail").resolve()

DASK = """
import sys, time
from distributed import Client, LocalCluster
import onemail.dask as od
if __name__ == "__main__":
    t = time.monotonic()
    with LocalCluster(n_workers=int(sys.argv[2]), threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster, Client(cluster):
        up = time.monotonic() - t
        t = time.monotonic()
        n = od.bag([sys.argv[1]]).filter(lambda r: r["parent_id"] is None).count().compute()
        print(f"{n} {up:.3f} {time.monotonic() - t:.3f}")
"""


def build(path: Path, size: int) -> int:
    """Write an mbox of at least ``size`` bytes of corpus messages; return its messages."""
    bodies = []
    for eml in sorted(MAIL.rglob("*.eml")):
        data = eml.read_bytes()
        if data.startswith(b"From "):
            data = data[data.find(b"\n") + 1:]
        data = data.replace(b"\nFrom ", b"\n>From ")
        bodies.append(data if data.endswith(b"\n") else data + b"\n")
    n = written = 0
    with open(path, "wb") as f:
        while written < size:
            for body in bodies:
                sep = b"From bench@example.org Sat Jan  1 00:00:%02d 2000\n" % (n % 60)
                f.write(sep)
                f.write(body)
                written += len(sep) + len(body)
                n += 1
                if written >= size:
                    break
    return n


def built(path: Path, size: int) -> int:
    """The mbox at ``path`` of about ``size`` bytes (reused when a kept one is that size, its
    message count in ``PATH.count``); return its messages."""
    count = path.with_suffix(".count")
    if path.exists() and count.exists():
        n, want = (int(x) for x in count.read_text().split())
        if want == size:
            return n
    n = build(path, size)
    count.write_text(f"{n} {size}\n")
    return n


def _parents() -> dict[int, int]:
    """pid -> parent pid of every process."""
    out = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", "rb") as f:
                    stat = f.read()
                out[int(name)] = int(stat[stat.rindex(b")") + 2:].split()[1])
            except (OSError, ValueError, IndexError):
                pass
    return out


def _children(pid: int) -> list[int] | None:
    """The children of a process from ``/proc/PID/task/*/children`` (a few small reads), or
    ``None`` where the kernel does not have that file."""
    out: list[int] = []
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/children", "rb") as f:
                out.extend(int(x) for x in f.read().split())
        except FileNotFoundError:
            if not os.path.exists(f"/proc/{pid}"):
                return out
            return None
        except (OSError, ValueError):
            pass
    return out


def _tree(root: int) -> set[int]:
    """A process and every process under it: from the children files where the kernel has them
    (the sampler then reads a few files, not every process's: its own CPU stays out of the
    cores the command uses), else from every process's parent."""
    tree, todo = {root}, [root]
    parents = None
    while todo:
        p = todo.pop()
        kids = _children(p) if parents is None else None
        if kids is None:
            parents = parents if parents is not None else _parents()
            kids = [c for c, parent in parents.items() if parent == p]
        for child in kids:
            if child not in tree:
                tree.add(child)
                todo.append(child)
    return tree


def _cpu(pid: int) -> float:
    """User + system CPU seconds of a process so far (0.0 when gone)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def _anon_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("RssAnon:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


class Sampler(threading.Thread):
    """Peak RssAnon (KiB) and the CPU seconds of a process and of each process under it, every
    ``interval`` s."""

    def __init__(self, pid: int, interval: float = 0.1) -> None:
        super().__init__(daemon=True)
        self.pid, self.interval = pid, interval
        self.peak: dict[int, int] = {}
        self.cpu: dict[int, float] = {}
        self.halt = threading.Event()

    def run(self) -> None:
        while not self.halt.is_set():
            tree = _tree(self.pid)
            for pid in tree:
                kb = _anon_kb(pid)
                if kb > self.peak.get(pid, 0):
                    self.peak[pid] = kb
                self.cpu[pid] = max(self.cpu.get(pid, 0.0), _cpu(pid))
            self.halt.wait(self.interval)

    def stop(self) -> None:
        self.halt.set()
        self.join()


@dataclass
class Run:
    """One command measured."""

    name: str
    wall: float = 0.0
    out: str = ""
    cpu: float = 0.0  # all its processes (RUSAGE_CHILDREN)
    own_cpu: float = 0.0  # its own process
    worker_cpu: list[float] = field(default_factory=list)  # each process under it
    own_mib: int = 0
    worker_mib: int = 0
    load: str = ""
    bench_cpu: float = 0.0  # this script's own CPU seconds while it ran (sampling, reading output)

    @property
    def busiest(self) -> float:
        """The CPU seconds of its busiest process."""
        return max([self.own_cpu, *self.worker_cpu])


def measure(name: str, argv: list[str]) -> Run:
    """Run ``argv`` in a fresh process and measure it (:class:`Run`)."""
    run = Run(name, load=load())
    mine = resource.getrusage(resource.RUSAGE_SELF)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.monotonic()
    # the output goes to a file, read after the command ended: a pipe would make this script
    # read every line while the command runs, on the cores the command's processes need
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as errs:
        proc = subprocess.Popen(argv, stdout=out, stderr=errs)
        sampler = Sampler(proc.pid)
        sampler.start()
        proc.wait()
        run.wall = time.monotonic() - t
        out.seek(0)
        run.out = out.read().decode("utf-8", "replace")
        errs.seek(0)
        err = errs.read().decode("utf-8", "replace")
    sampler.stop()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    mine_after = resource.getrusage(resource.RUSAGE_SELF)
    run.bench_cpu = mine_after.ru_utime + mine_after.ru_stime - mine.ru_utime - mine.ru_stime
    run.cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    workers = {pid: c for pid, c in sampler.cpu.items() if pid != proc.pid}
    run.worker_cpu = sorted(workers.values(), reverse=True)
    # the own process's last reading may be up to one interval old: the rest of the total is its
    run.own_cpu = max(sampler.cpu.get(proc.pid, 0.0), run.cpu - sum(workers.values()))
    run.own_mib = sampler.peak.get(proc.pid, 0) // 1024
    run.worker_mib = max((kb for pid, kb in sampler.peak.items() if pid != proc.pid), default=0) // 1024
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{argv} failed ({proc.returncode}): {err[-2000:]}")
    return run


def onemail(*args: str) -> list[str]:
    return [sys.executable, "-m", "onemail", *args]


def scan(box: Path, jobs: int) -> tuple[Run, int]:
    run = measure(f"scan --jobs {jobs}", onemail("scan", "--jobs", str(jobs), "--json", str(box)))
    return run, json.loads(run.out.splitlines()[-1])["messages"]  # the summary line


def export(box: Path, jobs: int) -> Run:
    return measure(f"export --jobs {jobs}", onemail("export", "--jobs", str(jobs), str(box), "-o", os.devnull))


def planning(box: Path, jobs: int) -> str:
    """The planner alone, in this process: the pool's plan of ``box`` for ``jobs`` workers (its
    shard size and taper), CPU seconds (``time.process_time``)."""
    from onemail._cli import _pool

    t = time.process_time()
    plan = list(_pool.plan([str(box)], jobs))
    cpu = time.process_time() - t
    return (f"planning alone (the pool's plan for {jobs} jobs): {len(plan)} shards, "
            f"{sum(s.count for s in plan)} messages, {cpu:.2f} CPU s (load {load()})")


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def ratios(one: Run, many: Run, jobs: int) -> str:
    """The wall-clock ratio and the one idle cores would give (module docstring)."""
    ideal = one.cpu / max(many.busiest, many.cpu / jobs)
    return (f"{many.name} / {one.name}: {one.wall / many.wall:.2f}x by the wall clock; "
            f"{ideal:.2f}x from CPU seconds, on {jobs} idle cores ({one.cpu:.1f} s over the larger "
            f"of the busiest process's {many.busiest:.1f} s and all processes' {many.cpu:.1f} s / "
            f"{jobs}; goal >= {0.9 * jobs:.1f})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--size", "--big-mb", type=int, default=1024, metavar="MB", help="the big mbox (1024)")
    ap.add_argument("--small", "--small-mb", type=int, default=200, metavar="MB",
                    help="the small mbox, for memory (200; 0: leave out)")
    ap.add_argument("--jobs", type=int, default=2, help="workers of the parallel rows (2)")
    ap.add_argument("--no-export", action="store_true", help="leave out the export rows")
    ap.add_argument("--no-dask", action="store_true", help="leave out the Dask row")
    ap.add_argument("--keep", metavar="DIR", help="build the mboxes in DIR, keep and reuse them")
    args = ap.parse_args(argv)
    if not MAIL.exists():
        print(f"{MAIL} is not present")
        return 1
    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="onemail-scale-"))
    folder.mkdir(parents=True, exist_ok=True)
    jobs = args.jobs
    try:
        print(f"load average at start: {load()} ({os.cpu_count()} CPUs)")
        big, small = folder / f"big-{args.size}.mbox", folder / f"small-{args.small}.mbox"
        n_big = built(big, args.size << 20)
        n_small = built(small, args.small << 20) if args.small else 0
        print(f"big mbox: {big.stat().st_size / 1e6:.0f} MB, {n_big} messages"
              + (f"; small: {small.stat().st_size / 1e6:.0f} MB, {n_small} messages" if args.small else ""))
        print(planning(big, jobs))
        one, _ = scan(big, 1)
        many, _ = scan(big, jobs)
        rows = [(one, n_big), (many, n_big)]
        ex = None
        if not args.no_export:
            ex = (export(big, 1), export(big, jobs))
            rows += [(ex[0], n_big), (ex[1], n_big)]
        dask_note = ""
        if not args.no_dask:
            try:
                import distributed  # noqa: F401

                import onemail.dask  # noqa: F401
            except ImportError:
                dask_note = "Dask row left out: the onemail[dask] extra is not installed"
            else:
                run = measure(f"dask LocalCluster {jobs} workers", [sys.executable, "-c", DASK, str(big), str(jobs)])
                n, up, compute = run.out.split()
                dask_note = f"Dask cluster start-up: {float(up):.1f} s (not counted); whole run {run.wall:.1f} s"
                run.wall = float(compute)
                rows.append((run, int(n)))
        print(f"\n{'big mbox':<30}{'seconds':>8}{'msg/s':>7}{'CPU s':>7}{'own':>6}{'workers':>16}"
              f"{'own MiB':>8}{'wk MiB':>7}  load")
        for run, n in rows:
            wk = "/".join(f"{c:.1f}" for c in run.worker_cpu[:4]) or "-"
            print(f"{run.name:<30}{run.wall:>8.1f}{n / run.wall:>7.0f}{run.cpu:>7.1f}{run.own_cpu:>6.1f}"
                  f"{wk:>16}{run.own_mib:>8}{run.worker_mib:>7}  {run.load}")
        if dask_note:
            print(dask_note)
        print("(CPU s: all the command's processes; own: its own process; workers: each process "
              "under it, the busiest first)")
        print("this script's own CPU s while each ran (sampling every 0.1 s, reading the output): "
              + ", ".join(f"{run.name} {run.bench_cpu:.2f}" for run, _ in rows))
        print()
        print(ratios(one, many, jobs))
        if ex is not None:
            print(ratios(*ex, jobs))
        if args.small:
            print(f"\n{'peak anonymous memory (MiB)':<30}{'small':>9}{'big':>9}")
            s1, _ = scan(small, 1)
            s2, _ = scan(small, jobs)
            print(f"{'--jobs 1 process':<30}{s1.own_mib:>9}{one.own_mib:>9}")
            print(f"{f'--jobs {jobs} parent':<30}{s2.own_mib:>9}{many.own_mib:>9}")
            print(f"{f'--jobs {jobs} worker (highest)':<30}{s2.worker_mib:>9}{many.worker_mib:>9}")
            print(f"(small mbox: {ratios(s1, s2, jobs)})")
        print(f"\nload average at end: {load()}")
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
