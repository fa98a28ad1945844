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
import sys
from collections import Counter
from typing import TYPE_CHECKING, Any, BinaryIO

from ._exits import USAGE, add_command, at_least_one

if TYPE_CHECKING:
    from ..message.model import Part
    from ..message.source import Found, Skipped

BATCH = 1000
"""Records per Parquet row group (and per Arrow table built): memory stays bounded by a batch."""

#: Skip reasons that are no failure: what is not mail is counted, not an error.
_NOT_FAILURES = frozenset({"not-mail", "empty", "not-message"})


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
    try:
        sink = _ParquetSink(args.output) if args.format == "parquet" else _JsonSink(args.output)
    except OSError as exc:
        print(f"onemail export: cannot write {_shown(args.output)}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    counts: Counter[str] = Counter()
    skipped: Counter[str] = Counter()
    failed = False
    code = None
    try:
        if args.jobs > 1:  # shards on a pool that survives its workers (onemail._cli._pool)
            from ._pool import export_paths

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
                                             named=is_named(item))
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
    """Count and print one skipped item; return True when it is a failure: a reason outside
    ``_NOT_FAILURES``, or a path named on the command line (``named``: not a member of a folder,
    archive or PST) that holds no mail (``not-mail``, ``empty``), as in ``scan`` and ``read``."""
    skipped[reason] += 1
    detail = f" ({detail})" if detail else ""
    print(f"onemail export: skipped {_shown(where)}: {reason}{_shown(detail)}", file=sys.stderr)
    return reason not in _NOT_FAILURES or (named and reason in ("not-mail", "empty"))


def is_named(item: Skipped) -> bool:
    """True when ``item`` is a path as named on the command line, not a piece inside it."""
    return item.member is None and item.folder is None


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

    def close(self) -> None:
        if self.own:
            self.out.close()
        else:
            self.out.flush()


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
