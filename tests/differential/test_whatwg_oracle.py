"""onemail's decoders against the recorded answers of a WHATWG Encoding Standard oracle.

The oracle is the npm package ``@sinonjs/text-encoding``, recorded by
``tools/whatwg-oracle/record.py`` into ``tests/data/whatwg-oracle/`` (so this runs without Node).
Every case is decoded on its own with ``for_label(name).decode``; where the text differs from the
oracle's, the difference must be explained by one named rule (an id of ``docs/ambiguities.md``,
section "WHATWG oracle comparison (T20-T29)"), else the test fails. The number of cases each rule
explains is pinned, so a rule cannot silently start covering more.
"""

from __future__ import annotations

import gzip
import itertools
import json
import shutil
import subprocess
from collections import Counter
from functools import partial

import pytest
import whatwg_reference as ref
from paths import DATA, REPO, WHATWG

from onemail.text import TextIssue, for_label

RECORDING = DATA / "whatwg-oracle"
ORACLE_DIR = REPO / "tools" / "whatwg-oracle"
META = json.loads((RECORDING / "oracle.json").read_text(encoding="ascii"))
ENCODINGS = sorted(META["cases"])


def expand(spec: dict) -> list[bytes]:
    """The inputs of one recorded group (the format of record.py's module docstring)."""
    if "hex" in spec:
        return [bytes.fromhex(h) for h in spec["hex"]]
    positions = [[v for lo, hi in rs for v in range(lo, hi + 1)] for rs in spec["product"]]
    return [bytes(t) for t in itertools.product(*positions)]


def load(name: str) -> list[tuple[str, list[bytes], list[str | None]]]:
    """Return ``(group, inputs, oracle texts)`` for every recorded group of one encoding."""
    out = []
    with gzip.open(RECORDING / f"{name}.jsonl.gz", "rt", encoding="ascii") as f:
        for line in f:
            g = json.loads(line)
            out.append((g["group"], expand(g["inputs"]), g["texts"]))
    return out


# ---------------------------------------------------------------------------------------------
# The rules (docs/ambiguities.md, "WHATWG oracle comparison (T20-T29)").
#
# A CJK difference is explained by rule R when the standard's decoder written out in
# tests/whatwg_reference.py gives onemail's text AND the same decoder with R's deviation switched
# on gives the oracle's text.

# T20: the package's index gb18030 predates the GB18030-2022 change of 18 pointers.
_T20_OLD = tuple((pointer, theirs) for pointer, theirs, _ in META["index_differences"].get("gb18030", []))

_STANDARD = {"gb18030": ref.gb18030, "gbk": ref.gb18030, "big5": ref.big5, "euc-jp": ref.euc_jp,
             "shift_jis": ref.shift_jis, "euc-kr": ref.euc_kr}
_DEVIATIONS = {
    "gb18030": {"T20": partial(ref.gb18030, old_index=_T20_OLD),
                "T22": partial(ref.gb18030, restore_null_four_byte=True)},
    "euc-jp": {"T23": partial(ref.euc_jp, restore_non_trail=True)},
    "euc-kr": {"T24": partial(ref.euc_kr, restore_only_without_pointer=True)},
}
_DEVIATIONS["gbk"] = _DEVIATIONS["gb18030"]


def explain(name, data, mine, theirs) -> str | None:
    """Return the id of the rule that explains one difference, or None."""
    if name == "iso-8859-8-i":
        # T21: the package throws for ISO-8859-8-I (no index under that name); the standard
        # gives it index ISO-8859-8.
        return "T21" if theirs is None and mine == for_label("iso-8859-8").decode(data) else None
    deviations = _DEVIATIONS.get(name)
    if not deviations or _STANDARD[name](data) != mine:
        return None
    for rule, variant in deviations.items():
        if variant(data) == theirs:
            return rule
    return None


# (encoding, rule) -> number of recorded cases the rule explains; every other case must be equal.
# T21 (iso-8859-8-i) explains exactly the cases holding a byte >= 0x80: counted from the data.
EXPECTED: dict[tuple[str, str], int] = {
    ("gb18030", "T20"): 19, ("gb18030", "T22"): 17432,
    ("gbk", "T20"): 20, ("gbk", "T22"): 17531,
    ("euc-jp", "T23"): 15334,
    ("euc-kr", "T24"): 4667,
}


