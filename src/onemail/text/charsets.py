"""Charsets: label resolution, code pages, and the :class:`Charset` identity (spec 000 "Charsets").

:func:`for_label` ignores ASCII case and surrounding white space and looks, in order, at

1. the mail-only labels (UTF-7, UTF-32, the ISO-2022 family and HZ, the DOS code pages, johab);
2. a Windows-style code page spelling (``cp1252``, ``windows-1251``, ``codepage-1250``) of a code
   page :func:`for_code_page` knows;
3. every label of the WHATWG Encoding Standard's ``encodings.json``.

``replacement`` and the labels the standard maps to it (``iso-2022-cn``, ``iso-2022-cn-ext``),
``unknown-8bit`` and anything else give ``None``; callers then apply the unknown-charset rule
(:func:`decode_unknown`, ambiguity T1). Because the Encoding Standard is the table, ``us-ascii``,
``iso-8859-1`` and ``iso-8859-9`` decode as windows-1252 / windows-1254 (bytes 0x80-0x9F are
printable, as every mail client reads them).

A :class:`Charset` is one identity per (header name, decoder): compare with ``is``.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass

from .issues import IssueKind, TextIssue

__all__ = [
    "Charset",
    "DecodeResult",
    "IncrementalDecoder",
    "decode",
    "decode_unknown",
    "for_code_page",
    "for_label",
    "known_charsets",
]

# decoder key -> family module (relative to onemail.text)
_FAMILY: dict[str, str] = {}
for _k in (
    "ibm866 iso-8859-2 iso-8859-3 iso-8859-4 iso-8859-5 iso-8859-6 iso-8859-7 iso-8859-8 "
    "iso-8859-10 iso-8859-13 iso-8859-14 iso-8859-15 iso-8859-16 koi8-r koi8-u macintosh "
    "windows-874 windows-1250 windows-1251 windows-1252 windows-1253 windows-1254 windows-1255 "
    "windows-1256 windows-1257 windows-1258 x-mac-cyrillic x-user-defined "
    "ibm437 ibm737 ibm775 ibm850 ibm852 ibm855 ibm857 ibm858 ibm860 ibm861 ibm862 ibm863 "
    "ibm864 ibm865 ibm869"
).split():
    _FAMILY[_k] = "._codecs.single_byte"
_FAMILY.update({
    "iso-8859-8-i": "._codecs.single_byte",
    "utf-8": "._codecs.utf_8",
    "utf-16le": "._codecs.utf_16",
    "utf-16be": "._codecs.utf_16",
    "utf-32le": "._codecs.utf_16",
    "utf-32be": "._codecs.utf_16",
    "gbk": "._codecs.gb18030",
    "gb18030": "._codecs.gb18030",
    "big5": "._codecs.big5",
    "euc-jp": "._codecs.euc_jp",
    "shift_jis": "._codecs.shift_jis",
    "euc-kr": "._codecs.euc_kr",
    "johab": "._codecs.johab",
    "utf-7": ".utf7",
    "iso-2022-jp": "._codecs.iso_2022",
    "iso-2022-jp-1": "._codecs.iso_2022",
    "iso-2022-jp-2": "._codecs.iso_2022",
    "iso-2022-jp-3": "._codecs.iso_2022",
    "cp50220": "._codecs.iso_2022",
    "cp50221": "._codecs.iso_2022",
    "cp50222": "._codecs.iso_2022",
    "iso-2022-kr": "._codecs.iso_2022",
    "hz-gb-2312": "._codecs.iso_2022",
})

_codec_cache: dict[str, object] = {}


def _codec(key: str):
    c = _codec_cache.get(key)
    if c is None:
        module = importlib.import_module(_FAMILY[key], __package__)
        c = _codec_cache[key] = module.codec("iso-8859-8" if key == "iso-8859-8-i" else key)
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

    def __init__(self, name: str, key: str) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "_c", None)

    def __setattr__(self, attr, value):
        raise AttributeError("Charset is immutable")

    def __repr__(self) -> str:
        return f"<Charset {self.name}>" if self.name == self.key else f"<Charset {self.name} ({self.key})>"

    def __reduce__(self):
        return (_charset, (self.name, self.key))

    @property
    def _codec(self):
        c = self._c
        if c is None:
            c = _codec(self.key)
            object.__setattr__(self, "_c", c)
        return c

    def decode(self, data, issues: list[TextIssue] | None = None, offset: int = 0) -> str:
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


def _check_issues(issues) -> None:
    """Raise TypeError unless ``issues`` is a list (or a subclass of one)."""
    if not isinstance(issues, list):
        raise TypeError(f"issues must be a list or None, not {type(issues).__name__}")


def _as_bytes(data, what: str) -> bytes:
    if isinstance(data, (bytearray, memoryview)):
        return bytes(data)
    raise TypeError(f"{what} must be bytes-like, not {type(data).__name__}")


class IncrementalDecoder:
    """Decode a stream of chunks; the result equals one-shot decoding of the concatenation.

    :ivar position: number of bytes consumed so far (the offset of the next chunk's first byte
        minus any bytes held back).
    """

    __slots__ = ("charset", "_pending", "_state", "position")

    def __init__(self, charset: Charset) -> None:
        self.charset = charset
        self.reset()

    def reset(self) -> None:
        """Forget everything: back to the start of a stream."""
        self._pending = b""
        self._state = None
        self.position = 0

    def decode(self, data, final: bool = False, issues: list[TextIssue] | None = None) -> str:
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

    def getstate(self) -> tuple[bytes, object]:
        """Return ``(held bytes, family state)``; ``(b"", None)`` right after :meth:`reset`."""
        return self._pending, self._state

    def setstate(self, state: tuple[bytes, object]) -> None:
        """Restore what :meth:`getstate` returned."""
        self._pending, self._state = state


# ---------------------------------------------------------------------------------------------
# Labels

# Code page -> (header name, decoder key): MAPI PidTagInternetCodepage / PidTagMessageCodepage.
_CODE_PAGES: dict[int, tuple[str, str]] = {
    874: ("windows-874", "windows-874"),
    932: ("shift_jis", "shift_jis"),
    936: ("gb2312", "gbk"),
    949: ("ks_c_5601-1987", "euc-kr"),
    950: ("big5", "big5"),
    1200: ("utf-16le", "utf-16le"),
    1201: ("utf-16be", "utf-16be"),
    12000: ("utf-32le", "utf-32le"),
    12001: ("utf-32be", "utf-32be"),
    20127: ("us-ascii", "windows-1252"),
    20866: ("koi8-r", "koi8-r"),
    21866: ("koi8-u", "koi8-u"),
    28591: ("iso-8859-1", "windows-1252"),
    28599: ("iso-8859-9", "windows-1254"),
    28601: ("iso-8859-11", "windows-874"),
    38598: ("iso-8859-8-i", "iso-8859-8-i"),
    858: ("ibm00858", "ibm858"),
    866: ("ibm866", "ibm866"),
    10000: ("macintosh", "macintosh"),
    10007: ("x-mac-cyrillic", "x-mac-cyrillic"),
    50220: ("iso-2022-jp", "cp50220"),
    50221: ("csiso2022jp", "cp50221"),
    50222: ("iso-2022-jp", "cp50222"),
    50225: ("iso-2022-kr", "iso-2022-kr"),
    51932: ("euc-jp", "euc-jp"),
    51949: ("euc-kr", "euc-kr"),
    52936: ("hz-gb-2312", "hz-gb-2312"),
    54936: ("gb18030", "gb18030"),
    65000: ("utf-7", "utf-7"),
    65001: ("utf-8", "utf-8"),
    1361: ("johab", "johab"),
}
for _cp in range(1250, 1259):
    _CODE_PAGES[_cp] = (f"windows-{_cp}", f"windows-{_cp}")
for _n, _cp in zip((2, 3, 4, 5, 6, 7, 8, 10, 13, 14, 15, 16),
                   (28592, 28593, 28594, 28595, 28596, 28597, 28598, 28600, 28603, 28604, 28605, 28606),
                   strict=True):
    _CODE_PAGES[_cp] = (f"iso-8859-{_n}", f"iso-8859-{_n}")
_DOS = (437, 737, 775, 850, 852, 855, 857, 860, 861, 862, 863, 864, 865, 869)
for _cp in _DOS:
    _CODE_PAGES[_cp] = (f"ibm{_cp}", f"ibm{_cp}")

# Mail-only labels (step 1), lower case -> decoder key.
_MAIL_ONLY: dict[str, str] = {}
for _l in ("utf-7 utf7 unicode-1-1-utf-7 csunicode11utf7 x-unicode20utf7 x-unicode-2-0-utf-7 "
           "unicode-2-0-utf-7 x-utf-7").split():
    _MAIL_ONLY[_l] = "utf-7"
for _l in "utf-32 utf32 utf-32le utf32le x-utf-32le ucs-4 ucs-4le iso-10646-ucs-4 csucs4".split():
    _MAIL_ONLY[_l] = "utf-32le"
for _l in "utf-32be utf32be x-utf-32be ucs-4be".split():
    _MAIL_ONLY[_l] = "utf-32be"
_MAIL_ONLY.update({
    "iso-2022-kr": "iso-2022-kr", "csiso2022kr": "iso-2022-kr",
    "hz-gb-2312": "hz-gb-2312", "hz": "hz-gb-2312", "x-hz": "hz-gb-2312",
    "iso-2022-jp-1": "iso-2022-jp-1",
    "iso-2022-jp-2": "iso-2022-jp-2", "csiso2022jp2": "iso-2022-jp-2",
    "iso-2022-jp-3": "iso-2022-jp-3", "iso-2022-jp-2004": "iso-2022-jp-3",
    "johab": "johab", "x-johab": "johab", "ms1361": "johab",
})
for _cp in (50220, 50221, 50222):
    for _p in ("cp", "windows-", "x-windows-"):
        _MAIL_ONLY[f"{_p}{_cp}"] = f"cp{_cp}"
for _cp in (*_DOS, 858):
    for _p in ("cp", "ibm", "ibm-", "cp-", "csibm", "ms-dos-"):
        _MAIL_ONLY[f"{_p}{_cp}"] = f"ibm{_cp}"
    _MAIL_ONLY[str(_cp)] = f"ibm{_cp}"
_MAIL_ONLY.update({
    "ibm00858": "ibm858", "cp00858": "ibm858", "ccsid00858": "ibm858",
    "pc-multilingual-850+euro": "ibm858",
    "cspc8codepage437": "ibm437", "cspc850multilingual": "ibm850", "cspc862latinhebrew": "ibm862",
    "cspc775baltic": "ibm775", "cspcp852": "ibm852", "dos-862": "ibm862",
})

# Step 2: a Windows-style code page spelling.
_CODE_PAGE_SPELLING = re.compile(r"(?:cp|windows|x-cp|codepage|ms)-?0*([1-9][0-9]{2,4})\Z")

# Header names of the decoders reached through labels (WHATWG canonical names, lower case).
_KEY_NAMES = {"ibm858": "ibm00858", "cp50220": "iso-2022-jp", "cp50221": "csiso2022jp", "cp50222": "iso-2022-jp"}

_ASCII_WS = " \t\n\f\r"
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")

_label_cache: dict[str, Charset | None] = {}


def _by_key(key: str) -> Charset:
    return _charset(_KEY_NAMES.get(key, key), key)


def for_label(label: str) -> Charset | None:
    """Return the charset a charset label names, or ``None`` when it names none we decode.

    Implements spec 000 "Charsets" (MailEncoding.ForLabel): ASCII case and surrounding ASCII
    white space are ignored; mail-only labels, then Windows-style code page spellings, then the
    WHATWG label table. Cached: one dictionary look-up for a label seen before.

    :param label: the charset label as found in the input (``str``).
    :returns: the :class:`Charset`, or ``None`` for ``replacement`` and its labels,
        ``unknown-8bit``, and any label not in the lists (callers apply :func:`decode_unknown`).
    :raises TypeError: ``label`` is not a ``str``.

    >>> for_label(" ISO-8859-1 ").name
    'windows-1252'
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
    if len(_label_cache) < 4096:
        _label_cache[label] = result
    return result


