"""UTF-7 (RFC 2152) and IMAP modified UTF-7 (RFC 3501 section 5.1.3).

Implements spec 000 "UTF-7 (RFC 2152) and IMAP modified UTF-7 (RFC 3501 §5.1.3)".

**Decoding UTF-7.** Any ASCII byte is accepted in direct mode; ``+-`` is ``+``; ``+`` opens a
base64 run of ``[A-Za-z0-9+/]`` that ends at ``-`` (absorbed) or at any other byte (kept and
read in direct mode) or at the end of the input. The run's bits are read as big-endian UTF-16
code units. ``InvalidUtf7`` (one U+FFFD each, ambiguity T30) is reported for

* a byte >= 0x80 (offset of the byte, length 1);
* an unpaired surrogate code unit (the base64 characters that carry the unit's 16 bits);
* leftover bits at the end of a run that are non-zero, or six or more of them (the base64
  characters holding leftover bits);
* an empty run: ``+`` followed by a byte that is neither base64 nor ``-``, or by the end of the
  input (the ``+``, length 1).

**Decoding IMAP modified UTF-7.** ``&-`` is ``&``; ``&`` opens a run of ``[A-Za-z0-9+,]`` (``,``
for ``/``) closed by ``-``. A run whose ``-`` is missing still decodes and is reported with a
zero-length ``InvalidImapUtf7`` at the position where the ``-`` belongs (T31). Bytes outside
0x20..0x7E in direct mode become U+FFFD; the run damage of UTF-7 applies likewise. A run that
encodes a printable ASCII character (``&BBYAJgQW-`` holds ``&``), which RFC 3501 requires to be
written directly, still decodes and is reported once with ``MalformedImapUtf7`` over the whole
run (T83); it makes no U+FFFD.

**Encoding.** UTF-7 writes letters, digits, ``'(),-./:?``, space, tab, CR and LF directly and
everything else in base64 runs (also RFC 2152's "optional direct" characters ``!"#$%&*;<=>@[]^_`{|}``
and ``\\`` and ``~``); a run of ``+`` alone is written ``+-``; ``-`` closes a run only when the
next character could continue it (a base64 character or ``-``), so a run at the end of the text
is left open (RFC 2152 allows it). IMAP writes printable ASCII directly, ``&`` as ``&-`` and
every other run as ``&...-``, always closed. A lone surrogate in the ``str`` is written as
``?`` (``Unencodable`` for UTF-7).

**Speed.** Undamaged input is decoded by CPython's C ``utf-7`` codec, whose strict mode
accepts exactly what onemail decodes without issues, except lone surrogates and a final ``+``,
which are checked (pinned by ``tests/stdlib_assumptions/test_utf7_cpython.py``). Otherwise runs
are found with :mod:`re` and decoded whole with :func:`binascii.a2b_base64` and CPython's
UTF-16-BE codec (which rejects exactly the unpaired surrogates); a small cache maps frequent
clean runs (accented Latin letters) to their text. Damaged runs take a per-unit path that
computes each issue's geometry.

**Streaming state** (``decode_chunk``): ``None`` in direct mode; inside an unfinished run the int
``1 | pending << 1 | (high - 0xD800) << 2`` where ``pending`` says a high surrogate (``high``)
waits for its low half. Runs are consumed in groups of eight base64 characters (48 bits, three
code units), so a run resumes on a unit boundary.
"""

from __future__ import annotations

import re
from binascii import a2b_base64, b2a_base64
from bisect import bisect_right
from itertools import accumulate
from typing import TYPE_CHECKING

from .issues import IssueKind, TextIssue

if TYPE_CHECKING:
    from .charsets import BytesLike

__all__ = ["Utf7Codec", "codec", "decode", "decode_imap", "encode", "encode_imap"]

_INVALID = IssueKind.INVALID_UTF7
_INVALID_IMAP = IssueKind.INVALID_IMAP_UTF7
_MALFORMED_IMAP = IssueKind.MALFORMED_IMAP_UTF7
_PRINTABLE_ASCII = re.compile("[\x20-\x7e]")

