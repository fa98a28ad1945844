"""The exit codes of every ``onemail`` command, and the table that ends each command's ``--help``.

One table for the whole command line (``docs/cli.md``, "Exit codes"):

====  =======================================================================================
0     done
1     some input could not be read, or the output could not be written (each is reported;
      the rest was done)
2     a usage error: bad options or arguments, found before any work is done where the
      arguments alone show it (``read --index`` past the last message, ``export
      --attachments`` naming a file, an unknown ``--fallback`` charset)
130   stopped by SIGINT (Ctrl-C)
143   stopped by SIGTERM
====  =======================================================================================

:func:`add_command` adds a subcommand whose ``--help`` ends with the codes it can give, each
with what it means for that command (:data:`CODES` holds the general wording).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

DONE = 0
"""Exit code: done."""
UNREAD = 1
"""Exit code: some input could not be read, or the output could not be written."""
USAGE = 2
"""Exit code: a usage error (bad options or arguments)."""
SIGINT_EXIT = 130
"""Exit code: stopped by SIGINT (Ctrl-C)."""
SIGTERM_EXIT = 143
"""Exit code: stopped by SIGTERM."""

CODES: dict[int, str] = {
    DONE: "done",
    UNREAD: "some input could not be read, or the output could not be written (reported)",
    USAGE: "a usage error (bad options or arguments)",
    SIGINT_EXIT: "stopped by SIGINT (Ctrl-C)",
    SIGTERM_EXIT: "stopped by SIGTERM",
}
"""Every exit code of the command line, with its general meaning (``docs/cli.md``)."""

_HEADING = "exit codes:"


def exit_table(*, unread: str | None, usage: str | None = None) -> str:
    """Return the ``exit codes:`` table of one command's ``--help`` (text, one code a line).

    :param unread: what input exit code 1 stands for with the command (``None``: it reads none
        that can fail); an output that cannot be written is code 1 in every command.
    :param usage: what exit code 2 means for it (default: :data:`CODES`'s wording).
    """
    one = f"{unread}, or the output could not be written" if unread else "the output could not be written"
    rows = [(DONE, CODES[DONE]), (UNREAD, one), (USAGE, usage or CODES[USAGE]),
            (SIGINT_EXIT, CODES[SIGINT_EXIT]), (SIGTERM_EXIT, CODES[SIGTERM_EXIT])]
    return _HEADING + "\n" + "".join(f"{code:<5}{text}\n" for code, text in rows)


class HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, with the ``exit codes:`` table kept as a table (a code a row, its
    text wrapped under itself); the description and the rest are wrapped as usual."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if not text.startswith(_HEADING):
            return super()._fill_text(text, width, indent)
        import textwrap

        rows = [_HEADING]
        for line in text.splitlines()[1:]:
            rows += textwrap.wrap(line, width, initial_indent=indent + "  ",
                                  subsequent_indent=indent + "  " + " " * _CODE_WIDTH)
        return "\n".join(rows)


_CODE_WIDTH = 5


def at_least_one(option: str) -> Callable[[str], int]:
    """An argparse ``type=`` for ``option`` (``"--jobs"``): a whole number of at least 1, else
    the usage error (exit code 2) naming the option."""
    def parse(value: str) -> int:
        try:
            n = int(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {value!r}") from None
        if n < 1:
            raise argparse.ArgumentTypeError(f"{option} must be at least 1")
        return n

    return parse


def add_command(sub: argparse._SubParsersAction[argparse.ArgumentParser], name: str, *,
                help: str, unread: str | None, usage: str | None = None,  # noqa: A002 - argparse's word
                **kwargs: Any) -> argparse.ArgumentParser:
    """``sub.add_parser(name, help=help, **kwargs)`` whose ``--help`` ends with its exit codes
    (:func:`exit_table` of ``unread`` and ``usage``); the description defaults to ``help``."""
    kwargs.setdefault("description", help[:1].upper() + help[1:] + ".")
    return sub.add_parser(name, help=help, epilog=exit_table(unread=unread, usage=usage),
                          formatter_class=HelpFormatter, **kwargs)
