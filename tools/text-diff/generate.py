#!/usr/bin/env python3
"""Generate the text-diff cases: RFC 2047 header text, RFC 2231 parameters, charsets, IMAP UTF-7.

Writes ``tests/data/text-diff/cases.jsonl.gz``: one JSON object per line, sorted by id, no
timestamps (deterministic: a seeded ``random.Random``), with

* ``id``: ``<group>/<n>``; ``group`` names the construct (``valid``, ``adjacent``, ``split``,
  ``malformed/<kind>``, ``random``, ``param/<kind>``, ``corpus/header``, ``corpus/param``,
  ``charset/<label>``, ``imap``);
* ``kind``: ``header`` (unstructured text through ``rfc2047.decode_text``), ``param`` (a
  Content-Type value through ``rfc2231.parse_header_params``), ``charset`` (bytes through
  ``for_label(label).decode``) or ``imap`` (IMAP modified UTF-7 through ``utf7``);
* ``in``: the input bytes as a latin-1 string;
* ``label`` (``charset``) and ``text`` (``imap``: the text the reference encoder below encoded).

Sources: systematic cases for every rule of spec 000 "Encoded words" and "Parameters" (valid,
adjacent, split characters, malformed of every kind), seeded random mixtures of them, charset
cases (UTF-7, ISO-2022-JP/-KR, HZ; only when ``src/onemail/text/utf7.py`` and
``_codecs/iso_2022.py`` are committed), IMAP modified UTF-7 texts encoded by the independent
reference encoder :func:`imap_utf7_encode`, and the header values and Content-Type /
Content-Disposition parameters of ``../shared/corpus/mail/``.

Run: ``python tools/text-diff/generate.py`` (``tools/text-diff/run --live`` calls it).
"""

from __future__ import annotations

import base64
import gzip
import json
import random
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "data" / "text-diff" / "cases.jsonl.gz"
sys.path.insert(0, str(ROOT / "tests"))

TEXTS = [
    "café", "Grüße aus München", "naïve résumé", "Привет, мир", "Ελληνικά γράμματα",
    "Żółć gęślą jaźń", "日本語のテキスト", "中文测试邮件", "한국어 메일", "€100 – “quoted”",
    "emoji 😀 ok", "a_b=c?d", "plain ascii", "tab\there", "x", "",
]
# (label written in the word, Python codec used to produce the bytes)
CHARSETS = [
    ("utf-8", "utf-8"), ("UTF-8", "utf-8"), ("iso-8859-1", "latin-1"), ("ISO-8859-1", "latin-1"),
    ("windows-1252", "cp1252"), ("iso-8859-2", "iso8859-2"), ("iso-8859-5", "iso8859-5"),
    ("iso-8859-7", "iso8859-7"), ("iso-8859-15", "iso8859-15"), ("koi8-r", "koi8-r"),
    ("windows-1251", "cp1251"), ("us-ascii", "ascii"), ("shift_jis", "shift_jis"),
    ("euc-jp", "euc-jp"), ("gb2312", "gbk"), ("gbk", "gbk"), ("big5", "big5"),
    ("euc-kr", "euc-kr"), ("gb18030", "gb18030"), ("utf-16le", "utf-16-le"),
]
STATEFUL = [("utf-7", "utf-7"), ("iso-2022-jp", "iso2022_jp"), ("iso-2022-jp-1", "iso2022_jp_1"),
            ("iso-2022-jp-2", "iso2022_jp_2"), ("iso-2022-jp-3", "iso2022_jp_3"),
            ("iso-2022-kr", "iso2022_kr"), ("hz-gb-2312", "hz")]
SEPARATORS = ["", " ", "  ", "\t", " \t ", "\r\n ", "\r\n\t", "\n "]


def word(label: str, raw: bytes, enc: str = "Q") -> str:
    """An encoded word for ``raw`` bytes (Q escapes everything outside A-Za-z0-9)."""
    if enc.upper() == "B":
        return f"=?{label}?{enc}?{base64.b64encode(raw).decode()}?="
    body = "".join(chr(b) if chr(b).isalnum() and b < 0x80 else ("_" if b == 0x20 else f"={b:02X}")
                   for b in raw)
    return f"=?{label}?{enc}?{body}?="


def encodable(text: str, codec: str) -> bytes | None:
    try:
        return text.encode(codec)
    except UnicodeEncodeError:
        return None


