"""Properties of every decoder: any bytes give a str and well-placed issues; chunking changes nothing.

For every charset of :func:`onemail.text.charsets.known_charsets` (spec 000 "Contract": decoders
never raise; issues carry byte offsets into the input):

* ``decode`` returns a ``str`` for any bytes and never raises;
* every issue lies inside the input (``0 <= offset``, ``offset + length <= len(data)``) and the
  ``offset`` argument shifts every issue;
* the text holds at least as many U+FFFD as there are ``Invalid*`` issues (one per replacement);
* decoding in chunks with :meth:`Charset.new_decoder` at any split points gives the same text
  and the same issues as one-shot decoding;
* the ``onemail-<name>`` Python codec: ``"replace"`` equals the native text, ``"strict"`` raises
  ``UnicodeDecodeError`` at the first ``Invalid*`` issue, and the incremental decoder's
  ``getstate()`` is ``(b"", 0)`` after ``reset()`` (house style section 7).
"""

from __future__ import annotations

import codecs
import tomllib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from paths import CHARSET_FACTS
from strategies import any_bytes, split_points

from onemail.text import charsets

CHARSETS = charsets.known_charsets()
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


PARAMS = [pytest.param(cs, id=cs.key) for cs in CHARSETS]


def _invalid(issues):
    return [i for i in issues if not i.kind.is_ambiguous]


def _replacing(issues):
    # Invalid* issues that wrote a U+FFFD: a zero-length issue marks a position and writes
    # nothing (IMAP UTF-7's missing "-", T31).
    return [i for i in _invalid(issues) if i.length]


@pytest.mark.parametrize("cs", PARAMS)
@SETTINGS
@given(data=st.data())
def test_decode_never_raises_and_issues_lie_inside(cs, data):
    raw = data.draw(any_bytes(cs), label="bytes")
    issues = []
    text = cs.decode(raw, issues)
    assert isinstance(text, str)
    for issue in issues:
        assert 0 <= issue.offset and issue.length >= 0 and issue.offset + issue.length <= len(raw), issue
    assert text.count("\ufffd") >= len(_replacing(issues))
    shifted = []
    assert cs.decode(raw, shifted, 1000) == text
    assert [(i.kind, i.offset - 1000, i.length) for i in shifted] == [(i.kind, i.offset, i.length) for i in issues]
    assert cs.decode(raw) == text  # no issue list: same text


@pytest.mark.parametrize("cs", PARAMS)
@SETTINGS
@given(data=st.data())
def test_chunked_equals_one_shot(cs, data):
    raw = data.draw(any_bytes(cs), label="bytes")
    cuts = data.draw(split_points(raw), label="cuts")
    whole_issues = []
    whole = cs.decode(raw, whole_issues)
    dec = cs.new_decoder()
    chunk_issues = []
    pieces = []
    bounds = [0, *cuts, len(raw)]
    for i, (a, b) in enumerate(zip(bounds, bounds[1:], strict=False)):
        pieces.append(dec.decode(raw[a:b], final=i == len(bounds) - 2, issues=chunk_issues))
    assert "".join(pieces) == whole
    assert chunk_issues == whole_issues
    dec.reset()
    assert dec.getstate() == (b"", None)


@pytest.mark.parametrize("cs", PARAMS)
@SETTINGS
@given(data=st.data())
def test_python_codec_face(cs, data):
    raw = data.draw(any_bytes(cs), label="bytes")
    name = f"onemail-{cs.key}"  # the key is unique; names are shared (iso-2022-jp: three decoders)
    issues = []
    text = cs.decode(raw, issues)
    assert raw.decode(name, "replace") == text
    bad = _invalid(issues)
    if bad:
        with pytest.raises(UnicodeDecodeError) as exc:
            raw.decode(name, "strict")
        assert (exc.value.start, exc.value.end) == (bad[0].offset, bad[0].offset + bad[0].length)
    else:
        assert raw.decode(name, "strict") == text
    dec = codecs.getincrementaldecoder(name)("replace")
    dec.decode(raw[: len(raw) // 2])
    dec.reset()
    assert dec.getstate() == (b"", 0)


@pytest.mark.parametrize("raw", [b"\xef\xbf\xbd\xff", b"\xef\xbf\xbd"])
def test_python_codec_with_literal_replacement_character(raw):
    """A U+FFFD decoded from valid bytes next to an invalid byte (utf-8)."""
    text = raw.decode("utf-8", "replace")
    assert raw.decode("onemail-utf-8", "replace") == text
    assert raw.decode("onemail-utf-8", "backslashreplace") == raw.decode("utf-8", "backslashreplace")


def test_every_charset_is_checked():
    """The charsets are the decoder keys of the charset facts (scripts/data/charsets.toml)."""
    keys = [d["key"] for d in tomllib.loads(CHARSET_FACTS.read_text(encoding="utf-8"))["decoder"]]
    assert len(CHARSETS) == len(keys)
    assert {cs.key for cs in CHARSETS} == set(keys)


@pytest.mark.parametrize("cs", PARAMS)
def test_empty_input(cs):
    issues = []
    assert cs.decode(b"", issues) == "" and issues == []
    dec = cs.new_decoder()
    assert dec.decode(b"", final=True, issues=issues) == "" and issues == []
