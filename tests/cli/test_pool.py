"""The pool of ``scan --jobs N`` (issue 15 item 2): it never hangs and leaves no process behind.

``run`` with work functions that die (SIGKILL, SIGBUS), raise or die once; then ``onemail scan
--jobs 2`` on a generated mbox with one worker killed by SIGKILL, and stopped by SIGINT (to the
process group, as a terminal does) and SIGTERM, checking the process table for children. Timeouts
only stop a hang; nothing is timed.
"""

from __future__ import annotations

import faulthandler
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass

import pytest

from onemail._cli import _pool
from onemail.cli import main

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


@dataclass(frozen=True)
class Job:
    """A stand-in shard: ``n`` items; ``die`` the signal to die by after ``after`` items (``once``:
    only while ``flag`` does not exist, which the first attempt creates)."""

    number: int
    n: int = 10
    die: int = 0
    after: int = 5
    once: str | None = None
    weight: int = 100


def _work(job: Job):
    for i in range(job.n):
        if job.die and i == job.after:
            if job.once is None or not os.path.exists(job.once):
                if job.once is not None:
                    open(job.once, "w").close()
                faulthandler.disable()  # pytest's handler, inherited: no dump of the death
                os.kill(os.getpid(), job.die)
                time.sleep(10)
        yield job.number, i


def _raise(job: Job):
    yield job.number, 0
    raise RuntimeError("a bug")


def _run(jobs_list, work=_work, jobs=2):
    got = []
    out = _pool.run(jobs_list, work, jobs=jobs, on_items=lambda shard, items: got.extend(items))
    return out, got


def test_all_items_once():
    out, got = _run([Job(k) for k in range(7)])
    assert sorted(got) == [(k, i) for k in range(7) for i in range(10)]
    assert (out.done, out.items, out.bytes_done, out.failed, out.lost_workers) == (7, 70, 700, [], 0)
    assert out.interrupted is None


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGBUS, signal.SIGSEGV])
def test_worker_dying_twice_fails_only_its_shard(sig):
    """Items go in batches of 64: the 70 items before the death are 64 delivered."""
    jobs = [Job(0), Job(1, n=100, die=sig, after=70), Job(2), Job(3)]
    out, got = _run(jobs)
    assert sorted(got) == sorted([(k, i) for k in (0, 2, 3) for i in range(10)] + [(1, i) for i in range(64)])
    assert out.done == 3 and out.lost_workers == 2 and out.retried == 1
    [failure] = out.failed
    assert failure.shard == jobs[1] and failure.delivered == 64
    note = " (out of memory?)" if sig == signal.SIGKILL else ""
    assert failure.error == f"worker killed by {sig.name}{note} (twice)"


def test_worker_dying_once_is_retried_without_duplicates(tmp_path):
    flag = str(tmp_path / "died")
    jobs = [Job(0, n=200, die=signal.SIGKILL, after=130, once=flag), Job(1)]
    out, got = _run(jobs, jobs=1)
    assert got == [(0, i) for i in range(200)] + [(1, i) for i in range(10)]
    assert (out.done, out.failed, out.lost_workers, out.retried) == (2, [], 1, 1)


def test_exception_fails_the_shard_without_retry():
    out, got = _run([Job(0), Job(1)], work=_raise)
    assert sorted(got) == [(0, 0), (1, 0)]
    assert [f.error for f in out.failed] == ["internal error: RuntimeError: a bug"] * 2
    assert out.lost_workers == 0 and out.retried == 0


def test_bad_jobs():
    with pytest.raises(ValueError, match="at least 1"):
        _pool.run([], _work, jobs=0, on_items=print)


def test_empty_plan():
    out, got = _run([])
    assert (out.done, got) == (0, [])


# ---------------------------------------------------------------------------------------------
# the command line, in a subprocess


def _mbox(path, n: int) -> None:
    msg = (b"From a@b Sat Jan  1 00:00:00 2000\nSubject: message %d\nFrom: A <a@example.org>\n"
           b"Content-Type: text/plain; charset=utf-8\n\nbody caf\xc3\xa9\n")
    with open(path, "wb") as f:
        for i in range(n):
            f.write(msg % i)


def _children(pid: int) -> set[int]:
    """The pids whose parent is ``pid`` (from /proc/*/stat)."""
    out = set()
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rindex(b")") + 2:].split()
        if int(fields[1]) == pid:
            out.add(int(name))
    return out


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return False
    return stat[stat.rindex(b")") + 2:].split()[0] not in (b"X", b"Z")  # Z: ended, not reaped yet


