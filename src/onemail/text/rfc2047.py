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
4. **Plain text.** ASCII is copied, unless a segment holds an ISO-2022-JP designation of a
   two-byte set (``ESC $ B`` ...): raw 7-bit ISO-2022-JP as old Japanese mailers wrote it, decoded
   as ISO-2022-JP with one ``AmbiguousRawIso2022`` (ambiguity T84). Non-ASCII plain bytes are
   UTF-8 when every plain segment of the value is valid UTF-8 (RFC 6532); otherwise all of them
   are read with the fallback charset (default windows-1252) and each plain segment holding
   8-bit bytes gets one ``AmbiguousRaw8Bit`` covering its first to its last 8-bit byte
   (ambiguity T51).
5. **US-ASCII words.** A word labelled US-ASCII (any IANA spelling) whose bytes hold 8-bit bytes
   that are valid UTF-8 is read as UTF-8 with ``AmbiguousAsciiLabelledUtf8``, as the message
   layer reads such a body (M6; ambiguity T81); otherwise the label's decoder (windows-1252, T67).

**Linear time, small memory.** One regular expression search finds the next ``=?`` whose
charset and encoding fields are well formed (rule 2), and matches the common word whole; the
openers that cannot start a word are skipped in C. The next ``?=`` and the next line end are
found by forward searches whose last answer is kept while it still holds (the scan only moves
forward), so resuming two bytes after a malformed word never rescans the tail; text is only
decoded for accepted words, after which the scan continues behind them. No regular expression
here can backtrack. Adjacent words keep their decoded bytes in a few joined buffers; issue
offsets are mapped back (to the encoded characters, through folds) a batch of issues at a time,
by walking the group's encoded text once, only when its decoding reported an issue, so the
issues held here are a batch, whatever the caller keeps (issue 16: 1 MiB of ``=?`` held half
a million issues, 76 MB).

