"""Replay the recorded answers of CPython's ``utf-7``, ``imapclient.imap_utf7`` and Node's
``utf7`` (tests/data/oracles/utf7.jsonl, written by tools/utf7-oracle/record.py) against onemail.

Every difference must match a rule below; each rule names its entry in docs/ambiguities.md.
The live test re-asks the installed oracles and is skipped when they are absent.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest
from paths import DATA, REPO

from onemail.text import utf7

RECORDED = DATA / "oracles" / "utf7.jsonl"
_SHIFT_RUN = {"decode": re.compile(rb"\+[A-Za-z0-9+/]*"), "imap_decode": re.compile(rb"&[A-Za-z0-9+,]*")}


def _load():
    with RECORDED.open(encoding="utf-8") as f:
        rows = [json.loads(line) for line in f]
    for row in rows:
        if "output_cps" in row:  # lone surrogates, which JSON would have paired
            row["output"] = "".join(map(chr, row.pop("output_cps")))
    return rows[0], rows[1:]


HEADER, ROWS = _load()


def ours(row):
    """Return (onemail's answer, onemail's issues) for a recorded row."""
    op = row["op"]
    if op == "encode":
        return utf7.encode(row["text"]).hex(), []
    if op == "imap_encode":
        return utf7.encode_imap(row["text"]).hex(), []
    issues = []
    data = bytes.fromhex(row["input_hex"])
    fn = utf7.decode if op == "decode" else utf7.decode_imap
    return fn(data, issues=issues), issues


def _clean_prefix(row, issues) -> str:
    """Text onemail decodes from the bytes before the run or byte holding the first issue."""
    data = bytes.fromhex(row["input_hex"])
    first = min(i.offset for i in issues)
    start = first
    for m in _SHIFT_RUN[row["op"]].finditer(data, 0, first + 1):
        if m.start() <= first <= m.end():
            start = m.start()
            break
    fn = utf7.decode if row["op"] == "decode" else utf7.decode_imap
    return fn(data[:start])


def explain(row, mine, issues) -> str | None:
    """Return the ambiguity id that explains a difference, or None."""
    op, oracle = row["op"], row["oracle"]
    if op == "encode":
        # T33: another RFC 2152 encoder style (optional direct characters written directly or
        # space in base64, "-" always written); the oracle's bytes mean the same text to us.
        theirs = bytes.fromhex(row["output_hex"])
        found = []
        if utf7.decode(theirs, issues=found) == row["text"] and not found:
            return "T33"
        return None
    if op == "imap_encode":
        return None  # all three write RFC 3501's canonical form
    data = bytes.fromhex(row["input_hex"])
    if oracle == "node" and op == "decode" and re.search(rb"\+[A-Za-z0-9/]*\+", data):
        # T34: Node's utf7 ends a run at a "+" (its pattern leaves "+" out of base64).
        return "T34"
    if not issues:
        return None  # valid input: every oracle must agree
    if "error" not in row and not row["output"].startswith(_clean_prefix(row, issues)):
        return None  # the oracle differs before the damage: not explained
    # T30 (UTF-7) / T31 (IMAP): damaged input; the oracles raise, drop bytes, keep lone
    # surrogates or C0 bytes, or read a bare "&"/"+" literally, where onemail writes U+FFFD.
    return "T30" if op == "decode" else "T31"


@pytest.mark.parametrize("oracle", ["cpython", "imapclient", "node"])
def test_recorded_answers(oracle):
    rows = [r for r in ROWS if r["oracle"] == oracle]
    assert len(rows) > 300
    unexplained = []
    for row in rows:
        mine, issues = ours(row)
        theirs = row.get("output", row.get("output_hex"))
        if mine == theirs:
            continue
        if explain(row, mine, issues) is None:
            unexplained.append((row, mine))
    assert unexplained == []


def test_valid_inputs_agree_everywhere():
    """Inputs onemail decodes without issues are decoded identically by the oracles (T34 aside)."""
    agreed = 0
    for row in ROWS:
        if not row["op"].endswith("decode") or "error" in row:
            continue
        mine, issues = ours(row)
        if not issues and explain(row, mine, issues) is None:
            assert mine == row["output"], row
            agreed += 1
    assert agreed > 1000


def test_recording_header():
    assert HEADER["node_utf7"] == "1.0.2" and HEADER["seed"] == 2152


@pytest.mark.skipif(shutil.which("node") is None
                    or not (REPO / "tools" / "utf7-oracle" / "node_modules" / "utf7").exists(),
                    reason="node and tools/utf7-oracle/node_modules (npm install) needed")
def test_live_node_matches_recording():
    rows = [r for r in ROWS if r["oracle"] == "node"][:200]
    reqs = "".join(json.dumps({"op": r["op"], "input": r["text"] if "text" in r
                               else bytes.fromhex(r["input_hex"]).decode("latin-1")}) + "\n"
                   for r in rows)
    out = subprocess.run(["node", "oracle.js"], cwd=REPO / "tools" / "utf7-oracle", input=reqs,
                         capture_output=True, text=True, check=True).stdout.splitlines()
    for row, line in zip(rows, out, strict=True):
        ans = json.loads(line)
        if row["op"].endswith("encode"):
            assert ans["output"].encode("latin-1").hex() == row["output_hex"]
        else:
            assert ans.get("output") == row.get("output")


def test_live_imapclient_matches_recording():
    imap_utf7 = pytest.importorskip("imapclient.imap_utf7")
    for row in ROWS:
        if row["oracle"] != "imapclient":
            continue
        if row["op"] == "imap_encode":
            assert imap_utf7.encode(row["text"]).hex() == row["output_hex"]
        elif "output" in row:
            assert imap_utf7.decode(bytes.fromhex(row["input_hex"])) == row["output"]


def test_live_cpython_matches_recording():
    for row in ROWS:
        if row["oracle"] == "cpython" and row["op"] == "decode":
            assert bytes.fromhex(row["input_hex"]).decode("utf-7", "replace") == row["output"]