def _expected_counts(name: str) -> Counter:
    want = Counter()
    for (enc, rule), n in EXPECTED.items():
        if enc == name:
            want[rule] = n
    if name == "iso-8859-8-i":
        want["T21"] = sum(1 for _, inputs, _ in load(name) for b in inputs if max(b, default=0) >= 0x80)
    return want


def test_recording_is_the_encoding_standard():
    """Guard against a recording made with Node's built-in TextDecoder (ISO-8859-1 for 1252)."""
    assert META["oracle"]["package"] == "@sinonjs/text-encoding"
    (group, inputs, texts), *_ = load("windows-1252")
    assert group == "1-byte" and inputs[0x80] == b"\x80"
    assert texts[0x80] == "\u20ac" and texts[0x81] == "\x81" and texts[0x9F] == "\u0178"
    groups = json.loads((WHATWG / "encodings.json").read_text(encoding="utf-8"))
    whatwg = {e["name"].lower() for g in groups for e in g["encodings"]}
    # every WHATWG encoding but replacement (no decoder) and iso-2022-jp (its own family and oracle)
    assert set(ENCODINGS) == whatwg - {"replacement", "iso-2022-jp"}
    assert len(ENCODINGS) == 38


def _compare(name: str, decode) -> Counter:
    """Decode every recorded case; return the rule counts; fail on an unexplained difference."""
    used = Counter()
    unexplained = []
    for group, inputs, texts in load(name):
        ours = [decode(b) for b in inputs]
        if ours == texts:
            continue
        for data, mine, theirs in zip(inputs, ours, texts, strict=True):
            if mine != theirs:
                rule = explain(name, data, mine, theirs)
                if rule is None:
                    unexplained.append(f"{group} {data.hex(' ')}: onemail {mine!r} oracle {theirs!r}")
                else:
                    used[rule] += 1
    assert not unexplained, f"{len(unexplained)} unexplained differences, e.g.\n" + "\n".join(unexplained[:20])
    return used


@pytest.mark.parametrize("name", ENCODINGS)
def test_decoder_matches_oracle(name):
    cs = for_label(name)
    assert cs is not None and cs.key == name
    assert _compare(name, cs.decode) == _expected_counts(name)


@pytest.mark.parametrize("name", sorted(_STANDARD))
def test_reference_matches_oracle(name):
    """The written-out standard decoders differ from the oracle by exactly the pinned rules
    (so the rules hold without onemail's decoders, and the reference is checked too)."""
    assert _compare(name, _STANDARD[name]) == _expected_counts(name)


@pytest.mark.parametrize("name", sorted(_STANDARD))
def test_cjk_issues_match_reference(name):
    """onemail's issues (byte offset, length) are the errors of the written-out standard decoder:
    each error covers the bytes it consumed, a restored byte is not part of it. Inputs: the
    recorded random streams and every 5th case of the other groups."""
    cs = for_label(name)
    kind = cs._codec.invalid_kind
    for group, inputs, _ in load(name):
        for data in inputs if group == "random" else inputs[::5]:
            errors: list[tuple[int, int]] = []
            text = _STANDARD[name](data, errors=errors)
            issues = []
            assert cs.decode(data, issues, 3) == text, data.hex(" ")
            assert issues == [TextIssue(kind, 3 + o, n) for o, n in errors], data.hex(" ")


def test_live_oracle_agrees_with_recording():
    """With Node and the package installed, a sample of the recording is decoded again."""
    node = shutil.which("node")
    if node is None or not (ORACLE_DIR / "node_modules" / "@sinonjs" / "text-encoding").exists():
        pytest.skip("node or tools/whatwg-oracle/node_modules absent (run npm ci there)")
    requests, expected = [], []
    for name in ("windows-1252", "utf-8", "utf-16le", "gb18030", "big5", "euc-jp", "shift_jis", "euc-kr"):
        for _, inputs, texts in load(name):
            step = max(1, len(inputs) // 300)
            requests.append(json.dumps({"encoding": name, "hex": [b.hex() for b in inputs[::step]]}))
            expected.append(texts[::step])
    r = subprocess.run([node, str(ORACLE_DIR / "oracle.js"), "decode"], input="\n".join(requests) + "\n",
                       capture_output=True, text=True, encoding="utf-8", cwd=ORACLE_DIR, check=True)
    got = [json.loads(line)["texts"] for line in r.stdout.split("\n") if line]
    assert got == expected
