"""Shared machinery of the CJK decoders: a C-codec fast path proved equal to a reference.

Each CJK family module (``gb18030``, ``big5``, ``euc_jp``, ``shift_jis``, ``euc_kr``) supplies a
pure-Python *reference* state machine written step by step from the Encoding Standard's decoder
(the fallback, and the definition of correctness), plus the name of CPython's nearest C codec.
:class:`CjkCodec` decodes with the C codec whenever it can prove the result equal to the
reference's.

Definitions. A *unit* of a C codec is a byte sequence that the codec decodes strictly on its
own while it reports every proper prefix as "incomplete multibyte sequence". A state of the
Encoding Standard's decoder is *clean* when its lead bytes are 0x00 and nothing was restored
to the input (the initial state). ``scripts/gen/cjk.py`` enumerates every unit of the C codec
(all 1- and 2-byte sequences, and every longer sequence whose prefixes are incomplete: the
4-byte gb18030 and the 0x8F-prefixed 3-byte EUC-JP ones) and runs the reference on each from a
clean state. A unit is *agreeing* when the reference decodes it without error, to the same
text, and ends clean; the characters the C codec outputs for every other (disagreeing) unit are
the *suspect characters* (``_tables/cjk_suspects.py``; every C unit outputs at least one
character, asserted by the generator).

Why the fast path is exact.

1. CPython's multibyte codecs (``Modules/cjkcodecs``) are stateless for these encodings: they
   decode one unit at a time, choosing the unit's length from its first bytes only, so a strict
   decode of ``data`` splits it into units ``u1 u2 ... un`` and outputs ``C(u1) C(u2) ...``.
   The concatenation of all units decodes to the concatenation of their outputs
   (``tests/stdlib_assumptions/test_cjk_codecs.py`` pins this).
2. The standard's decoders are causal: a handler sees one byte and the state; "restore" only
   pushes back bytes already read. So if the reference, started clean, decodes ``u`` without
   error to ``C(u)`` and ends clean, then inside any stream it does the same when it reaches
   ``u`` in a clean state.
3. By induction over the units: if no disagreeing unit was decoded, every unit agreed, so the
   standard's decoder is clean at every unit boundary and its output is the C output, with no
   error. A disagreeing unit leaves two traces: its first character in the output and its bytes
   in the input; the fast path (one strict C decode, then one ``str.find`` per disagreeing
   character, a byte search only when a character is present) accepts when a trace is missing
   (or looks for the units in the input first: 3a).
   A family may list several C codecs (*stages*, tried in order; gb18030 first tries CPython's
   ``gbk``, which disagrees on no unit at all); the last one also serves step 4.
   Some disagreeing units are *fix-ups* instead: the C codec outputs one character ``c`` for the
   unit, only for that unit, the standard never outputs ``c`` and decodes the unit without error
   to ``t``; then replacing every ``c`` by ``t`` makes the C output the standard's.
3a. Units looked for in the input (the families of ``BYTE_SCAN`` in ``_tables/cjk_suspects.py``,
   with one stage: ``str.find`` is a memchr on a character's low byte, slow when that byte is
   a common ASCII byte, e.g. U+2022 vs '"' in HTML; the input bytes are searched faster). The generator also records
   the length of the C codec's units as a function of their first byte (asserted) and every
   disagreeing unit with its C text and standard text. If a strict C decode of ``data``
   succeeds, every unit was accepted, so a position ``p`` is a *unit start* exactly when
   walking forward from just after the last boundary byte before ``p`` (a unit start, step
   4; or from 0) by those lengths lands on ``p`` (``_unit_start``; "unknown" when no boundary
   byte is within ``_ALIGN_LOOKBACK`` bytes or a byte starts no unit, and then step 3 is used).
   A disagreeing unit was decoded at ``p`` if and only if its bytes occur at ``p`` and ``p``
   is a unit start; an occurrence inside other units is a false match and is skipped.
   ``_find_units`` looks for the disagreeing units whose first byte is in the family's
   ``scan_leads`` (and every non-fix-up unit), *before* any C decode: per first byte, it hops
   from one occurrence of that byte to the next (``bytes.find``, a memchr) and tries the
   unit regex there, until the byte proves common (``_HOP_SPACING``); then one regex search,
   restarted one byte after each match, does the rest. Either way every occurrence of every
   unit is seen, overlapping ones included. Nothing found: the strict C decode of ``data`` is
   the standard's text, except for the remaining fix-up units, whose characters are then
   looked for and replaced as in step 3. Units found at ``p1 < p2 < ...`` (they cannot
   overlap: a boundary byte ends a unit, so two unit starts of one walk are a unit apart;
   checked anyway): the bytes between them are decoded by the strict C codec and each found
   unit is replaced by its standard text (by 1 and 2, the standard's output is the
   concatenation, every other unit agreeing; a recorded standard text means the reference
   decoded the unit without error and ended clean, since the generator's comparison follows
   each unit by a line feed, which a pending lead would turn into an error). The argument above assumed
   that the whole ``data`` decodes strictly; that is checked after the fact: each piece
   between found units decodes strictly, and the pieces and the found units are whole units,
   so ``data`` is a concatenation of units, which the C codec parses as exactly those (1).
   A piece that fails, or a found unit whose standard decoding has an error, sends ``data``
   to step 4 (it holds damage or a unit of that kind, so nothing is lost).
3b. An exact first stage (no disagreeing unit: gbk for gb18030) that rejects a unit hands
   over only a window: its decode stops at the first rejected unit (the ``STOP`` error
   handler records where; ``UnicodeDecodeError.start`` is that unit's first byte, step 4) and
   keeps the text before it, which is the standard's (3, no unit disagrees), with the
   standard's decoder clean there. The window from there to just after the next boundary
   byte (where both parses are at a unit boundary and the standard is clean, step 4) is an
   input of its own for the last stage (3 or 3a), and the first stage resumes after it.
   Every split point is clean for the standard, so its output is the concatenation (2).
   After ``_MAX_SPLITS`` windows (each stop copies the rest of the input into the exception)
   the last stage takes the rest; a window or rest it does not accept sends the input to the
   last stage as a whole and on to step 4.
4. Damage. When the C codec meets a unit it rejects, it calls our error handler with
   ``UnicodeDecodeError.start`` at that unit's first byte (the codec has not advanced past it),
   where, by 3, the standard's decoder is clean. The handler runs the reference from ``start``
   until it has output a character or has just read a boundary byte (see below; other errors
   do not stop it, so dense damage stays in one run; every output of these decoders leaves the
   state clean) and returns that text and the position reached; the C codec resumes there,
   from a clean state again. So every position after a boundary byte is where a run stops or
   a C unit starts: decoding from there on is the same whether the input starts there or not. The result is accepted as in 3. Otherwise each occurrence of a
   suspect unit's bytes is widened to a span from just after the previous *boundary byte* to
   just after the next one. A boundary byte can never be a lead (nor a gb18030 digit), so it
   ends whatever sequence it is read in, or is restored (ASCII) and then emitted on its own:
   after it the standard's decoder is clean, and the C codec is at a unit boundary (no C unit
   contains it except as its last byte: pinned in tests/stdlib_assumptions). The spans are
   decoded by the reference, the rest by the C codec with the
   handler. Every byte is decoded at most three times, so damaged input takes linear time, and
   sparse damage stays near C speed.
4a. Lone error bytes. A boundary byte that the standard's decoder, from a clean state, reads
   as an error of one byte (Shift_JIS 0xA0 and 0xFD-0xFF, for instance; derived from the
   reference, ``_lone_errors``) leaves it clean again, and so does a run of them. Where a
   once-run of the handler stops (the standard is clean there), the handler also replaces the
   run of such bytes that follows, each by U+FFFD, and records them as one ``(offset, 1, count)``
   record: the output is what one handler call per byte gives, in one call (issue 16: 10 MB of
   them took one call per byte). Every position in the run is after a boundary byte and is
   where an error ends, so step 4's property holds.
5. Streaming. With ``final`` false, a fresh C incremental decoder (strict) decodes the
   complete units and holds back an unfinished unit at the end; its start is a unit boundary,
   hence clean for the standard's decoder too, and becomes the end of what was ``consumed``
   (the family state stays ``None``; the caller re-sends the held bytes). The held bytes are a
   proper prefix of a C unit, so at most 3; the standard's decoder may already have decided
   some of them (Big5 0x80 is a C lead but a standard error), which only delays that output
   (ambiguity T17).
   On damage, the incomplete tail reaches the reference through the handler ("incomplete
   multibyte sequence"), which stops at its first byte.
"""

