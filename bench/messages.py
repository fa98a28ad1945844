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

Run: ``python bench/messages.py [--repeat N]``. Installs nothing; needs only CPython and the
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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs of each side (best counts)")
    ap.add_argument("--no-scan", action="store_true", help="skip the scan --jobs comparison")
    args = ap.parse_args()
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
