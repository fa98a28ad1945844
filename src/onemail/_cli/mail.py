"""``onemail read FILE`` and ``onemail scan PATH...``: the message layer on the command line.

``read`` prints one message's decoded headers, parts and issues (``--json`` for JSON).
``scan`` walks files and folders (``.eml``, ``.mbox``, ``.msg``, ``.dat``, ``.tnef``; files named
on the command line are always read; ``.mbox`` files and files without a suffix are split into
their messages), decodes every message on ``--jobs`` processes, shows a
progress bar on a terminal (stderr) and ends with a summary: messages, parts, issues by kind,
charsets used and how they were chosen, failures (messages not read) and unreadable paths (missing
paths, folders that cannot be listed, unreachable links, FIFOs/sockets/devices found in folders:
:mod:`onemail._walk`), in the text form as in JSON. ``--jobs`` is capped at the usable CPUs.
With ``--jobs`` above 1 the paths are cut into shards (one big mbox too) run by
:mod:`onemail._cli._pool`: a worker that dies costs only its shard (retried once, then reported),
Ctrl-C and SIGTERM print the summary of what finished.
Exit codes: 0 done, 1 some input unreadable or not a message, or a worker lost (still
reported), 2 usage, 130 / 143 stopped by SIGINT / SIGTERM (the summary covers what finished).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..message import Message

SCAN_SUFFIXES = (".eml", ".mbox", ".msg", ".dat", ".tnef")
RTF_LINES = 12  # lines of a plain RTF body that ``read`` prints


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("read", help="read one message (.eml, mbox, .msg, TNEF); print headers, parts, issues")
    p.add_argument("file", help="the message file")
    p.add_argument("--json", action="store_true", help="print the message as JSON")
    p.add_argument("--repair", action="store_true", help="repair mojibake in decoded text (reported)")
    p.set_defaults(run=run_read)

    s = sub.add_parser("scan", help="decode every message under PATHs; print a summary")
    s.add_argument("paths", nargs="+", metavar="PATH", help="files or folders")
    s.add_argument("--json", action="store_true", help="print the summary as JSON")
    s.add_argument("--jobs", "-j", type=_jobs, default=1, metavar="N", help="worker processes (default 1)")
    s.set_defaults(run=run_scan)


def _jobs(value: str) -> int:
    import argparse

    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {value!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return n


# ---------------------------------------------------------------------------------------------
# read


def run_read(args: argparse.Namespace) -> int:
    from ..message import read

    try:
        msg = read(args.file, repair=args.repair)
    except OSError as exc:
        print(f"onemail: {exc}", file=sys.stderr)
        return 1
    if args.json:
        json.dump(msg.to_json(), sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
    else:
        _print_message(msg, "")
    return 1 if msg.error else 0


def _print_message(msg: Message, indent: str) -> None:
    out = sys.stdout
    out.write(f"{indent}format: {msg.format}\n")
    if msg.error:
        out.write(f"{indent}error: {msg.error}\n")
    if msg.subject is not None:
        out.write(f"{indent}subject: {msg.subject}\n")
    for label, addrs in (("from", msg.from_), ("to", msg.to), ("cc", msg.cc)):
        if addrs:
            out.write(f"{indent}{label}: {', '.join(str(a) for a in addrs)}\n")
    if msg.date is not None:
        out.write(f"{indent}date: {msg.date.isoformat()}\n")
    if msg.headers:
        out.write(f"{indent}-- headers ({len(msg.headers)})\n")
        for h in msg.headers:
            flag = f"   [{len(h.issues)} issue(s)]" if h.issues else ""
            out.write(f"{indent}{h.name}: {h.value}{flag}\n")
    out.write(f"{indent}-- parts ({len(msg.parts)})\n")
    for p in msg.parts:
        bits = [p.path, p.media_type]
        if p.disposition:
            bits.append(p.disposition)
        if p.filename is not None:
            bits.append(f"filename={p.filename!r}")
        if p.charset:
            bits.append(f"charset={p.charset}" + (f" ({p.charset_source})" if p.charset_source else ""))
        if p.origin != "mime":
            bits.append(f"from {p.origin}")
        if p.is_rtf:
            bits.append("RTF")
        bits.append(f"{len(p.data)} bytes")
        out.write(f"{indent}[{'  '.join(bits)}]\n")
        if p.text is not None:
            text = p.text.replace("\r\n", "\n")
            if p.is_rtf:  # plain RTF: the first lines only (all of it with --json)
                lines = text.split("\n")
                if len(lines) > RTF_LINES:
                    text = "\n".join(lines[:RTF_LINES]) + f"\n... ({len(lines) - RTF_LINES} more RTF lines)\n"
            out.write(text if text.endswith("\n") else text + "\n")
        if p.message is not None:
            _print_message(p.message, indent + "    ")
    if msg.issues:
        out.write(f"{indent}-- issues ({len(msg.issues)})\n")
        for i in msg.issues:
            out.write(f"{indent}{i.kind.value} in {i.where} at byte {i.offset}, {i.length} byte(s)\n")
    if msg.repairs:
        out.write(f"{indent}-- repairs ({len(msg.repairs)})\n")
        from ..detect import render_chain

        for r in msg.repairs:
            out.write(f"{indent}{r.where}: {render_chain(r.steps)}\n")


# ---------------------------------------------------------------------------------------------
# scan


def collect(paths: list[str]) -> tuple[list[str], list[tuple[str, str]]]:
    """Return the files to scan (sorted within each folder) and ``(path, problem)`` for paths that
    cannot be read: missing paths, folders that cannot be listed, unreachable symbolic links,
    FIFOs/sockets/devices found in folders (:mod:`onemail._walk`)."""
    from .._walk import walk

    files: list[str] = []
    bad: list[tuple[str, str]] = []
    for path, problem in walk(paths, lambda name: name.lower().endswith(SCAN_SUFFIXES)):
        if problem is None:
            files.append(path)
        else:
            bad.append((path, problem))
    return files, bad


def scan_file(path: str) -> dict[str, Any]:
    """Read every message of one file; return its counts (a picklable dict)."""
    from ..message import read, read_mbox

    out: dict[str, Any] = {"path": path, "messages": 0, "parts": 0, "issues": Counter(), "charsets": Counter(),
           "failures": [], "unreadable": None}
    try:
        # Only mbox files are split: an .eml saved with a "From " line keeps unescaped "From "
        # lines in its body (mimekit's unmunged.mbox.txt.eml).
        name = os.path.basename(path).lower()
        messages = read_mbox(path) if name.endswith(".mbox") or "." not in name else (read(path),)
        for msg in messages:
            out["messages"] += 1
            if msg.error:
                out["failures"].append(msg.error)
            out["issues"].update(i.kind.value for i in msg.issues)
            for part in msg.walk():
                out["parts"] += 1
                if part.charset_source:
                    out["charsets"][f"{part.charset} ({part.charset_source})"] += 1
    except OSError as exc:
        out["unreadable"] = exc.strerror or str(exc)
    return out


def usable_cpus() -> int:
    """CPUs this process may run on (its affinity mask where the OS has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def scan(paths: list[str], jobs: int = 1, progress: bool = False) -> dict[str, Any]:
    """Scan ``paths`` on ``jobs`` processes; return the summary (see :func:`run_scan`).

    ``jobs`` is capped at :func:`usable_cpus`: decoding is CPU-bound, and more workers than
    CPUs only add start-up and switching (on 2 CPUs the corpus took 1.65 s with 4 jobs, 1.45 s
    with 2). Files go to the workers in chunks of up to 32 paths, at least 8 chunks per worker.
    """
    files, bad = collect(paths)
    jobs = min(jobs, usable_cpus())
    summary: dict[str, Any] = {"files": len(files), "messages": 0, "parts": 0, "issues": Counter(),
               "charsets": Counter(), "failures": [], "unreadable": [{"path": p, "error": e} for p, e in bad]}
    if jobs > 1:  # shards on a pool that survives its workers (onemail._cli._pool)
        from ._pool import scan_files

        scan_files(files, summary, jobs, progress=progress, warm=_warm)
    else:
        bar = _Progress(len(files)) if progress else None
        for f in files:
            _merge(summary, scan_file(f))
            if bar:
                bar.step()
        if bar:
            bar.done()
    summary["failures"].sort(key=lambda f: f["path"])
    summary["unreadable"].sort(key=lambda f: f["path"])
    return summary


def _warm() -> None:
    """Import the reading modules and the detector's tables (about 0.4 s of CPU per process)."""
    from ..detect import detect
    from ..message import mime, msg, tnef  # noqa: F401
    from ..rtf import deencapsulate  # noqa: F401

    detect(b"caf\xe9 \xa4\xa4")


def _merge(summary: dict[str, Any], r: dict[str, Any]) -> None:
    summary["messages"] += r["messages"]
    summary["parts"] += r["parts"]
    summary["issues"].update(r["issues"])
    summary["charsets"].update(r["charsets"])
    for error in r["failures"]:
        summary["failures"].append({"path": r["path"], "error": error})
    if r["unreadable"] is not None:
        summary["unreadable"].append({"path": r["path"], "error": r["unreadable"]})


class _Progress:
    """A one-line progress bar on stderr (only used when stderr is a terminal)."""

    def __init__(self, total: int) -> None:
        self.total, self.n, self.last = total, 0, 0.0
        self.start = time.monotonic()

    def step(self) -> None:
        self.n += 1
        now = time.monotonic()
        if now - self.last >= 0.1 or self.n == self.total:
            self.last = now
            width = 30
            filled = width * self.n // max(self.total, 1)
            rate = self.n / max(now - self.start, 1e-9)
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.n}/{self.total} files"
                             f"  {rate:.0f}/s")
            sys.stderr.flush()

    def done(self) -> None:
        sys.stderr.write("\n")
        sys.stderr.flush()


