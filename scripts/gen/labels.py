"""Generate ``src/onemail/text/_tables/labels.py``: decoders, code pages and every label.

The rule (ambiguity T80), from data, not from a list of examples:

* ``DECODERS`` and ``CODE_PAGES`` are ``scripts/data/charsets.toml`` (the one table of charset
  facts: key, header name, family module, code pages).
* ``MAIL_ONLY``: the facts' mail-only labels (spec 000 "Charsets" step 1), loose form -> key.
* ``LABELS``, loose form -> key (``"replacement"`` for the labels the Encoding Standard maps to
  it), in this order of precedence: every label of the WHATWG ``encodings.json``; the names
  and aliases of the IANA registry's rows (``scripts/data/iana-character-sets.tsv``), each row
  mapped to the one decoder its names already reach (mail-only, WHATWG, CPython or code page);
  CPython's codec names and ``encodings.aliases`` of the codecs the facts list per decoder.
* ``US_ASCII``: the loose forms that name US-ASCII (IANA MIBenum 3 and CPython's ``ascii``).

The resolver (``onemail.text.charsets``) looks at ``MAIL_ONLY``, then a Windows-style code
page spelling, then ``LABELS``. The build fails if two sources disagree about a loose form
other than by that precedence, if an IANA row reaches no decoder or two, or if a WHATWG label
would not resolve to its encoding (except spec 000's mail-only ones).
"""

from __future__ import annotations

import encodings.aliases
import re

from _common import read_encodings
from _facts import FACTS_INPUT, IANA_INPUT, loose, read_facts, read_iana

# Spec 000 step 1 takes these WHATWG labels before the standard's table (which says replacement).
MAIL_ONLY_FIRST = {"iso-2022-kr", "csiso2022kr", "hz-gb-2312"}
# spec 000 step 2, on the loose form (charsets.py holds the same pattern).
CODE_PAGE_SPELLING = re.compile(r"(?:ms)?(?:cp|windows|codepage|ms)([1-9][0-9]{2,4})\Z")


def _tables():
    facts = read_facts()
    code_pages: dict[int, tuple[str, str]] = {}
    for d in facts:
        for cp, name in d["code_pages"].items():
            if cp in code_pages:
                raise ValueError(f"code page {cp} given twice")
            code_pages[cp] = (name, d["key"])

    mail_only: dict[str, str] = {}
    for d in facts:
        for label in d["labels"]:
            k = loose(label)
            if mail_only.setdefault(k, d["key"]) != d["key"]:
                raise ValueError(f"mail-only label {label!r} names two decoders")

    def by_code_page(k: str) -> str | None:
        m = CODE_PAGE_SPELLING.match(k)
        entry = code_pages.get(int(m.group(1))) if m else None
        return entry[1] if entry else None

    whatwg: dict[str, str] = {}
    for group in read_encodings():
        for enc in group["encodings"]:
            for label in enc["labels"]:
                k = loose(label)
                if whatwg.setdefault(k, enc["name"].lower()) != enc["name"].lower():
                    raise ValueError(f"WHATWG labels collide in loose form: {label!r}")

    python: dict[str, str] = {}
    known_codecs = set()
    for d in facts:
        for codec in d["python"]:
            known_codecs.add(codec)
            names = [codec] + sorted(a for a, c in encodings.aliases.aliases.items() if c == codec)
            for name in names:
                k = loose(name)
                if python.setdefault(k, d["key"]) != d["key"]:
                    raise ValueError(f"CPython name {name!r} reaches two decoders")
    missing = {c for c in known_codecs if not _codec_exists(c)}
    if missing:
        raise ValueError(f"charsets.toml names CPython codecs that do not exist: {sorted(missing)}")

    def first(k: str) -> str | None:
        """The decoder a loose form reaches before IANA is read (runtime precedence)."""
        for found in (mail_only.get(k), by_code_page(k), whatwg.get(k), python.get(k)):
            if found is not None:
                return found
        return None

    iana: dict[str, str] = {}
    us_ascii = {loose("ascii")} | {loose(a) for a, c in encodings.aliases.aliases.items() if c == "ascii"}
    for mib, names in read_iana():
        reached = {first(loose(n)) for n in names} - {None}
        if len(reached) != 1:
            raise ValueError(f"IANA row {mib} ({names[0]}) reaches {sorted(reached) or 'no decoder'}")
        key = reached.pop()
        for n in names:
            iana.setdefault(loose(n), key)
        if mib == 3:
            us_ascii |= {loose(n) for n in names}

    labels: dict[str, str] = {}
    for source in (whatwg, iana, python):
        for k, key in source.items():
            labels.setdefault(k, key)
    # Every source agrees with the one before it, except where the precedence is the rule.
    for name, source in (("IANA", iana), ("CPython", python)):
        for k, key in source.items():
            if labels[k] != key and k not in mail_only:
                raise ValueError(f"{name} maps {k!r} to {key}, WHATWG to {labels[k]}")
    for k, key in labels.items():
        cp_key = by_code_page(k)
        if k not in mail_only and cp_key is not None and cp_key != key:
            raise ValueError(f"{k!r}: code page spelling gives {cp_key}, the label tables {key}")
    # Keep only what the resolver needs: a label that mail-only or a code page spelling
    # already reaches is left out of LABELS.
    labels = {k: v for k, v in labels.items() if k not in mail_only and by_code_page(k) is None}
    for group in read_encodings():
        for enc in group["encodings"]:
            for label in enc["labels"]:
                k = loose(label)
                got = mail_only.get(k) or by_code_page(k) or labels.get(k)
                want = enc["name"].lower()
                if got != want and label not in MAIL_ONLY_FIRST:
                    raise ValueError(f"WHATWG label {label!r} would resolve to {got}, not {want}")
    return facts, code_pages, mail_only, labels, us_ascii