**Offsets.** Issue offsets are bytes into ``value`` plus the ``offset`` argument. For a ``str``
value, offsets count bytes of its UTF-8 encoding (``surrogateescape``, so a ``str`` made by
``data.decode("utf-8", "surrogateescape")`` behaves exactly as ``data``; other lone surrogates are
encoded with ``surrogatepass``). An issue found in the decoded bytes of a word (``Invalid*`` of
the charset, ``AmbiguousUnknownCharset``) covers the encoded characters that produced those bytes
(for B, the base64 characters of their 4-character groups).
"""

from __future__ import annotations

import binascii
import functools
import re
from collections.abc import Iterator
from typing import Any, cast

from ._header import (
    FOLD_STR,
    ISO2022_JP_DESIGNATION,
    STATEFUL,
    FoldMap,
    IssueSpill,
    Span,
    char_units,
    charset_arg,
    decode_ascii,
    decode_bytes,
    escape_spans,
    high_byte_span,
    label_info,
    map_issues,
    stateful_chunks,
    unfold,
    unfold_fast,
    value_bytes,
)
from .charsets import BytesLike, Charset, for_label
from .issues import IssueKind, TextIssue

__all__ = ["decode_text", "decode_value", "encode", "ISO2022_JP_DESIGNATION", "MAX_WORD_LENGTH"]

MAX_WORD_LENGTH = 75
"""RFC 2047 §2: an encoded word may not be more than 75 characters long."""

_K_MALFORMED = IssueKind.MALFORMED_ENCODED_WORD
_K_TOO_LONG = IssueKind.ENCODED_WORD_TOO_LONG
_K_B64 = IssueKind.INVALID_BASE64
_K_QP = IssueKind.INVALID_QUOTED_PRINTABLE
_K_RAW = IssueKind.AMBIGUOUS_RAW_8BIT

# An opener that starts a word by rule 2 of the module docstring: ``=?``, a charset up to the
# next ``?`` (non-empty, no white space), an encoding up to the next ``?`` (no white space).
# Group 3 is set when the text holds no '?' and no white space and ``?=`` follows it: then
# it is the word's text (the common case, decided in C). Each class excludes the delimiter
# that follows it, so no match can backtrack; one search finds the next opener that can
# start a word, skipping all others in C (issue 16: 1 MiB of "=?").
_CANDIDATE = re.compile(rb"=\?([^? \t\r\n]+)\?([^? \t\r\n]*)\?(?:([^? \t\r\n]*)\?=)?")
# The same, for an encoding B or Q only: with no issues to report, an opener with another
# encoding is plain text like any other, so the search skips it too.
_BQ_CANDIDATE = re.compile(rb"=\?([^? \t\r\n]+)\?([BbQq])\?(?:([^? \t\r\n]*)\?=)?")
_BQ = frozenset((b"B", b"b", b"Q", b"q"))
_LINE_END = re.compile(rb"[\r\n]")
# '=' not followed by two hex digits (fixed-width look-ahead: no backtracking).
_BAD_QP = re.compile(rb"=(?![0-9A-Fa-f]{2})")
_HEX = frozenset(b"0123456789ABCDEFabcdef")
# The base64 alphabet (RFC 4648 §4).
_B64_ALPHABET = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_B64_SET = frozenset(_B64_ALPHABET)
_NOT_B64 = bytes(b for b in range(256) if b not in _B64_SET)
_PADDING = re.compile(rb"[^A-Za-z0-9+/]*")



@functools.cache
def _fallback_default() -> Charset:
    """windows-1252, looked up on first use (importing onemail.text loads no table)."""
    return for_label("windows-1252")  # type: ignore[return-value]
# Pieces of decoded text kept before they are joined into one chunk (memory: a str object per
# piece costs some 50 bytes; each piece is copied once more, so the time stays linear).
_COMPACT = 4096

# ---------------------------------------------------------------------------------------------
# Decoding


def decode_text(value: str | BytesLike, *, fallback: str | Charset = "windows-1252",
                issues: list[TextIssue] | None = None, offset: int = 0) -> str:
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
        (T1), ``AmbiguousRaw8Bit`` (T51), ``AmbiguousAsciiLabelledUtf8`` (T81),
        ``AmbiguousRawIso2022`` (T84) and the ISO-2022 decoder's issues.
    :raises TypeError: ``value`` is not str or bytes-like, or ``fallback`` is not a label.
    :raises ValueError: ``fallback`` names no known charset.

    >>> decode_text("=?utf-8?q?caf=C3=A9?= =?iso-8859-1?b?4A==?= x")
    'café\xe0 x'
    """
    fb = _fallback_default() if fallback == "windows-1252" else charset_arg(fallback, "fallback")
    if type(offset) is not int and not isinstance(offset, int):
        raise TypeError(f"offset must be int, not {type(offset).__name__}")
    if type(value) is bytes:
        # Fast path: no word, only folds to remove. (Membership of an int byte is a memchr;
        # most header values hold no '?' at all.)
        if 63 not in value or b"=?" not in value:
            data = unfold_fast(value) if 10 in value or 13 in value else value
            if data.isascii() and 27 not in data:
                return data.decode("ascii")
    elif type(value) is str and "=?" not in value and value.isascii() and "\x1b" not in value:
        return FOLD_STR.sub("", value) if "\r" in value or "\n" in value else value
    return decode_value(value, fallback=fb, issues=issues, offset=offset)[0]


def decode_value(value: str | BytesLike, *, fallback: Charset, issues: list[TextIssue] | None = None,
                 offset: int = 0) -> tuple[str, int]:
    """Decode as :func:`decode_text` does; also return how many encoded words were decoded.

    For callers that decide by the words found (RFC 2231 values, T55).

    :param value: as for :func:`decode_text`.
    :param fallback: the :class:`Charset` for plain 8-bit text that is not UTF-8.
    :returns: ``(text, number of encoded words decoded)``.
    :raises TypeError: ``value`` is not str or bytes-like.
    """
    data, mode = (value, 0) if type(value) is bytes else value_bytes(value, "value")
    if b"=?" not in data:
        # No word: only folds to remove, and the text is ASCII or valid UTF-8 (no issue).
        unfolded = unfold_fast(data) if b"\r" in data or b"\n" in data else data
        if unfolded.isascii():
            if 27 not in unfolded:
                return unfolded.decode("ascii"), 0
        else:
            try:
                return unfolded.decode("utf-8"), 0
            except UnicodeDecodeError:
                pass
    original = data
    if 10 in data or 13 in data:
        data = unfold_fast(data)
    local: IssueSpill | None = None
    if issues is not None:
        folded = len(data) != len(original)
        folds: list[FoldMap | None] = []  # the fold map, made when the first issue needs it

        def hand_on(batch: list[TextIssue]) -> None:
            if folded:  # folds were removed: map offsets back
                if not folds:
                    folds.append(unfold(original)[1])
                fold_map = folds[0]
                assert fold_map is not None  # bytes were removed
                batch = fold_map.issues(batch)
            if offset:
                batch = [TextIssue(i.kind, i.offset + offset, i.length) for i in batch]
            issues.extend(batch)

        local = IssueSpill(hand_on)
    decoder = _Decoder(data, fallback, mode, local)
    text = decoder.run()
    if local:
        local.spill()
    return text, decoder.words


