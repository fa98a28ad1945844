"""``onemail read PATH`` and ``onemail scan PATH...``: the message layer on the command line.

Both take files, folders and ``-`` (standard input) and find the messages in them by content
(:func:`onemail.message.containers.walk`: .eml, every mbox variant, Maildir, MH, .msg, TNEF,
PST/OST with ``onemail[pst]``, ``.gz``/``.bz2``/``.xz`` and ``.zip`` of any of these; a file's
suffix is only a hint). FIFOs work; nothing needs a seekable input.

``read`` prints one message: its place (``message 2 of 40`` in a container of several),
decoded headers, parts and issues, then each place of suspected mojibake with the chain that
would fix it (``SuspectedMojibake``, M16) or, with ``--repair``, each repair; ``--index N`` picks the N-th message (from 1), ``--all``
prints every one, ``--json`` gives JSON (one object; JSON Lines with ``--all``).

``scan`` decodes every message (on ``--jobs`` processes) and prints a summary: files, messages,
parts, issues by kind, charsets and how they were chosen, messages that could not be read
(failures), then, by reason (:data:`~onemail.message.containers.SKIP_REASONS`), the paths not
read (a reason of :data:`~onemail.message.containers.FAILURE_REASONS`) and, apart from them, the paths skipped as holding no mail
to read (each counted once);
``--list`` names the messages behind each issue kind. ``--json`` prints one JSON line per
message (its place, subject, issue counts by kind, charsets, error), one per skipped path, and a
final summary line (``"type": "summary"``).

Human output is safe on a terminal: every value from the mail or the file system (header values,
names, file names, paths, issue places) goes through
:func:`onemail._cli._safe.escape_for_terminal`, so a line end or escape sequence in it cannot
forge a line of the output or drive the terminal; body texts are escaped with their line ends
kept when standard output is a terminal (exact in a pipe), binary parts are never printed, and
a long text part is cut (:data:`TEXT_CHARS`, ``--full`` for all of it) with a note.

With ``--jobs`` above 1 the paths are cut into shards (:mod:`onemail.message.shards`: one big
mbox too) run by :mod:`onemail._cli._pool`: a worker that dies costs only its shard (retried
once, then reported), Ctrl-C and SIGTERM print the summary of what finished; the lines come out
in walk order all the same.

Exit codes (:mod:`onemail._cli._exits`): 0 done; 1 some input could not be read (a failure,
an unreadable, damaged or bounded path, a named path that is no mail, a worker lost; each is
reported); 2 usage (``read --index`` past the last message too); 130 / 143 stopped by SIGINT /
SIGTERM (the summary covers what finished).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, NamedTuple

from ._exits import USAGE, add_command, at_least_one
from ._jsonout import dumps, json_pieces
from ._safe import escape_for_terminal

if TYPE_CHECKING:
    from ..message.containers import Found, Skipped
    from ..message.model import Message, Part
    from ..message.shards import Shard
    from ..message.source import Source

Line = dict[str, Any]
"""One line of ``scan --json`` (a message, a skip or the summary), as a JSON object."""

TEXT_CHARS = 20_000  # characters of a text part that ``read`` prints (``--full``: all)
LIST_LIMIT = 50  # places named per reason or issue kind in the human summary (JSON: all)

_RECOGNITION = ("Messages are found by content, whatever the names: .eml, mbox (mboxo, mboxrd, "
                "mboxcl, mboxcl2, bare From lines), Maildir, MH, Outlook .msg, TNEF, PST/OST "
                "(onemail[pst]), and .gz, .bz2, .xz and .zip files of these. '-' reads standard "
                "input; FIFOs work.")


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = add_command(sub, "read", help="read a message (any container); print headers, parts, issues",
                    description="Print one message of PATH: headers, parts, issues. Text that "
                                "looks like mojibake is left as decoded and reported "
                                "(SuspectedMojibake), with the chain that would fix it; --repair "
                                "applies it. " + _RECOGNITION,
                    unread="PATH or the message could not be read: unreadable, damaged, no mail "
                           "(reported)",
                    usage="a usage error: bad options, or --index past the last message of PATH")
    p.add_argument("file", metavar="PATH", help="a file, a folder (Maildir, MH) or '-'")
    p.add_argument("--json", action="store_true", help="print the message as JSON")
    p.add_argument("--repair", action="store_true", help="repair mojibake in decoded text (reported)")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--index", type=at_least_one("--index"), default=1, metavar="N",
                       help="the N-th message of PATH, from 1 (default 1)")
    which.add_argument("--all", action="store_true", help="every message of PATH (JSON Lines with --json)")
    p.add_argument("--full", action="store_true", help="print long text parts whole")
    p.set_defaults(run=run_read)

    s = add_command(sub, "scan", help="decode every message under PATHs; print a summary",
                    description="Decode every message under PATHs; print a summary. " + _RECOGNITION,
                    unread="some input could not be read: a failure, an unreadable, damaged or "
                           "bounded path, a named path that is no mail, a worker lost (reported)")
    s.add_argument("paths", nargs="+", metavar="PATH", help="files, folders or '-'")
    s.add_argument("--json", action="store_true",
                   help="one JSON line per message and skipped path, then a summary line")
    s.add_argument("--list", action="store_true", help="name the messages behind each issue kind")
    s.add_argument("--jobs", "-j", type=at_least_one("--jobs"), default=1, metavar="N", help="worker processes (default 1)")
    s.set_defaults(run=run_scan)


def safe(value: object) -> str:
    """``value`` as text safe to print on a terminal (escaped: no line ends, no controls)."""
    return escape_for_terminal(str(value))


def place(source: Source) -> str:
    """:attr:`Source.where <onemail.message.source.Source.where>`, escaped for a terminal."""
    return safe(source.where)


# ---------------------------------------------------------------------------------------------
# read


def run_read(args: argparse.Namespace) -> int:
    from ..message.containers import Found, skip_is_failure, walk, walk_data

    path = args.file
    data = None
    if path == "-" or _is_fifo(path):  # read once: the count and the message from the same bytes
        try:
            data = sys.stdin.buffer.read() if path == "-" else _read_all(path)
        except OSError as exc:
            print(f"onemail: {safe(path)}: {safe(exc.strerror or exc)}", file=sys.stderr)
            return 1

    def items(read: bool) -> Iterator[Found | Skipped]:
        if data is not None:
            return walk_data(data, path=path, repair=args.repair, read=read)
        return walk([path], repair=args.repair, read=read)

    skipped: list[Skipped] = []
    total = 0
    for item in items(False):
        if isinstance(item, Found):
            total += 1
        else:
            skipped.append(item)
    for s in skipped:
        if skip_is_failure(s.reason) or total == 0:
            print(f"onemail: {safe(s.where)}: {s.reason}: {safe(s.detail)}", file=sys.stderr)
    if total == 0:
        if not skipped:
            print(f"onemail: {safe(path)}: no message", file=sys.stderr)
        return 1
    if not args.all and args.index > total:
        print(f"onemail read: error: --index {args.index}, but {safe(path)} holds {total} "
              f"message{'s' if total > 1 else ''}", file=sys.stderr)
        return USAGE
    status = 1 if any(skip_is_failure(s.reason, named=s.named) for s in skipped) else 0
    n = 0
    for item in items(True):
        if not isinstance(item, Found):
            continue
        n += 1
        if not args.all and n != args.index:
            continue
        msg = item.message
        assert msg is not None  # walked with read=True
        if msg.error:
            status = 1
        if args.json:  # in pieces: a long text is escaped a slice at a time (_jsonout)
            out = {"source": item.source.to_json(), "number": n, "of": total, **msg.to_json()}
            for piece in json_pieces(out, indent=None if args.all else 1):
                sys.stdout.write(piece)
            sys.stdout.write("\n")
        else:
            if total > 1 or args.all:
                if args.all and n > 1:
                    sys.stdout.write("\n")
                sys.stdout.write(f"== message {n} of {total}: {place(item.source)}\n")
            _print_message(msg, "", full=args.full)
        if not args.all:
            break
    return status


def _is_fifo(path: str) -> bool:
    import stat

    try:
        return stat.S_ISFIFO(os.stat(path).st_mode)
    except OSError:
        return False


def _read_all(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def _print_message(msg: Message, indent: str, *, full: bool = False) -> None:
    out = sys.stdout
    w = out.write
    w(f"{indent}format: {msg.format}\n")
    if msg.error:
        w(f"{indent}error: {safe(msg.error)}\n")
    if msg.subject is not None:
        w(f"{indent}subject: {safe(msg.subject)}\n")
    for label, addrs in (("from", msg.from_), ("to", msg.to), ("cc", msg.cc)):
        if addrs:
            w(f"{indent}{label}: {safe(', '.join(str(a) for a in addrs))}\n")
    if msg.date is not None:
        w(f"{indent}date: {msg.date.isoformat()}\n")
    if msg.headers:
        w(f"{indent}-- headers ({len(msg.headers)})\n")
        for h in msg.headers:
            flag = f"   [{len(h.issues)} issue(s)]" if h.issues else ""
            w(f"{indent}{safe(h.name)}: {safe(h.value)}{flag}\n")
    w(f"{indent}-- parts ({len(msg.parts)})\n")
    for p in msg.parts:
        bits = [safe(p.path), safe(p.media_type)]
        if p.disposition:
            bits.append(safe(p.disposition))
        if p.filename is not None:
            bits.append(f"filename={safe(repr(p.filename))}")
        if p.charset:
            bits.append(f"charset={p.charset}" + (f" ({p.charset_source})" if p.charset_source else ""))
        if p.origin != "mime":
            bits.append(f"from {safe(p.origin)}")
        if p.is_rtf:
            bits.append("RTF")
        bits.append(f"{len(p.data)} bytes")
        w(f"{indent}[{'  '.join(bits)}]\n")
        if p.text is not None:  # text parts only: binary parts are never printed
            w(_part_text(p, full))
        if p.message is not None:
            _print_message(p.message, indent + "    ", full=full)
    if msg.issues:
        w(f"{indent}-- issues ({len(msg.issues)})\n")
        for i in msg.issues:
            more = f" (and {i.count - 1} more)" if i.count > 1 else ""
            w(f"{indent}{i.kind.value} in {safe(i.where)} at byte {i.offset}, {i.length} byte(s){more}\n")
    # (SuspectedMojibake, M16: the chain that would fix each place, not applied; then the
    # repairs --repair applied)
    for records, title in ((msg.mojibake, "suspected mojibake, not repaired ({}; --repair applies it)"),
                           (msg.repairs, "repairs ({})")):
        if records:
            from ..detect import render_chain

            w(f"{indent}-- {title.format(len(records))}\n")
            for r in records:
                w(f"{indent}{safe(r.where)}: {safe(render_chain(r.steps))}\n")


def _part_text(p: Part, full: bool) -> str:
    """A text part as printed: plain RTF as the text made from it, long text cut with a note,
    escaped (line ends and tabs kept) wherever it goes: ``read`` prints a human view, like the
    headers beside it, and a pipe into ``less -R`` or a log read later with ``cat`` is a terminal
    too (exact text: ``--json`` or ``onemail export``)."""
    text = (p.text or "").replace("\r\n", "\n")
    note = ""
    if p.is_rtf:  # plain RTF: the text a reader shows (export's body_text); the source: --json
        from ..message.records import rtf_body_text

        text = rtf_body_text(p.data)
        note = "(text made from the RTF, as export's body_text; the RTF itself: --json)\n"
    if len(text) > TEXT_CHARS and not full:
        cut = text.rfind("\n", 0, TEXT_CHARS) + 1 or TEXT_CHARS
        note = f"... ({len(text) - cut} more characters; --full or --json for all)\n" + note
        text = text[:cut]
    text = escape_for_terminal(text, keep_lines=True)
    if not text.endswith("\n"):
        text += "\n"
    return text + note


# ---------------------------------------------------------------------------------------------
# scan


def message_line(found: Found) -> Line:
    """The JSON line of one message of ``scan --json``: ``type``, ``source``, ``subject``,
    ``error``, ``parts``, ``issues`` (kind -> count), ``charsets`` (``"label (how chosen)"`` ->
    parts)."""
    msg = found.message
    if msg is None:
        raise ValueError("message_line needs a message read (walk with read=True)")
    parts = 0
    charsets: Counter[str] = Counter()
    for part in msg.walk():
        parts += 1
        if part.charset_source:
            charsets[f"{part.charset} ({part.charset_source})"] += 1
    return {"type": "message", "source": found.source.to_json(), "subject": msg.subject,
            "error": msg.error, "parts": parts,
            "issues": dict(Counter(i.kind.value for i in msg.issues)), "charsets": dict(charsets)}


def skipped_line(skipped: Skipped) -> Line:
    """The JSON line of one skipped path or item of ``scan --json``."""
    return {"type": "skipped", **skipped.to_json()}


def item_line(item: Found | Skipped) -> Line:
    """The JSON line of one walk item: :func:`message_line` or :func:`skipped_line`."""
    from ..message.containers import Found

    return message_line(item) if isinstance(item, Found) else skipped_line(item)


Part_ = tuple[int, int, dict[str, int], dict[str, int], list[Line], list[Line], dict[str, list[str]] | None]
"""A :class:`Summary` as a picklable tuple (:meth:`Summary.part`)."""


class Summary:
    """What ``scan`` counts: :meth:`add` each line of :func:`item_line` (or :meth:`merge` the
    :meth:`part` of another summary, as a worker sends it), then :meth:`to_json`.

    Only what the output needs is kept, so that memory does not grow with the messages read:
    counts, the failures and skipped lines (each a finding to report), and, with ``listing``
    (``--list``), the place of every message behind each issue kind.
    """

    def __init__(self, *, listing: bool = False) -> None:
        self.files = self.messages = self.parts = 0
        self.issues: Counter[str] = Counter()
        self.charsets: Counter[str] = Counter()
        self.failures: list[Line] = []
        self.skipped: list[Line] = []
        # issue kind -> places (for --list); None: not kept
        self.by_kind: dict[str, list[str]] | None = {} if listing else None
        self.pool: dict[str, Any] = {}  # what the pool of --jobs adds (onemail._cli._pool), when it happens
        self.exit: int | None = None  # the pool's exit code (a stop, a lost worker)

    def add(self, line: Line) -> None:
        if line["type"] == "skipped":
            self.skipped.append(line)
            return
        self.messages += 1
        self.parts += line["parts"]
        self.issues.update(line["issues"])
        self.charsets.update(line["charsets"])
        if line["error"]:
            self.failures.append({"path": _json_place(line["source"]), "source": line["source"],
                                  "error": line["error"]})
        if self.by_kind is not None and line["issues"]:
            where = _json_place(line["source"])
            for kind in line["issues"]:
                self.by_kind.setdefault(kind, []).append(where)

    def part(self) -> Part_:
        """The counts as a compact picklable tuple, for :meth:`merge` in another process."""
        return (self.messages, self.parts, dict(self.issues), dict(self.charsets), self.failures,
                self.skipped, self.by_kind)

    def merge(self, part: Part_) -> None:
        """Add the :meth:`part` of the summary of the lines that follow this one's."""
        messages, parts, issues, charsets, failures, skipped, by_kind = part
        self.messages += messages
        self.parts += parts
        self.issues.update(issues)
        self.charsets.update(charsets)
        self.failures += failures
        self.skipped += skipped
        if self.by_kind is not None and by_kind:
            for kind, places in by_kind.items():
                self.by_kind.setdefault(kind, []).extend(places)

    def problems(self) -> bool:
        """True when some input was not read: a failure, or a skip that is one
        (:func:`onemail.message.containers.skip_is_failure`: an unreadable or damaged path, a
        named path that holds no mail)."""
        from ..message.containers import skip_is_failure

        return bool(self.failures) or any(
            skip_is_failure(s["reason"], named=_named_line(s)) for s in self.skipped)

    def to_json(self) -> Line:
        from ..message.containers import skip_is_failure

        def ranked(c: Counter[str]) -> dict[str, int]:
            return dict(sorted(c.items(), key=lambda kv: (-kv[1], kv[0])))

        return {"type": "summary", "files": self.files, "messages": self.messages, "parts": self.parts,
                "issues": ranked(self.issues), "charsets": ranked(self.charsets),
                "failures": self.failures,
                "skipped": ranked(Counter(s["reason"] for s in self.skipped)),
                "unreadable": [{"path": _json_place(s), "reason": s["reason"], "error": s["detail"]}
                               for s in self.skipped if skip_is_failure(s["reason"])],
                **self.pool}


