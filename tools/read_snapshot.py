#!/usr/bin/env python3
"""Snapshot what ``onemail.read`` gives for every message of the mail corpus, and compare two.

``python tools/read_snapshot.py save OUT.jsonl`` writes one JSON line per corpus file (its
MANIFEST order): ``{"file", "message": Message.to_json()}``, body texts hashed, so that a change
of the reader can be measured message by message. ``python tools/read_snapshot.py diff A B``
prints, per top-level field (subject, from, parts, issues, ...), how many messages changed and
the first examples, so that every change can be explained in the commit that makes it.

Reads ``../shared/corpus/mail`` beside the checkout; installs nothing.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAIL = (ROOT / ".." / "shared" / "corpus" / "mail").resolve()


def _digest(value):
    """Replace long texts by their length and hash (the snapshot stays small)."""
    if isinstance(value, dict):
        return {k: _digest(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_digest(v) for v in value]
    if isinstance(value, str) and len(value) > 200:
        return f"<{len(value)} chars {hashlib.sha256(value.encode('utf-8', 'surrogatepass')).hexdigest()[:12]}>"
    return value


def save(out: Path) -> None:
    import onemail

    lines = (MAIL / "MANIFEST.tsv").read_text(encoding="utf-8").splitlines()[1:]
    with out.open("w", encoding="utf-8") as f:
        for line in lines:
            name = line.split("\t")[0]
            msg = onemail.read(MAIL / name)
            f.write(json.dumps({"file": name, "message": _digest(msg.to_json())}, ensure_ascii=False) + "\n")


def _normal(value, key=""):
    """Older snapshot shapes in today's: addresses ``[name, address]`` as objects, headers
    ``[name, value, issues]`` as objects; header offsets left out (older snapshots lack them)."""
    if isinstance(value, dict):
        return {k: _normal(v, k) for k, v in value.items() if not (key == "headers" and k == "offset")}
    if isinstance(value, list):
        if key in ("from", "to", "cc", "bcc", "reply_to"):
            return [{"name": a[0], "address": a[1]} if isinstance(a, list) else a for a in value]
        if key == "headers":
            return [_normal({"name": h[0], "value": h[1], "issues": h[2]} if isinstance(h, list) else h,
                            "headers") for h in value]
        return [_normal(v, key if key in ("parts",) else "") for v in value]
    return value


def _load(path: Path) -> dict:
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        out[row["file"]] = _normal(row["message"])
    return out


def diff(a: Path, b: Path, examples: int) -> None:
    old, new = _load(a), _load(b)
    changed: Counter = Counter()
    shown: dict[str, list] = {}
    for name in old:
        if name not in new:
            changed["(missing)"] += 1
            continue
        o, n = old[name], new[name]
        for key in sorted(set(o) | set(n)):
            if key not in o:  # a field the older reader did not have
                continue
            if o.get(key) != n.get(key):
                changed[key] += 1
                shown.setdefault(key, [])
                if len(shown[key]) < examples:
                    shown[key].append((name, o.get(key), n.get(key)))
    print(f"{len(old)} messages; changed fields: {dict(changed.most_common())}")
    for key, rows in shown.items():
        print(f"\n== {key}")
        for name, o, n in rows:
            print(f"- {name}\n    old: {json.dumps(o, ensure_ascii=False)[:600]}\n    new: {json.dumps(n, ensure_ascii=False)[:600]}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("save")
    s.add_argument("out", type=Path)
    d = sub.add_parser("diff")
    d.add_argument("a", type=Path)
    d.add_argument("b", type=Path)
    d.add_argument("--examples", type=int, default=3)
    args = ap.parse_args()
    if args.cmd == "save":
        save(args.out)
    else:
        diff(args.a, args.b, args.examples)
    return 0


if __name__ == "__main__":
    sys.exit(main())
