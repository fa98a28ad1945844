"""Helpers shared by the table generators in this folder."""

from __future__ import annotations

import json
from pathlib import Path

WHATWG = (Path(__file__).resolve().parent.parent.parent / ".." / "shared" / "whatwg-encoding").resolve()


def read_index(name: str) -> dict[int, int]:
    """Return ``{pointer: code point}`` of ``index-<name>.txt``."""
    table: dict[int, int] = {}
    for line in (WHATWG / f"index-{name}.txt").read_text(encoding="utf-8").split("\n"):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        table[int(fields[0])] = int(fields[1], 16)
    return table


def read_encodings() -> list[dict]:
    """Return the groups of ``encodings.json``."""
    return json.loads((WHATWG / "encodings.json").read_text(encoding="utf-8"))


def wrap_str_literal(name: str, s: str, width: int = 16) -> str:
    """Return ``name = (...)`` with ``s`` as a chunked, escaped string literal."""
    parts = []
    for i in range(0, len(s), width):
        chunk = s[i : i + width]
        parts.append("    " + "".join(_esc(c) for c in chunk).join('""'))
    return f"{name} = (\n" + "\n".join(parts) + "\n)\n"


def _esc(c: str) -> str:
    o = ord(c)
    if 0x20 <= o < 0x7F and c not in '"\\':
        return c
    if o <= 0xFF:
        return f"\\x{o:02x}"
    if o <= 0xFFFF:
        return f"\\u{o:04x}"
    return f"\\U{o:08x}"
