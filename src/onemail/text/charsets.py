"""Charsets: label resolution, code pages, and the :class:`Charset` identity (spec 000 "Charsets").

:func:`for_label` ignores ASCII case and surrounding white space and compares labels in their
*loose* form (ASCII lower case, a leading ``x-`` or ``x_`` dropped as RFC 6648 says it adds
nothing, then Unicode TS #22's charset alias matching: every character other than ``a-z`` and
``0-9`` dropped, and the zeros that begin a number: ``X-EUC_JP``, ``eucjp`` and ``euc-jp`` are
one label, ``IBM00858`` and ``ibm858`` another; ambiguity T80). It looks, in order, at

1. the mail-only labels (UTF-7, UTF-32, the ISO-2022 family and HZ, the DOS code pages, johab,
   the Mac OS pages beyond the standard's);
2. a Windows-style code page spelling (``cp1252``, ``windows-1251``, ``codepage-1250``,
   ``ms936``, ``x-ms-cp932``) of a code page :func:`for_code_page` knows;
3. every label of the WHATWG Encoding Standard's ``encodings.json``, then the names and aliases
   of the IANA Character Sets registry, then CPython's codec names and ``encodings.aliases``,
   each mapped to the decoder the Encoding Standard uses for that charset where it has one.

The tables come from ``scripts/data/charsets.toml``, the one table of charset facts (decoder
key, header name, code pages, mail-only labels, CPython codecs), through the generated
``_tables/labels.py`` (``scripts/gen/labels.py``).

``replacement`` and the labels the standard maps to it (``iso-2022-cn``, ``iso-2022-cn-ext``),
``unknown-8bit`` and anything else give ``None``; callers then apply the unknown-charset rule
(:func:`decode_unknown`, ambiguity T1). Because the Encoding Standard is the table, ``us-ascii``,
``iso-8859-1`` and ``iso-8859-9`` decode as windows-1252 / windows-1254 (bytes 0x80-0x9F are
printable, as every mail client reads them); :func:`is_us_ascii_label` still tells a US-ASCII
label from the others.

A :class:`Charset` is one identity per (header name, decoder): compare with ``is``.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any, NoReturn

from .issues import IssueKind, TextIssue

if TYPE_CHECKING:
    from ._codecs import Codec

__all__ = [
    "Charset",
    "DecodeResult",
    "IncrementalDecoder",
    "decode",
    "decode_unknown",
    "for_code_page",
    "for_label",
    "is_us_ascii_label",
    "known_charsets",
    "known_code_pages",
    "single_byte_table",
]

#: What the decoders take as bytes: ``bytes``, ``bytearray`` or ``memoryview`` (not ``str``).
BytesLike = bytes | bytearray | memoryview

_codec_cache: dict[str, Codec] = {}
_facts: ModuleType | None = None


def _tables() -> ModuleType:
    """The generated facts module (``_tables/labels.py``), imported on first use."""
    global _facts
    if _facts is None:
        from ._tables import labels

        _facts = labels
    return _facts


def _codec(key: str) -> Codec:
    c = _codec_cache.get(key)
    if c is None:
        _name, module, arg = _tables().DECODERS[key]
        c = _codec_cache[key] = importlib.import_module(module, __package__).codec(arg)
    return c


class Charset:
    """A charset: the spelling to write in a header (:attr:`name`) and its decoder and encoder.

    One instance per (name, decoder) pair; compare with ``is``. Obtain instances from
    :func:`for_label` or :func:`for_code_page`, never by calling the class.

    :ivar name: the spelling to write in a header (``"windows-1252"``, ``"shift_jis"``,
        ``"gb2312"`` for code page 936).
    :ivar key: the decoder used (``"gbk"`` for ``gb2312``, ``"windows-1252"`` for ``iso-8859-1``).
    """

    __slots__ = ("name", "key", "_c")

    name: str
    key: str
    _c: Codec | None

    def __init__(self, name: str, key: str) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "_c", None)

    def __setattr__(self, attr: str, value: object) -> NoReturn:
        raise AttributeError("Charset is immutable")

    def __repr__(self) -> str:
        return f"<Charset {self.name}>" if self.name == self.key else f"<Charset {self.name} ({self.key})>"

    def __reduce__(self) -> tuple[Callable[[str, str], Charset], tuple[str, str]]:
        return (_charset, (self.name, self.key))

    @property
    def _codec(self) -> Codec:
        c = self._c
        if c is None:
            c = _codec(self.key)
            object.__setattr__(self, "_c", c)
        return c

    def decode(self, data: BytesLike, issues: list[TextIssue] | None = None, offset: int = 0) -> str:
        """Decode ``data`` completely; never raises on bad bytes.

        Implements the Encoding Standard's decoder for this encoding (spec 000 "Decoding
        details"); no byte order mark is sniffed (a BOM decodes to U+FEFF and is kept); CR and
        LF are unchanged; each U+FFFD written has one ``Invalid*`` issue.

        :param data: the bytes (``bytes``, ``bytearray`` or ``memoryview``), not ``str``.
        :param issues: list to append issues to, or ``None`` to make no issue objects.
        :param offset: added to every issue's byte offset (the span's position in the caller's
            buffer).
        :returns: the decoded text.
        :issues: ``Invalid<Family>`` (one per U+FFFD: byte offset and length of the bytes it
            replaces); ``AmbiguousIso2022Repertoire`` for the ISO-2022 family.
        :raises TypeError: ``data`` is not bytes-like.

        >>> for_label("latin1").decode(b"caf\\xe9 \\x80")
        'café €'
        """
        if not isinstance(data, bytes):
            data = _as_bytes(data, "data")
        if issues is not None and type(issues) is not list:
            _check_issues(issues)
        return self._codec.decode(data, issues, offset)

    def encode(self, text: str, issues: list[TextIssue] | None = None) -> bytes:
        """Encode ``text``; a character the charset lacks becomes ``?``.

        :param text: the ``str`` to encode.
        :param issues: list to append to: one ``Unencodable`` per replaced character, with
            ``offset`` = its index in ``text`` and ``length`` 1.
        :returns: the encoded bytes.
        :raises TypeError: ``text`` is not a ``str``.

        >>> for_label("windows-1252").encode("€ ✓")
        b'\\x80 ?'
        """
        if not isinstance(text, str):
            raise TypeError(f"text must be str, not {type(text).__name__}")
        if issues is not None and type(issues) is not list:
            _check_issues(issues)
        return self._codec.encode(text, issues)

    def new_decoder(self) -> IncrementalDecoder:
        """Return a streaming decoder (offsets count from the start of the stream)."""
        return IncrementalDecoder(self)


def _charset(name: str, key: str) -> Charset:
    """Return the interned Charset for (name, key) (also used when unpickling)."""
    cs = _INTERN.get((name, key))
    if cs is None:
        cs = _INTERN[(name, key)] = Charset(name, key)
    return cs


_INTERN: dict[tuple[str, str], Charset] = {}


def _check_issues(issues: object) -> None:
    """Raise TypeError unless ``issues`` is a list (or a subclass of one)."""
    if not isinstance(issues, list):
        raise TypeError(f"issues must be a list or None, not {type(issues).__name__}")


def _as_bytes(data: object, what: str) -> bytes:
    if isinstance(data, (bytearray, memoryview)):
        return bytes(data)
    raise TypeError(f"{what} must be bytes-like, not {type(data).__name__}")


class IncrementalDecoder:
    """Decode a stream of chunks; the result equals one-shot decoding of the concatenation.

    :ivar position: number of bytes consumed so far (the offset of the next chunk's first byte
        minus any bytes held back).
    """

    __slots__ = ("charset", "_pending", "_state", "position")

    _state: Any  # the family codec's opaque state

    def __init__(self, charset: Charset) -> None:
        self.charset = charset
        self.reset()

    def reset(self) -> None:
        """Forget everything: back to the start of a stream."""
        self._pending = b""
        self._state = None
        self.position = 0

    def decode(self, data: BytesLike, *, final: bool = False, issues: list[TextIssue] | None = None) -> str:
        """Decode the next chunk; bytes of an unfinished sequence are held for the next call.

        :param data: the next bytes of the stream.
        :param final: True for the last chunk (held bytes are then decoded or reported).
        :param issues: list to append issues to; offsets count from the start of the stream.
        """
        if not isinstance(data, bytes):
            data = _as_bytes(data, "data")
        if issues is not None and type(issues) is not list:
            _check_issues(issues)
        buf = self._pending + data if self._pending else data
        text, used, self._state = self.charset._codec.decode_chunk(
            buf, issues, self.position, final, self._state
        )
        self.position += used
        self._pending = buf[used:]
        return text

    def getstate(self) -> tuple[bytes, Any]:
        """Return ``(held bytes, family state)``; ``(b"", None)`` right after :meth:`reset`."""
        return self._pending, self._state

    def setstate(self, state: tuple[bytes, Any]) -> None:
        """Restore what :meth:`getstate` returned."""
        self._pending, self._state = state


# ---------------------------------------------------------------------------------------------
# Labels

# Step 2: a Windows-style code page spelling, matched on the loose form (scripts/gen/labels.py
# holds the same pattern). "ibmNNN" is not one: IBM's CCSIDs are not Windows code pages (T80).
_CODE_PAGE_SPELLING = re.compile(r"(?:ms)?(?:cp|windows|codepage|ms)([1-9][0-9]{2,4})\Z")
_NOT_ALNUM = re.compile(r"[^a-z0-9]+")
_LEADING_ZEROS = re.compile(r"(?<![0-9])0+(?=[0-9])")

_ASCII_WS = " \t\n\f\r"
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")

_label_cache: dict[str, Charset | None] = {}
# Labels longer than this are resolved each time, not kept in the cache, so that long junk
# labels cannot fill memory (the longest IANA name,
# "Extended_UNIX_Code_Packed_Format_for_Japanese", has 45 characters).
_CACHED_LABEL_LENGTH = 64


def _by_key(key: str) -> Charset:
    return _charset(_tables().DECODERS[key][0], key)


def _loose(label: str) -> str | None:
    """The loose form of a label (T80), or None for a label that is not ASCII."""
    lab = label.strip(_ASCII_WS).translate(_ASCII_LOWER)
    if not lab.isascii():
        return None
    if lab[:2] in ("x-", "x_"):
        lab = lab[2:]
    return _NOT_ALNUM.sub("", _LEADING_ZEROS.sub("", lab))


def for_label(label: str) -> Charset | None:
    """Return the charset a charset label names, or ``None`` when it names none we decode.

    Implements spec 000 "Charsets" (MailEncoding.ForLabel) with the label sources of ambiguity
    T80: ASCII case and surrounding ASCII white space are ignored and labels are compared in
    their loose form; mail-only labels, then Windows-style code page spellings, then the WHATWG
    label table, the IANA registry's names and aliases, and CPython's aliases. Cached: one
    dictionary look-up for a label seen before.

    :param label: the charset label as found in the input (``str``).
    :returns: the :class:`Charset`, or ``None`` for ``replacement`` and its labels,
        ``unknown-8bit``, and any label not in the lists (callers apply :func:`decode_unknown`).
    :raises TypeError: ``label`` is not a ``str``.

    >>> for_label(" ISO-8859-1 ").name
    'windows-1252'
    >>> for_label("x-sjis").name, for_label("MS_Kanji").name, for_label("ks_c_5601").name
    ('shift_jis', 'shift_jis', 'euc-kr')
    >>> for_label("ISO-2022-CN") is None
    True
    """
    try:
        return _label_cache[label]
    except KeyError:
        pass
    except TypeError:
        raise TypeError(f"label must be str, not {type(label).__name__}") from None
    if not isinstance(label, str):
        raise TypeError(f"label must be str, not {type(label).__name__}")
    result = _resolve(label)
    if len(_label_cache) < 4096 and len(label) <= _CACHED_LABEL_LENGTH:
        _label_cache[label] = result
    return result


def _resolve(label: str) -> Charset | None:
    lab = _loose(label)
    if not lab:
        return None
    t = _tables()
    key = t.MAIL_ONLY.get(lab)
    if key is not None:
        return _by_key(key)
    cs = _code_page_spelling(lab)
    if cs is not None:
        return cs
    key = t.LABELS.get(lab)
    if key is None or key == "replacement":
        return None
    return _by_key(key)


def _code_page_spelling(lab: str) -> Charset | None:
    m = _CODE_PAGE_SPELLING.match(lab)
    # at most five digits (the pattern): int() of a bounded string
    return None if m is None else for_code_page(int(m.group(1)))


def is_us_ascii_label(label: str) -> bool:
    """Return True when ``label`` names US-ASCII (which decodes as windows-1252, spec 000).

    The labels are the IANA registry's US-ASCII row (``us-ascii``, ``ANSI_X3.4-1968``,
    ``iso646-us``, ``cp367`` ...), CPython's ``ascii`` codec and its aliases, and code page
    20127, compared in their loose form (T80). Used by the unknown-8-bit rule of US-ASCII
    encoded words and extended values (ambiguity T81), which follows the message layer's rule
    for US-ASCII bodies (M6).

    :param label: a charset label (``str``).
    :raises TypeError: ``label`` is not a ``str``.

    >>> is_us_ascii_label("US-ASCII"), is_us_ascii_label("ANSI_X3.4-1968"), is_us_ascii_label("latin1")
    (True, True, False)
    """
    if not isinstance(label, str):
        raise TypeError(f"label must be str, not {type(label).__name__}")
    lab = _loose(label)
    if not lab:
        return False
    if lab in _tables().US_ASCII:
        return True
    cs = _code_page_spelling(lab)
    return cs is not None and cs.name == "us-ascii"


def for_code_page(code_page: int) -> Charset | None:
    """Return the charset for a Windows/MAPI code page, or ``None`` if it is not in the list.

    Implements spec 000 "Charsets" (MailEncoding.ForCodePage) for ``PidTagInternetCodepage`` and
    ``PidTagMessageCodepage``. The name is the spelling to write in a header: 936 gives
    ``gb2312`` (decoded as GBK), 949 ``ks_c_5601-1987`` (EUC-KR), 28591 ``iso-8859-1`` and
    20127 ``us-ascii`` (both decoded as windows-1252).

    :param code_page: the code page number (``int``).
    :raises TypeError: ``code_page`` is not an ``int``.

    >>> for_code_page(936)
    <Charset gb2312 (gbk)>
    """
    if not isinstance(code_page, int) or isinstance(code_page, bool):
        raise TypeError(f"code_page must be int, not {type(code_page).__name__}")
    entry = _tables().CODE_PAGES.get(code_page)
    return None if entry is None else _charset(*entry)


def known_charsets() -> list[Charset]:
    """Return one Charset per decoder key (the label-reached identity), sorted by name.

    The decoders are those of ``scripts/data/charsets.toml`` (the one table of charset facts).
    """
    return sorted((_by_key(k) for k in _tables().DECODERS), key=lambda c: c.name)


def known_code_pages() -> list[int]:
    """Return every code page :func:`for_code_page` knows, ascending (spec 000's MAPI list)."""
    return sorted(_tables().CODE_PAGES)


def single_byte_table(key: str) -> str:
    """Return the decode table of a single-byte charset: 256 characters, U+FFFE where a byte is
    unmapped (for :func:`codecs.charmap_decode`; ``codecs.charmap_build`` gives its encoder).

    The public face of the generated tables for other packages (``onemail.detect``): the same
    table the charset's decoder uses.

    :param key: a decoder key (:attr:`Charset.key`) of a single-byte charset, e.g.
        ``"windows-1252"``, ``"ibm437"``, ``"x-mac-cyrillic"``.
    :returns: the 256-character ``str``.
    :raises TypeError: ``key`` is not a ``str``.
    :raises KeyError: ``key`` is no single-byte decoder key.

    >>> single_byte_table("windows-1252")[0x80]
    '€'
    """
    if not isinstance(key, str):
        raise TypeError(f"key must be str, not {type(key).__name__}")
    _name, module, arg = _tables().DECODERS[key]
    if module != "._codecs.single_byte":
        raise KeyError(key)
    from ._tables.single_byte import TABLES

    return TABLES[arg]


# ---------------------------------------------------------------------------------------------
# Convenience


@dataclass(frozen=True, slots=True)
class DecodeResult:
    """The result of :func:`decode`: the text, the charset used, and the issues (a tuple)."""

    text: str
    charset: Charset
    issues: tuple[TextIssue, ...]


def decode_unknown(data: BytesLike, *, issues: list[TextIssue] | None = None,
                   offset: int = 0) -> tuple[str, Charset]:
    """Decode bytes whose charset is unknown: UTF-8 if valid, else windows-1252.

    Implements spec 000 "Decoding details", the unknown-charset rule (ambiguity T1).

    :param data: the bytes (bytes-like).
    :param issues: list to append to: one ``AmbiguousUnknownCharset`` covering all of ``data``
        (offset ``offset``, length ``len(data)``), then any ``Invalid*`` issues (none: both
        readings decode every byte).
    :param offset: added to issue offsets.
    :returns: ``(text, charset used)``.

    >>> decode_unknown(b"caf\\xc3\\xa9")[0], decode_unknown(b"caf\\xe9")[0]
    ('café', 'café')
    """
    if not isinstance(data, bytes):
        data = _as_bytes(data, "data")
    if issues is not None:
        issues.append(TextIssue(IssueKind.AMBIGUOUS_UNKNOWN_CHARSET, offset, len(data)))
    try:
        return data.decode("utf-8"), _by_key("utf-8")
    except UnicodeDecodeError:
        cs = _by_key("windows-1252")
        return cs.decode(data, issues, offset), cs


def decode(data: BytesLike, label: str | None, *, issues: list[TextIssue] | None = None) -> DecodeResult:
    """Decode ``data`` with the charset ``label`` names, or by the unknown-charset rule.

    :param data: the bytes.
    :param label: a charset label, or ``None`` for "unknown".
    :returns: :class:`DecodeResult` with the text, the charset used and every issue.
    """
    found: list[TextIssue] = [] if issues is None else issues
    start = len(found)
    cs = for_label(label) if label is not None else None
    if cs is None:
        text, cs = decode_unknown(data, issues=found)
    else:
        text = cs.decode(data, found)
    return DecodeResult(text, cs, tuple(found[start:]))

