"""Generate the CJK tables: ``src/onemail/text/_tables/index_<name>.py`` and ``cjk_suspects.py``.

``index_<name>.py`` (big5, euc_kr, gb18030, jis0208, jis0212) holds ``TABLE``: a ``str``
indexed by pointer (Encoding Standard "index code point"), U+FFFE where the index has no entry,
padded to the largest pointer a decoder can compute, so that decoders need no bounds check.
Big5's astral entries are stored in the same ``str`` (a Python ``str`` holds any code point).
``index_gb18030.py`` also holds ``RANGES_POINTERS`` and ``RANGES_CODE_POINTS``, the two
columns of ``index-gb18030-ranges.txt``.

``cjk_suspects.py`` holds, per WHATWG encoding, the CPython C codec used for its fast path and the
"suspect characters": every character that the C codec outputs for a unit (a byte sequence
the C codec decodes on its own, with every proper prefix incomplete) whose decoding differs
from the Encoding Standard's decoder run on the same unit. The units are enumerated
exhaustively: every 1- and 2-byte sequence, and every longer sequence whose prefixes the C
codec reports as "incomplete" (the 4-byte gb18030 and the 0x8F-prefixed 3-byte EUC-JP
sequences). The Encoding Standard side is our pure-Python reference decoder
(``onemail.text._codecs.*``) run on the tables built here. Why this proves the fast path
exact is argued in ``onemail/text/_codecs/_cjk.py``. For the encodings of ``BYTE_SCAN`` it
also holds the C codec's unit length by first byte and each disagreeing unit with its C
text and standard text (step 3a there: the units are looked for in the input bytes).
"""

from __future__ import annotations

import bisect
import codecs

from _common import read_index, wrap_str_literal

# Largest pointer any decoder can compute, plus one (the table length).
TABLE_LENGTHS = {
    "big5": (0xFE - 0x81) * 157 + 157,  # Big5 decoder: (lead - 0x81) * 157 + trail offset
    "euc-kr": (0xFE - 0x81) * 190 + (0xFE - 0x41) + 1,  # EUC-KR decoder
    "gb18030": (0xFE - 0x81) * 190 + 190,  # gb18030 decoder, two-byte pointers
    "jis0208": (0xFC - 0xC1) * 188 + 188,  # Shift_JIS decoder (EUC-JP stays below 94 * 94)
    "jis0212": 94 * 94,  # EUC-JP decoder: (lead - 0xA1) * 94 + trail - 0xA1
}

# WHATWG encoding -> the CPython codecs of its fast path, tried in this order (strict decode);
# the last one also serves the damaged-input path. CPython's gbk agrees with the standard on
# every unit it accepts (it lacks the four-byte sequences, 0x80 and the Private Use pairs), so
# typical gb18030/GBK text needs no check at all; gb18030 covers the rest.
FAST_CODECS = {
    "gb18030": ("gbk", "gb18030"),
    "big5": ("big5hkscs",),
    "euc-jp": ("euc_jp",),
    "shift_jis": ("cp932",),
    "euc-kr": ("cp949",),
}


def table(name: str) -> str:
    """Return the pointer-indexed decode table of ``index-<name>.txt`` (U+FFFE = no entry)."""
    index = read_index(name)
    n = TABLE_LENGTHS[name]
    assert max(index) < n, name
    return "".join(chr(index[p]) if p in index else "\ufffe" for p in range(n))


def ranges() -> tuple[list[int], list[int]]:
    """Return the pointer and code point columns of ``index-gb18030-ranges.txt``."""
    index = read_index("gb18030-ranges")
    pointers = sorted(index)
    return pointers, [index[p] for p in pointers]


def _index_body(name: str):
    def body() -> str:
        text = wrap_str_literal("TABLE", table(name), width=24)
        if name == "gb18030":
            p, c = ranges()
            text += f"\nRANGES_POINTERS = {tuple(p)!r}\n\nRANGES_CODE_POINTS = {tuple(c)!r}\n"
        return text

    return body


def _module(name: str) -> str:
    return name.replace("-", "_")


# ---------------------------------------------------------------------------------------------
# Exhaustive comparison of the C codecs with the reference decoders


