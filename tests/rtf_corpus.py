"""Helpers for the compressed-RTF corpus (``../shared/corpus/rtf``): streams paired with their RTF."""

from __future__ import annotations

import csv
from functools import cache

from paths import CORPUS

RTF_CORPUS = CORPUS / "rtf"


@cache
def manifest() -> tuple[dict, ...]:
    """Return the rows of ``MANIFEST.tsv`` as dicts."""
    with open(RTF_CORPUS / "MANIFEST.tsv", newline="", encoding="utf-8") as f:
        return tuple(csv.DictReader(f, delimiter="\t"))


@cache
def streams() -> tuple[tuple[dict, bytes, bytes], ...]:
    """Return ``(row, stream, rtf)`` for every compressed stream, its RTF found by group."""
    rtf_by_group = {
        row["group"]: row["file"]
        for row in manifest()
        if row["kind"] in ("rtf-decompressed", "rtf-file")
    }
    out = []
    for row in manifest():
        if row["kind"] == "compressed":
            stream = (RTF_CORPUS / row["file"]).read_bytes()
            rtf = (RTF_CORPUS / rtf_by_group[row["group"]]).read_bytes()
            out.append((row, stream, rtf))
    return tuple(out)


def stream_named(group: str) -> tuple[bytes, bytes]:
    """Return ``(stream, rtf)`` of the corpus group ``group``."""
    for row, stream, rtf in streams():
        if row["group"] == group:
            return stream, rtf
    raise KeyError(group)