def _named_line(line: Line) -> bool:
    """A skipped line of a path as named on the command line (no member, folder or archive
    inside it)."""
    return line.get("member") is None and line.get("folder") is None


def _json_place(src: Line) -> str:
    """The human name of a source or skip given as JSON (not escaped)."""
    from ..message.source import place_name

    out = place_name(src["path"], member=src.get("member"), archive=src.get("archive"), folder=src.get("folder"))
    if src.get("container") in ("mbox", "pst") and src.get("type") != "skipped" and "index" in src:
        out += f" #{src['index'] + 1}"
    return out


CHUNK = 256
"""Lines folded into one :class:`Chunk`: a worker sends a shard's lines this many at a time (as
counts and text, not line objects); the sequential scan folds the same way."""

Write = Callable[[str], object]
"""Takes the text of ``scan --json`` lines (each ending in a line feed), in walk order."""


class Chunk(NamedTuple):
    """Up to :data:`CHUNK` lines of a scan folded: ``lines`` how many, ``part`` their
    :meth:`Summary.part`, ``text`` their JSON Lines (``""`` when not asked for)."""

    lines: int
    part: Part_
    text: str


def fold(items: Iterable[Found | Skipped], *, text: bool, listing: bool) -> Iterator[Chunk]:
    """Fold walk items into :class:`Chunk` s of :data:`CHUNK` lines (the last one shorter):
    the one step of ``scan`` from items to counts and output, in this process or a worker."""
    part, out, n = Summary(listing=listing), [], 0
    for item in items:
        line = item_line(item)
        part.add(line)
        if text:
            out.append(dumps(line) + "\n")
        n += 1
        if n == CHUNK:
            yield Chunk(n, part.part(), "".join(out))
            part, out, n = Summary(listing=listing), [], 0
    if n:
        yield Chunk(n, part.part(), "".join(out))


