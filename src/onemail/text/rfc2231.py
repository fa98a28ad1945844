"""RFC 2231 parameter values: collect, resolve, encode; and a tolerant parameter tokenizer.

Implements spec 000 "Parameters (RFC 2231)".

:class:`ParameterCollector` takes the parameters of one header in source order (name as written,
value already unquoted, byte offset of the value in the caller's buffer); :meth:`resolve
<ParameterCollector.resolve>` returns one :class:`DecodedParameter` per name (ASCII
case-insensitive, first spelling kept):

* ``name*`` is an extended value ``charset'language'percent-encoded``; ``name*N`` and ``name*N*``
  are continuation sections. ``name*`` counts as section 0 with a ``*`` (ambiguity T56). Only
  section 0 carries the charset; ``*N*`` sections are percent-decoded, ``*N`` sections literal.
* Sections are ordered by number (stable: duplicates keep source order) and joined as *bytes*,
  then decoded once, so a character split between sections survives.
* No charset (a value without two ``'``, or an empty charset): the bytes are UTF-8 if valid,
  else the fallback (``MalformedExtendedValue`` when the quotes are missing; ``AmbiguousRaw8Bit``
  for the fallback, ambiguity T51). An unknown charset label follows the unknown-charset rule (T1).
* A percent escape that is not ``%XX`` stays literal (``InvalidPercentEscape``).
* A plain ``name=value``: UTF-8 if valid else the fallback; a value holding an encoded word is
  decoded by :func:`onemail.text.rfc2047.decode_text` (``AmbiguousEncodedWordInQuotedString``,
  ambiguity T55).
* When a name has both a plain value and an extended value or sections, the extended one wins
  (RFC 2231 §4; ambiguity T57) and the plain one is dropped without an issue.

Issue offsets: the value's offset (as passed to :meth:`ParameterCollector.add`) plus the byte
position inside the value (a ``str`` value counts its UTF-8 bytes, ``surrogateescape``). Issues
about decoded bytes of joined sections (``Invalid*``, ``AmbiguousUnknownCharset``) cover the
source bytes (``%XX`` is three) of the bytes concerned; a span that runs across two sections
covers both ends and what lies between them in the caller's buffer (sections of one parameter
may lie anywhere in the header, in any order).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import rfc2047
from .charsets import Charset, decode_unknown, for_label
from .issues import IssueKind, TextIssue

__all__ = ["DecodedParameter", "ParameterCollector", "encode", "parse_header_params"]

_HEX = frozenset(b"0123456789ABCDEFabcdef")
_BAD_PERCENT = re.compile(rb"%(?![0-9A-Fa-f]{2})")
_PERCENT = re.compile(rb"%([0-9A-Fa-f]{2})")
_SECTION = re.compile(r"\A(.*?)\*([0-9]+)(\*?)\Z", re.S)
# RFC 2045 §5.1 token characters: printable ASCII except SP and tspecials.
_TSPECIALS = '()<>@,;:\\"/[]?='
_TOKEN_CHARS = frozenset(chr(c) for c in range(0x21, 0x7F)) - frozenset(_TSPECIALS)
# RFC 2231 §7 attribute-char: token characters except '*', "'" and '%'.
_ATTR_CHARS = frozenset(ord(c) for c in _TOKEN_CHARS - frozenset("*'%"))
_PCT_TABLE = tuple(chr(b) if b in _ATTR_CHARS else f"%{b:02X}" for b in range(256))


@dataclass(frozen=True, slots=True)
class DecodedParameter:
    """One resolved parameter.

    :ivar name: the name as first written (without ``*`` / ``*N*`` suffixes), case kept.
    :ivar value: the decoded value (``str``).
    :ivar charset: :attr:`Charset.name` of the charset that decoded the value (``"utf-8"`` for
        valid UTF-8 without a declared charset, the fallback's name when it was used), or
        ``None`` for an ASCII value without a declared charset.
    :ivar language: the RFC 2231 language tag (``None`` when absent or empty).
    :ivar method: how the value was written: ``"plain"``, ``"encoded-word"`` (a plain value
        holding RFC 2047 encoded words), ``"extended"`` (``name*=``) or ``"continuation"``
        (``name*0``, ``name*1*`` ...).
    :ivar issues: the issues found while decoding this parameter (a tuple).
    """

    name: str
    value: str
    charset: str | None
    language: str | None
    method: str
    issues: tuple[TextIssue, ...]


def _value_bytes(value) -> bytes:
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return rfc2047._as_bytes(value, "value")[0]
    if isinstance(value, (bytearray, memoryview)):
        return bytes(value)
    raise TypeError(f"value must be str or bytes-like, not {type(value).__name__}")


class ParameterCollector:
    """Accumulate the parameters of one header, then :meth:`resolve` them.

    Implements spec 000 "Parameters (RFC 2231)", ParameterCollector.

    :param fallback: charset label (or :class:`Charset`) for 8-bit values that are not UTF-8.
    :raises ValueError: ``fallback`` names no known charset.

    >>> c = ParameterCollector()
    >>> c.add("title*0*", "us-ascii'en'This%20is%20", 0)
    >>> c.add("title*1", "fun", 30)
    >>> [(p.name, p.value, p.language, p.method) for p in c.resolve()]
    [('title', 'This is fun', 'en', 'continuation')]
    """

    __slots__ = ("_fallback", "_entries")

    def __init__(self, *, fallback="windows-1252") -> None:
        self._fallback = rfc2047._charset_arg(fallback, "fallback")
        self._entries: list[tuple[str, bytes, int]] = []

    def add(self, name: str, value, offset: int = 0) -> None:
        """Add one parameter as written.

        :param name: the name as written, with any ``*`` / ``*N`` / ``*N*`` suffix (``str``).
        :param value: the value, unquoted (``str`` or ``bytes``).
        :param offset: byte offset of the value's first byte in the caller's buffer.
        :raises TypeError: wrong argument types.
        """
        if not isinstance(name, str):
            raise TypeError(f"name must be str, not {type(name).__name__}")
        if not isinstance(offset, int):
            raise TypeError(f"offset must be int, not {type(offset).__name__}")
        self._entries.append((name, _value_bytes(value), offset))

    def resolve(self) -> list[DecodedParameter]:
        """Return one :class:`DecodedParameter` per name, in order of first appearance.

        :returns: the decoded parameters.
        :issues: ``MalformedExtendedValue``, ``InvalidPercentEscape``, the charset's
            ``Invalid*``, ``AmbiguousUnknownCharset`` (T1), ``AmbiguousRaw8Bit`` (T51),
            ``AmbiguousEncodedWordInQuotedString`` (T55), and those of
            :func:`rfc2047.decode_text` for encoded words in plain values.
        """
        order: list[str] = []
        spelling: dict[str, str] = {}
        plain: dict[str, tuple[bytes, int]] = {}
        sections: dict[str, list[tuple[int, bool, bytes, int, bool]]] = {}
        for name, value, offset in self._entries:
            m = _SECTION.match(name)
            if m is not None:
                base, number, star, numbered = m.group(1), int(m.group(2)), bool(m.group(3)), True
            elif name.endswith("*"):
                base, number, star, numbered = name[:-1], 0, True, False
            else:
                base, number, star, numbered = name, -1, False, False
            key = base.lower()
            if key not in spelling:
                spelling[key] = base
                order.append(key)
            if number < 0:
                plain.setdefault(key, (value, offset))
            else:
                sections.setdefault(key, []).append((number, star, value, offset, numbered))
        out = []
        for key in order:
            if key in sections:
                out.append(self._extended(spelling[key], sections[key]))
            else:
                out.append(self._plain(spelling[key], *plain[key]))
        return out

    def _plain(self, name: str, value: bytes, offset: int) -> DecodedParameter:
        found: list[TextIssue] = []
        if b"=?" in value:
            text, words = rfc2047._decode(value, self._fallback, found, offset)
            if words:
                found.insert(0, TextIssue(IssueKind.AMBIGUOUS_ENCODED_WORD_IN_QUOTED_STRING,
                                          offset, len(value)))
                return DecodedParameter(name, text, None, None, "encoded-word", tuple(found))
            charset = None if value.isascii() else _raw_charset(found, self._fallback)
            return DecodedParameter(name, text, charset, None, "plain", tuple(found))
        if value.isascii():
            return DecodedParameter(name, value.decode("ascii"), None, None, "plain", ())
        text, charset = _decode_raw(value, self._fallback, found, offset, None)
        return DecodedParameter(name, text, charset, None, "plain", tuple(found))

    def _extended(self, name: str, parts: list) -> DecodedParameter:
        parts.sort(key=lambda p: p[0])  # stable: duplicates keep source order
        found: list[TextIssue] = []
        charset_label = None
        language = None
        chunks: list[bytes] = []
        spans: list[tuple[int, int]] = []  # source span of each decoded byte (for issue offsets)
        first_offset = parts[0][3]
        for index, (number, star, value, offset, _numbered) in enumerate(parts):
            start = 0
            if index == 0 and star and number == 0:
                q1 = value.find(b"'")
                q2 = value.find(b"'", q1 + 1) if q1 >= 0 else -1
                if q2 < 0:
                    found.append(TextIssue(IssueKind.MALFORMED_EXTENDED_VALUE, offset, len(value)))
                else:
                    charset_label = value[:q1].decode("latin-1")
                    language = value[q1 + 1:q2].decode("latin-1") or None
                    start = q2 + 1
            if star:
                raw, raw_spans = _percent_decode(value, start, offset, found)
            else:
                raw = value[start:]
                raw_spans = [(offset + k, 1) for k in range(start, len(value))]
            chunks.append(raw)
            spans.extend(raw_spans)
        raw = b"".join(chunks)
        method = "extended" if len(parts) == 1 and not parts[0][4] else "continuation"
        if charset_label:
            cs = for_label(charset_label)
            local: list[TextIssue] = []
            text = None
            if cs is not None:
                try:
                    text = cs.decode(raw, local, 0)
                    used = cs.name
                except ImportError:  # a family module not installed yet: unknown-charset rule (T1)
                    local = []
            if text is None:
                text, used_cs = decode_unknown(raw, local, 0)
                used = used_cs.name
            _map_issues(local, spans, found, first_offset)
        else:
            text, used = _decode_raw(raw, self._fallback, found, first_offset, spans)
        return DecodedParameter(name, text, used, language, method, tuple(found))


def _raw_charset(found: list[TextIssue], fallback: Charset) -> str:
    raw = any(i.kind is IssueKind.AMBIGUOUS_RAW_8BIT for i in found)
    return fallback.name if raw else "utf-8"


def _decode_raw(raw: bytes, fallback: Charset, found: list[TextIssue], offset: int, spans) -> tuple[str, str | None]:
    """Bytes without a charset: ASCII, else UTF-8 if valid, else the fallback (T51).

    ``AmbiguousRaw8Bit`` covers the first to the last byte >= 0x80 (as in rfc2047).
    """
    if raw.isascii():
        return raw.decode("ascii"), None
    try:
        return raw.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    first, end = rfc2047.high_byte_span(raw)
    local = [TextIssue(IssueKind.AMBIGUOUS_RAW_8BIT, first, end - first)]
    text = fallback.decode(raw, local, 0)
    _map_issues(local, spans, found, offset)
    return text, fallback.name


def _map_issues(local: list[TextIssue], spans, found: list[TextIssue], default: int) -> None:
    """Map issues over decoded bytes (offset = index into them) to source spans."""
    for i in local:
        if spans is None:
            found.append(TextIssue(i.kind, default + i.offset, i.length))
            continue
        if spans and i.offset < len(spans):
            first = spans[i.offset]
            last = spans[min(i.offset + max(i.length, 1), len(spans)) - 1]
            # sections may be written out of order: cover both ends whatever their order
            start = min(first[0], last[0])
            end = max(first[0] + first[1], last[0] + last[1]) if i.length > 0 else first[0]
        else:
            start = end = (spans[-1][0] + spans[-1][1]) if spans else default
        found.append(TextIssue(i.kind, start, max(end - start, 0)))


def _percent_decode(value: bytes, start: int, offset: int, found: list[TextIssue]):
    """Percent-decode ``value[start:]``; return (bytes, source spans (offset, length) per byte)."""
    part = value[start:]
    spans: list[tuple[int, int]] = []
    if b"%" not in part:
        return part, [(offset + k, 1) for k in range(start, len(value))]
    out = bytearray()
    n = len(value)
    k = start
    while k < n:
        j = value.find(b"%", k)
        if j < 0:
            j = n
        if j > k:
            out += value[k:j]
            spans.extend((offset + x, 1) for x in range(k, j))
        if j >= n:
            break
        if j + 2 < n and value[j + 1] in _HEX and value[j + 2] in _HEX:
            out.append(int(value[j + 1:j + 3], 16))
            spans.append((offset + j, 3))
            k = j + 3
        else:
            out.append(0x25)
            spans.append((offset + j, 1))
            found.append(TextIssue(IssueKind.INVALID_PERCENT_ESCAPE, offset + j, 1))
            k = j + 1
    return bytes(out), spans


# ---------------------------------------------------------------------------------------------
# Encoding


def encode(name: str, value: str, charset="utf-8", part_length: int = 50) -> list[str]:
    """Return the parameter parts to write for ``name`` and ``value``.

    Implements spec 000 "Parameters", Rfc2231.Encode (RFC 2231 §3-4): a token value as
    ``name=value``; other printable ASCII as a quoted string (``\\`` before ``"`` and ``\\``);
    anything else as ``name*=charset''%XX...``, or ``name*0*=charset''...``, ``name*1*=...``
    when the percent-encoded value is longer than ``part_length`` characters, each part holding
    whole characters (at least one) and at most ``part_length`` encoded characters when a
    character fits; the charset appears in the first part only.

    :param name: the parameter name (``str``).
    :param value: the value (``str``).
    :param charset: charset label (or :class:`Charset`) for non-ASCII values; its name is written.
    :param part_length: maximum percent-encoded characters per part (``int`` >= 1).
    :returns: the parts, each ``name...=value``, to be joined with ``"; "``.
    :raises TypeError: wrong argument types.
    :raises ValueError: unknown charset, or ``part_length`` < 1.

    >>> encode("filename", "a b.txt")
    ['filename="a b.txt"']
    >>> encode("filename", "café.txt")
    ["filename*=utf-8''caf%C3%A9.txt"]
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be str, not {type(name).__name__}")
    if not isinstance(value, str):
        raise TypeError(f"value must be str, not {type(value).__name__}")
    if not isinstance(part_length, int) or isinstance(part_length, bool):
        raise TypeError(f"part_length must be int, not {type(part_length).__name__}")
    if part_length < 1:
        raise ValueError("part_length must be at least 1")
    cs = rfc2047._charset_arg(charset, "charset")
    if value and all(c in _TOKEN_CHARS for c in value):
        return [f"{name}={value}"]
    if all(" " <= c <= "~" for c in value):
        quoted = value.replace("\\", "\\\\").replace('"', '\\"')
        return [f'{name}="{quoted}"']
    units = rfc2047._units(value)
    pieces = ["".join(_PCT_TABLE[b] for b in cs.encode(u)) for u in units]
    prefix = f"{cs.name}''"
    if sum(len(p) for p in pieces) <= part_length:
        return [f"{name}*={prefix}{''.join(pieces)}"]
    parts = []
    current = ""
    for p in pieces:
        if current and len(current) + len(p) > part_length:
            parts.append(current)
            current = ""
        current += p
    if current:
        parts.append(current)
    return [f"{name}*{k}*={prefix if k == 0 else ''}{p}" for k, p in enumerate(parts)]


# ---------------------------------------------------------------------------------------------
# Tokenizing a Content-Type / Content-Disposition value

_WS = b" \t\r\n"


def parse_header_params(value, *, fallback="windows-1252") -> tuple[str, list[DecodedParameter]]:
    """Split a ``Content-Type`` / ``Content-Disposition`` value into its main value and parameters.

    A tolerant tokenizer (spec 000 "Parameters"; RFC 2045 §5.1, RFC 2231): quoted strings with
    backslash escapes of ``"`` and ``\\`` (a backslash before another character is kept), comments in parentheses (nested), folds; missing semicolons between
    parameters (``a=1 b=2``), unquoted values with spaces (``name=my file.txt``), a missing
    closing quote (the value runs to the end), stray text after a closing quote (kept in the
    value) and stray semicolons are tolerated. The parameters go through a
    :class:`ParameterCollector`.

    :param value: the header value after the colon (``str`` or ``bytes``; a ``str`` counts its
        UTF-8 bytes for offsets).
    :param fallback: charset for 8-bit values that are not UTF-8.
    :returns: ``(main value, parameters)``: the main value (``"text/plain"``) stripped of white
        space and comments, as written; the resolved parameters in order of first appearance.
        Issue offsets are bytes into ``value``; inside a quoted string with backslash escapes
        they count the unescaped bytes from the opening quote.

    >>> main, params = parse_header_params('text/plain; charset="utf-8"; name*=utf-8\\'\\'%E2%82%AC')
    >>> main, [(p.name, p.value) for p in params]
    ('text/plain', [('charset', 'utf-8'), ('name', '€')])
    """
    data = _value_bytes(value)
    collector = ParameterCollector(fallback=fallback)
    n = len(data)
    k, main = _read_main(data)
    while k < n:
        k = _skip(data, k, b"; \t\r\n")
        if k >= n:
            break
        # name: up to '=', ';' or white space
        s = k
        while k < n and data[k] not in b"=; \t\r\n(\"":
            k += 1
        name = data[s:k]
        k2 = _skip(data, k, b" \t\r\n")
        if not name or k2 >= n or data[k2] != 0x3D:
            # not a parameter: skip this junk up to the next ';' (or a quoted string / comment)
            k = _skip_junk(data, max(k2, k + 1) if not name else k2)
            continue
        k = _skip(data, k2 + 1, b" \t\r\n")
        if k < n and data[k] == 0x22:
            val, voff, k = _read_quoted(data, k)
            # stray text after the closing quote, up to ';' or the next parameter, is dropped
            # (ambiguity T65)
            j = _skip(data, k, _WS)
            k = _value_end(data, j) if j < n and data[j] != 0x3B and not _looks_like_param(data, j) else j
        else:
            e = _value_end(data, k)
            val, voff = _strip_comment(data[k:e].rstrip(_WS)), k
            k = e
        collector.add(name.decode("utf-8", "surrogateescape"), val, voff)
    return main, collector.resolve()


def _skip(data: bytes, k: int, chars: bytes) -> int:
    n = len(data)
    while k < n:
        c = data[k]
        if c == 0x28:  # '(' comment
            k = _skip_comment(data, k)
        elif c in chars:
            k += 1
        else:
            break
    return k


def _skip_comment(data: bytes, k: int) -> int:
    depth = 0
    n = len(data)
    while k < n:
        c = data[k]
        if c == 0x5C:
            k += 2
            continue
        if c == 0x28:
            depth += 1
        elif c == 0x29:
            depth -= 1
            if depth == 0:
                return k + 1
        k += 1
    return n


def _skip_junk(data: bytes, k: int) -> int:
    n = len(data)
    while k < n and data[k] != 0x3B:
        if data[k] == 0x22:
            k = _read_quoted(data, k)[2]
        elif data[k] == 0x28:
            k = _skip_comment(data, k)
        else:
            k += 1
    return k


def _read_main(data: bytes) -> tuple[int, str]:
    n = len(data)
    out = bytearray()
    k = 0
    while k < n and data[k] != 0x3B:
        c = data[k]
        if c == 0x28:
            k = _skip_comment(data, k)
            continue
        if c in _WS and out and out[-1:] != b" ":
            # white space ends the main value unless a parameter follows without ';'
            j = _skip(data, k, _WS)
            if _looks_like_param(data, j):
                return j, out.decode("utf-8", "surrogateescape").strip()
            out += b" "
            k = j
            continue
        if c not in _WS:
            out.append(c)
        k += 1
    return k, bytes(out).decode("utf-8", "surrogateescape").strip()


def _read_quoted(data: bytes, k: int) -> tuple[bytes, int, int]:
    """Read the quoted string at ``data[k] == '"'``: (unescaped bytes, content offset, end)."""
    n = len(data)
    out = bytearray()
    j = k + 1
    while j < n:
        c = data[j]
        if c == 0x5C and j + 1 < n and data[j + 1] in b'"\\':
            # a backslash escapes only '"' and '\'; before anything else it is kept, as in
            # unescaped Windows paths (filename="C:\TEMP\a.png"; ambiguity T65)
            out.append(data[j + 1])
            j += 2
            continue
        if c == 0x22:
            return bytes(out), k + 1, j + 1
        if c == 0x0D or c == 0x0A:  # a fold inside a quoted string: CR/LF removed
            j += 1
            continue
        out.append(c)
        j += 1
    return bytes(out), k + 1, n


_TRAILING_COMMENT = re.compile(rb"[ \t]+\([^()]*\)\Z")


def _strip_comment(value: bytes) -> bytes:
    """Drop comments that end an unquoted value (``us-ascii (comment)``; T65)."""
    while value.endswith(b")"):
        m = _TRAILING_COMMENT.search(value)
        if m is None:
            break
        value = value[:m.start()]
    return value


_PARAM_START = re.compile(rb"[^\x00-\x20=;\"()]+[ \t]*=")


def _looks_like_param(data: bytes, k: int) -> bool:
    return _PARAM_START.match(data, k) is not None


def _value_end(data: bytes, k: int) -> int:
    """End of an unquoted value: the next ';', or white space followed by ``name=``."""
    n = len(data)
    j = k
    while j < n:
        c = data[j]
        if c == 0x3B:
            return j
        if c in _WS:
            w = j
            while w < n and data[w] in _WS:
                w += 1
            if w < n and _looks_like_param(data, w):
                return w
            j = w
            continue
        j += 1
    return n
