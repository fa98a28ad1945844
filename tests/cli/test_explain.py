"""``onemail explain``: every kind has a meaning; Ambiguous kinds print their register entry."""

from __future__ import annotations

import subprocess
import sys

import pytest

from onemail._cli import explain
from onemail._register import ENTRIES
from onemail.cli import main
from onemail.message import MessageIssueKind
from onemail.rtf import RtfDefectKind
from onemail.text import IssueKind

ALL = [k for e in (IssueKind, RtfDefectKind, MessageIssueKind) for k in e]


def test_the_meanings_table_holds_exactly_the_kinds_of_the_three_enums():
    assert sorted(explain.MEANINGS) == sorted(k.value for k in ALL)
    assert all(m.strip() and m.endswith(".") for m in explain.MEANINGS.values())


@pytest.mark.parametrize("kind", ALL, ids=lambda k: k.value)
def test_every_kind_explains(kind, capsys):
    assert main(["explain", kind.value]) == 0
    out = capsys.readouterr().out
    head = f"{kind.value} ({explain.qualified_name(kind)}): "
    assert out.startswith(head)
    assert " ".join(explain.MEANINGS[kind.value].split()) in " ".join(out.split())
    if kind.is_ambiguous:
        title, body = ENTRIES[kind.ambiguity]
        assert f"\n{kind.ambiguity} {title}  (docs/ambiguities.md)\n{body}\n" in out
        assert head + f"documented resolution, register entry {kind.ambiguity}\n" in out
    else:
        assert out.startswith(head + "damage\n")


def test_an_ambiguous_kind_prints_its_entry_then_the_others_naming_it(capsys):
    assert main(["explain", "AmbiguousRaw8Bit"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("AmbiguousRaw8Bit (onemail.text.IssueKind.AMBIGUOUS_RAW_8BIT): "
                          "documented resolution, register entry T51\n\nRaw 8-bit bytes where ")
    t51 = out.index("\nT51 Raw 8-bit text in headers and parameters (`AmbiguousRaw8Bit`)  "
                    "(docs/ambiguities.md)\n- **Input**: ")
    m9 = out.index("\nM9 The charset of raw 8-bit header text (`AmbiguousRaw8Bit`)  "
                   "(docs/ambiguities.md)\n")
    assert t51 < m9
    assert explain.entries_naming(IssueKind.AMBIGUOUS_RAW_8BIT) == ["T51", "M9"]


def test_a_damage_kind_named_by_an_entry_prints_it(capsys):
    assert explain.entries_naming(MessageIssueKind.MESSAGE_NESTING_LIMIT_EXCEEDED) == ["M7"]
    assert explain.entries_naming(IssueKind.INVALID_UTF8) == []
    assert main(["explain", "MessageNestingLimitExceeded"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("MessageNestingLimitExceeded "
                          "(onemail.message.MessageIssueKind.MESSAGE_NESTING_LIMIT_EXCEEDED): damage\n")
    assert "\nM7 Nesting cut at a depth cap (`MessageNestingLimitExceeded`)" in out


@pytest.mark.parametrize("spelling", ["InvalidUtf8", "INVALID_UTF8", "invalidutf8", "invalid_utf8"])
def test_kind_spellings(spelling):
    assert explain.find_kind(spelling) is IssueKind.INVALID_UTF8


def test_rtf_and_text_nesting_kinds_stay_apart():
    assert explain.find_kind("NestingLimitExceeded") is RtfDefectKind.NESTING_LIMIT_EXCEEDED
    assert (explain.find_kind("MessageNestingLimitExceeded")
            is MessageIssueKind.MESSAGE_NESTING_LIMIT_EXCEEDED)


def test_a_register_id_prints_its_entry(capsys):
    assert main(["explain", "rt29"]) == 0
    out = capsys.readouterr().out
    title, body = ENTRIES["RT29"]
    assert out == f"RT29 {title}  (docs/ambiguities.md)\n{body}\n"


def test_unknown_kind_exits_2_with_close_matches(capsys):
    assert main(["explain", "InvalidUtf9"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        "onemail explain: unknown issue kind 'InvalidUtf9'; close matches: InvalidUtf8, "
        "InvalidUtf7, InvalidUtf32, InvalidUtf16, InvalidImapUtf7 "
        "(onemail explain --list lists every kind)\n")


def test_unknown_kind_without_close_matches(capsys):
    assert main(["explain", "Zzz"]) == 2
    assert capsys.readouterr().err == (
        "onemail explain: unknown issue kind 'Zzz' (onemail explain --list lists every kind)\n")


def test_no_kind_and_kind_with_list_are_usage_errors(capsys):
    assert main(["explain"]) == 2
    assert "give an issue kind" in capsys.readouterr().err
    assert main(["explain", "--list", "InvalidUtf8"]) == 2
    assert "not both" in capsys.readouterr().err


def test_list_names_every_kind_once_under_its_enum(capsys):
    assert main(["explain", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    headings = [line for line in lines if not line.startswith("  ")]
    assert headings == ["onemail.text.IssueKind:", "onemail.rtf.RtfDefectKind:",
                        "onemail.message.MessageIssueKind:"]
    rows = [line.split() for line in lines if line.startswith("  ")]
    assert [r[0] for r in rows] == [k.value for k in ALL]
    assert {r[0]: (r[1] if len(r) > 1 else None) for r in rows} == {k.value: k.ambiguity for k in ALL}


def test_explain_runs_from_the_installed_package_without_the_docs_folder(tmp_path):
    """The register ships in the package: explain works from any directory."""
    r = subprocess.run([sys.executable, "-m", "onemail", "explain", "AmbiguousUnknownCodePage"],
                       capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "\nRT29 Unknown code pages (`AmbiguousUnknownCodePage`)  (docs/ambiguities.md)\n" in r.stdout
