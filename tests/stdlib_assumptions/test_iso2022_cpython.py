"""Pin the CPython facts the ISO-2022-JP fast path relies on (onemail.text._codecs.iso_2022).

For input the fast path admits (``_WELL_FORMED_JP``), CPython's strict ``iso2022_jp`` either
raises or gives, after the six T40 replacements, exactly the general path's text, and the
general path reports no issue.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from onemail.text import for_label
from onemail.text._codecs import iso_2022

CODEC = for_label("iso-2022-jp")._codec


def _general(data: bytes):
    issues = []
    text = CODEC.decode_chunk(data, issues, 0, True, None)[0]
    return text, issues


def _fast(data: bytes) -> str | None:
    if iso_2022._WELL_FORMED_JP.fullmatch(data) is None:
        return None
    try:
        return iso_2022._cpython_iso2022_jp(data)
    except UnicodeDecodeError:
        return None


def test_every_jis_x_0208_pair():
    accepted = 0
    for escape in (b"\x1b$B", b"\x1b$@"):
        for a in range(0x21, 0x7F):
            for b in range(0x21, 0x7F):
                data = escape + bytes((a, b)) + b"\x1b(B"
                text = _fast(data)
                if text is not None:
                    assert _general(data) == (text, []), data
                    accepted += 1
    assert accepted == 2 * 6879  # the JIS X 0208 characters CPython knows


def test_six_pairs_differ_from_cpython():
    assert b"\x1b$B!A\x1b(B".decode("iso2022_jp") == "\u301c"
    assert for_label("iso-2022-jp").decode(b"\x1b$B!A\x1b(B") == "\uff5e"


PIECES = [b"\x1b(B", b"\x1b(J", b"\x1b$B", b"\x1b$@", b"F|", b"K\\", b"!A", b"-!", b"F", b"a",
          b"\\~", b" ", b"\t", b"\r\n", b"\n", b"\x1b$(D", b"\x1b(I", b"\x0e", b"\x80"]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=14).map(b"".join))
def test_fast_path_equals_general_path(data):
    text = _fast(data)
    if text is not None:
        assert _general(data) == (text, [])