def run_scan(args: argparse.Namespace) -> int:
    summary = scan(args.paths, args.jobs, progress=sys.stderr.isatty() and not args.json)
    code: int | None = summary.pop("exit", None)
    if args.json:
        out = dict(summary)
        out["issues"] = dict(sorted(summary["issues"].items(), key=lambda kv: (-kv[1], kv[0])))
        out["charsets"] = dict(sorted(summary["charsets"].items(), key=lambda kv: (-kv[1], kv[0])))
        json.dump(out, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
    else:
        _print_summary(summary)
    if code is not None:
        return code
    return 1 if summary["failures"] or summary["unreadable"] else 0


def _print_summary(s: dict[str, Any]) -> None:
    w = sys.stdout.write
    w(f"{'files':<40}{s['files']:>8}\n{'messages':<40}{s['messages']:>8}\n{'parts':<40}{s['parts']:>8}\n")
    # the same two lists as the JSON form: messages not read, paths not read
    w(f"{'failures':<40}{len(s['failures']):>8}\n{'unreadable':<40}{len(s['unreadable']):>8}\n")
    if s["issues"]:
        w("\nissues by kind\n")
        for kind, n in sorted(s["issues"].items(), key=lambda kv: (-kv[1], kv[0])):
            w(f"  {kind:<38}{n:>8}\n")
    if s["charsets"]:
        w("\ncharsets (how chosen)\n")
        for cs, n in sorted(s["charsets"].items(), key=lambda kv: (-kv[1], kv[0])):
            w(f"  {cs:<38}{n:>8}\n")
    for title in ("failures", "unreadable"):
        if s[title]:
            w(f"\n{title}\n")
            for f in s[title]:
                w(f"  {f['path']}: {f['error']}\n")
    if s.get("failed_shards") or s.get("workers_lost") or s.get("interrupted"):
        from ._pool import print_pool_summary

        print_pool_summary(s, w)
