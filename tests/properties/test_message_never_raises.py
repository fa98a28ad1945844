"""onemail.read never raises on bad bytes, and its safety net (``internal error``) never fires:
damaged copies of the bundled examples (truncated, bytes overwritten) and random input."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from paths import REPO

from onemail.message import read, read_mbox

EXAMPLES = sorted(p for p in (REPO / "examples").iterdir() if p.name != "NOTICE")
SAMPLES = [p.read_bytes() for p in EXAMPLES]


def _check(data: bytes) -> None:
    msg = read(data)
    assert msg.error is None or not msg.error.startswith("internal error"), msg.error
    for part in msg.walk():
        if part.message is not None and part.message.error:
            assert not part.message.error.startswith("internal error"), part.message.error
    for issue in msg.issues:
        assert issue.offset >= 0 and issue.length >= 0


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(range(len(SAMPLES))), st.data())
def test_damaged_examples(index, data):
    sample = bytearray(SAMPLES[index])
    cut = data.draw(st.integers(0, len(sample)), label="cut")
    edits = data.draw(st.lists(st.tuples(st.integers(0, max(len(sample) - 1, 0)), st.integers(0, 255)),
                               max_size=8), label="edits")
    for pos, value in edits:
        if pos < len(sample):
            sample[pos] = value
    _check(bytes(sample[:cut]) if data.draw(st.booleans(), label="truncate") else bytes(sample))


@settings(max_examples=100, deadline=None)
@given(st.sampled_from([b"", b"Subject: ", b"From x\n", b"Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n",
                        b"\x78\x9f\x3e\x22\x00\x00", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"]),
       st.binary(max_size=600))
def test_random_bytes(prefix, tail):
    _check(prefix + tail)
    for msg in read_mbox(prefix + tail):
        assert msg.error is None or not msg.error.startswith("internal error")


_NAME = st.text(alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7E, blacklist_characters=":"),
                min_size=1, max_size=12).filter(lambda n: not n.startswith("--") and n != "From")
_VALUE = st.binary(max_size=60).map(lambda v: v.replace(b"\r", b"").replace(b"\n", b""))
_FOLD = st.lists(_VALUE, max_size=2)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_NAME, _VALUE, _FOLD), max_size=8), st.binary(max_size=200), st.booleans())
def test_every_header_of_the_input_is_in_headers(fields, body, crlf):
    """Whatever the values hold (8-bit bytes, encoded-word junk, folds), every field written is
    in Message.headers, in order, with its raw bytes and offset into the input."""
    eol = b"\r\n" if crlf else b"\n"
    lines = []
    for name, value, folds in fields:
        lines.append(name.encode() + b": " + value + b"".join(eol + b" " + f for f in folds))
    data = eol.join(lines) + (eol if lines else b"") + eol + body
    msg = read(data)
    _check(data)
    expected = []
    for name, value, folds in fields:
        raw = (value + b"".join(eol + b" " + f for f in folds)).lstrip(b" \t")
        while raw[-1:] in (b"\r", b"\n"):
            raw = raw[:-1]
        expected.append((name, raw))
    assert [(h.name, h.raw) for h in msg.headers] == expected
    assert all(data[h.offset:h.offset + len(h.raw)] == h.raw for h in msg.headers)
