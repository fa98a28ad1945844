"""The ``onemail`` command line: ``main(argv) -> int`` (0 done, 1 some input unreadable, 2 usage).

Each area adds its subcommands from a module in :mod:`onemail._cli` that defines
``add_parser(subparsers)``; the chosen subcommand's ``run(args) -> int`` does the work.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Callable

from . import __version__


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser with every subcommand of :mod:`onemail._cli`."""
    parser = argparse.ArgumentParser(
        prog="onemail",
        description="Turn the bytes of e-mail into correct text, and say what had to be repaired.",
    )
    parser.add_argument("--version", action="version", version=f"onemail {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    from . import _cli

    for info in sorted(pkgutil.iter_modules(_cli.__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        importlib.import_module(f"{_cli.__name__}.{info.name}").add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); return the exit code."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on usage errors, 0 on --help/--version
        return int(exc.code or 0)
    if not getattr(args, "run", None):
        parser.print_help(sys.stderr)
        return 2
    _tolerant_streams()
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except BrokenPipeError:
        return 0


def _tolerant_streams() -> None:
    """Never fail on a byte or a character the locale's encoding lacks: standard input keeps
    undecodable bytes as surrogate escapes (``onemail repair -`` of Latin-1 text), standard
    output and error write a character they cannot encode, such as the surrogate escape of a
    file name's byte, as a backslash escape (``\\udcff``; inside JSON strings a valid escape)."""
    for stream, errors in ((sys.stdin, "surrogateescape"), (sys.stdout, "backslashreplace"),
                           (sys.stderr, "backslashreplace")):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors=errors)
            except (ValueError, OSError):  # a stream already read from or closed: left alone
                pass


if __name__ == "__main__":
    sys.exit(main())
