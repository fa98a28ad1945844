"""Pin the CPython facts the CJK fast path relies on (``onemail.text._codecs._cjk`` docstring).

1. The generated fix-ups and suspects (``_tables/cjk_suspects.py``) are what an exhaustive
   comparison of this CPython's C codecs with the reference gives (gb18030 is checked on its
   one- and two-byte units here; ``scripts/generate_tables.py --check`` covers all of it).
2. The C codecs are unit-additive: a strict decode of concatenated units is the concatenation of
   the units' outputs; a family's boundary bytes (``CjkCodec.boundary``) occur in a unit only as
   its last byte.
3. On an invalid unit the error handler gets ``start`` = that unit's first byte and
   ``object`` = the whole input, and decoding resumes at the position the handler returns.
4. CPython's gb18030 decoder treats lead + digit as the start of a four-byte sequence whatever
   follows, and rejects a four-byte sequence whose third byte is not 0x81-0xFE or whose fourth
   is not a digit.
"""

from __future__ import annotations

import codecs
import importlib.util
import itertools
import random
import re
import sys

import pytest
from paths import REPO

from onemail.text import for_label
from onemail.text._tables.cjk_suspects import FAST


@pytest.fixture(scope="module")
def gen():
    sys.path.insert(0, str(REPO / "scripts" / "gen"))
    try:
        spec = importlib.util.spec_from_file_location("gen_cjk_for_tests", REPO / "scripts" / "gen" / "cjk.py")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        yield mod
    finally:
        sys.path.remove(str(REPO / "scripts" / "gen"))


@pytest.mark.parametrize("encoding", ["big5", "euc-jp", "shift_jis", "euc-kr"])
def test_generated_fast_table_is_this_cpythons(gen, encoding):
    tables = {n: gen.table(n) for n in gen.TABLE_LENGTHS}
    stages = gen.fast_stages(encoding, gen.reference_codecs(), tables)
    assert FAST[encoding] == tuple((c, f, s) for c, f, s, _ in stages)


def test_gbk_agrees_with_the_gb18030_decoder_on_every_unit_it_accepts(gen):
    """The first stage of gb18030/GBK needs no check (FAST['gb18030'][0])."""
    r = gen.compare("gb18030", c_codec="gbk")
    assert r["disagree"] == [] and r["units"] == 21919
    assert FAST["gb18030"][0] == ("gbk", {}, {})


def test_the_issues_measured_facts(gen):
    """cp949 equals euc-kr on every unit; cp932 differs only on its single bytes 0xA0, 0xFD-0xFF."""
    assert gen.compare("euc-kr")["disagree"] == []
    assert [u for u, _, _ in gen.compare("shift_jis")["disagree"]] == [b"\xa0", b"\xfd", b"\xfe", b"\xff"]


def test_gb18030_short_units(gen):
    ref = gen.reference_codecs()["gb18030"]
    dec = codecs.getdecoder("gb18030")
    bad = []
    for a in range(256):
        for b in [None, *range(256)]:
            u = bytes((a,)) if b is None else bytes((a, b))
            try:
                c_text = dec(u)[0]
            except UnicodeDecodeError:
                continue
            issues: list = []
            if (c_text, []) != (ref.reference_decode(u, issues, 0)[0], issues):
                bad.append(u)
            if b is None:
                break
    # the 20 pairs of the issue (GB18030-2005 vs -2022 and 0xA3 0xA0), all known suspects
    assert len(bad) == 20
    suspect_units = {u for units in FAST["gb18030"][-1][2].values() for u in units}
    assert set(bad) <= suspect_units


@pytest.mark.parametrize(("encoding", "c_codec"), [
    ("gb18030", "gbk"), ("gb18030", "gb18030"), ("big5", "big5hkscs"), ("euc-jp", "euc_jp"),
    ("shift_jis", "cp932"), ("euc-kr", "cp949"),
])
def test_unit_additive_and_boundary_bytes_end_units(gen, encoding, c_codec):
    boundary = re.compile(for_label(encoding)._codec.boundary)
    units = list(itertools.takewhile(lambda ut: len(ut[0]) < 4, gen.c_units(c_codec)))
    assert not [u for u, _ in units if boundary.search(u[:-1])]
    if c_codec == "gb18030":  # four-byte units: lead, digit, lead, digit (no boundary byte)
        assert not boundary.search(bytes(range(0x81, 0xFF)) + bytes(range(0x30, 0x3A)))
    rng = random.Random(c_codec)
    for _ in range(20):
        pick = [rng.choice(units) for _ in range(2000)]
        assert codecs.decode(b"".join(u for u, _ in pick), c_codec) == "".join(t for _, t in pick)