# UTF-7 runs: "+" then base64 characters then an optional "-".
_RUN_SPLIT = re.compile(rb"(\+[A-Za-z0-9+/]*+-?)")
_RUN_B = re.compile(rb"\+([A-Za-z0-9+/]*)(-?)")
_IMAP_RUN = re.compile(rb"&([A-Za-z0-9+,]*)(-?)")
_B64_PREFIX = re.compile(rb"[A-Za-z0-9+/]*")
_HIGH_BYTE = re.compile(rb"[\x80-\xff]")
_HIGH_RUN = re.compile(rb"[\x80-\xff]+")
_IMAP_BAD_DIRECT = re.compile(rb"[^\x20-\x7e]")

# Value of each base64 character (both alphabets; "," is IMAP's "/").
_B64_VALUE = {c: i for i, c in enumerate(
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")}
_B64_VALUE[ord(",")] = 63
_IMAP_TO_STD = bytes.maketrans(b",", b"/")

# Clean-run cache: run bytes ("+...-") -> decoded text as UTF-8 (bounded; cleared when full).
_CACHE_LIMIT = 4096
_cache: dict[bytes, bytes] = {b"+-": b"+"}


def _unit_span(j: int) -> tuple[int, int]:
    """Return (first char, char count) of 16-bit unit ``j`` in a run (``j`` may be -1)."""
    first = (16 * j) // 6
    return first, (16 * j + 15) // 6 - first + 1


def _decode_run(chars: bytes, start: int, pending: int, closed: bool, kind: IssueKind,
                issues: list[TextIssue] | None, offset: int) -> tuple[str, int]:
    """Decode the base64 characters ``chars`` of one run (standard alphabet).

    :param start: byte offset of ``chars[0]`` in the caller's data.
    :param pending: a high surrogate (0xD800..0xDBFF) left by the previous group, or 0.
    :param closed: the run ends after ``chars`` (False: more groups follow in a later chunk;
        then ``len(chars)`` is a multiple of 8).
    :returns: (text, pending high surrogate or 0).
    """
    n = len(chars)
    nunits = (6 * n) >> 4
    raw = a2b_base64(chars + b"A" * (-n % 4))[: 2 * nunits] if n else b""
    text = None
    if not pending:
        try:
            text = raw.decode("utf-16-be")
        except UnicodeDecodeError:
            text = None
    if text is None:
        text, pending = _decode_units(raw, start, pending, closed, kind, issues, offset)
    if closed:
        left = (6 * n) & 15
        if left >= 6 or (left and _B64_VALUE[chars[-1]] & ((1 << left) - 1)):
            first = (16 * nunits) // 6
            if issues is not None:
                issues.append(TextIssue(kind, offset + start + first, n - first))
            text += "\ufffd"
    return text, pending


def _decode_units(raw: bytes, start: int, pending: int, closed: bool, kind: IssueKind,
                  issues: list[TextIssue] | None, offset: int) -> tuple[str, int]:
    """Slow path of :func:`_decode_run`: one code unit at a time, reporting lone surrogates."""
    out: list[str] = []
    nunits = len(raw) // 2
    high = pending
    high_j = -1
    for j in range(nunits):
        u = (raw[2 * j] << 8) | raw[2 * j + 1]
        if 0xDC00 <= u <= 0xDFFF:
            if high:
                out.append(chr(0x10000 + ((high - 0xD800) << 10) + (u - 0xDC00)))
                high = 0
                continue
            _bad(j, start, kind, issues, offset, out)
            continue
        if high:
            _bad(high_j, start, kind, issues, offset, out)
            high = 0
        if 0xD800 <= u <= 0xDBFF:
            high, high_j = u, j
        else:
            out.append(chr(u))
    if high and closed:
        _bad(high_j, start, kind, issues, offset, out)
        high = 0
    return "".join(out), high


def _bad(j: int, start: int, kind: IssueKind, issues: list[TextIssue] | None, offset: int,
         out: list[str]) -> None:
    if issues is not None:
        first, count = _unit_span(j)
        issues.append(TextIssue(kind, offset + start + first, count))
    out.append("\ufffd")


def _direct(data: bytes, start: int, end: int, issues: list[TextIssue] | None, offset: int) -> str:
    """Decode direct-mode UTF-7 bytes ``data[start:end]``: ASCII, U+FFFD for bytes >= 0x80."""
    seg = data[start:end]
    try:
        return seg.decode("ascii")
    except UnicodeDecodeError:
        pass
    if issues is not None:  # one record per run of 8-bit bytes (each byte is one error)
        report([(m.start(), 1, m.end() - m.start()) for m in _HIGH_RUN.finditer(seg)], _INVALID,
               issues, offset + start)
    return seg.decode("ascii", "replace")


def _decode_all(data: bytes, issues: list[TextIssue] | None, offset: int) -> str:
    """One-shot UTF-7 decoding (final input, initial state).

    Undamaged input goes to CPython's C codec (see the module docstring). Otherwise the input is
    split into direct parts and runs (``re.split`` with a capturing group: odd indices are
    runs). Each run becomes UTF-8 bytes, runs seen before straight from the cache through
    ``map(dict.get)``; bytes >= 0x80 in direct parts become U+FFFD; the joined bytes are decoded
    once as UTF-8 (direct parts are otherwise ASCII, so this is exact). Issues are sorted by
    offset, the order of the streaming path.
    """
    try:
        text = data.decode("utf-7")
    except UnicodeDecodeError:
        pass
    else:
        # CPython's C decoder (strict) accepts exactly the undamaged inputs except two that
        # onemail reports: lone surrogates (CPython returns them) and a final "+" (CPython
        # drops it). Pinned in tests/stdlib_assumptions/test_utf7_cpython.py.
        if not data.endswith(b"+") and (text.isascii() or _no_surrogates(text)):
            return text
    if len(data) > BOUNDED_CHUNK and type(issues) is not list:
        # an accumulator, or no issues: in chunks, so that the parts, runs and issues of one
        # chunk exist at a time (issue 16: 8 MB of "+A-" held some 300 MB of parts)
        return decode_in_chunks(_CODEC, data, issues, offset)
    parts = _RUN_SPLIT.split(data)
    runs = parts[1::2]
    decoded = list(map(_cache.get, runs))
    found: list[TextIssue] = []
    starts = None
    if None in decoded:
        starts = [0, *accumulate(map(len, parts))]
        for i, piece in enumerate(decoded):
            if piece is not None:
                continue
            run = runs[i]
            start = starts[2 * i + 1]
            if run == b"+":
                found.append(TextIssue(_INVALID, offset + start, 1))
                decoded[i] = b"\xef\xbf\xbd"  # U+FFFD
                continue
            chars = run[1:-1] if run[-1] == 0x2D else run[1:]
            n = len(found)
            text, _ = _decode_run(chars, start + 1, 0, True, _INVALID, found, offset)
            piece = decoded[i] = text.encode("utf-8")
            if len(found) == n:
                if len(_cache) >= _CACHE_LIMIT:
                    _cache.clear()
                    _cache[b"+-"] = b"+"
                _cache[run] = piece
    if not data.isascii():
        # Bytes >= 0x80 (never inside a run: they end it) become U+FFFD in UTF-8.
        if starts is None:
            starts = [0, *accumulate(map(len, parts))]
        highs = [m.start() for m in _HIGH_BYTE.finditer(data)]
        found.extend(TextIssue(_INVALID, offset + p, 1) for p in highs)
        for j in {bisect_right(starts, p) - 1 for p in highs}:
            parts[j] = _HIGH_BYTE.sub(b"\xef\xbf\xbd", parts[j])
    parts[1::2] = decoded
    if found and issues is not None:
        found.sort(key=_by_offset)
        issues.extend(found)
    return b"".join(parts).decode("utf-8")


def _by_offset(issue: TextIssue) -> int:
    return issue.offset


def _no_surrogates(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _decode_chunk(data: bytes, issues: list[TextIssue] | None, offset: int, final: bool,
                  state: int | None) -> tuple[str, int, int | None]:
    """Streaming UTF-7 decoding; see the module docstring for ``state``."""
    out: list[str] = []
    pos = 0
    size = len(data)
    if state:
        pending = 0xD800 + (state >> 2) if state & 2 else 0
        prefix = _B64_PREFIX.match(data)
        assert prefix is not None  # a starred pattern always matches
        chars = prefix.group()
        n = len(chars)
        if n == size and not final:
            k = n - n % 8
            text, pending = _decode_run(chars[:k], 0, pending, False, _INVALID, issues, offset)
            new = 1 if not pending else 3 | ((pending - 0xD800) << 2)
            return text, k, new
        text, _ = _decode_run(chars, 0, pending, True, _INVALID, issues, offset)
        out.append(text)
        pos = n + (data[n:n + 1] == b"-")
    for m in _RUN_B.finditer(data, pos):
        s = m.start()
        if s > pos:
            out.append(_direct(data, pos, s, issues, offset))
        chars, dash = m.group(1), m.group(2)
        if not final and not dash and m.end() == size:
            # An open run at the end of the chunk: keep "+" (if nothing follows it yet) or
            # decode whole groups of eight characters and carry the rest.
            n = len(chars)
            k = n - n % 8
            if k == 0:
                return "".join(out), s, None
            text, pending = _decode_run(chars[:k], s + 1, 0, False, _INVALID, issues, offset)
            out.append(text)
            new = 1 if not pending else 3 | ((pending - 0xD800) << 2)
            return "".join(out), s + 1 + k, new
        if chars:
            out.append(_decode_run(chars, s + 1, 0, True, _INVALID, issues, offset)[0])
        elif dash:
            out.append("+")
        else:
            if issues is not None:
                issues.append(TextIssue(_INVALID, offset + s, 1))
            out.append("\ufffd")
        pos = m.end()
    if pos < size:
        out.append(_direct(data, pos, size, issues, offset))
    return "".join(out), size, None


# ---------------------------------------------------------------------------------------------
# Encoding

# A run of characters outside the direct set; group 1 when the next character could continue
# the run (base64 or "-": the run needs its closing "-"), group 2 otherwise.
_NOT_DIRECT = re.compile(
    r"([^A-Za-z0-9'(),\-./:? \t\r\n]+(?=[A-Za-z0-9/\-]))|([^A-Za-z0-9'(),\-./:? \t\r\n]+)")
# Encoded runs: closed ("+...-") and open ("+..."); None (the other group) encodes to "".
_closed_cache: dict[str | None, str] = {None: ""}
_open_cache: dict[str | None, str] = {None: ""}
_SURROGATE = re.compile("[\ud800-\udfff]")
_IMAP_SPECIAL = re.compile("([^\x20-\x7e]+)|&")


def _replace_surrogates(text: str, issues: list[TextIssue] | None) -> str:
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        pass
    if issues is not None:
        issues.extend(TextIssue(IssueKind.UNENCODABLE, m.start(), 1)
                      for m in _SURROGATE.finditer(text))
    return _SURROGATE.sub("?", text)


def _b64(run: str) -> bytes:
    return b2a_base64(run.encode("utf-16-be"), newline=False).rstrip(b"=")


def encode(text: str, *, issues: list[TextIssue] | None = None) -> bytes:
    """Encode ``text`` as UTF-7 (RFC 2152), the direct set of spec 000.

    :param text: the ``str`` to encode.
    :param issues: list to append to: ``Unencodable`` (index, 1) per lone surrogate, written
        as ``?``.
    :returns: ASCII bytes.
    :raises TypeError: ``text`` is not a ``str``.

    >>> encode("Hi Mom -\\u263a-!")
    b'Hi Mom -+Jjo--+ACE'
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    text = _replace_surrogates(text, issues)
    parts = _NOT_DIRECT.split(text)
    if len(parts) == 1:
        return text.encode("ascii")
    # parts: direct, closed run or None, open run or None, direct, ...
    closed = parts[1::3]
    opened = parts[2::3]
    parts[1::3] = enc_closed = list(map(_closed_cache.get, closed))
    parts[2::3] = enc_open = list(map(_open_cache.get, opened))
    if None in enc_closed or None in enc_open:
        for i, enc in enumerate(enc_closed):
            if enc is None:
                parts[1 + 3 * i] = _encode_run(closed[i], True)
        for i, enc in enumerate(enc_open):
            if enc is None:
                parts[2 + 3 * i] = _encode_run(opened[i], False)
    return "".join(parts).encode("ascii")


def _encode_run(run: str, close: bool) -> str:
    """Encode one run; ``close``: the next character could continue it, so write "-"."""
    if run.count("+") == len(run):
        enc = "+-" * len(run)
    else:
        enc = "+" + _b64(run).decode("ascii") + ("-" if close else "")
    cache = _closed_cache if close else _open_cache
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
        cache[None] = ""
    cache[run] = enc
    return enc


def encode_imap(text: str) -> bytes:
    """Encode ``text`` as IMAP modified UTF-7 (RFC 3501 section 5.1.3), for mailbox names.

    Printable ASCII is written directly, ``&`` as ``&-``, every other run as ``&`` + base64
    (``,`` for ``/``) + ``-``. A lone surrogate is written as ``?``.

    :param text: the ``str`` to encode.
    :returns: ASCII bytes.
    :raises TypeError: ``text`` is not a ``str``.

    >>> encode_imap("Entwürfe")
    b'Entw&APw-rfe'
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    text = _replace_surrogates(text, None)

    def run(m: re.Match[str]) -> str:
        r = m.group(1)
        if r is None:
            return "&-"
        return "&" + _b64(r).replace(b"/", b",").decode("ascii") + "-"

    return _IMAP_SPECIAL.sub(run, text).encode("ascii")


def decode_imap(data: BytesLike, *, issues: list[TextIssue] | None = None, offset: int = 0) -> str:
    """Decode IMAP modified UTF-7 (RFC 3501 section 5.1.3), e.g. a mailbox name.

    Implements spec 000 "UTF-7 and IMAP modified UTF-7"; never raises on bad bytes.

    :param data: the bytes (bytes-like), not ``str``.
    :param issues: list to append issues to, or ``None``.
    :param offset: added to every issue's byte offset.
    :returns: the decoded text.
    :issues: ``InvalidImapUtf7``: a byte outside 0x20..0x7E in direct mode (length 1, U+FFFD);
        ``&`` not followed by base64 or ``-`` (length 1, U+FFFD); a run without its ``-``
        (length 0 at the position of the missing ``-``, no U+FFFD: the run still decodes, T31);
        unpaired surrogates and bad leftover bits as for UTF-7 (U+FFFD each, T30).
        ``MalformedImapUtf7``: a run that encodes printable ASCII (the run from ``&`` to its
        end; no U+FFFD, T83).
    :raises TypeError: ``data`` is not bytes-like.

    >>> decode_imap(b"&ZeVnLIqe-"), decode_imap(b"Entw&APw-rfe"), decode_imap(b"&Jjo-!")
    ('日本語', 'Entwürfe', '☺!')
    """
    data = _bytes(data)
    out: list[str] = []
    pos = 0
    for m in _IMAP_RUN.finditer(data):
        s = m.start()
        if s > pos:
            out.append(_imap_direct(data, pos, s, issues, offset))
        chars, dash = m.group(1), m.group(2)
        if chars:
            at = len(issues) if issues is not None else 0
            run = _decode_run(chars.translate(_IMAP_TO_STD), s + 1, 0, True, _INVALID_IMAP,
                              issues, offset)[0]
            out.append(run)
            if issues is not None and _PRINTABLE_ASCII.search(run) is not None:
                # non-canonical: printable ASCII must be written directly (RFC 3501 5.1.3; T83)
                issues.insert(at, TextIssue(_MALFORMED_IMAP, offset + s, m.end() - s))
            if not dash and issues is not None:
                issues.append(TextIssue(_INVALID_IMAP, offset + m.end(), 0))
        elif dash:
            out.append("&")
        else:
            if issues is not None:
                issues.append(TextIssue(_INVALID_IMAP, offset + s, 1))
            out.append("\ufffd")
        pos = m.end()
    if pos < len(data):
        out.append(_imap_direct(data, pos, len(data), issues, offset))
    return "".join(out)


def _imap_direct(data: bytes, start: int, end: int, issues: list[TextIssue] | None, offset: int) -> str:
    seg = data[start:end]
    if _IMAP_BAD_DIRECT.search(seg) is None:
        return seg.decode("ascii")
    if issues is not None:
        issues.extend(TextIssue(_INVALID_IMAP, offset + start + m.start(), 1)
                      for m in _IMAP_BAD_DIRECT.finditer(seg))
    return "".join(chr(b) if 0x20 <= b <= 0x7E else "\ufffd" for b in seg)


def _bytes(data: object) -> bytes:
    if isinstance(data, bytes):
        return data
    if isinstance(data, (bytearray, memoryview)):
        return bytes(data)
    raise TypeError(f"data must be bytes-like, not {type(data).__name__}")


def decode(data: BytesLike, *, issues: list[TextIssue] | None = None, offset: int = 0) -> str:
    """Decode UTF-7 (RFC 2152); never raises on bad bytes.

    Implements spec 000 "UTF-7 and IMAP modified UTF-7". Same as
    ``for_label("utf-7").decode(data, issues, offset)``.

    :param data: the bytes (bytes-like), not ``str``.
    :param issues: list to append issues to, or ``None``.
    :param offset: added to every issue's byte offset.
    :returns: the decoded text.
    :issues: ``InvalidUtf7`` (one U+FFFD each, T30): a byte >= 0x80 (length 1); an unpaired
        surrogate (the base64 characters of its unit); bad leftover bits (the characters
        holding them); an empty run (the ``+``).
    :raises TypeError: ``data`` is not bytes-like.

    >>> decode(b"Hi Mom -+Jjo--!"), decode(b"A+ImIDkQ."), decode(b"Item 3 is +AKM-1.")
    ('Hi Mom -☺-!', 'A≢Α.', 'Item 3 is £1.')
    """
    return _decode_all(_bytes(data), issues, offset)


# ---------------------------------------------------------------------------------------------
# The Codec face (onemail.text._codecs protocol)

from ._codecs import BOUNDED_CHUNK, Codec, State, decode_in_chunks, report  # noqa: E402


class Utf7Codec(Codec):
    """UTF-7 as a :class:`~onemail.text._codecs.Codec` (reached by ``for_label("utf-7")``)."""

    __slots__ = ()
    invalid_kind = _INVALID

    def decode(self, data: bytes, issues: list[TextIssue] | None, offset: int) -> str:
        return _decode_all(data, issues, offset)

    def decode_chunk(self, data: bytes, issues: list[TextIssue] | None, offset: int, final: bool,
                     state: State) -> tuple[str, int, State]:
        return _decode_chunk(data, issues, offset, final, state)

    def encode(self, text: str, issues: list[TextIssue] | None) -> bytes:
        return encode(text, issues=issues)


_CODEC = Utf7Codec("utf-7")


def codec(key: str) -> Utf7Codec:
    """Return the UTF-7 codec (``key`` is ``"utf-7"``)."""
    return Utf7Codec(key)
