#!/usr/bin/env python3
"""Benchmark: RFC 2047 header decoding, onemail vs CPython's legacy ``email.header`` path.

Decodes every header value of ``../shared/corpus/mail/`` (top-level and MIME part headers, as
``tests/mail_headers.py`` reads them) with ``onemail.text.rfc2047.decode_text`` and with
``str(make_header(decode_header(v)))`` in the same run; best of several passes each, CPU time.
onemail gets the raw bytes (its native input; it also unfolds, reports issues and handles 8-bit
text); the stdlib gets the value as ``str`` (latin-1 of the bytes), since it accepts no bytes.
A value the stdlib raises on is still counted (the time of the failed call).

A second part times pathological 100 kB headers (long runs of almost-words that make a naive
"resume two bytes later" scanner quadratic) next to a normal 100 kB header of valid words.

Prints headers/s and MB/s for both and the ratio (goal: onemail >= 2x faster).
Run: ``python bench/rfc2047.py``. Needs the corpus; installs nothing.
"""

from __future__ import annotations

import sys
from email.header import decode_header, make_header
from pathlib import Path

from _timing import best

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from mail_headers import corpus_headers  # noqa: E402

from onemail.text.rfc2047 import decode_text  # noqa: E402


def _stdlib(values: list[str]) -> int:
    failed = 0
    for v in values:
        try:
            str(make_header(decode_header(v)))
        except Exception:  # LookupError, UnicodeError, HeaderParseError: counted, not fatal
            failed += 1
    return failed


def _onemail(values: list[bytes]) -> int:
    issues: list = []
    for v in values:
        decode_text(v, fallback="windows-1252", issues=issues)
    return len(issues)


def main() -> int:
    raw = [v for _, _, v in corpus_headers()]
    strs = [v.decode("latin-1") for v in raw]
    size = sum(len(v) for v in raw)
    n = len(raw)
    t_one = best(_onemail, raw, 5)
    t_std = best(_stdlib, strs, 3)
    failed = _stdlib(strs)
    print(f"corpus headers: {n} values, {size / 1e6:.2f} MB "
          f"(stdlib raised on {failed})")
    print(f"onemail decode_text:                  {n / t_one:12,.0f} headers/s  "
          f"{size / t_one / 1e6:7.2f} MB/s")
    print(f"stdlib str(make_header(decode_header)): {n / t_std:10,.0f} headers/s  "
          f"{size / t_std / 1e6:7.2f} MB/s")
    print(f"ratio onemail/stdlib: {t_std / t_one:.2f}x faster (goal >= 2x)")

    words = [v for v in raw if b"=?" in v]
    wsize = sum(len(v) for v in words)
    t_one_w = best(_onemail, words, 5)
    t_std_w = best(_stdlib, [v.decode("latin-1") for v in words], 3)
    print(f"only values with '=?' ({len(words)}, {wsize / 1e3:.0f} kB): onemail "
          f"{wsize / t_one_w / 1e6:.2f} MB/s, stdlib {wsize / t_std_w / 1e6:.2f} MB/s, "
          f"ratio {t_std_w / t_one_w:.2f}x")

    size = 100_000
    normal = (b"=?utf-8?q?Gr=C3=BC=C3=9Fe_aus_M=C3=BCnchen?= " * (size // 44))[:size]
    patho = {
        "=?a?q? (no ?=)": (b"=?a?q?" * (size // 6 + 1))[:size],
        "=?a?q?x...?= far": (b"=?a?q?x" * (size // 7))[:size - 2] + b"?=",
        "=?x?y?z (bad enc)": (b"=?x?y?z" * (size // 7 + 1))[:size],
        "=?utf-8?q?a\\r\\nb": (b"=?utf-8?q?a\r\nb" * (size // 14 + 1))[:size] + b"?=",
        "=?=?=?...": (b"=?" * (size // 2)),
    }
    t_norm = best(lambda v: decode_text(v, fallback="windows-1252", issues=[]), normal, 5)
    print(f"100 kB normal header (valid words): {t_norm * 1e3:8.2f} ms")
    for label, v in patho.items():
        t = best(lambda v: decode_text(v, fallback="windows-1252", issues=[]), v, 3)
        t10 = best(lambda v: decode_text(v, fallback="windows-1252", issues=[]), v * 10, 1)
        print(f"100 kB pathological {label:<20}: {t * 1e3:8.2f} ms ({t / t_norm:.1f}x normal); "
              f"1 MB: {t10 / t:.1f}x the 100 kB time (linear: ~10x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
