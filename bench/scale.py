#!/usr/bin/env python3
"""Scale-out: messages per second on one core, two cores and a Dask LocalCluster, and the peak
memory of every process, in one run (issue 15).

Builds, in a temporary folder, an mbox of ``--big-mb`` (1024) MB and one of ``--small-mb`` (200)
MB from the messages of ``../shared/corpus/mail/`` (every ``.eml``, its envelope line dropped,
``From `` lines quoted the mboxrd way, repeated until the size is reached), then runs, each in a
fresh process:

* ``onemail scan --jobs 1 BIG --json`` (the anchor: one process, the sequential walk);
* ``onemail scan --jobs 2 BIG --json`` (shards on the pool of two workers);
* ``onemail export --jobs 2 BIG -o /dev/null`` (records built, as Dask builds them);
* a Dask ``LocalCluster(n_workers=2, threads_per_worker=1, processes=True)`` counting the
  messages among the records of ``onemail.dask.bag([BIG])`` (records of nested messages left
  out of the count; cluster start-up timed apart);
* ``onemail scan --jobs 1`` and ``--jobs 2`` of SMALL, for memory.

Wall time (the pool runs processes; CPU time of one process says nothing), messages/s, and the
ratio of ``--jobs 2`` to ``--jobs 1`` (goal >= 1.8 on an otherwise idle two-core machine). While
each command runs, ``/proc/PID/status`` of it and of every process under it is read every 0.1 s:
the peak ``RssAnon`` (anonymous memory: what the process allocated, not the mbox pages the
kernel caches or maps) of the command's own process and the highest of its workers are printed,
for the small and the big mbox (goal: the same for both, independent of the mbox's size). The
machine's load average is printed before and after: on a shared machine the ratio is only as
good as the idle cores.

Run: ``python bench/scale.py [--big-mb 1024] [--small-mb 200] [--no-dask] [--keep DIR]``.
Needs the package; the Dask row needs the ``onemail[dask]`` extra (skipped without it).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAIL = (ROOT / ".." / "shared" / "corpus" / "mail").resolve()

DASK = """
import sys, time
from distributed import Client, LocalCluster
import onemail.dask as od
if __name__ == "__main__":
    t = time.monotonic()
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
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


def _children() -> dict[int, int]:
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
    """Peak RssAnon (KiB) of a process and of each process under it, every ``interval`` s."""

    def __init__(self, pid: int, interval: float = 0.1) -> None:
        super().__init__(daemon=True)
        self.pid, self.interval = pid, interval
        self.peak: dict[int, int] = {}
        self.own_cpu = 0.0
        self.halt = threading.Event()

    def run(self) -> None:
        while not self.halt.is_set():
            self.own_cpu = _cpu(self.pid) or self.own_cpu
            parents = _children()
            tree, todo = {self.pid}, [self.pid]
            while todo:
                p = todo.pop()
                for child, parent in parents.items():
                    if parent == p and child not in tree:
                        tree.add(child)
                        todo.append(child)
            for pid in tree:
                kb = _anon_kb(pid)
                if kb > self.peak.get(pid, 0):
                    self.peak[pid] = kb
            self.halt.wait(self.interval)

    def stop(self) -> tuple[int, int]:
        """Stop; return (the command's own peak, the highest peak of the others) in MiB."""
        self.halt.set()
        self.join()
        own = self.peak.get(self.pid, 0)
        others = max((kb for pid, kb in self.peak.items() if pid != self.pid), default=0)
        return own // 1024, others // 1024


CPU: dict[str, tuple[float, float]] = {}
"""CPU seconds of each command measured: (all its processes, its own process)."""


