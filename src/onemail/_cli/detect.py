"""``onemail detect FILE...`` and ``onemail repair TEXT``: charset detection and mojibake repair."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ._exits import add_command
from ._jsonout import dumps
from ._safe import escape_for_terminal, for_stream

if TYPE_CHECKING:
    from ..detect import ScanRow


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = add_command(sub, "detect", help="detect the charset of files (folders are walked)",
                    unread="some file or folder could not be read (its line says why)")
    p.add_argument("paths", nargs="+", metavar="FILE", help="files or folders ('-' reads standard input)")
    p.add_argument("--json", action="store_true", help="print one JSON object per file")
    p.set_defaults(run=run_detect)
    r = add_command(sub, "repair", help="repair mojibake in TEXT and show the chain", unread=None)
    r.add_argument("text", metavar="TEXT", help="the text ('-' reads standard input)")
    r.add_argument("--json", action="store_true", help="print JSON: text, chain, steps")
    r.set_defaults(run=run_repair)


def _rows(paths: list[str]) -> Iterator[ScanRow]:
    """The rows of ``paths`` in order; ``-`` is standard input, read once (through a temporary
    file, so that it is scanned as any file is)."""
    import dataclasses
    import tempfile

    from ..detect import scan

    batch: list[str] = []
    for p in paths:
        if p != "-":
            batch.append(p)
            continue
        yield from scan(batch)
        batch = []
        with tempfile.NamedTemporaryFile(prefix="onemail-stdin-") as tmp:
            tmp.write(sys.stdin.buffer.read())
            tmp.flush()
            for row in scan([tmp.name]):
                yield dataclasses.replace(row, path="-")
    yield from scan(batch)


def run_detect(args: argparse.Namespace) -> int:
    status = 0
    for row in _rows(args.paths):
        if row.error:
            status = 1
        if args.json:
            print(dumps(row.to_json()))
            continue
        path = escape_for_terminal(row.path)  # a file name can hold line ends and escapes
        if row.error:
            print(f"{path}: unreadable ({escape_for_terminal(row.error)})")
        elif row.binary:
            print(f"{path}: binary")
        else:
            extra = f", mojibake ({row.chain})" if row.repaired else ""
            print(f"{path}: {row.charset} (confidence {row.confidence}){extra}")
    return status


def run_repair(args: argparse.Namespace) -> int:
    from ..detect import render_chain, repair

    text = sys.stdin.read() if args.text == "-" else args.text
    fixed = repair(text)
    if args.json:
        print(dumps({"text": fixed.text, "chain": render_chain(fixed.steps),
                          "steps": [list(s) for s in fixed.steps]}))
        return 0
    print(for_stream(fixed.text, sys.stdout))
    print(f"-- {render_chain(fixed.steps) or 'no repair'}", file=sys.stderr)
    return 0
