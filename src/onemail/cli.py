"""The ``onemail`` command line: ``main(argv) -> int`` (0 done, 1 some input unreadable or the
output could not be written, 2 usage, 130 / 143 stopped by SIGINT / SIGTERM).

A stop by Ctrl-C (SIGINT) or SIGTERM, in any command, unwinds the command (so an output file
is closed: a Parquet file keeps the row groups written) and ends with one line on standard
error, never a traceback. An output that cannot be written (a full disk, ``EIO``) is one error
line and exit code 1; a closed pipe (``onemail export ... | head``) ends the command quietly.

Each area adds its subcommands from a module in :mod:`onemail._cli` that defines
``add_parser(subparsers)``; the chosen subcommand's ``run(args) -> int`` does the work.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import signal
import sys
import threading
from collections.abc import Callable

from . import __version__


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser with every subcommand of :mod:`onemail._cli`."""
    from ._cli import HelpFormatter, exit_table

    parser = argparse.ArgumentParser(
        prog="onemail",
        description="Turn the bytes of e-mail into correct text, and say what had to be repaired.",
        epilog=exit_table(unread="some input could not be read (reported)"), formatter_class=HelpFormatter,
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
    previous = _catch_sigterm()
    try:
        code = run(args)
        sys.stdout.flush()  # a full disk shows here at the latest, not at interpreter exit
        return code
    except KeyboardInterrupt:
        return _stopped("SIGINT", 130)
    except Terminated:
        return _stopped("SIGTERM", 143)
    except BrokenPipeError:
        _quiet_stdout()
        return 0
    except OSError as exc:  # writing the output failed (ENOSPC, EIO); readers never raise
        _quiet_stdout()
        print(f"onemail: error: cannot write the output: {exc.strerror or exc}", file=sys.stderr)
        return 1
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


class Terminated(BaseException):
    """Raised in the main thread by SIGTERM while a command runs (a ``BaseException``, like
    :class:`KeyboardInterrupt`, so no ``except Exception`` of a command swallows it)."""


def _raise_terminated(signum: int, frame: object) -> None:
    raise Terminated


def _catch_sigterm() -> signal.Handlers | Callable[..., object] | int | None:
    """Make SIGTERM raise :class:`Terminated` (the worker pool of ``--jobs`` puts its own handler
    in place while it runs); return the previous handler, or ``None`` off the main thread."""
    if threading.current_thread() is not threading.main_thread():
        return None
    previous = signal.getsignal(signal.SIGTERM)
    signal.signal(signal.SIGTERM, _raise_terminated)
    return previous


def _stopped(name: str, code: int) -> int:
    try:
        sys.stdout.flush()
    except OSError:
        _quiet_stdout()
    print(f"onemail: stopped by {name}", file=sys.stderr)
    return code


def _quiet_stdout() -> None:
    """Point standard output at /dev/null so that the interpreter's final flush of a closed pipe
    or a full disk prints nothing more."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


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
