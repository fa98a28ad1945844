"""Johab (KS X 1001 annex 3, code page 1361): CPython's ``johab`` codec with issue reporting.

The Encoding Standard has no Johab decoder; this is ambiguity T15 in ``docs/ambiguities.md``.
Decoding is CPython's ``johab`` C codec; each span its error handler is given (one unmappable
sequence: CPython decides how many bytes) becomes one U+FFFD and one ``InvalidJohab`` issue with
that span's byte offset and length. In streaming mode an incomplete sequence at the end of a
chunk ("incomplete multibyte sequence" reaching the end) is held back, not reported.
Encoding is CPython's ``johab`` encoder (``?`` plus ``Unencodable`` for what it lacks).
"""

from __future__ import annotations

import codecs
import threading
from typing import Any

from ..issues import IssueKind, TextIssue
from . import Codec, State, decode_bounded, encode_with

HANDLER = "onemail.johab"
_local = threading.local()
_decode = codecs.getdecoder("johab")


def _handler(exc: UnicodeError) -> tuple[str, int]:
    job = getattr(_local, "job", None)
    if job is None or not isinstance(exc, UnicodeDecodeError):
        raise exc
    end = len(exc.object)
    if not job[0] and exc.end == end and exc.reason.startswith("incomplete"):
        job[2] = exc.start
        return ("", end)
    job[1].append((exc.start, exc.end - exc.start))
    return ("\ufffd", exc.end)


codecs.register_error(HANDLER, _handler)


class JohabCodec(Codec):
    """Johab through CPython's codec (ambiguity T15)."""

    __slots__ = ()
    invalid_kind = IssueKind.INVALID_JOHAB

    def decode(self, data: bytes, issues: list[TextIssue] | None, offset: int) -> str:
        try:
            text: str = _decode(data)[0]
            return text
        except UnicodeDecodeError:
            pass
        bounded = decode_bounded(self, data, issues, offset)  # an accumulator: in chunks
        return bounded if bounded is not None else self.decode_chunk(data, issues, offset, True, None)[0]

    def decode_chunk(self, data: bytes, issues: list[TextIssue] | None, offset: int, final: bool,
                     state: State) -> tuple[str, int, State]:
        errors: list[tuple[int, int]] = []
        job: list[Any] = [final, errors, None]
        saved = getattr(_local, "job", None)
        _local.job = job
        try:
            text = _decode(data, HANDLER)[0]
        finally:
            _local.job = saved
        if issues is not None:
            issues.extend(TextIssue(IssueKind.INVALID_JOHAB, offset + o, n) for o, n in errors)
        consumed: int = len(data) if job[2] is None else job[2]
        return text, consumed, None

    def encode(self, text: str, issues: list[TextIssue] | None) -> bytes:
        return encode_with("johab", text, issues)


def codec(key: str) -> JohabCodec:
    """Return the Johab codec (``key`` is ``"johab"``)."""
    return JohabCodec(key)
