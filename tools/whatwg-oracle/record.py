#!/usr/bin/env python3
"""Record the WHATWG Encoding Standard oracle's answers for onemail's differential tests.

The oracle is the npm package ``@sinonjs/text-encoding`` (a JavaScript implementation of the
Encoding Standard's decoders and indexes), run by ``oracle.js`` in this folder. Node's built-in
``TextDecoder`` is not an implementation of the standard (Node 20 decodes windows-1252 as
ISO-8859-1) and is never used: ``oracle.js`` refuses to run if the package hands it back, and
this script checks that windows-1252 0x80 gives U+20AC before writing anything.

Set-up and run (from the repository root)::

    (cd tools/whatwg-oracle && npm ci)
    python tools/whatwg-oracle/record.py            # writes tests/data/whatwg-oracle/
    python tools/whatwg-oracle/record.py --check    # exit 1 if a fresh recording differs

Cases, for every WHATWG encoding except ``replacement`` and ``iso-2022-jp``:

* ``1-byte``: every byte.
* ``2-byte``: every 2-byte sequence (multi-byte encodings; for single-byte encodings one byte
  decides everything and the random streams cover the rest).
* gb18030 and gbk (one decoder in the standard): ``3-byte`` (a set of first bytes, every digit
  second byte, every third byte), ``4-byte-81-84`` (every well-shaped 4-byte sequence with first
  byte 0x81-0x84: the BMP ranges), ``4-byte-edges`` (each byte from an edge set: 0x80, 0xFF, the
  ends of each range and out-of-range neighbours), ``4-byte-boundaries`` (the pointers at the
  ends of the ranges) and ``4-byte-sample`` (a seeded sample of well-shaped sequences with first
  byte 0x85-0xFE).
* euc-jp: ``3-byte-8f`` (0x8F followed by every 2-byte sequence: JIS X 0212).
* utf-8: ``3-byte-classes``/``4-byte-classes`` (every combination of class representatives).
* utf-16le/be: ``units`` (every sequence of up to 3 code units drawn from unit classes: ASCII,
  BMP, BOM, lead surrogate, trail surrogate; each with and without an odd trailing byte).
* ``random``: seeded random streams mixing valid sequences, invalid bytes, truncated sequences,
  ASCII, CR/LF and BOMs.

Output: ``tests/data/whatwg-oracle/<encoding>.jsonl.gz`` (gzip, mtime 0: deterministic), one JSON
object per line: ``{"group": NAME, "inputs": SPEC, "texts": [TEXT, ...]}`` where ``SPEC`` is
``{"product": [[[lo, hi], ...], ...]}`` (the cartesian product of byte ranges, position by
position, in ``itertools.product`` order) or ``{"hex": [HEX, ...]}``. Texts are JSON strings
with ``\\uXXXX`` escapes for everything outside ASCII, so lone surrogates survive. Also
``oracle.json``: the package version, the standard snapshot, hashes of the oracle's sources, and
``index_differences``: every pointer where the package's indexes differ from the index files
(the index files win; ``docs/ambiguities.md`` T20).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import itertools
import json
import random
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
WHATWG = (REPO / ".." / "shared" / "whatwg-encoding").resolve()
OUT = REPO / "tests" / "data" / "whatwg-oracle"
PACKAGE = HERE / "node_modules" / "@sinonjs" / "text-encoding"

SKIPPED = {"replacement", "iso-2022-jp"}
MULTI_BYTE = {"gbk", "gb18030", "big5", "euc-jp", "shift_jis", "euc-kr", "utf-8", "utf-16be", "utf-16le"}
RANDOM_STREAMS = 400
GB_SAMPLE = 20000

Ranges = list[list[int]]


def encodings() -> list[str]:
    """Return the lower-case names of the recorded encodings, in encodings.json order."""
    groups = json.loads((WHATWG / "encodings.json").read_text(encoding="utf-8"))
    names = [e["name"].lower() for g in groups for e in g["encodings"]]
    return [n for n in names if n not in SKIPPED]


def ranges(values) -> Ranges:
    """Compress a set of byte values into sorted inclusive ``[lo, hi]`` ranges."""
    out: Ranges = []
    for v in sorted(set(values)):
        if out and out[-1][1] == v - 1:
            out[-1][1] = v
        else:
            out.append([v, v])
    return out


def expand(spec: dict) -> list[bytes]:
    """Return the inputs a group's ``inputs`` spec describes (also used by the tests)."""
    if "hex" in spec:
        return [bytes.fromhex(h) for h in spec["hex"]]
    positions = [[v for lo, hi in rs for v in range(lo, hi + 1)] for rs in spec["product"]]
    return [bytes(t) for t in itertools.product(*positions)]