_LABELS: dict[bytes, tuple[Charset | None, object, bool]] = {}


def _label(label: bytes) -> tuple[Charset | None, object, bool]:
    """Resolve an encoded word's ``charset[*language]`` field: (Charset or None, group key,
    names US-ASCII)."""
    name = label.decode("latin-1").split("*", 1)[0]
    cs, us_ascii = label_info(name) if name else (None, False)
    result = (cs, cs if cs is not None else name.lower(), us_ascii)
    if len(_LABELS) < 1024 and len(label) <= 64:  # a long charset field is no label to keep
        _LABELS[label] = result
    return result


class _Group:
    """Adjacent encoded words in one charset: their decoded bytes, joined, and the span of the
    input they cover (from the first ``=?`` to the last ``?=``: only white space lies between
    them, so the words are found again there when an issue needs its place)."""

    __slots__ = ("cs", "key", "us_ascii", "parts", "buf", "start", "end", "t")

    def __init__(self, cs: Charset | None, key: object, us_ascii: bool, raw: bytes, start: int, t: int,
                 end: int) -> None:
        self.cs = cs
        self.key = key
        self.us_ascii = us_ascii
        self.parts = [raw]
        self.buf: bytearray | None = None
        self.start = start
        self.t = t  # text of the first word (where an issue about no bytes sits)
        self.end = end

    def add(self, raw: bytes, end: int) -> None:
        parts = self.parts
        parts.append(raw)
        self.end = end
        if len(parts) >= 64:  # few objects per word: a million words hold one buffer
            if self.buf is None:
                self.buf = bytearray()
            self.buf += b"".join(parts)
            parts.clear()

    def joined(self) -> bytes:
        parts = self.parts
        if self.buf is None:
            return parts[0] if len(parts) == 1 else b"".join(parts)
        self.buf += b"".join(parts)
        return bytes(self.buf)


class _GroupLocator:
    """``locate(need)`` for :func:`map_issues`: the encoded characters of the decoded bytes
    ``need`` (ascending) of a group. The group's words are found again from its start, one
    decoded byte at a time, up to the last byte asked for; the next call goes on from there
    when it asks for no earlier byte (the batches of an :class:`IssueSpill` come in order), so
    a group, or one long word, is walked about once (an earlier byte starts the walk again)."""

    __slots__ = ("decoder", "group", "p", "index", "spans")

    def __init__(self, decoder: _Decoder, group: _Group) -> None:
        self.decoder = decoder
        self.group = group
        self._restart()

    def _restart(self) -> None:
        self.p = self.group.start  # where the next word is looked for
        self.index = 0  # the index of the next decoded byte
        self.spans: Iterator[Span] | None = None  # the spans left of the current word

    def __call__(self, need: list[int]) -> dict[int, tuple[int, int]]:
        decoder = self.decoder
        data = decoder.data
        end = self.group.end
        if need[0] < self.index:  # an earlier byte: from the start again
            self._restart()
        found: dict[int, tuple[int, int]] = {}
        k = 0
        n = len(need)
        index = self.index
        while k < n:
            spans = self.spans
            if spans is None:
                if self.p >= end:
                    break
                i = data.find(b"=?", self.p)  # only white space lies between the group's words
                opener = _CANDIDATE.match(data, i)
                assert opener is not None  # the group's words are found again where they were
                _label, enc, t, close, _spaced = decoder._word(opener)
                spans = self.spans = (_b_spans if enc in b"Bb" else _q_spans)(data, t, close)
                self.p = close + 2
            want = need[k]
            for _key, s, e in spans:
                if index == want:
                    found[index] = (s, e)
                    k += 1
                    index += 1
                    if k == n:
                        break
                    want = need[k]
                else:
                    index += 1
            else:
                self.spans = None  # the word is done
        self.index = index
        return found


