"""RFC 2047 encoded words: decode header text (:func:`decode_text`) and produce it (:func:`encode`).

Implements spec 000 "Encoded words (RFC 2047)". The decoder is one left-to-right scan:

1. **Unfolding.** A fold (CRLF, or a bare CR or LF, followed by SP or HT) is removed; the white
   space after it stays (RFC 5322 §2.2.3). Offsets of issues are mapped back to the input.
2. **Words.** At each ``=?`` the scanner reads ``charset?encoding?text?=``: the charset runs to
   the next ``?`` and must be non-empty without white space, the encoding runs to the next ``?``
   and must be free of white space, otherwise the ``=?`` is plain text and no issue is made. The
   text ends at the first ``?=``. An encoding other than ``B``/``Q`` (either case), a missing
   ``?=``, or a CR/LF inside the text leave the characters literal (``MalformedEncodedWord``) and
   the scan resumes two bytes after the ``=?``. SP/HT inside the text are accepted
   (``MalformedEncodedWord``); a word longer than 75 characters is decoded
   (``EncodedWordTooLong``). ``charset*language`` is accepted and the language ignored.
3. **Joining.** White space between two adjacent encoded words is dropped; adjacent words in the
   same charset are joined as *bytes* and decoded once, so a character split across two words
   survives (MimeKit does the same; ambiguity T50). White space between a word and plain text
   stays.
4. **Plain text.** ASCII is copied. Non-ASCII plain bytes are UTF-8 when every plain segment of
   the value is valid UTF-8 (RFC 6532); otherwise all of them are read with the fallback charset
   (default windows-1252) and each plain segment holding 8-bit bytes gets one
   ``AmbiguousRaw8Bit`` covering its first to its last 8-bit byte (ambiguity T51).

**Linear time.** The ``?=`` positions (and CR/LF positions) are found once per value and looked
up by bisection, so resuming two bytes after a malformed word never rescans the tail: the charset
and encoding fields are bounded by the next ``?``, and text is only decoded for accepted words,
after which the scan continues behind them. No regular expression here can backtrack.

**Offsets.** Issue offsets are bytes into ``value`` plus the ``offset`` argument. For a ``str``
value, offsets count bytes of its UTF-8 encoding (``surrogateescape``, so a ``str`` made by
``data.decode("utf-8", "surrogateescape")`` behaves exactly as ``data``; other lone surrogates are
encoded with ``surrogatepass``). An issue found in the decoded bytes of a word (``Invalid*`` of
the charset, ``AmbiguousUnknownCharset``) covers the encoded characters that produced those bytes
(for B, the base64 characters of their 4-character groups).
"""

from __future__ import annotations

import binascii
import re
from bisect import bisect_left, bisect_right

from .charsets import Charset, decode_unknown, for_label
from .issues import IssueKind, TextIssue

__all__ = ["decode_text", "encode", "MAX_WORD_LENGTH"]

MAX_WORD_LENGTH = 75
"""RFC 2047 §2: an encoded word may not be more than 75 characters long."""

_K_MALFORMED = IssueKind.MALFORMED_ENCODED_WORD
_K_TOO_LONG = IssueKind.ENCODED_WORD_TOO_LONG
_K_B64 = IssueKind.INVALID_BASE64
_K_QP = IssueKind.INVALID_QUOTED_PRINTABLE
_K_RAW = IssueKind.AMBIGUOUS_RAW_8BIT

