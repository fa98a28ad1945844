"""``onemail header TEXT`` and ``onemail param VALUE``: decode a header value and list the issues.

``header`` decodes unstructured header text with its RFC 2047 encoded words
(:func:`onemail.text.rfc2047.decode_text`); ``param`` splits a Content-Type / Content-Disposition
value and resolves its RFC 2231 parameters (:func:`onemail.text.rfc2231.parse_header_params`).
TEXT / VALUE is taken as given on the command line (its UTF-8 bytes, with ``surrogateescape``
for undecodable bytes of the argument); ``-`` reads raw bytes from standard input.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ._exits import add_command
from ._jsonout import dumps
from ._safe import escape_for_terminal

if TYPE_CHECKING:
    from ..text import TextIssue


_FALLBACK_USAGE = "a usage error: bad options, or an unknown --fallback charset"


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = add_command(sub, "header", help="decode header text with RFC 2047 encoded words", unread=None,
                    usage=_FALLBACK_USAGE)
    p.add_argument("text", help="the header value after the colon ('-' for standard input)")
    p.add_argument("--fallback", default="windows-1252", metavar="LABEL",
                   help="charset for plain 8-bit text that is not UTF-8 (default windows-1252)")
    p.add_argument("--json", action="store_true", help="print JSON: text, issues")
    p.set_defaults(run=run_header)
    q = add_command(sub, "param", help="split a Content-Type/-Disposition value, RFC 2231 parameters",
                    unread=None, usage=_FALLBACK_USAGE)
    q.add_argument("value", help="the header value after the colon ('-' for standard input)")
    q.add_argument("--fallback", default="windows-1252", metavar="LABEL",
                   help="charset for 8-bit values that are not UTF-8 (default windows-1252)")
    q.add_argument("--json", action="store_true",
                   help="print JSON: value, parameters (name, value, charset, language, method, issues)")
    q.set_defaults(run=run_param)


def _input(arg: str) -> bytes:
    if arg == "-":
        data = sys.stdin.buffer.read()
        return data[:-2] if data.endswith(b"\r\n") else data[:-1] if data.endswith(b"\n") else data
    return os.fsencode(arg)


def _check_fallback(label: str) -> bool:
    from ..text import for_label

    if for_label(label) is None:
        print(f"onemail: unknown fallback charset {label!r}", file=sys.stderr)
        return False
    return True


def _print_issues(issues: Iterable[TextIssue], indent: str = "") -> None:
    for i in issues:
        print(f"{indent}{i.kind.value} at byte {i.offset}, {i.length} byte(s)")


def run_header(args: argparse.Namespace) -> int:
    from ..text.rfc2047 import decode_text

    if not _check_fallback(args.fallback):
        return 2
    issues: list[TextIssue] = []
    text = decode_text(_input(args.text), fallback=args.fallback, issues=issues)
    if args.json:
        sys.stdout.write(dumps({"text": text, "issues": [i.to_json() for i in issues]}))
        sys.stdout.write("\n")
        return 0
    print(escape_for_terminal(text))
    _print_issues(issues)
    return 0


def run_param(args: argparse.Namespace) -> int:
    from ..text.rfc2231 import parse_header_params

    if not _check_fallback(args.fallback):
        return 2
    main, params = parse_header_params(_input(args.value), fallback=args.fallback)
    if args.json:
        sys.stdout.write(dumps({"value": main, "parameters": [
            {"name": p.name, "value": p.value, "charset": p.charset, "language": p.language,
             "method": p.method, "issues": [i.to_json() for i in p.issues]} for p in params]}))
        sys.stdout.write("\n")
        return 0
    print(escape_for_terminal(main))
    for p in params:
        extra = ", ".join(x for x in (p.method, p.charset and f"charset {p.charset}",
                                      p.language and f"language {p.language}") if x)
        # repr() already escapes every non-printable character of the value
        print(f"  {escape_for_terminal(p.name)} = {p.value!r} ({escape_for_terminal(extra)})")
        _print_issues(p.issues, "    ")
    return 0
