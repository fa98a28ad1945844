"""The charset of a body: spec README decision 3 (RFC 6657 applied).

Order, and what :func:`decode_body` reports as the part's ``charset_source``:

1. ``bom`` -- a UTF-8 or UTF-16 byte order mark wins (the BOM is kept as U+FEFF: lossless).
2. ``in-band`` -- for ``text/html`` (and XHTML) the WHATWG prescan of the first 1024 bytes finds
   a ``<meta charset>`` or ``<meta http-equiv=content-type content="...charset=...">``; for
   ``text/xml`` (and ``+xml``) the XML declaration's ``encoding``. The in-band label is used
   when it names a known charset and the body decodes with it without ``Invalid*`` issues, also
   over a different ``charset`` parameter (RFC 6657 section 5: in-band over out-of-band).
3. ``declared`` -- the ``charset`` parameter (or the MAPI code page), unless it is UTF-8, UTF-7
   or a 7-bit ISO-2022 / HZ charset and at least a quarter of the body's 8-bit bytes are invalid
   in it: then UTF-8 if valid, else the detector's charset if it decodes cleanly (M6,
   ``detected``).
4. ``default`` -- no charset: pure ASCII is US-ASCII (decoded as windows-1252, spec 000); 8-bit
   content that is valid UTF-8 is UTF-8. An unknown label follows the unknown-charset rule
   (UTF-8 if valid), reported as ``AmbiguousUnknownCharset`` (T1).
5. ``detected`` -- other 8-bit content goes to :func:`onemail.detect.detect`.

Issues (byte offsets into the body): ``AmbiguousInBandCharset`` (M3) when the BOM or in-band
label is used with no parameter, ``AmbiguousCharsetConflict`` (M4) when it differs from the
parameter (whichever won; the issue points at the BOM or the in-band label),
``AmbiguousDefaultCharset`` (M1) for a default choice on 8-bit content,
``AmbiguousDetectedCharset`` (M2), ``AmbiguousMislabelledCharset`` (M6), ``AmbiguousNulInText``
(M50) for NUL characters in the text, plus the decoder's ``Invalid*`` issues.
"""

from __future__ import annotations

import re

from ..text import IssueKind, TextIssue, for_label
from ..text.charsets import Charset, is_us_ascii_label
from ..text.issues import BoundedIssues
from ._pieces import detect_charset, known_charset
from .issues import MessageIssueKind

__all__ = ["decode_body", "nul_issue", "prescan", "xml_declaration"]

_UTF8 = known_charset("utf-8")
_US_ASCII = known_charset(20127)  # name "us-ascii", decoded as windows-1252 (spec 000)
_BOMS = ((b"\xef\xbb\xbf", "utf-8"), (b"\xfe\xff", "utf-16be"), (b"\xff\xfe", "utf-16le"))

PRESCAN_BYTES = 1024
"""The WHATWG prescan looks at the first 1024 bytes (HTML Standard, "prescan a byte stream")."""

_HTML = frozenset({"text/html", "application/xhtml+xml"})


def _is_xml(media_type: str) -> bool:
    return media_type in ("text/xml", "application/xml") or media_type.endswith("+xml")


def decode_body(data: bytes, media_type: str, declared: str | Charset | None, *,
                issues: list[TextIssue]) -> tuple[str, Charset, str]:
    """Decode a text body; return ``(text, charset used, how it was chosen)``.

    Implements spec README decision 3 (module docstring). NUL characters in the text (binary
    content sent as text) are kept, with one ``AmbiguousNulInText`` issue (M50,
    :func:`nul_issue`).

    :param data: the body bytes after the transfer encoding.
    :param media_type: lower-case ``type/subtype``.
    :param declared: the ``charset`` parameter as written (a label), a :class:`Charset` already
        resolved (a MAPI code page), or ``None``.
    :param issues: list to append to (byte offsets into ``data``).
    :returns: ``(text, charset, source)`` with source one of ``declared``, ``bom``, ``in-band``,
        ``default``, ``detected``.
    :issues: M1-M4, M6, M50, T1, and ``Invalid*`` from the decoder.
    """
    text, cs, source = _decode_body(data, media_type, declared, issues=issues)
    if "\0" in text:
        issues.append(nul_issue(text, data, cs))
    return text, cs, source