# A fold: CRLF or a bare CR/LF, followed by SP or HT (the white space is not part of the match).
_FOLD = re.compile(rb"\r\n(?=[ \t])|[\r\n](?=[ \t])")
_FOLD_STR = re.compile("\r\n(?=[ \t])|[\r\n](?=[ \t])")
_CLOSE = re.compile(rb"\?=")
# A well-formed word whose text holds no '?' and no white space: the common case, matched in C.
# Each class excludes the delimiter that follows it, so the match cannot backtrack; where it
# fails, _Decoder._word_at applies the general rules.
_STRICT_WORD = re.compile(rb"=\?([^? \t\r\n]+)\?([BbQq])\?([^? \t\r\n]*)\?=")
_LINE_END = re.compile(rb"[\r\n]")
# '=' not followed by two hex digits (fixed-width look-ahead: no backtracking).
_BAD_QP = re.compile(rb"=(?![0-9A-Fa-f]{2})")
_HEX = frozenset(b"0123456789ABCDEFabcdef")
# The base64 alphabet (RFC 4648 §4).
_B64_ALPHABET = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_B64_SET = frozenset(_B64_ALPHABET)


def _as_bytes(value, what: str) -> tuple[bytes, int]:
    """Return (bytes, mode): mode 0 bytes input, 1 str (surrogateescape), 2 str (surrogatepass)."""
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


def _charset_arg(charset, what: str) -> Charset:
    """Resolve a charset argument (label or Charset); raise TypeError/ValueError naming it."""
    if isinstance(charset, Charset):
        return charset
    if not isinstance(charset, str):
        raise TypeError(f"{what} must be a charset label (str), not {type(charset).__name__}")
    cs = for_label(charset)
    if cs is None:
        raise ValueError(f"{what}: unknown charset label {charset!r}")
    return cs


_FALLBACK_DEFAULT = for_label("windows-1252")

# ---------------------------------------------------------------------------------------------
# Decoding


def decode_text(value, fallback="windows-1252", issues: list[TextIssue] | None = None,
                offset: int = 0) -> str:
    """Decode unstructured header text or a phrase, with its RFC 2047 encoded words.

    Implements RFC 2047 §6 with RFC 2231 §5 and RFC 6532; spec 000 "Encoded words (RFC 2047)",
    every decode rule (see the module docstring).

    :param value: the header value (after the colon), ``bytes`` or ``str``. A ``str`` is read
        as its UTF-8 bytes (``surrogateescape``); offsets then count those bytes.
    :param fallback: charset label (or :class:`Charset`) for plain 8-bit text that is not UTF-8.
    :param issues: list to append issues to, or ``None`` to make none.
    :param offset: byte offset of ``value`` in the caller's buffer, added to every issue.
    :returns: the decoded text.
    :issues: ``MalformedEncodedWord``, ``EncodedWordTooLong``, ``InvalidBase64``,
        ``InvalidQuotedPrintable``, the charset's ``Invalid*`` kinds, ``AmbiguousUnknownCharset``
        (T1), ``AmbiguousRaw8Bit`` (T51).
    :raises TypeError: ``value`` is not str or bytes-like, or ``fallback`` is not a label.
    :raises ValueError: ``fallback`` names no known charset.

    >>> decode_text("=?utf-8?q?caf=C3=A9?= =?iso-8859-1?b?4A==?= x")
    'café\xe0 x'
    """
    fb = _FALLBACK_DEFAULT if fallback == "windows-1252" else _charset_arg(fallback, "fallback")
    if type(offset) is not int and not isinstance(offset, int):
        raise TypeError(f"offset must be int, not {type(offset).__name__}")
    if type(value) is bytes:
        # Fast path: no word, only folds to remove. (Membership of an int byte is a memchr;
        # most header values hold no '?' at all.)
        if 63 not in value or b"=?" not in value:
            data = _unfold_text(value) if 10 in value or 13 in value else value
            if data.isascii():
                return data.decode("ascii")
    elif type(value) is str and "=?" not in value and value.isascii():
        return _FOLD_STR.sub("", value) if "\r" in value or "\n" in value else value
    return _decode(value, fb, issues, offset)[0]


