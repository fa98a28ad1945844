"""Record RTFDE's and rtf-stream-parser's de-encapsulation of the RTF corpus and of our output.

Writes ``tests/data/oracles/rtf_deencapsulate.jsonl`` (replayed by
``tests/differential/test_rtf_oracles.py``) and ``tests/data/oracles/rtf_html_similarity.tsv``
(the similarity report of our HTML against the stored PidTagHtml). One JSON object per line:

- ``oracle``: ``"RTFDE <version>"`` or ``"rtf-stream-parser <version>"``;
- ``case``: ``rtf/<name>.rtf`` (a corpus file) or ``synthetic/<n>`` (``encapsulate_html`` or
  ``encapsulate_text`` of ``SYNTHETIC[n]``, to check that other readers see our output the
  same way, decision 1);
- ``input_sha256``: of the RTF given to the oracle (a changed input makes the record stale);
- ``status``: ``ok`` or ``error`` (then ``error`` is the exception's class and message);
- ``mode``: ``html`` or ``text`` as the oracle saw it;
- ``text_sha256``: of the oracle's text; ``text_zlib``: the oracle's text (UTF-8 with
  surrogatepass, zlib level 9, base64) when it differed from onemail's at recording time,
  else null (equal texts need not be stored).

Needs RTFDE (``pip install -e '.[bench]'``) and, for rtf-stream-parser, Node with
``npm install`` run in ``tools/rtf-oracle/node``. Run from the repository root:

    python tools/rtf-oracle/record.py
"""

from __future__ import annotations

import base64
import difflib
import hashlib
import importlib.metadata
import json
import logging
import shutil
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CORPUS_RTF = REPO.parent / "shared" / "corpus" / "rtf"
NODE_DIR = Path(__file__).resolve().parent / "node"
OUT = REPO / "tests" / "data" / "oracles" / "rtf_deencapsulate.jsonl"
SIMILARITY = REPO / "tests" / "data" / "oracles" / "rtf_html_similarity.tsv"

sys.path.insert(0, str(REPO / "tests"))
from rtf_oracles import SYNTHETIC, normalise_html, synthetic_rtf  # noqa: E402

from onemail.rtf import deencapsulate, is_encapsulated  # noqa: E402


def sha256(data: bytes | str) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    return hashlib.sha256(data).hexdigest()


def pack(text: str) -> str:
    return base64.b64encode(zlib.compress(text.encode("utf-8", "surrogatepass"), 9)).decode()


def cases() -> list[tuple[str, bytes]]:
    out = []
    for path in sorted((CORPUS_RTF / "rtf").glob("*.rtf")):
        data = path.read_bytes()
        if is_encapsulated(data):
            out.append((f"rtf/{path.name}", data))
    for n in range(len(SYNTHETIC)):
        out.append((f"synthetic/{n}", synthetic_rtf(n)))
    return out


def run_rtfde(data: bytes) -> dict:
    from RTFDE.deencapsulate import DeEncapsulator

    try:
        reader = DeEncapsulator(data)
        reader.deencapsulate()
    except Exception as exc:  # the oracle's failure is what we record
        return {"status": "error", "error": f"{type(exc).__name__}: {exc}"[:300]}
    text = reader.html if reader.content_type == "html" else reader.text
    if isinstance(text, bytes):  # RTFDE 0.1 returns UTF-8 bytes
        text = text.decode("utf-8", "surrogateescape")
    return {"status": "ok", "mode": reader.content_type, "text": text}


def run_node(items: list[tuple[str, bytes]]) -> list[dict]:
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, (_case, data) in enumerate(items):
            path = Path(tmp) / f"{i}.rtf"
            path.write_bytes(data)
            paths.append(str(path))
        out = subprocess.run(["node", str(NODE_DIR / "deencapsulate.js"), "record", *paths],
                             capture_output=True, text=True, check=True).stdout
    results = []
    for line in out.splitlines():
        rec = json.loads(line)
        if rec["status"] == "ok":
            results.append({"status": "ok", "mode": rec["mode"], "text": rec["text"]})
        else:
            results.append({"status": "error", "error": rec["error"][:300]})
    return results


def record(oracle: str, case: str, data: bytes, result: dict) -> dict:
    ours = deencapsulate(data).text
    line = {"oracle": oracle, "case": case, "input_sha256": sha256(data),
            "status": result["status"], "error": result.get("error"), "mode": result.get("mode"),
            "text_sha256": None, "text_zlib": None}
    if result["status"] == "ok":
        line["text_sha256"] = sha256(result["text"])
        if result["text"] != ours:
            line["text_zlib"] = pack(result["text"])
    return line


def similarity_report() -> list[str]:
    """Our HTML against the stored PidTagHtml: raw ratio and after the README's normalisation."""
    rows = ["stem\tbytes_ours\tbytes_stored\tratio_raw\tratio_normalised\tequal_normalised"]
    for path in sorted((CORPUS_RTF / "expected").glob("*.html")):
        stem = path.stem
        ours = deencapsulate((CORPUS_RTF / "rtf" / f"{stem}.rtf").read_bytes()).text
        stored = path.read_bytes().decode("utf-8").rstrip("\x00")
        raw = difflib.SequenceMatcher(None, stored, ours, autojunk=False).ratio()
        a, b = normalise_html(stored), normalise_html(ours)
        norm = difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()
        rows.append(f"{stem}\t{len(ours)}\t{len(stored)}\t{raw:.4f}\t{norm:.4f}\t{a == b}")
    return rows


def main() -> int:
    items = cases()
    lines = []
    logging.disable(logging.CRITICAL)  # RTFDE logs every file
    version = importlib.metadata.version("RTFDE")
    for case, data in items:
        lines.append(record(f"RTFDE {version}", case, data, run_rtfde(data)))
    if shutil.which("node") and (NODE_DIR / "node_modules").exists():
        package = json.loads((NODE_DIR / "node_modules" / "rtf-stream-parser" /
                              "package.json").read_text())
        for (case, data), result in zip(items, run_node(items), strict=True):
            lines.append(record(f"rtf-stream-parser {package['version']}", case, data, result))
    else:
        print("node or tools/rtf-oracle/node/node_modules missing: rtf-stream-parser skipped")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with open(OUT, "w", encoding="utf-8") as fh:
        for line in lines:
            fh.write(json.dumps(line, ensure_ascii=True) + "\n")
    SIMILARITY.write_text("\n".join(similarity_report()) + "\n", encoding="utf-8")
    print(f"{len(lines)} records -> {OUT.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

