"""Mail containers recognised by content: one walk over files, folders and archives.

:func:`walk` takes paths (files, folders, ``-`` for standard input) and yields, in the order a
sequential read meets them, one :class:`Found` per message (its :class:`~onemail.message.source.
Source` and the :class:`~onemail.message.Message` read from it) and one :class:`Skipped` per path
or part of a container that holds no message we can read (with a reason from
:data:`SKIP_REASONS`): nothing is passed over silently, nothing raises on bad input.

Recognition (:func:`recognise`) looks at the content; a file name's suffix is only a hint:

* an Outlook ``.msg`` by the OLE2 signature, TNEF by its signature (``winmail.dat``);
* an mbox by a first line starting with ``"From "`` (split by :mod:`onemail.message.mbox`);
* an RFC 5322 message (``eml``) by a first header field line and, within its header section, a
  field every message has one of (``From``, ``Date``, ``Subject``, ``Received``, ... :data:`MAIL_FIELDS`).
  A file whose first line is a header line but holds none of those fields, or whose header
  section is empty, is read as a message only when its name ends in a mail suffix
  (:data:`MAIL_SUFFIXES`) or it was named by the caller; else it is skipped as ``not-mail``
  (a folder of notes, a ``README`` with ``Title:``). A file named ``*.eml`` that starts with a
  ``"From "`` line is one message, the line its envelope (mimekit ``unmunged.mbox.txt``).
* a folder is walked in name order, depth first, files and sub-folders in one order (so that
  :meth:`Source.key` sorts messages back into walk order); a folder reached twice through
  symbolic links is walked once.

Every message goes through :func:`onemail.message.reader.read_bytes`: the same reader as
:func:`onemail.read`, so a message found in a container reads exactly as the same bytes read
alone.

Offsets in :class:`Source` are bytes into the file holding the message (after decompression).
"""

from __future__ import annotations

import errno
import mmap
import os
import re
import stat
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .._walk import not_regular, stat_problem
from . import formats
from .formats import ReadContext
from .model import Message
from .reader import mbox_spans, read_bytes, unquote_mbox
from .source import Source

__all__ = [
    "MAIL_FIELDS",
    "MAIL_SUFFIXES",
    "SKIP_REASONS",
    "Found",
    "Skipped",
    "recognise",
    "walk",
    "walk_data",
    "walk_file",
]

SKIP_REASONS: dict[str, str] = {
    "not-mail": "the content is no message or mail container onemail knows (suffix ignored)",
    "empty": "an empty file",
    "unreadable": "the path could not be opened or read (missing, permissions, a dangling or "
                  "looping symbolic link, a folder that cannot be listed)",
    "not-regular": "a FIFO, socket or device found inside a folder (never opened: it could block)",
    "damaged": "part of a container could not be read: a truncated compressed stream, a zip member "
               "that fails its check, a PST folder or item that cannot be opened",
    "limit": "a documented bound was met: a decompression bomb, too many zip members, a member "
             "too large",
    "not-message": "an item of a PST/OST that is not a message (contact, appointment, task, note)",
    "encrypted": "an encrypted zip member",
    "needs-extra": "a container whose reader is an optional extra that is not installed "
                   "(PST/OST: onemail[pst])",
}
"""Why something was skipped: ``reason -> meaning``. :attr:`Skipped.reason` is one of these keys;
counting skipped items by reason is how a caller reports them."""

MAIL_SUFFIXES = (".eml", ".mbox", ".mbx", ".msg", ".dat", ".tnef", ".mail")
"""Name endings that make a header-less or unusual text file be read as a message anyway (a
hint only: content decides first)."""

MAIL_FIELDS = frozenset({
    b"from", b"sender", b"reply-to", b"to", b"cc", b"bcc", b"message-id", b"in-reply-to",
    b"references", b"subject", b"date", b"return-path", b"received", b"delivered-to",
    b"mime-version", b"content-type", b"content-transfer-encoding", b"resent-from",
    b"resent-date", b"resent-to", b"resent-message-id", b"envelope-to", b"x-mailer",
})
"""Header field names (lower case) of RFC 5322 (origin, destination, identification,
informational, trace and resent fields), RFC 2045 and common delivery fields: a header section
holding one of them is a message's."""