def measure(argv: list[str]) -> tuple[float, str, int, int]:
    """Run ``argv``; return (wall seconds, stdout, own peak MiB, workers' peak MiB). The CPU
    seconds of the command (its processes, waited for) go to :data:`CPU`."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.monotonic()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    sampler = Sampler(proc.pid)
    sampler.start()
    out, err = proc.communicate()
    wall = time.monotonic() - t
    own, workers = sampler.stop()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    box = next((Path(a).stem for a in argv if a.endswith(".mbox")), "")
    CPU[f"{' '.join(argv[3:6]) if argv[1] == '-m' else 'dask'} {box}"] = (total, sampler.own_cpu)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{argv} failed ({proc.returncode}): {err[-2000:]}")
    return wall, out, own, workers


def scan(box: Path, jobs: int) -> tuple[float, int, int, int]:
    wall, out, own, workers = measure([sys.executable, "-m", "onemail", "scan", "--jobs", str(jobs),
                                       "--json", str(box)])
    return wall, json.loads(out.splitlines()[-1])["messages"], own, workers  # the summary line


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--big-mb", type=int, default=1024)
    ap.add_argument("--small-mb", type=int, default=200)
    ap.add_argument("--no-dask", action="store_true", help="leave out the Dask row")
    ap.add_argument("--keep", metavar="DIR", help="build the mboxes in DIR and keep them")
    args = ap.parse_args(argv)
    if not MAIL.exists():
        print(f"{MAIL} is not present")
        return 1
    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="onemail-scale-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        print(f"load average at start: {load()} ({os.cpu_count()} CPUs)")
        big, small = folder / "big.mbox", folder / "small.mbox"
        n_big = build(big, args.big_mb << 20)
        n_small = build(small, args.small_mb << 20)
        print(f"big mbox: {big.stat().st_size / 1e6:.0f} MB, {n_big} messages; "
              f"small: {small.stat().st_size / 1e6:.0f} MB, {n_small} messages")
        rows = []
        one = scan(big, 1)
        rows.append(("scan --jobs 1", *one))
        two = scan(big, 2)
        rows.append(("scan --jobs 2", *two))
        wall, _, own, workers = measure([sys.executable, "-m", "onemail", "export", "--jobs", "2",
                                         str(big), "-o", os.devnull])
        rows.append(("export --jobs 2 (records)", wall, n_big, own, workers))
        dask_note = ""
        if not args.no_dask:
            try:
                import distributed  # noqa: F401

                import onemail.dask  # noqa: F401
            except ImportError:
                dask_note = "Dask row left out: the onemail[dask] extra is not installed"
            else:
                wall, out, own, workers = measure([sys.executable, "-c", DASK, str(big)])
                n, up, compute = out.split()
                rows.append(("dask LocalCluster 2 workers", float(compute), int(n), own, workers))
                dask_note = f"Dask cluster start-up: {float(up):.1f} s (not counted); whole run {wall:.1f} s"
        print(f"\n{'big mbox':<30}{'seconds':>9}{'messages':>10}{'msg/s':>9}{'own MiB':>9}{'worker MiB':>12}")
        for name, wall, n, own, workers in rows:
            print(f"{name:<30}{wall:>9.1f}{n:>10}{n / wall:>9.0f}{own:>9}{workers:>12}")
        if dask_note:
            print(dask_note)
        print(f"\nratio --jobs 2 / --jobs 1: {one[0] / two[0]:.2f}x (goal >= 1.8 on an idle two-core machine)")
        print(f"\n{'peak anonymous memory (MiB)':<30}{'small':>9}{'big':>9}")
        s1, s2 = scan(small, 1), scan(small, 2)
        print(f"{'--jobs 1 process':<30}{s1[2]:>9}{one[2]:>9}")
        print(f"{'--jobs 2 parent':<30}{s2[2]:>9}{two[2]:>9}")
        print(f"{'--jobs 2 worker (highest)':<30}{s2[3]:>9}{two[3]:>9}")
        print(f"(small mbox: --jobs 1 {s1[0]:.1f} s, --jobs 2 {s2[0]:.1f} s, ratio {s1[0] / s2[0]:.2f}x)")
        print("\nCPU seconds (all processes of the command / its own process): the work, whatever "
              "the neighbours' load")
        for name, (total, own_cpu) in CPU.items():
            print(f"  {name:<40}{total:>9.1f}{own_cpu:>9.1f}")
        c1, c2 = CPU.get("scan --jobs 1 big"), CPU.get("scan --jobs 2 big")
        if c1 and c2:
            print(f"the ratio two idle cores would give, from CPU: {c1[0] / max(c2[0] / 2, c2[1]):.2f}x "
                  "(jobs 1's CPU over the larger of half of jobs 2's and its parent's)")
        print(f"\nload average at end: {load()}")
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
