"""Private decoder and encoder families; one module per family (house style, encoding_rs).

Every family module exposes ``codec(key: str) -> Codec`` returning the codec for one of its
encodings. A :class:`Codec` has two faces:

* ``decode(data, issues, offset) -> str``: one-shot, ``final`` input; the hot path.
* ``decode_chunk(data, issues, offset, final, state) -> (text, consumed, state)``: streaming.
  ``consumed`` bytes of ``data`` are done; the caller keeps the rest and passes it again with
  the next chunk. ``state`` is an opaque immutable value (``None`` at the start) for stateful
  families (ISO-2022 shift state, UTF-7 base64 bits). Stateless families leave it ``None``.
* ``encode(text, issues) -> bytes``: characters the encoding lacks become ``?`` with an
  ``Unencodable`` issue whose offset is the index of the character in ``text``.

Issues are appended to ``issues`` (when it is not ``None``) with ``offset`` added to their byte
offsets, only with ``append`` and ``extend`` (or, for a :class:`~onemail.text.issues.BoundedIssues`,
``add_run``: ADR 0016).

Errors are collected as *error records* before they become issues: ``(offset, length)`` for one
error, or ``(offset, width, count)`` for ``count`` adjacent errors of ``width`` bytes each, so a
run of dense damage (10 MB of bytes no charset maps, issue 16) costs one record, not ten million.
:func:`report` turns records into issues: one per error for a list, one per run for a
``BoundedIssues``. The error handlers that record (``RECORD_UTF_8`` ...) take such a run in one
call: after an error, the bytes that are an error of one unit on their own from any state (UTF-8
``80..C1`` and ``F5..FF``; a lone UTF-16 trail surrogate; a UTF-32 unit above U+10FFFF or in
the surrogate range) are replaced there and then, as the codec would one call at a time.
"""

from __future__ import annotations

import codecs
import re
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ..issues import IssueKind, TextIssue

__all__ = ["Codec", "recording", "report", "decode_bounded", "decode_in_chunks", "RECORD",
           "RECORD_ENCODE"]

_local = threading.local()

#: An error record (module docstring): ``(offset, length)`` of one error, or
#: ``(offset, width, count)`` of ``count`` adjacent errors of ``width`` bytes each.
ErrorRecord = tuple[int, int] | tuple[int, int, int]
#: The opaque streaming state of a family (``None`` at the start; module docstring).
State = Any
#: A codec error handler: the replacement and where to go on.
_Handler = Callable[[UnicodeError], tuple[str, int]]

RECORD = "onemail.record"
"""Name of the decode error handler that records each error span and writes U+FFFD."""
RECORD_ENCODE = "onemail.record-encode"
"""Name of the encode error handler that records each unencodable span and writes ``?``."""


