#!/usr/bin/env python3
"""Message reading speed: ``onemail.read`` against the stdlib ``email`` path, in one run.

Every message of ``../shared/corpus/mail/`` is loaded into memory first (no I/O is timed). The
RFC 5322 messages (MANIFEST kind ``rfc822``) are read

* by onemail: ``onemail.read(data)`` (headers decoded, addresses, parameters, transfer
  encodings, body charsets by decision 3, nested messages);
* by the anchor: ``email.message_from_bytes(data, policy=policy.default)`` plus
  ``get_content()`` of every ``text/*`` part and ``str()`` of every header (the stdlib decodes
  headers lazily; this makes it decode them, as onemail does). Exceptions the anchor raises
  (unknown charsets, bad headers) are counted, not fatal.

Times are CPU time of this process (``time.process_time``: a neighbour's load on a shared
machine does not count), best of ``--repeat`` runs, the two interleaved. Messages/s and the
ratio (onemail's speed / the anchor's) are printed, then onemail alone on the .msg and TNEF
files (the stdlib cannot read them), then ``onemail scan`` of the whole corpus folder with
``--jobs 1`` and ``--jobs 2`` (wall time, as it runs worker processes: best of ``--repeat``
runs, interleaved, which is what a shared machine allows). Goal (issue 8): ratio >= 1,
and jobs 2 about 1.8x jobs 1 on an otherwise idle two-core machine.

Then the memory check (issue 13): ``onemail.read`` of three generated ``--memory-mb`` (100) MB
messages (a base64 attachment, a quoted-printable text body, an 8-bit text body), each in a
fresh process, peak RSS printed against the goal of three times the message plus 50 MB.

Run: ``python bench/messages.py [--repeat N] [--memory-mb MB]``. Installs nothing; needs only CPython and the
package.
"""

from __future__ import annotations

import argparse
import email
import os
import time
from email import policy
from pathlib import Path

import onemail
from onemail._cli.mail import scan

ROOT = Path(__file__).resolve().parent.parent
MAIL = (ROOT / ".." / "shared" / "corpus" / "mail").resolve()


def load() -> tuple[list[bytes], list[bytes]]:
    rfc822, outlook = [], []
    lines = (MAIL / "MANIFEST.tsv").read_text(encoding="utf-8").splitlines()[1:]
    for line in lines:
        name, kind = line.split("\t")[:2]
        (rfc822 if kind == "rfc822" else outlook).append((MAIL / name).read_bytes())
    return rfc822, outlook


def run_onemail(messages: list[bytes]) -> tuple[float, int]:
    start = time.process_time()
    parts = 0
    for data in messages:
        msg = onemail.read(data)
        parts += len(msg.parts)
    return time.process_time() - start, parts


def run_stdlib(messages: list[bytes]) -> tuple[float, int]:
    start = time.process_time()
    failures = 0
    for data in messages:
        try:
            msg = email.message_from_bytes(data, policy=policy.default)
            for value in msg.values():
                str(value)
            for part in msg.walk():
                if part.get_content_maintype() == "text":
                    part.get_content()
        except Exception:  # noqa: BLE001 - the anchor's failures are counted
            failures += 1
    return time.process_time() - start, failures


# VmHWM, not ru_maxrss: the latter keeps the high-water mark of the forked parent across exec
_MEMORY_CHILD = r"""
import sys, time
import onemail
def hwm():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
if sys.argv[1] == "-":
    print(hwm(), 0)
    raise SystemExit
start = time.process_time()
msg = onemail.read(sys.argv[1])
took = time.process_time() - start
print(hwm(), took, len(msg.parts), sum(len(p.data) for p in msg.parts), len(msg.issues))
"""