def reference_codecs() -> dict:
    """Return ``{encoding: codec}`` of our codecs, built on freshly generated tables."""
    from onemail.text._codecs import big5, euc_jp, euc_kr, gb18030, shift_jis

    p, c = ranges()
    tables = {n: table(n) for n in TABLE_LENGTHS}
    return {
        "gb18030": gb18030.codec("gb18030", tables=(tables["gb18030"], p, c)),
        "gbk": gb18030.codec("gbk", tables=(tables["gb18030"], p, c)),
        "big5": big5.codec("big5", tables=(tables["big5"],)),
        "euc-jp": euc_jp.codec("euc-jp", tables=(tables["jis0208"], tables["jis0212"])),
        "shift_jis": shift_jis.codec("shift_jis", tables=(tables["jis0208"],)),
        "euc-kr": euc_kr.codec("euc-kr", tables=(tables["euc-kr"],)),
    }


def c_units(c_codec: str):
    """Yield ``(unit, text)`` for every unit the C codec accepts (see the module docstring).

    Sequences of one and two bytes are tried exhaustively, and a two-byte sequence is extended
    by every third byte while the C codec calls it incomplete. Four-byte sequences (gb18030
    only) are the standard's shape lead (0x81-0xFE), digit, lead, digit, all 1,587,600 of them;
    that the C codec accepts no other four-byte sequence is pinned in
    ``tests/stdlib_assumptions/test_cjk_codecs.py`` (CPython's gb18030 decoder rejects a
    sequence whose third or fourth byte is out of those ranges before looking further).
    """
    dec = codecs.getdecoder(c_codec)
    frontier = [b""]
    for _length in (1, 2, 3):
        nxt = []
        for prefix in frontier:
            for b in range(256):
                seq = prefix + bytes((b,))
                try:
                    text = dec(seq)[0]
                except UnicodeDecodeError as e:
                    if e.start == 0 and e.end == len(seq) and "incomplete" in e.reason:
                        nxt.append(seq)
                    continue
                yield seq, text
        frontier = nxt
    if c_codec != "gb18030":
        assert not frontier, c_codec
        return
    digits = range(0x30, 0x3A)
    for b1 in range(0x81, 0xFF):
        for b2 in digits:
            for b3 in range(0x81, 0xFF):
                seqs = [bytes((b1, b2, b3, b4)) for b4 in digits]
                try:
                    text = dec(b"".join(seqs))[0]
                except UnicodeDecodeError:
                    text = ""
                if len(text) == len(seqs):
                    yield from zip(seqs, text, strict=True)
                    continue
                for seq in seqs:
                    try:
                        yield seq, dec(seq)[0]
                    except UnicodeDecodeError:
                        pass


def compare(encoding: str, ref=None, c_codec: str | None = None) -> dict:
    """Compare a C codec (default: the last of ``encoding``'s) with the reference on its units.

    :returns: ``{"units": n, "by_length": {length: n}, "disagree": [(unit, c_text, ref_text)]}``
        where ``ref_text`` is ``None`` when the reference reported an error in the unit.
    """
    ref = ref or reference_codecs()[encoding]
    c_codec = c_codec or FAST_CODECS[encoding][-1]
    # The unit 0x0A is the separator below; it is compared on its own.
    units = [(u, t) for u, t in c_units(c_codec) if u != b"\n"]
    # Decode all units in one reference call, each followed by a newline, after which every one
    # of these decoders is back in its initial state (0x0A is never a trail byte, and an ASCII
    # byte that ends a sequence in error is re-read and emitted), so piece k is unit k's text.
    joined = b"\n".join(u for u, _ in units) + b"\n"
    issues: list = []
    pieces = ref.reference_decode(joined, issues, 0)[0].split("\n")
    assert len(pieces) == len(units) + 1
    starts = []
    pos = 0
    for u, _ in units:
        starts.append(pos)
        pos += len(u) + 1
    in_error = {bisect.bisect_right(starts, i.offset) - 1 for i in issues}
    disagree = []
    by_length: dict[int, int] = {}
    for k, ((u, c_text), r_text) in enumerate(zip(units, pieces, strict=False)):
        by_length[len(u)] = by_length.get(len(u), 0) + 1
        if c_text != r_text or k in in_error:
            disagree.append((u, c_text, r_text if k not in in_error else None))
    nl = codecs.decode(b"\n", c_codec)
    if nl != "\n" or ref.reference_decode(b"\n", None, 0)[0] != "\n":
        disagree.append((b"\n", nl, "\n"))
    by_length[1] += 1
    return {"units": len(units) + 1, "by_length": by_length, "disagree": disagree}


