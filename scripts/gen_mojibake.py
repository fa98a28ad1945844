#!/usr/bin/env python3
"""Generate mojibake cases from text in neither corpus, for every chain repair knows.

The text is sampled from the n-gram data that ``scripts/train_detect.py`` reads
(lingua-language-detector 1.3.5, Apache-2.0): words of an alphabetic language are letter
chains drawn from its letter pairs and triples (lingua's trigrams, word-internal), East Asian
text is drawn from the character frequencies (lingua has only those for Chinese, Japanese and
Korean). So the cases are independent of ``../shared/corpus/mojibake`` and of the detect
corpora; the words are not real words, but their letters, letter pairs and characters come in
the proportions of the language.

For every ``(wrong, right)`` pair of ``onemail.detect._repair.PAIRS`` (and UTF-8 read as
windows-1252 twice) the originals are texts that ``right`` encodes, in the languages that
charset is used for; the mojibake is ``original.encode(right).decode(wrong)``, and a case is
kept only when every step is strict and lossless (the mojibake encodes back to the same bytes)
and the mojibake differs from the original, as in the visible ``synthetic.jsonl``. Each chain
gets ``short`` texts (6 to 40 characters) and ``long`` ones (80 to 300).

Deterministic for a seed. Nothing is written: :func:`cases` returns the list (bench/repair.py
and the tests call it). ``python scripts/gen_mojibake.py [--per-chain N]`` prints a summary.
"""

from __future__ import annotations

import argparse
import bisect
import random
import sys
from collections import defaultdict
from itertools import accumulate
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import train_detect  # noqa: E402  (the same reading of lingua's data)

#: CPython codecs of the charsets of the pairs (what repair encodes and decodes with).
CODECS = {"utf-8": "utf-8", "gbk": "gbk", "big5": "big5", "shift_jis": "cp932", "euc-kr": "euc_kr",
          "windows-1252": "cp1252", "iso-8859-1": "latin-1", "windows-1251": "cp1251",
          "windows-1250": "cp1250", "iso-8859-2": "iso8859_2", "windows-1257": "cp1257",
          "macintosh": "mac_roman", "ibm437": "cp437"}
#: The languages whose text each true charset carries (lingua codes).
TEXT_OF = {
    "utf-8": ("fr", "de", "es", "pt", "pl", "cs", "hu", "ro", "tr", "vi", "sv", "ru", "uk", "bg",
              "el", "he", "ar", "th", "zh", "ja", "ko"),
    "gbk": ("zh",), "big5": ("zh",), "shift_jis": ("ja",), "euc-kr": ("ko",),
    "windows-1252": ("fr", "de", "es", "pt", "it", "sv", "da", "nl"),
    "iso-8859-1": ("fr", "de", "es", "pt", "it", "sv", "da", "nl"),
}
SHORT = (6, 40)
LONG = (80, 300)
#: Punctuation written after a word now and then (a full stop ends a sentence).
PUNCTUATION = (", ", ". ", " ", " ", " ", " ", " ", " ", " ", " ")
#: A typographic sign after a word (a dash, an ellipsis, an apostrophe), or quotes around it,
#: at the rate the model assumes for every language: ``SIGNS_PER_LETTER`` per letter of
#: ``train_detect`` times the mean length of a generated word (five letters).
SIGNS = (" – ", "… ", "’s ")
SIGN_PER_WORD = train_detect.SIGNS_PER_LETTER * 5
EAST = ("zh", "ja", "ko")
_EAST_PUNCT = {"zh": "，。", "ja": "、。", "ko": ", ."}


