"""onemail's de-encapsulation against RTFDE and rtf-stream-parser (recorded answers).

The records (``tests/data/oracles/rtf_deencapsulate.jsonl``, written by
``tools/rtf-oracle/record.py``) always replay: every answer that differs from ours, and every
oracle failure, must be explained by a rule of ``rtf_oracles.RULES`` naming its ambiguity id
(RT20-RT59 in ``docs/ambiguities.md``). The live tests re-run the oracles when installed.
"""

from __future__ import annotations

import hashlib
import json
import logging
import shutil
import subprocess
from collections import Counter

import pytest
from paths import CORPUS, DATA, REPO
from rtf_oracles import RULES, SYNTHETIC, explain, synthetic_rtf, unpack

from onemail.rtf import deencapsulate

RECORDS_PATH = DATA / "oracles" / "rtf_deencapsulate.jsonl"
RECORDS = [json.loads(line) for line in RECORDS_PATH.read_text(encoding="utf-8").splitlines()]
NODE_DIR = REPO / "tools" / "rtf-oracle" / "node"


def _input(case: str) -> bytes | None:
    if case.startswith("synthetic/"):
        return synthetic_rtf(int(case.split("/")[1]))
    path = CORPUS / "rtf" / case
    return path.read_bytes() if path.exists() else None


def _sha(data: bytes | str) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    return hashlib.sha256(data).hexdigest()


def test_records_cover_both_oracles_and_every_case():
    counts = Counter(r["oracle"].split(" ")[0] for r in RECORDS)
    assert counts == {"RTFDE": 164 + len(SYNTHETIC), "rtf-stream-parser": 164 + len(SYNTHETIC)}


def test_agreement_summary():
    """Pin how often each oracle agrees exactly (measured when recording)."""
    summary = Counter()
    for r in RECORDS:
        oracle = r["oracle"].split(" ")[0]
        if r["status"] != "ok":
            summary[oracle, "error"] += 1
        elif r["text_zlib"] is None:
            summary[oracle, "equal"] += 1
        else:
            summary[oracle, "different"] += 1
    assert summary == {
        ("RTFDE", "equal"): 13, ("RTFDE", "different"): 148, ("RTFDE", "error"): 9,
        ("rtf-stream-parser", "equal"): 167, ("rtf-stream-parser", "different"): 3,
    }


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: f"{r['oracle'].split()[0]}:{r['case']}")
def test_every_difference_is_explained(record):
    rtf = _input(record["case"])
    if rtf is None:
        pytest.skip("../shared/corpus/rtf is not present")
    assert _sha(rtf) == record["input_sha256"], "stale record: run tools/rtf-oracle/record.py"
    ours = deencapsulate(rtf).text
    if record["status"] == "ok" and record["text_zlib"] is None:
        assert _sha(ours) == record["text_sha256"], "output changed: re-record and explain"
        return
    theirs = unpack(record["text_zlib"]) if record["text_zlib"] is not None else None
    oracle = record["oracle"].split(" ")[0]
    explained, used = explain(oracle, rtf, record["status"], record["error"], record["mode"],
                              theirs)
    assert explained, f"unexplained difference ({record['status']}: {record['error']})"
    assert used


def test_every_rule_is_used_and_documented():
    used = set()
    for record in RECORDS:
        rtf = _input(record["case"])
        if rtf is None:
            pytest.skip("../shared/corpus/rtf is not present")
        if record["status"] == "ok" and record["text_zlib"] is None:
            continue
        theirs = unpack(record["text_zlib"]) if record["text_zlib"] is not None else None
        used.update(explain(record["oracle"].split(" ")[0], rtf, record["status"],
                            record["error"], record["mode"], theirs)[1])
    assert used == {rule.id for rule in RULES}
    register = (REPO / "docs" / "ambiguities.md").read_text(encoding="utf-8")
    for rule_id in used:
        assert f"#### {rule_id} " in register


@pytest.mark.parametrize("n", range(len(SYNTHETIC)))
def test_synthetic_cases_round_trip(n):
    kind, source = SYNTHETIC[n]
    result = deencapsulate(synthetic_rtf(n))
    assert (result.kind, result.text, result.defects) == (kind, source, ())


# -- live oracles (skipped without the tools) ------------------------------------------------

def _rtfde():
    return pytest.importorskip("RTFDE.deencapsulate")


@pytest.mark.parametrize("n", range(len(SYNTHETIC)))
def test_live_rtfde_reads_our_encapsulation(n):
    module = _rtfde()
    logging.disable(logging.CRITICAL)
    try:
        reader = module.DeEncapsulator(synthetic_rtf(n))
        reader.deencapsulate()
    finally:
        logging.disable(logging.NOTSET)
    kind, source = SYNTHETIC[n]
    text = reader.html if kind == "html" else reader.text
    text = text.decode("utf-8") if isinstance(text, bytes) else text
    explained, _ = explain("RTFDE", synthetic_rtf(n), "ok", None, reader.content_type, text)
    assert explained


def test_live_rtf_stream_parser_reads_our_encapsulation(tmp_path):
    node = shutil.which("node")
    if node is None or not (NODE_DIR / "node_modules").exists():
        pytest.skip("node and npm install in tools/rtf-oracle/node are needed")
    paths = []
    for n in range(len(SYNTHETIC)):
        path = tmp_path / f"{n}.rtf"
        path.write_bytes(synthetic_rtf(n))
        paths.append(str(path))
    out = subprocess.run([node, str(NODE_DIR / "deencapsulate.js"), "record", *paths],
                         capture_output=True, text=True, check=True).stdout
    for n, line in enumerate(out.splitlines()):
        record = json.loads(line)
        assert (record["mode"], record["text"]) == SYNTHETIC[n]
