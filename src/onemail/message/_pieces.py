"""The message layer's access to the other layers, with temporary fallbacks.

Header text goes through ``onemail.text.rfc2047`` and ``onemail.text.rfc2231``; the detector
(``onemail.detect``) is imported on first use (only undeclared 8-bit text needs it). While a piece
is not yet present in the source tree, a stand-in keeps the message layer usable (TEMPORARY:
each stand-in goes once its piece lands).
"""

from __future__ import annotations

from ..text import TextIssue, decode_unknown, for_label
from ..text.charsets import Charset
from ..text.rfc2047 import decode_text
from ..text.rfc2231 import parse_header_params

_UTF8 = for_label("utf-8")
_W1252 = for_label("windows-1252")


def charset_decode(cs: Charset, data: bytes, issues, offset: int = 0) -> str:
    """Decode with ``cs``; a decoder family not yet present decodes with Python's codec."""
    try:
        return cs.decode(data, issues, offset)
    except ImportError:  # TEMPORARY: CJK / ISO-2022 / UTF-7 families not yet in the tree
        py = {"gbk": "gb18030", "euc-kr": "cp949", "shift_jis": "cp932", "big5": "big5hkscs",
              "cp50220": "iso-2022-jp-ext", "cp50221": "iso-2022-jp-ext", "cp50222": "iso-2022-jp-ext",
              "hz-gb-2312": "hz", "iso-2022-jp-3": "iso2022_jp_3"}.get(cs.key, cs.key)
        try:
            return data.decode(py, "replace")
        except LookupError:
            return decode_unknown(data, issues, offset)[0]


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


def repair_text(text: str):
    """Return ``(text, steps)`` from mojibake repair, or ``(text, ())`` if none is available."""
    try:
        from ..detect import repair
    except ImportError:
        return text, ()
    try:
        result = repair(text)
    except ImportError:  # TEMPORARY
        return text, ()
    return result.text, tuple(result.steps)