def _unfold_text(data: bytes) -> bytes:
    """Remove folds when no offsets are needed.

    Replacing LF+WSP (data without CR) or CRLF+WSP is what the fold regex does whenever no CR or
    LF is left afterwards (every removed line end was followed by white space in the input);
    otherwise the regex decides.
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
        return _FOLD.sub(b"", data)
    return out


def _decode(value, fb: Charset, issues, offset: int) -> tuple[str, int]:
    """decode_text after argument checks; returns (text, number of encoded words decoded)."""
    data, mode = (value, 0) if type(value) is bytes else _as_bytes(value, "value")
    if b"=?" not in data:
        # No word: only folds to remove, and the text is ASCII or valid UTF-8 (no issue).
        unfolded = _unfold_text(data) if b"\r" in data or b"\n" in data else data
        if unfolded.isascii():
            return unfolded.decode("ascii"), 0
        try:
            return unfolded.decode("utf-8"), 0
        except UnicodeDecodeError:
            pass
    original = data
    if 10 in data or 13 in data:
        data = _unfold_text(data)
    local: list[TextIssue] | None = [] if issues is not None else None
    decoder = _Decoder(data, fb, mode, local)
    text = decoder.run()
    if local:
        if len(data) != len(original):  # folds were removed: map offsets back (only now)
            local = _unmap(local, _unfold(original)[1])
        if offset:
            local = [TextIssue(i.kind, i.offset + offset, i.length) for i in local]
        issues.extend(local)
    return text, decoder.words


def _unfold(data: bytes) -> tuple[bytes, tuple[list[int], list[int]] | None]:
    """Remove folds; return (unfolded bytes, (unfolded positions of removals, cumulative counts))."""
    pieces = []
    positions: list[int] = []
    removed: list[int] = []
    last = 0
    total = 0
    for m in _FOLD.finditer(data):
        s, e = m.span()
        pieces.append(data[last:s])
        total_before = total
        total += e - s
        positions.append(s - total_before)
        removed.append(total)
        last = e
    if not positions:
        return data, None
    pieces.append(data[last:])
    return b"".join(pieces), (positions, removed)


def _unmap(found: list[TextIssue], folds) -> list[TextIssue]:
    """Map issue offsets in unfolded bytes back to offsets in the folded input."""
    positions, removed = folds

    def orig(u: int) -> int:
        k = bisect_right(positions, u)
        return u + (removed[k - 1] if k else 0)

    out = []
    for i in found:
        start = orig(i.offset)
        end = orig(i.offset + i.length - 1) + 1 if i.length > 0 else start
        out.append(TextIssue(i.kind, start, end - start))
    return out


_LABELS: dict[bytes, tuple[Charset | None, object]] = {}


def _label(label: bytes) -> tuple[Charset | None, object]:
    """Resolve an encoded word's ``charset[*language]`` field: (Charset or None, group key)."""
    name = label.decode("latin-1").split("*", 1)[0]
    cs = for_label(name) if name else None
    result = (cs, cs if cs is not None else name.lower())
    if len(_LABELS) < 1024:
        _LABELS[label] = result
    return result


