"""The ISO-2022-JP family, ISO-2022-KR and HZ-GB-2312: one tolerant decoder, CPython's encoders.

Implements spec 000 "ISO-2022 family (ISO-2022-JP, -1, -2, -3, CP50221/50222, ISO-2022-KR, HZ)".

**One decoder for every ISO-2022 label.** All the designations of the family are understood
whatever the label says; a designation outside the label's repertoire (:data:`REPERTOIRE`) is
still obeyed and reported as ``AmbiguousIso2022Repertoire`` over the escape sequence's bytes
(ambiguity T36). The designations:

=================  =======================================  ====================================
escape             set                                       decoded by
=================  =======================================  ====================================
``ESC ( B``        ASCII                                     itself
``ESC ( J``        JIS X 0201 Roman                          ASCII with 0x5C -> U+00A5, 0x7E ->
                                                             U+203E (as the Encoding Standard)
``ESC ( I``        JIS X 0201 katakana                       0x21..0x5F -> U+FF61..U+FF9F
``ESC $ @``        JIS C 6226-1978                           onemail's EUC-JP (as JIS X 0208)
``ESC $ B``        JIS X 0208 (also ``ESC $ ( B``, and       onemail's EUC-JP (bytes | 0x80)
                   ``ESC & @`` before it is ignored)
``ESC $ ( D``      JIS X 0212                                onemail's EUC-JP (0x8F, bytes|0x80)
``ESC $ ( O/Q``    JIS X 0213 plane 1                        CPython's ``euc_jis_2004`` (bytes |
                                                             0x80), its own table (T38)
``ESC $ ( P``      JIS X 0213 plane 2                        not decoded: U+FFFD per pair (T38)
``ESC $ A``        GB 2312                                   onemail's GBK (bytes | 0x80)
``ESC $ ( C``      KS C 5601                                 onemail's EUC-KR (bytes | 0x80)
``ESC $ ) C``      KS C 5601 into G1 (ISO-2022-KR header)    used after SO
``ESC . A / . F``  ISO-8859-1 / -7 upper half into G2        ``ESC N`` + one byte
=================  =======================================  ====================================

**Shifts.** SO/SI exist only in ISO-2022-KR (SO invokes G1, KS C 5601 even without the header)
and in cp50221/cp50222 (SO invokes half-width katakana); elsewhere each SO or SI is U+FFFD with
``InvalidIso2022``.

**Line ends.** CR and LF return to ASCII (G0 = ASCII, shift off) in every variant, so a missing
reset cannot swallow the following line; no issue is reported because a line end cannot be part
of any set's characters (T35). Likewise space and the C0 controls other than ESC, SO, SI are
themselves in every mode.

**Damage** (``InvalidIso2022``, one U+FFFD each, offset and length of the bytes replaced):
an unknown escape sequence (ESC, its intermediate bytes 0x20..0x2F and final byte 0x30..0x7E, or
ESC and its intermediates when no final follows: T37), SO or SI where the variant has none, a
byte >= 0x80, a byte of a two-byte set without its partner (length 1), a pair the set's table
lacks (length 2), a katakana-mode byte outside 0x21..0x5F, ``ESC N`` without a G2 set or
without a following byte 0x20..0x7F.

**HZ-GB-2312 (RFC 1843).** ``~{`` enters GB 2312 mode, ``~}`` leaves it, ``~~`` is ``~``,
``~`` + LF (and ``~`` + CR LF, T39) is a line continuation that produces nothing. In GB mode
pairs of 0x21..0x7E are decoded by onemail's GBK (bytes | 0x80), except that a ``~`` followed
by ``}`` is always the shift out, never a trail byte (the byte before it is then unpaired); CR
or LF returns to ASCII, also after white space. Any other ``~`` in ASCII mode is U+FFFD (length
1) and the next byte is read again.

**Not decoded** (T38): JIS X 0213 plane 2, ISO-2022-CN (the label is unknown, ``for_label``
gives ``None``).

**Streaming state** (``decode_chunk``): ``None`` or the int ``g0 | g1 << 4 | shift << 8 |
g2 << 9`` (set numbers below; 0 is the initial state), for HZ 1 in GB mode. An escape sequence,
a ``~`` or a lead byte at the end of an unfinished chunk is held back.

**Encoding** writes ESC, SO and SI in the text as ``?`` with ``Unencodable`` (a reader would
take them as escape sequences and shifts; T82) and otherwise uses CPython's stateful codecs
(``iso2022_jp``, ``_1``, ``_2``, ``_3``, ``iso2022_jp_ext`` for cp50221/cp50222 without its JIS
X 0212, ``iso2022_kr``); HZ is written here (CPython's ``hz`` leaves a ``~`` after GB text
unescaped) from onemail's GBK encoder, where ESC, SO and SI are plain controls. A character
they cannot write becomes ``?`` with ``Unencodable``.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..issues import IssueKind, TextIssue
from . import Codec, State, decode_bounded, encode_with

if TYPE_CHECKING:
    from ..charsets import Charset

__all__ = ["Iso2022Codec", "HzCodec", "codec", "REPERTOIRE"]

_INVALID = IssueKind.INVALID_ISO2022
_AMBIGUOUS = IssueKind.AMBIGUOUS_ISO2022_REPERTOIRE

# Set numbers (packed into the streaming state; ASCII must be 0).
ASCII, ROMAN, KATAKANA, JIS0208, JIS0212, GB2312, KSC5601, X0213_1, X0213_2 = range(9)
_G2_LATIN1, _G2_GREEK = 1, 2

# Escape sequence -> (register, value). Register "g0", "g1", "g2", "nop" or "ss2".
_ESCAPES: dict[bytes, tuple[str, int]] = {
    b"\x1b(B": ("g0", ASCII),
    b"\x1b(J": ("g0", ROMAN),
    b"\x1b(I": ("g0", KATAKANA),
    b"\x1b$@": ("g0", JIS0208),
    b"\x1b$B": ("g0", JIS0208),
    b"\x1b$(@": ("g0", JIS0208),
    b"\x1b$(B": ("g0", JIS0208),
    b"\x1b&@": ("nop", 0),
    b"\x1b$(D": ("g0", JIS0212),
    b"\x1b$(O": ("g0", X0213_1),
    b"\x1b$(Q": ("g0", X0213_1),
    b"\x1b$(P": ("g0", X0213_2),
    b"\x1b$A": ("g0", GB2312),
    b"\x1b$(A": ("g0", GB2312),
    b"\x1b$(C": ("g0", KSC5601),
    b"\x1b$)C": ("g1", KSC5601),
    b"\x1b.A": ("g2", _G2_LATIN1),
    b"\x1b.F": ("g2", _G2_GREEK),
    b"\x1bN": ("ss2", 0),
}

_JP_BASE = frozenset({b"\x1b(B", b"\x1b(J", b"\x1b$@", b"\x1b$B", b"\x1b$(@", b"\x1b$(B",
                      b"\x1b&@"})
_JP2_EXTRA = frozenset({b"\x1b$(D", b"\x1b$A", b"\x1b$(A", b"\x1b$(C", b"\x1b.A", b"\x1b.F",
                        b"\x1bN"})

#: label key -> the escape sequences its standard defines (RFC 1468, RFC 2237, RFC 1554,
#: JIS X 0213 Annex 2, Microsoft's code pages 50220-50222, RFC 1557).
REPERTOIRE: dict[str, frozenset[bytes]] = {
    "iso-2022-jp": _JP_BASE,
    "iso-2022-jp-1": _JP_BASE | {b"\x1b$(D"},
    "iso-2022-jp-2": _JP_BASE | _JP2_EXTRA,
    "iso-2022-jp-3": _JP_BASE | {b"\x1b$(O", b"\x1b$(Q", b"\x1b$(P"},
    "cp50220": _JP_BASE | {b"\x1b(I"},
    "cp50221": _JP_BASE | {b"\x1b(I"},
    "cp50222": _JP_BASE | {b"\x1b(I"},
    "iso-2022-kr": frozenset({b"\x1b(B", b"\x1b$)C"}),
}

# What SO does: None (invalid), "kana" (cp50221/cp50222) or "g1" (ISO-2022-KR).
_SO_MODE = {"cp50221": "kana", "cp50222": "kana", "iso-2022-kr": "g1"}

_PYTHON_CODEC = {
    "iso-2022-jp": "iso2022_jp", "iso-2022-jp-1": "iso2022_jp_1", "iso-2022-jp-2": "iso2022_jp_2",
    "iso-2022-jp-3": "iso2022_jp_3", "cp50220": "iso2022_jp", "cp50221": "iso2022_jp_ext",
    "cp50222": "iso2022_jp_ext", "iso-2022-kr": "iso2022_kr",
}

_SPECIAL = re.compile(rb"[\x1b\x0e\x0f\r\n]")
# Fast path of one-shot decoding: ISO-2022-JP as RFC 1468 writes it (ASCII, JIS X 0201 Roman and
# JIS X 0208 only, every line end in ASCII mode, no SO/SI, no byte >= 0x80). Such input is
# decoded by CPython's iso2022_jp, which then agrees with the general path except for six JIS X
# 0208 pairs, mapped here as the Encoding Standard's index does (T40), and raises on the pairs it
# lacks and on an unpaired byte; pinned by tests/stdlib_assumptions/test_iso2022_cpython.py.
_WELL_FORMED_JP = re.compile(
    rb"[^\x0e\x0f\x1b\x80-\xff]*+"
    rb"(?:(?:\x1b\$[@B][\x21-\x7e]*+|\x1b\(J[^\x0e\x0f\x1b\r\n\x80-\xff]*+)++"
    rb"(?:\x1b\(B[^\x0e\x0f\x1b\x80-\xff]*+)?)*+")
_CPYTHON_TO_WHATWG = (("\u00a2", "\uffe0"), ("\u00a3", "\uffe1"), ("\u00ac", "\uffe2"),
                      ("\u2016", "\u2225"), ("\u2212", "\uff0d"), ("\u301c", "\uff5e"))


def _cpython_iso2022_jp(data: bytes) -> str:
    """Decode with CPython's iso2022_jp (strict) and map its six JIS X 0208 differences."""
    text = data.decode("iso2022_jp")
    if not text.isascii():
        for theirs, ours in _CPYTHON_TO_WHATWG:
            if theirs in text:
                text = text.replace(theirs, ours)
    return text
