"""``onemail.message.issues``: the message-layer kinds, their register ids, kind_for_value.

The three enums together (disjoint values, one protocol): tests/house/test_issue_kinds.py."""

from __future__ import annotations

import re

import pytest

from onemail.message import MessageIssueKind, kind_for_value
from onemail.message.issues import AnyIssueKind, IssueKindLike
from onemail.rtf import RtfDefectKind
from onemail.text import IssueKind

M = MessageIssueKind


def test_the_ambiguous_kinds_and_their_register_ids():
    ids = [k.ambiguity for k in M if k.is_ambiguous]
    assert ids[:8] == ["M1", "M2", "M3", "M4", "M5", "M6", "M13", "M14"]  # later ones follow
    assert len(set(ids)) == len(ids) and all(re.fullmatch(r"M[0-9]+", i) for i in ids)
    assert (M.AMBIGUOUS_UUENCODED_FILE.ambiguity, M.AMBIGUOUS_DEFAULT_CHARSET.ambiguity) == ("M14", "M1")
    assert [k for k in M if not k.is_ambiguous and k.ambiguity is not None] == []


def test_kind_for_value_reads_every_layer_s_names():
    assert kind_for_value("MalformedTnef") is M.MALFORMED_TNEF
    assert kind_for_value("InvalidUtf8") is IssueKind.INVALID_UTF8
    assert kind_for_value("CrcMismatch") is RtfDefectKind.CRC_MISMATCH
    # the RTF tokenizer's limit and the message layer's are two kinds with two names
    assert kind_for_value("NestingLimitExceeded") is RtfDefectKind.NESTING_LIMIT_EXCEEDED
    assert kind_for_value("MessageNestingLimitExceeded") is M.MESSAGE_NESTING_LIMIT_EXCEEDED
    assert kind_for_value("invalidutf8") is None and kind_for_value("") is None


def test_kind_for_value_wants_a_str():
    with pytest.raises(TypeError, match="value must be str, not bytes"):
        kind_for_value(b"InvalidUtf8")  # type: ignore[arg-type]


def test_every_kind_is_an_issue_kind_like():
    def describe(kind: IssueKindLike) -> tuple[str, bool, str | None]:
        return kind.value, kind.is_ambiguous, kind.ambiguity

    kinds: tuple[AnyIssueKind, ...] = (M.AMBIGUOUS_DEFAULT_CHARSET, IssueKind.INVALID_UTF8,
                                       RtfDefectKind.AMBIGUOUS_UNKNOWN_CODE_PAGE)
    assert [describe(k) for k in kinds] == [("AmbiguousDefaultCharset", True, "M1"),
                                           ("InvalidUtf8", False, None),
                                           ("AmbiguousUnknownCodePage", True, "RT29")]