HEAD_BYTES = 64 << 10
"""How far into a file recognition looks for a mail field (a header section longer than this
before its first known field is not recognised without a hint)."""

_FIELD = re.compile(rb"[ \t]*([\x21-\x39\x3b-\x7e]+)[ \t]*:")


@dataclass(frozen=True, slots=True)
class Found:
    """A message found by :func:`walk`.

    :param source: where it is (path, container, member, index, offset, ...).
    :param message: the message read from it, or ``None`` when walking with ``read=False``
        (counting, planning shards). A message that could not be read has
        :attr:`Message.error` set: it is still found, in its place.
    """

    source: Source
    message: Message | None = None


@dataclass(frozen=True, slots=True)
class Skipped:
    """A path, or a part of a container, that gave no message (never silent).

    :param path: the path as named by the caller (``-`` for standard input).
    :param reason: a key of :data:`SKIP_REASONS`.
    :param detail: a human sentence (the ``OSError`` text, the limit that was met, ...).
    :param member: the file inside the named folder or archive, ``/``-separated, else ``None``.
    :param archive: the zip archive holding ``member`` (its path inside ``path``; ``""`` when
        ``path`` itself is the archive), else ``None``.
    :param folder: the PST/OST folder path, else ``None``.
    :param offset: a byte offset into the (decompressed) file where the problem starts, when
        known.
    :param container: the kind of container it happened in (:data:`~onemail.message.source.
        CONTAINERS`), or ``None`` for a file not recognised.
    """

    path: str
    reason: str
    detail: str = ""
    member: str | None = None
    archive: str | None = None
    folder: str | None = None
    offset: int | None = None
    container: str | None = None

    @property
    def where(self) -> str:
        """``path``, then ``/member`` (or ``!member`` inside an archive) and ``:folder``: a
        human name of the place (not escaped: escape it before printing on a terminal)."""
        out = self.path
        if self.archive:
            out += "/" + self.archive
        if self.member:
            out += ("!" if self.archive is not None else "/") + self.member
        if self.folder:
            out += ":" + self.folder
        return out

    def to_json(self) -> dict[str, object]:
        """Return ``{"path", "reason", "detail"}`` and the other fields that are set."""
        out: dict[str, object] = {"path": self.path, "reason": self.reason, "detail": self.detail}
        for name in ("member", "archive", "folder", "offset", "container"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        return out


Item = Found | Skipped


def recognise(head: bytes | mmap.mmap, *, hint: bool = False) -> str | None:
    """Return the container kind of a file from its first bytes, or ``None`` (not mail).

    :param head: the file's first bytes (:data:`HEAD_BYTES` are enough).
    :param hint: the name ends in a mail suffix or the file was named by the caller: a text that
        only looks like a header section (or an empty one) is taken as a message.
    :returns: ``"msg"``, ``"tnef"``, ``"mbox"`` or ``"eml"``.
    """
    fmt = formats.sniff(bytes(head[:4096]))
    if fmt in ("msg", "tnef", "mbox"):
        return fmt
    if fmt == "rfc822" and (hint or _has_mail_field(head)):
        return "eml"
    if fmt is None and head[:8] == b"\xef\xbb\xbfFrom ":
        return "mbox"
    return None


def _has_mail_field(head: bytes | mmap.mmap) -> bool:
    """True when the header section at the start of ``head`` (up to its empty line, within
    :data:`HEAD_BYTES`) names a field of :data:`MAIL_FIELDS`."""
    pos, end = 0, min(len(head), HEAD_BYTES)
    if head[:3] == b"\xef\xbb\xbf":
        pos = 3
    while pos < end:
        nl = head.find(b"\n", pos, end)
        stop = end if nl < 0 else nl
        line = head[pos:stop]
        if line in (b"", b"\r"):
            return False
        m = _FIELD.match(line)
        if m and m.group(1).lower() in MAIL_FIELDS:
            return True
        if nl < 0:
            return False
        pos = nl + 1
    return False


def walk(paths: Iterable[str | os.PathLike], *, repair: bool = False, read: bool = True) -> Iterator[Item]:
    """Yield every message (:class:`Found`) and every skipped path (:class:`Skipped`) under
    ``paths``, in order (module docstring).

    :param paths: files, folders, or ``"-"`` for standard input (read once, as bytes; any
        non-seekable input works, FIFOs included). Paths are walked in the order given.
    :param repair: passed to the reader (mojibake repair, :func:`onemail.read`).
    :param read: ``False`` yields :class:`Found` items whose ``message`` is ``None``: the
        sources only (counting messages, planning shards), at the cost of finding them.
    :raises TypeError: a path is not ``str`` / ``os.PathLike``.

    Never raises ``OSError``: an unreadable path is a :class:`Skipped` with reason
    ``unreadable``.
    """
    if isinstance(paths, (str, bytes, os.PathLike)):
        raise TypeError("paths must be an iterable of paths, not a single path")
    for p in paths:
        if not isinstance(p, (str, os.PathLike)):
            raise TypeError(f"each path must be str or os.PathLike, not {type(p).__name__}")
        p = os.fspath(p)
        if isinstance(p, bytes):
            p = os.fsdecode(p)
        if p == "-":
            try:
                data = sys.stdin.buffer.read()
            except OSError as exc:
                yield Skipped("-", "unreadable", _os_text(exc))
                continue
            yield from walk_data(data, path="-", repair=repair, read=read, hint=True)
            continue
        try:
            st = os.stat(p)
        except OSError as exc:
            yield Skipped(p, "unreadable", _stat_text(p, exc))
            continue
        if stat.S_ISDIR(st.st_mode):
            yield from _folder(p, st, repair, read)
        elif stat.S_ISREG(st.st_mode) or stat.S_ISFIFO(st.st_mode):
            yield from walk_file(p, repair=repair, read=read)
        else:
            yield Skipped(p, "not-regular", not_regular(st.st_mode))


def walk_file(path: str | os.PathLike, *, root: str | None = None, member: str | None = None,
              repair: bool = False, read: bool = True) -> Iterator[Item]:
    """Yield the messages of one file (the per-file step of :func:`walk`; call it from a worker
    process to spread a walk's files over processes).

    :param path: the file (a regular file or a FIFO; not opened if it is anything else).
    :param root: the folder the caller named, when ``path`` was found inside it; the sources
        then say ``path=root, member=<path relative to root>``. ``None``: ``path`` was named.
    :param member: the relative path to record (default: ``path`` relative to ``root``).
    :param repair: as for :func:`walk`. ``read``: as for :func:`walk`.

    A file named by the caller (``root is None``) that is not recognised is still read, as
    :func:`onemail.read` would: its message has :attr:`Message.error` set ("not a message").
    """
    path = os.fspath(path)
    if root is not None and member is None:
        member = os.path.relpath(path, root).replace(os.sep, "/")
    where = root if root is not None else path
    hint = root is None or path.lower().endswith(MAIL_SUFFIXES)
    try:
        f = open(path, "rb")  # noqa: SIM115 - closed below
    except OSError as exc:
        yield Skipped(where, "unreadable", _stat_text(path, exc), member=member)
        return
    with f:
        try:
            st = os.fstat(f.fileno())
            if not (stat.S_ISREG(st.st_mode) or stat.S_ISFIFO(st.st_mode)):
                yield Skipped(where, "not-regular", not_regular(st.st_mode), member=member)
                return
            if stat.S_ISREG(st.st_mode) and st.st_size >= formats.MMAP_BYTES:
                with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mm:
                    yield from _data(mm, where, member, path, repair, read, hint, named=root is None)
                return
            data = f.read()
        except OSError as exc:
            yield Skipped(where, "unreadable", _os_text(exc), member=member)
            return
    yield from _data(data, where, member, path, repair, read, hint, named=root is None)


def walk_data(data: bytes, *, path: str = "-", member: str | None = None, repair: bool = False,
              read: bool = True, hint: bool = True) -> Iterator[Item]:
    """Yield the messages held in ``data`` (the bytes of one file: standard input, a download),
    recognised by content (:func:`recognise`; ``hint`` as there).

    :param path: the name to record in each :class:`Source` (``"-"``: standard input).
    :param member: the member name to record, else ``None``.
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"data must be bytes, not {type(data).__name__}")
    yield from _data(bytes(data), path, member, path if member is None else member, repair, read,
                     hint, named=hint)


def _data(data: bytes | mmap.mmap, path: str, member: str | None, name: str, repair: bool,
          read: bool, hint: bool, *, named: bool) -> Iterator[Item]:
    """The messages of one file's bytes (``name``: its own name, for the suffix hint)."""
    ctx = ReadContext(repair, 0, read_bytes)
    if not data:
        yield Skipped(path, "empty", "an empty file", member=member)
        return
    kind = recognise(data[:HEAD_BYTES], hint=hint)
    container = "stdin" if path == "-" and member is None else None
    if kind == "mbox" and name.lower().endswith(".eml"):
        kind = "eml-envelope"
    if kind == "mbox":
        for i, (start, end) in enumerate(mbox_spans(data)):
            src = Source(path, "mbox", member, i, start, end - start)
            yield Found(src, read_bytes(unquote_mbox(data[start:end]), "mbox", ctx) if read else None)
        return
    if kind == "eml-envelope":  # one message after its envelope line
        nl = data.find(b"\n")
        start = len(data) if nl < 0 else nl + 1
        src = Source(path, container or "eml", member, 0, start, len(data) - start)
        yield Found(src, read_bytes(bytes(data[start:]), "mbox", ctx) if read else None)
        return
    if kind is None and not named:
        yield Skipped(path, "not-mail", "no message, mbox, Outlook .msg or TNEF signature or "
                      "mail header field found", member=member)
        return
    fmt = {"eml": "rfc822", "msg": "msg", "tnef": "tnef"}.get(kind or "")
    src = Source(path, container or kind or "eml", member, 0, 0, len(data))
    yield Found(src, read_bytes(bytes(data), fmt, ctx) if read else None)


def _folder(top: str, st: os.stat_result, repair: bool, read: bool) -> Iterator[Item]:
    """Walk a folder in name order, depth first, files and sub-folders in one order."""
    seen = {(st.st_dev, st.st_ino)}

    def visit(folder: str) -> Iterator[Item]:
        rel = os.path.relpath(folder, top).replace(os.sep, "/")
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as exc:
            yield Skipped(top, "unreadable", _os_text(exc), member=None if rel == "." else rel)
            return
        for entry in entries:
            member = entry.name if rel == "." else f"{rel}/{entry.name}"
            try:
                est = entry.stat()  # follows a symbolic link
            except OSError as exc:
                yield Skipped(top, "unreadable", _stat_text(entry.path, exc), member=member)
                continue
            if stat.S_ISDIR(est.st_mode):
                key = (est.st_dev, est.st_ino)
                if key not in seen:
                    seen.add(key)
                    yield from visit(entry.path)
            elif stat.S_ISREG(est.st_mode):
                yield from walk_file(entry.path, root=top, member=member, repair=repair, read=read)
            else:
                yield Skipped(top, "not-regular", not_regular(est.st_mode), member=member)

    yield from visit(top)


def _os_text(exc: OSError) -> str:
    return exc.strerror or str(exc) or errno.errorcode.get(exc.errno or 0, "error")


def _stat_text(path: str, exc: OSError) -> str:
    return stat_problem(path, exc)