def _codec_exists(name: str) -> bool:
    import codecs

    try:
        codecs.lookup(name)
        return True
    except LookupError:
        return False


def _dict(name: str, typ: str, items) -> list[str]:
    return [f"{name}: {typ} = {{"] + [f"    {k!r}: {v!r}," for k, v in items] + ["}"]


def body() -> str:
    facts, code_pages, mail_only, labels, us_ascii = _tables()
    lines = [
        "# The charset facts are scripts/data/charsets.toml; label sources (ambiguity T80): the",
        "# WHATWG Encoding Standard's encodings.json, the IANA Character Sets registry",
        "# (scripts/data/iana-character-sets.tsv; public domain, CC0 1.0), CPython's",
        "# encodings.aliases (PSF licence; facts only) and the mail-only labels of the facts.",
        "",
        "#: decoder key -> (header name, family module relative to onemail.text, codec() argument)",
    ]
    decoders = []
    for d in sorted(facts, key=lambda d: d["key"]):
        table = d.get("table", "")
        arg = table.split(":", 1)[1] if table.startswith("whatwg:") else d["key"]
        decoders.append((d["key"], (d["name"], d["module"], arg)))
    lines += _dict("DECODERS", "dict[str, tuple[str, str, str]]", decoders)
    lines += ["", "#: Windows / MAPI code page -> (header name, decoder key)"]
    lines += _dict("CODE_PAGES", "dict[int, tuple[str, str]]", sorted(code_pages.items()))
    lines += ["", "#: loose label -> decoder key: spec 000 step 1 (mail-only labels)"]
    lines += _dict("MAIL_ONLY", "dict[str, str]", sorted(mail_only.items()))
    lines += ["", "#: loose label -> decoder key or 'replacement': WHATWG, then IANA, then CPython"]
    lines += _dict("LABELS", "dict[str, str]", sorted(labels.items()))
    lines += ["", "#: loose labels of US-ASCII (IANA MIBenum 3, CPython's ascii codec)"]
    lines += ["US_ASCII: frozenset[str] = frozenset({"] + [f"    {k!r}," for k in sorted(us_ascii)] + ["})"]
    return "\n".join(lines) + "\n"


OUTPUTS = [("src/onemail/text/_tables/labels.py",
            ["encodings.json", FACTS_INPUT, IANA_INPUT, "cpython:encodings.aliases"], body)]