_ESCAPE = re.compile(rb"\x1b[\x20-\x2f]*[\x30-\x7e]?")
# Two-byte mode tokens: whole pairs, pass-through controls, a lone or high byte.
_TWO_BYTE = re.compile(rb"((?:[\x21-\x7e][\x21-\x7e])+)|([\x00-\x20\x7f]+)|([\x80-\xff]+)|[\x21-\x7e]")
_FFFD_RUN = re.compile("\ufffd+")
_SET_HIGH_BIT = bytes((b | 0x80) if 0x21 <= b <= 0x7E else b for b in range(256))
_PAIR = re.compile(rb"(..)", re.DOTALL)


def _single_byte_table(mapping: Callable[[int], str]) -> str:
    """256-character charmap table; U+FFFE marks a byte that is U+FFFD with an issue."""
    return "".join(mapping(b) for b in range(256))


_ASCII_TABLE = _single_byte_table(lambda b: chr(b) if b < 0x80 else "\ufffe")
# JIS X 0201 Roman: the Encoding Standard's ISO-2022-JP decoder "Roman" state.
_ROMAN_TABLE = _single_byte_table(
    lambda b: "\u00a5" if b == 0x5C else "\u203e" if b == 0x7E else chr(b) if b < 0x80 else "\ufffe")
