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

    Whole-difference rules are tried first. Then, for text answers, every normaliser that
    applies to the case is applied to both answers (composition: a header can be both folded
    and latin-1); for parameter answers, each parameter that differs must match a parameter rule.
    """
    for r in RULES:
        if r.test(case, oracle, mine, theirs):
            return [r]
    if "value" in mine and "value" in theirs:
        used = [(r, fn) for r, fn in NORMALIZERS if r.test(case, oracle)]
        a, b = mine["value"], theirs["value"]
        for _r, fn in used:
            a, b = fn(a), fn(b)
        if used and a == b:
            return [r for r, _ in used]
        return None
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
# Encoded words (header cases): normalisers, composed by explain()

@normalizer("T66", "oracle does not unfold (RFC 5322 §2.2.3)", lambda case, oracle: True)
def _unfold(s: str) -> str:
    return _FOLD_STR.sub("", s)


@normalizer("T68", "py-legacy make_header re-spaces the decoded parts",
            lambda case, oracle: oracle == "py-legacy")
def _respace(s: str) -> str:
    return _squash(s)


def _has_latin1(case: dict, oracle: str = "") -> bool:
    labels = {lab.split("*")[0].lower() for lab in _labels(case)}
    return bool(labels & {"iso-8859-1", "latin1", "iso_8859-1", "iso-8859-9", "us-ascii", "ascii"})


@normalizer("T67", "iso-8859-1 / us-ascii words read as windows-1252; the oracle: C1 controls",
            _has_latin1)
def _c1(s: str) -> str:
    return "".join(_C1_1252.get(c, c) for c in s)


# ---------------------------------------------------------------------------------------------
# Encoded words (header cases): whole-difference rules

def _header(case) -> bool:
    return case["kind"] == "header"


@rule("T67", "us-ascii / iso-8859-1 words with 8-bit bytes; the oracle: U+FFFD or a codec error")
def _ascii_8bit(case, oracle, mine, theirs):
    if not _header(case) or not _has_latin1(case):
        return False
    v, o = _value(theirs), _FOLD_STR.sub("", _value(mine))
    if v is None:
        return "codec can't decode" in _error(theirs)
    v = _FOLD_STR.sub("", v)
    if oracle == "py-legacy":
        v, o = _squash(v), _squash(o)
    return len(v) == len(o) and all(a == b or b == "\ufffd" or _C1_1252.get(b) == a
                                    for a, b in zip(o, v, strict=True))


@rule("T50", "adjacent words joined as bytes; the oracle decodes them one by one")
def _split_join(case, oracle, mine, theirs):
    if not _header(case) or not _ADJACENT_GAP.search(_unfolded(case)):
        return False
    return _separately(case) != _value(mine)


@rule("T51", "plain 8-bit text: UTF-8 if valid else windows-1252 (the oracle: U+FFFD, escapes or an error)")
def _raw_8bit(case, oracle, mine, theirs):
    if not _header(case):
        return False
    outside = _STRICT.sub(b"", _unfolded(case))
    raw_q = any(m.group(2) in (b"Q", b"q") and not m.group(3).isascii() for m in _words(case))
    if outside.isascii() and not raw_q:
        return False
    v = _value(theirs)
    if v is None:
        return "codec can't decode" in _error(theirs) or "invalid" in _error(theirs)
    if raw_q or "\ufffd" in v or bool(_SURROGATE.search(v)) or "\\u" in v:
        return True  # raw 8-bit bytes inside encoded text are read by each oracle its own way
    # the oracle read the 8-bit bytes as ISO-8859-1 where we fell back to windows-1252
    o = _FOLD_STR.sub("", _value(mine))
    v = _FOLD_STR.sub("", v)
    if oracle == "py-legacy":
        o, v = _squash(o), _squash(v)
    return _c1(v) == o


@rule("T76", "bytes a word's charset cannot map become U+FFFD; py-legacy raises instead")
def _strict_oracle(case, oracle, mine, theirs):
    return (_header(case) and oracle == "py-legacy" and "codec can't decode" in _error(theirs)
            and "\ufffd" in _value(mine))


@rule("T77", "the utf-16 label is UTF-16LE without BOM sniffing (T2); the oracle sniffs or reads big-endian")
def _utf16(case, oracle, mine, theirs):
    return _header(case) and any(lab.split("*")[0].lower() in ("utf-16", "utf16", "unicode")
                                 for lab in _labels(case))


def _cjk(label: str) -> bool:
    cs = for_label(label.split("*")[0])
    return cs is not None and cs.key in ("shift_jis", "euc-jp", "gbk", "gb18030", "big5", "euc-kr")


@rule("T78", "CJK words: the Encoding Standard's table (T10-T19) differs from the oracle's codec")
def _cjk_tables(case, oracle, mine, theirs):
    return _header(case) and any(_cjk(lab) for lab in _labels(case)) and (
        "value" in theirs or "iso2022_jp" in _error(theirs) or "codec can't" in _error(theirs))


def _iso2022(label: str) -> bool:
    cs = for_label(label.split("*")[0])
    return cs is not None and cs.key.startswith(("iso-2022", "cp5022", "hz-"))


@rule("T37", "ISO-2022/HZ damage becomes U+FFFD (InvalidIso2022); the oracle keeps, drops or rejects")
def _iso2022_damage(case, oracle, mine, theirs):
    return _header(case) and any(_iso2022(lab) for lab in _labels(case)) and "\ufffd" in _value(mine)


@rule("T75", "the oracle has no decoder for this charset (escapes left raw, or an error)")
def _header_no_decoder(case, oracle, mine, theirs):
    if not _header(case):
        return False
    known = [lab for lab in _labels(case) if for_label(lab.split("*")[0]) is not None]
    if not known:
        return False
    err = _error(theirs).lower()
    if "unknown charset" in err or "unsupported charset" in err or "unknown encoding" in err:
        return True
    if oracle == "postal" and "cannot read properties" in err:  # its alias table lacks the label
        return True
    v = _value(theirs) or ""
    if any(_iso2022(lab) for lab in known) and ("\x1b" in v or "~{" in v):
        return True
    # libmime/postal-mime read ISO-2022-JP-1/-2/-3 as ISO-2022-JP: the other sets come out garbled
    extended = ("iso-2022-jp-1", "iso-2022-jp-2", "iso-2022-jp-3")
    if oracle in ("libmime", "postal") and any(
            (cs := for_label(lab.split("*")[0])) is not None and cs.key in extended for lab in known):
        return True
    # the oracle replaced what it cannot decode where the label names a charset we decode
    return "\ufffd" in v and "\ufffd" not in _value(mine)


@rule("T52", "lenient B: skipped characters, bad padding, a one-character tail; the oracle rejects the word")
def _b_lenient(case, oracle, mine, theirs):
    bad = _bad_b_words(case)
    if not _header(case) or not bad:
        return False
    if "base64" in _error(theirs).lower() or "illegal" in _error(theirs).lower():
        return True
    if any(_literal_in(theirs, m) for m in bad):
        return True
    # libmime/postal go on after the padding ("YQ==YQ==" gives "aa"); Python drops the tail
    return oracle in ("libmime", "postal", "py-default", "py-legacy")


@rule("T53", "lenient Q: a bad '=' stays literal; the oracle rejects the word")
def _q_lenient(case, oracle, mine, theirs):
    bad = _bad_q_words(case)
    return _header(case) and bool(bad) and (any(_literal_in(theirs, m) for m in bad) or bool(_error(theirs)))


@rule("T58", "white space inside encoded text accepted (MalformedEncodedWord)")
def _ws_inside(case, oracle, mine, theirs):
    return _header(case) and any(re.search(rb"[ \t]", m.group(3)) for m in _words(case))


@rule("T60", "CR/LF inside a word: not a word, literal")
def _crlf_inside(case, oracle, mine, theirs):
    return _header(case) and any(re.search(rb"[\r\n]", m.group(3)) for m in _words(case))


@rule("T61", "the encoded text ends at the first '?=' ('?' or '=?' inside, a bad encoding, a missing '?=')")
def _first_close(case, oracle, mine, theirs):
    if not _header(case):
        return False
    words = _words(case)
    return (any(b"?" in m.group(3) or m.group(2) not in (b"B", b"b", b"Q", b"q") for m in words)
            or _unfolded(case).count(b"=?") > len(words))


@rule("T62", "empty or space-containing charset: not a word")
def _bad_charset_field(case, oracle, mine, theirs):
    return _header(case) and bool(re.search(rb"=\?(\?|[^?]*[ \t][^?]*\?[BbQq]\?)", _unfolded(case)))


@rule("T63", "charset*language accepted (RFC 2231 §5); the oracle does not know the label")
def _language(case, oracle, mine, theirs):
    return _header(case) and any("*" in lab for lab in _labels(case)) and (
        bool(_error(theirs)) or "=?" in (_value(theirs) or "") or oracle == "py-legacy")


@rule("T64", "unknown charset: UTF-8 if valid else windows-1252 (T1); the oracle fails or guesses")
def _unknown_charset(case, oracle, mine, theirs):
    return _header(case) and any(for_label(lab.split("*")[0]) is None for lab in _labels(case))


@rule("T73", "UTF-7 encoded words: the oracle has no UTF-7 decoder")
def _utf7_word(case, oracle, mine, theirs):
    utf7 = for_label("utf-7")
    return _header(case) and any(for_label(lab.split("*")[0]) is utf7 for lab in _labels(case)) and (
        bool(_error(theirs)) or "+" in (_value(theirs) or ""))


@rule("T72", "a header with a bare line end cannot be framed as a header for the email parser")
def _bare_line_end(case, oracle, mine, theirs):
    return oracle == "py-default" and _header(case) and bool(re.search(rb"[\r\n]", _unfolded(case)))


# ---------------------------------------------------------------------------------------------
# Parameters

def _param_case(case) -> bool:
    return case["kind"] == "param"


@rule("T65", "tolerant parameter syntax: the oracle rejects the whole header value")
def _param_rejected(case, oracle, mine, theirs):
    return _param_case(case) and (bool(_error(theirs)) or theirs.get("params") is None)


@param_rule("T66", "quoted string with a fold: the oracle keeps CR/LF")
def _param_fold(case, oracle, name, a, b):
    return a is not None and b is not None and _FOLD_STR.sub("", b) == a


@param_rule("T55", "encoded words inside parameter values decoded (AmbiguousEncodedWordInQuotedString)")
def _ew_in_param(case, oracle, name, a, b):
    return b"=?" in _data(case) and (b is None or a is None or "=?" in b)


@param_rule("T51", "8-bit parameter text: UTF-8 if valid else windows-1252 (the oracle: U+FFFD or escapes)")
def _raw_8bit_param(case, oracle, name, a, b):
    if _data(case).isascii():
        return False
    return b is None or a is None or "\ufffd" in b or bool(_SURROGATE.search(b)) or (
        not a.isascii() and a.encode("utf-8", "replace") != b.encode("utf-8", "replace"))


@param_rule("T56", "'name*' is section 0; duplicate section numbers are kept in source order")
def _section_zero(case, oracle, name, a, b):
    data = _data(case).lower()
    return bool(re.search(rb"([\w-]+)\*=.*\b\1\*0\*?=|([\w-]+)\*0\*?=.*\b\2\*=", data))


@param_rule("T57", "an extended value wins over a plain one; the first of duplicate names wins")
def _extended_wins(case, oracle, name, a, b):
    names = [n.lower() for n in re.findall(rb"[;\s]([\w.-]+?)(?:\*\d*)?\*?\s*=", b";" + _data(case))]
    return names.count(name.encode("latin-1", "replace")) > 1


@param_rule("T64", "unknown RFC 2231 charset: UTF-8 if valid else windows-1252 (T1)")
def _param_unknown_charset(case, oracle, name, a, b):
    labels = re.findall(rb"\*=\s*\"?([^'\";\s]*)'", _data(case))
    return any(lab and for_label(lab.decode("latin-1")) is None for lab in labels)


@param_rule("T69", "extended value without two quotes or with an empty charset: UTF-8 if valid else windows-1252")
def _no_charset(case, oracle, name, a, b):
    for m in re.finditer(rb"\*0?\*?\s*=\s*\"?([^;\"]*)", _data(case)):
        v = m.group(1)
        if v.count(b"'") < 2 or v.startswith(b"'"):
            return True
    return False


@param_rule("T70", "a bad percent escape stays literal (InvalidPercentEscape)")
def _bad_percent(case, oracle, name, a, b):
    return bool(re.search(rb"%(?![0-9A-Fa-f]{2})", _data(case)))


@param_rule("T71", "'*N' sections are literal, '*N*' sections percent-decoded (RFC 2231 §4.1)")
def _literal_sections(case, oracle, name, a, b):
    return bool(re.search(rb"\*\d+\s*=[^;]*%[0-9A-Fa-f]{2}", _data(case)))


@param_rule("T37", "ISO-2022 damage in an RFC 2231 value becomes U+FFFD (InvalidIso2022)")
def _param_iso2022(case, oracle, name, a, b):
    labels = re.findall(rb"\*=\s*\"?([^'\";\s]*)'", _data(case))
    return a is not None and "\ufffd" in a and any(_iso2022(lab.decode("latin-1")) for lab in labels)


@param_rule("T65", "tolerant parameter syntax (comments, missing ';', unquoted spaces, stray quotes, backslashes)")
def _tolerant_syntax(case, oracle, name, a, b):
    if a is None or b is None or b in a or a in b or b.startswith('"') or "(" in b or "\\" in b:
        return True
    return "\\" in a and a.replace("\\", "") == b.replace("\\", "")


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