def scan(paths: list[str], jobs: int = 1, progress: bool = False, write: Write | None = None) -> Line:
    """Scan ``paths`` on ``jobs`` processes; return the summary line of ``scan --json`` (a
    dict: ``files``, ``messages``, ``parts``, ``issues``, ``charsets``, ``failures``,
    ``skipped``, ``unreadable``, and the pool's keys when they happen); ``write(text)`` gets
    the JSON text of every message and skipped line, in walk order."""
    return scan_summary(paths, jobs, progress, write).to_json()


def scan_summary(paths: list[str], jobs: int = 1, progress: bool = False,
                 write: Write | None = None, *, listing: bool = False) -> Summary:
    """:func:`scan`, returning the :class:`Summary` itself (``listing``: with the places behind
    each issue kind, for ``--list``).

    ``jobs`` is capped at :func:`onemail._cli._pool.usable_cpus`. With more than one, the paths
    are planned into shards run on the pool of :mod:`onemail._cli._pool` (standard input is
    read in this process: then everything is). Either way, memory does not grow with the
    messages (:class:`Summary`; lines are written as they are folded).
    """
    from . import _pool

    jobs = min(jobs, _pool.usable_cpus())
    if jobs > 1 and "-" not in [os.fspath(p) for p in paths]:
        return _scan_pool(paths, jobs, progress, write, listing)
    from ..message.containers import Skipped, tasks, walk_task

    summary = Summary(listing=listing)
    planned = []
    for task in tasks(paths):
        if isinstance(task, Skipped):
            _take(summary, fold([task], text=write is not None, listing=listing), write)
        else:
            planned.append(task)
    summary.files = len(planned)
    bar = _Progress(len(planned)) if progress else None
    for task in planned:
        _take(summary, fold(walk_task(task), text=write is not None, listing=listing), write)
        if bar:
            bar.step()
    if bar:
        bar.done()
    return summary


