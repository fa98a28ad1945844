#!/usr/bin/env python3
"""Benchmark: every bomb class of issue 16 at two sizes, each run in a fresh process.

For each class, ``make(n)`` builds an input of about ``n`` bytes that attacks one place (a
TNEF PtypNull count, a storm of line ends, RFC 2231 duplicates, ...); a child process
(``python bench/bombs.py --child CLASS N``) builds it, runs the public entry point on it and
reports the CPU time of the run and its peak RSS (``ru_maxrss``: the interpreter, the input and
everything the run allocated). The parent prints, per class and size, the input size, time,
peak RSS, the growth of both from one size to the next, and whether the class meets the goals
of issue 16:

* **time linear**: from one size to the next, the time grows at most ``1.3 x`` as much as the
  input (doubling the input at most about doubles the time); times under ``MIN_SECONDS`` at
  both sizes are noise and pass;
* **memory**: peak RSS at most ``4 x`` the input plus 50 MB at every size.

A child that runs longer than ``--timeout`` seconds is stopped and the class fails (the bigger
size is then not tried). The last lines list the classes that fail.

Run: ``python bench/bombs.py`` (1 MB and 8 MB; a few minutes when every class holds),
``python bench/bombs.py --quick`` (one 256 kB size, time not compared), ``--only NAME,...``
to run some classes, ``--sizes 1000000,4000000`` for others. Installs nothing; needs no corpus.
"""

from __future__ import annotations

import argparse
import json
import resource
import struct
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MB = 1_000_000
#: Below this many CPU seconds at both sizes, a time ratio is noise: the class passes.
MIN_SECONDS = 0.5
#: The time may grow this much more than the input from one size to the next.
TIME_SLACK = 1.3
#: Peak RSS may be at most this many times the input, plus ``RSS_BASE`` bytes.
RSS_FACTOR = 4
RSS_BASE = 50 * 2**20


def _eml(headers: bytes, body: bytes) -> bytes:
    return b"From: a@example.com\r\nTo: b@example.com\r\n" + headers + b"\r\n" + body


