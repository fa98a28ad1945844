"""The message layer's access to the other layers.

Header text goes through ``onemail.text.rfc2047`` and ``onemail.text.rfc2231``; the detector and
mojibake repair (``onemail.detect``) are imported on first use (only undeclared 8-bit text and
``repair=True`` need them).
"""

from __future__ import annotations

from typing import Any

from ..text import TextIssue, for_code_page, for_label
from ..text.charsets import Charset
from ..text.rfc2047 import ISO2022_JP_DESIGNATION as ISO2022_JP_DESIGNATION  # (for addresses)
from ..text.rfc2047 import decode_text
from ..text.rfc2231 import DecodedParameter, parse_header_params


def known_charset(label: str | int) -> Charset:
    """The charset of a label (or code page) onemail always knows (``"utf-8"``, 20127 ...)."""
    charset = for_label(label) if isinstance(label, str) else for_code_page(label)
    assert charset is not None, label
    return charset


_UTF8 = known_charset("utf-8")
_W1252 = known_charset("windows-1252")

# ---------------------------------------------------------------------------------------------
# RFC 2047, RFC 2231

def decode_header_text(raw: bytes, issues: list[TextIssue] | None, offset: int = 0,
                       fallback: Charset = _W1252) -> str:
    """Decode a raw header value: folds, encoded words, raw 8-bit text (``fallback`` if not UTF-8)."""
    return decode_text(raw, fallback=fallback, issues=issues, offset=offset)


def header_params(raw: bytes, fallback: Charset = _W1252, *,
                  max_issues: int | None = None) -> tuple[str, list[DecodedParameter]]:
    """Split a Content-Type/-Disposition value: ``(value, [DecodedParameter, ...])``; at most
    ``max_issues`` issues per parameter, then one ``TooManyIssues`` (``DecodedParameter.dropped``)."""
    return parse_header_params(raw, fallback=fallback, max_issues=max_issues)


# ---------------------------------------------------------------------------------------------
# Detection and repair

def detect_charset(data: bytes) -> Charset:
    """Return the detector's charset for 8-bit ``data`` that is not UTF-8.

    When the two best readings tie (confidence 0) and give different texts (one or two 8-bit
    bytes in Latin text: csdmc2010 spam with a lone 0xA9, iso-8859-2 "Š" against iso-8859-4),
    the detector has not chosen: windows-1252, the unknown-charset rule's reading (spec 000,
    T1), is used, as for a label onemail does not know. A tie of charsets that read the bytes
    alike (koi8-r and koi8-u on Russian) keeps the first. Only the second row counts: rows
    further down may show a bound (D16) that rounds to the same score without tying (a hostile
    test: a KOI8-R reply below an English quote became windows-1252 mojibake).
    """
    from ..detect import detect

    found = detect(data)
    cs = for_label(found.charset)
    if cs is None:
        return _W1252
    if found.confidence == 0 and len(found.candidates) > 1:
        second = for_label(found.candidates[1].charset)
        if second is None or second.decode(data) != cs.decode(data):
            return _W1252
    return cs


def looks_binary(data: bytes) -> bool:
    """:func:`onemail.detect.looks_binary`: the bytes are not text in any charset."""
    from ..detect import looks_binary as binary

    return binary(data)


def mojibake_steps(text: str) -> tuple[Any, ...]:
    """The steps :func:`onemail.detect.repair` would apply to ``text`` (empty: none)."""
    from ..detect import mojibake_steps as steps

    return steps(text)


def repair_text(text: str) -> tuple[str, tuple[Any, ...]]:
    """Return ``(text, steps)`` from :func:`onemail.detect.repair` (steps empty: no change)."""
    from ..detect import repair

    result = repair(text)
    return result.text, tuple(result.steps)