def scan_work(shard: Shard, *, text: bool = False, listing: bool = False) -> Iterator[Chunk]:
    """The pool's work for one shard (:func:`onemail.message.shards.messages`): its lines
    folded (:func:`fold`), in walk order (module-level: a worker process calls it)."""
    from ..message.shards import messages

    return fold(messages(shard), text=text, listing=listing)


def _scan_pool(paths: list[str], jobs: int, progress: bool, write: Write | None,
               listing: bool) -> Summary:
    """Shards on the pool; their chunks are held back per shard and let out in plan order."""
    import functools

    from . import _pool

    summary = Summary(listing=listing)
    numbers: dict[Shard, int] = {}
    files: set[tuple[str, str | None]] = set()
    held: dict[int, list[Chunk]] = {}
    done: set[int] = set()
    next_out = 0

    def plan() -> Iterator[Shard]:
        for shard in _pool.plan(paths, jobs):
            numbers[shard] = len(numbers)
            held[numbers[shard]] = []
            files.update((t.path, t.member) for t in shard.tasks)
            yield shard

    def flush(final: bool = False) -> None:
        nonlocal next_out
        while next_out in done or (final and next_out in held):
            _take(summary, held.pop(next_out, []), write)
            done.discard(next_out)
            next_out += 1

    def on_items(shard: Any, items: list[Any]) -> None:
        held[numbers[shard]].extend(items)

    def on_done(shard: Any) -> None:
        done.add(numbers[shard])
        flush()

    bar = _pool.Progress() if progress else None
    work = functools.partial(scan_work, text=write is not None, listing=listing)
    out = _pool.run(plan(), work, jobs=jobs, on_items=on_items, on_done=on_done,
                    progress=bar, warm=_warm, batch=1, size=_chunk_messages)
    if bar is not None:
        bar.done()
    flush(final=True)  # what failed or was stopped delivered what it had: in order too
    summary.files = len(files)
    summary.pool, summary.exit = _pool.outcome_summary(out)
    return summary