@pytest.mark.parametrize(("c_codec", "invalid"), [
    ("gb18030", b"\x81\x7f"), ("gbk", b"\x80"), ("big5hkscs", b"\x80"), ("euc_jp", b"\x8e\xe0"),
    ("cp932", b"\x81\xfd"), ("cp949", b"\xc9\xa1"),
])
def test_error_start_object_and_resume(gen, c_codec, invalid):
    units = [u for u, _ in itertools.takewhile(lambda ut: len(ut[0]) < 4, gen.c_units(c_codec))]
    rng = random.Random(c_codec)
    seen = []

    def handler(exc):
        seen.append((exc.start, exc.object))
        return ("<X>", exc.start + len(invalid))  # resume after the whole invalid sequence

    codecs.register_error("onemail.test-cjk-resume", handler)
    for _ in range(50):
        before = b"".join(rng.choice(units) for _ in range(rng.randrange(0, 30)))
        after = b"".join(rng.choice(units) for _ in range(rng.randrange(0, 30)))
        data = before + invalid + after
        seen.clear()
        text = codecs.decode(memoryview(data), c_codec, "onemail.test-cjk-resume")
        assert seen[0] == (len(before), data)
        assert text == codecs.decode(before, c_codec) + "<X>" + codecs.decode(after, c_codec)


def test_gb18030_four_byte_shape():
    dec = codecs.getdecoder("gb18030")
    for lead in (0x81, 0xE3):
        for digit in (0x30, 0x39):
            for third in range(256):
                try:
                    dec(bytes((lead, digit, third)))
                except UnicodeDecodeError as e:
                    assert e.reason == "incomplete multibyte sequence"
                for fourth in range(256):
                    if 0x81 <= third <= 0xFE and 0x30 <= fourth <= 0x39:
                        continue
                    try:
                        dec(bytes((lead, digit, third, fourth)))
                    except UnicodeDecodeError as e:
                        assert e.start == 0
                    else:
                        raise AssertionError(bytes((lead, digit, third, fourth)))


@pytest.mark.parametrize("c_codec", ["gb18030", "gbk", "cp950", "euc_jp", "cp932", "cp949"])
def test_c_encoders_work_character_by_character(c_codec):
    """Encoding a run equals encoding its characters one by one (the encoder fast path)."""
    rng = random.Random(c_codec)
    chars = []
    for cp in range(0x80, 0x10000):
        try:
            chr(cp).encode(c_codec)
        except UnicodeEncodeError:
            continue
        chars.append(chr(cp))
    for _ in range(200):
        run = [rng.choice(chars) for _ in range(50)]
        assert "".join(run).encode(c_codec) == b"".join(c.encode(c_codec) for c in run)


@pytest.mark.parametrize("encoding", ["big5", "euc-jp"])
def test_generated_byte_scan_table_is_this_cpythons(gen, encoding):
    """Step 3a's unit lengths, disagreeing units and suspect groups (``BYTE_SCAN``)."""
    from onemail.text._tables.cjk_suspects import BYTE_SCAN

    tables = {n: gen.table(n) for n in gen.TABLE_LENGTHS}
    assert BYTE_SCAN[encoding] == gen.byte_scan(encoding, gen.reference_codecs(), tables)


def test_isolated_high_byte_fails_every_double_byte_codec():
    """detect's _isolated_high: a high byte after two ASCII bytes, after a byte below 0x40 that
    is not a digit, or at the start, then a byte below 0x40 that is not a digit, is an error at
    that byte (or an earlier one) in CPython's gb18030, cp950, cp949 and euc_jp, and in cp932
    for its lead bytes, whatever comes before or after."""
    from onemail.detect._detector import _CP932_LEADS, _isolated_high

    follows = (b"", b"0", b"\x81", b"\x810\x810", b"\xa1\xa1")
    trails = bytes((*range(0x30), *range(0x3A, 0x40), 0x7F))
    for codec in ("gb18030", "cp950", "cp949", "euc_jp", "cp932"):
        leads = sorted(_CP932_LEADS) if codec == "cp932" else range(0x80, 0x100)
        for h in leads:
            for t in trails:
                for before in (b"", b"ab", b"\xe9ab", b"\xe9\xe9,", b"\x81\x30\x81\x30."):
                    data = before + bytes((h, t))
                    assert _isolated_high(data + b"zzzz") is not None
                    for after in follows:
                        with pytest.raises(UnicodeDecodeError) as exc:
                            (data + after).decode(codec)
                        assert exc.value.start <= len(before), (codec, data + after)


def test_proven_error_changes_no_score():
    """_score with error_proven (from _isolated_high) returns what the failed decode gives."""
    import random

    from onemail.detect._detector import (
        _CJK_CODECS,
        _CP932_LEADS,
        CANDIDATES,
        _isolated_high,
        _score,
    )

    rng = random.Random(7)
    pieces = [b"ab", b"caf\xe9 ", b"\xe9t\xe9", b"\xb0\xa1", b"\x81\x30\x81\x30", b" ", b"\n", b"1", b"\xfc,",
              b" \xe2 ", b"\xc2\xd0\xe5", b"\xa1\xa1 ", b"\x8e\xb1", b"\x8f\xa1\xa1", b"?"]
    for _ in range(2500):
        sample = b"".join(rng.choice(pieces) for _ in range(rng.randint(1, 12)))
        found = _isolated_high(sample)
        for label, codec in CANDIDATES:
            if codec not in _CJK_CODECS:
                continue
            proven = found is not None and (codec != "cp932" or found in _CP932_LEADS)
            for beat in (40.0, 60.0, 80.0):
                assert _score(sample, label, codec, beat, error_proven=proven) == _score(sample, label, codec, beat)