def _resolve(label: str) -> Charset | None:
    lab = label.strip(_ASCII_WS).translate(_ASCII_LOWER)
    key = _MAIL_ONLY.get(lab)
    if key is not None:
        return _by_key(key)
    m = _CODE_PAGE_SPELLING.match(lab)
    if m is not None:
        cs = for_code_page(int(m.group(1)))
        if cs is not None:
            return cs
    from ._tables.labels import WHATWG_LABELS

    key = WHATWG_LABELS.get(lab)
    if key is None or key == "replacement":
        return None
    return _by_key(key)


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
    entry = _CODE_PAGES.get(code_page)
    return None if entry is None else _charset(*entry)


def known_charsets() -> list[Charset]:
    """Return one Charset per decoder key (the label-reached identity), sorted by name."""
    return sorted((_by_key(k) for k in _FAMILY), key=lambda c: c.name)


# ---------------------------------------------------------------------------------------------
# Convenience


@dataclass(frozen=True, slots=True)
class DecodeResult:
    """The result of :func:`decode`: the text, the charset used, and the issues (a tuple)."""

    text: str
    charset: Charset
    issues: tuple[TextIssue, ...]


def decode_unknown(data, issues: list[TextIssue] | None = None, offset: int = 0) -> tuple[str, Charset]:
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


def decode(data, label: str | None, *, issues: list[TextIssue] | None = None) -> DecodeResult:
    """Decode ``data`` with the charset ``label`` names, or by the unknown-charset rule.

    :param data: the bytes.
    :param label: a charset label, or ``None`` for "unknown".
    :returns: :class:`DecodeResult` with the text, the charset used and every issue.
    """
    found: list[TextIssue] = [] if issues is None else issues
    start = len(found)
    cs = for_label(label) if label is not None else None
    if cs is None:
        text, cs = decode_unknown(data, found)
    else:
        text = cs.decode(data, found)
    return DecodeResult(text, cs, tuple(found[start:]))
