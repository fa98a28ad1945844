"""``onemail.cli``: the subcommands found in onemail._cli, exit codes, --version.

``python -m onemail`` and the console script: tests/house/test_packaging.py."""

from __future__ import annotations

import pytest

from onemail import __version__
from onemail.cli import build_parser, main

COMMANDS = ["decode", "detect", "explain", "export", "header", "param", "read", "repair", "rtf", "scan"]


def test_every_public_module_of_onemail_cli_adds_its_commands(capsys):
    usage = build_parser().format_help()
    listed = usage.split("positional arguments:", 1)[1].split("options:", 1)[0]
    names = [line.split()[0] for line in listed.splitlines() if line.startswith("    ") and line.strip()
             and not line.startswith("     ")]
    assert sorted(names) == COMMANDS
    for name in COMMANDS:
        assert main([name, "--help"]) == 0
    assert capsys.readouterr().out.count("usage: onemail ") == len(COMMANDS)


def test_no_command_prints_help_and_exits_2(capsys):
    assert main([]) == 2
    assert capsys.readouterr().err.startswith("usage: onemail")


@pytest.mark.parametrize(("argv", "code"), [(["--version"], 0), (["--help"], 0), (["no-such-command"], 2)])
def test_argparse_exits_become_return_codes(argv, code, capsys):
    assert main(argv) == code
    if argv == ["--version"]:
        assert capsys.readouterr().out == f"onemail {__version__}\n"
