"""Address lists (From, To, Cc, Bcc, Reply-To, Sender): RFC 5322 section 3.4, read tolerantly.

Implements RFC 5322 3.4 (mailbox, name-addr, angle-addr, group, addr-spec) with the obsolete
syntax of 4.4 (obs-route ``<@a,@b:x@y>``, empty list elements, CFWS around the dots of a domain or
local part, a phrase holding dots) and comments (CFWS) anywhere, over the raw bytes of the value
(folds are white space; offsets of issues are bytes into the raw value).

What real mail holds, and what is done (M11; each repair is a ``MalformedAddress`` issue with the
offset and length of the bytes concerned):

* a display name that is itself an address, ``user@example.com <user@example.com>``: one mailbox,
  the first spelling as its display name;
* a quoted or plain name followed by a bare address, ``"Joe" joe@example.com``: the words before
  the local part are the display name;
* junk after a mailbox (``a@b.com  Thu Aug 22 12:46:39 2002``, an mbox From line pasted into a
  header), control characters, unbalanced brackets or quotes: the mailbox is kept, the junk
  skipped up to the next comma;
* words with no ``@`` and no angle brackets (``undisclosed recipients``) are no mailbox: none is
  invented from junk. An address in angle brackets without a domain (``<postmaster>``) is kept.

Display names: quoted strings unquoted, words joined by one space, then decoded like any header
text (RFC 2047 encoded words, also inside quoted strings as mailers write them; raw 8-bit text as
UTF-8 when valid, else the message's fallback charset, M9). With no phrase, a comment gives the
name (``jdoe@example.org (John Doe)``, the RFC 822 style). Addresses keep their spelling (a quoted
local part stays quoted); 8-bit bytes in them are read like display names (RFC 6532).
"""

from __future__ import annotations

import re
from itertools import pairwise

from ..text.charsets import Charset
from ._pieces import ISO2022_JP_DESIGNATION, decode_header_text, known_charset
from .issues import MessageIssueKind
from .model import Address, MessageIssue

__all__ = ["parse_addresses"]

_W1252 = known_charset("windows-1252")

# A run of raw ISO-2022-JP (T84): a designation of a two-byte set or of katakana up to the
# return to ASCII. Its bytes are JIS codes, any of them a special (``"``, ``(``, ``\\``; the
# return ``ESC ( B`` itself holds a ``(``), so the run is one opaque piece wherever it stands: a
# word of its own, or part of a quoted string or a comment. JIS codes are 0x21..0x7E: a space or
# a line end ends a run that never returns to ASCII.
_ISO_DESIGNATION = ISO2022_JP_DESIGNATION.pattern
_ISO_RUN = re.compile(_ISO_DESIGNATION + rb"(?:[\x21-\x7e]|" + _ISO_DESIGNATION + rb")*(?:\x1b\([BJ])?")

_TOKEN = re.compile(rb"""
  (?P<ws>[ \t\r\n]+)
| (?P<ew>=\?[^?\s]+\?[bBqQ]\?[^?\s]*\?=)
| (?P<iso>""" + _ISO_RUN.pattern + rb""")
| (?P<atom>(?:[^ \t\r\n"(),.:;<>@\[\]\\\x1b]|(?!""" + _ISO_DESIGNATION + rb""")\x1b)+)
| (?P<special>[<>@,;:.])
| (?P<quote>")
| (?P<comment>\()
| (?P<literal>\[)
| (?P<junk>[\s\S])
""", re.X)

_CONTROLS = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]+")

# token kinds
_WORD, _QUOTED, _DOT, _LT, _GT, _AT, _COMMA, _SEMI, _COLON, _LITERAL, _COMMENT, _JUNK = range(12)
_SPECIAL = {ord("<"): _LT, ord(">"): _GT, ord("@"): _AT, ord(","): _COMMA, ord(";"): _SEMI,
            ord(":"): _COLON, ord("."): _DOT}