def _chunk_messages(chunk: Chunk) -> int:
    """The messages of a chunk (its skipped lines are none): what the progress line counts."""
    return chunk.part[0]


def _take(summary: Summary, chunks: Iterable[Chunk], write: Write | None) -> None:
    for chunk in chunks:
        summary.merge(chunk.part)
        if write is not None and chunk.text:
            write(chunk.text)


def _warm() -> None:
    """Import the reading modules and the detector's tables (about 0.4 s of CPU per process)."""
    from ..detect import detect
    from ..message import containers, mime, msg, tnef  # noqa: F401
    from ..rtf import deencapsulate  # noqa: F401

    detect(b"caf\xe9 \xa4\xa4")


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
    summary = scan_summary(args.paths, args.jobs, progress=sys.stderr.isatty() and not args.json,
                           write=sys.stdout.write if args.json else None, listing=args.list)
    if args.json:
        sys.stdout.write(dumps(summary.to_json()) + "\n")
    else:
        _print_summary(summary, listing=args.list)
    if summary.exit is not None:
        return summary.exit
    return 1 if summary.problems() else 0


def _print_summary(s: Summary, *, listing: bool = False) -> None:
    """The human summary: counts that do not overlap (a path not read is not also counted as
    skipped), then issues, charsets, failures, and what was not read and what was skipped, each
    by reason with the places."""
    w = sys.stdout.write
    data = s.to_json()
    from ..message.containers import skip_is_failure

    not_read = [x for x in s.skipped if skip_is_failure(x["reason"])]
    passed = [x for x in s.skipped if not skip_is_failure(x["reason"])]
    rows = (("files", s.files), ("messages", s.messages), ("parts", s.parts),
            ("failures (messages not readable)", len(s.failures)),
            ("not read (unreadable, damaged, ...)", len(not_read)),
            ("skipped (no mail to read)", len(passed)))
    for label, n in rows:
        w(f"{label:<40}{n:>8}\n")
    if data["issues"]:
        w("\nissues by kind\n")
        for kind, n in data["issues"].items():
            w(f"  {kind:<38}{n:>8}\n")
            if listing and s.by_kind is not None:
                _names(w, s.by_kind[kind], "    ")
    if data["charsets"]:
        w("\ncharsets (how chosen)\n")
        for cs, n in data["charsets"].items():
            w(f"  {safe(cs):<38}{n:>8}\n")
    if s.failures:
        w("\nfailures\n")
        for f in s.failures:
            w(f"  {safe(_json_place(f['source']))}: {safe(f['error'])}\n")
    for title, lines in (("not read, by reason", not_read), ("skipped, by reason", passed)):
        if lines:
            w(f"\n{title}\n")
            counts = Counter(x["reason"] for x in lines)
            for reason, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
                w(f"  {reason:<38}{n:>8}\n")
                _names(w, [f"{_json_place(x)}: {x['detail']}" for x in lines if x["reason"] == reason],
                       "    ", limit=None if listing else LIST_LIMIT)
    if s.pool:
        from ._pool import print_pool_summary

        print_pool_summary(s.pool, lambda text: w(safe_lines(text)))


def safe_lines(text: str) -> str:
    """Multi-line text of ours holding values from the input: each line escaped, line ends kept."""
    return "\n".join(safe(line) for line in text.split("\n"))


def _names(w: Callable[[str], object], names: list[str], indent: str, limit: int | None = None) -> None:
    shown = names if limit is None else names[:limit]
    for name in shown:
        w(f"{indent}{safe(name)}\n")
    if len(shown) < len(names):
        w(f"{indent}... and {len(names) - len(shown)} more (--list or --json for all)\n")
