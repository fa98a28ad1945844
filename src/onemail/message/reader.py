"""``read`` and ``read_mbox``: sniff the format and hand the bytes to the right reader.

Formats, by their first bytes:

* Outlook ``.msg``: the OLE2 compound file signature ``D0 CF 11 E0 A1 B1 1A E1`` (MS-CFB 2.2).
* TNEF (``winmail.dat``): the signature ``0x223E9F78`` little-endian (MS-OXTNEF 2.1.3.1).
* mbox: a first line starting with ``From `` (RFC 4155); :func:`read` gives its first message.
* RFC 5322 / MIME: a first line that is a header field (``name:``), after any blank lines.

Anything else (binary junk, an empty file, a text file) gives a :class:`Message` whose
``error`` says so: reading never raises on bad input.
"""

from __future__ import annotations

import errno
import mmap
import os
import re
import stat
from collections.abc import Iterator

from .model import Message

__all__ = ["read", "read_mbox", "sniff"]

OLE_SIGNATURE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
TNEF_SIGNATURE = b"\x78\x9f\x3e\x22"

MMAP_BYTES = 64 << 20
"""Mailboxes of 64 MiB or more are memory-mapped by :func:`read_mbox` instead of read whole."""

_HEADER_LINE = re.compile(rb"[\x21-\x39\x3b-\x7e]+[ \t]*:")
# RFC 4155 section 2: "From ", the sender, a date (asctime: "Sat Jan  1 00:00:00 2000"). After
# the first line only a line with a time of day separates messages, so that an unescaped "From "
# line of a body (mboxo, mimekit's unmunged.mbox.txt) rarely splits a message.
_MBOX_SPLIT = re.compile(rb"\AFrom [^\n]*\n|\nFrom [^\n]*[0-9]:[0-9][0-9][^\n]*\n")
_MBOXRD_QUOTE = re.compile(rb"^>(>*From )", re.M)


def sniff(data: bytes) -> str | None:
    """Return ``"msg"``, ``"tnef"``, ``"mbox"``, ``"rfc822"`` or ``None`` (not a message)."""
    if data.startswith(OLE_SIGNATURE):
        return "msg"
    if data.startswith(TNEF_SIGNATURE):
        return "tnef"
    if data.startswith(b"From "):
        return "mbox"
    if data[:2] == b"\r\n" or data[:1] == b"\n":  # an empty header section, then a body
        return "rfc822" if b"\x00" not in data[:4096] else None
    head = data[:4096].lstrip(b"\t ")
    if head.startswith(b"\xef\xbb\xbf"):
        head = head[3:]
    if _HEADER_LINE.match(head):
        return "rfc822"
    return None


def _open(path):
    """Open ``path`` for reading bytes: a regular file or a FIFO (``<(command)``); a device or
    socket (``/dev/zero`` never ends) raises ``OSError``."""
    f = open(path, "rb")  # noqa: SIM115 - returned to a with statement
    mode = os.fstat(f.fileno()).st_mode
    if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode)):
        f.close()
        raise OSError(errno.EINVAL, "not a regular file", os.fspath(path))
    return f


def _load(source) -> bytes:
    if isinstance(source, bytes):
        return source
    if isinstance(source, (bytearray, memoryview)):
        return bytes(source)
    if isinstance(source, (str, os.PathLike)):
        with _open(source) as f:
            return f.read()
    read = getattr(source, "read", None)
    if read is None:
        raise TypeError(f"source must be bytes, a path or a binary file, not {type(source).__name__}")
    data = read()
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError("source must be opened in binary mode (its read() returned "
                        f"{type(data).__name__})")
    return bytes(data)


def read(source, *, repair: bool = False) -> Message:
    """Read one message from ``source``; the format is sniffed (module docstring).

    :param source: ``bytes`` (or bytearray/memoryview), a path (``str`` / ``os.PathLike``), or a
        binary file object.
    :param repair: run mojibake repair (:func:`onemail.detect.repair`) on every decoded header
        value and body; each change is a :class:`~onemail.message.RepairRecord`.
    :returns: the :class:`Message` (for an mbox, its first message). Bad input gives a message
        with issues, or with :attr:`Message.error` set.
    :raises OSError: the path cannot be read.
    :raises TypeError: ``source`` is none of the accepted types, or a text-mode file.
    """
    data = _load(source)
    return _read_bytes(data, repair=repair)


def _read_bytes(data: bytes, *, repair: bool, depth: int = 0, mime_format: str = "rfc822") -> Message:
    if data[:8] == b"\xef\xbb\xbfFrom ":  # an mbox saved with a BOM (mimekit's unmunged.mbox.txt)
        data = data[3:]
    fmt = sniff(data)
    try:
        if fmt == "msg":
            from .msg import read_msg

            return read_msg(data, repair=repair, depth=depth)
        if fmt == "tnef":
            from .tnef import read_tnef

            return read_tnef(data, repair=repair, depth=depth)
        if fmt == "mbox":
            for msg in _mbox(data, repair):
                return msg
            return Message("mbox", error="empty mbox")
        if fmt == "rfc822":
            from .mime import from_bytes

            return from_bytes(data, mime_format, repair=repair, depth=depth)
    except RecursionError:
        return Message(fmt or "unknown", error="message nested too deeply")
    except Exception as exc:  # noqa: BLE001 - a reader bug must not stop a scan: report it
        return Message(fmt or "unknown", error=f"internal error: {type(exc).__name__}: {exc}")
    if not data:
        return Message("unknown", error="empty input")
    return Message("unknown", error="not a message: no header, mbox, Outlook .msg or TNEF signature")


def read_mbox(source, *, repair: bool = False) -> Iterator[Message]:
    """Yield every message of an mbox file (RFC 4155), in order.

    Messages are split at lines starting with ``From `` (the first line, and later lines that
    hold a time of day, as the RFC 4155 date does); ``>From `` quoting is undone the mboxrd way (one ``>`` removed from
    ``>...>From `` lines). Input that does not start with ``From `` is read as one message.

    :param source: as for :func:`read`.
    :raises OSError: the path cannot be read. :raises TypeError: wrong ``source`` type.
    """
    if isinstance(source, (str, os.PathLike)):
        with _open(source) as f:
            if os.fstat(f.fileno()).st_size >= MMAP_BYTES:
                # a large mailbox is split in place; only one message at a time is copied
                with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mm:
                    if mm[:5] == b"From ":
                        yield from _mbox(mm, repair)
                        return
            f.seek(0)
            data = f.read()
    else:
        data = _load(source)
    if data[:8] == b"\xef\xbb\xbfFrom ":
        data = data[3:]
    if not data.startswith(b"From "):
        yield _read_bytes(data, repair=repair)
        return
    yield from _mbox(data, repair)


def _mbox(data: bytes, repair: bool) -> Iterator[Message]:
    seps = list(_MBOX_SPLIT.finditer(data))  # a "From " line without its line feed is no separator
    if not seps:
        return
    starts = [m.end() for m in seps]
    ends = [m.start() for m in seps[1:]] + [len(data)]
    for start, end in zip(starts, ends, strict=True):
        chunk = data[start:end]
        if b">From " in chunk:
            chunk = _MBOXRD_QUOTE.sub(rb"\1", chunk)
        yield _read_bytes(chunk, repair=repair, mime_format="mbox")
