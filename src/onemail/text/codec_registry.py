"""The ``onemail-<name>`` Python codecs (house style section 7).

After ``import onemail.text``, ``data.decode("onemail-windows-1252")`` decodes with onemail's
decoders, and ``text.encode("onemail-shift_jis")`` encodes. Names are ``onemail-`` plus a
:attr:`Charset.name` (also the label-reached decoder key), plus ``onemail-imap-utf-7``.

The codec face follows Python's contract, not ours: each issue that wrote U+FFFD becomes
``UnicodeDecodeError(name, data, offset, offset + length, kind.value)`` handed to
``codecs.lookup_error(errors)``, so ``"strict"`` raises at the first one and ``"replace"`` equals
onemail's native output. ``Ambiguous*`` issues never reach the handler.

Every handler costs time linear in the input (issue 16: 40 kB holding a literal U+FFFD took
5.9 s with ``"ignore"``): when the text holds U+FFFD decoded from valid bytes, the U+FFFD of
each issue is found by one streaming pass (:class:`_Locator`), not by decoding each prefix.
"""

from __future__ import annotations

import codecs
import encodings
import functools
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from .issues import IssueKind, TextIssue

if TYPE_CHECKING:
    from .charsets import Charset
    from .charsets import IncrementalDecoder as _CharsetDecoder

__all__ = ["register", "unregister"]

_registered = False
_cache: dict[str, codecs.CodecInfo | None] = {}
#: Inputs longer than this are decoded for a Python error handler in chunks of this size, so
#: that memory follows the chunk's issues, not the whole input's (bench/bombs.py
#: codec-literal-fffd, 8 MB: peak RSS 585 MB in one piece, 59 MB in chunks of 256 KiB).
_CHUNK = 1 << 18


def _norm(name: str) -> str:
    return encodings.normalize_encoding(name.lower())


@functools.cache  # the names never change: built on the first look-up, not on every new name
def _names() -> dict[str, Charset | Literal["imap"]]:
    from . import charsets

    out: dict[str, Charset | Literal["imap"]] = {}
    for cs in charsets.known_charsets():
        out[_norm(cs.key)] = cs
        out.setdefault(_norm(cs.name), cs)
    for cp in charsets.known_code_pages():
        page = charsets.for_code_page(cp)
        assert page is not None  # one of known_code_pages()
        out.setdefault(_norm(page.name), page)
    out[_norm("imap-utf-7")] = "imap"
    return out


def _search(name: str) -> codecs.CodecInfo | None:
    if not name.startswith("onemail"):
        return None
    name = _norm(name)
    if not name.startswith("onemail_"):
        return None
    rest = name[len("onemail_"):]
    if rest in _cache:
        return _cache[rest]
    target = _names().get(rest)
    info = None if target is None else _make_info(target)
    _cache[rest] = info
    return info


def _apply_handler(cs_name: str, data: bytes | bytearray | memoryview, text: str, issues: list[TextIssue],
                   errors: str, start_offset: int = 0,
                   locate: Callable[[TextIssue], int] | None = None) -> str:
    """Rebuild ``text`` with the Python error handler ``errors`` applied to each invalid issue.

    ``"replace"`` is onemail's native text as it is. Otherwise the U+FFFD of each issue is found
    in order; when the text also holds U+FFFD decoded from valid bytes (UTF-8 ``EF BF BD``),
    ``locate(issue)`` gives the index of the issue's U+FFFD instead.
    """
    # only Invalid* issues wrote a U+FFFD (Malformed* ones, such as MalformedImapUtf7 over a
    # decoded run, did not)
    invalid = _invalid_kinds()
    bad = [i for i in issues if i.kind in invalid]
    if not bad or errors == "replace":
        return text
    handler = codecs.lookup_error(errors)
    # A zero-length issue (IMAP UTF-7's missing "-", T31) wrote no U+FFFD: the handler may
    # raise ("strict"); whatever it returns is not inserted, so "replace" equals native output.
    for issue in bad:
        if not issue.length:
            handler(UnicodeDecodeError(cs_name, bytes(data), issue.offset - start_offset,
                                       issue.offset - start_offset, issue.kind.value))
    bad = [i for i in bad if i.length]
    if not bad:
        return text
    pieces = text.split("\ufffd")
    if len(pieces) - 1 != len(bad):
        if isinstance(locate, _Locator):
            at = locate.indexes(bad, text)
        else:
            at = [locate(i) for i in bad] if locate is not None else []
        if len(at) != len(bad) or any(text[j:j + 1] != "\ufffd" for j in at):
            raise UnicodeDecodeError(cs_name, bytes(data), bad[0].offset, bad[0].offset + bad[0].length,
                                     bad[0].kind.value + " (text holds a literal U+FFFD; use 'replace')")
        pieces = [text[a + 1:b] for a, b in zip([-1, *at], [*at, len(text)], strict=True)]
    if errors == "ignore":  # what the "ignore" handler returns for each: nothing
        return "".join(pieces)
    out = [pieces[0]]
    for issue, piece in zip(bad, pieces[1:], strict=True):
        exc = UnicodeDecodeError(cs_name, bytes(data), issue.offset - start_offset,
                                 issue.offset - start_offset + issue.length, issue.kind.value)
        replacement, _ = handler(exc)
        out.append(replacement if isinstance(replacement, str) else replacement.decode("latin-1"))
        out.append(piece)
    return "".join(out)