class _Decoder:
    """One decode_text run over unfolded bytes (issues use offsets into these bytes)."""

    __slots__ = ("data", "fb", "mode", "issues", "out", "plain", "closes", "line_ends", "words")

    def __init__(self, data: bytes, fb: Charset, mode: int, issues) -> None:
        self.data = data
        self.fb = fb
        self.mode = mode
        self.issues = issues
        self.out: list = []  # str pieces, or int indexes into self.plain (undecided 8-bit text)
        self.plain: list[tuple[bytes, int]] = []
        self.closes: list[int] | None = None
        self.line_ends: list[int] | None = None
        self.words = 0

    def run(self) -> str:
        data = self.data
        find = data.find
        issues = self.issues
        pos = 0  # start of the text not yet emitted
        group: list = []  # adjacent words in one charset: (key, charset, label, [(bytes, t, close, enc)])
        group_key = None
        strict = _STRICT_WORD.match
        i = find(b"=?")
        while i >= 0:
            m = strict(data, i)
            if m is not None:
                label, enc = m.group(1, 2)
                t, close = m.span(3)
                spaced = False
            else:
                word = self._word_at(i)
                if word is None:
                    i = find(b"=?", i + 2)
                    continue
                if word[0] is None:  # malformed: literal, resume two bytes later
                    if issues is not None:
                        issues.append(TextIssue(_K_MALFORMED, i, word[1] - i))
                    i = find(b"=?", i + 2)
                    continue
                label, enc, t, close = word
                spaced = find(b" ", t, close) >= 0 or find(b"\t", t, close) >= 0
            end = close + 2
            if group and (pos == i or not data[pos:i].strip(b" \t")):
                pass  # white space between adjacent encoded words is dropped (RFC 2047 §6.2)
            else:
                if group:
                    self._flush(group)
                    group = []
                    group_key = None
                if pos < i:
                    self._emit_plain(data[pos:i], pos)
            if issues is not None:
                if end - i > MAX_WORD_LENGTH:
                    issues.append(TextIssue(_K_TOO_LONG, i, end - i))
                if spaced:
                    issues.append(TextIssue(_K_MALFORMED, i, end - i))
            raw = _decode_b(data, t, close, issues) if enc in b"Bb" else _decode_q(data, t, close, issues)
            try:
                cs, key = _LABELS[label]
            except KeyError:
                cs, key = _label(label)
            if group and key is not group_key and key != group_key:
                self._flush(group)
                group = []
            group_key = key
            group.append((cs, raw, t, close, enc, i, end))
            self.words += 1
            pos = end
            i = find(b"=?", end)
        if group:
            self._flush(group)
        if pos < len(data):
            self._emit_plain(data[pos:], pos)
        return self._finish()

    def _word_at(self, s: int):
        """Parse a word at ``s``: None (not a word), (None, end) malformed, or the word's fields."""
        data = self.data
        q1 = data.find(b"?", s + 2)
        if q1 < 0:
            return None
        charset = data[s + 2:q1]
        if not charset or _has_ws(charset):
            return None
        q2 = data.find(b"?", q1 + 1)
        if q2 < 0:
            return None
        enc = data[q1 + 1:q2]
        if _has_ws(enc):
            return None
        t = q2 + 1
        if enc not in (b"B", b"b", b"Q", b"q"):
            return (None, t)
        close = self._close_at(t)
        if close < 0:
            return (None, t)
        if self._line_end_between(t, close):
            return (None, close + 2)
        return charset, enc, t, close

    def _close_at(self, t: int) -> int:
        closes = self.closes
        if closes is None:
            closes = self.closes = [m.start() for m in _CLOSE.finditer(self.data)]
        k = bisect_left(closes, t)
        return closes[k] if k < len(closes) else -1

    def _line_end_between(self, t: int, close: int) -> bool:
        ends = self.line_ends
        if ends is None:
            data = self.data
            ends = self.line_ends = (
                [m.start() for m in _LINE_END.finditer(data)] if (b"\r" in data or b"\n" in data) else []
            )
        if not ends:
            return False
        k = bisect_left(ends, t)
        return k < len(ends) and ends[k] < close

    def _flush(self, group: list) -> None:
        """Decode one run of adjacent same-charset words (their bytes joined) and emit it."""
        cs = group[0][0]
        raw = group[0][1] if len(group) == 1 else b"".join(w[1] for w in group)
        issues = self.issues
        found: list[TextIssue] | None = [] if issues is not None else None
        text = None
        if cs is not None:
            try:
                text = cs.decode(raw, found, 0)
            except ImportError:  # a family module not installed yet: unknown-charset rule (T1)
                if found is not None:
                    del found[:]
                text = None
        if text is None:
            text = decode_unknown(raw, found, 0)[0]
        if found:
            spans = []
            for _cs, _raw, t, close, enc, _s, _e in group:
                spans.extend(_b_spans(self.data, t, close) if enc in b"Bb" else _q_spans(self.data, t, close))
            first = group[0][2]
            for i in found:
                if i.length > 0 and i.offset + i.length <= len(spans):
                    start = spans[i.offset][0]
                    end = spans[i.offset + i.length - 1][1]
                elif i.offset < len(spans):
                    start = end = spans[i.offset][0]
                else:
                    start = end = spans[-1][1] if spans else first
                issues.append(TextIssue(i.kind, start, end - start))
        self.out.append(text)

    def _emit_plain(self, seg: bytes, at: int) -> None:
        if seg.isascii():
            self.out.append(seg.decode("ascii"))
        else:
            self.out.append(len(self.plain))
            self.plain.append((seg, at))

    def _finish(self) -> str:
        out = self.out
        plain = self.plain
        if plain:
            texts = None
            try:
                texts = [seg.decode("utf-8") for seg, _ in plain]
            except UnicodeDecodeError:
                if self.mode == 2:
                    try:
                        texts = [seg.decode("utf-8", "surrogatepass") for seg, _ in plain]
                    except UnicodeDecodeError:
                        texts = None
            if texts is None:
                issues = self.issues
                texts = []
                for seg, at in plain:
                    if issues is not None:
                        first, end = high_byte_span(seg)
                        issues.append(TextIssue(_K_RAW, at + first, end - first))
                    texts.append(self.fb.decode(seg, issues, at))
            out = [texts[p] if type(p) is int else p for p in out]
        return "".join(out)


