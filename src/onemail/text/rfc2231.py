"""RFC 2231 parameter values: collect, resolve, encode; and a tolerant parameter tokenizer.

Implements spec 000 "Parameters (RFC 2231)".

:class:`ParameterCollector` takes the parameters of one header in source order (name as written,
value already unquoted, byte offset of the value in the caller's buffer); :meth:`resolve
<ParameterCollector.resolve>` returns one :class:`DecodedParameter` per name (case-insensitive,
first spelling kept):

* ``name*`` is an extended value ``charset'language'percent-encoded``; ``name*N`` and ``name*N*``
  are continuation sections. ``name*`` counts as section 0 with a ``*`` (ambiguity T56). Only
  section 0 carries the charset; ``*N*`` sections are percent-decoded, ``*N`` sections literal.
* Sections are ordered by number (stable: duplicates keep source order) and joined as *bytes*,
  then decoded once, so a character split between sections survives. A section number of more
  than 18 significant digits sorts after every other (T88: no ``int()`` of unbounded digits).
* No charset (a value without two ``'``, or an empty charset): the bytes are UTF-8 if valid,
  else the fallback (``MalformedExtendedValue`` when the quotes are missing; ``AmbiguousRaw8Bit``
  for the fallback, ambiguity T51). An unknown charset label follows the unknown-charset rule
  (T1); 8-bit bytes that are valid UTF-8 under a US-ASCII label are UTF-8 (T81).
* A percent escape that is not ``%XX`` stays literal (``InvalidPercentEscape``).
* A plain ``name=value``, and continuations whose sections are all literal (``name*0="..."``,
  T87): UTF-8 if valid else the fallback; a value holding an encoded word is decoded by
  :func:`onemail.text.rfc2047.decode_value` (``AmbiguousEncodedWordInQuotedString``, T55); 7-bit
  text in raw ISO-2022-JP is decoded as such (``AmbiguousRawIso2022``, T84).
* When a name has both a plain value and an extended value or sections, the extended one wins
  (RFC 2231 §4; ambiguity T57) and the plain one is dropped without an issue.

Issue offsets: the value's offset (as passed to :meth:`ParameterCollector.add`) plus the byte
position inside the value (a ``str`` value counts its UTF-8 bytes, ``surrogateescape``). Issues
about decoded bytes of joined sections (``Invalid*``, ``AmbiguousUnknownCharset``) cover the
source bytes (``%XX`` is three) of the bytes concerned; a span that runs across two sections
covers both ends and what lies between them in the caller's buffer (sections of one parameter
may lie anywhere in the header, in any order).

**Memory.** The collector keeps the values in one buffer and a few machine integers per
parameter (arrays, not objects), and maps issue offsets back to the source by walking the
sections again only when there are issues, so a header of a million sections or duplicates
costs a small multiple of its size.
"""

from __future__ import annotations

import functools
import re
from array import array
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from ._header import (
    STATEFUL,
    FoldMap,
    IssueSpill,
    Span,
    SpanLocator,
    char_units,
    charset_arg,
    close_run,
    decode_ascii,
    decode_bytes,
    escape_spans,
    high_byte_span,
    label_info,
    map_issues,
    stateful_chunks,
    unfold,
    value_bytes,
)
from .charsets import BytesLike, Charset
from .issues import IssueKind, TextIssue
from .rfc2047 import decode_value

__all__ = ["DecodedParameter", "ParameterCollector", "encode", "parse_header_params"]

_HEX = frozenset(b"0123456789ABCDEFabcdef")
_HEX_VALUE = {bytes((a, b)): int(chr(a) + chr(b), 16) for a in _HEX for b in _HEX}  # two digits
# RFC 2045 §5.1 token characters: printable ASCII except SP and tspecials.
_TSPECIALS = '()<>@,;:\\"/[]?='
_TOKEN_CHARS = frozenset(chr(c) for c in range(0x21, 0x7F)) - frozenset(_TSPECIALS)
# RFC 2231 §7 attribute-char: token characters except '*', "'" and '%'.
_ATTR_CHARS = frozenset(ord(c) for c in _TOKEN_CHARS - frozenset("*'%"))
_PCT_TABLE = tuple(chr(b) if b in _ATTR_CHARS else f"%{b:02X}" for b in range(256))
# T88: a section number of more digits than this (after leading zeros) sorts after every other.
_MAX_SECTION_DIGITS = 18
_HUGE_SECTION = 10 ** _MAX_SECTION_DIGITS



@functools.cache
def _windows_1252() -> Charset:
    """windows-1252, looked up on first use (importing onemail.text loads no table)."""
    return charset_arg("windows-1252", "fallback")