def _start(box, *extra, command="scan"):
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    return subprocess.Popen([sys.executable, "-m", "onemail", command, "--jobs", "2", str(box),
                             *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=env, start_new_session=True)


def _wait_for_workers(proc, count=2, timeout=60.0) -> set[int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        kids = _children(proc.pid)
        if len(kids) >= count:
            return kids
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    raise AssertionError("no workers started")


@pytest.fixture(scope="module")
def box(tmp_path_factory):
    path = tmp_path_factory.mktemp("pool") / "big.mbox"
    _mbox(path, 120_000)
    return path


def _signal_run(box, send, *extra, wait=0.3, command="scan"):
    """Run ``scan --jobs 2 box`` (or ``command``), call ``send(proc, workers)`` once both
    workers run, wait for the end; return (exit code, stdout, stderr, the workers' pids). The
    process group is killed if anything goes wrong."""
    proc = _start(box, *extra, command=command)
    try:
        kids = _wait_for_workers(proc)
        time.sleep(wait)
        send(proc, kids)
        stdout, stderr = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return proc.returncode, stdout, stderr, kids


def test_sigkill_of_a_worker(box):
    """One worker killed by SIGKILL: its shard is read again by a fresh worker; the summary
    counts every message and says a worker was lost; exit code 1."""
    code, stdout, stderr, kids = _signal_run(
        box, lambda proc, kids: os.kill(min(kids), signal.SIGKILL), "--json", wait=0.5)
    assert code == 1, stderr
    out = json.loads(stdout.splitlines()[-1])  # the summary line
    assert out["messages"] == 120_000 and out["failures"] == []
    assert out["workers_lost"] == 1 and out["retried"] in (0, 1)
    assert "failed_shards" not in out and "interrupted" not in out
    assert b"Traceback" not in stderr
    assert [pid for pid in kids if _alive(pid)] == []


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_stop_leaves_no_process(box, sig):
    """SIGINT to the process group (Ctrl-C) or SIGTERM to the command: the workers are stopped
    and waited for, the summary of what finished is printed, exit 130 / 143."""
    def send(proc, kids):
        if sig == signal.SIGINT:
            os.killpg(proc.pid, sig)
        else:
            os.kill(proc.pid, sig)

    code, stdout, stderr, kids = _signal_run(box, send, "--json")
    assert code == {signal.SIGINT: 130, signal.SIGTERM: 143}[sig], stderr
    assert [pid for pid in kids if _alive(pid)] == []
    out = json.loads(stdout.splitlines()[-1])  # the summary line
    assert out["interrupted"] == sig.name
    assert out["messages"] < 120_000 and out["unfinished"]
    assert all(d["kind"] == "mbox" for d in out["unfinished"])
    assert b"Traceback" not in stderr


def test_stop_human_summary(box):
    code, stdout, stderr, kids = _signal_run(box, lambda proc, kids: os.kill(proc.pid, signal.SIGTERM))
    assert code == 143, stderr
    text = stdout.decode()
    assert text.startswith("files ") and "\nunfinished shards\n  " in text
    assert text.endswith("\ninterrupted by SIGTERM: the counts above are of what was read before the stop\n")
    assert [pid for pid in kids if _alive(pid)] == []


def test_workers_die_with_a_killed_parent(box):
    """SIGKILL of the command itself: no handler runs, the workers end with it
    (PR_SET_PDEATHSIG)."""
    code, _, _, kids = _signal_run(box, lambda proc, kids: os.kill(proc.pid, signal.SIGKILL),
                                   "--json", wait=0)
    assert code == -signal.SIGKILL
    deadline = time.monotonic() + 30
    while any(_alive(pid) for pid in kids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [pid for pid in kids if _alive(pid)] == []


def test_human_summary_of_the_pool(capsys):
    s = {"workers_lost": 2, "retried": 1, "interrupted": "SIGINT",
         "failed_shards": [{"path": "a", "member": None, "kind": "mbox", "start": 0, "end": 9,
                            "first_message": 0, "messages": 3, "delivered": 1,
                            "error": "worker killed by SIGBUS (twice)"}],
         "unfinished": [{"path": "d", "member": "x.mbox", "kind": "mbox", "start": 10, "end": 20,
                         "first_message": 3, "messages": 2, "delivered": 1},
                        {"path": "d", "member": None, "kind": "files", "first": "a.eml",
                         "last": "c.eml", "files": 3}]}
    _pool.print_pool_summary(s, sys.stdout.write)
    assert capsys.readouterr().out == (
        "\nworkers lost                                   2\nshards retried                                 1\n"
        "\nfailed shards\n  a bytes 0-9 (messages #1-#3): worker killed by SIGBUS (twice)\n"
        "\nunfinished shards\n  d/x.mbox bytes 10-20 (messages #4-#5) (1 message of it read)\n"
        "  d files a.eml to c.eml\n"
        "\ninterrupted by SIGINT: the counts above are of what was read before the stop\n")


def test_zip_and_pst_shards_are_named_by_their_range():
    """A failed or unfinished zip or PST/OST shard names its members or items, not only its
    path (as an mbox shard names its bytes and messages)."""
    from onemail.message.containers import FileTask
    from onemail.message.pst import PstPart
    from onemail.message.shards import Shard

    z = Shard("zip", (FileTask("a.zip", "a.zip"),), 3, 7, count=4, parts=("m/3.eml", "m/6.eml"))
    assert _pool.shard_place(z) == "a.zip members m/3.eml to m/6.eml (steps 3-6)"
    assert _pool._describe(z) == {"path": "a.zip", "member": None, "kind": "zip", "first": "m/3.eml",
                                  "last": "m/6.eml", "start": 3, "end": 7, "steps": 4}
    parts = (PstPart((0,), ("Inbox",), 40, 10, 40, 9), PstPart((0, 1), ("Inbox", "Old"), 5, 0, 2, 0))
    p = Shard("pst", (FileTask("d", "d/x.pst", "x.pst"),), count=32, parts=parts)
    assert _pool.shard_place(p) == "d/x.pst items 10 of 'Inbox' to 1 of 'Inbox/Old'"
    root = Shard("pst", (FileTask("y.ost", "y.ost"),), count=3, parts=(PstPart((), (), 3, 0, 3, 0),))
    assert _pool.shard_place(root) == "y.ost items 0 of 'the root' to 2 of 'the root'"
    s = {"failed_shards": [dict(_pool._describe(z), delivered=0, error="worker killed by SIGKILL (twice)")]}
    lines = []
    _pool.print_pool_summary(s, lines.append)
    assert "".join(lines) == ("\nfailed shards\n  a.zip members m/3.eml to m/6.eml (steps 3-6): "
                              "worker killed by SIGKILL (twice)\n")


def test_scan_jobs_2_single_mbox_equals_jobs_1(tmp_path, capsys):
    box = tmp_path / "m.mbox"
    _mbox(box, 3000)
    assert main(["scan", str(box), "--json"]) == 0
    one = capsys.readouterr().out
    assert main(["scan", str(box), "--json", "--jobs", "2"]) == 0
    assert capsys.readouterr().out == one  # every line, in walk order
    assert json.loads(one.splitlines()[-1])["messages"] == 3000


# ---------------------------------------------------------------------------------------------
# export --jobs


@pytest.fixture(scope="module")
def small_box(tmp_path_factory):
    path = tmp_path_factory.mktemp("pool-export") / "box.mbox"
    _mbox(path, 30_000)
    return path


def _lines(path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def test_export_jobs_2_writes_the_sequential_records(small_box, tmp_path):
    """The records of --jobs 2 are those of --jobs 1, each once (sorted: shards finish in any
    order)."""
    one, two = tmp_path / "1.jsonl", tmp_path / "2.jsonl"
    assert main(["export", str(small_box), "-o", str(one)]) == 0
    assert main(["export", str(small_box), "-o", str(two), "--jobs", "2"]) == 0
    a, b = _lines(one), _lines(two)
    assert len(a) == 30_000 and sorted(a) == sorted(b)


def test_export_sigkill_of_a_worker(small_box, tmp_path):
    out = tmp_path / "k.jsonl"
    code, _, stderr, kids = _signal_run(
        small_box, lambda proc, kids: os.kill(min(kids), signal.SIGKILL), "-o", str(out),
        wait=0.5, command="export")
    assert code == 1, stderr
    ids = [json.loads(line)["id"] for line in _lines(out)]
    assert len(ids) == len(set(ids)) == 30_000
    assert b"onemail export: workers lost 1" in stderr and b"Traceback" not in stderr
    assert [pid for pid in kids if _alive(pid)] == []


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_export_sigterm_writes_complete_records(small_box, tmp_path, fmt):
    """SIGTERM: exit 143, every line written is a whole record (a Parquet file is closed and
    readable), the summary line is printed, no process is left."""
    out = tmp_path / f"t.{fmt}"
    code, _, stderr, kids = _signal_run(
        small_box, lambda proc, kids: os.kill(proc.pid, signal.SIGTERM), "-o", str(out),
        "--format", fmt, wait=1.0, command="export")
    assert code == 143, stderr
    assert [pid for pid in kids if _alive(pid)] == []
    if fmt == "jsonl":
        records = [json.loads(line) for line in _lines(out)]
    else:
        pq = pytest.importorskip("pyarrow.parquet")
        records = pq.read_table(out).to_pylist()
    assert all(r["schema_version"] == 1 and r["subject"].startswith("message ") for r in records)
    text = stderr.decode()
    assert "onemail export: interrupted by SIGTERM" in text and f" {len(records)} records," in text
    assert "Traceback" not in text
    # fresh-user report F9: an unfinished shard whose first messages were written says how many
    import re

    written = [int(n) for n in re.findall(r"\((\d+) messages? of it written\)", text)]
    assert sum(written) <= len(records)