def high_byte_span(data: bytes) -> tuple[int, int]:
    """Return ``(start, end)``: from the first to just after the last byte >= 0x80 of ``data``.

    The span an ``AmbiguousRaw8Bit`` issue covers (T51); ``data`` must hold such a byte.
    """
    start = _HIGH_BYTE.search(data).start()
    end = len(data) - _HIGH_BYTE.search(data[::-1]).start()
    return start, end


_HIGH_BYTE = re.compile(rb"[\x80-\xff]")


def _has_ws(field: bytes) -> bool:
    return b" " in field or b"\t" in field or b"\r" in field or b"\n" in field


def _decode_q(data: bytes, t: int, close: int, issues) -> bytes:
    """Decode Q text ``data[t:close]`` (RFC 2047 §4.2): ``_`` is a space, ``=XX`` a byte."""
    text = data[t:close]
    if b"=" not in text:
        return text.replace(b"_", b" ")
    if _BAD_QP.search(text) is None:
        return binascii.a2b_qp(text, header=True)
    out = bytearray()
    n = len(text)
    k = 0
    while k < n:
        j = text.find(b"=", k)
        if j < 0:
            out += text[k:].replace(b"_", b" ")
            break
        out += text[k:j].replace(b"_", b" ")
        if j + 2 < n and text[j + 1] in _HEX and text[j + 2] in _HEX:
            out.append(int(text[j + 1:j + 3], 16))
            k = j + 3
        else:
            out.append(0x3D)  # a bad '=' stays literal
            if issues is not None:
                issues.append(TextIssue(_K_QP, t + j, 1))
            k = j + 1
    return bytes(out)


def _q_spans(data: bytes, t: int, close: int) -> list[tuple[int, int]]:
    """The input span of each byte :func:`_decode_q` produces."""
    spans = []
    k = t
    while k < close:
        if data[k] == 0x3D and k + 2 < close and data[k + 1] in _HEX and data[k + 2] in _HEX:
            spans.append((k, k + 3))
            k += 3
        else:
            spans.append((k, k + 1))
            k += 1
    return spans


