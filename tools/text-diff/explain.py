"""Rules that explain a difference between onemail and an oracle; each names an ambiguity id.

A rule is a predicate over (case, oracle name, onemail's answer, the oracle's answer). Each
checks that the case has the construct the ambiguity is about, and, where the alternative
behaviour is simple to state, that the oracle's answer is what that alternative gives (for
example: the oracle's answer with folds removed equals ours; the oracle's answer equals ours
with the words decoded one by one; the oracle kept the damaged word literally). A difference
that no rule matches is a failure of ``tools/text-diff/run``. The ids are entries of
``docs/ambiguities.md`` ("Encoded words and parameters (T50-T79)"; T30-T39 for UTF-7 and
ISO-2022, written with those decoders).
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable
from dataclasses import dataclass

from onemail.text import for_label
from onemail.text.rfc2047 import decode_text

# A word by the general rule of spec 000 (text up to the first ?=, may hold white space).
_ANY_WORD = re.compile(rb"=\?([^?\s]+)\?([^?\s]*)\?(.*?)\?=", re.S)
# A well-formed word (RFC 2047 §2: no white space, no '?' in the text).
_STRICT = re.compile(rb"=\?([^?\s]+)\?([BbQq])\?([^?\s]*)\?=")
_FOLD = re.compile(rb"\r\n(?=[ \t])|[\r\n](?=[ \t])")
_FOLD_STR = re.compile("\r\n(?=[ \t])|[\r\n](?=[ \t])")
_ADJACENT_GAP = re.compile(rb"(?<=\?=)[ \t]*(?==\?)")
_C1_1252 = {chr(b): bytes([b]).decode("cp1252", "replace") for b in range(0x80, 0xA0)}
_SURROGATE = re.compile("[\ud800-\udfff]")
_WS = re.compile(r"[ \t\r\n\f\v]+")


@dataclass(frozen=True)
class Rule:
    id: str  # ambiguity id in docs/ambiguities.md
    name: str
    test: Callable


RULES: list[Rule] = []  # (case, oracle, mine, theirs) -> bool: the whole difference
PARAM_RULES: list[Rule] = []  # (case, oracle, name, ours, theirs) -> bool: one parameter
NORMALIZERS: list[tuple[Rule, Callable]] = []  # (applies(case, oracle), normalise(str) -> str)


def rule(id_: str, name: str):
    def register(fn):
        RULES.append(Rule(id_, name, fn))
        return fn
    return register


def param_rule(id_: str, name: str):
    def register(fn):
        PARAM_RULES.append(Rule(id_, name, fn))
        return fn
    return register


def normalizer(id_: str, name: str, applies: Callable):
    def register(fn):
        NORMALIZERS.append((Rule(id_, name, applies), fn))
        return fn
    return register


def explain(case: dict, oracle: str, mine: dict, theirs: dict) -> list[Rule] | None:
    """Return the rules that together explain the difference, or None.

    A header answer is first explained by masks and normalisers (see "Encoded words" below);
    then the whole-difference rules are tried; for parameter answers, each parameter that
    differs must match a parameter rule.
    """
    if case["kind"] == "header" and "value" in theirs:
        found = _explain_header_value(case, oracle, mine, theirs)
        if found:
            return found
    for r in RULES:
        if r.test(case, oracle, mine, theirs):
            return [r]
    if "params" in mine and theirs.get("params") is not None:
        ours, their = mine["params"], theirs["params"]
        found: list[Rule] = []
        for name in sorted(set(ours) | set(their)):
            x, y = ours.get(name), their.get(name)
            if x == y:
                continue
            r = next((r for r in PARAM_RULES if r.test(case, oracle, name, x, y)), None)
            if r is None:
                return None
            if r not in found:
                found.append(r)
        return found or None
    return None


# ---------------------------------------------------------------------------------------------
# helpers

def _data(case: dict) -> bytes:
    return case["in"].encode("latin-1")


def _unfolded(case: dict) -> bytes:
    return _FOLD.sub(b"", _data(case))


def _value(answer: dict) -> str | None:
    return answer.get("value")


def _error(answer: dict) -> str:
    return answer.get("error", "")


def _words(case: dict, pattern=_ANY_WORD) -> list[re.Match]:
    return list(pattern.finditer(_unfolded(case)))


def _b64_strict_ok(text: bytes) -> bool:
    if len(text) % 4:
        return False
    try:
        base64.b64decode(text, validate=True)
        return b"=" not in text[:-2]
    except binascii.Error:
        return False


def _bad_b_words(case: dict) -> list[re.Match]:
    return [m for m in _words(case) if m.group(2) in (b"B", b"b") and not _b64_strict_ok(m.group(3))]


def _bad_q_words(case: dict) -> list[re.Match]:
    return [m for m in _words(case)
            if m.group(2) in (b"Q", b"q") and re.search(rb"=(?![0-9A-Fa-f]{2})", m.group(3))]


def _literal_in(answer: dict, m: re.Match) -> bool:
    v = _value(answer)
    return v is not None and m.group(3).decode("latin-1") in v


def _labels(case: dict) -> list[str]:
    return [m.group(1).decode("latin-1") for m in _words(case)]


def _separately(case: dict) -> str:
    """Our decoding with adjacent words decoded one by one (not joined as bytes)."""
    marked = _ADJACENT_GAP.sub(b"\x00", _unfolded(case))
    return decode_text(marked).replace("\x00", "")


def _squash(s: str) -> str:
    return _WS.sub("", s)


def _params_differ_only(mine: dict, theirs: dict, pred) -> bool:
    """True when every parameter that differs satisfies ``pred(name, ours, theirs_or_None)``."""
    a, b = mine.get("params") or {}, theirs.get("params")
    if b is None:
        return False
    names = set(a) | set(b)
    return all(a.get(n) == b.get(n) or pred(n, a.get(n), b.get(n)) for n in names)


# ---------------------------------------------------------------------------------------------
# Encoded words (header cases)
#
# A header difference is explained by *masks* and *normalisers*. A mask names the input spans an
# ambiguity is about (the damaged B words, the CJK words, the raw 8-bit runs ...); a normaliser
# maps both answers to a common form (unfolded, re-spaced, C1 read as windows-1252). The
# difference is explained when our decoding of the input with every masked span replaced by a
# gap, normalised, matches the oracle's normalised answer with any text in the gaps: everything
# outside the masked spans must agree. The rules reported are the ones still needed after
# dropping each one that is not (so a count says which resolution made the difference).

def _header(case) -> bool:
    return case["kind"] == "header"


def _cs(label: bytes):
    return for_label(label.decode("latin-1").split("*")[0])


class _Word:
    __slots__ = ("start", "end", "label", "cs", "enc", "text", "alone")

    def __init__(self, m: re.Match) -> None:
        self.start, self.end = m.span()
        self.label, self.enc, self.text = m.group(1), m.group(2), m.group(3)
        self.cs = _cs(self.label)
        self.alone = decode_text(m.group())


def _accepted_words(case: dict) -> list[_Word]:
    """The words our scanner decodes (B/Q, no CR/LF in the text), in the unfolded input."""
    key = ("words", case["id"])
    cached = _CACHE.get(key)
    if cached is None:
        # scan as rfc2047 does: a candidate that is not a word resumes two bytes later
        data = _unfolded(case)
        cached = []
        p = data.find(b"=?")
        while p >= 0:
            m = _ANY_WORD.match(data, p)
            if m and m.group(2) in (b"B", b"b", b"Q", b"q") and not re.search(rb"[\r\n]", m.group(3)):
                cached.append(_Word(m))
                p = data.find(b"=?", m.end())
            else:
                p = data.find(b"=?", p + 2)
        if len(_CACHE) > 4096:
            _CACHE.clear()
        _CACHE[key] = cached
    return cached


_CACHE: dict = {}
MASKS: list[tuple[Rule, Callable]] = []  # (rule, spans(case, oracle) -> [(start, end)])


def mask(id_: str, name: str):
    def register(fn):
        MASKS.append((Rule(id_, name, fn), fn))
        return fn
    return register


def _spans(words) -> list[tuple[int, int]]:
    return [(w.start, w.end) for w in words]


@mask("T50", "adjacent words joined as bytes; the oracle decodes them one by one")
def _m_join(case, oracle):
    words = _accepted_words(case)
    data = _unfolded(case)
    out = []
    k = 0
    while k < len(words):
        j = k
        while (j + 1 < len(words) and words[j + 1].cs is not None and words[j + 1].cs is words[k].cs
               and not data[words[j].end:words[j + 1].start].strip(b" \t")):
            j += 1
        if j > k:
            group = data[words[k].start:words[j].end]
            if decode_text(group) != "".join(w.alone for w in words[k:j + 1]):
                out.append((words[k].start, words[j].end))
        k = j + 1
    return out


@mask("T51", "raw 8-bit text: UTF-8 if valid else windows-1252 (the oracle: U+FFFD, escapes, latin-1)")
def _m_raw(case, oracle):
    data = _unfolded(case)
    words = _accepted_words(case)
    out = [(w.start, w.end) for w in words if not w.text.isascii()]  # raw bytes inside a word
    pos = 0
    for start, end in [(w.start, w.end) for w in words] + [(len(data), len(data))]:
        out.extend((pos + m.start(), pos + m.end()) for m in re.finditer(rb"[\x80-\xff]+", data[pos:start]))
        pos = end
    return out


@mask("T52", "lenient B: skipped characters, bad padding, a one-character tail, data after padding")
def _m_b(case, oracle):
    words = _accepted_words(case)
    data = _unfolded(case)
    out = []
    for k, w in enumerate(words):
        if w.enc in b"Bb" and not _b64_strict_ok(w.text):
            end = w.end
            # libmime/postal-mime join the base64 text of adjacent B words before decoding, so
            # the damage runs into the following words
            for nxt in words[k + 1:]:
                if nxt.enc not in b"Bb" or data[end:nxt.start].strip(b" \t"):
                    break
                end = nxt.end
            out.append((w.start, end))
    return out


@mask("T53", "lenient Q: a bad '=' stays literal")
def _m_q(case, oracle):
    words = _accepted_words(case)
    data = _unfolded(case)
    out = []
    for k, w in enumerate(words):
        if w.enc in b"Qq" and re.search(rb"=(?![0-9A-Fa-f]{2})", w.text):
            end = w.end
            # libmime/postal-mime join the Q text of adjacent words: "=4" + "c..." reads "=4c"
            for nxt in words[k + 1:]:
                if nxt.enc not in b"Qq" or data[end:nxt.start].strip(b" \t"):
                    break
                end = nxt.end
            out.append((w.start, end))
    return out


@mask("T54", "a word touching text or another word without white space is decoded")
def _m_touching(case, oracle):
    if oracle != "py-default":  # policy.default needs white space around a word (RFC 2047 §5)
        return []
    data = _unfolded(case)
    return _spans(w for w in _accepted_words(case)
                  if (w.start > 0 and data[w.start - 1] not in b" \t")
                  or (w.end < len(data) and data[w.end] not in b" \t"))


@mask("T58", "white space inside encoded text accepted (MalformedEncodedWord)")
def _m_ws(case, oracle):
    return _spans(w for w in _accepted_words(case) if re.search(rb"[ \t]", w.text))


@mask("T63", "charset*language accepted (RFC 2231 §5)")
def _m_language(case, oracle):
    return _spans(w for w in _accepted_words(case) if b"*" in w.label)


@mask("T64", "unknown charset: UTF-8 if valid else windows-1252 (T1)")
def _m_unknown(case, oracle):
    return _spans(w for w in _accepted_words(case) if w.cs is None)


_LATIN1 = ("iso-8859-1", "latin1", "iso_8859-1", "l1", "iso-8859-9", "us-ascii", "ascii", "us", "latin-1")


@mask("T67", "iso-8859-1 / us-ascii words read as windows-1252 (the oracle: C1 controls, U+FFFD)")
def _m_latin1(case, oracle):
    return _spans(w for w in _accepted_words(case)
                  if w.label.decode("latin-1").split("*")[0].lower() in _LATIN1 and not w.alone.isascii())


@mask("T73", "UTF-7 encoded words (the oracle has no UTF-7 decoder)")
def _m_utf7(case, oracle):
    utf7 = for_label("utf-7")
    return _spans(w for w in _accepted_words(case) if w.cs is utf7)


# Charsets each oracle lacks or reads differently (Go: golang.org/x/text; Node: libmime's
# iconv-lite table and the Encoding Standard; Python: its codec registry).
_RARE_KEYS = ("iso-2022-kr", "hz-gb-2312", "iso-2022-jp-1", "iso-2022-jp-2", "iso-2022-jp-3",
              "cp50220", "cp50221", "cp50222", "iso-8859-8-i", "johab", "x-mac-cyrillic",
              "x-user-defined")


@mask("T75", "a charset the oracle lacks (escapes left raw, U+FFFD, or an error)")
def _m_rare(case, oracle):
    return _spans(w for w in _accepted_words(case)
                  if w.cs is not None and (w.cs.key in _RARE_KEYS or w.cs.key.startswith("ibm")))


@mask("T76", "bytes a word's charset cannot map become U+FFFD (Invalid*)")
def _m_invalid(case, oracle):
    return _spans(w for w in _accepted_words(case) if "\ufffd" in w.alone)


@mask("T77", "the utf-16 label is UTF-16LE without BOM sniffing (T2)")
def _m_utf16(case, oracle):
    return _spans(w for w in _accepted_words(case)
                  if w.label.decode("latin-1").split("*")[0].lower() in ("utf-16", "utf16", "unicode"))


def _cjk(label: str) -> bool:
    cs = for_label(label.split("*")[0])
    return cs is not None and cs.key in ("shift_jis", "euc-jp", "gbk", "gb18030", "big5", "euc-kr")


def _iso2022(label: str) -> bool:
    cs = for_label(label.split("*")[0])
    return cs is not None and cs.key.startswith(("iso-2022", "cp5022", "hz-"))


@mask("T78", "CJK words: the Encoding Standard's tables (T10-T19) differ from the oracle's codec")
def _m_cjk(case, oracle):
    return _spans(w for w in _accepted_words(case) if _cjk(w.label.decode("latin-1")))


@mask("T37", "ISO-2022 words: the family decoder (T35-T37) differs from the oracle's")
def _m_iso2022(case, oracle):
    return _spans(w for w in _accepted_words(case) if _iso2022(w.label.decode("latin-1")))


def _malformed(case: dict) -> list[tuple[str, int, int]]:
    """(id, start, end) of each '=?' our scanner does not decode as the start of a word.

    The region runs to the next '?=' (the oracles' scanners read it their own way) and covers
    any word it overlaps. A word whose text holds '?' or '=?' is a region of its own (T61).
    """
    key = ("malformed", case["id"])
    cached = _CACHE.get(key)
    if cached is not None:
        return cached
    data = _unfolded(case)
    words = _accepted_words(case)
    starts = {w.start for w in words}
    out = []
    for w in words:
        if b"?" in w.text:
            out.append(("T61", w.start, w.end))
    def naive_end(p: int) -> int:
        """Where a scanner that reads =?charset?enc? and then looks for '?=' ends the word."""
        q1 = data.find(b"?", p + 2)
        q2 = data.find(b"?", q1 + 1) if q1 >= 0 else -1
        e = data.find(b"?=", q2 + 1) if q2 >= 0 else -1
        return len(data) if e < 0 else e + 2

    def cover(s: int, e: int) -> tuple[int, int]:
        changed = True
        while changed:
            changed = False
            for w in words:
                if w.start < e and w.end > s and (w.start < s or w.end > e):
                    s, e, changed = min(s, w.start), max(e, w.end), True
        return s, e

    p = data.find(b"=?")
    while p >= 0:
        if p not in starts:
            inside = next((w for w in words if w.start < p < w.end), None)
            if inside is not None:
                out.append(("T61", *cover(inside.start, max(inside.end, naive_end(p)))))
            else:
                p0, e = cover(p, naive_end(p))
                q = data.find(b"?", p + 2)
                field = data[p + 2:q] if q >= 0 else b""
                kind = "T62" if q >= 0 and (not field or re.search(rb"[ \t]", field)) else (
                    "T60" if re.search(rb"[\r\n]", data[p:e]) else "T61")
                out.append((kind, p0, e))
        p = data.find(b"=?", p + 2)
    _CACHE[key] = out
    return out


def _malformed_spans(case: dict, oracle: str, kind: str) -> list[tuple[int, int]]:
    # Go's WordDecoder.DecodeHeader stops at the first '=?' it cannot parse and copies the rest
    # of the header unchanged, so for Go the region runs to the end.
    end = len(_unfolded(case)) if oracle == "go" else None
    return [(s, end or e) for k, s, e in _malformed(case) if k == kind]


@mask("T60", "CR/LF inside a word: not a word, literal; the oracle decodes across the line break")
def _m_crlf(case, oracle):
    return _malformed_spans(case, oracle, "T60")


@mask("T61", "the encoded text ends at the first '?=' ('?' or '=?' inside, a bad encoding, a missing '?=')")
def _m_first_close(case, oracle):
    return _malformed_spans(case, oracle, "T61")


@mask("T62", "empty or space-containing charset: not a word")
def _m_charset_field(case, oracle):
    return _malformed_spans(case, oracle, "T62")


@normalizer("T66", "oracle does not unfold (RFC 5322 §2.2.3)", lambda case, oracle: True)
def _unfold(s: str) -> str:
    return _FOLD_STR.sub("", s)


@normalizer("T68", "py-legacy make_header re-spaces the decoded parts",
            lambda case, oracle: oracle == "py-legacy")
def _respace(s: str) -> str:
    return _squash(s)


@normalizer("T51", "raw 8-bit text read as ISO-8859-1 by the oracle (C1 controls)",
            lambda case, oracle: not _STRICT.sub(b"", _unfolded(case)).isascii())
def _c1(s: str) -> str:
    return "".join(_C1_1252.get(c, c) for c in s)


def _gapped_match(parts: list[str], text: str) -> bool:
    """True when ``text`` is parts[0] + * + parts[1] + ... + * + parts[-1] (leftmost, linear)."""
    if len(parts) == 1:
        return parts[0] == text
    first, last = parts[0], parts[-1]
    if not text.startswith(first) or not text.endswith(last) or len(first) + len(last) > len(text):
        return False
    pos = len(first)
    limit = len(text) - len(last)
    for p in parts[1:-1]:
        k = text.find(p, pos, limit)
        if k < 0:
            return False
        pos = k + len(p)
    return True


def _masked_match(case: dict, spans, norms, theirs: str) -> bool:
    data = _unfolded(case)
    merged: list[list[int]] = []
    for s, e in sorted(spans):
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    marker = next((bytes([b]) for b in (*range(0x20), 0x7F) if bytes([b]) not in data), None)
    if marker is None:
        return False
    pieces, pos = [], 0
    for s, e in merged:
        pieces.append(data[pos:s])
        pos = e
    pieces.append(data[pos:])
    parts = decode_text(marker.join(pieces)).split(marker.decode("ascii"))
    if len(parts) != len(pieces):
        return False
    for fn in norms:
        parts = [fn(p) for p in parts]
        theirs = fn(theirs)
    if merged:  # white space next to a gap: the oracle may have dropped or kept it
        parts = [p.rstrip() if k < len(parts) - 1 else p for k, p in enumerate(parts)]
        parts = [p.lstrip() if k > 0 else p for k, p in enumerate(parts)]
    return _gapped_match(parts, theirs)


def _explain_header_value(case, oracle, mine, theirs) -> list[Rule] | None:
    comps = [(r, fn(case, oracle), None) for r, fn in MASKS]
    comps = [c for c in comps if c[1]]
    comps += [(r, None, fn) for r, fn in NORMALIZERS if r.test(case, oracle)]

    def ok(selected) -> bool:
        spans = [s for _, sp, _ in selected if sp for s in sp]
        norms = [fn for _, _, fn in selected if fn is not None]
        return _masked_match(case, spans, norms, theirs["value"])

    if not comps or not ok(comps):
        return None
    needed = list(comps)
    for c in reversed(comps):  # drop the later (more general) components first
        trial = [x for x in needed if x is not c]
        if trial and ok(trial):
            needed = trial
    return [r for r, _, _ in needed]


# Whole-difference header rules: the comparison's framing, and the oracle's errors.

@rule("T72", "a header with a bare line end cannot be framed as a header for the email parser")
def _bare_line_end(case, oracle, mine, theirs):
    return oracle == "py-default" and _header(case) and bool(re.search(rb"[\r\n]", _unfolded(case)))


def _error_is(theirs: dict, *needles: str) -> bool:
    err = _error(theirs).lower()
    return any(n in err for n in needles)


@rule("T52", "lenient B: the oracle raises on bad base64")
def _e_b(case, oracle, mine, theirs):
    return _header(case) and _error_is(theirs, "base64") and bool(_m_b(case, oracle))


@rule("T63", "charset*language: the oracle does not know the label")
def _e_language(case, oracle, mine, theirs):
    return _header(case) and _error_is(theirs, "*") and bool(_m_language(case, oracle))


@rule("T62", "empty or space-containing charset: the oracle reports an unknown charset or raises")
def _e_empty(case, oracle, mine, theirs):
    if not _header(case) or not _m_charset_field(case, oracle):
        return False
    return bool(re.search(r'charset "[^"]*( [^"]*)?"', _error(theirs))) or (
        oracle == "py-legacy" and _error_is(theirs, "'ascii' codec"))


@rule("T37", "ISO-2022 words: py-legacy raises on what the family decoder reads or replaces")
def _e_iso2022(case, oracle, mine, theirs):
    return _header(case) and _error_is(theirs, "iso2022") and bool(_m_iso2022(case, oracle))


@rule("T64", "unknown charset: the oracle fails")
def _e_unknown(case, oracle, mine, theirs):
    return _header(case) and _error_is(theirs, "unknown charset", "unknown encoding") and any(
        (lab.split("*")[0] and for_label(lab.split("*")[0]) is None) for lab in _labels(case))


@rule("T75", "a charset the oracle lacks: the oracle fails")
def _e_rare(case, oracle, mine, theirs):
    if not _header(case):
        return False
    if oracle == "postal" and _error_is(theirs, "cannot read properties"):
        return True  # postal-mime's alias table lacks the label (iso-8859-8-i)
    return _error_is(theirs, "unknown charset", "unsupported charset", "unknown encoding") and any(
        for_label(lab.split("*")[0]) is not None for lab in _labels(case))


@rule("T51", "raw 8-bit text: py-legacy raises on it")
def _e_raw(case, oracle, mine, theirs):
    return _header(case) and _error_is(theirs, "codec can't decode") and bool(_m_raw(case, oracle))


@rule("T67", "8-bit bytes in a us-ascii word: the oracle raises")
def _e_ascii(case, oracle, mine, theirs):
    return _header(case) and _error_is(theirs, "'ascii' codec") and bool(_m_latin1(case, oracle))


@rule("T76", "bytes a word's charset cannot map: py-legacy raises instead of U+FFFD")
def _e_invalid(case, oracle, mine, theirs):
    return _header(case) and _error_is(theirs, "codec can't decode") and bool(_m_invalid(case, oracle))


@rule("T78", "CJK words: py-legacy's stricter table raises, or it cannot re-encode as ISO-2022-JP")
def _e_cjk(case, oracle, mine, theirs):
    return _header(case) and _error_is(theirs, "iso2022_jp", "codec can't decode") and bool(_m_cjk(case, oracle))


@rule("T77", "the utf-16 label: py-legacy fails on a truncated big-endian reading")
def _e_utf16(case, oracle, mine, theirs):
    return _header(case) and _error_is(theirs, "utf-16") and bool(_m_utf16(case, oracle))


# ---------------------------------------------------------------------------------------------
# Parameters

def _param_case(case) -> bool:
    return case["kind"] == "param"


@rule("T65", "tolerant parameter syntax: the oracle rejects the whole header value")
def _param_rejected(case, oracle, mine, theirs):
    return _param_case(case) and (bool(_error(theirs)) or theirs.get("params") is None)


def _raw_params(case: dict, name: str) -> list[tuple[bytes, bytes, bool]]:
    """(suffix, raw value, after ';') of every occurrence of parameter ``name`` (any case).

    ``suffix`` is ``b""``, ``b"*"``, ``b"*N"`` or ``b"*N*"``; the value is the quoted string
    (with its quotes) or the text up to ``;``; ``after ';'`` is False when the name followed
    white space or the main value without a ``;`` (a missing semicolon).
    """
    key = ("raw", case["id"], name)
    cached = _CACHE.get(key)
    if cached is None:
        pattern = re.compile(rb"(^|[;\s])" + re.escape(name.encode("utf-8", "surrogateescape"))
                             + rb"(\*\d*\*?)?[ \t]*=[ \t]*(\"(?:[^\"\\]|\\.)*\"?|[^;]*)", re.I)
        data = _data(case)
        first = data.find(b";")
        cached = [(m.group(2) or b"", m.group(3), m.group(1) == b";" or (first >= 0 and m.start() > first))
                  for m in pattern.finditer(data)]
        _CACHE[key] = cached
    return cached


def _extended_head(raws) -> list[bytes]:
    """The values of the sections that carry the charset (``name*`` / ``name*0*``)."""
    return [v.strip(b'"') for suf, v, _ in raws if suf in (b"*", b"*0*")]


@param_rule("T66", "quoted string with a fold: the oracle keeps CR/LF")
def _param_fold(case, oracle, name, a, b):
    return a is not None and b is not None and _FOLD_STR.sub("", b) == a


@param_rule("T55", "encoded words inside parameter values decoded (AmbiguousEncodedWordInQuotedString)")
def _ew_in_param(case, oracle, name, a, b):
    return any(b"=?" in v for _, v, _ in _raw_params(case, name))


@param_rule("T56", "'name*' is section 0; duplicate section numbers are kept in source order")
def _section_zero(case, oracle, name, a, b):
    numbers = [0 if suf == b"*" else int(suf.strip(b"*")) for suf, _, _ in _raw_params(case, name) if suf]
    return len(numbers) != len(set(numbers))


@param_rule("T57", "an extended value wins over a plain one; the first of duplicate names wins")
def _extended_wins(case, oracle, name, a, b):
    raws = _raw_params(case, name)
    plain = sum(1 for suf, _, _ in raws if not suf)
    return plain > 1 or (plain == 1 and len(raws) > 1)


@param_rule("T64", "unknown RFC 2231 charset: UTF-8 if valid else windows-1252 (T1)")
def _param_unknown_charset(case, oracle, name, a, b):
    for v in _extended_head(_raw_params(case, name)):
        label = v.split(b"'")[0] if v.count(b"'") >= 2 else b""
        if label and for_label(label.decode("latin-1")) is None:
            return True
    return False


@param_rule("T69", "extended value without two quotes or with an empty charset: UTF-8 if valid else windows-1252")
def _no_charset(case, oracle, name, a, b):
    return any(v.count(b"'") < 2 or v.startswith(b"'") for v in _extended_head(_raw_params(case, name)))


@param_rule("T70", "a bad percent escape stays literal (InvalidPercentEscape)")
def _bad_percent(case, oracle, name, a, b):
    return any(suf.endswith(b"*") and re.search(rb"%(?![0-9A-Fa-f]{2})", v)
               for suf, v, _ in _raw_params(case, name))


@param_rule("T71", "'*N' sections are literal, '*N*' sections percent-decoded (RFC 2231 §4.1)")
def _literal_sections(case, oracle, name, a, b):
    return any(suf[1:].isdigit() and re.search(rb"%[0-9A-Fa-f]{2}", v) for suf, v, _ in _raw_params(case, name))


@param_rule("T37", "ISO-2022 damage in an RFC 2231 value becomes U+FFFD (InvalidIso2022)")
def _param_iso2022(case, oracle, name, a, b):
    heads = _extended_head(_raw_params(case, name))
    return a is not None and "\ufffd" in a and any(
        _iso2022(v.split(b"'")[0].decode("latin-1")) for v in heads if v.count(b"'") >= 2)


@param_rule("T75", "Go's ParseMediaType decodes RFC 2231 values only in utf-8 and us-ascii")
def _param_go_charsets(case, oracle, name, a, b):
    if oracle != "go" or b is not None:
        return False
    for v in _extended_head(_raw_params(case, name)):
        label = v.split(b"'")[0].decode("latin-1").strip().lower() if v.count(b"'") >= 2 else ""
        if label not in ("utf-8", "us-ascii"):
            return True
    return False


@param_rule("T51", "8-bit parameter text: UTF-8 if valid else windows-1252 (the oracle: U+FFFD or escapes)")
def _raw_8bit_param(case, oracle, name, a, b):
    if all(v.isascii() for _, v, _ in _raw_params(case, name)):
        return False
    return b is None or a is None or "\ufffd" in b or bool(_SURROGATE.search(b)) or _c1(b) == a or (
        not a.isascii() and a.encode("utf-8", "replace") != b.encode("utf-8", "replace"))


@param_rule("T65", "tolerant parameter syntax (comments, missing ';', unquoted spaces, stray quotes, backslashes)")
def _tolerant_syntax(case, oracle, name, a, b):
    raws = _raw_params(case, name)
    if not raws:  # the oracle found a parameter where we found none, or the reverse
        return True
    odd = False
    if a == "" or b == "":  # an empty value: some oracles drop the parameter
        return True
    numbers = sorted(int(suf.strip(b"*")) for suf, _, _ in raws if suf.strip(b"*").isdigit())
    if numbers and numbers != list(range(len(numbers))):  # gaps: Go stops at the first one
        return True
    if oracle == "py-legacy" and any(v.startswith(b'"<') and v.endswith(b'>"') for _, v, _ in raws):
        return True  # email.utils.unquote also strips angle brackets
    for _suf, v, after_semicolon in raws:
        quoted = v.startswith(b'"')
        if (not after_semicolon or b"(" in v or b"\\" in v or b"\r" in v or b"\n" in v
                or (quoted and (len(v) < 2 or not v.endswith(b'"')))
                or (not quoted and (b'"' in v or re.search(rb"\S\s+\S", v.strip())
                                    or re.search(rb'[()<>@,:\\/\[\]?=]', v)))
                or not v.strip()):
            odd = True
    if odd:
        return True
    # a quoted value followed by stray text up to ';'
    data = _data(case)
    return bool(re.search(re.escape(name.encode("utf-8", "surrogateescape")) + rb'\*?\d*\*?\s*=\s*"[^"]*"[^;\s]',
                          data, re.I))


# ---------------------------------------------------------------------------------------------
# Charsets: UTF-7 and ISO-2022 (ids of the UTF-7 / ISO-2022 register section)

@rule("T75", "the oracle has no decoder for this charset")
def _no_decoder(case, oracle, mine, theirs):
    err = _error(theirs).lower()
    return case["kind"] == "charset" and ("unsupported" in err or "unknown" in err)


@rule("T37", "ISO-2022 damage (escapes, 8-bit bytes, truncation): U+FFFD per InvalidIso2022")
def _iso2022_charset(case, oracle, mine, theirs):
    if case["kind"] != "charset" or not case["label"].startswith("iso-2022"):
        return False
    v = _value(theirs) or ""
    return any(c in s for s in (_value(mine), v) for c in ("\ufffd", "\x1b")) or not _data(case).isascii()


@rule("T39", "HZ-GB-2312 damage and details: U+FFFD per InvalidIso2022")
def _hz_charset(case, oracle, mine, theirs):
    if case["kind"] != "charset" or case["label"] != "hz-gb-2312":
        return False
    v = _value(theirs) or ""
    return any(c in s for s in (_value(mine), v) for c in ("\ufffd", "\x1b")) or not _data(case).isascii()


@rule("T34", "Node utf7: a '+' inside a base64 run")
def _utf7_plus(case, oracle, mine, theirs):
    return case["kind"] == "charset" and case["label"] == "utf-7" and oracle == "utf7" and bool(
        re.search(rb"\+[A-Za-z0-9/]*\+[A-Za-z0-9/]", _data(case)))


@rule("T30", "UTF-7 damage: one U+FFFD per InvalidUtf7; the oracle keeps or drops the bytes")
def _utf7_damage(case, oracle, mine, theirs):
    if case["kind"] != "charset" or case["label"] != "utf-7":
        return False
    return "\ufffd" in _value(mine)


@rule("T31", "IMAP modified UTF-7: bytes outside 0x20..0x7E become U+FFFD")
def _imap_controls(case, oracle, mine, theirs):
    return case["kind"] == "imap" and bool(re.search(r"[^\x20-\x7e]", case["in"]))