def _tokens(raw: bytes) -> list[tuple[int, bytes, int, int]]:
    """Tokenize ``raw``: ``(kind, text, offset, length)``; quoted strings and comments unescaped."""
    out: list[tuple[int, bytes, int, int]] = []
    pos, n = 0, len(raw)
    match = _TOKEN.match
    unclosed = n  # a quote from which no closing quote follows: every later one is unclosed too
    while pos < n:
        m = match(raw, pos)
        assert m is not None  # the junk alternative matches any byte
        group = m.lastgroup
        end = m.end()
        if group == "ws":
            pass
        elif group == "ew" or group == "iso":
            out.append((_WORD, m.group(), pos, end - pos))
        elif group == "atom":
            text = m.group()
            if _CONTROLS.search(text):  # control characters inside a word: dropped, reported
                for c in _CONTROLS.finditer(text):
                    out.append((_JUNK, b"", pos + c.start(), c.end() - c.start()))
                text = _CONTROLS.sub(b"", text)
            out.append((_WORD, text, pos, end - pos))
        elif group == "special":
            out.append((_SPECIAL[raw[pos]], b"", pos, 1))
        elif group == "quote":
            # An unterminated quote: the quote is junk, the rest is read as it stands. A later
            # quote is unterminated too (a quote the first scan passed was escaped there, so
            # both scans go on alike from the byte after it): it is not scanned again, which
            # kept a value of many quotes quadratic.
            closed = False
            if pos < unclosed:
                text, end, closed = _delimited(raw, pos + 1, 0x22)
                if not closed:
                    unclosed = pos
            if closed:
                out.append((_QUOTED, text, pos, end - pos))
            else:
                out.append((_JUNK, b"", pos, 1))
                end = pos + 1
        elif group == "comment":
            text, end = _comment(raw, pos)
            out.append((_COMMENT, text, pos, end - pos))
        elif group == "literal":
            text, end, _ = _delimited(raw, pos + 1, 0x5D)
            out.append((_LITERAL, b"[" + text + b"]", pos, end - pos))
        else:
            out.append((_JUNK, b"", pos, 1))
        pos = end
    return out


def _delimited(raw: bytes, pos: int, close: int) -> tuple[bytes, int, bool]:
    """Read a quoted string or domain literal after its opening byte: ``(content, end,
    closed)``.

    A backslash quotes the next byte (RFC 5322 quoted-pair); CR and LF (folds) are dropped. An
    unterminated string runs to the end of the value (``closed`` False).
    """
    out = bytearray()
    n = len(raw)
    while pos < n:
        c = raw[pos]
        if c == close:
            return bytes(out), pos + 1, True
        if c == 0x1B and (run := _ISO_RUN.match(raw, pos)) is not None:  # T84: JIS bytes as they are
            out += run.group()
            pos = run.end()
            continue
        if c == 0x5C and pos + 1 < n:
            out.append(raw[pos + 1])
            pos += 2
            continue
        if c not in (0x0D, 0x0A):
            out.append(c)
        pos += 1
    return bytes(out), n, False


def _comment(raw: bytes, pos: int) -> tuple[bytes, int]:
    """Read a (nested) comment at ``raw[pos] == '('``: ``(content without the outer parens, end)``."""
    depth = 0
    out = bytearray()
    n = len(raw)
    while pos < n:
        c = raw[pos]
        if c == 0x1B and (run := _ISO_RUN.match(raw, pos)) is not None:  # T84: JIS bytes as they are
            out += run.group()
            pos = run.end()
            continue
        if c == 0x5C and pos + 1 < n:
            out.append(raw[pos + 1])
            pos += 2
            continue
        if c == 0x28:
            depth += 1
            if depth > 1:
                out.append(c)
        elif c == 0x29:
            depth -= 1
            if depth == 0:
                return bytes(out), pos + 1
            out.append(c)
        elif c not in (0x0D, 0x0A):
            out.append(c)
        pos += 1
    return bytes(out), n