def _large_messages(mb: int, folder: Path) -> list[tuple[str, Path]]:
    """Write the large messages of the memory check: a base64 attachment, a quoted-printable
    text body, an 8-bit text body, each about ``mb`` MB."""
    import base64
    import random

    size = mb << 20
    rng = random.Random(8)
    words = [bytes(rng.choice(b"abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 9)))
             for _ in range(2000)]
    text = b" ".join(rng.choice(words) for _ in range(size // 5))[: size * 3 // 4]
    lines = b"\r\n".join(text[i:i + 70] for i in range(0, len(text), 70))
    head = (b"From: a@example.com\r\nTo: b@example.com\r\nSubject: large\r\n"
            b"Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nhi\r\n"
            b"--b\r\nContent-Type: application/octet-stream; name=big.bin\r\n"
            b"Content-Transfer-Encoding: base64\r\n\r\n")
    out = []
    for name, data in (
            ("base64 attachment", head + base64.encodebytes(rng.randbytes(size * 3 // 4)).replace(b"\n", b"\r\n")
             + b"\r\n--b--\r\n"),
            ("quoted-printable text", b"Subject: large\r\nContent-Type: text/plain; charset=utf-8\r\n"
             b"Content-Transfer-Encoding: quoted-printable\r\n\r\n" + lines.replace(b"e", b"=C3=A9")[:size]),
            ("8-bit text", b"Subject: large\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
             + lines.replace(b"e", "é".encode())[:size])):
        path = folder / (name.replace(" ", "-") + ".eml")
        path.write_bytes(data)
        out.append((name, path))
    return out


def memory(mb: int) -> None:
    """Peak RSS of ``onemail.read`` on large messages, each in a fresh process (issue 13: at most
    3x the message plus 50 MB)."""
    import subprocess
    import sys
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        baseline = int(subprocess.run([sys.executable, "-c", _MEMORY_CHILD, "-"], capture_output=True,
                                      text=True, check=True).stdout.split()[0])
        for name, path in _large_messages(mb, Path(tmp)):
            size = path.stat().st_size
            out = subprocess.run([sys.executable, "-c", _MEMORY_CHILD, str(path)], capture_output=True,
                                 text=True, check=True).stdout.split()
            rss, took = int(out[0]), float(out[1])
            goal = 3 * size + (50 << 20)
            print(f"memory {name:<22} {size / 1e6:6.0f} MB: peak RSS {rss / 1e6:6.0f} MB "
                  f"({(rss - baseline) / size:4.1f}x above the interpreter's {baseline / 1e6:.0f} MB), "
                  f"{took:5.2f} s CPU; goal <= {goal / 1e6:.0f} MB: {'met' if rss <= goal else 'NOT met'}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs of each side (best counts)")
    ap.add_argument("--no-scan", action="store_true", help="skip the scan --jobs comparison")
    ap.add_argument("--memory-mb", type=int, default=100, metavar="MB",
                    help="size of the large messages of the memory check (0 skips it)")
    args = ap.parse_args()
    if args.memory_mb:
        memory(args.memory_mb)
    rfc822, outlook = load()
    n = len(rfc822)
    size = sum(map(len, rfc822)) / 1e6
    best_one = best_std = float("inf")
    failures = parts = 0
    for _ in range(args.repeat):
        t, parts = run_onemail(rfc822)
        best_one = min(best_one, t)
        t, failures = run_stdlib(rfc822)
        best_std = min(best_std, t)
    print(f"corpus: {n} rfc822 messages ({size:.1f} MB), {len(outlook)} .msg/TNEF files")
    print(f"onemail.read            {n / best_one:8.0f} messages/s  ({best_one:.2f} s, {parts} leaf parts)")
    print(f"email (policy.default)  {n / best_std:8.0f} messages/s  ({best_std:.2f} s, {failures} raised)")
    print(f"ratio (onemail/stdlib)  {best_std / best_one:8.2f}")
    best_ms = min(run_onemail(outlook)[0] for _ in range(args.repeat))
    print(f"onemail.read .msg/TNEF  {len(outlook) / best_ms:8.0f} messages/s  ({best_ms:.2f} s)")
    if not args.no_scan:
        walls = {1: float("inf"), 2: float("inf")}
        cpus = {}
        print(f"load average before scan: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores "
              "(wall times below mean little when it exceeds the core count)")
        messages = 0
        for _ in range(args.repeat):
            for jobs in (1, 2):
                start, before = time.perf_counter(), os.times()
                messages = scan([str(MAIL)], jobs)["messages"]
                wall = time.perf_counter() - start
                after = os.times()
                if wall < walls[jobs]:
                    walls[jobs] = wall
                    cpus[jobs] = (after.user + after.system + after.children_user + after.children_system
                                  - before.user - before.system - before.children_user
                                  - before.children_system)
        for jobs in (1, 2):
            print(f"onemail scan --jobs {jobs}  {messages / walls[jobs]:8.0f} messages/s  "
                  f"({walls[jobs]:.2f} s wall, best of {args.repeat}; {cpus[jobs]:.2f} s CPU incl. workers)")
        print(f"scan speed-up jobs 2/1  {walls[1] / walls[2]:8.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
