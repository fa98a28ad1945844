"""Benchmark: onemail's UTF-7 decoder and encoder against CPython's C ``utf-7`` codec.

Same text for both (CJK, and German/French prose; about 1 MB of UTF-7 each, made by
CPython's encoder), best of several runs;
prints MB/s of UTF-7 bytes and the ratio onemail / CPython (goal for decoding: >= 0.3). The
"+damage" lines decode the same bytes with one byte >= 0x80 per KiB (onemail's own path).
Run: ``python bench/utf7.py``.
"""

from __future__ import annotations

import time
from functools import partial

import _timing

from onemail.text import for_label

# Ordinary German and French prose (about one accented letter in 25 characters).
LATIN = ("Sehr geehrte Damen und Herren, vielen Dank für Ihre Nachricht vom letzten Montag. "
         "Wir haben die Unterlagen geprüft und senden Ihnen die gewünschten Informationen "
         "bis spätestens Freitag zu. Mit freundlichen Grüßen aus München.\r\n"
         "Nous avons bien reçu votre demande et nous vous répondrons dans les meilleurs délais. "
         "Veuillez agréer nos salutations distinguées.\r\n")
CJK = ("日本語のテキストをエンコードします。中文文本，한국어 텍스트도 포함합니다。\r\n"
       "漢字とかなの混じった長い行が続きます、郵便番号〒100-0001。\r\n")

# this script times wall clock, the best of 15 calls
best = partial(_timing.best, repeat=15, clock=time.perf_counter)


def main() -> None:
    cs = for_label("utf-7")
    for name, unit in (("latin", LATIN), ("cjk", CJK)):
        text = unit * (1_000_000 // len(unit.encode("utf-7")))
        data = text.encode("utf-7")
        assert cs.decode(data) == text
        assert cs.encode(text).decode("utf-7") == text
        mb = len(data) / 1e6
        ours = best(cs.decode, data)
        theirs = best(lambda d: d.decode("utf-7"), data)
        print(f"utf7 decode {name:13}: onemail {mb / ours:8.1f} MB/s  cpython {mb / theirs:8.1f} MB/s"
              f"  ratio {theirs / ours:.2f}")
        # The same bytes with one damaged byte per KiB: CPython's C decoder refuses them, so
        # onemail takes its own path (re.split, a2b_base64, UTF-16-BE) and reports each one.
        damaged = b"".join(data[i:i + 1024] + b"\x80" for i in range(0, len(data), 1024))
        ours = best(cs.decode, damaged)
        theirs = best(lambda d: d.decode("utf-7", "replace"), damaged)
        print(f"utf7 decode {name + '+damage':13}: onemail {mb / ours:8.1f} MB/s  cpython "
              f"{mb / theirs:8.1f} MB/s  ratio {theirs / ours:.2f}")
        ours = best(cs.encode, text)
        theirs = best(lambda t: t.encode("utf-7"), text)
        print(f"utf7 encode {name:13}: onemail {mb / ours:8.1f} MB/s  cpython {mb / theirs:8.1f} MB/s"
              f"  ratio {theirs / ours:.2f}")


if __name__ == "__main__":
    main()