def product(*positions) -> dict:
    return {"product": [ranges(p) for p in positions]}


ALL = range(256)
DIGITS = range(0x30, 0x3A)
GB_LEADS = range(0x81, 0xFF)
# First/third-byte and second/fourth-byte edge sets of a gb18030 four-byte sequence: each end
# of the valid range and its out-of-range neighbours, the 2-byte-trail confusables 0x40/0x7F,
# ASCII and the ends of the byte range.
GB_ODD_EDGES = (0x00, 0x30, 0x40, 0x7F, 0x80, 0x81, 0x84, 0x85, 0x8F, 0x90, 0xE3, 0xE4, 0xFE, 0xFF)
GB_EVEN_EDGES = (0x00, 0x2F, 0x30, 0x39, 0x3A, 0x41, 0x80, 0xFF)
# Pointers at the ends of the gb18030 ranges: 39419 (last BMP range pointer), 39420 (first
# pointer returning null), 189000 (U+10000), 1237575 (U+10FFFF), 1237576 (null), 7457 (U+E7C7).
GB_BOUNDARY_POINTERS = (0, 1, 7456, 7457, 7458, 39418, 39419, 39420, 188999, 189000, 189001,
                        1237574, 1237575, 1237576, 1237577, 1237578, 1260299)
UTF8_CLASSES = (0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xF5, 0xFF)
UTF16_UNITS = (0x0041, 0x000A, 0x00E9, 0x4E00, 0xFEFF, 0xFFFF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF)


def gb_pointer_bytes(p: int) -> bytes:
    b4, p = 0x30 + p % 10, p // 10
    b3, p = 0x81 + p % 126, p // 126
    b2, b1 = 0x30 + p % 10, 0x81 + p // 10
    return bytes((b1, b2, b3, b4))


def groups_for(name: str, rng: random.Random) -> list[tuple[str, dict]]:
    """Return the ``(group name, inputs spec)`` pairs recorded for one encoding."""
    out = [("1-byte", product(ALL))]
    if name in MULTI_BYTE:
        out.append(("2-byte", product(ALL, ALL)))
    if name in ("gb18030", "gbk"):
        firsts = (0x80, 0x81, 0x82, 0x84, 0x85, 0x8F, 0x90, 0xA0, 0xE3, 0xE4, 0xFE, 0xFF)
        out.append(("3-byte", product(firsts, DIGITS, ALL)))
        out.append(("4-byte-81-84", product(range(0x81, 0x85), DIGITS, GB_LEADS, DIGITS)))
        out.append(("4-byte-edges", product(GB_ODD_EDGES, GB_EVEN_EDGES, GB_ODD_EDGES, GB_EVEN_EDGES)))
        out.append(("4-byte-boundaries",
                    {"hex": [gb_pointer_bytes(p).hex() for p in GB_BOUNDARY_POINTERS]}))
        sample = sorted({bytes((rng.randrange(0x85, 0xFF), rng.randrange(0x30, 0x3A),
                                rng.randrange(0x81, 0xFF), rng.randrange(0x30, 0x3A)))
                         for _ in range(GB_SAMPLE)})
        out.append(("4-byte-sample", {"hex": [s.hex() for s in sample]}))
    if name == "euc-jp":
        out.append(("3-byte-8f", product([0x8F], ALL, ALL)))
    if name == "utf-8":
        leads3 = (0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF)
        out.append(("3-byte-classes", product(leads3, UTF8_CLASSES, UTF8_CLASSES)))
        leads4 = (0xC2, 0xE0, 0xED, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5)
        out.append(("4-byte-classes", product(leads4, UTF8_CLASSES, UTF8_CLASSES, UTF8_CLASSES)))
    if name.startswith("utf-16"):
        order = "big" if name.endswith("be") else "little"
        seqs = []
        for n in range(4):
            for units in itertools.product(UTF16_UNITS, repeat=n):
                raw = b"".join(u.to_bytes(2, order) for u in units)
                seqs += [raw, raw + b"\x41"]
        out.append(("units", {"hex": [s.hex() for s in seqs]}))
    out.append(("random", {"hex": [random_stream(name, rng).hex() for _ in range(RANDOM_STREAMS)]}))
    return out


