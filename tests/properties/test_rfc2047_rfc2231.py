"""Properties of RFC 2047 / RFC 2231: round trips, never raising, issues inside the input."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from onemail.text import for_label
from onemail.text.rfc2047 import decode_text, encode
from onemail.text.rfc2231 import ParameterCollector, parse_header_params
from onemail.text.rfc2231 import encode as encode_param


def _repertoire(label: str) -> str:
    cs = for_label(label)
    chars = []
    for cp in range(0x20, 0x3000):
        c = chr(cp)
        if 0xD800 <= cp < 0xE000:
            continue
        issues: list = []
        if cs.decode(cs.encode(c, issues)) == c and not issues:
            chars.append(c)
    return "".join(chars)


_REPERTOIRES = {label: _repertoire(label) for label in ("windows-1252", "koi8-r", "iso-8859-7")}


@settings(max_examples=400, deadline=None)
@given(st.text())
def test_round_trip_utf8(s):
    assert decode_text(encode(s)) == s


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.characters(exclude_categories=("Cs",))))
def test_round_trip_utf16(s):
    assert decode_text(encode(s, charset="utf-16be")) == s


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(sorted(_REPERTOIRES)), st.data())
def test_round_trip_single_byte_charsets(label, data):
    s = data.draw(st.text(alphabet=_REPERTOIRES[label] + " \t\r\n"))
    out = encode(s, charset=label)
    assert decode_text(out) == s
    assert all(len(w) <= 75 for w in out.split(" ") if w.startswith("=?"))


_WORDISH = st.lists(
    st.sampled_from([b"=?", b"?=", b"?", b"=", b"utf-8", b"x-bad", b"Q", b"b", b"YQ==", b"=C3",
                     b"=A9", b"_", b" ", b"\t", b"\r\n ", b"\r", b"\n", b"\xe9", b"\xc3\xa9", b"*en",
                     b"a", b"%"]),
    max_size=40).map(b"".join)


@settings(max_examples=500, deadline=None)
@given(st.one_of(st.binary(max_size=200), _WORDISH), st.integers(0, 1000))
def test_decode_never_raises_and_issues_lie_inside_the_input(data, offset):
    issues: list = []
    text = decode_text(data, issues=issues, offset=offset)
    assert isinstance(text, str)
    for i in issues:
        assert offset <= i.offset and i.offset + i.length <= offset + len(data), (i, data)
    assert decode_text(data) == text


@settings(max_examples=200, deadline=None)
@given(st.text(), st.integers(1, 80))
def test_parameter_encode_round_trip(value, part_length):
    c = ParameterCollector()
    for k, part in enumerate(encode_param("name", value, part_length=part_length)):
        name, _, written = part.partition("=")
        if written.startswith('"'):
            written = written[1:-1].replace('\\"', '"').replace("\\\\", "\\")
        c.add(name, written, offset=k)
    assert c.resolve()[0].value == value


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.binary(max_size=200), _WORDISH.map(lambda b: b"a/b; n*0*=" + b + b"; n*1=" + b)))
def test_parse_header_params_never_raises(data):
    main, params = parse_header_params(data)
    assert isinstance(main, str)
    for p in params:
        for i in p.issues:
            assert 0 <= i.offset and i.offset + i.length <= len(data), (i, data)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from([b"\r", b"\n", b" ", b"\t", b"a", b"\r\n"]), max_size=30).map(b"".join))
def test_fast_unfold_equals_the_fold_rule(data):
    from onemail.text._header import FOLD, unfold_fast

    assert unfold_fast(data) == FOLD.sub(b"", data)
    assert decode_text(data) == FOLD.sub(b"", data).decode("ascii")


_JA = "日本語のテキスト漢字かなカナｶﾀｶﾅ、。ー abcABC123!?"
_KO = "한국어메일텍스트입니다 abc"


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["iso-2022-jp", "shift_jis", "euc-jp", "euc-kr", "iso-2022-kr"]), st.data())
def test_round_trip_cjk_and_iso_2022(charset, data):
    alphabet = _KO if "kr" in charset else _JA
    s = data.draw(st.text(alphabet=alphabet, max_size=120))
    unencodable: list = []
    for_label(charset).encode(s, unencodable)
    assume(not unencodable)  # ISO-2022-JP has no half-width katakana
    out = encode(s, charset=charset)
    assert decode_text(out) == s
    assert all(len(w) <= 75 for w in out.split(" ") if w.startswith("=?"))


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.binary(max_size=120), _WORDISH))
def test_str_input_is_its_surrogateescape_bytes(data):
    as_str = data.decode("utf-8", "surrogateescape")
    a: list = []
    b: list = []
    assert decode_text(as_str, issues=a) == decode_text(data, issues=b)
    assert a == b


@settings(max_examples=200, deadline=None)
@given(st.text(), st.integers(1, 60))
def test_parse_header_params_reads_what_encode_writes(value, part_length):
    header = "attachment; " + "; ".join(encode_param("filename", value, part_length=part_length)) + "; size=3"
    main, params = parse_header_params(header)
    assert main == "attachment"
    assert [(p.name, p.value) for p in params] == [("filename", value), ("size", "3")]


# Characters that stress parameter syntax and the stateful encoders (T89): quotes, backslashes,
# "=?" (read as an encoded word if written plainly), "%", "*", "'", white space, ESC/SO/SI
# (Unencodable in ISO-2022, T82), "+" and "-" (UTF-7), "~" (HZ).
_PARAM_CHARS = st.sampled_from(list("=?\"\\ ;()'%*ab+-~\t\x1b\x0e\x0fé日本語€가"))
# T40: six characters CPython's ISO-2022-JP encoder writes with JIS X 0208's own mapping.
_T40 = set("\u00a2\u00a3\u00ac\u2016\u2212\u301c")


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(["utf-8", "utf-7", "iso-2022-jp", "iso-2022-kr", "hz-gb-2312", "windows-1252",
                        "shift_jis"]),
       st.text(alphabet=_PARAM_CHARS | st.characters(max_codepoint=0x3000, exclude_categories=("Cs",)),
               max_size=40),
       st.integers(1, 60))
def test_parameter_encode_round_trip_every_charset(label, value, part_length):
    """T89: what ``encode`` writes reads back as the value, each character the charset cannot
    write as ``?`` (``Unencodable``), in every charset, also the stateful ones."""
    value = "".join(c for c in value if c not in _T40)
    cs = for_label(label)
    expected = "".join(c if c.isascii() and " " <= c <= "~" or not _unencodable(cs, c) else "?"
                       for c in value)
    if label == "shift_jis":  # the Encoding Standard's Shift_JIS encoder writes these as ASCII
        expected = expected.replace("\u00a5", "\\").replace("\u203e", "~")
    header = "attachment; " + "; ".join(encode_param("filename", value, charset=label, part_length=part_length)) + "; size=3"
    main, params = parse_header_params(header)
    assert main == "attachment"
    assert [(p.name, p.value) for p in params] == [("filename", expected), ("size", "3")]


def _unencodable(cs, c: str) -> bool:
    issues: list = []
    cs.encode(c, issues)
    return bool(issues)