# JIS X 0201 katakana: 0x21..0x5F -> U+FF61..U+FF9F; controls and space stay themselves.
_KANA_TABLE = _single_byte_table(
    lambda b: chr(0xFF40 + b) if 0x21 <= b <= 0x5F else chr(b) if b <= 0x20 or b == 0x7F
    else "\ufffe")
_SINGLE_TABLES = {ASCII: _ASCII_TABLE, ROMAN: _ROMAN_TABLE, KATAKANA: _KANA_TABLE}

# Two-byte set -> (charset key of the EUC decoder, EUC bytes per pair).
_EUC = {JIS0208: ("euc-jp", 2), JIS0212: ("euc-jp", 3),
        GB2312: ("gbk", 2), KSC5601: ("euc-kr", 2)}


def _euc_decoder(key: str) -> Charset:
    from ..charsets import for_label

    charset = for_label(key)
    assert charset is not None  # the keys of _EUC and the two callers' are decoder keys
    return charset


class _Out:
    """Output pieces and issues of one decode call.

    Two-byte segments are batched per set and decoded with one EUC decoder call each at
    :meth:`finish` (each pair gives one character, so the text is sliced back per segment);
    issues are collected here and handed over sorted by offset.
    """

    __slots__ = ("parts", "issues", "found", "offset", "batches", "merge")

    def __init__(self, issues: list[TextIssue] | None, offset: int) -> None:
        self.parts: list[str] = []
        self.issues = issues
        self.found: list[TextIssue] | None = [] if issues is not None else None
        self.offset = offset
        self.batches: dict[int, list[tuple[int, int, bytes]]] = {}
        # An accumulator that merges runs (BoundedIssues, ADR 0016) gets one issue per run of
        # one-byte errors: what it makes of the run's issues one by one (issue 16).
        self.merge = hasattr(issues, "add_run")

    def bad(self, start: int, length: int) -> None:
        self.parts.append("\ufffd")
        if self.found is not None:
            self.found.append(TextIssue(_INVALID, self.offset + start, length))

    def bad_bytes(self, start: int, count: int) -> None:
        """``count`` bytes from ``start`` that are each one error (U+FFFD each)."""
        self.parts.append("\ufffd" * count)
        found = self.found
        if found is not None:
            at = self.offset + start
            if self.merge:
                found.append(TextIssue(_INVALID, at, count))
            else:
                found.extend(TextIssue(_INVALID, at + k, 1) for k in range(count))

    def ambiguous(self, start: int, length: int) -> None:
        if self.found is not None:
            self.found.append(TextIssue(_AMBIGUOUS, self.offset + start, length))

    def single(self, table: str, data: bytes, start: int, end: int) -> None:
        seg = data[start:end]
        if table is _ASCII_TABLE and seg.isascii():
            self.parts.append(seg.decode("ascii"))
            return
        text = codecs.charmap_decode(seg, "replace", table)[0]
        self.parts.append(text)
        found = self.found
        if found is not None and "\ufffd" in text:  # each U+FFFD is one byte (the tables hold none)
            at = self.offset + start
            if self.merge:
                found.extend(TextIssue(_INVALID, at + m.start(), m.end() - m.start())
                             for m in _FFFD_RUN.finditer(text))
            else:
                i = text.find("\ufffd")
                while i >= 0:
                    found.append(TextIssue(_INVALID, at + i, 1))
                    i = text.find("\ufffd", i + 1)

    def pairs(self, charset: int, pairs: bytes, start: int) -> None:
        """Queue ``pairs`` (even length, bytes 0x21..0x7E) of a two-byte set at ``start``."""
        if charset == X0213_2:
            for k in range(0, len(pairs), 2):
                self.bad(start + k, 2)
            return
        if charset == X0213_1:
            self._jis_x_0213(pairs, start)
            return
        self.batches.setdefault(charset, []).append((len(self.parts), start, pairs))
        self.parts.append("")

    def finish(self) -> str:
        """Decode the queued two-byte segments; hand over the issues; return the text."""
        for charset, segments in self.batches.items():
            key, width = _EUC[charset]
            decoder = _euc_decoder(key)
            euc = _to_euc(b"".join(p for _, _, p in segments), width)
            sub: list[TextIssue] = []
            text = decoder.decode(euc, sub, 0)
            if not sub and len(text) * width == len(euc):
                pos = 0
                for index, _, p in segments:
                    n = len(p) >> 1
                    self.parts[index] = text[pos:pos + n]
                    pos += n
                continue
            for index, start, p in segments:
                self.parts[index] = self._segment(decoder, width, p, start)
        if self.found and self.issues is not None:  # found is a list only when issues is one
            self.found.sort(key=_by_offset)
            self.issues.extend(self.found)
        return "".join(self.parts)

    def _jis_x_0213(self, pairs: bytes, start: int) -> None:
        """JIS X 0213 plane 1 by CPython's EUC-JIS-2004 (its own table; T38), U+FFFD per pair
        it lacks. A pair may give two code points (base letter and combining mark)."""
        euc = pairs.translate(_SET_HIGH_BIT)
        try:
            self.parts.append(euc.decode("euc_jis_2004"))
            return
        except UnicodeDecodeError:
            pass
        for k in range(0, len(pairs), 2):
            try:
                self.parts.append(euc[k:k + 2].decode("euc_jis_2004"))
            except UnicodeDecodeError:
                self.bad(start + k, 2)

    def _segment(self, decoder: Charset, width: int, pairs: bytes, start: int) -> str:
        euc = _to_euc(pairs, width)
        sub: list[TextIssue] = []
        text = decoder.decode(euc, sub, 0)
        if not sub:
            return text
        # Some pair has no mapping: decode pair by pair, so that each U+FFFD stands for exactly
        # one pair (two bytes) whatever the EUC decoder's error segmentation.
        out = []
        for k in range(0, len(pairs), 2):
            unit = euc[k // 2 * width:k // 2 * width + width]
            one: list[TextIssue] = []
            ch = decoder.decode(unit, one, 0)
            if one:
                out.append("\ufffd")
                if self.found is not None:
                    self.found.append(TextIssue(_INVALID, self.offset + start + k, 2))
            else:
                out.append(ch)
        return "".join(out)


def _to_euc(pairs: bytes, width: int) -> bytes:
    """JIS pairs (0x21..0x7E) to EUC: bytes | 0x80, and 0x8F before each JIS X 0212 pair."""
    euc = pairs.translate(_SET_HIGH_BIT)
    return _PAIR.sub(b"\x8f\\1", euc) if width == 3 else euc


def _by_offset(issue: TextIssue) -> int:
    return issue.offset


def _two_byte(out: _Out, charset: int, data: bytes, start: int, end: int, hold: bool) -> int:
    """Decode ``data[start:end]`` in a two-byte set; return the end of what was consumed.

    With ``hold`` a lone graphic byte at ``end`` (a lead whose trail is in the next chunk) is
    left unconsumed.
    """
    pos = start
    for m in _TWO_BYTE.finditer(data, start, end):
        pairs, ctl, high = m.group(1, 2, 3)
        if pairs is not None:
            out.pairs(charset, pairs, m.start())
        elif ctl is not None:
            out.parts.append(ctl.decode("ascii"))
        elif high is not None:  # bytes >= 0x80: each one error (never held: no trail follows)
            out.bad_bytes(m.start(), len(high))
        else:
            if hold and m.end() == end and data[m.start()] < 0x80:
                return m.start()
            out.bad(m.start(), 1)
        pos = m.end()
    return pos


class Iso2022Codec(Codec):
    """One label of the ISO-2022-JP family, or ISO-2022-KR (the tolerant decoder above)."""

    __slots__ = ("repertoire", "so_mode", "_python_name")
    invalid_kind = _INVALID

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.repertoire = REPERTOIRE[key]
        self.so_mode = _SO_MODE.get(key)
        self._python_name = _PYTHON_CODEC[key]

    def decode(self, data: bytes, issues: list[TextIssue] | None, offset: int) -> str:
        if _SPECIAL.search(data) is None:
            try:
                return data.decode("ascii")
            except UnicodeDecodeError:
                pass
        elif self.so_mode != "g1" and _WELL_FORMED_JP.fullmatch(data) is not None:
            try:
                return _cpython_iso2022_jp(data)
            except UnicodeDecodeError:
                pass  # a pair CPython lacks (NEC rows): the general path
        text = decode_bounded(self, data, issues, offset)  # an accumulator: in chunks
        return text if text is not None else self.decode_chunk(data, issues, offset, True, None)[0]

    def decode_chunk(self, data: bytes, issues: list[TextIssue] | None, offset: int, final: bool,
                     state: State) -> tuple[str, int, State]:
        st = state or 0
        g0, g1, shift, g2 = st & 15, (st >> 4) & 15, (st >> 8) & 1, (st >> 9) & 3
        out = _Out(issues, offset)
        size = len(data)
        pos = 0
        consumed = None
        so_mode = self.so_mode
        while True:
            m = _SPECIAL.search(data, pos)
            end = size if m is None else m.start()
            if shift:
                active = KATAKANA if so_mode == "kana" else (g1 or KSC5601)
            else:
                active = g0
            if end > pos:
                if active in _SINGLE_TABLES:
                    out.single(_SINGLE_TABLES[active], data, pos, end)
                else:
                    stop = _two_byte(out, active, data, pos, end, m is None and not final)
                    if stop < end:
                        consumed = stop
                        break
            if m is None:
                break
            s = end
            b = data[s]
            if b == 0x0A or b == 0x0D:
                out.parts.append(chr(b))
                g0 = ASCII
                shift = 0
                pos = s + 1
                continue
            if b != 0x1B:  # SO or SI
                if so_mode is None:
                    out.bad(s, 1)
                else:
                    shift = 1 if b == 0x0E else 0
                pos = s + 1
                continue
            em = _ESCAPE.match(data, s)
            assert em is not None  # data[s] is ESC
            e = em.end()
            seq = em.group()
            if seq[-1] < 0x30:  # no final byte
                if e == size and not final:
                    consumed = s
                    break
                out.bad(s, e - s)
                pos = e
                continue
            action = _ESCAPES.get(seq)
            if action is None:
                out.bad(s, e - s)
                pos = e
                continue
            register, value = action
            if register == "ss2":
                if e == size and not final:
                    consumed = s
                    break
                c = data[e] if e < size else -1
                if 0x20 <= c <= 0x7F:
                    if g2:
                        ch = _g2_char(g2, c)
                        if ch is None:
                            out.bad(s, 3)
                        else:
                            out.parts.append(ch)
                    else:
                        out.bad(s, 3)
                    pos = e + 1
                else:
                    out.bad(s, 2)
                    pos = e
                continue
            if seq not in self.repertoire:
                out.ambiguous(s, e - s)
            if register == "g0":
                g0 = value
            elif register == "g1":
                g1 = value
            elif register == "g2":
                g2 = value
            pos = e
        new_state = g0 | g1 << 4 | shift << 8 | g2 << 9
        return out.finish(), size if consumed is None else consumed, new_state or None

    def encode(self, text: str, issues: list[TextIssue] | None) -> bytes:
        framing = None
        if _FRAMING.search(text) is not None:
            # ESC, SO and SI are the stream's own controls: a reader takes them as designations
            # and shifts, so they cannot be written (T82).
            framing = [m.start() for m in _FRAMING.finditer(text)]
            text = _FRAMING.sub("?", text)
        found: list[TextIssue] | None = [] if framing and issues is not None else issues
        if self._python_name == "iso2022_jp_ext" and not text.isascii():
            text = _only_jis_x_0208_and_kana(text, found)
        out = encode_with(self._python_name, text, found)
        if found is not issues and found is not None and framing is not None and issues is not None:
            found.extend(TextIssue(IssueKind.UNENCODABLE, i, 1) for i in framing)
            found.sort(key=_by_offset)
            issues.extend(found)
        return out


# The framing controls of ISO-2022 (ESC, SO, SI): never written as text (T82).
_FRAMING = re.compile("[\x1b\x0e\x0f]")


_NON_ASCII = re.compile("[^\x00-\x7f]")
_cp5022x_ok: dict[str, bool] = {}


def _only_jis_x_0208_and_kana(text: str, issues: list[TextIssue] | None) -> str:
    """Replace what cp50221/cp50222 lack with ``?`` (``Unencodable``) before CPython's
    ``iso2022_jp_ext`` sees it: that codec would write JIS X 0212, outside their repertoire."""
    bad: list[int] = []
    for m in _NON_ASCII.finditer(text):
        ch = m.group()
        ok = _cp5022x_ok.get(ch)
        if ok is None:
            ok = "\uff61" <= ch <= "\uff9f"
            if not ok:
                try:
                    ch.encode("iso2022_jp")
                    ok = True
                except UnicodeEncodeError:
                    ok = False
            _cp5022x_ok[ch] = ok
        if not ok:
            bad.append(m.start())
    if not bad:
        return text
    if issues is not None:
        issues.extend(TextIssue(IssueKind.UNENCODABLE, i, 1) for i in bad)
    chars = list(text)
    for i in bad:
        chars[i] = "?"
    return "".join(chars)


def _g2_char(g2: int, c: int) -> str | None:
    """Return the G2 character for byte ``c`` (0x20..0x7F) after ``ESC N``, or None."""
    if g2 == _G2_LATIN1:
        return chr(c | 0x80)
    text = _euc_decoder("iso-8859-7").decode(bytes([c | 0x80]))
    return None if text == "\ufffd" else text


# ---------------------------------------------------------------------------------------------
# HZ-GB-2312

# GB mode tokens: pairs, "~}", a line end, other controls and space, a lone or high byte. A
# lead is never "~", and a "~" followed by "}" is never a trail: "~}" leaves GB mode even after
# a lone byte (T39: "~{.~}x" is U+FFFD, "x"). CR and LF are not in the control run, so white
# space before a line end cannot carry GB mode over it (T35).
_HZ_GB = re.compile(rb"((?:[\x21-\x7d](?:[\x21-\x7d]|~(?!\})))+)|(~\})|([\r\n])"
                    rb"|([\x00-\x09\x0b\x0c\x0e-\x20\x7f]+)|[\x21-\xff]")


class HzCodec(Codec):
    """HZ-GB-2312 (RFC 1843), see the module docstring."""

    __slots__ = ()
    invalid_kind = _INVALID

    def decode(self, data: bytes, issues: list[TextIssue] | None, offset: int) -> str:
        if b"~" not in data:
            try:
                return data.decode("ascii")
            except UnicodeDecodeError:
                pass
        text = decode_bounded(self, data, issues, offset)  # an accumulator: in chunks
        return text if text is not None else self.decode_chunk(data, issues, offset, True, None)[0]

    def decode_chunk(self, data: bytes, issues: list[TextIssue] | None, offset: int, final: bool,
                     state: State) -> tuple[str, int, State]:
        gb = bool(state)
        out = _Out(issues, offset)
        size = len(data)
        pos = 0
        while pos < size:
            if not gb:
                t = data.find(b"~", pos)
                end = size if t < 0 else t
                if end > pos:
                    out.single(_ASCII_TABLE, data, pos, end)
                if t < 0:
                    pos = size
                    break
                nxt = data[t + 1:t + 2]
                if not nxt and not final:
                    pos = t
                    break
                if nxt == b"~":
                    out.parts.append("~")
                    pos = t + 2
                elif nxt == b"{":
                    gb = True
                    pos = t + 2
                elif nxt == b"\n":
                    pos = t + 2
                elif nxt == b"\r" and data[t + 2:t + 3] == b"\n":
                    pos = t + 3
                elif nxt == b"\r" and t + 2 == size and not final:
                    pos = t
                    break
                else:
                    out.bad(t, 1)
                    pos = t + 1
                continue
            m = _HZ_GB.match(data, pos)
            assert m is not None  # the last alternative takes any byte
            pairs, leave, line_end, ctl = m.groups()
            if pairs is not None:
                if not final and m.end() == size and pairs[-1] == 0x7E:
                    # the "~" may be the start of "~}" in the next chunk: hold its pair back
                    if len(pairs) > 2:
                        out.pairs(GB2312, pairs[:-2], pos)
                        pos += len(pairs) - 2
                    break
                out.pairs(GB2312, pairs, pos)
            elif leave is not None:
                gb = False
            elif line_end is not None:
                out.parts.append(line_end.decode("ascii"))
                gb = False
            elif ctl is not None:
                out.parts.append(ctl.decode("ascii"))
            else:
                if m.end() == size and not final and data[pos] < 0x80:
                    break
                out.bad(pos, 1)
            pos = m.end()
        return out.finish(), pos, 1 if gb else None

    def encode(self, text: str, issues: list[TextIssue] | None) -> bytes:
        return _hz_encode(text, issues)


_HZ_RUNS = re.compile("([\x00-\x7f]+)|[^\x00-\x7f]+")
_hz_pairs: dict[str, bytes | None] = {}


def _hz_encode(text: str, issues: list[TextIssue] | None) -> bytes:
    """Encode HZ-GB-2312 (RFC 1843): ASCII with ``~~`` for ``~``; GB 2312 in ``~{ ... ~}``.

    GB 2312 characters are found with onemail's GBK encoder (lead 0xA1..0xF7, trail
    0xA1..0xFE, written with the high bit cleared), so the decoder reads back exactly what was
    written; others become ``?`` with ``Unencodable`` (CPython's ``hz`` encoder is not used:
    it leaves a ``~`` after GB text unescaped).
    """
    out: list[bytes] = []
    for m in _HZ_RUNS.finditer(text):
        ascii_run = m.group(1)
        if ascii_run is not None:
            out.append(ascii_run.replace("~", "~~").encode("ascii"))
            continue
        gb: list[bytes] = []
        for k, ch in enumerate(m.group()):
            pair = _hz_pairs.get(ch, b"")
            if pair == b"":
                enc = _euc_decoder("gbk").encode(ch, [])
                # GB 2312's rows 1-87 (lead 0xA1-0xF7); a lead 0xFE would be HZ's "~".
                ok = len(enc) == 2 and 0xA1 <= enc[0] <= 0xF7 and enc[1] >= 0xA1
                pair = _hz_pairs[ch] = bytes((enc[0] & 0x7F, enc[1] & 0x7F)) if ok else None
            if pair is None:
                if gb:
                    out.append(b"~{" + b"".join(gb) + b"~}")
                    gb = []
                out.append(b"?")
                if issues is not None:
                    issues.append(TextIssue(IssueKind.UNENCODABLE, m.start() + k, 1))
            else:
                gb.append(pair)
        if gb:
            out.append(b"~{" + b"".join(gb) + b"~}")
    return b"".join(out)


def codec(key: str) -> Codec:
    """Return the codec for an ISO-2022 key (``iso-2022-jp``, ``-1``, ``-2``, ``-3``,
    ``cp50220``, ``cp50221``, ``cp50222``, ``iso-2022-kr``) or ``hz-gb-2312``."""
    if key == "hz-gb-2312":
        return HzCodec(key)
    return Iso2022Codec(key)
