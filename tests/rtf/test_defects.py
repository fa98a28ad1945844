"""``onemail.rtf.defects``: the RTF issue kinds and :class:`RtfDefect`."""

from __future__ import annotations

import dataclasses

import pytest

from onemail.rtf import RtfDefect, RtfDefectKind

K = RtfDefectKind


def test_only_the_unknown_code_page_is_a_documented_resolution():
    assert [k for k in K if k.is_ambiguous] == [K.AMBIGUOUS_UNKNOWN_CODE_PAGE]
    assert [(k, k.ambiguity) for k in K if k.ambiguity is not None] == [
        (K.AMBIGUOUS_UNKNOWN_CODE_PAGE, "RT29")]


def test_the_values_are_the_spec_s_names():
    assert len(K) == 19
    assert K.CRC_MISMATCH.value == "CrcMismatch"
    assert K("UnclosedGroups") is K.UNCLOSED_GROUPS
    assert K.NESTING_LIMIT_EXCEEDED.value == "NestingLimitExceeded"


def test_a_defect_is_frozen_and_its_json_has_named_fields():
    d = RtfDefect(K.INVALID_HEX_ESCAPE, 17, 3)
    assert d.to_json() == {"kind": "InvalidHexEscape", "offset": 17, "length": 3}
    with pytest.raises(dataclasses.FrozenInstanceError):
        d.offset = 0  # type: ignore[misc]
    assert d == RtfDefect(K.INVALID_HEX_ESCAPE, 17, 3) and hash(d) == hash(RtfDefect(K.INVALID_HEX_ESCAPE, 17, 3))
