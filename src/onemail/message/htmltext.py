"""Plain text out of an HTML body: :func:`html_to_text`, for a record's ``body_text`` (M32).

Why our own reader and not ``html.parser`` or a library: ``docs/adr/0017-html-to-text.md``
(measured on the corpus). In short: CPython 3.11's ``html.parser`` takes quadratic time on
unclosed comments and tags (20 000 ``<a `` took 51 s) and raises ``AssertionError`` on
``<![<![``; the lxml- and lexbor-based converters are linear but bring a C library for one
field of a record, and none of them lays out lists, tables, links and quotes the way a mail
reader's plain-text view does.

How it works: one compiled regular expression finds the next piece of markup (a tag, a comment,
a ``<!...>`` or ``<?...>``) from the current position; the text before it is laid out, the
markup updates the layout state. Every alternative consumes what it starts (a tag runs to its
``>`` outside quotes or to the end of the input, as the HTML tokenizer reads it; a comment to
``-->`` or the end), quantifiers are possessive, and a raw text element (``script``, ``style``,
``title``, ``textarea``, ...) is skipped with one search for its end tag, so every character is
looked at a bounded number of times: time is linear in the input and nothing raises.

Layout (the rules of a mail reader's plain-text view, Thunderbird's and Outlook's "plain text"):

* white space collapses to one space outside ``pre``; ``&...;`` character references are
  resolved (:func:`html.unescape`: HTML5 named references, numeric ones);
  U+00A0 (``&nbsp;``) is kept as a character, trailing white space is cut from every line;
* block elements (``p``, ``div``, ``h1``-``h6``, ``ul``, ``table``, ``blockquote``, ...) start
  and end lines; paragraphs, headings, lists, tables and quotes are set off by one blank line;
  ``br`` ends a line; runs of blank lines become one; the result has no leading or trailing
  blank line and uses ``\\n`` line ends;
* ``li`` starts a line with ``* `` (``ul``) or ``N. `` (``ol``, from its ``start``), two spaces
  of indent per level of nesting;
* the cells of a table row are on one line, separated by a TAB; each row is a line;
* ``<a href="URL">text</a>`` gives ``text <URL>`` when the URL (``http``, ``https``, ``ftp``,
  ``mailto`` without its scheme) differs from the text; a link without text gives nothing;
* lines inside ``blockquote`` start with ``> `` per level (the plain-text quoting of replies);
* ``script``, ``style``, ``head``'s ``title``, ``template``, comments, ``<!DOCTYPE>``,
  conditional comments and images are dropped.
"""

from __future__ import annotations

import re
from html import unescape

__all__ = ["html_to_text"]

# The next piece of markup at or after a position (search). Groups: 1 the slash of an end tag,
# 2 the tag name, 3 its attributes. Possessive quantifiers: nothing is scanned twice.
_MARKUP = re.compile(
    r"<!--.*?(?:-->|\Z)"  # a comment, to its end or to the end of the input
    # a tag: a quote opens a quoted value only right after "=" (HTML 13.2.5.36), elsewhere it is
    # a character of a name or an unquoted value (charset="iso-8859-1" after a quoted value)
    r"|<(/?)([A-Za-z][^\t\n\f\r />]*+)"
    r"((?:[^>\"'=]++|=[\t\n\f\r ]*+(?:\"[^\"]*+\"?|'[^']*+'?)?|[\"'])*+)(?:>|\Z)"
    r"|</?[!?/][^>]*+(?:>|\Z)"  # <!DOCTYPE>, <![if mso]>, <?xml?>, </ >: bogus comments
    r"|</(?:>|\Z)",
    re.S,
)
_ATTRIBUTE = re.compile(r"""([^\t\n\f\r />"'=]+)(?:[\t\n\f\r ]*=[\t\n\f\r ]*+("[^"]*+"?|'[^']*+'?|[^\t\n\f\r >]++))?""")
_SPACE = re.compile(r"[\t\n\f\r ]+")  # HTML's ASCII white space (U+00A0 is not white space)
_WHITE = "\t\n\f\r "
_BLANK_RUNS = re.compile(r"\n{3,}")

# Elements whose content is raw text: skipped up to their end tag (HTML 13.1.2.1, and
# ``title``, whose text is not part of the body).
_RAW = frozenset({"script", "style", "title", "textarea", "xmp", "iframe", "noembed", "noframes",
                  "template", "plaintext"})
_RAW_END = {name: re.compile(rf"</{name}[\t\n\f\r />]|</{name}\Z", re.I) for name in _RAW}

# Blocks that stand apart from their neighbours by a blank line, and blocks that only start and
# end a line.
_PARAGRAPHS = frozenset({"p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "dl", "table",
                         "blockquote", "pre", "hr", "figure", "address", "fieldset", "menu"})
