"""RTF de-encapsulation oracles: synthetic cases, HTML normalisation and the explain rules.

Shared by ``tools/rtf-oracle/record.py`` (which records RTFDE and rtf-stream-parser) and
``tests/differential/test_rtf_oracles.py`` (which replays the records). Every difference
between an oracle and onemail must be explained by one rule of ``RULES``; each rule names the
ambiguity id of ``docs/ambiguities.md`` that documents it.

A rule is ``(id, oracles, applies, transform)``: ``applies(ctx)`` says whether the input is of
the rule's class; ``transform(ctx, ours, theirs) -> (ours, theirs)`` removes the difference
the rule explains (identity for a rule that explains a whole class, such as an oracle that
fails). A difference is explained when, after the transforms of every applicable rule, the
texts are equal (or the oracle failed and a rule for failures applies).
"""

from __future__ import annotations

import base64
import re
import zlib
from dataclasses import dataclass

from onemail.rtf import RtfDefectKind, deencapsulate, encapsulate_html, encapsulate_text

# (kind, str): our output de-encapsulated by other readers (decision 1).
SYNTHETIC = [
    ("html", "<html><head><title>T</title><style>p {margin:0}</style></head><body>"
             "<p>Hello &amp; welcome, caf\u00e9 \u20ac5.</p><br><div>line one\r\nline two"
             "</div></body></html>"),
    ("html", "<p>braces { } and a backslash \\ and \\par in text</p>"),
    ("html", "<!DOCTYPE html><html><body><p>\u65e5\u672c\u8a9e \u0416 \U0001f600</p>"
             "<!-- a comment --></body></html>"),
    ("html", "<p>&nbsp;&lt;tag&gt; &#8217;quoted&#8217;</p>"),
    ("text", "Plain text\r\nwith CRLF lines\r\n\tand a tab, caf\u00e9, \u20ac, \u65e5\u672c."),
    ("text", "Braces {x} and \\ backslashes\r\n\r\nEmoji \U0001f600 end"),
]


def unpack(packed: str) -> str:
    """The oracle text of a record (see tools/rtf-oracle/record.py)."""
    return zlib.decompress(base64.b64decode(packed)).decode("utf-8", "surrogatepass")


def synthetic_rtf(n: int) -> bytes:
    kind, source = SYNTHETIC[n]
    return encapsulate_html(source) if kind == "html" else encapsulate_text(source)


_CONTENT_TYPE_META = re.compile(r"<meta\s+http-equiv\s*=\s*\"?content-type\"?[^>]*>", re.I)
_WHITE_SPACE = re.compile(r"\s+")


def normalise_html(html: str) -> str:
    """Remove the corpus README's usual differences between de-encapsulated HTML and the
    stored PidTagHtml: Outlook's Content-Type meta, white space (line breaks differ) and
    letter case (``</Style>`` versus ``</style>``)."""
    html = _CONTENT_TYPE_META.sub("", html.rstrip("\x00"))
    return _WHITE_SPACE.sub("", html).lower()


@dataclass
class Context:
    oracle: str  # "RTFDE" or "rtf-stream-parser"
    rtf: bytes
    status: str
    error: str | None
    kinds: list  # our defect kinds

    @property
    def header(self) -> bytes:
        return self.rtf[:400]


def _same(ctx, ours, theirs):
    return ours, theirs


def _crlf_to_lf(ctx, ours, theirs):
    return ours.replace("\r\n", "\n"), theirs


def _nbsp_entity(ctx, ours, theirs):
    return ours.replace("\u00a0", "&nbsp;"), theirs


_LONE = re.compile("[\ud800-\udfff]")


def _lone_surrogates(ctx, ours, theirs):
    return ours, _LONE.sub("\ufffd", theirs)


def _surrogate_pairs_across_text(ctx, ours, theirs):
    # RTFDE joins a high and a low surrogate even when text lies between them: compare with
    # the U+FFFD and the stray surrogates removed.
    strip = re.compile("[\ufffd\ud800-\udfff]|[\U00010000-\U0010ffff]")
    return strip.sub("", ours), strip.sub("", theirs)


_PNTEXT = re.compile(rb"\{\\pntext ([^{}\\]*)\\tab\s*\}")


def _pntext_removed(ctx, ours, theirs):
    for m in _PNTEXT.finditer(ctx.rtf):
        theirs = theirs.replace(m.group(1).decode("latin-1") + "\t", "", 1)
    return ours, theirs


def _utf8_as_1252(ctx, ours, theirs):
    def mojibake(m):
        return m.group().encode("utf-8").decode("cp1252", "replace")

    return re.sub(r"[^\x00-\x7f]", mojibake, ours), theirs


def _prefix(ctx, ours, theirs):
    return (theirs, theirs) if ours.startswith(theirs) else (ours, theirs)


