"""Header fields of the real mail in ``../shared/corpus/mail/`` (top level and MIME part headers).

Used by the RFC 2047/2231 corpus tests, ``bench/rfc2047.py`` and ``tools/text-diff/generate.py``.
A light reader, not a MIME parser: the header block of the message, and the header block after
every line ``--boundary`` for each ``boundary=`` parameter seen in the file.
"""

from __future__ import annotations

import re
from pathlib import Path

from paths import CORPUS

MAIL = CORPUS / "mail"
_BOUNDARY = re.compile(rb'boundary\s*=\s*(?:"([^"\r\n]+)"|([^;\s"]+))', re.I)
_BLANK = re.compile(rb"\r?\n\r?\n")


def eml_files() -> list[Path]:
    """Every ``.eml`` file of the mail corpus, sorted."""
    return sorted(MAIL.rglob("*.eml"))


def header_fields(block: bytes) -> list[tuple[bytes, bytes]]:
    """Split a header block into (name, raw value) pairs; folds are kept in the value."""
    fields: list[list[bytes]] = []
    for line in re.split(rb"(?<=\n)", block):
        if not line:
            continue
        if line[:1] in (b" ", b"\t") and fields:
            fields[-1][1] += line
            continue
        name, sep, value = line.partition(b":")
        if not sep or not name or b" " in name.strip() or name[:1] in (b" ", b"\t"):
            continue
        fields.append([name.strip(), value])
    out = []
    for name, value in fields:
        value = value.lstrip(b" \t")
        if value.endswith(b"\r\n"):
            value = value[:-2]
        elif value.endswith(b"\n"):
            value = value[:-1]
        out.append((name, value))
    return out


def message_headers(data: bytes) -> list[tuple[bytes, bytes]]:
    """All header fields of one message: its own and those of its MIME parts."""
    m = _BLANK.search(data)
    head = data[:m.start() + 1] if m else data
    fields = header_fields(head)
    boundaries = {(b.group(1) or b.group(2)) for b in _BOUNDARY.finditer(data)}
    for boundary in boundaries:
        marker = b"\n--" + boundary
        k = data.find(marker)
        while k >= 0:
            line_end = data.find(b"\n", k + 1)
            if line_end < 0:
                break
            if data[k + 3 + len(boundary):line_end].strip() == b"":  # not the closing "--"
                rest = data[line_end + 1:line_end + 1 + 65536]
                m = _BLANK.search(b"\n" + rest)
                if m:
                    fields.extend(header_fields(rest[:max(m.start(), 0)]))
            k = data.find(marker, line_end)
    return fields


def corpus_headers() -> list[tuple[str, bytes, bytes]]:
    """(file name relative to the mail corpus, header name, raw value) for every header field."""
    out = []
    for path in eml_files():
        rel = str(path.relative_to(MAIL))
        for name, value in message_headers(path.read_bytes()):
            out.append((rel, name, value))
    return out
