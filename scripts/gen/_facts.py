"""Read the charset facts (``scripts/data/charsets.toml``) and the IANA registry extract.

Shared by ``labels.py`` and ``single_byte.py`` here and by the tests (``tests/paths.py`` points
at the same files). Labels are compared in their *loose* form (ambiguity T80), which
``onemail.text.charsets`` computes the same way at run time (``tests/spec/test_labels.py``
checks that every generated key is its own loose form).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "data"
FACTS = DATA / "charsets.toml"
IANA = DATA / "iana-character-sets.tsv"
#: Inputs of the generated header (``repo:`` paths are hashed by generate_tables.py).
FACTS_INPUT = "repo:scripts/data/charsets.toml"
IANA_INPUT = "repo:scripts/data/iana-character-sets.tsv"

_NOT_ALNUM = re.compile(r"[^a-z0-9]+")
_LEADING_ZEROS = re.compile(r"(?<![0-9])0+(?=[0-9])")


def loose(label: str) -> str:
    """Return the loose form of a label (T80): lower case, a leading ``x-``/``x_`` dropped,
    then Unicode TS #22's charset alias matching: the zeros that begin a number (not after a
    digit, before one) and every character other than ``a-z`` and ``0-9`` dropped
    (``"X-ISO_2022-JP"`` -> ``"iso2022jp"``, ``"IBM00858"`` -> ``"ibm858"``, ``"8859-01"`` ->
    ``"88591"``)."""
    lab = label.strip(" \t\n\f\r").lower()
    if lab[:2] in ("x-", "x_"):
        lab = lab[2:]
    return _NOT_ALNUM.sub("", _LEADING_ZEROS.sub("", lab))


def read_facts() -> list[dict]:
    """Return the ``[[decoder]]`` entries of charsets.toml, with defaults filled in."""
    with FACTS.open("rb") as f:
        decoders = tomllib.load(f)["decoder"]
    for d in decoders:
        d.setdefault("name", d["key"])
        d.setdefault("python", [])
        d.setdefault("labels", [])
        d["code_pages"] = {int(cp): name for cp, name in d.get("code_pages", {}).items()}
    keys = [d["key"] for d in decoders]
    if len(set(keys)) != len(keys):
        raise ValueError("charsets.toml: a decoder key occurs twice")
    return decoders


def read_iana() -> list[tuple[int, list[str]]]:
    """Return ``(MIBenum, [name, preferred MIME name, aliases...])`` per row of the extract."""
    rows = []
    for line in IANA.read_text(encoding="ascii").splitlines():
        if not line or line.startswith("#"):
            continue
        mib, name, preferred, aliases = line.split("\t")
        names = [name] + ([preferred] if preferred else []) + aliases.split()
        rows.append((int(mib), names))
    return rows
