"""Issue 16: RFC 2047 decoding of hostile header text in linear time and bounded memory.

* 1 MiB of ``=?`` (every opener a malformed word, issue 16 item 4) costs one C search per opener
  that can start a word (``_CANDIDATE``), and its issues reach the caller in batches
  (``IssueSpill``), not as one local list of half a million;
* a word whose bytes hold an error each (B or Q of 0xFF) maps its issues to the encoded
  characters a batch at a time, walking the word about once (``_GroupLocator``);
* the B slow path finds the alphabet in C (no list of positions).
Each case holds the exact text and issues, for a plain list and for a ``BoundedIssues``.
"""

from __future__ import annotations

import base64

from onemail.text import IssueKind, TextIssue
from onemail.text._header import SPILL
from onemail.text.issues import BoundedIssues
from onemail.text.rfc2047 import decode_text

K = IssueKind
FFFD = "\ufffd"


def _bounded(value: bytes, offset: int = 0) -> tuple[list[TextIssue], int]:
    plain: list[TextIssue] = []
    decode_text(value, issues=plain, offset=offset)
    expected = BoundedIssues()
    expected.extend(plain)
    got = BoundedIssues()
    decode_text(value, issues=got, offset=offset)
    assert list(got) == list(expected) and got.dropped == expected.dropped
    return list(got), got.dropped


def test_openers_only_each_a_malformed_word():
    value = b"=?" * 5000
    issues: list[TextIssue] = []
    assert decode_text(value, issues=issues) == value.decode()
    # "=?=?=?": charset "=", encoding "=" (not B or Q): literal from "=?" to the third "?";
    # the last two openers find no second "?" and are no word at all
    assert issues == [TextIssue(K.MALFORMED_ENCODED_WORD, 2 * k, 6) for k in range(4998)]
    assert decode_text(value) == value.decode()
    kept, dropped = _bounded(value)
    assert kept == [TextIssue(K.MALFORMED_ENCODED_WORD, 2 * k, 6) for k in range(100)] + [
        TextIssue(K.TOO_MANY_ISSUES, 200, 9800)]
    assert dropped == 4898


def test_openers_across_folds_keep_exact_offsets():
    # more issues than one batch, with a fold every 2,000 bytes and an offset
    value = b"\r\n ".join([b"=?" * 1000] * 5)
    issues: list[TextIssue] = []
    assert decode_text(value, issues=issues, offset=10) == (" ".join(["=?" * 1000] * 5))
    assert len(issues) > SPILL // 2
    # per line, openers 0..997 are malformed words; the last two see " =" (white space) as
    # the charset or the encoding, so they are no words, and no word spans a fold
    expected = [TextIssue(K.MALFORMED_ENCODED_WORD, 10 + line * 2003 + 2 * k, 6)
                for line in range(5) for k in range(998)]
    assert issues == expected


def test_b_word_of_invalid_bytes_behind_a_fold():
    value = b"x\r\n =?utf-8?b?" + base64.b64encode(b"\xff" * 6000) + b"?="
    issues: list[TextIssue] = []
    assert decode_text(value, issues=issues, offset=7) == "x " + FFFD * 6000
    # byte k of the word comes from the base64 group k // 3: four characters from 21 + 4 * group
    assert issues == [TextIssue(K.ENCODED_WORD_TOO_LONG, 11, 8012)] + [
        TextIssue(K.INVALID_UTF8, 21 + 4 * (k // 3), 4) for k in range(6000)]
    kept, dropped = _bounded(value, 7)
    assert kept[:3] == [TextIssue(K.ENCODED_WORD_TOO_LONG, 11, 8012),
                        TextIssue(K.INVALID_UTF8, 21, 4), TextIssue(K.INVALID_UTF8, 21, 4)]
    # the three issues of one group are (s, 4) three times: the third merges with the next
    # group's first (it starts where the third ends)
    assert kept[-2:] == [TextIssue(K.INVALID_UTF8, 213, 8), TextIssue(K.TOO_MANY_ISSUES, 217, 7804)]
    assert dropped == 3902


def test_q_word_of_invalid_bytes():
    value = b"=?utf-8?q?" + b"=FF" * 9000 + b"?="
    issues: list[TextIssue] = []
    assert decode_text(value, issues=issues) == FFFD * 9000
    assert issues == [TextIssue(K.ENCODED_WORD_TOO_LONG, 0, 27012)] + [
        TextIssue(K.INVALID_UTF8, 10 + 3 * k, 3) for k in range(9000)]
    # each =FF ends where the next begins: one run for a merging list
    assert _bounded(value) == ([TextIssue(K.ENCODED_WORD_TOO_LONG, 0, 27012),
                                TextIssue(K.INVALID_UTF8, 10, 27000)], 0)


def test_adjacent_words_of_invalid_bytes_over_many_batches():
    value = b"=?utf-8?q?=FF?= " * 5000
    issues: list[TextIssue] = []
    assert decode_text(value, issues=issues) == FFFD * 5000 + " "
    assert issues == [TextIssue(K.INVALID_UTF8, 10 + 16 * k, 3) for k in range(5000)]


def test_b_slow_path_junk_padding_and_tail():
    # junk between characters, a two-character tail padded with one '=' (needs two)
    issues: list[TextIssue] = []
    value = b"=?utf-8?b?" + b"QU*FB" * 3000 + b"QQ=*?="
    assert decode_text(value, issues=issues) == "AAA" * 3000 + "A"
    assert issues == [TextIssue(K.ENCODED_WORD_TOO_LONG, 0, 15016),
                      TextIssue(K.INVALID_BASE64, 15010, 4)]
    issues = []
    assert decode_text(b"=?utf-8?b?QUF*" + b"*" * 5000 + b"?=", issues=issues) == "AA"
    assert issues == [TextIssue(K.ENCODED_WORD_TOO_LONG, 0, 5016),
                      TextIssue(K.INVALID_BASE64, 10, 5004)]