# ---------------------------------------------------------------------------------------------
# Random streams


def _valid_fragment(name: str, rng: random.Random) -> bytes:
    """A (mostly) valid multi-byte sequence of the encoding; any byte for single-byte ones."""
    r = rng.randrange
    if name in ("gb18030", "gbk"):
        if r(3):
            trail = r(0x40, 0xFF)
            return bytes((r(0x81, 0xFF), trail if trail != 0x7F else 0x80))
        return gb_pointer_bytes(r(0, 39420) if r(2) else r(189000, 1237576))
    if name == "big5":
        return bytes((r(0x81, 0xFF), rng.choice((r(0x40, 0x7F), r(0xA1, 0xFF)))))
    if name == "euc-jp":
        k = r(4)
        if k == 0:
            return bytes((0x8E, r(0xA1, 0xE0)))
        if k == 1:
            return bytes((0x8F, r(0xA1, 0xFF), r(0xA1, 0xFF)))
        return bytes((r(0xA1, 0xFF), r(0xA1, 0xFF)))
    if name == "shift_jis":
        if r(4) == 0:
            return bytes((r(0xA1, 0xE0),))
        lead = rng.choice((r(0x81, 0xA0), r(0xE0, 0xFD)))
        return bytes((lead, rng.choice((r(0x40, 0x7F), r(0x80, 0xFD)))))
    if name == "euc-kr":
        return bytes((r(0x81, 0xFF), r(0x41, 0xFF)))
    if name == "utf-8":
        k = r(5)
        cp = (r(0x80, 0x800), r(0x800, 0x10000), r(0x10000, 0x110000), r(0xD800, 0xE000), r(0x80))[k]
        return chr(cp).encode("utf-8", "surrogatepass")
    if name.startswith("utf-16"):
        order = "big" if name.endswith("be") else "little"
        k = r(4)
        if k == 0:
            units = [r(0xD800, 0xDC00), r(0xDC00, 0xE000)]
        elif k == 1:
            units = [r(0xD800, 0xE000)]
        else:
            units = [rng.choice((r(0x80), r(0x80, 0xD800), r(0xE000, 0x10000), 0xFEFF))]
        return b"".join(u.to_bytes(2, order) for u in units)
    return bytes((r(256),))


def random_stream(name: str, rng: random.Random) -> bytes:
    """One stream: 0-60 fragments of valid, truncated, invalid, ASCII, CR/LF and BOM pieces."""
    parts = []
    bom = {"utf-8": b"\xef\xbb\xbf", "utf-16le": b"\xff\xfe", "utf-16be": b"\xfe\xff"}.get(name, b"")
    if bom and rng.randrange(4) == 0:
        parts.append(bom)
    for _ in range(rng.randrange(61)):
        k = rng.randrange(10)
        if k < 4:
            parts.append(_valid_fragment(name, rng))
        elif k == 4:  # truncated: a valid fragment without its last byte
            parts.append(_valid_fragment(name, rng)[:-1])
        elif k == 5:
            parts.append(bytes((rng.randrange(256),)))
        elif k == 6:
            parts.append(bytes((rng.randrange(0x80, 0x100),)))
        elif k == 7:
            text = "".join(rng.choice("abc XYZ019<>~\x00\x1b") for _ in range(rng.randrange(1, 6)))
            parts.append(text.encode("utf-16-le" if name == "utf-16le" else
                                     "utf-16-be" if name == "utf-16be" else "ascii"))
        elif k == 8:
            crlf = rng.choice((b"\r\n", b"\n", b"\r"))
            if name.startswith("utf-16"):
                crlf = crlf.decode().encode("utf-16-le" if name == "utf-16le" else "utf-16-be")
            parts.append(crlf)
        else:
            parts.append(bom or bytes((rng.randrange(0x80, 0x100), rng.randrange(0x30, 0x80))))
    return b"".join(parts)


# ---------------------------------------------------------------------------------------------
# The oracle


