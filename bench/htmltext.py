#!/usr/bin/env python3
"""HTML to text: onemail's own layout (onemail.message.htmltext) against the stdlib
``html.parser`` and the libraries one could use instead, on every text/html part of the mail
corpus, in one run: speed, and how each keeps tables, lists, links, entities, and drops
scripts and styles; then hostile input (docs/adr/0017-html-to-text.md).

Quality is counted against what lxml's HTML parser finds in the same document (the reference
structure; lxml is in the bench extra): for each anchor with an http(s) target and a text that
differs from it, whether the target is in the output; for each list item with text, whether it
starts a line; for each table row of two or more cells with text, whether the first two are on
one line in order; for each script or style element with content, whether its content leaks
into the output; whether an entity reference survives as ``&name;``; and the share of the
reference text's words found in the output.

Usage: python bench/htmltext.py [--limit N]   (needs the bench extra; a missing library is
left out of the table and named).
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from html.parser import HTMLParser
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from onemail.message import read  # noqa: E402
from onemail.message.htmltext import html_to_text  # noqa: E402

CORPUS = REPO.parent / "shared" / "corpus" / "mail"
WORD = re.compile(r"\w+")
ENTITY = re.compile(r"&(?:[A-Za-z]{2,8}|#[0-9]{2,6}|#[xX][0-9A-Fa-f]{2,5});")


class _StdlibText(HTMLParser):
    """The stdlib baseline: html.parser with the same layout rules as ours, written simply
    (blocks end lines, li bullets, cells TAB-separated, link targets, script/style dropped)."""

    BLOCKS = {"p", "div", "br", "tr", "li", "ul", "ol", "table", "h1", "h2", "h3", "h4", "h5",
              "h6", "blockquote", "pre", "hr", "dt", "dd"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.skip = 0
        self.href: str | None = None

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "title"):
            self.skip += 1
        elif tag in self.BLOCKS:
            self.out.append("\n* " if tag == "li" else "\n")
        elif tag in ("td", "th"):
            self.out.append("\t")
        elif tag == "a":
            self.href = dict(attrs).get("href")

    def handle_endtag(self, tag):
        if tag in ("script", "style", "title"):
            self.skip = max(self.skip - 1, 0)
        elif tag in self.BLOCKS:
            self.out.append("\n")
        elif tag == "a" and self.href and self.href.startswith(("http:", "https:")):
            self.out.append(f" <{self.href}>")
            self.href = None

    def handle_data(self, data):
        if not self.skip:
            self.out.append(re.sub(r"[ \t\r\n\f]+", " ", data))


def stdlib_text(html: str) -> str:
    p = _StdlibText()
    p.feed(html)
    p.close()
    lines = (line.strip(" \t") for line in "".join(p.out).split("\n"))
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def converters() -> tuple[dict, list[str]]:
    out = {"onemail": html_to_text, "stdlib html.parser": stdlib_text}
    missing = []
    try:
        import inscriptis

        out["inscriptis"] = inscriptis.get_text
    except ImportError:
        missing.append("inscriptis")
    try:
        import html_text

        out["html-text"] = html_text.extract_text
    except ImportError:
        missing.append("html-text")
    try:
        from selectolax.lexbor import LexborHTMLParser as Lexbor

        def lexbor(html: str) -> str:
            tree = Lexbor(html)
            for node in tree.css("script, style, title"):
                node.decompose()
            return tree.text(separator="\n", strip=True)

        out["selectolax"] = lexbor
    except ImportError:
        missing.append("selectolax")
    try:
        import html2text

        def markdown(html: str) -> str:
            h = html2text.HTML2Text()
            h.body_width = 0
            return h.handle(html)

        out["html2text (GPL)"] = markdown
    except ImportError:
        missing.append("html2text")
    return out, missing


def corpus_html(limit: int | None) -> list[str]:
    out = []
    for path in sorted(p for p in CORPUS.rglob("*") if p.suffix in (".eml", ".msg", ".tnef")):
        for part in read(path).walk():
            if part.media_type == "text/html" and part.text:
                out.append(part.text)
    return out[:limit] if limit else out


def reference(html: str) -> dict:
    """What lxml finds: anchors, list items, table rows, script/style contents, words."""
    import lxml.html

    try:
        doc = lxml.html.document_fromstring(html)
    except Exception:  # noqa: BLE001 - lxml refuses some documents (empty, only a comment)
        return {}
    scripts = [e.text_content().strip() for e in doc.iter("script", "style")]
    for e in list(doc.iter("script", "style", "title")):
        e.drop_tree()
    links = []
    for a in doc.iter("a"):
        href, text = (a.get("href") or "").strip(), " ".join(a.text_content().split())
        if href.startswith(("http:", "https:")) and text and text != href and len(href) < 300:
            links.append(href)
    items = []
    for li in doc.iter("li"):
        text = " ".join(li.text_content().split())
        if len(text) >= 3:
            items.append(text[:15])
    rows = []
    for tr in doc.iter("tr"):
        if tr.find(".//table") is not None:
            continue
        cells = [" ".join(c.text_content().split()) for c in tr if c.tag in ("td", "th")]
        cells = [c for c in cells if c]
        if len(cells) >= 2:
            rows.append((cells[0][:12], cells[1][:12]))
    text = doc.text_content()
    return {"scripts": [s[:20] for s in scripts if len(s) >= 20], "links": links, "items": items,
            "rows": rows, "words": set(WORD.findall(text)), "entities": bool(ENTITY.search(text))}


def score(ref: dict, out: str, tally: dict) -> None:
    if not ref:
        return
    lines = [line.strip() for line in out.split("\n")]
    for s in ref["scripts"]:
        tally["script"][0] += s in out
        tally["script"][1] += 1
    for href in ref["links"]:
        tally["links"][0] += href in out
        tally["links"][1] += 1
    starts = [re.sub(r"^[*\-\u2022+#>\s0-9.]+", "", line) for line in lines]
    for item in ref["items"]:
        tally["lists"][0] += any(s.startswith(item) for s in starts)
        tally["lists"][1] += 1
    for a, b in ref["rows"]:
        tally["tables"][0] += any(a in line and b in line[line.find(a) + len(a):] for line in lines)
        tally["tables"][1] += 1
    if not ref["entities"]:
        tally["entities"][0] += not ENTITY.search(out)
        tally["entities"][1] += 1
    if ref["words"]:
        found = set(WORD.findall(out))
        tally["words"][0] += len(ref["words"] & found) / len(ref["words"])
        tally["words"][1] += 1


HOSTILE = {"<!-- x 5000": "<!--" * 5000, "<a  x 5000": "<a " * 5000, "<![ x 100": "<![" * 100,
           "<td>x x 100000": "<td>x" * 100000}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--limit", type=int, help="only the first N documents")
    args = ap.parse_args(argv)
    if not CORPUS.exists():
        print(f"corpus not present: {CORPUS}")
        return 0
    docs = corpus_html(args.limit)
    chars = sum(map(len, docs))
    refs = [reference(d) for d in docs]
    found, missing = converters()
    print(f"{len(docs)} text/html parts, {chars / 1e6:.2f} M characters")
    if missing:
        print("not installed (left out): " + ", ".join(missing))
    kinds = ("links", "lists", "tables", "script", "entities", "words")
    print(f"{'converter':<20}{'s':>7}{'Mchar/s':>9}{'ratio':>7}  " + "".join(f"{k:>10}" for k in kinds))
    base = None
    for name, fn in found.items():
        tally = {k: [0, 0] for k in kinds}
        t = time.perf_counter()
        outs = [fn(d) for d in docs]
        dt = time.perf_counter() - t
        for ref, out in zip(refs, outs, strict=True):
            score(ref, out, tally)
        base = base or dt
        cells = "".join(f"{100 * v[0] / max(v[1], 1):>9.1f}%" for v in tally.values())
        print(f"{name:<20}{dt:>7.2f}{chars / dt / 1e6:>9.2f}{dt / base:>7.2f}  {cells}")
    print("(script: share of script/style contents that leak, lower is better; entities: share of "
          "documents without a literal &name; left; words: share of the reference text's words kept)")
    print("\nhostile input (seconds, or the exception raised)")
    for name, fn in found.items():
        row = []
        for html in HOSTILE.values():
            t = time.perf_counter()
            try:
                fn(html)
                row.append(f"{time.perf_counter() - t:>12.2f}")
            except Exception as exc:  # noqa: BLE001 - what each converter does is the measurement
                row.append(f"{type(exc).__name__[:12]:>12}")
        print(f"{name:<20}" + "".join(row))
    print(f"{'':<20}" + "".join(f"{k:>12}" for k in HOSTILE))
    return 0


if __name__ == "__main__":
    sys.exit(main())
