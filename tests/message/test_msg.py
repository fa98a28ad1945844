"""Outlook .msg compound files whose chains or links loop (issue 16 item 7): reported, and no
sector is read twice. The cases are the bundled examples/ruby-msg-test_Blammo.msg with one
FAT, mini FAT or directory entry rewritten."""

from __future__ import annotations

import struct

import pytest
from paths import REPO

import onemail
from onemail.message import MessageIssueKind

M = MessageIssueKind
BLAMMO = (REPO / "examples" / "ruby-msg-test_Blammo.msg").read_bytes()
SECTOR = 512
FAT = (struct.unpack_from("<I", BLAMMO, 0x4C)[0] + 1) * SECTOR  # the file's one FAT sector
MINIFAT = (struct.unpack_from("<I", BLAMMO, 0x3C)[0] + 1) * SECTOR
DIRECTORY = (struct.unpack_from("<I", BLAMMO, 0x30)[0] + 1) * SECTOR


def patched(offset: int, value: int) -> bytes:
    data = bytearray(BLAMMO)
    struct.pack_into("<I", data, offset, value)
    return bytes(data)


def msg_issues(msg):
    return [(i.kind, i.where, i.offset, i.length) for i in msg.issues if i.kind is M.MALFORMED_MSG]


def test_the_original_reads_cleanly():
    msg = onemail.read(BLAMMO)
    assert (msg.subject, msg_issues(msg)) == ("BlammoBlammo", [])


def test_mini_fat_loop_cuts_the_stream_where_it_comes_back():
    """The compressed RTF body (mini sectors 1..20): mini FAT entry 10 points back to 5."""
    msg = onemail.read(patched(MINIFAT + 4 * 10, 5))
    assert msg_issues(msg) == [(M.MALFORMED_MSG, "msg:__substg1.0_10090102", 640, 600)]
    assert msg.subject == "BlammoBlammo" and msg.text.startswith("Blam")


def test_fat_loop_in_the_mini_stream_drops_the_streams_past_it():
    """The mini stream's chain 12, 13, 14 turns back to 12: mini sectors past 24 are unknown."""
    msg = onemail.read(patched(FAT + 4 * 14, 12))
    issues = msg_issues(msg)
    assert issues[0] == (M.MALFORMED_MSG, "msg:ministream", 3 * SECTOR, 0)
    assert (M.MALFORMED_MSG, "msg:__substg1.0_0037001E", 0, 12) in issues  # the subject: past it
    assert msg.subject is None


def test_directory_chain_loop_is_reported_and_the_entries_read_once():
    """The last directory sector (23) points back to the first (2)."""
    msg = onemail.read(patched(FAT + 4 * 23, 2))
    assert msg_issues(msg) == [(M.MALFORMED_MSG, "msg:directory", 14 * SECTOR, 0)]
    assert msg.subject == "BlammoBlammo"


def test_sibling_link_loop_is_reported():
    """Directory entry 1 (__properties_version1.0) names itself as its left sibling."""
    msg = onemail.read(patched(DIRECTORY + 128 + 0x44, 1))
    assert msg_issues(msg)[:2] == [(M.MALFORMED_MSG, "msg:/", 0, 0), (M.MALFORMED_MSG, "msg:/", 0, 0)]
    assert msg.subject == "BlammoBlammo"


@pytest.mark.parametrize("entry", range(0, 30))
def test_any_fat_entry_pointing_back_never_raises(entry):
    """Every FAT entry made to point at sector 2 (the directory's first): a message or a clear
    error, never an exception."""
    msg = onemail.read(patched(FAT + 4 * entry, 2))
    assert msg.error is None or msg.error.startswith("not a readable Outlook .msg")