def imap_utf7_encode(text: str) -> str:
    """Reference IMAP modified UTF-7 encoder (RFC 3501 §5.1.3), written here independently.

    Printable ASCII (0x20-0x7E) is written directly, ``&`` as ``&-``; every other run of
    characters is UTF-16BE, base64 with ``,`` for ``/``, no padding, between ``&`` and ``-``.
    """
    out = []
    run: list[str] = []

    def flush() -> None:
        if run:
            b64 = base64.b64encode("".join(run).encode("utf-16-be")).decode().rstrip("=")
            out.append("&" + b64.replace("/", ",") + "-")
            run.clear()

    for c in text:
        if " " <= c <= "~":
            flush()
            out.append("&-" if c == "&" else c)
        else:
            run.append(c)
    flush()
    return "".join(out)


class Cases:
    def __init__(self) -> None:
        self.items: dict[str, dict] = {}
        self.counts: dict[str, int] = {}

    def add(self, group: str, kind: str, data, **extra) -> None:
        if isinstance(data, str):
            data = data.encode("utf-8")
        n = self.counts.get(group, 0)
        self.counts[group] = n + 1
        case = {"id": f"{group}/{n:05d}", "kind": kind, "in": data.decode("latin-1")}
        case.update(extra)
        self.items[case["id"]] = case


def gen_valid(c: Cases) -> None:
    for label, codec in CHARSETS:
        for text in TEXTS:
            raw = encodable(text, codec)
            if raw is None:
                continue
            for enc in ("Q", "B", "q", "b"):
                w = word(label, raw, enc)
                c.add("valid", "header", w)
                c.add("valid", "header", f"Re: {w} (x)")


def gen_adjacent(c: Cases, rnd: random.Random) -> None:
    for sep in SEPARATORS:
        for (l1, c1), (l2, c2) in [(CHARSETS[0], CHARSETS[0]), (CHARSETS[0], CHARSETS[2]),
                                   (CHARSETS[4], CHARSETS[4]), (CHARSETS[9], CHARSETS[10]),
                                   (CHARSETS[12], CHARSETS[12]), (CHARSETS[0], CHARSETS[1])]:
            for _ in range(6):
                t1, t2 = rnd.choice(TEXTS), rnd.choice(TEXTS)
                r1, r2 = encodable(t1, c1), encodable(t2, c2)
                if r1 is None or r2 is None:
                    continue
                e1, e2 = rnd.choice("QB"), rnd.choice("QB")
                c.add("adjacent", "header", word(l1, r1, e1) + sep + word(l2, r2, e2))
                c.add("adjacent", "header", "a " + word(l1, r1, e1) + sep + word(l2, r2, e2) + sep + "b")


def gen_split(c: Cases) -> None:
    for text in ("é", "€", "日本", "😀", "Ωmega", "Грüße"):
        raw = text.encode("utf-8")
        for cut in range(1, len(raw)):
            for e1 in "QB":
                for e2 in "QB":
                    for sep in (" ", "\r\n ", ""):
                        c.add("split", "header", word("utf-8", raw[:cut], e1) + sep + word("utf-8", raw[cut:], e2))
    for text, label, codec in (("日本語", "shift_jis", "shift_jis"), ("中文", "gbk", "gbk"),
                               ("한국", "euc-kr", "euc-kr"), ("ab😀", "utf-16le", "utf-16-le")):
        raw = text.encode(codec)
        for cut in range(1, len(raw)):
            for e1, e2 in ("QQ", "BB", "QB"):
                c.add("split", "header", word(label, raw[:cut], e1) + " " + word(label, raw[cut:], e2))


