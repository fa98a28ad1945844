"""JSON output in pieces: a long string is escaped a slice at a time, never whole.

``json.dumps`` builds the whole escaped text before anything is written, and escaping can make
a string six times longer: a text part of NUL bytes, kept as U+0000 characters, is written
``\\u0000`` (six characters a byte), and the encoded copy of that text doubles it again (a
64 MiB body of NULs cost 1.4 GB in ``onemail export``). :func:`json_pieces` gives the same
JSON text as :func:`dumps` (``json.dumps(value, ensure_ascii=False, ...)``, terminal-safe) as a run of pieces, none much
longer than ``6 * SLICE`` characters but the short-string rest, so a writer's memory stays a
small multiple of the input.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Iterator
from typing import Any

#: Characters JSON leaves as they are that drive or reorder a terminal when the JSON is shown
#: on one (``read --json`` in a terminal): DEL, the C1 controls (U+009B is a one-character CSI),
#: the line and paragraph separators and the bidirectional formatting characters (the set of
#: ``_safe.escape_for_terminal`` that JSON does not escape itself; it escapes U+0000..U+001F).
_TERMINAL_UNSAFE = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _escape(m: re.Match[str]) -> str:
    return f"\\u{ord(m.group()):04x}"


def terminal_safe(text: str) -> str:
    """JSON text with each character of :data:`_TERMINAL_UNSAFE` written as its ``\\uXXXX``
    escape: the same JSON value (those characters stand only inside strings), harmless on a
    terminal. Linear; ``text`` itself when there is none (one search in C)."""
    if _TERMINAL_UNSAFE.search(text) is None:
        return text
    return _TERMINAL_UNSAFE.sub(_escape, text)


def dumps(value: Any, *, indent: int | None = None, separators: tuple[str, str] | None = None) -> str:
    """``json.dumps(value, ensure_ascii=False, ...)`` made :func:`terminal_safe`: every JSON
    text onemail writes (``--json``, ``export``, ``detect --json``)."""
    return terminal_safe(json.dumps(value, ensure_ascii=False, indent=indent, separators=separators))


SLICE = 1 << 16
"""Characters of a long string escaped at a time (a piece of at most six times as many)."""
LONG = 1 << 12
"""Strings longer than this many characters are written apart, in slices of :data:`SLICE` (the
rest of the value is escaped in one go: its strings are short)."""


def json_pieces(value: Any, *, indent: int | None = None,
                separators: tuple[str, str] | None = None) -> Iterator[str]:
    """Yield the JSON text of ``value`` (:func:`dumps`, exactly) in pieces, each string longer than :data:`LONG`
    characters escaped :data:`SLICE` characters at a time.

    :param value: what ``json.dumps`` takes (dicts, lists, tuples, strings, numbers, ``None``).
    :returns: ``str`` pieces whose concatenation is the JSON text (no line end added).
    """
    long: list[str] = []
    token = secrets.token_hex(16)  # unguessable: a string of the input cannot pose as a marker

    def lift(o: Any) -> Any:
        if isinstance(o, str):
            if len(o) <= LONG:
                return o
            long.append(o)
            return f"{token}{len(long) - 1}"
        if isinstance(o, dict):
            return {k: lift(v) for k, v in o.items()}
        if isinstance(o, list | tuple):
            return [lift(v) for v in o]
        return o

    lifted = lift(value)
    text = dumps(lifted, indent=indent, separators=separators)
    if not long:
        yield text
        return
    start = 0
    for m in re.finditer(f'"{token}(\\d+)"', text):
        yield text[start:m.start() + 1]  # up to and with the opening quote
        s = long[int(m.group(1))]
        for i in range(0, len(s), SLICE):  # ensure_ascii=False escapes each character alone
            yield dumps(s[i:i + SLICE])[1:-1]
        start = m.end() - 1  # the closing quote starts the next piece
    yield text[start:]