@dataclass(frozen=True)
class Rule:
    id: str  # ambiguity id in docs/ambiguities.md
    oracles: tuple[str, ...]
    description: str
    applies: object  # Callable[[Context], bool]
    transform: object = _same
    explains_failure: bool = False


RULES = [
    Rule("RT34", ("RTFDE",), "RTFDE writes LF for \\par and \\line; the spec says CRLF",
         lambda ctx: True, _crlf_to_lf),
    Rule("RT45", ("RTFDE",), "RTFDE replaces U+00A0 by &nbsp; in HTML output",
         lambda ctx: b"\\fromhtml1" in ctx.header, _nbsp_entity),
    Rule("RT25", ("RTFDE", "rtf-stream-parser"),
         "a \\fromtext document holding \\htmltag groups: they copy the groups, the spec "
         "skips them and ignores \\htmlrtf",
         lambda ctx: b"\\fromtext" in ctx.header and b"\\*\\htmltag" in ctx.rtf),
    Rule("RT32", ("rtf-stream-parser",), "unpaired \\u surrogates kept as lone code units",
         lambda ctx: RtfDefectKind.LONE_SURROGATE in ctx.kinds, _lone_surrogates),
    Rule("RT32", ("RTFDE",), "RTFDE pairs surrogates across the text between them",
         lambda ctx: RtfDefectKind.LONE_SURROGATE in ctx.kinds, _surrogate_pairs_across_text),
    Rule("RT26", ("RTFDE",), "RTFDE keeps the text of {\\pntext} paragraph-number groups",
         lambda ctx: b"{\\pntext" in ctx.rtf, _pntext_removed),
    Rule("RT22", ("RTFDE",), "RTFDE decodes \\'hh under \\ansicpg65001 as windows-1252",
         lambda ctx: b"\\ansicpg65001" in ctx.header, _utf8_as_1252),
    Rule("RT24", ("rtf-stream-parser",), "stops at the end of the root group; Aspose writes "
         "a '}' inside \\htmlrtf that ends it early and the document goes on",
         lambda ctx: RtfDefectKind.UNBALANCED_GROUP_END in ctx.kinds, _prefix),
    # Failures of RTFDE, each on a class of input the spec reads.
    Rule("RT44", ("RTFDE",), "no charset control word (Aspose writes \\ANSI in upper case): "
         "RTFDE refuses the document, the spec reads it as windows-1252",
         lambda ctx: ctx.status == "error" and "charset control word" in (ctx.error or ""),
         explains_failure=True),
    Rule("RT22", ("RTFDE",), "no \\fonttbl: RTFDE refuses the document, the spec uses the "
         "document's code page",
         lambda ctx: ctx.status == "error" and "No font table" in (ctx.error or "")
         and b"\\fonttbl" not in ctx.rtf, explains_failure=True),
    Rule("RT24", ("RTFDE",), "unbalanced or unclosed groups: RTFDE's grammar refuses them, "
         "the tokenizer reports them and goes on",
         lambda ctx: ctx.status == "error" and "MalformedEncapsulatedRtf" in (ctx.error or "")
         and (RtfDefectKind.UNBALANCED_GROUP_END in ctx.kinds
              or RtfDefectKind.UNCLOSED_GROUPS in ctx.kinds), explains_failure=True),
    Rule("RT22", ("RTFDE",), "double-byte \\'hh under \\ansicpg932 decoded by RTFDE as "
         "windows-1252, which fails on 0x81",
         lambda ctx: ctx.status == "error" and "UnicodeDecodeError" in (ctx.error or "")
         and b"\\ansicpg932" in ctx.header, explains_failure=True),
]


def explain(oracle: str, rtf: bytes, status: str, error: str | None, mode: str | None,
            theirs: str | None) -> tuple[bool, list[str]]:
    """Return (explained, rule ids used) for one oracle answer against onemail's."""
    result = deencapsulate(rtf)
    ctx = Context(oracle, rtf, status, error, [d.kind for d in result.defects])
    rules = [r for r in RULES if oracle in r.oracles and r.applies(ctx)]
    if status != "ok":
        used = [r.id for r in rules if r.explains_failure]
        return bool(used), used
    ours = result.text
    if ours == theirs and mode == result.kind:
        return True, []
    used = []
    if mode != result.kind:  # only a whole-class rule explains another reading of the header
        rules = [r for r in rules if r.transform is _same and not r.explains_failure]
        return bool(rules), [r.id for r in rules]
    for rule in rules:
        if rule.explains_failure:
            continue
        new_ours, new_theirs = rule.transform(ctx, ours, theirs)
        if (new_ours, new_theirs) != (ours, theirs) or rule.transform is _same:
            used.append(rule.id)
        ours, theirs = new_ours, new_theirs
        if rule.transform is _same:  # a whole-class rule
            return True, used
    return ours == theirs, used
