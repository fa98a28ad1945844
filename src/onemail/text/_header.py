"""What RFC 2047 (:mod:`.rfc2047`) and RFC 2231 (:mod:`.rfc2231`) share.

Both read header bytes: argument checks (:func:`value_bytes`, :func:`charset_arg`), unfolding
with an offset map back to the folded input (:func:`unfold`, :class:`FoldMap`), the charset
decision for decoded bytes (:func:`decode_bytes`: ImportError, unknown-charset rule T1, the
US-ASCII rule T81), plain 7-bit text written in raw ISO-2022-JP (:func:`decode_ascii`, T84),
the ``AmbiguousRaw8Bit`` span (:func:`high_byte_span`, T51), mapping issues about decoded
bytes back to the encoded input without a per-byte list (:func:`map_issues`), and the
encoders' character units and chunking of stateful charsets (:func:`char_units`,
:func:`stateful_chunks`).

**Offsets.** Everything here works on byte offsets; a ``str`` value counts the bytes of its
UTF-8 encoding (``surrogateescape``, else ``surrogatepass`` for other lone surrogates).
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator

from .charsets import BytesLike, Charset, decode_unknown, for_label, is_us_ascii_label
from .issues import IssueKind, TextIssue

__all__ = [
    "SPILL",
    "STATEFUL",
    "Span",
    "FoldMap",
    "IssueSpill",
    "SpanLocator",
    "char_units",
    "charset_arg",
    "close_run",
    "decode_ascii",
    "decode_bytes",
    "escape_spans",
    "high_byte_span",
    "label_info",
    "map_issues",
    "stateful_chunks",
    "unfold",
    "unfold_fast",
    "value_bytes",
]

# ---------------------------------------------------------------------------------------------
# Arguments


def value_bytes(value: str | BytesLike, what: str) -> tuple[bytes, int]:
    """Return ``(bytes, mode)``: mode 0 for bytes input, 1 for a ``str`` (``surrogateescape``),
    2 for a ``str`` with other lone surrogates (``surrogatepass``).

    :raises TypeError: ``value`` is neither ``str`` nor bytes-like (the message names ``what``).
    """
    if isinstance(value, bytes):
        return value, 0
    if isinstance(value, str):
        try:
            return value.encode("utf-8", "surrogateescape"), 1
        except UnicodeEncodeError:
            return value.encode("utf-8", "surrogatepass"), 2
    if isinstance(value, (bytearray, memoryview)):
        return bytes(value), 0
    raise TypeError(f"{what} must be str or bytes-like, not {type(value).__name__}")


def charset_arg(charset: str | Charset, what: str) -> Charset:
    """Resolve a charset argument (a label or a :class:`Charset`).

    :raises TypeError: ``charset`` is neither (the message names ``what``).
    :raises ValueError: the label names no known charset.
    """
    if isinstance(charset, Charset):
        return charset
    if not isinstance(charset, str):
        raise TypeError(f"{what} must be a charset label (str), not {type(charset).__name__}")
    cs = for_label(charset)
    if cs is None:
        raise ValueError(f"{what}: unknown charset label {charset!r}")
    return cs


# ---------------------------------------------------------------------------------------------
# Unfolding (RFC 5322 2.2.3)

# A fold: CRLF or a bare CR/LF, followed by SP or HT (the white space is not part of the match).
FOLD = re.compile(rb"\r\n(?=[ \t])|[\r\n](?=[ \t])")
FOLD_STR = re.compile("\r\n(?=[ \t])|[\r\n](?=[ \t])")


def unfold_fast(data: bytes) -> bytes:
    """Remove folds when no offsets are needed (equal to ``FOLD.sub(b"", data)``).

    Replacing LF+WSP (data without CR) or CRLF+WSP is what the fold pattern does whenever no CR
    or LF is left afterwards (every removed line end was followed by white space); otherwise
    the pattern decides.
    """
    if 13 not in data:
        out = data.replace(b"\n ", b" ")
        if 9 in out:
            out = out.replace(b"\n\t", b"\t")
    else:
        out = data.replace(b"\r\n ", b" ")
        if 9 in out:
            out = out.replace(b"\r\n\t", b"\t")
    if 10 in out or 13 in out:
        return FOLD.sub(b"", data)
    return out


class FoldMap:
    """Where folds were removed: maps offsets in unfolded bytes back to the folded input.

    :ivar positions: unfolded offset of each removal, ascending.
    :ivar removed: bytes removed up to and including each removal (cumulative).
    """

    __slots__ = ("positions", "removed")

    def __init__(self, positions: list[int], removed: list[int]) -> None:
        self.positions = positions
        self.removed = removed

    def source(self, u: int) -> int:
        """Offset in the folded input of unfolded offset ``u`` (a byte, not a gap)."""
        k = bisect_right(self.positions, u)
        return u + (self.removed[k - 1] if k else 0)

    def issues(self, found: Iterable[TextIssue]) -> list[TextIssue]:
        """Return ``found`` with offsets and lengths in the folded input."""
        return [self.map(i) for i in found]

    def map(self, i: TextIssue, shift: int = 0) -> TextIssue:
        """Return ``i`` with its offset and length in the folded input, ``shift`` added."""
        start = self.source(i.offset)
        end = self.source(i.offset + i.length - 1) + 1 if i.length > 0 else start
        return TextIssue(i.kind, start + shift, end - start)


def unfold(data: bytes) -> tuple[bytes, FoldMap | None]:
    """Remove folds; return ``(unfolded bytes, map back)`` (``None`` when nothing was removed)."""
    pieces = []
    positions: list[int] = []
    removed: list[int] = []
    last = 0
    total = 0
    for m in FOLD.finditer(data):
        s, e = m.span()
        pieces.append(data[last:s])
        positions.append(s - total)
        total += e - s
        removed.append(total)
        last = e
    if not positions:
        return data, None
    pieces.append(data[last:])
    return b"".join(pieces), FoldMap(positions, removed)


# ---------------------------------------------------------------------------------------------
# Decoding bytes of a declared charset; plain text

_K_RAW = IssueKind.AMBIGUOUS_RAW_8BIT
_K_ASCII_UTF8 = IssueKind.AMBIGUOUS_ASCII_LABELLED_UTF8
_K_RAW_ISO2022 = IssueKind.AMBIGUOUS_RAW_ISO2022
_HIGH_BYTE = re.compile(rb"[\x80-\xff]")


@functools.cache
def _utf8() -> Charset:
    """UTF-8, looked up on first use (importing onemail.text loads no table)."""
    return for_label("utf-8")  # type: ignore[return-value]


def high_byte_span(data: bytes) -> tuple[int, int]:
    """Return ``(start, end)``: from the first to just after the last byte >= 0x80 of ``data``.

    The span an ``AmbiguousRaw8Bit`` issue covers (T51); ``data`` must hold such a byte.
    """
    first = _HIGH_BYTE.search(data)
    last = _HIGH_BYTE.search(data[::-1])
    assert first is not None and last is not None  # the caller's precondition
    start = first.start()
    end = len(data) - last.start()
    return start, end


def label_info(label: str) -> tuple[Charset | None, bool]:
    """Return ``(for_label(label), is_us_ascii_label(label))`` for a declared charset label."""
    return for_label(label), is_us_ascii_label(label)


def decode_bytes(raw: bytes, cs: Charset | None, us_ascii: bool,
                 found: list[TextIssue] | None) -> tuple[str, Charset]:
    """Decode the bytes of a declared charset; issue offsets are indexes into ``raw``.

    * ``us_ascii`` (the label names US-ASCII) and ``raw`` holds 8-bit bytes that are valid
      UTF-8: read as UTF-8, one ``AmbiguousAsciiLabelledUtf8`` from the first to the last 8-bit
      byte (T81, as the message layer reads such a body, M6);
    * a known charset: its decoder (a family module that cannot be imported: as unknown);
    * otherwise the unknown-charset rule (T1: ``AmbiguousUnknownCharset``).

    :returns: ``(text, charset used)``.
    """
    if us_ascii and not raw.isascii():
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            pass
        else:
            if found is not None:
                first, end = high_byte_span(raw)
                found.append(TextIssue(_K_ASCII_UTF8, first, end - first))
            return text, _utf8()
    if cs is not None:
        mark = len(found) if found is not None else 0
        try:
            return cs.decode(raw, found, 0), cs
        except ImportError:  # a family module not installed yet: unknown-charset rule (T1)
            if found is not None:
                del found[mark:]
    return decode_unknown(raw, issues=found)


#: A designation of a two-byte set of the ISO-2022-JP family, or of JIS X 0201 katakana (T84);
#: the message layer's address parser builds its JIS runs on it.
ISO2022_JP_DESIGNATION = re.compile(rb"\x1b(?:\$[@B]|\$\([@BDOPQ]|\(I)")
_ESCAPE = re.compile(rb"\x1b[\x20-\x2f]*[\x30-\x7e]?")


@functools.cache
def _iso2022_jp() -> Charset:
    """ISO-2022-JP, looked up on first use (importing onemail.text loads no table)."""
    return for_label("iso-2022-jp")  # type: ignore[return-value]


def decode_ascii(seg: bytes, issues: list[TextIssue] | None, at: int) -> tuple[str, bool]:
    """Decode a 7-bit segment of plain header text (not an encoded word).

    ASCII, unless the segment holds an ISO-2022-JP designation of a two-byte set or of
    katakana (``ESC $ B`` ...): then it is raw ISO-2022-JP, as old Japanese mailers wrote it,
    decoded by the ISO-2022-JP decoder, with one ``AmbiguousRawIso2022`` from the first ESC to
    the end of the last escape sequence (T84), then that decoder's issues.

    :param seg: ASCII bytes.
    :param at: offset of ``seg`` in the caller's coordinates, added to every issue.
    :returns: ``(text, True when read as ISO-2022-JP)``.
    """
    if 27 not in seg or ISO2022_JP_DESIGNATION.search(seg) is None:
        return seg.decode("ascii"), False
    if issues is not None:
        first = seg.find(b"\x1b")
        escape = _ESCAPE.match(seg, seg.rfind(b"\x1b"))
        assert escape is not None  # the pattern matches at any ESC
        last = escape.end()
        issues.append(TextIssue(_K_RAW_ISO2022, at + first, last - first))
    return _iso2022_jp().decode(seg, issues, at), True


# ---------------------------------------------------------------------------------------------
# Issues about decoded bytes -> the encoded input

#: Issues an :class:`IssueSpill` holds before it hands them on.
SPILL = 4096


class IssueSpill(list[TextIssue]):
    """A local issue list (offsets in a decoder's own coordinates) that hands its issues on in
    batches of :data:`SPILL`, in order, to ``hand_on(batch)``, which maps them to the caller's
    coordinates and adds them to the caller's list (issue 16: a header of 1 MiB of ``=?`` held
    half a million issues here before the caller's ``BoundedIssues`` kept 101).

    Mapping each issue on its own (folds, encoded characters, an offset), a batch at a time,
    gives the caller what mapping the whole list at the end gives, in the same order. Decoders
    only ``append`` and ``extend`` (ADR 0016); :meth:`spill` hands on what is left, at the end.
    """

    __slots__ = ("hand_on",)

    def __init__(self, hand_on: Callable[[list[TextIssue]], None]) -> None:
        super().__init__()
        self.hand_on = hand_on

    def append(self, issue: TextIssue) -> None:
        list.append(self, issue)
        if len(self) >= SPILL:
            self.spill()

    def extend(self, issues: Iterable[TextIssue]) -> None:
        if isinstance(issues, list) and len(self) + len(issues) < SPILL:
            list.extend(self, issues)
            return
        for issue in issues:
            self.append(issue)

    def __iadd__(self, issues: Iterable[TextIssue]) -> IssueSpill:  # type: ignore[override,misc]
        self.extend(issues)
        return self

    def spill(self) -> None:
        """Hand on the issues held (if any) and hold none."""
        if self:
            batch = list(self)
            del self[:]
            self.hand_on(batch)


#: ``(key, start, end)``: the source of one decoded byte; ``key`` says which coordinate
#: system ``start`` and ``end`` are in.
Span = tuple[object, int, int]
#: ``locate(indexes)``: the source ``(start, end)`` of each decoded byte index asked for
#: (ascending, all below the number of decoded bytes).
Locate = Callable[[list[int]], dict[int, tuple[int, int]]]


class SpanLocator:
    """A :data:`Locate` that walks the spans ``make_spans()`` yields (the source of each decoded
    byte, in order): each call goes on from the byte after the last one it found, so batches of
    issues in order (an :class:`IssueSpill`) walk the spans once; a call that asks for an
    earlier byte walks them again from the start."""

    __slots__ = ("make_spans", "to_source", "spans", "index")

    def __init__(self, make_spans: Callable[[], Iterator[Span]],
                 to_source: Callable[[object, int, int], tuple[int, int]]) -> None:
        self.make_spans = make_spans
        self.to_source = to_source
        self.spans = make_spans()
        self.index = 0  # the index of the next span

    def __call__(self, need: list[int]) -> dict[int, tuple[int, int]]:
        if need[0] < self.index:
            self.spans, self.index = self.make_spans(), 0
        found: dict[int, tuple[int, int]] = {}
        to_source = self.to_source
        k = 0
        n = len(need)
        index = self.index
        want = need[0]
        for key, s, e in self.spans:
            if index == want:
                found[index] = to_source(key, s, e)
                k += 1
                if k == n:
                    index += 1
                    break
                want = need[k]
            index += 1
        self.index = index
        return found


def map_issues(local: list[TextIssue], locate: Locate, total: int, default: int) -> list[TextIssue]:
    """Map issues over decoded bytes (offset = index into them) to source spans.

    Only the bytes that start or end an issue are located (no per-byte list). An issue covers
    the source of its first and last byte and what lies between them (sections of a parameter
    may be written in any order: both ends are covered whatever their order); a zero-length
    issue sits at the start of its byte; an issue past the end sits at the end of the last
    byte's source (``default`` when there are no bytes).

    :param total: the number of decoded bytes.
    """
    wanted: set[int] = set()
    for i in local:
        if i.offset < total:
            wanted.add(i.offset)
            wanted.add(min(i.offset + max(i.length, 1), total) - 1)
        elif total:
            wanted.add(total - 1)
    found = locate(sorted(wanted)) if wanted else {}
    out = []
    for i in local:
        if i.offset < total:
            first = found[i.offset]
            last = found[min(i.offset + max(i.length, 1), total) - 1]
            start = min(first[0], last[0])
            end = max(first[1], last[1]) if i.length > 0 else first[0]
        else:
            start = end = found[total - 1][1] if total else default
        out.append(TextIssue(i.kind, start, end - start))
    return out


_HEX = frozenset(b"0123456789ABCDEFabcdef")


def escape_spans(data: bytes, start: int, end: int, escape: int, key: object = None) -> Iterator[Span]:
    """Yield ``(key, start, end)``: the source of each byte that decoding ``data[start:end]``
    gives when ``escape`` (``=`` in Q text, ``%`` in RFC 2231 values) followed by two hex digits
    is one byte and every other byte is itself (a bad escape stays a literal byte)."""
    k = start
    while k < end:
        if data[k] == escape and k + 2 < end and data[k + 1] in _HEX and data[k + 2] in _HEX:
            yield key, k, k + 3
            k += 3
        else:
            yield key, k, k + 1
            k += 1


# ---------------------------------------------------------------------------------------------
# Encoding

_HIGH_SURROGATE = re.compile("[\ud800-\udbff]")
_B64_SET = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
#: Decoder keys whose encoders keep state across characters: encode whole chunks.
STATEFUL = frozenset({"utf-7", "iso-2022-jp", "iso-2022-jp-1", "iso-2022-jp-2", "iso-2022-jp-3",
                      "cp50220", "cp50221", "cp50222", "iso-2022-kr", "hz-gb-2312"})


def char_units(s: str) -> list[str]:
    """Split into characters, keeping a high surrogate and a following low surrogate together."""
    if _HIGH_SURROGATE.search(s) is None:
        return list(s)
    units = []
    k = 0
    n = len(s)
    while k < n:
        c = s[k]
        if "\ud800" <= c <= "\udbff" and k + 1 < n and "\udc00" <= s[k + 1] <= "\udfff":
            units.append(s[k:k + 2])
            k += 2
        else:
            units.append(c)
            k += 1
    return units


def close_run(cs: Charset, raw: bytes) -> bytes:
    """For UTF-7, end an open base64 run with ``-`` so that joined pieces decode alike."""
    if cs.key != "utf-7":
        return raw
    in_run = False
    k = 0
    n = len(raw)
    while k < n:
        b = raw[k]
        if in_run:
            if b not in _B64_SET:
                in_run = False
        elif b == 0x2B:  # '+'
            if k + 1 < n and raw[k + 1] == 0x2D:
                k += 1
            else:
                in_run = True
        k += 1
    return raw + b"-" if in_run else raw


def stateful_chunks(units: list[str], cs: Charset, cost: Callable[[bytes], int], cap: int) -> list[bytes]:
    """Cut text for a stateful charset into pieces each encoded on its own and closed.

    Each piece is the longest run of ``units`` (at least one) whose encoding, closed
    (:func:`close_run`; the ISO-2022 encoders end in ASCII themselves), costs at most ``cap``
    by ``cost``; pieces joined as bytes decode to the text (T89). Time: each piece encodes
    prefixes of at most ``cap`` units, so linear in the text for a fixed ``cap``.
    """
    pieces = []
    k = 0
    n = len(units)
    while k < n:
        j = k + 1
        best = close_run(cs, cs.encode(units[k]))
        while j < n:
            raw = close_run(cs, cs.encode("".join(units[k:j + 1])))
            if cost(raw) > cap:
                break
            best = raw
            j += 1
        pieces.append(best)
        k = j
    return pieces
