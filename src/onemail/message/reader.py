"""``read`` and ``read_mbox``: take the input, sniff its format, hand the bytes to its reader.

Formats are sniffed by :func:`onemail.message.formats.sniff` (Outlook ``.msg``, TNEF, mbox,
RFC 5322 / MIME). :func:`read` gives the first message of an mbox. Anything else (binary junk,
an empty file, a text file) gives a :class:`Message` whose ``error`` says so: reading never
raises on bad input.

An mbox (RFC 4155, every variant) is split by :mod:`onemail.message.mbox`: the first line when
it starts with ``"From "``, then every ``"From "`` line after an empty line that a message header
follows, or where a valid ``Content-Length`` ends a message (M20-M22); ``">From "`` quoting is
undone the mboxrd way (M21). Splitting is linear in the mailbox.
"""

from __future__ import annotations

import email.message
import errno
import mmap
import os
import stat
from collections.abc import Iterator
from typing import BinaryIO

from . import formats
from .formats import ReadContext, sniff
from .mbox import mbox_spans, mbox_start, read_span, spans
from .model import Message

__all__ = ["MessageInput", "mbox_spans", "read", "read_bytes", "read_mbox", "sniff"]


MessageInput = bytes | bytearray | memoryview | str | os.PathLike[str] | BinaryIO | email.message.Message
"""What :func:`read` and :func:`read_mbox` accept (not :class:`onemail.message.source.Source`,
the place of a message inside a container)."""


def _open(path: str | os.PathLike[str]) -> BinaryIO:
    """Open ``path`` for reading bytes: a regular file or a FIFO (``<(command)``); a device or
    socket (``/dev/zero`` never ends) raises ``OSError``."""
    f = open(path, "rb")  # noqa: SIM115 - returned to a with statement
    mode = os.fstat(f.fileno()).st_mode
    if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode)):
        f.close()
        raise OSError(errno.EINVAL, "not a regular file", os.fspath(path))
    return f


def _load(source: MessageInput) -> bytes:
    if isinstance(source, bytes):
        return source
    if isinstance(source, (bytearray, memoryview)):
        return bytes(source)
    if isinstance(source, (str, os.PathLike)):
        with _open(source) as f:
            return f.read()
    if isinstance(source, email.message.Message):
        return _stdlib_bytes(source)
    read_ = getattr(source, "read", None)
    if read_ is None:
        raise TypeError("source must be bytes, a path, a binary file or an email.message.Message, "
                        f"not {type(source).__name__}")
    data = read_()
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError("source must be opened in binary mode (its read() returned "
                        f"{type(data).__name__})")
    return bytes(data)


def _stdlib_bytes(msg: email.message.Message) -> bytes:
    """The bytes of a message the stdlib parsed, written back by its generator: no ``>From``
    mangling, no refolding, CR LF line ends (the generator rewrites every line end to one)."""
    from email.generator import BytesGenerator
    from io import BytesIO

    out = BytesIO()
    try:
        BytesGenerator(out, mangle_from_=False, maxheaderlen=0,
                       policy=msg.policy.clone(linesep="\r\n")).flatten(msg)
    except Exception:  # noqa: BLE001 - a message the stdlib cannot write back: its text form
        return msg.as_string().encode("utf-8", "surrogateescape")
    return out.getvalue()


def read(source: MessageInput, *, repair: bool = False) -> Message:
    """Read one message from ``source``; the format is sniffed (module docstring).

    :param source: ``bytes`` (or bytearray/memoryview), a path (``str`` / ``os.PathLike``), a
        binary file object, or an ``email.message.Message`` the stdlib parsed (written back to
        bytes by its generator with CR LF line ends, then read: what the stdlib changed while
        parsing stays changed).
    :param repair: run mojibake repair (:func:`onemail.detect.repair`) on every decoded header
        value and body; each change is a :class:`~onemail.message.RepairRecord`.
    :returns: the :class:`Message` (for an mbox, its first message). Bad input gives a message
        with issues, or with :attr:`Message.error` set.
    :raises OSError: the path cannot be read.
    :raises TypeError: ``source`` is none of the accepted types, or a text-mode file.
    """
    return read_bytes(_load(source), None, ReadContext(repair, 0, read_bytes))


def read_bytes(data: bytes, fmt: str | None, ctx: ReadContext) -> Message:
    """Read the message in ``data`` in format ``fmt`` (``None``: sniffed); never raises on bad
    input. The dispatcher every nested message goes through (:meth:`ReadContext.nested`).

    :param data: the message's bytes.
    :param fmt: ``"rfc822"``, ``"mbox"`` (one message of an mbox, separator removed), ``"tnef"``,
        ``"msg"``, or ``None``.
    :param ctx: the reading context.
    """
    whole_mbox = False
    if fmt is None:
        start = mbox_start(data)  # after a BOM or empty lines (M20)
        if start > 0:
            data = data[start:]
        fmt = sniff(data)
        whole_mbox = fmt == "mbox"
    try:
        if fmt == "msg":
            from .msg import read_msg

            return read_msg(data, ctx)
        if fmt == "tnef":
            from .tnef import read_tnef

            return read_tnef(data, ctx)
        if whole_mbox:
            for msg in _mbox(data, ctx, 0):
                return msg
            return Message("mbox", error="empty mbox")
        if fmt in ("rfc822", "mbox"):
            from .mime import parse

            return parse(data, ctx, fmt=fmt)
    except RecursionError:
        return Message(fmt or "unknown", error="message nested too deeply")
    except Exception as exc:  # noqa: BLE001 - a reader bug must not stop a scan: report it
        return Message(fmt or "unknown", error=f"internal error: {type(exc).__name__}: {exc}")
    if not data:
        return Message("unknown", error="empty input")
    return Message("unknown", error="not a message: no header, mbox, Outlook .msg or TNEF signature")


def read_mbox(source: MessageInput, *, repair: bool = False) -> Iterator[Message]:
    """Yield every message of an mbox file (RFC 4155), in order (module docstring).

    Input that does not start with ``"From "`` (after a BOM or empty lines,
    :func:`~onemail.message.mbox.mbox_start`) is read as one message.

    :param source: as for :func:`read`; a path of :data:`~onemail.message.formats.MMAP_BYTES`
        or more is memory-mapped (one message at a time is copied).
    :raises OSError: the path cannot be read.
    :raises TypeError: wrong ``source`` type.
    """
    ctx = ReadContext(repair, 0, read_bytes)
    if isinstance(source, (str, os.PathLike)):
        with _open(source) as f:
            if os.fstat(f.fileno()).st_size >= formats.MMAP_BYTES:
                with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mm:
                    start = mbox_start(mm)
                    if start >= 0:
                        yield from _mbox(mm, ctx, start)
                        return
            f.seek(0)
            data = f.read()
    else:
        data = _load(source)
    start = mbox_start(data)
    if start < 0:
        yield read_bytes(data, None, ctx)
        return
    yield from _mbox(data, ctx, start)


def _mbox(data: bytes | mmap.mmap, ctx: ReadContext, start: int) -> Iterator[Message]:
    for span in spans(data, start=start):
        yield read_span(data, span, ctx)