@functools.cache
def _invalid_kinds() -> frozenset[IssueKind]:
    """The ``Invalid*`` kinds: each stands for one U+FFFD written."""
    return frozenset(k for k in IssueKind if k.value.startswith("Invalid"))


_UTF8_FFFD = re.compile(b"\xef\xbf\xbd")


class _Locator:
    """Give the index in the text of each issue's U+FFFD, in one pass over the input.

    The index of the U+FFFD of an issue at byte ``offset`` is the length of the text of the
    bytes before it, ``len(cs.decode(data[:offset]))``. Issues come in input order, so a
    streaming decoder is fed up to each offset in turn; the text of the bytes it holds back is
    what a copy of it gives at the end of the stream (streaming equals one-shot decoding at
    every split, tests/properties). Each byte is decoded once, plus at most a few held-back
    bytes per issue.

    :param cs: the charset.
    :param data: the bytes the issues point into (their offsets minus ``base``).
    :param state: the family state at ``data[0]`` (``None`` at the start of a stream).
    :param base: the stream offset of ``data[0]``.
    """

    __slots__ = ("cs", "data", "state", "base", "dec", "fed", "chars")

    def __init__(self, cs: Charset, data: bytes, state: Any = None, base: int = 0) -> None:
        self.cs, self.data, self.state, self.base = cs, data, state, base
        self.dec: _CharsetDecoder | None = None
        self.fed = 0
        self.chars = 0

    def indexes(self, bad: list[TextIssue], text: str) -> list[int]:
        """The index in ``text`` (the text of :attr:`data`) of the U+FFFD of each issue of
        ``bad`` (in input order).

        UTF-8 in one pass: a literal U+FFFD is the bytes ``EF BF BD``, and ``EF`` is a lead byte,
        which always starts a sequence (after an error too: maximal subparts), so every
        ``EF BF BD`` of the input is one literal U+FFFD; the U+FFFD of the text, in order, are
        those and the issues' merged by byte offset (bench/bombs.py codec-literal-fffd: no
        streaming decode per issue). Other charsets: :meth:`__call__` per issue.
        """
        if self.cs.key != "utf-8":
            return [self(i) for i in bad]
        base = self.base
        literal = [m.start() + base for m in _UTF8_FFFD.finditer(self.data)]
        out: list[int] = []
        n_literal, n_bad = len(literal), len(bad)
        li = bi = 0
        find = text.find
        j = find("\ufffd")
        while j >= 0 and bi < n_bad:
            if li < n_literal and literal[li] < bad[bi].offset:
                li += 1
            else:
                out.append(j)
                bi += 1
            j = find("\ufffd", j + 1)
        return out

    def _restart(self) -> None:
        self.dec = self._decoder((b"", self.state), self.base)
        self.fed = 0
        self.chars = 0

    def _decoder(self, state: tuple[bytes, Any], position: int) -> _CharsetDecoder:
        dec = self.cs.new_decoder()
        dec.setstate(state)
        dec.position = position
        return dec

    def __call__(self, issue: TextIssue) -> int:
        at = issue.offset - self.base
        if self.dec is None or at < self.fed:  # out of order: start again (not seen in practice)
            self._restart()
        dec = self.dec
        assert dec is not None  # _restart made it
        if at > self.fed:
            self.chars += len(dec.decode(self.data[self.fed:at]))
            self.fed = at
        tail = self._decoder(dec.getstate(), dec.position).decode(b"", final=True) if dec.getstate()[0] else ""
        return self.chars + len(tail)