def _decode_b(data: bytes, t: int, close: int, issues) -> bytes:
    """Decode B text ``data[t:close]`` (RFC 2047 §4.1), keeping every byte that decodes.

    Characters outside the alphabet and data after the padding are skipped; missing or wrong
    padding and a one-character tail are ``InvalidBase64`` covering the last, incomplete group
    from its first character to the end of the text.
    """
    text = data[t:close]
    # Fast path: whole groups, padding only in the last two places (strict mode alone accepts
    # surplus padding such as "YWJj=").
    if not len(text) % 4 and text.find(b"=", 0, len(text) - 2) < 0:
        try:
            return binascii.a2b_base64(text, strict_mode=True)
        except binascii.Error:
            pass
    # Slow path: positions of the alphabet characters before the first '='.
    chars = bytearray()
    posn: list[int] = []
    n = len(text)
    k = 0
    pad_at = -1
    while k < n:
        b = text[k]
        if b in _B64_SET:
            chars.append(b)
            posn.append(k)
        elif b == 0x3D:
            pad_at = k
            break
        k += 1
    npad = 0
    if pad_at >= 0:
        k = pad_at
        while k < n and (text[k] == 0x3D or text[k] not in _B64_SET):
            if text[k] == 0x3D:
                npad += 1
            k += 1
    rem = len(chars) % 4
    full = len(chars) - rem
    out = binascii.a2b_base64(bytes(chars[:full])) if full else b""
    if rem >= 2:
        out += binascii.a2b_base64(bytes(chars[full:]) + b"=" * (4 - rem))
    if issues is not None:
        if rem:
            bad, at = rem == 1 or npad != 4 - rem, posn[full]
        else:
            bad, at = npad > 0, pad_at
        if bad:
            issues.append(TextIssue(_K_B64, t + at, n - at))
    return out


def _b_spans(data: bytes, t: int, close: int) -> list[tuple[int, int]]:
    """The input span of each byte :func:`_decode_b` produces (its 4-character group)."""
    posn = []
    for k in range(t, close):
        b = data[k]
        if b == 0x3D:
            break
        if b in _B64_SET:
            posn.append(k)
    spans = []
    n = len(posn)
    for g in range(0, n - n % 4 + (4 if n % 4 >= 2 else 0), 4):
        grp = posn[g:g + 4]
        nbytes = len(grp) - 1 if len(grp) < 4 else 3
        span = (grp[0], grp[-1] + 1)
        spans.extend([span] * nbytes)
    return spans


# ---------------------------------------------------------------------------------------------
# Encoding

# RFC 2047 §5(3): the Q characters allowed in a phrase; we use them everywhere.
_Q_SAFE = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!*+-/")
_Q_TABLE = tuple(
    chr(b) if b in _Q_SAFE else ("_" if b == 0x20 else f"={b:02X}") for b in range(256)
)
_Q_COST = bytes(len(s) for s in _Q_TABLE)
_NEEDS_ENCODING = re.compile(r"[^\x20-\x7e]|=\?")
_TOKEN = re.compile(r"[^ ]+")
_HIGH_SURROGATE = re.compile("[\ud800-\udbff]")
# Decoder keys whose encoders keep state across characters: encode whole chunks.
_STATEFUL = frozenset({"utf-7", "iso-2022-jp", "iso-2022-jp-1", "iso-2022-jp-2", "iso-2022-jp-3",
                       "cp50220", "cp50221", "cp50222", "iso-2022-kr", "hz-gb-2312"})