class _Parser:
    def __init__(self, raw: bytes, fallback: Charset, where: str,
                 issues: list[MessageIssue] | None) -> None:
        self.toks = _tokens(raw)
        self.i = 0
        self.fallback = fallback
        self.where = where
        self.issues = issues
        self.out: list[Address] = []

    # -- helpers ---------------------------------------------------------------------------

    def _peek(self) -> int:
        """Kind of the next token that is not a comment, or -1 at the end."""
        toks, i = self.toks, self.i
        while i < len(toks) and toks[i][0] == _COMMENT:
            i += 1
        return toks[i][0] if i < len(toks) else -1

    def _malformed(self, offset: int, length: int) -> None:
        if self.issues is not None:
            self.issues.append(MessageIssue(MessageIssueKind.MALFORMED_ADDRESS, self.where, offset, length))

    def _text(self, raw: bytes) -> str:
        if raw.isascii() and b"=?" not in raw and b"\x1b" not in raw:
            return raw.decode("ascii")
        return decode_header_text(raw, None, 0, self.fallback)

    def _skip_to_comma(self, in_group: bool) -> None:
        """Skip junk up to the next ``,`` (or ``;`` in a group), reporting what was skipped."""
        toks = self.toks
        start = self.i
        while self.i < len(toks) and toks[self.i][0] not in (_COMMA, _SEMI if in_group else _COMMA):
            self.i += 1
        junk = [t for t in toks[start:self.i] if t[0] != _COMMENT]
        if junk:
            first, last = junk[0], junk[-1]
            self._malformed(first[2], last[2] + last[3] - first[2])

    # -- grammar ---------------------------------------------------------------------------

    def parse(self) -> list[Address]:
        toks = self.toks
        while self.i < len(toks):
            kind = toks[self.i][0]
            if kind in (_COMMA, _COMMENT):
                self.i += 1
                continue
            if kind == _SEMI:  # a stray group end
                self._malformed(toks[self.i][2], 1)
                self.i += 1
                continue
            self._address(None)
        return self.out

    def _address(self, group: str | None) -> None:
        """Read one mailbox or group at the current token."""
        toks = self.toks
        start = self.i
        phrase: list[tuple[int, bytes, int, int]] = []
        comments: list[bytes] = []
        while self.i < len(toks):
            kind = toks[self.i][0]
            if kind in (_WORD, _QUOTED, _DOT):
                phrase.append(toks[self.i])
            elif kind == _COMMENT:
                comments.append(toks[self.i][1])
            elif kind == _JUNK:
                self._malformed(toks[self.i][2], toks[self.i][3])
            else:
                break
            self.i += 1
        kind = toks[self.i][0] if self.i < len(toks) else -1
        if kind == _COLON and group is None:  # a group: display-name ":" [mailbox-list] ";"
            self.i += 1
            name = self._phrase(phrase)
            while self.i < len(toks) and toks[self.i][0] != _SEMI:
                if toks[self.i][0] in (_COMMA, _COMMENT):
                    self.i += 1
                    continue
                self._address(name)
            if self.i < len(toks):
                self.i += 1  # the ";"
            return
        if kind == _LT:
            self._angle(phrase, comments, group)
            return
        if kind == _AT:
            self._addr_spec(phrase, comments, group, start)
            return
        # words alone (end, ",", ";", a second ":"...): no mailbox, except one dot-atom, a local
        # part without its domain (``From: postmaster``), kept as the address and reported
        if kind in (_COMMA, _SEMI, -1) and phrase and all(t[0] in (_WORD, _DOT) for t in phrase) \
                and _contiguous(phrase) and phrase[0][0] == _WORD and phrase[-1][0] == _WORD:
            self._malformed(phrase[0][2], phrase[-1][2] + phrase[-1][3] - phrase[0][2])
            self.out.append(Address(self._comment_name(comments),
                                    self._address_text(self._spec_bytes(phrase, None)), group))
            return
        if phrase or kind not in (_COMMA, _SEMI, -1):
            first = toks[start] if start < len(toks) else None
            end_tok = toks[self.i - 1] if self.i > start else first
            if first is not None and end_tok is not None:
                self._malformed(first[2], end_tok[2] + end_tok[3] - first[2])
            if kind not in (_COMMA, _SEMI, -1):
                self.i += 1
                self._skip_to_comma(group is not None)

    def _angle(self, phrase: list[tuple[int, bytes, int, int]], comments: list[bytes], group: str | None) -> None:
        """``[display-name] "<" [obs-route] addr-spec ">"`` with the current token at ``<``."""
        toks = self.toks
        lt = toks[self.i]
        self.i += 1
        inner: list[tuple[int, bytes, int, int]] = []
        while self.i < len(toks) and toks[self.i][0] not in (_GT, _LT):
            if toks[self.i][0] != _COMMENT:
                inner.append(toks[self.i])
            self.i += 1
        closed = self.i < len(toks) and toks[self.i][0] == _GT
        if closed:
            self.i += 1
        else:
            self._malformed(lt[2], 1)
        # obs-route: "@domain,@domain:" before the addr-spec
        colon = max((k for k, t in enumerate(inner) if t[0] == _COLON), default=-1)
        if colon >= 0 and inner and inner[0][0] in (_AT, _COMMA):
            inner = inner[colon + 1:]
        address = self._spec(inner)
        name = self._phrase(phrase) if phrase else self._comment_name(comments)
        if address or name:
            if not address:
                self._malformed(lt[2], 1)
            self.out.append(Address(name, address, group))
        self._after_mailbox(group)

    def _addr_spec(self, phrase: list[tuple[int, bytes, int, int]], comments: list[bytes], group: str | None,
                   start: int) -> None:
        """A bare ``local-part@domain``; the words before the local part, if any, are a name."""
        toks = self.toks
        # the local part: the last word, with the dot-joined words before it (obs-local-part)
        k = len(phrase) - 1
        while k > 0 and (phrase[k - 1][0] == _DOT or phrase[k][0] == _DOT):
            k -= 1
        name_words, local = phrase[:k], phrase[k:]
        self.i += 1  # the "@"
        domain: list[tuple[int, bytes, int, int]] = []
        while self.i < len(toks):  # dot-atom or obs-domain: words joined by dots
            kind = toks[self.i][0]
            if kind == _COMMENT:
                comments.append(toks[self.i][1])
            elif kind == _JUNK:
                self._malformed(toks[self.i][2], toks[self.i][3])
            elif kind in (_WORD, _LITERAL) and (not domain or domain[-1][0] == _DOT):
                domain.append(toks[self.i])
            elif kind == _DOT and domain and domain[-1][0] != _DOT:
                domain.append(toks[self.i])
            else:
                break
            self.i += 1
        address = self._spec([*local, (_AT, b"", 0, 0), *domain]) if local and domain else ""
        if self.i < len(toks) and toks[self.i][0] == _LT and not name_words and address:
            # "user@example.com <user@example.com>": the first spelling is the display name
            self._angle([(_WORD, self._spec_bytes(local, domain), toks[start][2], 0)], [], group)
            return
        if name_words:
            first, last = name_words[0], name_words[-1]
            self._malformed(first[2], last[2] + last[3] - first[2])
            name = self._phrase(name_words)
        else:
            name = self._comment_name(comments)
        if local and domain:
            self.out.append(Address(name, address, group))
        else:  # "@", "a@", "@b": no mailbox is made of half an address
            first = local[0] if local else toks[start]
            last = toks[self.i - 1]
            self._malformed(first[2], last[2] + last[3] - first[2])
        self._after_mailbox(group)

    def _after_mailbox(self, group: str | None) -> None:
        """After a mailbox only a comma, a group's ``;`` or the end may come: skip anything else."""
        toks = self.toks
        while self.i < len(toks) and toks[self.i][0] == _COMMENT:
            self.i += 1
        if self.i >= len(toks) or toks[self.i][0] in (_COMMA, _SEMI):
            return
        self._skip_to_comma(group is not None)

    # -- values ----------------------------------------------------------------------------

    def _phrase(self, words: list[tuple[int, bytes, int, int]]) -> str:
        """A display name from phrase tokens: one space where the value had white space or a
        comment between two tokens, dots kept (obs-phrase ``Joe Q. Public``)."""
        pieces: list[bytes] = []
        end = -1
        for kind, text, offset, length in words:
            if pieces and offset > end:
                pieces.append(b" ")
            pieces.append(b"." if kind == _DOT else text)
            end = offset + length
        return self._text(b"".join(pieces)).strip()

    def _comment_name(self, comments: list[bytes]) -> str:
        """The RFC 822 style name ``addr (Name)``: the last non-empty comment."""
        for text in reversed(comments):
            if text.strip():
                return self._text(text.strip())
        return ""

    def _spec_bytes(self, local: list[tuple[int, bytes, int, int]],
                    domain: list[tuple[int, bytes, int, int]] | None) -> bytes:
        out = bytearray()
        for kind, text, _, _ in local:
            out += b"." if kind == _DOT else (b'"' + _requote(text) + b'"' if kind == _QUOTED else text)
        if domain is not None:
            out += b"@"
            for kind, text, _, _ in domain:
                out += b"." if kind == _DOT else text
        return bytes(out)

    def _spec(self, inner: list[tuple[int, bytes, int, int]]) -> str:
        """``local-part "@" domain`` from tokens (CFWS already dropped): the address as a string."""
        at = next((k for k, t in enumerate(inner) if t[0] == _AT), -1)
        local = inner if at < 0 else inner[:at]
        domain = None if at < 0 else inner[at + 1:]
        bad = [t for t in inner if t[0] not in (_WORD, _QUOTED, _DOT, _AT, _LITERAL)]
        if bad or (domain is not None and not domain) or (at >= 0 and not local):
            if inner:
                self._malformed(inner[0][2], inner[-1][2] + inner[-1][3] - inner[0][2])
            local = [t for t in local if t[0] in (_WORD, _QUOTED, _DOT)]
            domain = None if domain is None else [t for t in domain if t[0] in (_WORD, _DOT, _LITERAL)]
        return self._address_text(self._spec_bytes(local, domain)) if local or domain else ""

    def _address_text(self, raw: bytes) -> str:
        """An addr-spec as text: no encoded words (RFC 2047 5: none in an addr-spec), 8-bit
        bytes as UTF-8 when valid (RFC 6532), else in the fallback charset."""
        if raw.isascii():
            return raw.decode("ascii")
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            return self.fallback.decode(raw)


