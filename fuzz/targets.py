"""The fuzz targets of onemail: one function per surface, ``target(data: bytes) -> None``.

Each target feeds the bytes to public API and checks the promises of the product (house rules,
issue 16): nothing raises on bad input, every issue lies inside its input, streaming equals
one-shot decoding at the chosen splits, and every round trip that should hold holds. A broken
promise is an ``AssertionError`` (or the exception itself), which the fuzzer reports as a crash.

The targets need no fuzzer: ``fuzz/fuzz.py`` runs them under atheris, and
``tests/house/test_fuzz_targets.py`` runs them on seeds without it. Where a target needs more
than one input (a charset, chunk sizes, a string), it takes them from the bytes with
:class:`Input`, so any byte string is a valid input and a crash file replays as it is.

Seeds (``SEEDS``) are globs under ``../shared/corpus/`` read at run time; ``seed_inputs``
turns files into target inputs (header lines for the header targets, for instance).
"""

from __future__ import annotations

import random
import struct
from collections.abc import Callable, Iterator
from pathlib import Path

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"


class Input:
    """Take small decisions and pieces from the front of a fuzz input (never raises)."""

    __slots__ = ("data", "pos")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def byte(self) -> int:
        if self.pos >= len(self.data):
            return 0
        self.pos += 1
        return self.data[self.pos - 1]

    def cuts(self, n: int, count: int) -> list[int]:
        """``count`` sorted cut positions in ``0..n`` (from one byte each)."""
        return sorted(self.byte() * n // 255 for _ in range(count))

    def rest(self) -> bytes:
        return self.data[self.pos:]


def _inside(issues, n: int, base: int = 0) -> None:
    for i in issues:
        assert base <= i.offset and i.length >= 0 and i.offset + i.length <= base + n, (i, n)


def _text(data: bytes) -> str:
    """A str from bytes: UTF-8 where valid, lone bytes as their Latin-1 character."""
    return data.decode("utf-8", "replace").replace("\ufffd", "\u00ff")


# ----------------------------------------------------------------------------- messages

def read(data: bytes) -> None:
    """``onemail.message.read``: a message or ``error``, never an internal error."""
    from onemail.message import read as read_message

    msg = read_message(data)
    assert msg.error is None or not msg.error.startswith("internal error"), msg.error


def read_mbox(data: bytes) -> None:
    """``onemail.message.read_mbox``: every message, never an internal error."""
    from onemail.message import read_mbox as read_messages

    for msg in read_messages(data):
        assert msg.error is None or not msg.error.startswith("internal error"), msg.error


# ------------------------------------------------------------------- headers, parameters

def header_text(data: bytes) -> None:
    """``rfc2047.decode_text``: a str; issues inside the input; BoundedIssues as a plain list."""
    from onemail.text import rfc2047
    from onemail.text.issues import BoundedIssues

    plain: list = []
    text = rfc2047.decode_text(data, issues=plain)
    assert isinstance(text, str)
    _inside(plain, len(data))
    bounded = BoundedIssues(limit=4)
    assert rfc2047.decode_text(data, issues=bounded) == text
    _same_as_fed(plain, bounded)


def parameters(data: bytes) -> None:
    """``rfc2231.parse_header_params``: a main value and parameters; issues inside the input."""
    from onemail.text.rfc2231 import parse_header_params

    main, params = parse_header_params(data)
    assert isinstance(main, str)
    for p in params:
        assert isinstance(p.value, str) and isinstance(p.name, str)
        _inside(p.issues, len(data))


def _same_as_fed(plain: list, bounded) -> None:
    from onemail.text.issues import BoundedIssues

    fed = BoundedIssues(limit=bounded.limit)
    fed.extend(plain)
    assert list(bounded) == list(fed) and bounded.dropped == fed.dropped, (plain, bounded)


# ------------------------------------------------------------------------------ charsets

_CHARSETS: list = []


def _charset(k: int):
    if not _CHARSETS:
        from onemail.text import charsets

        _CHARSETS.extend(charsets.known_charsets())
    return _CHARSETS[k % len(_CHARSETS)]


def charset_streaming(data: bytes) -> None:
    """Every charset: one-shot equals streaming in chunks (text and issues) and the Python
    codec's ``"replace"``; a BoundedIssues gets what the plain list gives."""
    import onemail.text  # noqa: F401 - registers the codecs
    from onemail.text.issues import BoundedIssues

    inp = Input(data)
    cs = _charset(inp.byte())
    cuts = inp.cuts(len(data), 3)
    raw = inp.rest()
    cuts = [min(c, len(raw)) for c in cuts]
    issues: list = []
    text = cs.decode(raw, issues, 2)
    _inside(issues, len(raw), 2)
    dec = cs.new_decoder()
    got: list = []
    pieces, last = [], 0
    for c in [*cuts, len(raw)]:
        pieces.append(dec.decode(raw[last:c], issues=got))
        last = c
    pieces.append(dec.decode(b"", final=True, issues=got))
    assert "".join(pieces) == text, (cs, cuts)
    assert [(i.kind, i.offset + 2, i.length) for i in got] == [(i.kind, i.offset, i.length) for i in issues]
    assert raw.decode(f"onemail-{cs.key}", "replace") == text
    bounded = BoundedIssues(limit=3)
    assert cs.decode(raw, bounded, 2) == text
    _same_as_fed(issues, bounded)


def utf7(data: bytes) -> None:
    """UTF-7 and IMAP modified UTF-7 decoders: a str, issues inside the input; the decoded text
    encodes back to bytes that decode to it."""
    from onemail.text import utf7 as u

    for decode, encode in ((u.decode, u.encode), (u.decode_imap, u.encode_imap)):
        issues: list = []
        text = decode(data, issues=issues)
        _inside(issues, len(data))
        clean = "".join(c for c in text if not 0xD800 <= ord(c) <= 0xDFFF)
        assert decode(encode(clean)) == clean, (decode.__name__, clean)


# ---------------------------------------------------------------------------------- RTF

def _rt6_differs(stream: bytes) -> bool:
    """RT6: the streaming ratio check uses COMPSIZE + 4, the one-shot one the input length."""
    from onemail.rtf.compressed import MAX_EXPANSION_RATIO, MAX_OUTPUT_BYTES

    if len(stream) < 16:
        return False
    compsize, rawsize, comptype, _ = struct.unpack_from("<II4sI", stream)
    if comptype not in (b"LZFu", b"MELA") or rawsize > MAX_OUTPUT_BYTES:
        return False
    return (rawsize > MAX_EXPANSION_RATIO * len(stream)) != (
        rawsize > MAX_EXPANSION_RATIO * max(16, compsize + 4))


def compressed_rtf(data: bytes) -> None:
    """``decompress`` equals the ``Decompressor`` in chunks (defects included, RT6, RT60);
    ``compress`` round-trips the bytes at both levels."""
    from onemail.rtf import Decompressor, compress, decompress

    inp = Input(data)
    cuts = inp.cuts(len(data), 3)
    stream = inp.rest()
    one = decompress(stream)
    _inside(one.defects, len(stream))
    d = Decompressor()
    out, last = [], 0
    for c in [*[min(c, len(stream)) for c in cuts], len(stream)]:
        out.append(d.decompress(stream[last:c]))
        last = c
    out.append(d.finish())
    if not _rt6_differs(stream):
        assert (b"".join(out), d.defects, d.crc_verified) == (one.data, one.defects, one.crc_verified)
    for level in (1, 2):
        again = decompress(compress(stream[:512], level=level))
        assert (again.data, again.defects, again.crc_verified) == (stream[:512], (), True)


def rtf(data: bytes) -> None:
    """The tokenizer, detection and de-encapsulation: tokens and defects inside the input."""
    from onemail.rtf import RtfReader, deencapsulate, is_encapsulated

    reader = RtfReader(data)
    for token in reader:
        assert 0 <= token.offset and token.offset + token.length <= len(data), token
    _inside(reader.defects, len(data))
    result = deencapsulate(data)
    assert isinstance(result.text, str) and result.kind == is_encapsulated(data)
    _inside(result.defects, len(data))


# ------------------------------------------------------------------------ detect, repair

def detect(data: bytes) -> None:
    """``detect`` and ``repair``: a Detection; repair steps replay to the repaired text."""
    from onemail.detect import apply_steps, repair
    from onemail.detect import detect as detect_charset

    found = detect_charset(data)
    assert 0 <= found.confidence <= 100, found
    text = _text(data[:2000])
    fixed = repair(text)
    assert apply_steps(text, fixed.steps) == fixed.text, (text, fixed)


# --------------------------------------------------------------------------- round trips

def round_trips(data: bytes) -> None:
    """Encode then decode gives the text back: RFC 2047, RFC 2231, RTF encapsulation,
    compressed RTF, and every charset for text it can encode."""
    from onemail.rtf import compress, decompress, deencapsulate, encapsulate_html, encapsulate_text
    from onemail.text import rfc2047, rfc2231

    inp = Input(data)
    which = inp.byte()
    text = _text(inp.rest()[:1024])
    assert rfc2047.decode_text(rfc2047.encode(text).encode("ascii")) == text, text
    if text:
        parts = rfc2231.encode("name", text)
        _, params = rfc2231.parse_header_params("; ".join(["attachment", *parts]))
        assert [p.value for p in params] == [text], (text, parts)
    assert deencapsulate(encapsulate_html(text)).text == text, text
    assert deencapsulate(encapsulate_text(text)).text == text, text
    raw = text.encode("utf-8", "surrogatepass")
    assert decompress(compress(raw)).data == raw
    cs = _charset(which)
    issues: list = []
    encoded = cs.encode(text, issues)
    if not issues:
        assert cs.decode(encoded) == text, (cs, text, encoded)


#: name -> (function, seed globs under ../shared/corpus, how files become inputs)
TARGETS: dict[str, tuple[Callable[[bytes], None], tuple[str, ...], str]] = {
    "read": (read, ("mail/**/*.eml", "rtf/msg/*.msg", "**/*.tnef"), "file"),
    "read_mbox": (read_mbox, ("mail/**/*.eml",), "mbox"),
    "header_text": (header_text, ("mail/**/*.eml",), "headers"),
    "parameters": (parameters, ("mail/**/*.eml",), "params"),
    "charset_streaming": (charset_streaming, ("detect/**/*.txt", "detect-fresh/**/*"), "prefixed"),
    "utf7": (utf7, ("mail/**/*.eml",), "headers"),
    "compressed_rtf": (compressed_rtf, ("rtf/compressed/*.bin",), "prefixed"),
    "rtf": (rtf, ("rtf/rtf/*.rtf",), "file"),
    "detect": (detect, ("detect/**/*.txt", "mojibake/**/*"), "file"),
    "round_trips": (round_trips, ("mojibake/**/*", "detect/**/*.txt"), "prefixed"),
}

#: Seeds per target, at most (a sample of the corpus, fixed by the seed of ``random``).
MAX_SEEDS = 400
MAX_SEED_BYTES = 64 * 1024


#: Made seeds: digit runs past CPython's 4,300-digit ``int()`` limit and runs of damage
#: (issue 16), which a fuzzer growing inputs slowly would take long to reach.
_MADE = {
    "read": [b"Subject: " + b"=?" * 3000 + b"\r\n\r\nx",
             b"Content-Disposition: attachment; filename*" + b"1" * 4301 + b"=x\r\n\r\nx"],
    "header_text": [b"=?" * 4000, b"=?utf-8?q?" + b"=3" * 3000 + b"?="],
    "parameters": [b"attachment; filename=a" + b" " * 4000 + b"b)",
                   b"attachment; filename*" + b"1" * 4301 + b"=x"],
    "rtf": [b"{\\rtf" + b"1" * 4301 + b"\\fromtext x}", b"{\\rtf1\\fromtext \\u" + b"9" * 5000 + b"?}"],
    "charset_streaming": [bytes((k,)) + b"\xff" * 3000 for k in range(0, 60, 7)],
}


def seed_inputs(name: str) -> Iterator[bytes]:
    """Yield the seed inputs of target ``name``: the made ones, then files of
    ``../shared/corpus/`` (read now)."""
    yield from _MADE.get(name, ())
    _, globs, how = TARGETS[name]
    files = sorted({p for g in globs for p in CORPUS.glob(g) if p.is_file()})
    random.Random(name).shuffle(files)
    count = 0
    for path in files:
        data = path.read_bytes()[:MAX_SEED_BYTES]
        for item in _shape(data, how):
            yield item
            count += 1
            if count >= MAX_SEEDS:
                return


def _shape(data: bytes, how: str) -> Iterator[bytes]:
    if how == "file":
        yield data
    elif how == "mbox":
        yield b"From a@b Thu Jan  1 00:00:00 2024\n" + data + b"\nFrom c@d Fri Jan  2 00:00:00 2024\n" + data
    elif how == "prefixed":  # selector and cut bytes, then the file
        yield bytes((len(data) % 251, 40, 120, 200)) + data
    else:  # header values of the message: all of them, or the parameter-bearing ones
        head = data.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
        for line in head.replace(b"\r\n", b"\n").split(b"\n"):
            name, sep, value = line.partition(b":")
            if not sep:
                continue
            if how == "params" and b";" not in value and b"=" not in value:
                continue
            yield value.strip()