def encode(text: str, charset="utf-8") -> str:
    """Encode ``text`` for a header: printable ASCII stays, the rest becomes encoded words.

    Implements spec 000 "Encoded words", encode rules (RFC 2047 §5). Text made of printable
    ASCII (0x20-0x7E) without ``=?`` is returned unchanged. Otherwise the text is split into
    tokens at spaces; each maximal group of tokens that need encoding (a character outside
    printable ASCII, or ``=?``), with the spaces between them, becomes encoded words of at most
    75 characters, B or Q whichever is shorter for the group, never cutting a character or a
    surrogate pair. Q uses only ``A-Za-z0-9!*+-/`` and ``_`` (valid in phrases, comments and
    unstructured text). Words are separated by one space. ``decode_text(encode(s)) == s`` for
    every ``s`` the charset can encode.

    :param text: the text (``str``).
    :param charset: charset label (or :class:`Charset`) to encode with; its ``name`` is written.
    :returns: the header text (ASCII ``str``). Characters the charset lacks become ``?``.
    :raises TypeError: ``text`` is not a str.
    :raises ValueError: ``charset`` names no known charset.

    >>> encode("café au lait")
    '=?utf-8?B?Y2Fmw6k=?= au lait'
    >>> encode("Kindergärtnerinnen")
    '=?utf-8?Q?Kinderg=C3=A4rtnerinnen?='
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    cs = _charset_arg(charset, "charset")
    if _NEEDS_ENCODING.search(text) is None:
        return text
    out = []
    pos = 0
    g_start = g_end = -1
    for m in _TOKEN.finditer(text):
        if _NEEDS_ENCODING.search(m.group()) is None:
            if g_start >= 0:
                out.append(text[pos:g_start])
                out.append(_encode_group(text[g_start:g_end], cs))
                pos = g_end
                g_start = -1
            continue
        if g_start < 0:
            g_start = m.start()
        g_end = m.end()
    if g_start >= 0:
        out.append(text[pos:g_start])
        out.append(_encode_group(text[g_start:g_end], cs))
        pos = g_end
    out.append(text[pos:])
    return "".join(out)


def _units(s: str) -> list[str]:
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


def _encode_group(s: str, cs: Charset) -> str:
    name = cs.name
    cap = MAX_WORD_LENGTH - len(name) - 7  # "=?" name "?X?" text "?="
    units = _units(s)
    if cs.key in _STATEFUL:
        return " ".join(_stateful_words(units, cs, cap))
    parts = [cs.encode(u) for u in units]
    whole = b"".join(parts)
    b_len = (len(whole) + 2) // 3 * 4
    q_len = sum(_Q_COST[b] for b in whole)
    use_b = b_len < q_len
    words = []
    chunk: list[bytes] = []
    size = 0
    for p in parts:
        cost = len(p) if use_b else sum(_Q_COST[b] for b in p)
        new = size + cost
        fits = ((new + 2) // 3 * 4 if use_b else new) <= cap
        if chunk and not fits:
            words.append(_word(name, b"".join(chunk), use_b))
            chunk = []
            new = cost
        chunk.append(p)
        size = new
    if chunk:
        words.append(_word(name, b"".join(chunk), use_b))
    return " ".join(words)


def _stateful_words(units: list[str], cs: Charset, cap: int) -> list[str]:
    """Chunk for a stateful charset: each word's bytes come from encoding its chunk alone."""
    whole = _close_run(cs, cs.encode("".join(units)))
    use_b = (len(whole) + 2) // 3 * 4 < sum(_Q_COST[b] for b in whole)

    def length(raw: bytes) -> int:
        return (len(raw) + 2) // 3 * 4 if use_b else sum(_Q_COST[b] for b in raw)

    words = []
    k = 0
    n = len(units)
    while k < n:
        j = k + 1
        best = _close_run(cs, cs.encode(units[k]))
        while j < n:
            raw = _close_run(cs, cs.encode("".join(units[k:j + 1])))
            if length(raw) > cap:
                break
            best = raw
            j += 1
        words.append(_word(cs.name, best, use_b))
        k = j
    return words


def _close_run(cs: Charset, raw: bytes) -> bytes:
    """For UTF-7, end an open base64 run with ``-`` so that joined words decode alike."""
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


def _word(name: str, raw: bytes, use_b: bool) -> str:
    if use_b:
        return f"=?{name}?B?{binascii.b2a_base64(raw, newline=False).decode('ascii')}?="
    return f"=?{name}?Q?{''.join(_Q_TABLE[b] for b in raw)}?="
