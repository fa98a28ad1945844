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

Exit codes: 0 every input was read; 1 something was not: an unreadable or damaged input, a
limit met, an input that needs a missing extra, a message that could not be read (its record has
``error``), an attachment not written (the other records are still written); 2 a usage error
(bad options, ``--format parquet`` without ``-o`` or without pyarrow, an output file that cannot
be created).
"""

from __future__ import annotations

import json
import sys
from collections import Counter

BATCH = 1000
"""Records per Parquet row group (and per Arrow table built): memory stays bounded by a batch."""

#: Skip reasons that are no failure: what is not mail is counted, not an error.
_NOT_FAILURES = frozenset({"not-mail", "empty", "not-message"})


def add_parser(sub) -> None:
    p = sub.add_parser(
        "export", help="write one record per message (JSON Lines or Parquet), attachments on disk",
        description="Write one record per message found under PATHs (files, folders, - for "
                    "standard input; containers recognised by content) as JSON Lines (default, to "
                    "standard output) or Parquet. Exit codes: 0 all read, 1 some input not read "
                    "(reported; the rest written), 2 usage.")
    p.add_argument("paths", nargs="+", metavar="PATH", help="files, folders, or - for standard input")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE (default: standard output)")
    p.add_argument("--format", choices=("jsonl", "parquet"), default="jsonl",
                   help="jsonl (default) or parquet (needs -o and onemail[parquet])")
    p.add_argument("--attachments", metavar="DIR",
                   help="save attachments under DIR/<record id>/ and name them in saved_path")
    p.add_argument("--repair", action="store_true", help="repair mojibake in decoded text (reported)")
    p.set_defaults(run=run_export)


def run_export(args) -> int:
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
    try:
        sink = _ParquetSink(args.output) if args.format == "parquet" else _JsonSink(args.output)
    except OSError as exc:
        print(f"onemail export: cannot write {_shown(args.output)}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    counts: Counter = Counter()
    skipped: Counter = Counter()
    failed = False
    try:
        for item in walk(args.paths, repair=args.repair):
            if isinstance(item, Found):
                failed |= _export_message(item, args.attachments, sink, counts)
            else:
                skipped[item.reason] += 1
                failed |= item.reason not in _NOT_FAILURES
                detail = f" ({item.detail})" if item.detail else ""
                print(f"onemail export: skipped {_shown(item.where)}: {item.reason}{_shown(detail)}",
                      file=sys.stderr)
    finally:
        sink.close()
    line = (f"onemail export: {counts['messages']} messages, {counts['records']} records, "
            f"{counts['errors']} not readable")
    if args.attachments:
        line += f", {counts['saved']} attachments saved, {counts['unsaved']} not saved"
    if skipped:
        line += ", skipped: " + ", ".join(f"{n} {reason}" for reason, n in sorted(skipped.items()))
    print(line, file=sys.stderr)
    return 1 if failed else 0


def _export_message(item, attachments: str | None, sink, counts: Counter) -> bool:
    """Write the records of one found message; return True when something failed."""
    from ..message.records import attachment_parts, build_records

    msg = item.message
    records = build_records(msg, item.source, saved_paths=attachments is not None)
    failed = msg.error is not None
    counts["messages"] += 1
    counts["records"] += len(records)
    counts["errors"] += failed  # a nested message's error is in its record, not counted here
    if attachments is not None:
        failed |= _save(records, attachment_parts(msg), attachments, counts)
    for r in records:
        sink.write(r)
    return failed


def _save(records: list[dict], parts: list, folder: str, counts: Counter) -> bool:
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
        self.out = open(path, "wb") if self.own else sys.stdout.buffer  # noqa: SIM115 - closed in close()

    def write(self, record: dict) -> None:
        line = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
        self.out.write(line.encode("utf-8", "backslashreplace") + b"\n")

    def close(self) -> None:
        if self.own:
            self.out.close()
        else:
            self.out.flush()


class _ParquetSink:
    """A Parquet file written in row groups of :data:`BATCH` records."""

    def __init__(self, path: str) -> None:
        import pyarrow.parquet as pq

        from ..message.arrow import record_schema

        self.writer = pq.ParquetWriter(path, record_schema())
        self.batch: list[dict] = []

    def write(self, record: dict) -> None:
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