def _record_decode(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    spans = _local.spans
    spans.append((exc.start, exc.end - exc.start))
    if len(spans) >= _FLUSH:
        _flush(spans)
    return ("\ufffd", exc.end)


def _run_recorder(lone: bytes, width: int) -> _Handler:
    """Return a decode error handler that records the error, then the run of ``lone`` units.

    ``lone`` is a regex of one unit that is an error whatever comes before or after it; such
    units after the error are replaced and recorded as one ``(offset, width, count)`` record.
    """
    match = re.compile(b"(?:" + lone + b")*+").match  # possessive: no backtracking stack

    def handler(exc: UnicodeError) -> tuple[str, int]:
        if not isinstance(exc, UnicodeDecodeError):
            raise exc
        spans = _local.spans
        start, end = exc.start, exc.end
        spans.append((start, end - start))
        if len(spans) >= _FLUSH:
            _flush(spans)
        found = match(exc.object, end)
        assert found is not None  # a starred pattern always matches
        count = (found.end() - end) // width
        if not count:
            return ("\ufffd", end)
        spans.append((end, width, count))
        return ("\ufffd" * (count + 1), end + count * width)

    return handler


def _record_encode(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    _local.spans.append((exc.start, exc.end))
    return ("?" * (exc.end - exc.start), exc.end)


codecs.register_error(RECORD, _record_decode)
codecs.register_error(RECORD_ENCODE, _record_encode)

#: Decode error handlers that record runs (module docstring), per codec.
RECORD_UTF_8 = "onemail.record-utf-8"
RECORD_UTF_16LE = "onemail.record-utf-16le"
RECORD_UTF_16BE = "onemail.record-utf-16be"
RECORD_UTF_32LE = "onemail.record-utf-32le"
RECORD_UTF_32BE = "onemail.record-utf-32be"
_ANY = rb"[\x00-\xff]"
codecs.register_error(RECORD_UTF_8, _run_recorder(rb"[\x80-\xc1\xf5-\xff]", 1))
codecs.register_error(RECORD_UTF_16LE, _run_recorder(_ANY + rb"[\xdc-\xdf]", 2))
codecs.register_error(RECORD_UTF_16BE, _run_recorder(rb"[\xdc-\xdf]" + _ANY, 2))
# A UTF-32 unit above U+10FFFF (high byte not 0, or 0 then above 0x10) or a surrogate.
codecs.register_error(RECORD_UTF_32LE, _run_recorder(
    _ANY + rb"{3}[\x01-\xff]|" + _ANY + rb"{2}[\x11-\xff]\x00|" + _ANY + rb"[\xd8-\xdf]\x00\x00", 4))
codecs.register_error(RECORD_UTF_32BE, _run_recorder(
    rb"[\x01-\xff]" + _ANY + rb"{3}|\x00[\x11-\xff]" + _ANY + rb"{2}|\x00\x00[\xd8-\xdf]" + _ANY, 4))


class recording:  # noqa: N801 - used as a context manager, like a function
    """Collect the spans the ``onemail.record*`` error handlers see inside the ``with`` block.

    Re-entrant and thread-safe (the span list is per thread and saved/restored).
    ``spans`` is a list of error records (module docstring) for decoding, of ``(start, end)``
    string indices for encoding.

    :param issues: for decoding only: the destination issue list, or ``None``. When it is a
        :class:`~onemail.text.issues.BoundedIssues`, the records are handed to it every
        ``_FLUSH`` records (``kind`` and ``offset`` as in :func:`report`), so their memory stays
        bounded; the caller reports what is left.
    """

    __slots__ = ("spans", "sink", "_saved")

    def __init__(self, issues: list[TextIssue] | None = None, kind: IssueKind | None = None,
                 offset: int = 0) -> None:
        add_runs = getattr(issues, "add_runs", None)
        self.sink = None if add_runs is None else (add_runs, kind, offset)

    def __enter__(self) -> list[Any]:
        self._saved = (getattr(_local, "spans", None), getattr(_local, "sink", None))
        self.spans = _local.spans = []
        _local.sink = self.sink
        return self.spans

    def __exit__(self, *exc: object) -> None:
        _local.spans, _local.sink = self._saved


#: Records a recording hands to its BoundedIssues at a time.
_FLUSH = 4096


def _flush(spans: list[ErrorRecord]) -> None:
    sink = _local.sink
    if sink is not None:
        add_runs, kind, offset = sink
        add_runs(kind, _runs(spans, offset))
        spans.clear()


def report(records: Iterable[ErrorRecord], kind: IssueKind, issues: list[TextIssue], offset: int) -> None:
    """Add the errors of ``records`` (module docstring) to ``issues``, ``offset`` added.

    A list gets one ``TextIssue(kind, offset + o, length)`` per error, in order. An issue list
    with ``add_runs`` (:class:`~onemail.text.issues.BoundedIssues`) gets the runs of adjacent
    errors in one call, which is what appending each error would give it, without making an
    object per error.
    """
    if not records:
        return
    add_runs = getattr(issues, "add_runs", None)
    if add_runs is None:
        append = issues.append
        for r in records:
            if len(r) == 2:
                append(TextIssue(kind, offset + r[0], r[1]))
            else:
                o, w, n = r
                o += offset
                issues.extend(TextIssue(kind, o + k * w, w) for k in range(n))
        return
    add_runs(kind, _runs(records, offset))


def _runs(records: Iterable[ErrorRecord], offset: int) -> Iterator[tuple[int, int]]:
    """Yield ``(offset, length)`` of each run of adjacent errors in ``records``."""
    start = end = -1
    for r in records:
        o = offset + r[0]
        stop = o + (r[1] if len(r) == 2 else r[1] * r[2])
        if o == end and stop > o:
            end = stop
            continue
        if start >= 0:
            yield start, end - start
        start, end = o, stop
        if stop == o:  # a position: never part of a run
            yield o, 0
            start = end = -1
    if start >= 0:
        yield start, end - start


def encode_with(codec_name: str, text: str, issues: list[TextIssue] | None) -> bytes:
    """Encode ``text`` with a Python codec, ``?`` plus ``Unencodable`` for what it lacks."""
    try:
        return text.encode(codec_name)
    except UnicodeEncodeError:
        pass
    with recording() as spans:
        out = text.encode(codec_name, RECORD_ENCODE)
    if issues is not None:
        for s, e in spans:
            # One issue per character; a surrogate pair in a str is never formed, so
            # each index is one code point.
            issues.extend(TextIssue(IssueKind.UNENCODABLE, i, 1) for i in range(s, e))
    return out


#: Bytes per chunk when a family that keeps records of its own decodes for an accumulator
#: (:func:`decode_bounded`): at most one record per byte of a chunk exists at a time (a few MB).
BOUNDED_CHUNK = 1 << 16


def decode_bounded(codec: Codec, data: bytes, issues: list[TextIssue] | None, offset: int) -> str | None:
    """One-shot decoding through ``decode_chunk`` in chunks of :data:`BOUNDED_CHUNK` bytes, when
    ``issues`` is an accumulator (a ``list`` subclass such as
    :class:`~onemail.text.issues.BoundedIssues`) and ``data`` is longer than a chunk; else
    ``None`` (the caller decodes in one piece).

    The families whose one-shot decoding holds an error record or issue per error before it
    reports (the CJK handler pass, ISO-2022, HZ, UTF-7, Johab: issue 16, 10 MB of ``81 20``
    as Shift_JIS held 4.5 GB of records) call this first, so their own memory follows one
    chunk. Streaming equals one-shot decoding at every split (tests/properties), so the text
    and the issues, in order, are what one piece gives; a plain list keeps the one-piece path.
    """
    if issues is None or type(issues) is list or len(data) <= BOUNDED_CHUNK:
        return None
    return decode_in_chunks(codec, data, issues, offset)


def decode_in_chunks(codec: Codec, data: bytes, issues: list[TextIssue] | None, offset: int) -> str:
    """One-shot decoding of ``data`` through ``codec.decode_chunk`` in chunks of
    :data:`BOUNDED_CHUNK` bytes (what :class:`~onemail.text.charsets.IncrementalDecoder` does):
    the same text and issues as one piece, with the family's own memory of one chunk."""
    n = len(data)
    out = []
    pending = b""
    state = None
    position = offset  # stream offset of pending[0]
    for at in range(0, n, BOUNDED_CHUNK):
        chunk = data[at:at + BOUNDED_CHUNK]
        buf = pending + chunk if pending else chunk
        text, used, state = codec.decode_chunk(buf, issues, position, at + BOUNDED_CHUNK >= n, state)
        out.append(text)
        position += used
        pending = buf[used:]
    return "".join(out)


class Codec:
    """Base class of the family codecs (see the module docstring for the protocol)."""

    __slots__ = ("key",)

    #: issue kind for undecodable bytes of this family
    invalid_kind: IssueKind = IssueKind.INVALID_SINGLE_BYTE

    def __init__(self, key: str) -> None:
        self.key = key

    def decode(self, data: bytes, issues: list[TextIssue] | None, offset: int) -> str:
        text, _, _ = self.decode_chunk(data, issues, offset, True, None)
        return text

    def decode_chunk(self, data: bytes, issues: list[TextIssue] | None, offset: int, final: bool,
                     state: State) -> tuple[str, int, State]:  # pragma: no cover - abstract
        raise NotImplementedError

    def encode(self, text: str, issues: list[TextIssue] | None) -> bytes:  # pragma: no cover - abstract
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.key}>"