from __future__ import annotations

import codecs
import functools
import re
import threading
from collections.abc import Callable, Iterable
from typing import Any

from ..issues import IssueKind, TextIssue
from . import BOUNDED_CHUNK, Codec, ErrorRecord, State, decode_in_chunks, report

__all__ = ["CjkCodec"]

HANDLER = "onemail.cjk-reference"
"""Name of the decode error handler that hands damaged spans to the reference decoder."""

_local = threading.local()


def _reference_handler(exc: UnicodeError) -> tuple[str, int]:
    job = getattr(_local, "job", None)
    if job is None or not isinstance(exc, UnicodeDecodeError):
        raise exc
    data = exc.object
    out: list[str] = []
    end = len(data)
    pos, pending = job[0](data, exc.start, end, job[1], out, job[2], True)
    if pending:
        job[3] = pos
        return ("".join(out), end)
    # The standard's decoder is clean at pos: a run of lone error bytes there (each an error on
    # its own, a boundary byte) is replaced in this call, one record for all (step 4a).
    count = job[4](data, pos).end() - pos
    if count:
        out.append(FFFD * count)
        if job[2] is not None:
            job[2].append((pos, 1, count))
        pos += count
    return ("".join(out), pos)


codecs.register_error(HANDLER, _reference_handler)

