"""Record what CPython's ``utf-7`` codec, ``imapclient.imap_utf7`` and Node's ``utf7`` package
make of generated UTF-7 and IMAP modified UTF-7 cases.

Writes ``tests/data/oracles/utf7.jsonl``: a header line, then one line per (oracle, operation,
input) with the oracle's answer. ``tests/differential/test_utf7_oracles.py`` replays the file
against onemail without any of the tools; every difference must match a rule there that names
its ambiguity id (docs/ambiguities.md T30-T49).

Run (needs ``pip install imapclient`` and ``npm install`` in this folder):
``python tools/utf7-oracle/record.py``. The cases are generated from a fixed seed, so a second
run writes the same file (unless an oracle changed).
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
OUT = REPO / "tests" / "data" / "oracles" / "utf7.jsonl"

sys.path.insert(0, str(REPO / "src"))
from onemail.text import utf7  # noqa: E402

# Characters the texts are made of: direct, optional direct, the shift characters, Latin,
# CJK, astral, controls.
POOL = (list("Hello world 0189") + list("'(),-./:?") + list("!\"#$%&*;<=>@[]^_`{|}\\~")
        + ["+", "&", "-", "+", "&", "-", "\t", "\r\n", "\x00", "\x7f"]
        + list("äöüßéèçñÆøÅ€£") + list("日本語中文한국어") + ["\U0001f600", "\U00010000",
                                                           "\uffff", "\ufffd", "\ufeff"])
# Byte pieces near UTF-7 / IMAP syntax (shifts, surrogate halves, pad bits, high bytes).
PIECES = [b"+", b"-", b"&", b"A", b"AGE", b"2D", b"3g", b"2D3eAA", b"+AOk", b"&AOk", b"/", b",",
          b" ", b"\x80", b"\xff", b"\r\n", b"a", b"9", b"+-", b"&-", b"+2D0", b"&2D0", b"3gA",
          b"AGF", b"\x01", b"~"]


def texts(rng: random.Random) -> list[str]:
    out = ["", "Hi Mom -\u263a-!", "A\u2262\u0391.", "\u65e5\u672c\u8a9e", "Item 3 is \u00a31.",
           "Entw\u00fcrfe", "\u263a!", "Tom & Jerry", "1 + 1 = 2", "C++", "a+", "&", "~/Mail"]
    for _ in range(150):
        out.append("".join(rng.choice(POOL) for _ in range(rng.randint(1, 12))))
    return out


def damaged(rng: random.Random) -> list[bytes]:
    out = [b"+!", b"1 + 1", b"+A-", b"+AGF-", b"+2D0-x", b"+2D0-+3gA-", b"a\x80b", b"+AGEA",
           b"+", b"C++", b"&Jjo!", b"&", b"a&b", b"&AGF-", b"&2D0AYQ-", b"a\tb"]
    for _ in range(200):
        out.append(b"".join(rng.choice(PIECES) for _ in range(rng.randint(1, 10))))
    return out


class Node:
    """One ``node oracle.js`` process answering requests line by line."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(["node", str(HERE / "oracle.js")], cwd=HERE, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def ask(self, op: str, value: str) -> dict:
        self.proc.stdin.write(json.dumps({"op": op, "input": value}) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


def main() -> int:
    import imapclient.imap_utf7 as imap_utf7

    rng = random.Random(2152)
    ts = texts(rng)
    inputs: list[bytes] = []
    for t in ts:
        inputs += [t.encode("utf-7"), utf7.encode(t), utf7.encode_imap(t)]
    inputs += damaged(rng)
    inputs = list(dict.fromkeys(inputs))
    node = Node()
    node_version = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout
    rows = [{"header": True, "python": sys.version.split()[0], "imapclient": version("imapclient"),
             "node": node_version.strip(),
             "node_utf7": json.loads((HERE / "node_modules" / "utf7" / "package.json").read_text())["version"],
             "seed": 2152}]

    def row(oracle, op, key, value, answer):
        rows.append({"oracle": oracle, "op": op, key: value, **answer})

    for t in ts:
        row("cpython", "encode", "text", t, {"output_hex": t.encode("utf-7").hex()})
        row("imapclient", "imap_encode", "text", t, _call(lambda t=t: imap_utf7.encode(t).hex(), "output_hex"))
        for op in ("encode", "imap_encode"):
            ans = node.ask(op, t)
            if "output" in ans:
                ans = {"output_hex": ans["output"].encode("latin-1", "replace").hex()}
            row("node", op, "text", t, ans)
    for data in inputs:
        h = data.hex()
        row("cpython", "decode", "input_hex", h, _text(data.decode("utf-7", "replace")))
        ans = _call(lambda d=data: imap_utf7.decode(d), "output")
        row("imapclient", "imap_decode", "input_hex", h, _text(ans["output"]) if "output" in ans else ans)
        for op in ("decode", "imap_decode"):
            row("node", op, "input_hex", h, node.ask(op, data.decode("latin-1")))
    node.close()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with OUT.open("w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, sort_keys=True) + "\n")
    print(f"wrote {len(rows) - 1} answers to {OUT.relative_to(REPO)}")
    return 0


def _text(text: str) -> dict:
    """A decoded text; with lone surrogates also as code points (JSON would pair them)."""
    if _SURROGATE.search(text):
        return {"output": text, "output_cps": [ord(c) for c in text]}
    return {"output": text}


_SURROGATE = re.compile("[\ud800-\udfff]")


def _call(fn, key: str) -> dict:
    try:
        return {key: fn()}
    except Exception as exc:  # an oracle's exception is an answer too
        return {"error": f"{type(exc).__name__}: {exc}"}


if __name__ == "__main__":
    sys.exit(main())