def producible(encoding: str, tables: dict) -> set[str]:
    """Return the characters the standard's decoder can output for ``encoding``."""
    chars = {chr(c) for c in range(0x80)}
    if encoding == "gb18030":
        chars.add("\u20ac")
        chars.update(tables["gb18030"])
        return {chr(c) for c in range(0x110000)}  # the ranges reach (nearly) every code point  # the ranges reach (nearly) every code point
    elif encoding == "big5":
        chars.update(tables["big5"])
        chars.update("\u00ca\u00ea\u0304\u030c")
    elif encoding == "euc-jp":
        chars.update(tables["jis0208"])
        chars.update(chr(c) for c in range(0xFF61, 0xFFA0))
        chars.update(tables["jis0212"])
    elif encoding == "shift_jis":
        chars.update(tables["jis0208"])
        chars.update(chr(c) for c in range(0xFF61, 0xFFA0))
        chars.update(chr(c) for c in range(0xE000, 0xE000 + 10716 - 8836))
        chars.add("\x80")
    else:
        chars.update(tables["euc-kr"])
    chars.discard("\ufffe")
    return chars


def classify(disagree: list, full: set) -> tuple[dict, dict]:
    """Sort the disagreeing units into fix-ups and suspects.

    * fix-up ``{c: text}``: the C codec outputs the single character ``c`` for the unit, no
      other unit gives ``c`` in the C codec, the standard's decoder can never output ``c``
      (``full``) and decodes the unit without error to ``text``. Replacing every ``c`` by
      ``text`` in an otherwise accepted result is then exact.
    * suspects ``{c: units}``: ``c`` is the first character the C codec outputs for each of
      ``units``. When ``c`` occurs in the C codec's output and one of ``units`` occurs as a
      byte substring of the input, the input goes to the slow path; a unit that was decoded
      leaves both traces, so this is sound (false alarms only cost time).
    """
    by_char: dict[str, list] = {}
    for u, c_text, r_text in disagree:
        by_char.setdefault(c_text, []).append((u, r_text))
    fixups: dict[str, str] = {}
    suspects: dict[str, list[bytes]] = {}
    for u, c_text, r_text in disagree:
        if len(c_text) == 1 and c_text not in full and r_text is not None and len(by_char[c_text]) == 1:
            fixups[c_text] = r_text
        else:
            suspects.setdefault(c_text[0], []).append(u)
    return fixups, {c: tuple(sorted(us)) for c, us in suspects.items()}


def fast_stages(encoding: str, refs: dict, tables: dict) -> list[tuple[str, dict, dict, dict]]:
    """Return ``[(c_codec, fixups, suspects, comparison)]`` for the stages of ``encoding``."""
    stages = []
    for c_codec in FAST_CODECS[encoding]:
        r = compare(encoding, refs[encoding], c_codec)
        for u, c_text, _ in r["disagree"]:
            assert c_text, u  # every C unit outputs at least one character
        fixups, suspects = classify(r["disagree"], producible(encoding, tables))
        stages.append((c_codec, fixups, suspects, r))
    return stages


def _suspects_body() -> str:
    refs = reference_codecs()
    tables = {n: table(n) for n in TABLE_LENGTHS}
    lines = [
        "# WHATWG encoding -> stages (CPython codec, fix-ups {C char: standard text},",
        "#                            suspects {C char: units}); see scripts/gen/cjk.py classify()",
        "FAST = {",
    ]
    for enc in sorted(FAST_CODECS):
        lines.append(f"    {enc!r}: (")
        for c_codec, fixups, suspects, r in fast_stages(enc, refs, tables):
            lines.append(f"        # {r['units']} units compared {dict(sorted(r['by_length'].items()))}, "
                         f"{len(r['disagree'])} disagree")
            lines.append(f"        ({c_codec!r}, {ascii(dict(sorted(fixups.items())))}, "
                         f"{ascii(dict(sorted(suspects.items())))}),")
        lines.append("    ),")
    lines.append("}")
    lines += ["", *_byte_scan_lines(refs, tables)]
    return "\n".join(lines) + "\n"


# Single-stage encodings whose fast path looks for the disagreeing units in the input bytes
# (``_cjk.py``, step 3a) instead of looking for their characters in the text.
BYTE_SCAN = ("big5", "euc-jp")


def byte_scan(encoding: str, refs: dict, tables: dict) -> tuple[bytes, dict]:
    """Return ``(unit lengths, disagreeing units)`` of ``encoding``'s (one-stage) C codec.

    * unit lengths: ``bytes`` of 256; entry ``b`` is the length of every C unit whose first byte
      is ``b`` (0 when none starts with it); asserted to depend on the first byte only.
    * disagreeing units ``{unit: (C text, standard text or None)}`` (``None``: an error).
    """
    ((c_codec, _, _, r),) = fast_stages(encoding, refs, tables)
    lengths: dict[int, set[int]] = {}
    for u, _ in c_units(c_codec):
        lengths.setdefault(u[0], set()).add(len(u))
    assert all(len(v) == 1 for v in lengths.values()), encoding
    table = bytes(next(iter(lengths[b])) if b in lengths else 0 for b in range(256))
    return table, {u: (c_text, r_text) for u, c_text, r_text in r["disagree"]}