def malformed_variants(rnd: random.Random) -> list[tuple[str, str]]:
    """(kind, header text) for every malformation of spec 000 "Encoded words"."""
    out = []
    for text in ("café", "Grüße", "日本語", "abc", "ab", "a", "hello world", "€"):
        raw = text.encode("utf-8")
        b64 = base64.b64encode(raw).decode()
        q = word("utf-8", raw, "Q")[10:-2]
        stripped = b64.rstrip("=")
        out += [
            ("b-padding-missing", f"=?utf-8?B?{stripped}?="),
            ("b-padding-extra", f"=?utf-8?B?{b64}=?="),
            ("b-padding-wrong", f"=?utf-8?B?{stripped}={'' if len(b64) % 4 else '=='}?="),
            ("b-tail-one", f"=?utf-8?B?{b64}Q?=" if not b64.endswith("=") else f"=?utf-8?B?{stripped}QQQQQ?="),
            ("b-bad-chars", f"=?utf-8?B?{b64[:2]}!.{b64[2:]}?="),
            ("b-data-after-padding", f"=?utf-8?B?{b64}{b64}?="),
            ("q-bad-equals", f"=?utf-8?Q?{q}=G1?="),
            ("q-equals-end", f"=?utf-8?Q?{q}=?="),
            ("q-equals-short", f"=?utf-8?Q?{q}=4?="),
            ("q-lowercase-hex", f"=?utf-8?Q?{q.lower()}?="),
            ("q-8bit-raw", f"=?utf-8?Q?{text}?="),
            ("space-inside", f"=?utf-8?Q?{q[:3]} {q[3:]}?="),
            ("tab-inside", f"=?utf-8?B?{b64[:4]}\t{b64[4:]}?="),
            ("crlf-inside", f"=?utf-8?Q?{q[:3]}\r\n{q[3:]}?= x"),
            ("fold-inside", f"=?utf-8?Q?{q[:3]}\r\n {q[3:]}?="),
            ("bad-encoding", f"=?utf-8?X?{q}?="),
            ("long-encoding", f"=?utf-8?QB?{q}?="),
            ("empty-encoding", f"=?utf-8??{q}?="),
            ("missing-close", f"=?utf-8?Q?{q} more"),
            ("missing-close-then-word", f"=?utf-8?Q?{q} =?utf-8?Q?{q}?="),
            ("empty-charset", f"=??Q?{q}?="),
            ("space-charset", f"=?utf 8?Q?{q}?="),
            ("no-structure", f"=?utf-8 {q}?="),
            ("no-structure-2", "x =?utf-8?Q"),
            ("too-long", word("utf-8", (text * 20).encode("utf-8"), rnd.choice("QB"))),
            ("unknown-charset", word("x-unknown", raw, rnd.choice("QB"))),
            ("unknown-charset-latin1", word("x-unknown", text.encode("utf-8").decode("utf-8").encode("latin-1", "replace"), "Q")),
            ("language", word("utf-8*en", raw, rnd.choice("QB"))),
            ("language-latin1", word("iso-8859-1*de-DE", text.encode("latin-1", "replace"), "Q")),
            ("no-space-before", "abc" + word("utf-8", raw, "Q")),
            ("no-space-after", word("utf-8", raw, "Q") + "def"),
            ("no-space-both", "(" + word("utf-8", raw, "B") + ")"),
            ("nested", f"=?utf-8?Q?a=?utf-8?Q?{q}?="),
            ("question-in-q", f"=?utf-8?Q?a?b{q}?="),
            ("empty-text", "x =?utf-8?Q??= y"),
            ("latin1-c1", word("iso-8859-1", b"\x80\x93\x9f" + raw[:1], rnd.choice("QB"))),
            ("ascii-8bit", word("us-ascii", b"caf\xe9", "Q")),
            ("utf8-invalid", word("utf-8", b"caf\xe9 \xc3", rnd.choice("QB"))),
            ("plain-utf8", text + " " + word("utf-8", raw, "Q")),
            ("plain-latin1", "caf\xe9 ".encode("latin-1").decode("latin-1") + word("utf-8", raw, "Q")),
            ("fold-plain", f"{text}\r\n {text}\r\n\t{text}"),
            ("bare-cr-lf", f"{text}\r{text}\n{text}"),
        ]
    return out


def gen_malformed(c: Cases, rnd: random.Random) -> None:
    for kind, text in malformed_variants(rnd):
        if kind == "plain-latin1":
            c.add(f"malformed/{kind}", "header", text.encode("latin-1"))
        else:
            c.add(f"malformed/{kind}", "header", text)


def gen_random(c: Cases, rnd: random.Random, n: int) -> None:
    variants = malformed_variants(rnd)
    for _ in range(n):
        parts = []
        for _ in range(rnd.randint(1, 5)):
            r = rnd.random()
            if r < 0.45:
                label, codec = rnd.choice(CHARSETS)
                raw = encodable(rnd.choice(TEXTS), codec)
                if raw is None:
                    continue
                parts.append(word(label, raw, rnd.choice("QBqb")).encode("latin-1"))
            elif r < 0.7:
                parts.append(rnd.choice([b"Re:", b"hello", b"(x)", b"a=b", b"?", b"=?", b"?=", b"[list]"]))
            elif r < 0.8:
                parts.append(rnd.choice(["Grüße".encode(), "café".encode("latin-1"), "日本".encode()]))
            else:
                parts.append(rnd.choice(variants)[1].encode("utf-8"))
            parts.append(rnd.choice(SEPARATORS).encode())
        c.add("random", "header", b"".join(parts).strip(b"\r\n"))