STOP = "onemail.cjk-stop"
"""Name of the decode error handler that ends a decode at its first error (step 3b)."""


def _stop_handler(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    _local.stop = exc.start
    return ("", len(exc.object))


codecs.register_error(STOP, _stop_handler)

FFFD = "\ufffd"
NO_ENTRY = "\ufffe"

# How far back to look for a boundary byte before falling back to the previous line feed.
_BOUNDARY_LOOKBACK = 256
# How far back step 3a looks for a boundary byte before it gives up (falls back to step 3/4).
_ALIGN_LOOKBACK = 4096
# Step 3b: windows decoded by the last stage before it takes the rest of the input.
_MAX_SPLITS = 8
# Step 3a: first bytes closer than this on average (after two) are left to the regex.
_HOP_SPACING = 512
# Step 4a: runs of lone error bytes at least this long skip the reference's byte loop (a
# shorter run costs more in the regex hand-over than in the loop).
_LONE_RUN = 16


@functools.cache
def _repeat(byte: bytes) -> re.Pattern[bytes]:
    """The regex of a run of ``byte`` (one byte)."""
    return re.compile(re.escape(byte) + b"+")


def _accept(data: bytes, text: str, fixups: tuple[tuple[str, str], ...],
            suspects: tuple[tuple[str, tuple[bytes, ...]], ...]) -> str | None:
    """Return the standard's text for ``data`` given a C codec's ``text``, or ``None``.

    ``None`` when a suspect unit may have been decoded (its character is in ``text`` and its
    bytes are in ``data``); otherwise ``text`` with the fix-ups applied (module docstring,
    step 3; ``str.find`` is a fast C scan).
    """
    find = text.find
    for c, units in suspects:
        if find(c) >= 0:
            for u in units:
                if u in data:
                    return None
    return _fix(text, fixups) if fixups else text


def _fix(text: str, fixups: tuple[tuple[str, str], ...]) -> str:
    """Replace each fix-up character (one only the C codec outputs) by the standard's text."""
    for c, r in fixups:
        if text.find(c) >= 0:
            text = text.replace(c, r)
    return text


class CjkCodec(Codec):
    """A CJK decoder family: reference state machine plus proved C-codec fast path.

    Subclasses set :attr:`invalid_kind`, :attr:`fast_key` and implement :meth:`_load_tables`,
    :meth:`_ref` and :meth:`_encode_code_point`; :attr:`boundary` may be narrowed.
    """

    __slots__ = ("_t", "_fast", "_checks", "_scans", "_incremental", "_enc", "_rev", "_encode_fast",
                 "_lone", "_lone_runs")

    #: key of ``_tables.cjk_suspects.FAST``
    fast_key = ""
    #: regex class of the *boundary bytes*: bytes that are never a lead (nor, for gb18030, a
    #: digit), so after one of them both the standard's decoder and the C codec are at a unit
    #: boundary (module docstring, step 4)
    boundary = rb"[\x00-\x80\xff]"
    #: step 3a: first bytes of the disagreeing units looked for in the input (a unit of another
    #: first byte must be a fix-up, whose character is looked for in the text)
    scan_leads = b""

    # The lazily loaded tables and fast-path pieces (tuples of codecs, regexes and tables whose
    # layout _fast_path documents); set once, read on the hot path.
    _t: Any
    _fast: Any
    _checks: tuple[tuple[str, ...], ...]
    _scans: tuple[Any, ...]
    _incremental: tuple[Any, ...]
    _enc: _EncodeMap | None
    _rev: dict[int, int] | None
    _encode_fast: Any
    _lone: Callable[[bytes, int], re.Match[bytes] | None]
    _lone_runs: re.Pattern[bytes]

    def __init__(self, key: str, tables: tuple[Any, ...] | None = None) -> None:
        super().__init__(key)
        self._t = tables
        self._fast = None
        self._enc = None
        self._rev = None  # encoder's {code point: pointer}, built on first use
        self._encode_fast = None

    # -- tables -----------------------------------------------------------------------------
    def _load_tables(self) -> tuple[Any, ...]:  # pragma: no cover - abstract
        raise NotImplementedError

    @property
    def tables(self) -> tuple[Any, ...]:
        t: tuple[Any, ...] | None = self._t
        if t is None:
            t = self._t = self._load_tables()
        return t

    def _fast_path(self) -> Any:
        """Load ``(strict stages, last codec, fix-ups, suspects, boundary search, table)``."""
        f = self._fast
        if f is None:
            from .._tables.cjk_suspects import BYTE_SCAN, FAST

            stages = tuple(
                (codecs.getdecoder(name), tuple(fixups.items()), tuple(suspects.items()))
                for name, fixups, suspects in FAST[self.fast_key]
            )
            self._incremental = tuple(codecs.getincrementaldecoder(name) for name, _, _ in FAST[self.fast_key])
            self._checks = tuple(tuple(f) + tuple(s) for _, f, s in FAST[self.fast_key])
            rx = re.compile(self.boundary)
            table = bytes(rx.match(bytes((b,))) is not None for b in range(256))
            scan: Any = BYTE_SCAN.get(self.fast_key)
            if scan is not None:  # step 3a, for the last (here: only) stage
                lengths, units = scan
                fixups = dict(FAST[self.fast_key][-1][1])
                by_lead: dict[bytes, list[bytes]] = {}
                in_text: list[tuple[str, str]] = []  # fix-up units of other leads: their character is looked for
                for u, (c, _) in units.items():
                    if u[0] in self.scan_leads or c not in fixups:
                        by_lead.setdefault(u[:1], []).append(u[1:])
                    else:
                        in_text.append((c, fixups[c]))
                searches = []
                for lead, rests in sorted(by_lead.items()):
                    unit_rx = re.compile(re.escape(lead) + b"(?:" + b"|".join(map(re.escape, rests)) + b")")
                    searches.append((lead, unit_rx.search, unit_rx.match))
                scan = (lengths, units, tuple(searches), tuple(in_text))
            self._scans = (None,) * (len(stages) - 1) + (scan,)
            # every attribute the fast path reads is set before _fast publishes it: another
            # thread that sees _fast must find _lone too (test_thread_safety)
            self._lone = self._lone_errors(table)
            f = self._fast = (stages, *stages[-1], rx.search, table)
        return f

    def _lone_errors(self, is_boundary: bytes) -> Callable[[bytes, int], re.Match[bytes] | None]:
        """Return the ``match`` of a regex of runs of *lone error bytes* (module docstring, 4a).

        A lone error byte is a boundary byte that the reference, from a clean state, decodes
        as one error of one byte, ending clean (it reads ``byte`` + LF as U+FFFD, LF). Derived
        from the reference itself, so it holds for every family. Sets ``_lone_runs`` too; runs
        before ``_fast`` is set (``_ref`` reads it only with ``once``).
        """
        lone = []
        for b in range(256):
            if not is_boundary[b]:
                continue
            out: list[str] = []
            errs: list[ErrorRecord] = []
            self._ref(bytes((b, 0x0A)), 0, 2, True, out, errs, False)
            if "".join(out) == FFFD + "\n" and errs == [(0, 1)]:
                lone.append(b)
        cls = b"[" + b"".join(re.escape(bytes((b,))) for b in lone) + b"]" if lone else b"(?!)"
        self._lone_runs = re.compile(cls + b"{%d,}" % _LONE_RUN)
        return re.compile(cls + b"*").match

    def _check(self, k: int, data: bytes, text: str) -> str | None:
        """Return the standard's text given stage ``k``'s strict C ``text`` of ``data``, or ``None``.

        Module docstring, step 3 (characters looked for in ``text``) or 3a (units looked for in
        ``data``, for the families of ``_tables.cjk_suspects.BYTE_SCAN``).
        """
        scan = self._scans[k]
        if scan is not None:
            found = self._find_units(data, scan)
            if found is not None:
                return self._assemble(k, data, found, scan, text)
        fixups, suspects = self._fast[0][k][1:]
        find = text.find
        for c in self._checks[k]:  # usually none occurs: one C scan each
            if find(c) >= 0:
                break
        else:
            return text
        return _accept(data, text, fixups, suspects)

    def _unit_start(self, data: bytes, p: int, lengths: bytes) -> bool | None:
        """Whether a strict C decode of ``data`` starts a unit at byte ``p`` (``None``: unknown).

        Module docstring, step 3a: back to just after the last boundary byte (a unit start),
        then forward by unit lengths, which depend on the first byte only.
        """
        is_boundary = self._fast[5]
        q = p
        stop = max(0, p - _ALIGN_LOOKBACK)
        while q > stop and not is_boundary[data[q - 1]]:
            q -= 1
        if q and not is_boundary[data[q - 1]]:
            return None  # no boundary byte near enough
        while q < p:
            n = lengths[data[q]]
            if not n:
                return None  # not a unit's first byte: ``data`` is not strictly decodable
            q += n
        return q == p

    def _find_units(self, data: bytes, scan: Any) -> list[tuple[int, bytes]] | None:
        """Step 3a: ``[(position, unit)]`` of the disagreeing units at unit starts, or ``None``.

        Valid only if a strict C decode of ``data`` succeeds; ``None`` when a position could
        not be settled.
        """
        lengths, _, searches, _ = scan
        found: list[tuple[int, bytes]] = []
        unit_start = self._unit_start
        for lead, search, match in searches:
            # Hop from first byte to first byte (memchr) while they are rare, then let the
            # regex (a byte-by-byte scan) run.
            p = data.find(lead)
            hops = 0
            while p >= 0:
                hops += 1
                if hops * _HOP_SPACING > p + 2 * _HOP_SPACING:
                    m = search(data, p)
                    while m is not None:
                        p = m.start()
                        start = unit_start(data, p, lengths)
                        if start is None:
                            return None
                        if start:
                            found.append((p, m.group()))
                        m = search(data, p + 1)  # occurrences may overlap
                    break
                m = match(data, p)
                if m is not None:
                    start = unit_start(data, p, lengths)
                    if start is None:
                        return None
                    if start:
                        found.append((p, m.group()))
                p = data.find(lead, p + 1)
        return found

    def _assemble(self, k: int, data: bytes, found: list[tuple[int, bytes]], scan: Any,
                  text: str | None = None) -> str | None:
        """Step 3a: the standard's text of ``data`` given its units ``found``, or ``None``.

        Each found unit is replaced by its standard text, the bytes between them are decoded by
        stage ``k``'s strict C codec (``text``, the whole strict decode, when nothing was found);
        then the fix-up characters looked for in the text are replaced. ``None`` when a strict
        decode fails or a unit's standard decoding has an error.
        """
        _, units, _, in_text = scan
        if found:
            cdecode = self._fast[0][k][0]
            view = memoryview(data)  # slices without copies
            found.sort()
            out: list[str] = []
            pos = 0
            try:
                for p, u in found:
                    r = units[u][1]
                    if r is None or p < pos:
                        return None
                    if pos < p:
                        out.append(cdecode(view[pos:p])[0])
                    out.append(r)
                    pos = p + len(u)
                if pos < len(data):
                    out.append(cdecode(view[pos:])[0])
            except UnicodeDecodeError:
                return None
            text = "".join(out)
        elif text is None:
            try:
                text = self._fast[0][k][0](data)[0]
            except UnicodeDecodeError:
                return None
        find = text.find
        for c, r in in_text:
            if find(c) >= 0:
                text = text.replace(c, r)
        return text

    def _strict(self, data: bytes) -> tuple[str | None, str | None]:
        """Return ``(standard's text or None, last stage's strict C text or None)``.

        The text is that of the first stage whose strict C decode succeeds and is accepted
        (module docstring, step 3; step 3a looks for units in ``data`` before decoding). The
        second item, when the last stage decoded without error but may hold a suspect unit,
        lets :meth:`_slow` skip its handler pass.
        """
        stages = (self._fast or self._fast_path())[0]
        text: str | None = None
        for k, (cdecode, fixups, suspects) in enumerate(stages):
            if k == 0 and len(stages) > 1 and not fixups and not suspects:
                # An exact first stage (step 3b): decode up to its first rejected unit.
                _local.stop = None
                text = cdecode(data, STOP)[0]
                stop = _local.stop
                if stop is None:
                    return text, None
                accepted = self._split(data, text, stop)
                if accepted is not None:
                    return accepted, None
                text = None
                continue
            scan = self._scans[k]
            if scan is not None:
                found = self._find_units(data, scan)
                if found is not None:
                    accepted = self._assemble(k, data, found, scan)
                    if accepted is not None:
                        return accepted, None
                    text = None  # a strict decode failed, or a unit decodes with an error
                    continue
            try:
                text = cdecode(data)[0]
            except UnicodeDecodeError:
                text = None
                continue
            accepted = self._check(k, data, text)
            if accepted is not None:
                return accepted, None
        return None, text

    def _stage_text(self, k: int, data: bytes) -> str | None:
        """Stage ``k``'s strict C decode of ``data`` if accepted (step 3 or 3a), else ``None``."""
        try:
            text = self._fast[0][k][0](data)[0]
        except UnicodeDecodeError:
            return None
        return self._check(k, data, text)

    def _split(self, data: bytes, prefix: str, stop: int) -> str | None:
        """Step 3b: the standard's text of ``data``, whose exact first stage stopped at ``stop``.

        ``prefix`` is that stage's text of ``data[:stop]``. Each window from a rejected unit to
        just after the next boundary byte goes to the last stage, the bytes after it to the
        first stage again; after ``_MAX_SPLITS`` windows the last stage takes the rest.
        ``None`` when a window or the rest is not accepted by the last stage.
        """
        stages, _, _, _, search = self._fast[:5]
        first = stages[0][0]
        last = len(stages) - 1
        view = memoryview(data)
        n = len(data)
        out = [prefix]
        pos = stop
        for _ in range(_MAX_SPLITS):
            m = search(data, pos)
            end = n if m is None else m.end()
            text = self._stage_text(last, data[pos:end])
            if text is None:
                return None
            out.append(text)
            if end >= n:
                return "".join(out)
            _local.stop = None
            out.append(first(view[end:], STOP)[0])
            if _local.stop is None:
                return "".join(out)
            pos = end + _local.stop
        text = self._stage_text(last, data[pos:])
        if text is None:
            return None
        out.append(text)
        return "".join(out)

    def _fix(self, text: str) -> str:
        """Apply the last stage's fix-ups."""
        return _fix(text, self._fast[2])

    def _suspect_spans(self, data: bytes, text: str, every: bool = False) -> list[tuple[int, int]]:
        """Return the sorted, merged spans ``(start, end)`` of ``data`` holding a suspect unit.

        Only units whose character occurs in ``text`` are looked for, unless ``every``: a text
        made with the reference handler can lack a suspect unit's character (the handler reads
        on with the reference past an error, and gives such a byte the standard's U+FFFD), yet
        the span pass hands that byte to the C codec again when it lies outside every span
        (Shift_JIS ``FD 81 00 FE`` gave U+F8F2 for its last byte). A span runs from just
        after the last boundary byte before the unit (or the previous line feed when none is
        within ``_BOUNDARY_LOOKBACK`` bytes) to just after the first one after it (module
        docstring, step 4: both parses are at a unit boundary there).
        """
        suspects, search, is_boundary = self._fast[3:]
        spans: list[tuple[int, int]] = []
        find = data.find
        n = len(data)
        for c, units in suspects:
            if not every and text.find(c) < 0:
                continue
            for u in units:
                p = find(u)
                while p >= 0:
                    a = p
                    stop = max(0, p - _BOUNDARY_LOOKBACK)
                    while a > stop and not is_boundary[data[a - 1]]:
                        a -= 1
                    if a == stop and a and not is_boundary[data[a - 1]]:
                        a = data.rfind(b"\n", 0, p) + 1
                    q = p + len(u)
                    if q < n and data[q] == data[p] and len(u) == 1 and is_boundary[data[p]]:
                        # A run of one boundary byte (10 MB of 0xFF): the spans of its bytes
                        # touch, so their union is found at once.
                        run = _repeat(u).match(data, p)
                        assert run is not None  # data[p] is u
                        q = run.end()
                    m = search(data, q)
                    b = n if m is None else m.end()
                    spans.append((a, b))
                    p = find(u, b)
        spans.sort()
        merged: list[tuple[int, int]] = []
        for a, b in spans:
            if merged and a <= merged[-1][1]:
                if b > merged[-1][1]:
                    merged[-1] = (merged[-1][0], b)
            else:
                merged.append((a, b))
        return merged

    # -- the reference ----------------------------------------------------------------------
    def _ref(self, data: bytes, i: int, end: int, final: bool, out: list[str],  # pragma: no cover - abstract
             errs: list[ErrorRecord] | None, once: bool) -> tuple[int, bool]:
        """Run the standard's decoder on ``data[i:end]`` from a clean state.

        Appends text pieces to ``out`` and ``(offset, length)`` of each error (one U+FFFD each)
        to ``errs`` (unless it is ``None``). With ``once`` it returns after the first character
        it outputs (not after an error).
        :returns: ``(pos, pending)``: the position reached, where the state is clean;
            ``pending`` is true when an incomplete sequence starts at ``pos`` and ``final`` is
            false (those bytes are not consumed).
        """
        raise NotImplementedError

    def _ref_runs(self, data: bytes, i: int, end: int, final: bool, out: list[str],
                  errs: list[ErrorRecord] | None) -> tuple[int, bool]:
        """:meth:`_ref` from a clean state at ``i``, with long runs of lone error bytes at once.

        A run of at least ``_LONE_RUN`` lone error bytes (step 4a) whose first byte follows a
        boundary byte (or is at ``i``) starts where the standard is clean, so each of its bytes
        is one error and the standard is clean after it: the run becomes U+FFFD per byte and
        one error record. The rest goes to the reference. Same output as ``_ref``.
        """
        is_boundary = self._fast[5]
        pos = i
        for m in self._lone_runs.finditer(data, i, end):
            a, b = m.span()
            if a > pos and not is_boundary[data[a - 1]]:
                a += 1  # the first byte may end the sequence before it
            if b - a < _LONE_RUN:
                continue
            if pos < a:  # ends after a boundary byte: clean, nothing pending
                self._ref(data, pos, a, True, out, errs, False)
            out.append(FFFD * (b - a))
            if errs is not None:
                errs.append((a, 1, b - a))
            pos = b
        return self._ref(data, pos, end, final, out, errs, False)

    def reference_decode(self, data: bytes, issues: list[TextIssue] | None, offset: int,
                         final: bool = True) -> tuple[str, int]:
        """Decode with the pure-Python reference only; return ``(text, consumed)``."""
        out: list[str] = []
        errs: list[ErrorRecord] | None = [] if issues is not None else None
        pos, _ = self._ref(data, 0, len(data), final, out, errs, False)
        if errs and issues is not None:
            report(errs, self.invalid_kind, issues, offset)
        return "".join(out), pos

    # -- decoding ---------------------------------------------------------------------------
    def decode(self, data: bytes, issues: list[TextIssue] | None, offset: int) -> str:
        text, suspect = self._strict(data)
        if text is not None:
            return text
        if issues is not None and type(issues) is not list and len(data) > BOUNDED_CHUNK:
            # An accumulator (issue 16): in one piece while the error records stay few (runs of
            # lone error bytes are one record each; joining chunks would hold the text twice),
            # else again in chunks, so that the records of one chunk exist at a time.
            try:
                return self._slow(data, issues, offset, True, suspect, cap=_RECORD_CAP)[0]
            except _TooManyRecords:
                return decode_in_chunks(self, data, issues, offset)
        return self._slow(data, issues, offset, True, suspect)[0]

    def decode_chunk(self, data: bytes, issues: list[TextIssue] | None, offset: int, final: bool,
                     state: State) -> tuple[str, int, State]:
        if final:
            text, suspect = self._strict(data)
            if text is not None:
                return text, len(data), None
        else:
            # A stream chunk usually ends inside a character: a fresh strict C incremental
            # decoder decodes the complete units and holds back the unfinished tail (a clean
            # boundary for both parses, step 5), without the handler pass.
            stages = (self._fast or self._fast_path())[0]
            for k in range(len(stages)):
                dec = self._incremental[k]()
                try:
                    text = dec.decode(data, False)
                except UnicodeDecodeError:
                    continue
                cut = len(data) - len(dec.getstate()[0])
                accepted = self._check(k, data[:cut] if cut < len(data) else data, text)
                if accepted is not None:
                    return accepted, cut, None
            suspect = None
        slow_text, consumed = self._slow(data, issues, offset, final, suspect)
        return slow_text, consumed, None

    def _slow(self, data: bytes, issues: list[TextIssue] | None, offset: int, final: bool,
              suspect: str | None = None, cap: int | None = None) -> tuple[str, int]:
        """Decode damaged or suspect input (module docstring, steps 4 and 5).

        :param suspect: the last stage's strict C text when it decoded without error (then it is
            what the handler pass would give, and that pass is skipped).
        :param cap: at most this many error records are kept before :class:`_TooManyRecords` is
            raised (nothing is reported to ``issues`` before it).
        """
        errs: list[ErrorRecord] | None = None
        if issues is not None:
            errs = [] if cap is None else _CappedRecords(cap)
        n = len(data)
        pending: int | None
        if suspect is None:
            text, pending = self._with_handler(data, final, errs, 0)
        else:
            text, pending = suspect, None
        consumed = n if pending is None else pending
        spans = self._suspect_spans(data, text, suspect is None) if self._fast[3] else None
        if spans:
            # Spans holding a suspect unit go to the reference, the rest to the C codec again.
            if errs is not None:
                errs.clear()
            out: list[str] = []
            pos = 0
            consumed = n
            for a, b in [*spans, (n, n)]:
                if pos < a:
                    t, pending = self._with_handler(data[pos:a], final or a < n, errs, pos)
                    out.append(t)
                    if pending is not None:
                        consumed = pos + pending
                        break
                if a < b:
                    p, stop = self._ref_runs(data, a, b, final or b < n, out, errs)
                    if stop:
                        consumed = p
                        break
                pos = b
            text = "".join(out)
        if self._fast[2]:
            text = self._fix(text)
        if errs and issues is not None:
            report(errs, self.invalid_kind, issues, offset)
        return text, consumed

    def _with_handler(self, data: bytes, final: bool, errs: list[ErrorRecord] | None,
                      base: int) -> tuple[str, int | None]:
        """C-decode ``data`` with the reference handler; return ``(text, pending position)``.

        Errors are appended to ``errs`` with ``base`` added to their offsets.
        """
        mine: list[ErrorRecord] | None = errs if base == 0 or errs is None else (
            _CappedRecords(errs.cap) if isinstance(errs, _CappedRecords) else [])
        job: list[Any] = [self._ref, final, mine, None, self._lone]
        saved = getattr(_local, "job", None)
        _local.job = job
        try:
            text = self._fast[1](data, HANDLER)[0]
        finally:
            _local.job = saved
        if mine is not errs and mine and errs is not None:
            errs.extend((base + r[0], *r[1:]) for r in mine)
        text_out: str = text
        return text_out, job[3]

    # -- encoding ---------------------------------------------------------------------------
    def _encode_code_point(self, cp: int) -> bytes | None:  # pragma: no cover - abstract
        """Return the bytes the standard's encoder writes for ``cp``, or ``None`` (error)."""
        raise NotImplementedError

    def encode(self, text: str, issues: list[TextIssue] | None) -> bytes:
        """Encode per the standard's encoder (see :meth:`_encode_code_point`).

        Fast path: CPython's C encoder (``_tables/cjk_encode.py``), used when ``text`` holds no
        code point it encodes otherwise than the standard (an exhaustive comparison over every
        scalar value, made by ``scripts/gen/cjk.py``); the characters it cannot encode go to
        an error handler that writes the standard's bytes or ``?`` (``Unencodable``). Else a
        ``str.translate`` over a lazily filled map of the standard's encoder.
        """
        if text.isascii():
            return text.encode("ascii")
        f = self._encode_fast or self._load_encode_fast()
        if f[1] is None or f[1](text) is None:
            try:
                encoded: bytes = f[0](text)[0]
                return encoded
            except UnicodeEncodeError:
                pass
            job = [self._encode_code_point, issues]
            saved = getattr(_local, "encode_job", None)
            _local.encode_job = job
            try:
                encoded = f[0](text, ENCODE_HANDLER)[0]
                return encoded
            finally:
                _local.encode_job = saved
        return self._encode_translate(text, issues)

    def _load_encode_fast(self) -> Any:
        from .._tables.cjk_encode import ENCODE

        name, pairs = ENCODE[self.key]
        cls = "".join(
            re.escape(a) + ("-" + re.escape(b) if b > a else "") for a, b in zip(pairs[::2], pairs[1::2], strict=True)
        )
        f = self._encode_fast = (codecs.getencoder(name), re.compile(f"[{cls}]").search if cls else None)
        return f

    def _encode_translate(self, text: str, issues: list[TextIssue] | None) -> bytes:
        m = self._enc
        if m is None:
            m = self._enc = _EncodeMap(self._encode_code_point)
        try:
            return text.translate(m).encode("latin-1")
        except UnicodeEncodeError:  # an unencodable character (UNENCODABLE_MARK)
            pass
        out: list[str] = []
        for i, ch in enumerate(text):
            s = m[ord(ch)]
            if s == UNENCODABLE_MARK:
                s = "?"
                if issues is not None:
                    issues.append(TextIssue(IssueKind.UNENCODABLE, i, 1))
            out.append(s)
        return "".join(out).encode("latin-1")


#: Error records a one-piece decode for an accumulator may hold before it starts again in chunks
#: (about 1 MB of records; a run of lone error bytes is one).
_RECORD_CAP = 8192


class _TooManyRecords(Exception):
    """More error records than a :class:`_CappedRecords` keeps."""


class _CappedRecords(list[ErrorRecord]):
    """Error records, at most ``cap`` of them: one more raises :class:`_TooManyRecords` (from
    inside the C decoder's error handler too, which ends that decode call)."""

    __slots__ = ("cap",)

    def __init__(self, cap: int) -> None:
        super().__init__()
        self.cap = cap

    def append(self, record: ErrorRecord) -> None:
        if len(self) >= self.cap:
            raise _TooManyRecords
        list.append(self, record)

    def extend(self, records: Iterable[ErrorRecord]) -> None:
        for record in records:
            self.append(record)


def _encode_handler(exc: UnicodeError) -> tuple[bytes, int]:
    job = getattr(_local, "encode_job", None)
    if job is None or not isinstance(exc, UnicodeEncodeError):
        raise exc
    encode, issues = job
    text = exc.object
    out: list[bytes] = []
    for i in range(exc.start, exc.end):
        b = encode(ord(text[i])) if not 0xD800 <= ord(text[i]) <= 0xDFFF else None
        if b is None:
            b = b"?"
            if issues is not None:
                issues.append(TextIssue(IssueKind.UNENCODABLE, i, 1))
        out.append(b)
    return (b"".join(out), exc.end)


ENCODE_HANDLER = "onemail.cjk-encode"
codecs.register_error(ENCODE_HANDLER, _encode_handler)


UNENCODABLE_MARK = "\uffff"
"""What :class:`_EncodeMap` gives for a code point the encoder lacks (not Latin-1: the final
``encode("latin-1")`` fails on it, which sends us to the per-character path)."""


class _EncodeMap(dict[int, str]):
    """``str.translate`` table: code point -> the encoder's bytes as a Latin-1 ``str``.

    Filled lazily by ``__missing__`` from the family's per-code-point encoder (the standard's
    encoder algorithm), so repeated characters cost one C dict lookup.
    """

    __slots__ = ("_encode",)

    def __init__(self, encode: Callable[[int], bytes | None]) -> None:
        super().__init__()
        self._encode = encode

    def __missing__(self, cp: int) -> str:
        b = self._encode(cp) if not 0xD800 <= cp <= 0xDFFF else None
        s = UNENCODABLE_MARK if b is None else b.decode("latin-1")
        self[cp] = s
        return s


def first_pointers(table: str, skip: range | frozenset[int] | set[int] = range(0)) -> dict[int, int]:
    """Return ``{code point: first pointer}`` of a pointer-indexed table ("index pointer").

    :param skip: pointers to leave out (Shift_JIS and Big5 exclude ranges of their index).
    """
    m: dict[int, int] = {}
    for p in range(len(table) - 1, -1, -1):
        c = table[p]
        if c != NO_ENTRY and p not in skip:
            m[ord(c)] = p
    return m