_NUL_UNITS = {"utf-16le": 2, "utf-16be": 2, "utf-32le": 4, "utf-32be": 4}
_NUL_RUN = re.compile("\0+")


def nul_issue(text: str, data: bytes, charset: Charset) -> TextIssue:
    """The ``AmbiguousNulInText`` issue (M50) of a body whose text holds U+0000: at the first
    run of NUL characters, as byte offset and length in ``data`` (whole code units in
    UTF-16/32); one issue per body, whatever the number of runs.

    :param text: the decoded text (characters), holding at least one U+0000.
    :param data: the body bytes it was decoded from (after the transfer encoding).
    :param charset: the charset that decoded them.
    """
    start = text.find("\0")
    run = _NUL_RUN.match(text, max(start, 0))
    chars = run.end() - run.start() if run else 1
    unit = _NUL_UNITS.get(charset.key)
    if unit is None:  # a NUL byte is a NUL character, and nothing else is (ASCII-compatible)
        at = data.find(b"\0")
        if at < 0:  # a NUL the decoder produced otherwise (a code page mapping to U+0000)
            return TextIssue(MessageIssueKind.AMBIGUOUS_NUL_IN_TEXT, 0, len(data))  # type: ignore[arg-type]  # message kind
        return TextIssue(MessageIssueKind.AMBIGUOUS_NUL_IN_TEXT, at, chars)  # type: ignore[arg-type]  # message kind
    # UTF-16/32: each character before it is its own length again (a BOM is kept as U+FEFF, an
    # invalid unit became one U+FFFD of one unit), so the prefix encoded gives the offset
    at = len(text[:start].encode(charset.key, "surrogatepass"))
    return TextIssue(MessageIssueKind.AMBIGUOUS_NUL_IN_TEXT, at, chars * unit)  # type: ignore[arg-type]  # message kind


