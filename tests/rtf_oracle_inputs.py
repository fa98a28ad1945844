"""The inputs given to the ``compressed_rtf`` oracle (tools/rtf_oracle.py records its answers).

Each input is ``(name, rtf, level, mela)``: every fifth RTF of the compressed-RTF corpus at
both compression levels, a few synthetic inputs (random bytes, long runs, a ring that wraps
many times), and one MELA stream.
"""

from __future__ import annotations

import random
from functools import cache

from rtf_corpus import streams


@cache
def inputs() -> tuple[tuple[str, bytes, int, bool], ...]:
    out = []
    for i, (row, _, rtf) in enumerate(streams()[::5]):
        out.append((f"corpus:{row['group']}", rtf, 1 + i % 2, False))
    rng = random.Random(2024)
    out.append(("random-8k", rng.randbytes(8192), 1, False))
    out.append(("random-8k-lazy", rng.randbytes(8192), 2, False))
    alphabet = [b"\\par ", b"{", b"}", b"\\'e9", b"hello ", b"\x00", b"\r\n", b"\\f0\\fs20 "]
    text = b"".join(rng.choice(alphabet) for _ in range(12000))
    out.append(("tokens-wrapping", text, 1, False))
    out.append(("tokens-wrapping-lazy", text, 2, False))
    out.append(("runs", b"a" * 3000 + b"ab" * 3000 + b"\x00" * 100, 1, False))
    out.append(("empty", b"", 1, False))
    out.append(("mela", b"{\\rtf1\\ansi hello}", 1, True))
    return tuple(out)