class _Decoder:
    """One decode_text run over unfolded bytes (issues use offsets into these bytes)."""

    __slots__ = ("data", "fb", "mode", "issues", "out", "chunks", "plain", "words", "_close_q",
                 "_close_r", "_end_q", "_end_r")

    def __init__(self, data: bytes, fb: Charset, mode: int, issues: list[TextIssue] | None) -> None:
        self.data = data
        self.fb = fb
        self.mode = mode
        self.issues = issues
        self.out: list[str | int] = []  # str pieces, or int indexes into self.plain (undecided 8-bit text)
        self.chunks: list[str] = []  # joined pieces before those of self.out
        self.plain: list[tuple[bytes, int]] = []
        self.words = 0
        # Cursors of the last "?=" and line-end searches (the scan only moves forward).
        self._close_q = self._close_r = -1
        self._end_q = self._end_r = -1

    def run(self) -> str:
        data = self.data
        issues = self.issues
        pos = 0  # start of the text not yet emitted
        group: _Group | None = None
        # One forward search per opener that can start a word (module docstring, rule 2).
        search = (_CANDIDATE if issues is not None else _BQ_CANDIDATE).search
        m = search(data) if b"=?" in data else None
        while m is not None:
            i = m.start()
            word = self._word(m)
            if word[0] is None:  # malformed: literal, resume two bytes later
                if issues is not None:
                    issues.append(TextIssue(_K_MALFORMED, i, word[1] - i))
                m = search(data, i + 2)
                continue
            label, enc, t, close, spaced = word
            end = close + 2
            if group is not None and (pos == i or not data[pos:i].strip(b" \t")):
                pass  # white space between adjacent encoded words is dropped (RFC 2047 §6.2)
            else:
                if group is not None:
                    self._flush(group)
                    group = None
                if pos < i:
                    self._emit_plain(data[pos:i], pos)
            if issues is not None:
                if end - i > MAX_WORD_LENGTH:
                    issues.append(TextIssue(_K_TOO_LONG, i, end - i))
                if spaced:
                    issues.append(TextIssue(_K_MALFORMED, i, end - i))
            raw = _decode_b(data, t, close, issues) if enc in b"Bb" else _decode_q(data, t, close, issues)
            try:
                cs, key, us_ascii = _LABELS[label]
            except KeyError:
                cs, key, us_ascii = _label(label)
            if group is not None and key is not group.key and key != group.key:
                self._flush(group)
                group = None
            if group is None:
                group = _Group(cs, key, us_ascii, raw, i, t, end)
            else:
                group.add(raw, end)
            self.words += 1
            pos = end
            m = search(data, end)
        if group is not None:
            self._flush(group)
        if pos < len(data):
            self._emit_plain(data[pos:], pos)
        return self._finish()

    def _word(self, m: re.Match[bytes]) -> Any:
        """The word an opener match (``_CANDIDATE``) starts: ``(None, end)`` when malformed (the
        issue spans the opener up to ``end``), else ``(charset, encoding, text start, text end,
        white space in the text)``."""
        label, enc = m.group(1, 2)
        if m.start(3) >= 0 and enc in _BQ:  # the common, strict shape
            t, close = m.span(3)
            return label, enc, t, close, False
        t = m.end(2) + 1
        if enc not in _BQ:
            return (None, t)
        close = self._close_at(t)
        if close < 0:
            return (None, t)
        if self._line_end_at(t) < close:
            return (None, close + 2)
        data = self.data
        return label, enc, t, close, data.find(b" ", t, close) >= 0 or data.find(b"\t", t, close) >= 0

    def _close_at(self, t: int) -> int:
        """The first ``?=`` at or after ``t`` (-1: none). The last answer is reused while it
        still holds, so the forward-moving scan looks at each byte a bounded number of times."""
        r = self._close_r
        if 0 <= self._close_q <= t and (r < 0 or t <= r):
            return r
        r = self._close_r = self.data.find(b"?=", t)
        self._close_q = t
        return r

    def _line_end_at(self, t: int) -> int:
        """The first CR or LF at or after ``t`` (``len(data)``: none); reused like _close_at."""
        r = self._end_r
        if 0 <= self._end_q <= t <= r:
            return r
        m = _LINE_END.search(self.data, t)
        r = self._end_r = m.start() if m is not None else len(self.data)
        self._end_q = t
        return r

    def _flush(self, group: _Group) -> None:
        """Decode one run of adjacent same-charset words (their bytes joined) and emit it."""
        raw = group.joined()
        issues = self.issues
        found: IssueSpill | None = None
        if issues is not None:
            # Issues about decoded bytes are mapped to the encoded characters a batch at a time
            # (a group's bytes may hold an error per byte: issue 16).
            locate = _GroupLocator(self, group)
            total, default = len(raw), group.t
            found = IssueSpill(lambda batch: issues.extend(map_issues(batch, locate, total, default)))
        cs = group.cs
        if cs is not None and not group.us_ascii:
            try:
                text = cs.decode(raw, found, 0)
            except ImportError:  # a family module not installed yet: unknown-charset rule (T1)
                if found is not None:
                    del found[:]
                text = decode_bytes(raw, None, False, found)[0]
        else:
            text = decode_bytes(raw, cs, group.us_ascii, found)[0]
        if found:
            found.spill()
        self._push(text)

    def _emit_plain(self, seg: bytes, at: int) -> None:
        if seg.isascii():
            self._push(seg.decode("ascii") if 27 not in seg else decode_ascii(seg, self.issues, at)[0])
        else:
            self.out.append(len(self.plain))
            self.plain.append((seg, at))

    def _push(self, text: str) -> None:
        out = self.out
        out.append(text)
        if len(out) >= _COMPACT and not self.plain:
            # many small pieces: join them (the text so far is decided), so that a value of a
            # million words and gaps holds a few large strings, not a million small ones
            self.chunks.append("".join(cast("list[str]", out)))  # no undecided piece
            out.clear()

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
        pieces = cast("list[str]", out)  # every undecided piece is decided now
        if self.chunks:
            return "".join(self.chunks) + "".join(pieces)
        return "".join(pieces)