def _decode_body(data: bytes, media_type: str, declared: str | Charset | None, *,
                 issues: list[TextIssue]) -> tuple[str, Charset, str]:
    declared_cs: Charset | None
    label: str | None
    if isinstance(declared, Charset):
        declared_cs, label = declared, declared.name
    else:
        label = declared.strip() if declared else None
        declared_cs = for_label(label) if label else None
        if declared_cs is not None and label and data.isascii() and is_us_ascii_label(label):
            declared_cs = _US_ASCII  # ASCII text under a US-ASCII label is named us-ascii

    # 1. byte order mark
    for bom, name in _BOMS:
        if data.startswith(bom):
            cs = known_charset(name)
            if declared_cs is not None and declared_cs.key == cs.key:
                return cs.decode(data, issues), declared_cs, "declared"
            kind = (MessageIssueKind.AMBIGUOUS_CHARSET_CONFLICT if declared_cs is not None
                    else MessageIssueKind.AMBIGUOUS_IN_BAND_CHARSET)
            issues.append(TextIssue(kind, 0, len(bom)))  # type: ignore[arg-type]  # message kind
            return cs.decode(data, issues), cs, "bom"

    # 2. in-band declaration
    if media_type in _HTML or _is_xml(media_type):
        found = prescan(data) if media_type in _HTML else xml_declaration(data)
        if found is not None:
            inband_label, at, length = found
            inband = for_label(inband_label)
            if inband is not None and (declared_cs is None or inband.key != declared_cs.key):
                trial = BoundedIssues()
                text = inband.decode(data, trial)
                clean = not any(not i.kind.is_ambiguous for i in trial)
                if clean or declared_cs is not None:
                    kind = (MessageIssueKind.AMBIGUOUS_CHARSET_CONFLICT if declared_cs is not None
                            else MessageIssueKind.AMBIGUOUS_IN_BAND_CHARSET)
                    issues.append(TextIssue(kind, at, length))  # type: ignore[arg-type]  # message kind
                if clean:
                    issues.extend(trial)
                    return text, inband, "in-band"

    # 3. declared (M6: unless the body clearly is in another charset)
    if declared_cs is not None:
        if label and is_us_ascii_label(label) and not data.isascii():
            # 8-bit bytes in a body declared US-ASCII: a mailer's default label. Valid UTF-8 is
            # read as UTF-8 (M6); other bytes keep the label's windows-1252 (the detector
            # reads smart-quoted English spam as Mac Roman too often to overrule a label)
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                pass
            else:
                issues.append(TextIssue(MessageIssueKind.AMBIGUOUS_MISLABELLED_CHARSET, 0, len(data)))  # type: ignore[arg-type]  # message kind
                return text, _UTF8, "detected"
        if declared_cs.key not in _STRICT_KEYS or data.isascii():
            return declared_cs.decode(data, issues), declared_cs, "declared"
        decoded = BoundedIssues()
        text = declared_cs.decode(data, decoded)
        # a last character cut short (a truncated body) says nothing against the label (D15)
        tail = len(data) - _cut_short_utf8(data) if declared_cs.key == "utf-8" else len(data)
        bad = sum(i.length for i in decoded if not i.kind.is_ambiguous and i.offset < tail)
        if bad and bad * MISLABEL_SHARE >= len(data) - len(data.translate(None, _HIGH)):
            text = ""  # the declared reading is let go while another is tried (peak memory)
            other = _relabel(data)
            if other is not None:
                issues.append(TextIssue(MessageIssueKind.AMBIGUOUS_MISLABELLED_CHARSET, 0, len(data)))  # type: ignore[arg-type]  # message kind
                return other[0], other[1], "detected"
            text = declared_cs.decode(data, None)  # again: its issues are in ``decoded``
        issues.extend(decoded)
        return text, declared_cs, "declared"

    # 4. default / unknown label, 5. detector
    if label:
        issues.append(TextIssue(IssueKind.AMBIGUOUS_UNKNOWN_CHARSET, 0, len(data)))
    if data.isascii():
        return data.decode("ascii"), _US_ASCII, "default"
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        if not label:
            issues.append(TextIssue(MessageIssueKind.AMBIGUOUS_DEFAULT_CHARSET, 0, len(data)))  # type: ignore[arg-type]  # message kind
        return text, _UTF8, "default"
    cs = detect_charset(data)
    issues.append(TextIssue(MessageIssueKind.AMBIGUOUS_DETECTED_CHARSET, 0, len(data)))  # type: ignore[arg-type]  # message kind
    return cs.decode(data, issues), cs, "detected"


# Declared charsets in which 8-bit bytes cannot occur (7-bit) or are rarely invalid by chance
# (UTF-8): many invalid bytes there mean a wrong label (M6).
_STRICT_KEYS = frozenset({"utf-8", "utf-7", "iso-2022-jp", "iso-2022-jp-1", "iso-2022-jp-2",
                          "iso-2022-jp-3", "cp50220", "cp50221", "cp50222", "iso-2022-kr",
                          "hz-gb-2312"})
_HIGH = bytes(range(0x80, 0x100))

MISLABEL_SHARE = 4
"""M6 relabels a body when invalid bytes are at least 1/4 of its 8-bit bytes. Mislabelled bodies
in the corpus have all their 8-bit bytes invalid (sisimai's UTF-8 labelled ISO-2022-JP,
thunderbird's wronglyDeclaredShift_JIS); a UTF-8 body with a few damaged bytes has far fewer."""


