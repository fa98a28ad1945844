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
offsets.
"""

from __future__ import annotations

import codecs
import threading

from ..issues import IssueKind, TextIssue

__all__ = ["Codec", "recording", "RECORD", "RECORD_ENCODE"]

_local = threading.local()

RECORD = "onemail.record"
"""Name of the decode error handler that records each error span and writes U+FFFD."""
RECORD_ENCODE = "onemail.record-encode"
"""Name of the encode error handler that records each unencodable span and writes ``?``."""


def _record_decode(exc: UnicodeError):
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    _local.spans.append((exc.start, exc.end))
    return ("\ufffd", exc.end)


def _record_encode(exc: UnicodeError):
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    _local.spans.append((exc.start, exc.end))
    return ("?" * (exc.end - exc.start), exc.end)


codecs.register_error(RECORD, _record_decode)
codecs.register_error(RECORD_ENCODE, _record_encode)


class recording:  # noqa: N801 - used as a context manager, like a function
    """Collect the spans the ``onemail.record*`` error handlers see inside the ``with`` block.

    Re-entrant and thread-safe (the span list is per thread and saved/restored).
    ``spans`` is a list of ``(start, end)`` pairs: byte offsets for decoding, string indices for
    encoding.
    """

    __slots__ = ("spans", "_saved")

    def __enter__(self) -> list[tuple[int, int]]:
        self._saved = getattr(_local, "spans", None)
        self.spans = _local.spans = []
        return self.spans

    def __exit__(self, *exc) -> None:
        _local.spans = self._saved


def spans_to_issues(spans, kind: IssueKind, issues: list, offset: int) -> None:
    """Append one ``TextIssue(kind, offset + start, end - start)`` per span."""
    issues.extend(TextIssue(kind, offset + s, e - s) for s, e in spans)


def encode_with(codec_name: str, text: str, issues: list | None) -> bytes:
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


class Codec:
    """Base class of the family codecs (see the module docstring for the protocol)."""

    __slots__ = ("key",)

    #: issue kind for undecodable bytes of this family
    invalid_kind: IssueKind = IssueKind.INVALID_SINGLE_BYTE

    def __init__(self, key: str) -> None:
        self.key = key

    def decode(self, data: bytes, issues: list | None, offset: int) -> str:
        text, _, _ = self.decode_chunk(data, issues, offset, True, None)
        return text

    def decode_chunk(self, data, issues, offset, final, state):  # pragma: no cover - abstract
        raise NotImplementedError

    def encode(self, text: str, issues: list | None) -> bytes:  # pragma: no cover - abstract
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.key}>"