def node(*args: str, stdin: str | None = None) -> str:
    r = subprocess.run(["node", str(HERE / "oracle.js"), *args], input=stdin, capture_output=True,
                       text=True, encoding="utf-8", cwd=HERE, check=False)
    if r.returncode != 0:
        sys.exit(f"oracle.js {' '.join(args)} failed:\n{r.stderr}")
    return r.stdout


def decode(requests: list[tuple[str, list[bytes]]]) -> list[list[str]]:
    lines = "".join(json.dumps({"encoding": enc, "hex": [b.hex() for b in inputs]}) + "\n"
                    for enc, inputs in requests)
    out = [json.loads(line)["texts"] for line in node("decode", stdin=lines).split("\n") if line]
    assert len(out) == len(requests)
    return out


def index_file(name: str) -> dict[int, int]:
    table = {}
    for line in (WHATWG / f"index-{name}.txt").read_text(encoding="utf-8").split("\n"):
        if line.strip() and not line.startswith("#"):
            pointer, code_point = line.split("\t")[:2]
            table[int(pointer)] = int(code_point, 16)
    return table


def index_differences() -> dict[str, list[list[int | None]]]:
    """Every ``[pointer, oracle code point, index-file code point]`` where the two disagree."""
    oracle = json.loads(node("indexes"))
    out = {}
    for name, table in sorted(oracle.items()):
        mine = index_file(name)
        if name == "gb18030-ranges":
            theirs = {p: c for p, c in table}
        else:
            theirs = {p: c for p, c in enumerate(table) if c is not None}
        diff = [[p, theirs.get(p), mine.get(p)] for p in sorted(set(theirs) | set(mine))
                if theirs.get(p) != mine.get(p)]
        if diff:
            out[name] = diff
    return out


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def snapshot() -> str:
    for line in (WHATWG / "SOURCE.md").read_text(encoding="utf-8").splitlines():
        if "commit" in line:
            return line.strip()
    return "unknown"


def gzip_bytes(text: str) -> bytes:
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=9) as f:
        f.write(text.encode("ascii"))
    return buf.getvalue()


def record() -> dict[str, bytes]:
    """Run the oracle on every case; return ``{file name: file bytes}``."""
    probe = decode([("windows-1252", [b"\x80", b"\x81\x9f"])])[0]
    if probe != ["\u20ac", "\x81\u0178"]:
        sys.exit(f"the oracle is not the Encoding Standard: windows-1252 80 81 9F gave {probe!r}")
    files = {}
    summary = {}
    for name in encodings():
        rng = random.Random(f"onemail-whatwg-oracle-{name}")
        groups = groups_for(name, rng)
        texts = decode([(name, expand(spec)) for _, spec in groups])
        lines = [json.dumps({"group": g, "inputs": spec, "texts": t}, ensure_ascii=True,
                            separators=(",", ":"))
                 for (g, spec), t in zip(groups, texts, strict=True)]
        files[f"{name}.jsonl.gz"] = gzip_bytes("\n".join(lines) + "\n")
        summary[name] = {g: len(t) for (g, _), t in zip(groups, texts, strict=True)}
    version = json.loads(node("version"))
    meta = {
        "oracle": version,
        "oracle_sources_sha256": {p: sha256(PACKAGE / p) for p in ("lib/encoding.js", "lib/encoding-indexes.js")},
        "standard": snapshot(),
        "windows_1252_0x80": "U+20AC",
        "cases": summary,
        "index_differences": index_differences(),
    }
    files["oracle.json"] = (json.dumps(meta, indent=1, sort_keys=True) + "\n").encode("ascii")
    return files


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with the recording; write nothing")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    if not PACKAGE.exists():
        sys.exit(f"{PACKAGE} is missing: run `npm ci` in {HERE}")
    files = record()
    if args.check:
        stale = [n for n, data in files.items()
                 if not (args.out / n).exists() or (args.out / n).read_bytes() != data]
        extra = sorted({p.name for p in args.out.glob("*")} - set(files) - {"README.md"})
        for n in stale + extra:
            print(f"differs: {n}")
        return 1 if stale or extra else 0
    args.out.mkdir(parents=True, exist_ok=True)
    for n, data in sorted(files.items()):
        (args.out / n).write_bytes(data)
    total = sum(len(d) for d in files.values())
    print(f"wrote {len(files)} files, {total} bytes, to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