def _cut_short_utf8(data: bytes) -> int:
    """The number of bytes at the end of ``data`` that begin a UTF-8 sequence the data ends
    before completing (0 when the data ends on a whole character or on an invalid byte)."""
    for k in range(1, min(4, len(data)) + 1):
        b = data[-k]
        if 0x80 <= b < 0xC0:
            continue  # a continuation byte: look further back for its lead
        need = 2 if 0xC2 <= b < 0xE0 else 3 if 0xE0 <= b < 0xF0 else 4 if 0xF0 <= b < 0xF5 else 0
        return k if need > k else 0
    return 0


def _relabel(data: bytes) -> tuple[str, Charset] | None:
    """M6: the body as UTF-8 when valid, else the detector's charset when it decodes cleanly."""
    try:
        return data.decode("utf-8"), _UTF8
    except UnicodeDecodeError:
        pass
    cs = detect_charset(data)
    trial = BoundedIssues()
    text = cs.decode(data, trial)
    if any(not i.kind.is_ambiguous for i in trial):
        return None
    return text, cs


# ---------------------------------------------------------------------------------------------
# WHATWG prescan (HTML Standard 13.2.3.2 "Prescan a byte stream to determine its encoding")

_WS = b"\t\n\x0c\r "
_WS_SET = frozenset(_WS)
_LETTER = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
_LOWER = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", b"abcdefghijklmnopqrstuvwxyz")


def prescan(data: bytes) -> tuple[str, int, int] | None:
    """Find the charset an HTML document declares in its first 1024 bytes.

    Implements the HTML Standard's "prescan a byte stream to determine its encoding" (comments,
    ``<meta>`` attributes, ``http-equiv``/``content`` pairs, skipping other tags), including its
    final rule: a UTF-16 label means UTF-8, ``x-user-defined`` means windows-1252.

    :param data: the body bytes (only the first 1024 are looked at).
    :returns: ``(label, offset of the <meta> tag, length of the tag)`` or ``None``.

    >>> prescan(b'<html><head><meta charset="koi8-r">')
    ('koi8-r', 12, 23)
    """
    buf = data[:PRESCAN_BYTES]
    end = len(buf)
    pos = buf.find(b"<")
    while 0 <= pos < end:
        if buf.startswith(b"<!--", pos):
            close = buf.find(b"-->", pos + 2)
            if close < 0:
                return None
            pos = buf.find(b"<", close + 3)
            continue
        low = buf[pos:pos + 6].translate(_LOWER)
        if low[:5] == b"<meta" and len(low) == 6 and (low[5] in _WS_SET or low[5] == 0x2F):
            start = pos
            pos += 6
            seen: set[bytes] = set()
            got_pragma = False
            need_pragma = None
            charset = None
            while True:
                attr, pos = _get_attribute(buf, pos)
                if attr is None:
                    break
                name, value = attr
                if name in seen:
                    continue
                seen.add(name)
                if name == b"http-equiv":
                    if value == b"content-type":
                        got_pragma = True
                elif name == b"content":
                    if charset is None:
                        found = _charset_from_content(value)
                        if found is not None:
                            charset = found
                            need_pragma = True
                elif name == b"charset":
                    charset = value
                    need_pragma = False
            if charset is not None and need_pragma is not None and (got_pragma or not need_pragma):
                label = charset.decode("ascii", "replace").strip(" \t\n\x0c\r")
                cs = for_label(label)
                if cs is not None:
                    if cs.key in ("utf-16le", "utf-16be"):
                        label = "utf-8"
                    elif cs.key == "x-user-defined":
                        label = "windows-1252"
                    tag_end = pos + 1 if buf[pos:pos + 1] == b">" else pos
                    return label, start, tag_end - start
            pos = buf.find(b"<", pos)
            continue
        nxt = buf[pos + 1:pos + 2]
        if nxt and (nxt[0] in _LETTER or (nxt == b"/" and buf[pos + 2:pos + 3] and buf[pos + 2] in _LETTER)):
            # a tag: skip its name, then its attributes
            p = pos + 1
            while p < end and buf[p] not in _WS_SET and buf[p] != 0x3E:
                p += 1
            while True:
                attr, p = _get_attribute(buf, p)
                if attr is None:
                    break
            pos = buf.find(b"<", p)
            continue
        if nxt in (b"!", b"/", b"?"):
            close = buf.find(b">", pos + 2)
            if close < 0:
                return None
            pos = buf.find(b"<", close + 1)
            continue
        pos = buf.find(b"<", pos + 1)
    return None


