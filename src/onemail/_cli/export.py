"""``onemail export PATH... [-o FILE] [--format jsonl|parquet] [--attachments DIR]``: one record
per message (``docs/records.md``), as JSON Lines or Parquet, attachments on disk.

Paths are files, folders or ``-`` (standard input), walked by
:func:`onemail.message.containers.walk`: containers are recognised by content (.eml, mbox
variants, Maildir, MH, Outlook .msg, TNEF, PST/OST, gzip/bzip2/xz, zip), a suffix is only a hint.
Each message gives its records (:func:`onemail.message.records.build_records`: its own, then
those of the messages nested in it), in the order the walk meets them.

* JSON Lines (the default) go to standard output, or to ``-o FILE``: one record per line, UTF-8,
  keys in the schema's order (a lone surrogate of an undecodable path byte is written as the JSON
  escape ``\\udcXX``).
* ``--format parquet`` writes a Parquet file (needs ``-o FILE`` and the optional extra
  ``onemail[parquet]``) in the fixed Arrow schema of :mod:`onemail.message.arrow`, in row groups
  of :data:`BATCH` records.
* ``--attachments DIR`` writes each attachment's bytes to ``DIR/<record id>/<safe name>``
  (:mod:`onemail.message.attachments`, M33) and puts that path, relative to ``DIR``, in the
  record's ``saved_path``; nothing is written outside ``DIR`` (a symbolic link planted inside it
  is refused). An attachment that cannot be written keeps ``saved_path`` null and is reported.

What is skipped (files that are not mail, items of a PST that are not messages, damaged parts
of containers) is reported on standard error by reason, with a final count line.

``--jobs N`` (N > 1) reads the input in shards (:func:`onemail.shards`: one big mbox too) on N
worker processes (:mod:`onemail._cli._pool`); records are written as shards finish (sorted on
``source`` they are the sequential order). A worker that dies costs only its shard (retried once,
then reported); Ctrl-C and SIGTERM stop the workers, the records written are complete lines (a
Parquet file is closed with the row groups written), the summary line is printed.

Exit codes: 0 every input was read; 1 something was not: an unreadable or damaged input, a
limit met, an input that needs a missing extra, a message that could not be read (its record has
``error``), an attachment not written (the other records are still written), a worker lost; 2 a
usage error, found before any work (bad options, ``--format parquet`` without ``-o`` or without
pyarrow, an output file or an ``--attachments`` folder that cannot be created, a file named as
that folder); 130 / 143 stopped by SIGINT / SIGTERM (what finished is written).
"""

from __future__ import annotations

import argparse
import os
import stat
import sys
from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, BinaryIO, NamedTuple

from ._exits import USAGE, add_command, at_least_one

if TYPE_CHECKING:
    from ..message.model import Part
    from ..message.source import Found

BATCH = 1000
"""Records per Parquet row group (and per Arrow table built): memory stays bounded by a batch."""

CHUNK = 64
"""Messages whose records a worker of ``--jobs`` sends at a time (as one piece of JSON Lines
text, or the records for Parquet)."""


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = add_command(
        sub, "export", help="write one record per message (JSON Lines or Parquet), attachments on disk",
        description="Write one record per message found under PATHs (files, folders, - for "
                    "standard input; containers recognised by content) as JSON Lines (default, to "
                    "standard output) or Parquet.",
        unread="some input was not read, or an attachment not saved (reported; the rest written)",
        usage="a usage error: bad options, --format parquet without -o or pyarrow, an output "
              "file or --attachments folder that cannot be created (before any work)")
    p.add_argument("paths", nargs="+", metavar="PATH", help="files, folders, or - for standard input")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE (default: standard output)")
    p.add_argument("--format", choices=("jsonl", "parquet"), default="jsonl",
                   help="jsonl (default) or parquet (needs -o and onemail[parquet])")
    p.add_argument("--attachments", metavar="DIR",
                   help="save attachments under DIR/<record id>/ and name them in saved_path")
    p.add_argument("--repair", action="store_true", help="repair mojibake in decoded text (reported)")
    p.add_argument("--jobs", "-j", type=at_least_one("--jobs"), default=1, metavar="N",
                   help="worker processes (default 1): shards of the input, written as they finish")
    p.set_defaults(run=run_export)


