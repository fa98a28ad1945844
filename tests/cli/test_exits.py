"""``onemail._cli._exits``: one exit-code table (docs/cli.md), ended by every command's --help,
and commands that keep to it (usage errors are 2, found before any work)."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from onemail._cli._exits import CODES, HelpFormatter, exit_table
from onemail.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "jpmobile-docomo-jis.eml"


def _parsers() -> list[tuple[str, argparse.ArgumentParser]]:
    """``onemail`` and every command and subcommand under it, by name."""
    out = []
    todo = [("onemail", build_parser())]
    while todo:
        name, parser = todo.pop()
        out.append((name, parser))
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                todo += [(f"{name} {n}", c) for n, c in action.choices.items()]
    return out


def _documented() -> set[int]:
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    table = text.split("## Exit codes", 1)[1].split("\n## ", 1)[0]
    return {int(m) for m in re.findall(r"^\| (\d+) \|", table, re.M)}


def test_the_documented_table_is_the_code_table():
    assert _documented() == set(CODES) == {0, 1, 2, 130, 143}


def test_every_command_and_subcommand_lists_its_exit_codes():
    parsers = _parsers()
    names = {name for name, _ in parsers}
    assert {"onemail detect", "onemail read", "onemail export", "onemail rtf decompress",
            "onemail rtf html", "onemail explain"} <= names
    assert len(parsers) == 15
    for name, parser in parsers:
        help_text = parser.format_help()
        assert "\nexit codes:\n" in help_text, name
        table = help_text.split("\nexit codes:\n", 1)[1]
        codes = [int(m) for m in re.findall(r"^  (\d+) ", table, re.M)]
        assert codes == [0, 1, 2, 130, 143], name


def test_the_table_wraps_under_its_text():
    parser = argparse.ArgumentParser(prog="x", epilog=exit_table(unread="word " * 30),
                                     formatter_class=HelpFormatter)
    lines = parser.format_help().split("exit codes:\n", 1)[1].splitlines()
    assert lines[0].startswith("  0    done")
    assert lines[2].startswith("       word")  # the text of code 1 goes on under itself
    assert all(len(line) <= 80 for line in lines)


def test_detect_help_gives_the_exit_codes(capsys):
    assert main(["detect", "--help"]) == 0
    out = capsys.readouterr().out
    assert "exit codes:\n  0    done\n  1    some file or folder could not be read" in out


def test_read_index_past_the_last_message_is_a_usage_error(capsys):
    assert main(["read", "--index", "999", str(EXAMPLE)]) == 2
    assert capsys.readouterr().err == f"onemail read: error: --index 999, but {EXAMPLE} holds 1 message\n"


def test_export_attachments_naming_a_file_is_one_line_and_exit_2(tmp_path, capsys):
    not_a_folder = tmp_path / "file"
    not_a_folder.write_bytes(b"x")
    out = tmp_path / "out.jsonl"
    assert main(["export", "--attachments", str(not_a_folder), "-o", str(out),
                 str(ROOT / "examples")]) == 2
    assert capsys.readouterr().err == f"onemail export: --attachments {not_a_folder}: not a folder\n"
    assert not out.exists()  # refused before any work
    inside_a_file = not_a_folder / "sub"
    assert main(["export", "--attachments", str(inside_a_file), str(EXAMPLE)]) == 2
    assert capsys.readouterr().err == (f"onemail export: --attachments {inside_a_file}: "
                                       "cannot create it: Not a directory\n")


def test_rtf_decompress_negative_limit_is_usage_before_reading(tmp_path, capsys):
    assert main(["rtf", "decompress", "--max-output", "-1", str(tmp_path / "missing")]) == 2
    assert "--max-output must be >= 0" in capsys.readouterr().err


def test_paths_in_a_folder_given_with_a_slash_show_one_slash(tmp_path, capsys):
    folder = f"{ROOT / 'examples'}/"
    assert main(["scan", folder]) == 0
    out = capsys.readouterr().out
    assert f"    {ROOT / 'examples' / 'NOTICE'}: no message" in out and "//" not in out
    assert main(["export", "-o", str(tmp_path / "out.jsonl"), folder]) == 0
    err = capsys.readouterr().err
    assert f"onemail export: skipped {ROOT / 'examples' / 'NOTICE'}: not-mail" in err and "//" not in err


@pytest.mark.parametrize("argv", [["export", "--jobs", "0", "x"], ["scan", "--jobs", "-1", "x"],
                                  ["read", "--index", "0", "x"], ["export", "--jobs", "two", "x"]])
def test_counts_below_one_are_the_same_usage_error_everywhere(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"usage: onemail {argv[0]} ") and f"onemail {argv[0]}: error: argument " in err