def gen_params(c: Cases, rnd: random.Random) -> None:
    def add(kind, value):
        c.add(f"param/{kind}", "param", value)

    for text in TEXTS[:14]:
        raw = text.encode("utf-8")
        pct = "".join(chr(b) if chr(b).isalnum() and b < 0x80 else f"%{b:02X}" for b in raw)
        pct_l1 = encodable(text, "latin-1")
        add("token", "text/plain; charset=us-ascii; name=file.txt")
        add("quoted", f'attachment; filename="{text}.txt"')
        add("quoted-escapes", 'attachment; filename="a \\"b\\" \\\\ c.txt"')
        add("extended", f"attachment; filename*=utf-8''{pct}")
        add("extended-upper", f"attachment; FILENAME*=UTF-8'en'{pct}")
        if pct_l1 is not None:
            p1 = "".join(chr(b) if chr(b).isalnum() and b < 0x80 else f"%{b:02X}" for b in pct_l1)
            add("extended-latin1", f"attachment; filename*=iso-8859-1''{p1}")
        cut = rnd.randint(0, len(pct))
        while cut < len(pct) and cut > 0 and pct[cut - 1] == "%" or (cut > 1 and pct[cut - 2] == "%"):
            cut += 1
        a, b = pct[:cut], pct[cut:]
        add("continuation", f"attachment; filename*0*=utf-8''{a}; filename*1*={b}")
        add("continuation-reversed", f"attachment; filename*1*={b}; filename*0*=utf-8''{a}")
        add("continuation-mixed", f"attachment; filename*0*=utf-8''{a}; filename*1=literal%41; filename*2*={b}")
        add("continuation-plain", f'attachment; filename*0="{text[:3]}"; filename*1="{text[3:]}"')
        # split a UTF-8 character between sections: cut inside a %XX%XX sequence
        if len(raw) > 1 and any(x >= 0x80 for x in raw):
            k = next(i for i, x in enumerate(raw) if x >= 0x80) + 1
            left = "".join(f"%{x:02X}" for x in raw[:k])
            right = "".join(f"%{x:02X}" for x in raw[k:])
            add("split-char", f"attachment; filename*0*=utf-8''{left}; filename*1*={right}")
        add("missing-quotes", f"attachment; filename*={pct}")
        add("one-quote", f"attachment; filename*=utf-8'{pct}")
        add("empty-charset", f"attachment; filename*=''{pct}")
        add("unknown-charset", f"attachment; filename*=x-unknown''{pct}")
        add("bad-percent", f"attachment; filename*=utf-8''{pct}%G0%4")
        add("encoded-word-quoted", f'attachment; filename="{word("utf-8", raw, "B")}"')
        add("encoded-word-token", f'attachment; filename={word("utf-8", raw, "Q")}')
        add("raw-8bit-utf8", f'attachment; filename="{text}"')
        if pct_l1 is not None:
            c.add("param/raw-8bit-latin1", "param", f'attachment; filename="{text}"'.encode("latin-1"))
        add("duplicate", f"text/plain; name=a; NAME=b; name={pct or 'x'}")
        add("plain-and-extended", f"attachment; filename=fallback.txt; filename*=utf-8''{pct}")
        add("extended-and-continuation", f"attachment; filename*=utf-8''{pct}; filename*0*=utf-8''{pct}")
        add("missing-semicolon", f"text/plain charset=utf-8 name=\"{text}\"")
        add("unquoted-space", f"attachment; filename={text} more.txt; size=3")
        add("comments", f"text/plain (c) ; charset=us-ascii (comment); name=\"{text}\"")
        add("stray-quote", f"attachment; filename=\"{text}\"junk; x=1")
        add("unterminated-quote", f"attachment; filename=\"{text}")
        add("sparse-sections", f"attachment; filename*0*=utf-8''{a}; filename*3*={b}")
        add("language-only", "attachment; title*=us-ascii'en-us'This%20is%20%2A%2A%2Afun%2A%2A%2A")


def gen_random_params(c: Cases, rnd: random.Random, n: int) -> None:
    names = ["filename", "name", "title", "charset", "boundary", "x"]
    for _ in range(n):
        parts = [rnd.choice(["text/plain", "attachment", "inline", "application/octet-stream"])]
        for _ in range(rnd.randint(1, 4)):
            name = rnd.choice(names)
            text = rnd.choice(TEXTS)
            raw = text.encode("utf-8")
            pct = "".join(chr(b) if chr(b).isalnum() and b < 0x80 else f"%{b:02X}" for b in raw)
            form = rnd.randrange(6)
            if form == 0:
                parts.append(f'{name}="{text}"')
            elif form == 1:
                parts.append(f"{name}*=utf-8''{pct}")
            elif form == 2:
                k = rnd.randint(0, len(pct))
                parts.append(f"{name}*0*=utf-8''{pct[:k]}; {name}*1*={pct[k:]}")
            elif form == 3:
                parts.append(f'{name}="{word("utf-8", raw, rnd.choice("QB"))}"')
            elif form == 4:
                parts.append(f"{name}={rnd.choice(['a', 'b.txt', 'x-y', '1'])}")
            else:
                parts.append(f"{name}*={rnd.choice(['', 'utf-8', 'bogus'])}'{rnd.choice(['', 'en'])}'{pct}")
        c.add("param/random", "param", "; ".join(parts))