def _make_info(target: Charset | Literal["imap"]) -> codecs.CodecInfo:
    if target == "imap":
        from . import utf7

        name = "onemail-imap-utf-7"

        def decode_imap(data: bytes, errors: str = "strict") -> tuple[str, int]:
            issues: list[TextIssue] = []
            text = utf7.decode_imap(bytes(data), issues=issues)
            return _apply_handler(name, data, text, issues, errors), len(data)

        def encode_imap(text: str, errors: str = "strict") -> tuple[bytes, int]:
            return utf7.encode_imap(text), len(text)

        # the codecs' Buffer argument: bytes-likes, as bytes(data) takes them
        return codecs.CodecInfo(encode_imap, decode_imap, name=name)  # type: ignore[arg-type]

    cs = target
    name = f"onemail-{cs.name}"

    def decode(data: bytes, errors: str = "strict") -> tuple[str, int]:
        data = bytes(data)
        if errors == "replace" or len(data) <= _CHUNK:
            issues: list[TextIssue] = []
            text = cs.decode(data, issues)
            # the U+FFFD of an issue follows the text of the bytes before it
            return _apply_handler(name, data, text, issues, errors, locate=_Locator(cs, data)), len(data)
        # In chunks, so that the issues of one chunk at a time exist (streaming equals one-shot
        # decoding); the handler still sees the whole input and offsets into it.
        dec = cs.new_decoder()
        out: list[str] = []
        for at in range(0, len(data), _CHUNK):
            start = dec.position
            pending, state = dec.getstate()
            chunk = data[at:at + _CHUNK]
            issues = []
            text = dec.decode(chunk, final=at + _CHUNK >= len(data), issues=issues)
            out.append(_apply_handler(name, data, text, issues, errors,
                                      locate=_Locator(cs, pending + chunk, state, start)))
        return "".join(out), len(data)

    def encode(text: str, errors: str = "strict") -> tuple[bytes, int]:
        issues: list[TextIssue] = []
        out = cs.encode(text, issues)
        if issues and errors == "strict":
            i = issues[0].offset
            raise UnicodeEncodeError(name, text, i, i + 1, "Unencodable")
        return out, len(text)

    class IncrementalDecoder(codecs.IncrementalDecoder):
        def __init__(self, errors: str = "strict") -> None:
            super().__init__(errors)
            self._dec = cs.new_decoder()

        def decode(self, data: bytes, final: bool = False) -> str:  # type: ignore[override]  # bytes-likes
            issues: list[TextIssue] = []
            start = self._dec.position
            pending, state = self._dec.getstate()
            text = self._dec.decode(data, final=final, issues=issues)
            buf = pending + bytes(data)
            return _apply_handler(name, buf, text, issues, self.errors, start,
                                  locate=_Locator(cs, buf, state, start))

        def reset(self) -> None:
            self._dec.reset()

        def getstate(self) -> tuple[bytes, int]:
            pending, state = self._dec.getstate()
            return pending, int(state or 0)

        def setstate(self, state: tuple[bytes, int]) -> None:
            pending, flag = state
            self._dec.setstate((pending, flag or None))

    class IncrementalEncoder(codecs.IncrementalEncoder):
        def encode(self, text: str, final: bool = False) -> bytes:
            return encode(text, self.errors)[0]

    class StreamReader(codecs.StreamReader):
        def decode(self, data: bytes, errors: str = "strict") -> tuple[str, int]:
            return decode(data, errors)

    class StreamWriter(codecs.StreamWriter):
        def encode(self, text: str, errors: str = "strict") -> tuple[bytes, int]:
            return encode(text, errors)

    return codecs.CodecInfo(encode, decode, name=name, incrementalencoder=IncrementalEncoder,  # type: ignore[arg-type]
                            incrementaldecoder=IncrementalDecoder, streamreader=StreamReader,
                            streamwriter=StreamWriter)


def register() -> None:
    """Add onemail's codec search function (idempotent; loads no tables)."""
    global _registered
    if not _registered:
        codecs.register(_search)
        _registered = True


def unregister() -> None:
    """Remove the search function (for tests)."""
    global _registered
    if _registered:
        codecs.unregister(_search)
        _registered = False
        _cache.clear()
