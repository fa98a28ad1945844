"""The mbox split as first written (before :class:`onemail.message.mbox._Marks`): every
``"\\nFrom "`` line found by ``find`` and every message's header section read for a
``Content-Length`` (M20-M22). The tests hold :func:`onemail.message.mbox.spans`, which searches
ahead with the regular-expression engine and reads a header only when a ``content-length`` line
is in it, to the same spans."""

from __future__ import annotations

import random
from collections.abc import Iterator

from onemail.message.mbox import (
    Data,
    MboxSpan,
    _inside_length,
    _length_field,
    _length_target,
    _starts_message,
    trim_end,
)


def reference_spans(data: Data, start: int = 0, end: int | None = None) -> Iterator[MboxSpan]:
    """The spans of ``data[start:end]`` by the rule read straight (no marks)."""
    n = len(data) if end is None else min(end, len(data))
    if data[start:start + 5] != b"From ":
        return
    sep = start
    while True:
        nl = data.find(b"\n", sep, n)
        if nl < 0:
            return
        first = nl + 1
        length, body = _length_field(data, first, n)
        if length is not None and body >= 0 and body + length <= n:
            target = body + length
            nxt = _length_target(data, target, n)
            if nxt is not None:
                conflict, quoted = _inside_length(data, body, target)
                yield MboxSpan(first, target, sep, True, quoted, (), conflict)
                if nxt < 0:
                    return
                sep = nxt
                continue
        unsplit: list[int] = []
        j = first - 1
        while True:
            j = data.find(b"\nFrom ", j, n)
            if j < 0:
                yield MboxSpan(first, trim_end(data, first, n), sep, False, True, tuple(unsplit))
                return
            line = j + 1
            if _starts_message(data, line, n)[0]:
                yield MboxSpan(first, trim_end(data, first, line), sep, False, True, tuple(unsplit))
                sep = line
                break
            unsplit.append(line)
            j = line


#: Lines and fields the mbox rules look at, for random mailboxes (``%d``: a random length).
ENVELOPE = b"From a@b Sat Jan  1 00:00:00 2000\n"
PIECES = (ENVELOPE, b"From - Mon Jan  1 00:00:00 2020\n", b"From \n", b"From 9:30 until 10:00\n",
          b"From :x\n", b"From: a@b\n", b"Subject: hi\n", b"Date: Mon\n", b"X-Foo: bar\n",
          b"Content-Length: %d\n", b"content-LENGTH:%d\r\n", b"CONTENT-LENGTH : %d\n",
          b"Content-Length: 99999999999\n", b"\n", b"\r\n", b"body line\n", b">From x\n", b" cont\n",
          b"From x\r\n", b"Received: x\r\n", b"X-Content-Length: 3\n", b"Content-Lengthy: 3\n")


def random_mailbox(rng: random.Random) -> bytes:
    """A mailbox of :data:`PIECES` (about one in twenty a whole message whose Content-Length
    is right, its body pieces too), starting with a separator four times in ten."""
    out = bytearray(b"From x\n" if rng.random() < 0.4 else b"")
    for _ in range(rng.randint(0, 60)):
        piece = rng.choice(PIECES)
        if rng.random() < 0.05:  # a message whose Content-Length is right (its body: pieces too)
            body = b"".join(rng.choice(PIECES).replace(b"%d", b"2") for _ in range(rng.randint(0, 6)))
            piece = ENVELOPE + b"Subject: l\nContent-Length: %d\n\n" % len(body) + body + rng.choice([b"", b"\n"])
        out += piece % rng.randint(0, 80) if b"%d" in piece else piece
    return bytes(out)