_LINES = frozenset({"div", "li", "tr", "dt", "dd", "section", "article", "header", "footer",
                    "nav", "aside", "main", "form", "center", "caption", "thead", "tbody",
                    "tfoot", "body", "html", "legend", "details", "summary", "figcaption",
                    "option", "frameset", "frame", "noscript"})
_CELLS = frozenset({"td", "th"})
# The tags that change the layout (any other tag is dropped, its content kept).
_START_TAGS = _PARAGRAPHS | _LINES | _CELLS | {"br", "a"}
_END_TAGS = _PARAGRAPHS | _LINES | {"br", "a"}
_LINK_SCHEMES = ("http:", "https:", "ftp:", "mailto:")

MAX_LEVELS = 10
"""List indents and quote marks stop growing after this many levels (so that ``<ul><li>``
repeated n times costs linear, not quadratic, output); in the corpus's text/html parts (lxml)
lists nest at most 3 levels and quotes 4."""


class _Layout:
    """The text being laid out: finished lines, the current line, pending breaks."""

    __slots__ = ("lines", "cur", "blank", "space", "prefix", "quote", "lists", "rows", "pre",
                 "link", "link_start", "cell_sep", "quoted_blank")

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.cur: list[str] = []
        self.blank = 0  # 1 + the quote depth of a blank line owed before the next text, or 0
        self.space = False  # a space is owed before the next text on this line
        self.prefix = ""  # a list bullet owed at the start of the next text
        self.quote = 0  # blockquote depth
        self.lists: list[list[int]] = []  # [ordered (a bool), next number] per open list
        self.rows: list[bool] = []  # per open table: the current row has text
        self.pre = 0
        self.link: str | None = None  # the URL of the open link
        self.link_start = (0, 0)  # where the open link's text starts: (line count, piece count)
        self.cell_sep = False  # a TAB is owed before the next text (a new cell of a row)
        self.quoted_blank = -1  # len(lines) just after a blank line ">" was written

    # -- lines -----------------------------------------------------------------------------
    def end_line(self) -> None:
        if self.cur:
            self.lines.append("".join(self.cur).rstrip())
            self.cur = []
        self.space = False

    def block(self, blank: bool) -> None:
        self.end_line()
        self.cell_sep = False
        if blank and self.lines:
            depth = self.quote + 1
            self.blank = min(self.blank, depth) if self.blank else depth

    def hard_break(self) -> None:
        if self.cur:
            self.end_line()
        else:
            self.lines.append("")
        self.cell_sep = False

    def start_text(self) -> None:
        """Write what is owed before text on this line: blank line, quote marks, bullet,
        cell separator or space."""
        cur = self.cur
        if not cur:
            if self.blank:
                if self.lines and self.lines[-1] and self.quoted_blank != len(self.lines):
                    self.lines.append(("> " * min(self.blank - 1, MAX_LEVELS)).rstrip())
                    self.quoted_blank = len(self.lines)
                self.blank = 0
            if self.quote:
                cur.append("> " * min(self.quote, MAX_LEVELS))
            if self.prefix:
                cur.append(self.prefix)
                self.prefix = ""
            self.space = False
            self.cell_sep = False
        elif self.cell_sep:
            cur.append("\t")
            self.cell_sep = False
            self.space = False
        elif self.space:
            cur.append(" ")
            self.space = False

    def text(self, data: str) -> None:
        if not data.strip(_WHITE) and not self.pre:  # white space between tags: the common case
            if self.cur:
                self.space = True
            return
        if "&" in data:
            data = unescape(data)
        if self.pre:
            self.pre_text(data)
            return
        collapsed = _SPACE.sub(" ", data)
        if collapsed[0] == " ":
            if self.cur:
                self.space = True
            collapsed = collapsed[1:]
        trailing = collapsed[-1] == " "
        if trailing:
            collapsed = collapsed[:-1]
        self.start_text()
        self.cur.append(collapsed)
        if self.rows:
            self.rows[-1] = True
        self.space = trailing

    def pre_text(self, data: str) -> None:
        lines = data.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        for n, line in enumerate(lines):
            if n:
                self.hard_break()
            if line:
                self.start_text()
                self.cur.append(line)

    def finish(self) -> str:
        self.end_line()
        text = "\n".join(self.lines).strip("\n")
        return _BLANK_RUNS.sub("\n\n", text)

    # -- links -----------------------------------------------------------------------------
    def open_link(self, href: str | None) -> None:
        self.close_link()
        if href:
            href = unescape(href).strip()
            if href[:7].lower().startswith(_LINK_SCHEMES):
                self.link = href
                self.link_start = (len(self.lines), len(self.cur))

    def close_link(self) -> None:
        href = self.link
        if href is None:
            return
        self.link = None
        n_lines, n_pieces = self.link_start
        if len(self.lines) == n_lines:
            shown = "".join(self.cur[n_pieces:])
        else:
            shown = "".join([*self.cur[n_pieces:], *self.lines[n_lines:], *self.cur])
        shown = shown.strip()
        if not shown:
            return
        target = href[7:] if href[:7].lower() == "mailto:" else href
        if target == shown or href == shown:
            return
        self.start_text()
        self.cur.append(f" <{target}>")