_K_EW = IssueKind.AMBIGUOUS_ENCODED_WORD_IN_QUOTED_STRING
_K_RAW = IssueKind.AMBIGUOUS_RAW_8BIT
_K_PCT = IssueKind.INVALID_PERCENT_ESCAPE
_K_EXT = IssueKind.MALFORMED_EXTENDED_VALUE
_K_PARAM = IssueKind.MALFORMED_PARAMETER
_K_MANY = IssueKind.TOO_MANY_ISSUES


def _check_max_issues(max_issues: object) -> int | None:
    """``max_issues`` checked: ``None`` or an int >= 0."""
    if max_issues is not None and (not isinstance(max_issues, int) or isinstance(max_issues, bool)):
        raise TypeError(f"max_issues must be an int or None, not {type(max_issues).__name__}")
    if max_issues is not None and max_issues < 0:
        raise ValueError(f"max_issues must be >= 0, not {max_issues}")
    return max_issues

# Entry flags.
_STAR = 1  # a "*" after the name or section number: percent-encoded
_NUMBERED = 2  # an explicit section number (name*N, name*N*)
_ZERO = 4  # section number 0 (also name*)


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
    :ivar issues: the issues found while decoding this parameter (a tuple); with ``max_issues``
        (:func:`parse_header_params`), the first ``max_issues`` of them and, when there were
        more, one ``TooManyIssues`` from the smallest offset to the largest end of the others.
    :ivar dropped: how many issues that ``TooManyIssues`` stands for (0: none was left out).
    """

    name: str
    value: str
    charset: str | None
    language: str | None
    method: str
    issues: tuple[TextIssue, ...]
    dropped: int = 0


def _parse_name(name: str) -> tuple[str, int, int]:
    """Split ``name*``, ``name*N``, ``name*N*`` (a name holding ``*``): ``(base, section key,
    flags)``; the section key is -1 for a plain name. The pattern is anchored at the end and its digit
    run cannot overlap another attempt's, so a name of any length costs linear time; no
    ``int()`` of more than 18 digits (T88).
    """
    m = _SECTION_TAIL.search(name)
    if m is not None:
        digits = m.group(1).lstrip("0")
        if not digits:
            number = 0
        elif len(digits) <= _MAX_SECTION_DIGITS:
            number = int(digits)
        else:
            number = _HUGE_SECTION
        flags = (_STAR if m.group(2) else 0) | _NUMBERED | (0 if digits else _ZERO)
        return name[:m.start()], number, flags
    if name.endswith("*"):
        return name[:-1], 0, _STAR | _ZERO
    return name, -1, 0


_SECTION_TAIL = re.compile(r"\*([0-9]+)(\*?)\Z", re.ASCII)


class _ParamIssues(list[TextIssue]):
    """The issues of one parameter: each given in the coordinates of the (unfolded) header and
    kept in the caller's (mapped back through the folds, the offset added); all of them, or with
    ``limit`` the first ``limit``, the others counted and spanned (the message layer's
    ``bounded``, per parameter), so that a value of a million bad escapes keeps ``limit``."""

    __slots__ = ("folds", "offset", "limit", "dropped", "first", "last")

    def __init__(self, folds: FoldMap | None, offset: int, limit: int | None) -> None:
        super().__init__()
        self.folds, self.offset, self.limit = folds, offset, limit
        self.dropped = 0
        self.first = self.last = 0  # smallest offset, largest end of the dropped issues

    def append(self, issue: TextIssue) -> None:
        if self.folds is not None:
            issue = self.folds.map(issue, self.offset)
        elif self.offset:
            issue = TextIssue(issue.kind, issue.offset + self.offset, issue.length)
        if self.limit is None or len(self) < self.limit:
            list.append(self, issue)
            return
        end = issue.offset + issue.length
        if not self.dropped:
            self.first, self.last = issue.offset, end
        else:
            self.first, self.last = min(self.first, issue.offset), max(self.last, end)
        self.dropped += 1

    def extend(self, issues: Iterable[TextIssue]) -> None:
        for issue in issues:
            self.append(issue)

    def parameter(self, name: str, text: str, charset: str | None, language: str | None,
                  method: str) -> DecodedParameter:
        """The :class:`DecodedParameter` with these issues."""
        issues = tuple(self)
        if self.dropped:
            issues += (TextIssue(_K_MANY, self.first, self.last - self.first),)
        return DecodedParameter(name, text, charset, language, method, issues, self.dropped)


class ParameterCollector:
    """Accumulate the parameters of one header, then :meth:`resolve` them.

    Implements spec 000 "Parameters (RFC 2231)", ParameterCollector.

    :param fallback: charset label (or :class:`Charset`) for 8-bit values that are not UTF-8.
    :param max_issues: keep at most this many issues per parameter (``None``: all), the others
        counted in :attr:`DecodedParameter.dropped` and spanned by one final ``TooManyIssues``;
        the issues are made and mapped a batch at a time, so memory follows the bound.
    :raises TypeError: ``max_issues`` is not an int or ``None``.
    :raises ValueError: ``fallback`` names no known charset, or ``max_issues`` is negative.

    >>> c = ParameterCollector()
    >>> c.add("title*0*", "us-ascii'en'This%20is%20", offset=0)
    >>> c.add("title*1", "fun", offset=30)
    >>> [(p.name, p.value, p.language, p.method) for p in c.resolve()]
    [('title', 'This is fun', 'en', 'continuation')]
    """

    __slots__ = ("_fallback", "_buf", "_rec", "_base", "_num", "_flags", "_ids", "_spell", "_skips",
                 "_view", "_max_issues", "_folds", "_offset")

    def __init__(self, *, fallback: str | Charset = "windows-1252", max_issues: int | None = None) -> None:
        self._fallback = _windows_1252() if fallback == "windows-1252" else charset_arg(fallback, "fallback")
        self._max_issues = _check_max_issues(max_issues)
        # parse_header_params: the folds of the header and its offset, applied to every issue
        self._folds: FoldMap | None = None
        self._offset = 0
        self._buf = bytearray()  # every value, one after the other
        # per parameter: end of its value in _buf and source offset of the value's first byte
        # (two items each), name id (index into _spell), section key (-1 for a plain name)
        self._rec = array("q")
        self._base = array("i")  # fewer names than bytes: below 2**31
        self._num = array("q")
        self._flags = bytearray()
        self._ids: dict[str, int] = {}
        self._spell: list[str] = []
        # value index -> source skips (backslash escapes, removed line ends), for the few
        # values whose source is not contiguous
        self._skips: dict[int, list[int]] = {}
        self._view: memoryview | None = None  # of _buf while resolving

    def add(self, name: str, value: str | BytesLike, *, offset: int = 0) -> None:
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
        self._add(name, value_bytes(value, "value")[0], offset, None)

    def _add(self, name: str, value: bytes, offset: int, skips: list[int] | None) -> None:
        base, number, flags = _parse_name(name) if "*" in name else (name, -1, 0)
        key = base.lower()
        ident = self._ids.get(key)
        if ident is None:
            ident = self._ids[key] = len(self._spell)
            self._spell.append(base)
        if skips:
            self._skips[len(self._flags)] = skips
        buf = self._buf
        buf += value
        self._rec.extend((len(buf), offset))
        self._base.append(ident)
        self._num.append(number)
        self._flags.append(flags)

    def _value(self, e: int) -> bytes:
        rec = self._rec
        start = rec[2 * e - 2] if e else 0
        view = self._view
        return bytes(view[start:rec[2 * e]]) if view is not None else bytes(self._buf[start:rec[2 * e]])

    def _pos(self, e: int, k: int) -> int:
        """Source offset of byte ``k`` of value ``e``."""
        skips = self._skips.get(e)
        return self._rec[2 * e + 1] + k + (bisect_right(skips, k) if skips else 0)

    def _to_source(self, e: object, start: int, end: int) -> tuple[int, int]:
        assert isinstance(e, int)  # the keys of _spans are entry indexes
        return self._pos(e, start), self._pos(e, end - 1) + 1

    def _issues(self) -> _ParamIssues:
        """A new parameter's issue list."""
        return _ParamIssues(self._folds, self._offset, self._max_issues)

    def _entry_issues(self, e: int, local: list[TextIssue], found: list[TextIssue]) -> None:
        """Append ``local`` (offsets = indexes into value ``e``) with source offsets."""
        for i in local:
            start = self._pos(e, i.offset)
            end = self._pos(e, i.offset + i.length - 1) + 1 if i.length > 0 else start
            found.append(TextIssue(i.kind, start, end - start))

    def resolve(self) -> list[DecodedParameter]:
        """Return one :class:`DecodedParameter` per name, in order of first appearance.

        :returns: the decoded parameters.
        :issues: ``MalformedExtendedValue``, ``InvalidPercentEscape``, the charset's
            ``Invalid*``, ``AmbiguousUnknownCharset`` (T1), ``AmbiguousRaw8Bit`` (T51),
            ``AmbiguousEncodedWordInQuotedString`` (T55), ``AmbiguousAsciiLabelledUtf8`` (T81),
            ``AmbiguousRawIso2022`` (T84), and those of :func:`rfc2047.decode_value` for
            encoded words in plain values.
        """
        plain: dict[int, int] = {}
        sections: dict[int, array[int]] = {}
        for e, (ident, number) in enumerate(zip(self._base, self._num, strict=True)):
            if number < 0:
                if ident not in plain:
                    plain[ident] = e
            else:
                entries = sections.get(ident)
                if entries is None:
                    entries = sections[ident] = array("i")
                entries.append(e)
        if len(self._buf) < 4096:  # small: slicing the bytearray is cheaper than a view
            return self._resolve(plain, sections)
        self._view = memoryview(self._buf)
        try:
            return self._resolve(plain, sections)
        finally:
            self._view.release()
            self._view = None

    def _resolve(self, plain: dict[int, int], sections: dict[int, array[int]]) -> list[DecodedParameter]:
        if not sections:
            return [self._plain(name, plain[ident]) for ident, name in enumerate(self._spell)]
        out = []
        for ident, name in enumerate(self._spell):
            entries = sections.get(ident)
            if entries is not None:
                out.append(self._extended(name, entries))
            else:
                out.append(self._plain(name, plain[ident]))
        return out

    def _plain(self, name: str, e: int) -> DecodedParameter:
        value = self._value(e)
        if value.isascii() and b"=?" not in value and 27 not in value:
            return DecodedParameter(name, value.decode("ascii"), None, None, "plain", ())
        found = self._issues()
        local = IssueSpill(lambda batch: self._entry_issues(e, batch, found))
        text, charset, method = self._decode_plain(value, local)
        local.spill()
        return found.parameter(name, text, charset, None, method)

    def _decode_plain(self, raw: bytes, local: list[TextIssue]) -> tuple[str, str | None, str]:
        """A value without a declared charset: ``(text, charset name, method)``; issue offsets
        are indexes into ``raw``."""
        if b"=?" in raw:
            # T55 puts one issue before those of the words, known once they are decoded: the
            # issues are held while they are few (one batch), else the value is decoded again
            many: list[bool] = []
            raw8: list[bool] = []

            def overflow(batch: list[TextIssue]) -> None:
                raw8.append(any(i.kind is _K_RAW for i in batch))
                many.append(True)

            held = IssueSpill(overflow)
            text, words = decode_value(raw, fallback=self._fallback, issues=held)
            raw8.append(any(i.kind is _K_RAW for i in held))
            if words:
                local.append(TextIssue(_K_EW, 0, len(raw)))
            if many:
                decode_value(raw, fallback=self._fallback, issues=local)
            else:
                local.extend(held)
            if words:
                return text, None, "encoded-word"
            if raw.isascii():
                return text, None, "plain"
            return text, self._fallback.name if any(raw8) else "utf-8", "plain"
        text, charset = self._decode_raw(raw, local)
        return text, charset, "plain"

    def _decode_raw(self, raw: bytes, local: list[TextIssue]) -> tuple[str, str | None]:
        """Bytes without a charset: ASCII (raw ISO-2022-JP: T84), else UTF-8 if valid, else the
        fallback (T51: ``AmbiguousRaw8Bit`` from the first to the last byte >= 0x80)."""
        if raw.isascii():
            text, iso2022 = decode_ascii(raw, local, 0)
            return text, "iso-2022-jp" if iso2022 else None
        try:
            return raw.decode("utf-8"), "utf-8"
        except UnicodeDecodeError:
            pass
        first, end = high_byte_span(raw)
        local.append(TextIssue(_K_RAW, first, end - first))
        return self._fallback.decode(raw, local, 0), self._fallback.name

    def _extended(self, name: str, entries: Sequence[int]) -> DecodedParameter:
        num = self._num
        if any(num[entries[k]] < num[entries[k - 1]] for k in range(1, len(entries))):
            entries = sorted(entries, key=num.__getitem__)  # stable: duplicates keep source order
        flags = self._flags
        found = self._issues()
        charset_label = None
        language = None
        raw = bytearray()
        first = entries[0]
        first_start = 0
        all_literal = True
        for index, e in enumerate(entries):
            value = self._value(e)
            start = 0
            star = flags[e] & _STAR
            if index == 0 and star and flags[e] & _ZERO:
                q1 = value.find(b"'")
                q2 = value.find(b"'", q1 + 1) if q1 >= 0 else -1
                if q2 < 0:
                    self._entry_issues(e, [TextIssue(_K_EXT, 0, len(value))], found)
                else:
                    charset_label = value[:q1].decode("latin-1")
                    language = value[q1 + 1:q2].decode("latin-1") or None
                    start = first_start = q2 + 1
            if star:
                all_literal = False
                _percent_decode(value, start, raw, e, self, found)
            else:
                raw += value[start:] if start else value
        joined = bytes(raw)
        method = "extended" if len(entries) == 1 and not flags[first] & _NUMBERED else "continuation"
        # issues about the decoded bytes, mapped to the sections' bytes a batch at a time
        locate = SpanLocator(lambda: self._spans(entries, first_start), self._to_source)
        total, default = len(joined), self._rec[2 * first + 1]
        local = IssueSpill(lambda batch: found.extend(map_issues(batch, locate, total, default)))
        if charset_label:
            cs, us_ascii = label_info(charset_label)
            text, used_cs = decode_bytes(joined, cs, us_ascii, local)
            used: str | None = used_cs.name
        elif all_literal:  # name*0="...", name*1="...": a plain value in pieces (T87)
            text, used, _method = self._decode_plain(joined, local)
        else:
            text, used = self._decode_raw(joined, local)
        local.spill()
        return found.parameter(name, text, used, language, method)

    def _spans(self, entries: Sequence[int], first_start: int) -> Iterator[Span]:
        """The source of each decoded byte of the joined sections, in order: ``(entry, start,
        end)`` in value coordinates (``%XX`` is three bytes)."""
        flags = self._flags
        for index, e in enumerate(entries):
            value = self._value(e)
            k = first_start if index == 0 else 0
            n = len(value)
            if not flags[e] & _STAR:
                for j in range(k, n):
                    yield e, j, j + 1
            else:
                yield from escape_spans(value, k, n, 0x25, e)