def _get_attribute(buf: bytes, pos: int) -> tuple[tuple[bytes, bytes] | None, int]:
    """The HTML Standard's "get an attribute": return ``((name, value) | None, new position)``."""
    end = len(buf)
    while pos < end and (buf[pos] in _WS_SET or buf[pos] == 0x2F):
        pos += 1
    if pos >= end or buf[pos] == 0x3E:
        return None, pos
    name = bytearray()
    while True:
        if pos >= end:
            return None, pos
        c = buf[pos]
        if c == 0x3D and name:
            pos += 1
            break
        if c in _WS_SET:
            while pos < end and buf[pos] in _WS_SET:
                pos += 1
            if pos >= end or buf[pos] != 0x3D:
                return (bytes(name).translate(_LOWER), b""), pos
            pos += 1
            break
        if c in (0x2F, 0x3E):
            return (bytes(name).translate(_LOWER), b""), pos
        name.append(c)
        pos += 1
    while pos < end and buf[pos] in _WS_SET:
        pos += 1
    if pos >= end:
        return None, pos
    c = buf[pos]
    lowered = bytes(name).translate(_LOWER)
    if c in (0x22, 0x27):
        close = buf.find(bytes([c]), pos + 1)
        if close < 0:
            return None, end
        return (lowered, buf[pos + 1:close].translate(_LOWER)), close + 1
    if c == 0x3E:
        return (lowered, b""), pos
    start = pos
    while pos < end and buf[pos] not in _WS_SET and buf[pos] != 0x3E:
        pos += 1
    if pos >= end:
        return None, pos
    return (lowered, buf[start:pos].translate(_LOWER)), pos


_CONTENT_CHARSET = re.compile(rb"charset[\t\n\x0c\r ]*=[\t\n\x0c\r ]*")


def _charset_from_content(value: bytes) -> bytes | None:
    """The HTML Standard's "extract a character encoding from a meta element" (lower-cased)."""
    pos = 0
    while True:
        i = value.find(b"charset", pos)
        if i < 0:
            return None
        m = _CONTENT_CHARSET.match(value, i)
        if m is None:
            pos = i + 7
            continue
        p = m.end()
        if p >= len(value):
            return None
        q = value[p]
        if q in (0x22, 0x27):
            close = value.find(bytes([q]), p + 1)
            return value[p + 1:close] if close >= 0 else None
        stop = p
        while stop < len(value) and value[stop] not in _WS_SET and value[stop] != 0x3B:
            stop += 1
        return value[p:stop] or None


_XML_DECL = re.compile(
    rb"<\?xml[\t\n\r ][^>]*?encoding[\t\n\r ]*=[\t\n\r ]*([\"'])([A-Za-z0-9._:-]+)\1")


def xml_declaration(data: bytes) -> tuple[str, int, int] | None:
    """Return ``(label, offset, length)`` of the XML declaration's encoding, or ``None``.

    Only a declaration at the very start counts (XML 1.0 section 4.3.3).

    >>> xml_declaration(b'<?xml version="1.0" encoding="Shift_JIS"?><a/>')
    ('Shift_JIS', 30, 9)
    """
    m = _XML_DECL.match(data, 0, PRESCAN_BYTES)
    if m is None:
        return None
    return m.group(2).decode("ascii"), m.start(2), m.end(2) - m.start(2)
