"""One issue vocabulary: text, RTF and message kinds with disjoint values and one protocol."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from onemail.message import MessageIssue, MessageIssueKind, kind_for_value
from onemail.rtf import RtfDefect, RtfDefectKind
from onemail.text import IssueKind, TextIssue

ENUMS = (IssueKind, RtfDefectKind, MessageIssueKind)
REGISTER = Path(__file__).resolve().parents[2] / "docs" / "ambiguities.md"
ALL = [k for e in ENUMS for k in e]


def _entries() -> dict[str, str]:
    """Register id -> the text of its entry (heading and body)."""
    text = REGISTER.read_text(encoding="utf-8")
    out = {}
    for m in re.finditer(r"^#{3,4} ((?:T|RT|D|M)[0-9]+) (.*?)(?=^#{2,4} |\Z)", text, re.M | re.S):
        out[m.group(1)] = m.group(2)
    return out


def test_values_are_disjoint_across_the_three_enums():
    values = [k.value for k in ALL]
    assert len(values) == len(set(values))


def test_values_are_camel_case():
    for k in ALL:
        assert re.fullmatch(r"[A-Z][A-Za-z0-9]+", k.value), k
        assert k.value.lower() == k.name.replace("_", "").lower(), k


@pytest.mark.parametrize("kind", ALL, ids=lambda k: k.value)
def test_every_kind_follows_the_protocol(kind):
    assert isinstance(kind.value, str)
    assert kind.is_ambiguous is kind.value.startswith("Ambiguous")
    if kind.is_ambiguous:
        assert re.fullmatch(r"(T|RT|D|M)[0-9]+", kind.ambiguity), kind
    else:
        assert kind.ambiguity is None


@pytest.mark.parametrize("kind", [k for k in ALL if k.is_ambiguous], ids=lambda k: k.value)
def test_the_ambiguity_entry_names_its_kind(kind):
    entries = _entries()
    assert kind.ambiguity in entries, kind
    assert f"`{kind.value}`" in entries[kind.ambiguity], (kind, kind.ambiguity)


def test_kind_for_value_finds_every_kind():
    for k in ALL:
        assert kind_for_value(k.value) is k
    assert kind_for_value("NoSuchKind") is None
    with pytest.raises(TypeError, match="value must be str"):
        kind_for_value(3)  # type: ignore[arg-type]


def test_issues_are_json_objects_with_named_fields():
    assert TextIssue(IssueKind.INVALID_UTF8, 3, 1).to_json() == {
        "kind": "InvalidUtf8", "offset": 3, "length": 1}
    assert RtfDefect(RtfDefectKind.CRC_MISMATCH, 0, 4).to_json() == {
        "kind": "CrcMismatch", "offset": 0, "length": 4}
    assert MessageIssue(MessageIssueKind.MALFORMED_TNEF, "tnef:attBody", 6, 9).to_json() == {
        "kind": "MalformedTnef", "where": "tnef:attBody", "offset": 6, "length": 9}