def _byte_scan_lines(refs: dict, tables: dict) -> list[str]:
    lines = [
        "# WHATWG encoding -> (C unit length by first byte, {disagreeing unit: (C text, standard",
        "# text or None)}); see scripts/gen/cjk.py byte_scan() and step 3a of _codecs/_cjk.py",
        "BYTE_SCAN = {",
    ]
    for enc in BYTE_SCAN:
        table, units = byte_scan(enc, refs, tables)
        lines.append(f"    {enc!r}: (")
        lines.append(f"        {table!r},")
        lines.append(f"        {ascii(dict(sorted(units.items())))},")
        lines.append("    ),")
    lines.append("}")
    return lines


# ---------------------------------------------------------------------------------------------
# Encoders: where a C encoder may be used

# codec key -> CPython codec for its encoder fast path
ENCODE_CODECS = {
    "gb18030": "gb18030",
    "gbk": "gbk",
    "big5": "cp950",
    "euc-jp": "euc_jp",
    "shift_jis": "cp932",
    "euc-kr": "cp949",
}


def encode_suspects(key: str, ref=None) -> list[int]:
    """Return the code points the C encoder encodes, alone, otherwise than the standard's encoder.

    Every scalar value is tried. Code points the C encoder cannot encode are not suspects: its
    error handler writes the standard's bytes for them.
    """
    ref = ref or reference_codecs()[key]
    ours = ref._encode_code_point
    scalars = [cp for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF and cp != 0x0A]
    # One C call: every scalar value followed by a line feed; an unencodable one comes out as a
    # backslash escape of 4 or more bytes, an encodable one as 1 to 4 bytes without 0x0A.
    pieces = "\n".join(map(chr, scalars)).encode(ENCODE_CODECS[key], "backslashreplace").split(b"\n")
    assert len(pieces) == len(scalars)
    out = []
    for cp, b in zip(scalars, pieces, strict=True):
        if b[:1] == b"\\" and len(b) >= 4:
            continue  # unencodable by the C codec (checked below to be really so)
        if b != ours(cp):
            out.append(cp)
    assert codecs.encode("\n", ENCODE_CODECS[key]) == ours(0x0A) == b"\n"
    return out


def _ranges(cps: list[int]) -> list[tuple[int, int]]:
    out: list[list[int]] = []
    for cp in cps:
        if out and out[-1][1] == cp - 1:
            out[-1][1] = cp
        else:
            out.append([cp, cp])
    return [(a, b) for a, b in out]


def _encode_body() -> str:
    refs = reference_codecs()
    lines = [
        "# codec key -> (CPython codec, code point ranges it encodes otherwise than the standard,",
        "# as a str of (first, last) character pairs: a str literal is quick to compile)",
        "ENCODE = {",
    ]
    for key in sorted(ENCODE_CODECS):
        cps = encode_suspects(key, refs[key])
        pairs = "".join(chr(a) + chr(b) for a, b in _ranges(cps))
        lines.append(f"    # {len(cps)} suspect code points")
        lines.append(f"    {key!r}: ({ENCODE_CODECS[key]!r}, {ascii(pairs)}),")
    lines.append("}")
    return "\n".join(lines) + "\n"


OUTPUTS = [
    (f"src/onemail/text/_tables/index_{_module(n)}.py",
     [f"index-{n}.txt"] + (["index-gb18030-ranges.txt"] if n == "gb18030" else []),
     _index_body(n))
    for n in sorted(TABLE_LENGTHS)
] + [(
    "src/onemail/text/_tables/cjk_suspects.py",
    [f"index-{n}.txt" for n in sorted(TABLE_LENGTHS)] + ["index-gb18030-ranges.txt"]
    + [f"cpython:{c}" for c in sorted(c for cs in FAST_CODECS.values() for c in cs)],
    _suspects_body,
), (
    "src/onemail/text/_tables/cjk_encode.py",
    [f"index-{n}.txt" for n in sorted(TABLE_LENGTHS)] + ["index-gb18030-ranges.txt"]
    + [f"cpython:{c}" for c in sorted(set(ENCODE_CODECS.values()))],
    _encode_body,
)]
