"""The message layer's access to the other layers.

Header text goes through ``onemail.text.rfc2047`` and ``onemail.text.rfc2231``; the detector and
mojibake repair (``onemail.detect``) are imported on first use (only undeclared 8-bit text and
``repair=True`` need them).
"""

from __future__ import annotations

from ..text import TextIssue, for_label
from ..text.charsets import Charset
from ..text.rfc2047 import decode_text
from ..text.rfc2231 import parse_header_params

_UTF8 = for_label("utf-8")
_W1252 = for_label("windows-1252")


# ---------------------------------------------------------------------------------------------
# RFC 2047, RFC 2231

def decode_header_text(raw: bytes, issues: list[TextIssue] | None, offset: int = 0,
                       fallback: Charset = _W1252) -> str:
    """Decode a raw header value: folds, encoded words, raw 8-bit text (``fallback`` if not UTF-8)."""
    return decode_text(raw, fallback, issues, offset)


def header_params(raw: bytes, fallback: Charset = _W1252) -> tuple[str, list]:
    """Split a Content-Type/-Disposition value: ``(value, [DecodedParameter, ...])``."""
    return parse_header_params(raw, fallback=fallback)


# ---------------------------------------------------------------------------------------------
# Detection and repair

def detect_charset(data: bytes) -> Charset:
    """Return the detector's charset for 8-bit ``data`` that is not UTF-8 (windows-1252 if none)."""
    from ..detect import detect

    cs = for_label(detect(data).charset)
    return cs if cs is not None else _W1252


def repair_text(text: str) -> tuple[str, tuple]:
    """Return ``(text, steps)`` from :func:`onemail.detect.repair` (steps empty: no change)."""
    from ..detect import repair

    result = repair(text)
    return result.text, tuple(result.steps)