class _Language:
    """Samplers of one language's text."""

    def __init__(self, code: str):
        self.code = code
        uni = {ch: float(p) for ch, p in train_detect.lingua(code, "unigrams").items()}
        self.chars = sorted(uni)
        self.cum = list(accumulate(uni[ch] for ch in self.chars))
        self.next: dict[str, tuple[list[str], list[float]]] = {}
        if code in EAST:
            return
        pairs = train_detect.lingua(code, "bigrams")
        triples = train_detect.lingua(code, "trigrams")
        starts: dict[str, float] = {}
        follow: dict[str, dict[str, float]] = defaultdict(dict)
        for pair, p in pairs.items():
            starts[pair] = uni.get(pair[0], 0.0) * float(p)
        for triple, p in triples.items():
            follow[triple[:2]][triple[2]] = float(p)
        self.starts = sorted(starts)
        self.start_cum = list(accumulate(starts[s] for s in self.starts))
        for head, nxt in follow.items():
            keys = sorted(nxt)
            self.next[head] = (keys, list(accumulate(nxt[k] for k in keys)))

    @staticmethod
    def _pick(rng: random.Random, keys: list[str], cum: list[float]) -> str:
        return keys[min(len(keys) - 1, bisect.bisect(cum, rng.random() * cum[-1]))]

    def word(self, rng: random.Random) -> str:
        if self.code in EAST:
            n = rng.randint(1, 4) if self.code == "ko" else rng.randint(2, 8)
            return "".join(self._pick(rng, self.chars, self.cum) for _ in range(n))
        w = self._pick(rng, self.starts, self.start_cum)
        for _ in range(rng.randint(0, 7)):
            nxt = self.next.get(w[-2:])
            if nxt is None:
                break
            w += self._pick(rng, *nxt)
        return w

    def text(self, rng: random.Random, low: int, high: int) -> str:
        size = rng.randint(low, high)
        out = ""
        capital = True
        while len(out) < size:
            w = self.word(rng)
            if capital and self.code not in EAST:
                w = w[:1].upper() + w[1:]
            if self.code in EAST and self.code != "ko":
                out += w + rng.choice(_EAST_PUNCT[self.code] + "")
                capital = False
                continue
            sep = rng.choice(PUNCTUATION)
            if rng.random() < SIGN_PER_WORD:
                sep = rng.choice(SIGNS)
            capital = sep in (". ", "… ")
            if rng.random() < SIGN_PER_WORD / 2:
                w = f"“{w}”"
            out += w + sep
        return out[:size].rstrip() or out.strip()


def chains() -> list[tuple[str, tuple[tuple[str, str], ...]]]:
    """Return ``[(type, ((encoded_as, decoded_as), ...))]``: one per pair of repair's list,
    named ``right>wrong`` as in synthetic.jsonl, and UTF-8 read as windows-1252 twice."""
    sys.path.insert(0, str(train_detect.REPO / "src"))
    from onemail.detect._repair import PAIRS

    out = [(f"{right}>{wrong}", ((right, wrong),)) for wrong, right in PAIRS]
    out.append(("utf-8>windows-1252 x2", (("utf-8", "windows-1252"), ("utf-8", "windows-1252"))))
    return out


def _apply(text: str, chain) -> str | None:
    """The mojibake of ``text`` through ``chain``, or None when a step is not strict and
    lossless."""
    for encoded_as, decoded_as in chain:
        try:
            data = text.encode(CODECS[encoded_as])
            wrong = data.decode(CODECS[decoded_as])
            if wrong.encode(CODECS[decoded_as]) != data:
                return None
        except (UnicodeError, LookupError):
            return None
        text = wrong
    return text


#: Texts tried per case before a chain is given up (most CJK bytes are not valid windows-1252
#: strictly: few Shift_JIS texts survive, as the visible set's README says).
TRIES = 60


def cases(seed: int = 17, per_chain: int = 20) -> list[dict]:
    """Return the generated cases: ``{"id", "type", "chain", "lang", "size", "original",
    "mojibake"}`` dicts, ``per_chain`` short and ``per_chain`` long ones per chain type where
    that many lossless texts are found (``TRIES`` texts per case)."""
    rng = random.Random(seed)
    langs: dict[str, _Language] = {}
    out = []
    for kind, chain in chains():
        right = chain[0][0]
        for size, (low, high) in (("short", SHORT), ("long", LONG)):
            found = 0
            for attempt in range(per_chain * TRIES):
                if found == per_chain:
                    break
                code = TEXT_OF[right][attempt % len(TEXT_OF[right])]
                lang = langs.get(code) or langs.setdefault(code, _Language(code))
                original = lang.text(rng, low, high)
                if original.isascii():
                    continue
                mojibake = _apply(original, chain)
                if mojibake is None or mojibake == original:
                    continue
                out.append({"id": f"g-{len(out):05d}", "type": kind, "chain": [list(s) for s in chain],
                            "lang": code, "size": size, "original": original, "mojibake": mojibake})
                found += 1
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-chain", type=int, default=20)
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--show", type=int, default=0, help="print this many cases of each type")
    args = ap.parse_args(argv)
    got = cases(args.seed, args.per_chain)
    by: dict[str, list[dict]] = defaultdict(list)
    for c in got:
        by[c["type"]].append(c)
    for kind, items in by.items():
        sizes = defaultdict(int)
        for c in items:
            sizes[c["size"]] += 1
        print(f"{kind:28} short {sizes['short']:3} long {sizes['long']:3}")
        for c in items[: args.show]:
            print(f"    {c['lang']} {c['original'][:60]!r} -> {c['mojibake'][:60]!r}")
    print(f"{len(got)} cases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
