#!/usr/bin/env python3
"""Run the oracles over the text-diff cases and record their answers.

Writes ``tests/data/text-diff/answers.jsonl.gz``: one line per case, ``{"id", <oracle>: answer}``
where an answer is ``{"value": str}``, ``{"params": {name: value}}`` or ``{"error": str}``.
Oracles: Python ``email`` (in process, ``oracles/python_email.py``), Go ``mime``
(``oracles/go/main.go``, built in GOPATH mode with Debian's golang-golang-x-text-dev), Node
``libmime`` / ``postal-mime`` / ``@sinonjs/text-encoding`` / ``utf7`` (``oracles/node``, installed
with ``npm install`` there). An oracle whose tool is absent keeps its previously recorded
answers (and says so).
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
ANSWERS = ROOT / "tests" / "data" / "text-diff" / "answers.jsonl.gz"
GO_SRC = HERE / "oracles" / "go" / "main.go"
NODE_DIR = HERE / "oracles" / "node"
GOPATH = "/usr/share/gocode"

sys.path.insert(0, str(HERE / "oracles"))


def read_answers(path: Path = ANSWERS) -> dict[str, dict]:
    if not path.exists():
        return {}
    with gzip.open(path, "rt", encoding="ascii") as f:
        return {a["id"]: a for a in map(json.loads, f)}


def write_answers(answers: dict[str, dict], path: Path = ANSWERS) -> None:
    body = "".join(json.dumps(answers[k], ensure_ascii=True, sort_keys=True) + "\n" for k in sorted(answers))
    with open(path, "wb") as f, gzip.GzipFile(fileobj=f, mode="wb", mtime=0, filename="") as g:
        g.write(body.encode("ascii"))


def _stream(cmd: list[str], cases: list[dict], env=None, cwd=None) -> list[dict]:
    feed = "".join(json.dumps({k: c[k] for k in ("id", "kind", "in", "label", "text") if k in c}) + "\n"
                   for c in cases)
    proc = subprocess.run(cmd, input=feed.encode(), capture_output=True, env=env, cwd=cwd, check=True)
    return [json.loads(line) for line in proc.stdout.decode("utf-8").split("\n") if line]


def run_go(cases: list[dict]) -> list[dict] | None:
    go = shutil.which("go")
    if go is None or not Path(GOPATH, "src", "golang.org", "x", "text").exists():
        print("record: go or golang-golang-x-text-dev absent: Go answers kept", file=sys.stderr)
        return None
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, GO111MODULE="off", GOPATH=f"{GOPATH}:{tmp}", GOCACHE=f"{tmp}/cache")
        binary = Path(tmp) / "textdiff-go"
        subprocess.run([go, "build", "-o", str(binary), str(GO_SRC)], env=env, check=True)
        return _stream([str(binary)], [c for c in cases if c["kind"] != "imap"])


def run_node(cases: list[dict]) -> list[dict] | None:
    node = shutil.which("node")
    if node is None or not (NODE_DIR / "node_modules" / "libmime").exists():
        print("record: node or oracles/node/node_modules absent (npm install there): Node answers kept",
              file=sys.stderr)
        return None
    return _stream([node, "oracle.mjs"], cases, cwd=NODE_DIR)


def record(cases: list[dict]) -> dict[str, dict]:
    """Run every reachable oracle; return and write the merged answers."""
    import python_email

    old = read_answers()
    ids = {c["id"] for c in cases}
    answers: dict[str, dict] = {c["id"]: {"id": c["id"]} for c in cases}
    for c in cases:
        answers[c["id"]].update(python_email.answer(c))
    for _name, runner, keys in (("go", run_go, ("go",)), ("node", run_node, ("libmime", "postal", "sinon", "utf7"))):
        got = runner(cases)
        if got is None:
            for i, a in old.items():
                if i in ids:
                    answers[i].update({k: v for k, v in a.items() if k in keys})
            continue
        for a in got:
            answers[a["id"]].update({k: v for k, v in a.items() if k != "id"})
    write_answers(answers)
    return answers


def main() -> int:
    sys.path.insert(0, str(HERE))
    import generate

    cases = generate.read()
    answers = record(cases)
    print(f"recorded {len(answers)} cases -> {ANSWERS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