def _percent_decode(value: bytes, start: int, out: bytearray, e: int, collector: ParameterCollector,
                    found: list[TextIssue]) -> None:
    """Append ``value[start:]`` percent-decoded to ``out``; a ``%`` not followed by two hex
    digits stays literal (``InvalidPercentEscape``, T70)."""
    part = value[start:] if start else value
    if b"%" not in part:
        out += part
        return
    pieces = part.split(b"%")
    out += pieces[0]
    k = start + len(pieces[0])  # index of the '%' before the next piece
    hex_value = _HEX_VALUE
    for p in pieces[1:]:
        byte = hex_value.get(p[:2])
        if byte is not None:
            out.append(byte)
            out += p[2:]
        else:
            out.append(0x25)
            out += p
            found.append(TextIssue(_K_PCT, collector._pos(e, k), 1))
        k += len(p) + 1


# ---------------------------------------------------------------------------------------------
# Encoding


def encode(name: str, value: str, *, charset: str | Charset = "utf-8", part_length: int = 50) -> list[str]:
    """Return the parameter parts to write for ``name`` and ``value``.

    Implements spec 000 "Parameters", Rfc2231.Encode (RFC 2231 §3-4): a token value as
    ``name=value``; other printable ASCII as a quoted string (``\\`` before ``"`` and ``\\``),
    unless it holds ``=?`` (a reader would take it for an encoded word: T89); anything else as
    ``name*=charset''%XX...``, or ``name*0*=charset''...``, ``name*1*=...`` when the
    percent-encoded value is longer than ``part_length`` characters, each part holding whole
    characters (at least one) and at most ``part_length`` encoded characters when a character
    fits; the charset appears in the first part only. A stateful charset (UTF-7, the ISO-2022
    family, HZ) encodes each part's characters as one piece, closed (T89).

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
    cs = charset_arg(charset, "charset")
    if value and all(c in _TOKEN_CHARS for c in value):
        return [f"{name}={value}"]
    if all(" " <= c <= "~" for c in value) and "=?" not in value:
        quoted = value.replace("\\", "\\\\").replace('"', '\\"')
        return [f'{name}="{quoted}"']
    prefix = f"{cs.name}''"
    units = char_units(value)
    if cs.key in STATEFUL:
        whole = _pct(close_run(cs, cs.encode(value)))
        if len(whole) <= part_length:
            return [f"{name}*={prefix}{whole}"]
        parts = [_pct(p) for p in stateful_chunks(units, cs, lambda raw: len(_pct(raw)), part_length)]
        return [f"{name}*{k}*={prefix if k == 0 else ''}{p}" for k, p in enumerate(parts)]
    pieces = [_pct(cs.encode(u)) for u in units]
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


def _pct(raw: bytes) -> str:
    return "".join(_PCT_TABLE[b] for b in raw)


# ---------------------------------------------------------------------------------------------
# Tokenizing a Content-Type / Content-Disposition value

_WS = b" \t\r\n"
_SEPARATORS = b"; \t\r\n"
_NAME = re.compile(rb"[^=; \t\r\n(\"]*")
# Fast path of the tokenizer: separators, a name, "=", then a token or a quoted string without
# quoted pairs or line ends, then ";" or the end. No class can match what follows it, so the
# match cannot backtrack; anything else (comments, escapes, spaces in values ...) takes the
# general path, which reads this shape the same way.
_SIMPLE_PARAM = re.compile(rb'[; \t\r\n]*([^=; \t\r\n("]+)[ \t\r\n]*=[ \t\r\n]*'
                           rb'(?:"([^"\\\r\n]*)"|([^;"() \t\r\n]+))[ \t\r\n]*(?=;|\Z)')


def parse_header_params(value: str | BytesLike, *, fallback: str | Charset = "windows-1252",
                        issues: list[TextIssue] | None = None, offset: int = 0,
                        max_issues: int | None = None) -> tuple[str, list[DecodedParameter]]:
    """Split a ``Content-Type`` / ``Content-Disposition`` value into its main value and parameters.

    A tolerant tokenizer (spec 000 "Parameters"; RFC 2045 §5.1, RFC 2231, RFC 5322 §3.2.2):

    * the value is unfolded first (RFC 5322 §2.2.3: CR LF before white space removed, the white
      space kept: ``boundary="foo\\r\\n bar"`` is ``foo bar``; T85);
    * comments (nested, with quoted pairs) between parameters, before and after the main value
      and before and after an unquoted value are dropped (``text/plain (plain text)``,
      ``(comment) base64``, ``name=one(comment)``); a comment inside an unquoted value stays
      text (``name=file (1).txt``; T65, T85);
    * a quoted main value (``"attachment"``) is its content; a value that starts with a
      parameter has an empty main value and keeps that parameter (``name="x.pdf"``, T85);
    * quoted strings with backslash escapes of ``"`` and ``\\`` (a backslash before another
      character is kept), missing semicolons between parameters (``a=1 b=2``, also after the
      main value), unquoted values with spaces (``name=my file.txt``), a missing closing quote
      (the value runs to the end) and stray semicolons are tolerated;
    * text that is no parameter (``*=test`` without a name, junk without ``=``, text after a
      closing quote, an unterminated comment) is dropped with ``MalformedParameter`` (T86).

    The parameters go through a :class:`ParameterCollector`.

    :param value: the header value after the colon (``str`` or ``bytes``; a ``str`` counts its
        UTF-8 bytes for offsets).
    :param fallback: charset for 8-bit values that are not UTF-8.
    :param issues: list to append the issues about the parameter list itself to
        (``MalformedParameter``), or ``None``; each parameter's own issues are in its
        :attr:`DecodedParameter.issues`.
    :param offset: byte offset of ``value`` in the caller's buffer, added to every issue (of the
        list and of the parameters).
    :param max_issues: keep at most this many issues per parameter (``None``: all); the others
        are counted in :attr:`DecodedParameter.dropped` and spanned by one ``TooManyIssues``
        at the end of its issues (issue 16: memory then follows the bound, not the damage).
    :returns: ``(main value, parameters)``: the main value (``"text/plain"``) stripped of white
        space and comments, as written; the resolved parameters in order of first appearance.
        Issue offsets are exact bytes into ``value`` (plus ``offset``), through folds and
        backslash escapes.
    :raises TypeError: ``value`` is not str or bytes-like, or ``offset`` or ``max_issues`` is
        not an int.
    :raises ValueError: ``max_issues`` is negative.

    >>> main, params = parse_header_params('text/plain; charset="utf-8"; name*=utf-8\\'\\'%E2%82%AC')
    >>> main, [(p.name, p.value) for p in params]
    ('text/plain', [('charset', 'utf-8'), ('name', '€')])
    """
    raw = value_bytes(value, "value")[0]
    if not isinstance(offset, int):
        raise TypeError(f"offset must be int, not {type(offset).__name__}")
    if issues is not None and not isinstance(issues, list):
        raise TypeError(f"issues must be a list or None, not {type(issues).__name__}")
    data, folds = unfold(raw) if (10 in raw or 13 in raw) else (raw, None)
    collector = ParameterCollector(fallback=fallback, max_issues=max_issues)
    collector._folds, collector._offset = folds, offset  # every issue mapped as it is made

    def hand_on(batch: list[TextIssue]) -> None:
        if issues is not None:
            issues.extend([folds.map(i, offset) for i in batch] if folds is not None else
                          [TextIssue(i.kind, i.offset + offset, i.length) for i in batch] if offset else batch)

    problems = IssueSpill(hand_on)  # the list's own issues (T86), handed on in batches
    k, main = _read_main(data, problems)
    n = len(data)
    simple = _SIMPLE_PARAM.match
    add = collector._add
    while k < n:
        m = simple(data, k)
        if m is not None:  # the common shape, in one match: name=token or name="plain"
            name = m.group(1)
            if name.split(b"*", 1)[0]:
                vs, ve = m.span(2) if m.start(2) >= 0 else m.span(3)
                add(name.decode("utf-8", "surrogateescape"), data[vs:ve], vs, None)
                k = m.end()
                continue
        k = _skip(data, k, _SEPARATORS, problems)
        if k >= n:
            break
        s = k
        name_match = _NAME.match(data, k)
        assert name_match is not None  # a starred pattern always matches
        k = name_match.end()
        name = data[s:k]
        k2 = _skip(data, k, _WS, problems)
        if not name or k2 >= n or data[k2] != 0x3D:
            # not a parameter: dropped up to the next ';' (T86)
            e = _skip_junk(data, k2 if name else max(k2, k + 1), problems)
            problems.append(TextIssue(_K_PARAM, s, _rstrip(data, s, e) - s))
            k = e
            continue
        k = _skip(data, k2 + 1, _WS, problems)
        skips = None
        if k < n and data[k] == 0x22:
            val, skips, voff, k = _read_quoted(data, k)
            j = _skip(data, k, _WS, problems)
            if j < n and data[j] != 0x3B and not _looks_like_param(data, j):
                # stray text after the closing quote, up to ';' or the next parameter (T65, T86)
                e = _value_end(data, j)
                problems.append(TextIssue(_K_PARAM, j, _rstrip(data, j, e) - j))
                j = e
            k = j
        else:
            e = _value_end(data, k)
            vs, ve = _trim_value(data, k, e)
            val, voff = data[vs:ve], vs
            k = e
        if not name.split(b"*", 1)[0]:  # "*=test", "*0*=x": no name (T86)
            problems.append(TextIssue(_K_PARAM, s, _rstrip(data, s, k) - s))
            continue
        add(name.decode("utf-8", "surrogateescape"), val, voff, skips)
    params = collector.resolve()
    problems.spill()
    return main, params


def _rstrip(data: bytes, start: int, end: int) -> int:
    """``end`` moved back over white space (not before ``start``)."""
    while end > start and data[end - 1] in _WS:
        end -= 1
    return end


def _skip(data: bytes, k: int, chars: bytes, problems: list[TextIssue]) -> int:
    """Skip ``chars`` and comments from ``k``."""
    n = len(data)
    if k < n and data[k] not in chars and data[k] != 0x28:
        return k
    while k < n:
        c = data[k]
        if c == 0x28:  # '(' comment
            k = _comment_end(data, k, problems)
        elif c in chars:
            k += 1
        else:
            break
    return k


def _comment_end(data: bytes, k: int, problems: list[TextIssue]) -> int:
    """End of the comment at ``data[k] == '('`` (nested, quoted pairs); an unterminated comment
    runs to the end of the value (``MalformedParameter``, T86)."""
    depth = 0
    n = len(data)
    j = k
    while j < n:
        c = data[j]
        if c == 0x5C:
            j += 2
            continue
        if c == 0x28:
            depth += 1
        elif c == 0x29:
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    problems.append(TextIssue(_K_PARAM, k, _rstrip(data, k, n) - k))
    return n


def _skip_junk(data: bytes, k: int, problems: list[TextIssue]) -> int:
    """End of text that is no parameter: the next ';' outside quoted strings and comments."""
    n = len(data)
    while k < n and data[k] != 0x3B:
        if data[k] == 0x22:
            k = _read_quoted(data, k)[3]
        elif data[k] == 0x28:
            k = _comment_end(data, k, problems)
        else:
            k += 1
    return k


def _read_main(data: bytes, problems: list[TextIssue]) -> tuple[int, str]:
    """Read the main value (``text/plain``, ``attachment``): ``(where the parameters start,
    main value)``."""
    n = len(data)
    k = _skip(data, 0, _WS, problems)
    if _looks_like_param(data, k):  # no main value: the parameters start at once (T85)
        return k, ""
    out: list[bytes] = []
    while k < n:
        c = data[k]
        if c == 0x3B:
            break
        if c == 0x28:
            k = _comment_end(data, k, problems)
        elif c == 0x22:  # a quoted main value: its content (T85)
            val, _skips, _voff, k = _read_quoted(data, k)
            out.append(val)
        elif c in _WS:
            # white space ends the main value when a parameter follows without ';'
            j = _skip(data, k, _WS, problems)
            if out and _looks_like_param(data, j):
                return j, b"".join(out).decode("utf-8", "surrogateescape").strip()
            if out and j < n and data[j] != 0x3B:
                out.append(b" ")
            k = j
        else:
            m = _MAIN_TOKEN.match(data, k)
            assert m is not None  # data[k] is none of the bytes handled above
            out.append(m.group())
            k = m.end()
    return k, b"".join(out).decode("utf-8", "surrogateescape").strip()


_MAIN_TOKEN = re.compile(rb'[^;(" \t\r\n]+')


def _read_quoted(data: bytes, k: int) -> tuple[bytes, list[int] | None, int, int]:
    """Read the quoted string at ``data[k] == '"'``: ``(content, skips, content offset, end)``.

    ``skips`` lists, for each source byte left out of the content (the backslash of a quoted
    pair, a line end left after unfolding), the content index where it was left out (``None``:
    the content is the source as it is).
    """
    n = len(data)
    q = data.find(b'"', k + 1)
    end = n if q < 0 else q
    inner = data[k + 1:end]
    if 0x5C not in inner and 0x0D not in inner and 0x0A not in inner:
        return inner, None, k + 1, end + 1 if q >= 0 else n
    out = bytearray()
    skips: list[int] = []
    j = k + 1
    special = _QUOTED_SPECIAL.search
    while True:
        m = special(data, j)
        if m is None:
            out += data[j:]
            return bytes(out), skips, k + 1, n
        p = m.start()
        out += data[j:p]
        c = data[p]
        if c == 0x22:
            return bytes(out), skips, k + 1, p + 1
        if c == 0x5C:
            if p + 1 < n and data[p + 1] in b'"\\':
                # a backslash escapes only '"' and '\'; before anything else it is kept, as in
                # unescaped Windows paths (filename="C:\TEMP\a.png"; ambiguity T65)
                skips.append(len(out))
                out.append(data[p + 1])
                j = p + 2
            else:
                out.append(c)
                j = p + 1
            continue
        skips.append(len(out))  # a bare line end inside a quoted string: removed
        j = p + 1


_QUOTED_SPECIAL = re.compile(rb'["\\\r\n]')


def _trim_value(data: bytes, k: int, e: int) -> tuple[int, int]:
    """Start and end of the unquoted value ``data[k:e]`` without the white space and comments
    that begin or end it (T65, T85: ``one(comment)`` is ``one``; ``file (1).txt`` stays).

    One pass with a stack of open parentheses, so any input costs linear time (issue 16: the
    former trailing-comment pattern was quadratic on long runs of spaces).
    """
    if data.find(b"(", k, e) < 0:
        while k < e and data[k] in _WS:
            k += 1
        while e > k and data[e - 1] in _WS:
            e -= 1
        return k, e
    opens: list[int] = []
    comments: list[tuple[int, int]] = []  # outermost matched pairs, in order
    for j in range(k, e):
        c = data[j]
        if c == 0x28:
            opens.append(j)
        elif c == 0x29 and opens:
            s = opens.pop()
            if not opens:
                while comments and comments[-1][0] > s:
                    comments.pop()
                comments.append((s, j + 1))
    start, end = k, e
    # leading white space and comments
    ci = 0
    while start < end:
        if data[start] in _WS:
            start += 1
        elif ci < len(comments) and comments[ci][0] == start:
            start = comments[ci][1]
            ci += 1
        else:
            break
    # trailing white space and comments
    cj = len(comments) - 1
    while end > start:
        if data[end - 1] in _WS:
            end -= 1
        elif cj >= ci and comments[cj][1] == end:
            end = comments[cj][0]
            cj -= 1
        else:
            break
    return start, end


_PARAM_START = re.compile(rb"[^\x00-\x20=;\"()]+[ \t]*=")


def _looks_like_param(data: bytes, k: int) -> bool:
    return _PARAM_START.match(data, k) is not None


def _value_end(data: bytes, k: int) -> int:
    """End of an unquoted value: the next ';', or white space followed by ``name=``."""
    n = len(data)
    j = k
    while True:
        m = _VALUE_STOP.search(data, j)
        if m is None:
            return n
        p = m.start()
        if data[p] == 0x3B:
            return p
        ws = _WS_RUN.match(data, p)
        assert ws is not None  # a starred pattern always matches
        w = ws.end()
        if w < n and _looks_like_param(data, w):
            return w
        j = w


_VALUE_STOP = re.compile(rb"[; \t\r\n]")
_WS_RUN = re.compile(rb"[ \t\r\n]*")