def gen_stateful(c: Cases, rnd: random.Random) -> None:
    texts = TEXTS + ["A+B-C", "日本語とASCII混在", "~{}~", "한국어 텍스트", "中文 HZ ~ test",
                     "Ελληνικά 日本 한국 中文", "ｶﾀｶﾅ half-width", "𠀋 jis x 0213", "Łódź 日本"]
    for label, codec in STATEFUL:
        for text in texts:
            raw = encodable(text, codec)
            if raw is None:
                continue
            c.add(f"charset/{label}", "charset", raw, label=label)
            for enc in "QB":
                c.add(f"charset-word/{label}", "header", word(label, raw, enc))
            for _ in range(3):  # damaged: a byte dropped, changed, or an 8-bit byte inserted
                k = rnd.randrange(len(raw) + 1)
                bad = rnd.choice([raw[:k] + raw[k + 1:], raw[:k] + b"\xa4" + raw[k:],
                                  raw[:k] + b"\x1b(" + raw[k:], raw[:k]])
                c.add(f"charset/{label}", "charset", bad, label=label)


def gen_imap(c: Cases, rnd: random.Random) -> None:
    alphabet = "abcAZ09 &-~,/+" + "éüß€日本語😀\u0000\u007f\ufeff"
    for t in TEXTS + ["&", "&&-", "~peter/mail/日本語/台北", "a&b"]:
        c.add("imap", "imap", imap_utf7_encode(t), text=t)
    for _ in range(400):
        t = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 12)))
        c.add("imap", "imap", imap_utf7_encode(t), text=t)


def gen_corpus(c: Cases) -> None:
    try:
        from mail_headers import MAIL, corpus_headers
    except ImportError:
        return
    if not MAIL.exists():
        return
    seen: set[bytes] = set()
    for _rel, name, value in corpus_headers():
        if value in seen or len(value) > 4000:
            continue
        if name.lower() in (b"content-type", b"content-disposition") and b"=" in value:
            seen.add(value)
            c.add("corpus/param", "param", value)
        elif b"=?" in value or not value.isascii():
            seen.add(value)
            c.add("corpus/header", "header", value)


def stateful_committed() -> bool:
    """True when the UTF-7 and ISO-2022 modules are committed (tracked by git)."""
    try:
        subprocess.run(["git", "ls-files", "--error-unmatch", "src/onemail/text/utf7.py",
                        "src/onemail/text/_codecs/iso_2022.py"], cwd=ROOT, check=True,
                       capture_output=True)
        return True
    except (OSError, subprocess.CalledProcessError):
        return False


def generate() -> list[dict]:
    rnd = random.Random(2047)
    c = Cases()
    gen_valid(c)
    gen_adjacent(c, rnd)
    gen_split(c)
    gen_malformed(c, rnd)
    gen_random(c, rnd, 6000)
    gen_params(c, rnd)
    gen_random_params(c, rnd, 2500)
    if stateful_committed():
        gen_stateful(c, rnd)
        gen_imap(c, rnd)
    gen_corpus(c)
    return [c.items[k] for k in sorted(c.items)]


def write(cases: list[dict], path: Path = OUT) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    body = "".join(json.dumps(case, ensure_ascii=True, sort_keys=True) + "\n" for case in cases)
    with open(path, "wb") as f, gzip.GzipFile(fileobj=f, mode="wb", mtime=0, filename="") as g:
        g.write(body.encode("ascii"))


def read(path: Path = OUT) -> list[dict]:
    with gzip.open(path, "rt", encoding="ascii") as f:
        return [json.loads(line) for line in f]


def main() -> int:
    cases = generate()
    write(cases)
    kinds: dict[str, int] = {}
    for case in cases:
        kinds[case["kind"]] = kinds.get(case["kind"], 0) + 1
    print(f"{len(cases)} cases ({', '.join(f'{k} {v}' for k, v in sorted(kinds.items()))}) -> "
          f"{OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