def _contiguous(tokens: list[tuple[int, bytes, int, int]]) -> bool:
    """True when no white space or comment separates the tokens (one dot-atom, not a phrase)."""
    return all(a[2] + a[3] == b[2] for a, b in pairwise(tokens))


def _requote(text: bytes) -> bytes:
    return text.replace(b"\\", b"\\\\").replace(b'"', b'\\"')


# The fast path: a list of plain mailboxes (``Name <a@b>``, ``"Name" <a@b>``, ``a@b``) with no
# comment, group, route, escape or 8-bit byte, read with one regular expression; anything else
# (or anything it does not match whole) goes through the parser, which gives the same answer.
_SIMPLE_ADDR = rb"[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+@[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+"
_SIMPLE = re.compile(rb"[ \t\r\n]*(?:(?:\"([^\"\\\r\n]*)\"|([A-Za-z0-9!#$%&'*+/=?^_`{|}~. \t-]*?))[ \t\r\n]*<("
                     + _SIMPLE_ADDR + rb")>|(" + _SIMPLE_ADDR + rb"))[ \t\r\n]*(?:,|\Z)")
_WSP_RUN = re.compile(rb"[ \t]+")


def _simple(raw: bytes) -> tuple[Address, ...] | None:
    """The mailboxes of a plain list, or ``None`` when the list needs the parser."""
    out = []
    pos, n = 0, len(raw)
    match = _SIMPLE.match
    while pos < n:
        m = match(raw, pos)
        if m is None or m.end() == pos:
            return None
        quoted, name, angle, bare = m.groups()
        address = angle or bare
        if ".." in address.decode("ascii") or address[:1] == b"." or address.endswith(b".") \
                or address.count(b"@") != 1 or address.endswith(b"@") or address.startswith(b"@"):
            return None
        if quoted is not None:
            text = quoted.decode("ascii").strip()
        else:
            words = (name or b"").strip(b" \t")
            if b"." in words:  # obs-phrase spacing around dots: the parser's rule
                return None
            text = _WSP_RUN.sub(b" ", words).decode("ascii")
        if "=?" in text:
            return None
        out.append(Address(text, address.decode("ascii")))
        pos = m.end()
    return tuple(out)


def parse_addresses(raw: bytes, *, fallback: Charset | None = None, where: str = "",
                    issues: list[MessageIssue] | None = None) -> tuple[Address, ...]:
    """Parse an address-list value into mailboxes (module docstring).

    Implements RFC 5322 3.4 and 4.4; M11 for what real mail holds.

    :param raw: the raw value bytes (after ``Name:``, folds kept).
    :param fallback: charset for raw 8-bit text that is not UTF-8 (M9; default windows-1252).
    :param where: the place of issues (``"header:From"``).
    :param issues: list to append ``MalformedAddress`` issues to (byte offsets into ``raw``), or
        ``None``.
    :returns: the mailboxes in order; a group's members carry its name in :attr:`Address.group`
        (an empty group gives none).

    >>> [str(a) for a in parse_addresses(b'Pete(A nice \\\\) chap) <pete(his account)@silly.test(his host)>')]
    ['Pete <pete@silly.test>']
    """
    if raw.isascii() and b"(" not in raw and b"\\" not in raw:
        simple = _simple(raw)
        if simple is not None:
            return simple
    return tuple(_Parser(raw, fallback or _W1252, where, issues).parse())
