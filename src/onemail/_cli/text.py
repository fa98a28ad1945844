"""``onemail decode``: decode a file with a charset label and list the issues."""

from __future__ import annotations

import argparse
import sys

from ._exits import add_command
from ._jsonout import dumps
from ._safe import for_stream


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = add_command(sub, "decode", help="decode FILE with a charset label; print the text and issues",
                    unread="FILE could not be read")
    p.add_argument("file", help="file to decode ('-' for standard input)")
    p.add_argument("--charset", "-c", required=True, metavar="LABEL",
                   help="charset label (WHATWG, mail-only or Windows code page spelling)")
    p.add_argument("--json", action="store_true", help="print JSON: text, charset, issues")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..text import decode

    try:
        if args.file == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(args.file, "rb") as f:
                data = f.read()
    except OSError as exc:
        print(f"onemail: {exc}", file=sys.stderr)
        return 1
    result = decode(data, args.charset)
    if args.json:
        sys.stdout.write(dumps({"charset": result.charset.name, "text": result.text,
                   "issues": [i.to_json() for i in result.issues]}))
        sys.stdout.write("\n")
        return 0
    sys.stdout.write(for_stream(result.text, sys.stdout))
    if result.text and not result.text.endswith("\n"):
        sys.stdout.write("\n")
    print(f"-- charset: {result.charset.name}; {len(result.issues)} issue(s)", file=sys.stderr)
    for issue in result.issues[:50]:
        print(f"   {issue.kind.value} at byte {issue.offset}, {issue.length} byte(s)", file=sys.stderr)
    return 0