def _repeat(unit: bytes, n: int) -> bytes:
    return unit * max(1, n // len(unit))


# --------------------------------------------------------------------------- the inputs

def tnef_ptypnull(n: int) -> bytes:
    """TNEF attMsgProps of multi-valued PtypNull properties (type 0x1001) counting 2^20 values
    each: zero-size values, 8 input bytes per property (issue 16 item 2)."""
    props = max(1, (n - 21) // 8)
    data = struct.pack("<I", props) + struct.pack("<HHI", 0x1001, 0x6000, 1 << 20) * props
    att = struct.pack("<BII", 1, 0x00069003, len(data)) + data + struct.pack("<H", sum(data) & 0xFFFF)
    return struct.pack("<IH", 0x223E9F78, 0) + att


def crlf_storm(n: int) -> bytes:
    """A message whose body is nothing but CRLF."""
    return _eml(b"Subject: storm\r\n", _repeat(b"\r\n", n))


def rfc2231_duplicates(n: int) -> bytes:
    """One Content-Disposition of RFC 2231 duplicates, cut into header fields of 512 kB."""
    field = b"Content-Disposition: attachment" + _repeat(b"; filename*0*=a", min(n, 512_000)) + b"\r\n"
    return _eml(field * max(1, n // len(field)), b"x\r\n")


def rfc2231_continuations(n: int) -> bytes:
    """RFC 2231 continuations filename*0 .. filename*N (fields of 512 kB)."""
    fields, k, size = [], 0, 0
    while size < n:
        parts = []
        length = 0
        while length < 512_000 and size + length < n:
            p = b"; filename*%d=a" % k
            parts.append(p)
            length += len(p)
            k += 1
        field = b"Content-Disposition: attachment" + b"".join(parts) + b"\r\n"
        fields.append(field)
        size += len(field)
    return _eml(b"".join(fields), b"x\r\n")


def qp_soft_breaks(n: int) -> bytes:
    """A quoted-printable body of soft line breaks only."""
    return _eml(b"Content-Transfer-Encoding: quoted-printable\r\n", _repeat(b"=\r\n", n))


def mime_parts(n: int) -> bytes:
    """A multipart message of tiny parts (10^5 parts per 3.4 MB)."""
    part = b"--b\r\nContent-Type: text/plain\r\n\r\nx\r\n"
    return _eml(b'MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="b"\r\n',
                _repeat(part, n) + b"--b--\r\n")


def repair_text(n: int) -> str:
    """Mojibake for repair(): UTF-8 read as windows-1252, as a str of about n characters."""
    return _repeat("CafÃ© dÃ©jÃ  vu, Ã¼ber naÃ¯ve. ".encode(), n).decode()


def repair_str(unit: str):
    """repair() of ``unit`` repeated (a ``str`` of about n UTF-8 bytes)."""
    def make(n: int) -> str:
        return unit * max(1, n // len(unit.encode("utf-8", "surrogatepass")))
    make.__doc__ = f"repair() of {unit!r} repeated, about n UTF-8 bytes."
    return make


def detect_bytes(unit: bytes):
    def make(n: int) -> bytes:
        return _repeat(unit, n)
    make.__doc__ = f"detect() of {unit!r} repeated."
    return make


def mojibake_body(n: int) -> bytes:
    """A text/plain body declared UTF-8 whose text is UTF-8 read as windows-1252 (the
    SuspectedMojibake check of read(), and read(repair=True)'s repair of it)."""
    return _body(b"utf-8", _repeat("Grüße aus München, schöne Größe. ".encode().decode("windows-1252").encode(), n))


def mojibake_fields(n: int) -> bytes:
    """A header of fields ``X-A: CafÃ© dÃ©jÃ `` (each value checked for mojibake)."""
    return _eml("X-A: CafÃ© dÃ©jÃ \r\n".encode() * max(1, n // 24), b"x\r\n")


def encoded_words(n: int) -> bytes:
    """Header text of adjacent encoded words (10^6 per 15 MB)."""
    return _repeat(b"=?utf-8?q?a?= ", n)


def rtf_unicode(n: int) -> bytes:
    """Encapsulated text of \\uN control words (10^6 per 7 MB)."""
    return (b"{\\rtf1\\ansi\\ansicpg1252\\fromtext \\deff0{\\fonttbl{\\f0 Arial;}}"
            + _repeat(b"\\u1234?", n) + b"}")


def big_eml(n: int) -> bytes:
    """An ordinary message with a long text body (the 100 MB .eml, scaled)."""
    return _eml(b"Subject: big\r\nContent-Type: text/plain; charset=utf-8\r\n",
                _repeat(b"An ordinary line of mail text, nothing special in it.\r\n", n))


def shift_jis_invalid(n: int) -> bytes:
    """A text/plain body declared Shift_JIS, every byte invalid (0xFF)."""
    return _eml(b"Content-Type: text/plain; charset=shift_jis\r\n", b"\xff" * n)


def encoded_word_openers(n: int) -> bytes:
    """Header fields of 1 MiB of ``=?`` (20 of them for 20 MiB)."""
    field = b"Subject: " + b"=?" * (2**20 // 2) + b"\r\n"
    return _eml(field * max(1, n // len(field)), b"x\r\n")


def utf8_ff(n: int) -> bytes:
    """A text/plain body declared UTF-8, every byte 0xFF."""
    return _eml(b"Content-Type: text/plain; charset=utf-8\r\n", b"\xff" * n)


def rtf_digits(n: int) -> bytes:
    """An RTF control word whose parameter is n digits."""
    return b"{\\rtf" + b"1" * n + b"}"


def param_digits(n: int) -> bytes:
    """An RFC 2231 section number of n digits."""
    return b"attachment; filename*" + b"1" * n + b"=x"


def param_comment(n: int) -> bytes:
    """A parameter value followed by n spaces and ``b)`` (the trailing-comment strip)."""
    return b"attachment; filename=a" + b" " * n + b"b)"


def mbox_from_line(n: int) -> bytes:
    """An mbox whose unterminated last ``From `` line is full of ``0:00 ``."""
    return b"From a@b Thu Jan  1 00:00:00 2024\r\nSubject: x\r\n\r\nbody\r\nFrom " + _repeat(b"0:00 ", n)


def codec_literal_fffd(n: int) -> bytes:
    """Literal U+FFFD and invalid bytes for ``onemail-utf-8`` with ``errors="ignore"``."""
    return _repeat(b"\xef\xbf\xbd\xff", n)


def _fields(name: bytes, value: bytes, n: int) -> bytes:
    """Header fields ``name: value`` of about 1 MiB each, about ``n`` bytes in all."""
    field = name + b": " + value + b"\r\n"
    return _eml(field * max(1, n // len(field)), b"x\r\n")


def address_quotes(n: int) -> bytes:
    """``To:`` fields of ``"\\`` repeated: every quote unterminated (each scanned to the
    field's end, before: quadratic)."""
    return _fields(b"To", _repeat(b'"\\', min(n, 1 << 20) - 8), n)


def comment_parens(n: int) -> bytes:
    """``Content-Transfer-Encoding:`` of ``(\\`` repeated: comments that never close (a
    regular expression tried from every ``(``, before: quadratic)."""
    return _fields(b"Content-Transfer-Encoding", _repeat(b"(\\", min(n, 1 << 20) - 32), n)


def many_fields(n: int) -> bytes:
    """A header of ``n / 7`` fields ``X-A: b``."""
    return _eml(b"X-A: b\r\n" * (n // 8), b"x\r\n")


def _body(label: bytes, body: bytes) -> bytes:
    return _eml(b"Content-Type: text/plain; charset=" + label + b"\r\n", body)


def word_b_invalid(n: int) -> bytes:
    """1 MiB header fields, each one B encoded word of 0xFF bytes declared UTF-8."""
    import base64

    return _fields(b"Subject", b"=?utf-8?b?" + base64.b64encode(b"\xff" * 786_000) + b"?=", n)


def word_q_invalid(n: int) -> bytes:
    """1 MiB header fields, each one Q encoded word of ``=FF`` declared UTF-8."""
    return _fields(b"Subject", b"=?utf-8?q?" + b"=FF" * 349_000 + b"?=", n)


def words_q_invalid(n: int) -> bytes:
    """1 MiB header fields of adjacent encoded words ``=?utf-8?q?=FF?=``."""
    return _fields(b"Subject", b"=?utf-8?q?=FF?= " * 65_000, n)


def param_percent_invalid(n: int) -> bytes:
    """1 MiB Content-Disposition fields: an RFC 2231 value of ``%FF`` declared UTF-8."""
    return _fields(b"Content-Disposition", b"attachment; filename*=utf-8''" + b"%FF" * 349_000, n)


def param_raw_invalid(n: int) -> bytes:
    """1 MiB Content-Disposition fields: a quoted value of raw 0xFF (8-bit, not UTF-8)."""
    return _fields(b"Content-Disposition", b'attachment; filename="' + b"\xff\x80" * 500_000 + b'"', n)


def raw_8bit_header(n: int) -> bytes:
    """1 MiB Subject fields of raw 0xFF 0x80 (8-bit header text, not UTF-8)."""
    return _fields(b"Subject", b"\xff\x80" * 500_000, n)


def utf7_invalid(n: int) -> bytes:
    """A text/plain body declared UTF-7, every byte 0xFF (not UTF-7)."""
    return _body(b"utf-7", b"\xff" * n)


def utf7_bad_base64(n: int) -> bytes:
    """A UTF-7 body of ``+A-`` (a base64 run too short for a character) repeated."""
    return _body(b"utf-7", _repeat(b"+A-", n))


def iso2022_invalid(n: int) -> bytes:
    """A text/plain body declared ISO-2022-JP, every byte 0xFF."""
    return _body(b"iso-2022-jp", b"\xff" * n)


def iso2022_bad_escapes(n: int) -> bytes:
    """An ISO-2022-JP body of unknown escape sequences ``ESC ( Z``."""
    return _body(b"iso-2022-jp", _repeat(b"\x1b(Z", n))


def nul_body(media_type: bytes):
    """A text part of NUL bytes (kept as U+0000, escaped as six characters each in JSON)."""
    def make(n: int) -> bytes:
        return _eml(b"Subject: nul\r\nContent-Type: " + media_type + b"; charset=us-ascii\r\n", b"\0" * n)
    return make


def nul_utf16_unaligned(n: int) -> bytes:
    """UTF-16LE text of U+0001 U+0100 (NUL byte pairs off the unit boundary) and one NUL at the
    end: the search for the first NUL unit of ``AmbiguousNulInText``."""
    body = _repeat(b"\x01\x00\x00\x01", n) + b"\x00\x00"
    return _eml(b"Subject: nul\r\nContent-Type: text/plain; charset=utf-16le\r\n", body)


def cjk_lead_ascii(label: bytes):
    def make(n: int) -> bytes:
        return _body(label, _repeat(b"\x81\x20", n))
    make.__doc__ = f"A body declared {label.decode()}: a lead byte before ASCII, repeated."
    return make


def export_run(data):
    """``onemail export FILE -o /dev/null``: reading, records and their JSON Lines."""
    import os
    import tempfile

    from onemail.cli import main
    with tempfile.NamedTemporaryFile(suffix=".eml") as f:
        f.write(data)
        f.flush()
        main(["export", "-o", os.devnull, f.name])


def tnef_run(data):
    from onemail.message import read
    read(data)


def read_run(data):
    from onemail.message import read
    read(data)


def mbox_run(data):
    from onemail.message import read_mbox
    for _ in read_mbox(data):
        pass


def repair_run(text):
    from onemail.detect import repair
    repair(text)


def detect_run(data):
    from onemail.detect import detect
    detect(data)


def read_repair_run(data):
    from onemail.message import read
    read(data, repair=True)


def words_run(data):
    from onemail.text.rfc2047 import decode_text
    decode_text(data, issues=[])


def rtf_run(data):
    from onemail.rtf import deencapsulate
    deencapsulate(data)


def params_run(data):
    from onemail.text.rfc2231 import parse_header_params
    parse_header_params(data)


def codec_run(data):
    import onemail.text  # noqa: F401 - registers the codecs
    data.decode("onemail-utf-8", "ignore")


def bounded_run(data):
    from onemail.text import for_label
    from onemail.text.issues import BoundedIssues
    for_label("shift_jis").decode(data, BoundedIssues())


#: name -> (make, run, what it is)
CLASSES = {
    "tnef-ptypnull": (tnef_ptypnull, tnef_run, "read(): TNEF multi-valued PtypNull"),
    "crlf-storm": (crlf_storm, read_run, "read(): a body of CRLF"),
    "rfc2231-duplicates": (rfc2231_duplicates, read_run, "read(): RFC 2231 duplicates"),
    "rfc2231-continuations": (rfc2231_continuations, read_run, "read(): filename*0..N"),
    "qp-soft-breaks": (qp_soft_breaks, read_run, "read(): quoted-printable =CRLF"),
    "mime-parts": (mime_parts, read_run, "read(): 10^5 MIME parts per 3.4 MB"),
    "repair": (repair_text, repair_run, "detect.repair() of mojibake"),
    "repair-hangul": (repair_str("\ub620"), repair_run, "repair(): Hangul without white space"),
    "repair-chinese": (repair_str("中文的文字处理"), repair_run, "repair(): Chinese without white space"),
    "repair-private-han": (repair_str("\ue000中"), repair_run, "repair(): private use and Han"),
    "repair-lost-bytes": (repair_str("\u00c4\ufffd"), repair_run, "repair(): 'Ä' + U+FFFD runs (D19)"),
    "repair-lost-space": (repair_str("\u00c3 "), repair_run, "repair(): 'Ã ' (a lost no-break space)"),
    "repair-surrogates": (repair_str("a\udc80\u00c3\u00a9"), repair_run, "repair(): lone surrogates in mojibake"),
    "repair-c1": (repair_str("\x81"), repair_run, "repair(): C1 controls"),
    "repair-latin1-all": (repair_str("".join(map(chr, range(0xA0, 0x100)))), repair_run, "repair(): every Latin-1 letter"),
    "detect-high-byte": (detect_bytes(b"\xe9"), detect_run, "detect(): one high byte repeated"),
    "detect-alternating": (detect_bytes(b"\xc3\x28"), detect_run, "detect(): a UTF-8 lead before ASCII"),
    "detect-nul": (detect_bytes(b"\0"), detect_run, "detect(): NUL bytes"),
    "detect-utf16-shape": (detect_bytes(b"a\x00\xe9\x00"), detect_run, "detect(): UTF-16LE shape"),
    "mojibake-body": (mojibake_body, read_run, "read(): a double-encoded UTF-8 body (the M16 check)"),
    "mojibake-body-repair": (mojibake_body, read_repair_run, "read(repair=True): the same body repaired"),
    "mojibake-fields": (mojibake_fields, read_run, "read(): header fields of mojibake (M16, M56 cap)"),
    "encoded-words": (encoded_words, words_run, "rfc2047.decode_text: 10^6 words per 15 MB"),
    "rtf-unicode": (rtf_unicode, rtf_run, "deencapsulate: \\uN words"),
    "big-eml": (big_eml, read_run, "read(): a plain message"),
    "shift-jis-invalid": (shift_jis_invalid, read_run, "read(): invalid Shift_JIS body"),
    "shift-jis-bounded": (lambda n: b"\xff" * n, bounded_run, "Charset.decode into BoundedIssues"),
    "encoded-word-openers": (encoded_word_openers, read_run, "read(): 1 MiB headers of =?"),
    "utf8-ff": (utf8_ff, read_run, "read(): 0xFF declared UTF-8"),
    "rtf-digits": (rtf_digits, rtf_run, "deencapsulate: a parameter of n digits"),
    "param-digits": (param_digits, params_run, "parse_header_params: section of n digits"),
    "param-comment": (param_comment, params_run, "parse_header_params: trailing comment strip"),
    "mbox-from-line": (mbox_from_line, mbox_run, "read_mbox: unterminated From line"),
    "codec-literal-fffd": (codec_literal_fffd, codec_run, "onemail-utf-8 'ignore', literal U+FFFD"),
    "word-b-invalid": (word_b_invalid, read_run, "read(): B word of 0xFF in 1 MiB headers"),
    "word-q-invalid": (word_q_invalid, read_run, "read(): Q word of =FF in 1 MiB headers"),
    "words-q-invalid": (words_q_invalid, read_run, "read(): adjacent =?utf-8?q?=FF?= words"),
    "param-percent-invalid": (param_percent_invalid, read_run, "read(): RFC 2231 %FF values"),
    "param-raw-invalid": (param_raw_invalid, read_run, "read(): quoted 8-bit parameter values"),
    "raw-8bit-header": (raw_8bit_header, read_run, "read(): raw 8-bit header text"),
    "utf7-invalid": (utf7_invalid, read_run, "read(): 0xFF declared UTF-7"),
    "utf7-bad-base64": (utf7_bad_base64, read_run, "read(): UTF-7 +A- runs"),
    "iso2022-invalid": (iso2022_invalid, read_run, "read(): 0xFF declared ISO-2022-JP"),
    "iso2022-bad-escapes": (iso2022_bad_escapes, read_run, "read(): unknown ISO-2022 escapes"),
    "shift-jis-lead-ascii": (cjk_lead_ascii(b"shift_jis"), read_run, "read(): Shift_JIS 81 20"),
    "gb18030-lead-ascii": (cjk_lead_ascii(b"gb18030"), read_run, "read(): gb18030 81 20"),
    "big5-lead-ascii": (cjk_lead_ascii(b"big5"), read_run, "read(): Big5 81 20"),
    "euc-jp-lead-ascii": (cjk_lead_ascii(b"euc-jp"), read_run, "read(): EUC-JP 8E 20"),
    "euc-kr-lead-ascii": (cjk_lead_ascii(b"euc-kr"), read_run, "read(): EUC-KR 81 20"),
    "nul-text-export": (nul_body(b"text/plain"), export_run, "onemail export: text/plain of NULs"),
    "nul-html-export": (nul_body(b"text/html"), export_run, "onemail export: text/html of NULs"),
    "nul-utf16-unaligned": (nul_utf16_unaligned, read_run, "read(): UTF-16 NUL bytes off the units"),
    "address-quotes": (address_quotes, read_run, "read(): To: of unterminated quotes"),
    "comment-parens": (comment_parens, read_run, "read(): CTE of unclosed comments"),
    "many-fields": (many_fields, read_run, "read(): a header of 8-byte fields"),
}


# ------------------------------------------------------------------------------- running

def child(name: str, n: int) -> None:
    """Build the input of ``name`` at size ``n``, run it, print one JSON line."""
    sys.path.insert(0, str(ROOT / "src"))
    make, run, _ = CLASSES[name]
    data = make(n)
    size = len(data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data)
    t = time.process_time()
    error = None
    try:
        run(data)
    except BaseException as exc:  # noqa: BLE001 - a bomb that raises is a finding, reported
        error = f"{type(exc).__name__}: {str(exc)[:80]}"
    seconds = time.process_time() - t
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux: kB
    print(json.dumps({"input": size, "seconds": seconds, "peak": peak, "error": error}))


def measure(name: str, n: int, timeout: float) -> dict:
    try:
        out = subprocess.run([sys.executable, __file__, "--child", name, str(n)],
                             capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return {"timeout": timeout}
    lines = out.stdout.strip().splitlines()
    if out.returncode or not lines:
        return {"error": (out.stderr.strip().splitlines() or [f"exit {out.returncode}"])[-1][:100]}
    return json.loads(lines[-1])


def verdict(rows: list[dict]) -> list[str]:
    """The goals each measured class misses (empty: it meets them)."""
    misses = []
    for r in rows:
        if "timeout" in r:
            return [f"timeout after {r['timeout']:.0f} s"]
        if r.get("error"):
            misses.append(f"error: {r['error']}")
            return misses
        if r["peak"] > RSS_FACTOR * r["input"] + RSS_BASE:
            misses.append(f"peak RSS {r['peak'] / 2**20:.0f} MB > 4x input + 50 MB")
    for a, b in zip(rows, rows[1:], strict=False):
        if max(a["seconds"], b["seconds"]) < MIN_SECONDS:
            continue
        grow = b["input"] / a["input"]
        ratio = b["seconds"] / max(a["seconds"], 1e-3)
        if ratio > TIME_SLACK * grow:
            misses.append(f"time x{ratio:.1f} for input x{grow:.1f}")
    return misses


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--child", nargs=2, metavar=("CLASS", "N"), help=argparse.SUPPRESS)
    p.add_argument("--quick", action="store_true", help="one small size (256 kB), 30 s timeout")
    p.add_argument("--sizes", default=None, help="comma-separated input sizes in bytes")
    p.add_argument("--only", default=None, help="comma-separated class names")
    p.add_argument("--timeout", type=float, default=None, help="seconds per run (default 60)")
    args = p.parse_args(argv)
    if args.child:
        child(args.child[0], int(args.child[1]))
        return 0
    sizes = ([256_000] if args.quick else [1 * MB, 8 * MB]) if args.sizes is None else [
        int(s) for s in args.sizes.split(",")]
    timeout = args.timeout or (30 if args.quick else 60)
    names = list(CLASSES) if args.only is None else args.only.split(",")
    failing = []
    print(f"{'class':24} {'input':>10} {'CPU s':>8} {'peak MB':>8} {'time x':>7} {'RSS x':>6}  verdict")
    for name in names:
        rows: list[dict] = []
        for n in sizes:
            r = measure(name, n, timeout)
            rows.append(r)
            if "timeout" in r or "error" in r and "input" not in r:
                break
        misses = verdict(rows)
        for k, r in enumerate(rows):
            if "input" not in r:
                print(f"{name:24} {'':>10} {'':>8} {'':>8} {'':>7} {'':>6}  "
                      f"{'timeout' if 'timeout' in r else r['error']}")
                continue
            grow_t = grow_m = ""
            if k:
                prev = rows[k - 1]
                grow_t = f"{r['seconds'] / max(prev['seconds'], 1e-3):.1f}"
                grow_m = f"{r['peak'] / prev['peak']:.1f}"
            last = k == len(rows) - 1
            print(f"{name:24} {r['input']:>10} {r['seconds']:>8.2f} {r['peak'] / 2**20:>8.0f} "
                  f"{grow_t:>7} {grow_m:>6}  "
                  f"{('FAIL: ' + '; '.join(misses) if misses else 'ok') if last else ''}"
                  f"{'  (' + r['error'] + ')' if r.get('error') else ''}")
        if misses:
            failing.append(name)
    print()
    print(f"goals: time x <= {TIME_SLACK} x input x (under {MIN_SECONDS} s: pass); "
          f"peak RSS <= {RSS_FACTOR} x input + {RSS_BASE >> 20} MB")
    print("failing:", ", ".join(failing) if failing else "none")
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