def _decode_q(data: bytes, t: int, close: int, issues: list[TextIssue] | None) -> bytes:
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


def _q_spans(data: bytes, t: int, close: int) -> Iterator[Span]:
    """Yield ``(None, start, end)``: the input span of each byte :func:`_decode_q` produces."""
    return escape_spans(data, t, close, 0x3D)


def _decode_b(data: bytes, t: int, close: int, issues: list[TextIssue] | None) -> bytes:
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
    # Slow path: the alphabet characters before the first '=' (in C: no per-character list).
    n = len(text)
    pad_at = text.find(b"=")
    body = text if pad_at < 0 else text[:pad_at]
    chars = body.translate(None, _NOT_B64)
    npad = 0
    if pad_at >= 0:  # the '=' up to the next alphabet character
        padding = _PADDING.match(text, pad_at)
        assert padding is not None  # a starred pattern always matches
        npad = padding.group().count(b"=")
    rem = len(chars) % 4
    full = len(chars) - rem
    out = binascii.a2b_base64(chars[:full]) if full else b""
    if rem >= 2:
        out += binascii.a2b_base64(chars[full:] + b"=" * (4 - rem))
    if issues is not None:
        if rem:
            at = len(body)  # the first character of the last, incomplete group
            for _ in range(rem):
                at -= 1
                while body[at] not in _B64_SET:
                    at -= 1
            bad = rem == 1 or npad != 4 - rem
        else:
            bad, at = npad > 0, pad_at
        if bad:
            issues.append(TextIssue(_K_B64, t + at, n - at))
    return out


def _b_spans(data: bytes, t: int, close: int) -> Iterator[Span]:
    """Yield ``(None, start, end)`` for each byte :func:`_decode_b` produces: its 4-character
    group (alphabet characters before the first ``=``)."""
    group: list[int] = []
    for k in range(t, close):
        b = data[k]
        if b == 0x3D:
            break
        if b in _B64_SET:
            group.append(k)
            if len(group) == 4:
                yield from ((None, group[0], k + 1),) * 3
                group = []
    if len(group) >= 2:
        yield from ((None, group[0], group[-1] + 1),) * (len(group) - 1)


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


def encode(text: str, *, charset: str | Charset = "utf-8") -> str:
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
    cs = charset_arg(charset, "charset")
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


def _encode_group(s: str, cs: Charset) -> str:
    name = cs.name
    cap = MAX_WORD_LENGTH - len(name) - 7  # "=?" name "?X?" text "?="
    units = char_units(s)
    if cs.key in STATEFUL:
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
    whole = cs.encode("".join(units))
    use_b = (len(whole) + 2) // 3 * 4 < sum(_Q_COST[b] for b in whole)

    def length(raw: bytes) -> int:
        return (len(raw) + 2) // 3 * 4 if use_b else sum(_Q_COST[b] for b in raw)

    return [_word(cs.name, raw, use_b) for raw in stateful_chunks(units, cs, length, cap)]


def _word(name: str, raw: bytes, use_b: bool) -> str:
    if use_b:
        return f"=?{name}?B?{binascii.b2a_base64(raw, newline=False).decode('ascii')}?="
    return f"=?{name}?Q?{''.join(_Q_TABLE[b] for b in raw)}?="