def run_export(args: argparse.Namespace) -> int:
    from ..message.containers import Found, walk
    from . import _pool

    if args.jobs > 1 and "-" in args.paths:
        print("onemail export: --jobs reads files and folders; standard input ('-') is read by "
              "this process alone: run without --jobs", file=sys.stderr)
        return USAGE
    if args.format == "parquet":
        if not args.output:
            print("onemail export: --format parquet needs -o FILE", file=sys.stderr)
            return 2
        from ..message.arrow import MissingExtra, import_pyarrow

        try:
            import_pyarrow()
        except MissingExtra as exc:
            print(f"onemail export: {exc}", file=sys.stderr)
            return 2
    if args.attachments is not None:
        problem = _folder_problem(args.attachments)
        if problem:
            print(f"onemail export: --attachments {_shown(args.attachments)}: {problem}", file=sys.stderr)
            return USAGE
    problem = _output_problem(args.output)
    if problem:  # the output cannot be created: a usage error, before any work
        print(f"onemail export: cannot write {_shown(args.output)}: {problem}", file=sys.stderr)
        return USAGE
    try:
        sink = _ParquetSink(args.output) if args.format == "parquet" else _JsonSink(args.output)
    except OSError as exc:  # created, but its first bytes could not be written (a full disk)
        print(f"onemail export: cannot write {_shown(args.output)}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    counts: Counter[str] = Counter()
    skipped: Counter[str] = Counter()
    failed = False
    code = None
    try:
        if args.jobs > 1 and _pool.usable_cpus() > 1:  # shards on a pool that survives its workers
            failed, code = export_paths(args, sink, counts, skipped)
        else:
            for item in walk(args.paths, repair=args.repair):
                if isinstance(item, Found):
                    records, bad = export_message(item, args.attachments, counts)
                    failed |= bad
                    for r in records:
                        sink.write(r)
                else:
                    failed |= report_skipped(item.reason, item.where, item.detail, skipped,
                                             named=item.named)
    finally:
        sink.close()
    line = (f"onemail export: {counts['messages']} messages, {counts['records']} records, "
            f"{counts['errors']} not readable")
    if args.attachments:
        line += f", {counts['saved']} attachments saved, {counts['unsaved']} not saved"
    if skipped:
        line += ", skipped: " + ", ".join(f"{n} {reason}" for reason, n in sorted(skipped.items()))
    print(line, file=sys.stderr)
    if code is not None:
        return code
    return 1 if failed else 0


def _folder_problem(path: str) -> str | None:
    """Create the attachments folder ``path`` when missing; return why it cannot take files
    (a file of that name, no permission), or ``None``: checked once before any work, so that a
    wrong ``--attachments`` is one error line, not one per attachment."""
    try:
        os.makedirs(path, exist_ok=True)
    except FileExistsError:
        return "not a folder"
    except OSError as exc:
        return f"cannot create it: {exc.strerror or exc}"
    if not os.access(path, os.W_OK | os.X_OK):
        return "not writable"
    return None


def report_skipped(reason: str, where: str, detail: str, skipped: Counter[str], *,
                   named: bool = False) -> bool:
    """Count and print one skipped item; return True when it is a failure
    (:func:`onemail.message.containers.skip_is_failure`, the rule of ``scan`` and ``read``
    too: input not read, or a path named on the command line, ``named``, that holds no mail)."""
    from ..message.containers import skip_is_failure

    skipped[reason] += 1
    detail = f" ({detail})" if detail else ""
    print(f"onemail export: skipped {_shown(where)}: {reason}{_shown(detail)}", file=sys.stderr)
    return skip_is_failure(reason, named=named)


def export_message(item: Found, attachments: str | None,
                   counts: Counter[str]) -> tuple[list[dict[str, Any]], bool]:
    """Return the records of one found message (its attachments saved under ``attachments``)
    and whether something failed; ``counts`` gets messages, records, errors, saved, unsaved."""
    from ..message.records import attachment_parts, build_records

    msg = item.message
    assert msg is not None, "walked with read=True"
    records = build_records(msg, item.source, saved_paths=attachments is not None)
    failed = msg.error is not None
    counts["messages"] += 1
    counts["records"] += len(records)
    counts["errors"] += failed  # a nested message's error is in its record, not counted here
    if attachments is not None:
        failed |= _save(records, attachment_parts(msg), attachments, counts)
    return records, failed


def _save(records: list[dict[str, Any]], parts: list[list[Part]], folder: str, counts: Counter[str]) -> bool:
    from ..message.attachments import write_inside

    failed = False
    for record, record_parts in zip(records, parts, strict=True):
        for entry, part in zip(record["attachments"], record_parts, strict=True):
            if entry["saved_path"] is None:
                continue
            try:
                write_inside(folder, entry["saved_path"], part.data)
                counts["saved"] += 1
            except (OSError, ValueError) as exc:
                print(f"onemail export: attachment {_shown(entry['saved_path'])} not saved: "
                      f"{_shown(str(getattr(exc, 'strerror', None) or exc))}", file=sys.stderr)
                entry["saved_path"] = None
                counts["unsaved"] += 1
                failed = True
    return failed


def _shown(text: str | None) -> str:
    from ._safe import escape_for_terminal

    return escape_for_terminal(text or "")


def json_line(record: dict[str, Any]) -> bytes:
    """One record as a line of JSON Lines, as :meth:`_JsonSink.write` writes it: UTF-8, compact,
    keys in the record's order, a lone surrogate (an undecodable path byte) as the escape
    ``\\udcXX``, terminal-safe (``_jsonout.dumps``); ends in a line feed. Whole in memory: for records without a long text
    (:func:`_long`), so ``json.dumps`` itself: the text :func:`~onemail._cli._jsonout.json_pieces`
    gives in pieces, made whole here anyway."""
    from ._jsonout import dumps

    return dumps(record, separators=(",", ":")).encode("utf-8", "backslashreplace") + b"\n"


def _long(record: dict[str, Any]) -> bool:
    """Whether a record holds a text that :meth:`_JsonSink.write` escapes a slice at a time (a
    string longer than ``_jsonout.LONG`` characters): a worker sends such a record itself, not
    its line, so that its escaped text is never whole in memory."""
    from ._jsonout import LONG

    return any(isinstance(v, str) and len(v) > LONG for v in record.values())


class _JsonSink:
    """JSON Lines, UTF-8, to a file or standard output."""

    def __init__(self, path: str | None) -> None:
        self.own = path is not None and path != "-"
        self.out: BinaryIO = open(path, "wb") if path is not None and self.own else sys.stdout.buffer  # noqa: SIM115 - closed in close()

    def write(self, record: dict[str, Any]) -> None:
        """Write one record and a line end (a long text a slice at a time: memory stays a small
        multiple of the record, escaping NULs as ``\\u0000`` or not)."""
        from ._jsonout import json_pieces

        for piece in json_pieces(record, separators=(",", ":")):
            self.out.write(piece.encode("utf-8", "backslashreplace"))
        self.out.write(b"\n")

    def write_lines(self, data: bytes) -> None:
        """Write records already made lines by :func:`json_line`."""
        self.out.write(data)

    def close(self) -> None:
        if self.own:
            self.out.close()
        else:
            self.out.flush()


def _output_problem(path: str | None) -> str | None:
    """Why the output file ``path`` cannot be created (``None``: it can, or it is standard output
    or an existing file that is no regular one, such as a FIFO or ``/dev/full``, which is opened
    only to be written). Creating it empties it, as writing it would."""
    if path is None or path == "-":
        return None
    try:
        if os.path.exists(path) and not stat.S_ISREG(os.stat(path).st_mode):
            return None
        with open(path, "wb"):
            pass
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


class _ParquetSink:
    """A Parquet file written in row groups of :data:`BATCH` records."""

    def __init__(self, path: str) -> None:
        from ..message.arrow import parquet_writer

        self.writer = parquet_writer(path)
        self.batch: list[dict[str, Any]] = []

    def write(self, record: dict[str, Any]) -> None:
        self.batch.append(record)
        if len(self.batch) >= BATCH:
            self.flush()

    def flush(self) -> None:
        from ..message.arrow import records_to_table

        if self.batch:
            self.writer.write_table(records_to_table(self.batch))
            self.batch = []

    def close(self) -> None:
        self.flush()
        self.writer.close()


# ---------------------------------------------------------------------------------------------
# --jobs


class Chunk(NamedTuple):
    """What a worker of ``export --jobs`` sends for up to :data:`CHUNK` walk items of a shard
    (messages and skips): ``messages`` read, their ``records`` (each a line made by
    :func:`json_line`, or the record itself: for Parquet, and a record with a long text), whether one ``failed``, the ``counts`` of
    :func:`export_message`, and the ``skipped`` items as ``(reason, where, detail, named)``."""

    messages: int
    records: list[bytes | dict[str, Any]]
    failed: bool
    counts: dict[str, int]
    skipped: list[tuple[str, str, str, bool]]


def export_work(shard: Any, *, attachments: str | None = None, repair: bool = False,
                lines: bool = True) -> Iterator[Chunk]:
    """``export``'s work in a worker: the walk items of ``shard`` in :class:`Chunk` s of
    :data:`CHUNK` items (attachments saved by the worker under ``attachments``; records made
    JSON Lines here when ``lines``, so that the parent only writes them)."""
    from ..message.containers import Found
    from ..message.shards import messages

    def chunk() -> Chunk:
        data: list[bytes | dict[str, Any]] = [
            r if not lines or _long(r) else json_line(r) for r in records]
        return Chunk(counts["messages"], data, failed, dict(counts), skips)

    n, records, failed, counts, skips = 0, [], False, Counter[str](), []
    for item in messages(shard, repair=repair):
        if isinstance(item, Found):
            got, bad = export_message(item, attachments, counts)
            records += got
            failed |= bad
        else:
            skips.append((item.reason, item.where, item.detail, item.named))
        n += 1
        if n == CHUNK:  # walk items, so that a retried shard cuts its chunks at the same places
            yield chunk()
            n, records, failed, counts, skips = 0, [], False, Counter[str](), []
    if n:
        yield chunk()


def export_paths(args: Any, sink: _JsonSink | _ParquetSink, counts: Counter[str],
                 skipped: Counter[str]) -> tuple[bool, int | None]:
    """Run ``onemail export --jobs N``: shards of ``args.paths`` (no ``-``) on the pool, each
    chunk of records written by ``sink`` in this process as it arrives (complete records only),
    skipped items reported as the sequential export reports them.

    :returns: ``(failed, exit code or None)``: the code is 130 / 143 after SIGINT / SIGTERM, 1
        after a failed shard or a lost worker (each printed on standard error).
    """
    import functools

    from . import _pool

    failed = False
    lines = isinstance(sink, _JsonSink)

    def on_items(shard: Any, items: list[Chunk]) -> None:
        nonlocal failed
        for chunk in items:
            for r in chunk.records:
                if isinstance(r, bytes):
                    if isinstance(sink, _JsonSink):
                        sink.write_lines(r)
                else:
                    sink.write(r)
            counts.update(chunk.counts)
            failed |= chunk.failed
            for reason, where, detail, named in chunk.skipped:
                failed |= report_skipped(reason, where, detail, skipped, named=named)

    jobs = min(args.jobs, _pool.usable_cpus())
    work = functools.partial(export_work, attachments=args.attachments, repair=args.repair, lines=lines)
    bar = _pool.Progress() if sys.stderr.isatty() else None
    out = _pool.run(_pool.plan(args.paths, jobs), work,
                    jobs=jobs, on_items=on_items, progress=bar, batch=1, size=_chunk_messages)
    if bar is not None:
        bar.done()
    say = functools.partial(print, file=sys.stderr)
    if out.lost_workers:
        say(f"onemail export: workers lost {out.lost_workers}, shards retried {out.retried}")
    for f in out.failed:
        say(f"onemail export: failed shard {_shown(_pool.shard_place(f.shard))}: {f.error}")
    for shard, n in zip(out.unfinished, out.unfinished_delivered, strict=True):
        written = f" ({n} message{'' if n == 1 else 's'} of it written)" if n else ""
        say(f"onemail export: unfinished shard {_shown(_pool.shard_place(shard))}{written}")
    if out.interrupted is not None:
        say(f"onemail export: interrupted by {out.interrupted.name}: every record written is a "
            "complete line, of the shards read to their end and the messages written of the "
            "unfinished ones")
        return True, _pool.EXIT_INTERRUPTED[out.interrupted]
    if out.failed or out.lost_workers:
        return True, 1
    return failed, None


def _chunk_messages(chunk: Chunk) -> int:
    return chunk.messages