def html_to_text(html: str) -> str:
    """Return the plain text of an HTML document or fragment, laid out as a mail reader's
    plain-text view does (module docstring; M32).

    Linear time, never raises on any ``str``; the HTML need not be well formed (unclosed
    elements, stray ``<``, tags cut by the end of the input are read as a browser reads them).

    :param html: the decoded HTML (``str``, as in :attr:`onemail.message.Part.text`).
    :returns: the text, lines ended by ``\\n`` (``""`` for a document without text).
    :issues: none: the text is derived from text already decoded, whose issues are the part's.
    :raises TypeError: ``html`` is not a ``str``.

    >>> html_to_text("<p>Caf&eacute; <b>au</b> lait</p><ul><li>one<li>two</ul>")
    'Café au lait\\n\\n* one\\n* two'
    >>> html_to_text('<table><tr><td>a</td><td>b</td></tr></table><a href="https://x.org/">x</a>')
    'a\\tb\\n\\nx <https://x.org/>'
    """
    if not isinstance(html, str):
        raise TypeError(f"html must be a str, not {type(html).__name__}")
    out = _Layout()
    text = out.text
    pos = 0
    n = len(html)
    search = _MARKUP.search
    raw = _RAW
    starts = _START_TAGS
    ends = _END_TAGS
    while pos < n:
        m = search(html, pos)
        if m is None:
            text(html[pos:])
            break
        start = m.start()
        if start > pos:
            text(html[pos:start])
        pos = m.end()
        slash, name, attributes = m.groups()
        if name is None:
            continue  # a comment, a doctype, a processing instruction
        name = name.lower()
        if slash:
            if name in ends:
                _end_tag(out, name)
            continue
        if name in starts:
            _start_tag(out, name, attributes)
        elif name in raw:
            if name == "plaintext":
                break
            end = _RAW_END[name].search(html, pos)
            if end is None:
                break
            pos = end.start()
    return out.finish()


def _attributes(raw: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for m in _ATTRIBUTE.finditer(raw):
        value = m.group(2) or ""
        if value[:1] in ("\"", "'"):
            value = value[1:-1] if len(value) > 1 and value[-1] == value[0] else value[1:]
        out.setdefault(m.group(1).lower(), value)
    return out


def _start_tag(out: _Layout, name: str, raw: str) -> None:
    if name == "br":
        out.hard_break()
    elif name in _CELLS:
        if out.cur and out.rows and out.rows[-1]:
            out.cell_sep = True
            out.space = False
    elif name in _PARAGRAPHS:
        out.block(True)
        if name == "ul" or name == "ol":
            start = 1
            if name == "ol":
                value = _attributes(raw).get("start", "").strip()
                if value.isdigit() and len(value) < 10:
                    start = int(value)
            out.lists.append([name == "ol", start])
        elif name == "table":
            out.rows.append(False)
        elif name == "blockquote":
            out.quote += 1
        elif name == "pre":
            out.pre += 1
    elif name in _LINES:
        out.block(False)
        if name == "li":
            depth = len(out.lists)
            if depth:
                kind = out.lists[-1]
                bullet = f"{kind[1]}. " if kind[0] else "* "
                kind[1] += 1
            else:
                bullet = "* "
            out.prefix = "  " * min(max(depth - 1, 0), MAX_LEVELS) + bullet
        elif name == "tr" and out.rows:
            out.rows[-1] = False
    elif name == "a":
        out.open_link(_attributes(raw).get("href"))


def _end_tag(out: _Layout, name: str) -> None:
    if name == "a":
        out.close_link()
    elif name in _CELLS:
        pass
    elif name in _PARAGRAPHS:
        if (name == "ul" or name == "ol") and out.lists:
            out.lists.pop()
        elif name == "table" and out.rows:
            out.rows.pop()
        elif name == "blockquote" and out.quote:
            out.end_line()  # the quote's last line keeps its marks, the blank after it has none
            out.quote -= 1
        elif name == "pre" and out.pre:
            out.pre -= 1
        out.block(True)
    elif name in _LINES:
        out.block(False)
        if name == "li":
            out.prefix = ""
    elif name == "br":  # </br> is a <br> (HTML 13.2.6.4.7)
        out.hard_break()
