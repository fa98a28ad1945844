"""The message layer's access to the other layers, with temporary fallbacks.

The encoded-word decoder (``onemail.text.rfc2047``), the parameter decoder
(``onemail.text.rfc2231``), the CJK / ISO-2022 / UTF-7 decoders, compressed RTF
(``onemail.rtf``) and the detector (``onemail.detect``) are imported lazily on first use. While a
piece is not yet present in the source tree, a minimal stand-in keeps the message layer usable
(TEMPORARY: each stand-in goes once its piece lands).
"""

from __future__ import annotations

import binascii
import re

from ..text import IssueKind, TextIssue, decode_unknown, for_label
from ..text.charsets import Charset

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
# RFC 2047

def decode_header_text(raw: bytes, issues: list[TextIssue] | None, offset: int = 0,
                       fallback: Charset = _W1252) -> str:
    """Decode a raw header value: folds, encoded words, raw 8-bit text (``fallback`` if not UTF-8)."""
    try:
        from ..text.rfc2047 import decode_text
    except ImportError:
        return _fallback_decode_text(raw, issues, offset)
    return decode_text(raw, fallback, issues, offset)


_FOLD = re.compile(rb"\r?\n(?=[ \t])|\r(?=[ \t])")
_EW = re.compile(rb"=\?([^?\s]+)\?([BbQq])\?([^?\s]*)\?=")
_GAP = re.compile(rb"[ \t]*\Z")


def _plain(data: bytes, issues, offset) -> str:
    if data.isascii():
        return data.decode("ascii")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        if issues is not None:
            issues.append(TextIssue(IssueKind.AMBIGUOUS_RAW_8BIT, offset, len(data)))
        return charset_decode(_W1252, data, issues, offset)


def _fallback_decode_text(raw: bytes, issues, offset) -> str:  # TEMPORARY stand-in
    raw = _FOLD.sub(b"", raw)
    out: list[str] = []
    pos = 0
    prev_end = -1
    for m in _EW.finditer(raw):
        gap = raw[pos:m.start()]
        if not (prev_end == m.start() - len(gap) and _GAP.match(gap) and prev_end >= 0):
            out.append(_plain(gap, issues, offset + pos))
        label = m.group(1).split(b"*")[0].decode("ascii", "replace")
        body = m.group(3)
        if m.group(2) in b"Bb":
            try:
                data = binascii.a2b_base64(body + b"===")
            except binascii.Error:
                data = body
        else:
            data = binascii.a2b_qp(body.replace(b"_", b" "))
        cs = for_label(label)
        out.append(decode_unknown(data, issues, offset + m.start())[0] if cs is None
                   else charset_decode(cs, data, issues, offset + m.start()))
        pos = prev_end = m.end()
    out.append(_plain(raw[pos:], issues, offset + pos))
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# RFC 2231

def header_params(raw: bytes, fallback: Charset = _W1252) -> tuple[str, list]:
    """Split a Content-Type/-Disposition value: ``(value, [DecodedParameter-like, ...])``.

    Each parameter has ``name``, ``value``, ``issues`` (TextIssue tuple).
    """
    try:
        from ..text.rfc2231 import parse_header_params
    except ImportError:
        return _fallback_params(raw)
    return parse_header_params(raw, fallback=fallback)


class _Param:  # TEMPORARY stand-in for rfc2231.DecodedParameter
    __slots__ = ("name", "value", "charset", "language", "method", "issues")

    def __init__(self, name, value, issues):
        self.name, self.value, self.issues = name, value, tuple(issues)
        self.charset = self.language = self.method = None


_PARAM = re.compile(rb'\s*;\s*([^\s=;]+)\s*=\s*("(?:[^"\\]|\\.)*"?|[^;]*)', re.S)


def _fallback_params(raw: bytes):  # TEMPORARY stand-in
    raw = _FOLD.sub(b"", raw)
    head, _, rest = raw.partition(b";")
    segs: dict[str, dict] = {}
    order: list[str] = []
    for m in _PARAM.finditer(b";" + rest):
        name = m.group(1).decode("ascii", "replace").lower()
        val = m.group(2).strip()
        if val.startswith(b'"'):
            val = re.sub(rb"\\(.)", rb"\1", val.strip(b'"'))
        base, star, num = name, False, 0
        if base.endswith("*"):
            base, star = base[:-1], True
        if "*" in base:
            base, _, n = base.partition("*")
            num = int(n) if n.isdigit() else 0
        if base not in segs:
            segs[base] = {}
            order.append(base)
        segs[base].setdefault(num, (star, val))
    out = []
    for base in order:
        issues: list[TextIssue] = []
        parts = [segs[base][k] for k in sorted(segs[base])]
        label = None
        data = b""
        for i, (star, val) in enumerate(parts):
            if star:
                if i == 0 and val.count(b"'") >= 2:
                    lab, _, val = val.partition(b"'")
                    val = val.partition(b"'")[2]
                    label = lab.decode("ascii", "replace")
                val = re.sub(rb"%([0-9A-Fa-f]{2})", lambda mm: bytes([int(mm.group(1), 16)]), val)
            data += val
        cs = for_label(label) if label else None
        if cs is not None:
            text = charset_decode(cs, data, issues)
        elif b"=?" in data:
            text = _fallback_decode_text(data, issues, 0)
        else:
            text = _plain(data, issues, 0)
        out.append(_Param(base, text, issues))
    return _plain(head.strip(), None, 0), out


# ---------------------------------------------------------------------------------------------
# Detection and repair

def detect_charset(data: bytes) -> Charset:
    """Return the detector's charset for 8-bit ``data`` that is not UTF-8 (windows-1252 if none)."""
    try:
        from ..detect import detect
    except ImportError:
        return _W1252
    try:
        found = detect(data)
    except ImportError:  # TEMPORARY: the detector's own modules not yet in the tree
        return _W1252
    cs = found.charset
    if isinstance(cs, str):
        cs = for_label(cs)
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
