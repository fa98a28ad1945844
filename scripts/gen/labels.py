"""Generate ``src/onemail/text/_tables/labels.py``: every label of ``encodings.json``.

The output maps each WHATWG label (already lower-case ASCII) to the encoding's canonical name,
lower-cased (``"latin1" -> "windows-1252"``). Encodings the standard maps to ``replacement``
are kept under that name so the resolver can return ``None`` for them (spec 000 "Charsets").
"""

from __future__ import annotations

from _common import read_encodings


def body() -> str:
    pairs = []
    for group in read_encodings():
        for enc in group["encodings"]:
            for label in enc["labels"]:
                pairs.append((label, enc["name"].lower()))
    pairs.sort()
    lines = ["WHATWG_LABELS: dict[str, str] = {"]
    lines += [f"    {label!r}: {name!r}," for label, name in pairs]
    lines.append("}")
    return "\n".join(lines) + "\n"


OUTPUTS = [("src/onemail/text/_tables/labels.py", ["encodings.json"], body)]
