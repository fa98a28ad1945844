"""Mail containers recognised by content: one walk over files, folders and archives.

:func:`walk` takes paths (files, folders, ``-`` for standard input) and yields, in the order a
sequential read meets them, one :class:`Found` per message (its :class:`~onemail.message.source.
Source` and the :class:`~onemail.message.Message` read from it) and one :class:`Skipped` per path
or part of a container that holds no message we can read (with a reason from
:data:`SKIP_REASONS`): nothing is passed over silently, nothing raises on bad input.

Recognition (:func:`recognise`) looks at the content; a file name's suffix is only a hint:

* an Outlook ``.msg`` by the OLE2 signature and an Outlook property stream name in it (another
  OLE2 file, a ``.doc`` or ``.xls``, is ``not-mail`` unless named or called ``*.msg``); TNEF by
  its signature (``winmail.dat``); a PST/OST by ``!BDN`` (read through the optional extra
  ``onemail[pst]``: :mod:`onemail.message.pst`);
* ``gzip``, ``bzip2`` and ``xz`` files by their magic numbers: decompressed as a stream, bounded
  (:data:`MAX_RATIO`, :data:`RATIO_FLOOR_BYTES`, :data:`MAX_DECOMPRESSED_BYTES`), then recognised
  again; a ``.zip`` by its local header signature: its members are walked like a folder (names
  never used as file system paths; bounded by :data:`MAX_ZIP_MEMBERS` and the same
  decompression bounds over the whole archive, spent by the members' declared sizes: M45); an
  archive inside an archive is not opened. The walk of a zip is planned from its central
  directory alone (:class:`ZipArchive`), so that :mod:`onemail.message.shards` can cut it into
  ranges of steps read by the same code;
* an mbox by a first line starting with ``"From "`` (split by :mod:`onemail.message.mbox`);
* an RFC 5322 message (``eml``) by a first header field line and, within its header section, a
  field every message has one of (``From``, ``Date``, ``Subject``, ``Received``, ... :data:`MAIL_FIELDS`).
  A file whose first line is a header line but holds none of those fields, or whose header
  section is empty, is read as a message only when its name ends in a mail suffix
  (:data:`MAIL_SUFFIXES`) or it was named by the caller; else it is skipped as ``not-mail``
  (a folder of notes, a ``README`` with ``Title:``). A file so named or hinted whose content is
  no mail at all is still read: its message has :attr:`Message.error` set (a failure, not a
  skip: its name says it should have been mail). A file starting with ``"From "`` is an
  mbox whatever its name (an ``.eml`` saved with its envelope line is an mbox of one message).
* a folder is walked in name order (:func:`~onemail.message.source.name_key`: ``2`` before
  ``10``), depth first, files and sub-folders in one order (so that :meth:`Source.key` sorts
  messages back into walk order); a folder reached twice through symbolic links is walked once;
* a **Maildir** is a folder holding ``cur/`` and ``new/``: their files are messages with the
  flags of their names (``1234.host:2,RS`` gives ``"RS"``; ``!`` and ``;`` also separate the
  info, as Dovecot writes on Windows), ``tmp/`` files are skipped (``incomplete``: still being
  delivered), sub-folders ``.Name`` that are Maildirs are Maildir++ folders (``.Work.2020``
  gives the folder ``Work/2020``);
* an **MH** folder holds ``.mh_sequences``, or only files with numeric names (besides
  dot-files): its numbered files are messages (``container="mh"``) in numeric order.

Standard input (``-``) and FIFOs are read once, to memory or, past :data:`SPILL_BYTES`, to an
anonymous temporary file that is memory-mapped: no input needs to be seekable. Regular files of
:data:`~onemail.message.formats.MMAP_BYTES` or more are memory-mapped.

Every message goes through :func:`onemail.message.reader.read_bytes`: the same reader as
:func:`onemail.read`, so a message found in a container reads exactly as the same bytes read
alone.

Offsets in :class:`Source` are bytes into the file holding the message (after decompression).
"""

from __future__ import annotations

import bz2
import contextlib
import errno
import hashlib
import io
import lzma
import mmap
import os
import re
import stat
import sys
import tempfile
import zipfile
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any, BinaryIO

from .._walk import not_regular, stat_problem
from . import formats
from .formats import ReadContext
from .mbox import MAIL_FIELDS, begins_header, mbox_start, read_span, spans
from .reader import read_bytes
from .source import Found, Skipped, Source, name_key

__all__ = [
    "COMPRESSIONS",
    "MAIL_FIELDS",
    "MAX_LAYERS",
    "MAIL_SUFFIXES",
    "FAILURE_REASONS",
    "NO_MAIL_REASONS",
    "SKIP_REASONS",
    "MAX_DECOMPRESSED_BYTES",
    "MAX_RATIO",
    "MAX_ZIP_MEMBERS",
    "RATIO_FLOOR_BYTES",
    "SPILL_BYTES",
    "FileTask",
    "ZipArchive",
    "ZipLayout",
    "Found",
    "Skipped",
    "maildir_flags",
    "recognise",
    "skip_is_failure",
    "task_for",
    "tasks",
    "walk",
    "walk_data",
    "walk_file",
    "walk_pst_part",
    "walk_task",
    "open_zip",
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
    "incomplete": "a file in a Maildir's tmp/ folder: a message still being delivered",
    "encrypted": "an encrypted zip member",
    "needs-extra": "a container whose reader is an optional extra that is not installed "
                   "(PST/OST: onemail[pst])",
}
"""Why something was skipped: ``reason -> meaning``. :attr:`Skipped.reason` is one of these keys;
counting skipped items by reason is how a caller reports them."""

FAILURE_REASONS = frozenset({"unreadable", "not-regular", "damaged", "limit", "encrypted", "needs-extra"})
"""The skip reasons that mean input was not read (``onemail scan``, ``read`` and ``export``
exit 1 on them). The others are ordinary findings of a walk: a ``README`` beside the mail, a
contact in a PST (``not-message``), a message still being delivered (``incomplete``, M41)."""

NO_MAIL_REASONS = frozenset({"not-mail", "empty"})
"""The skip reasons that say a path holds no mail: a failure for a path named on the command
line (the user asked for mail there), an ordinary finding for a file inside a named folder."""


def skip_is_failure(reason: str, *, named: bool = False) -> bool:
    """Whether a skip means that input asked for was not read: its reason is one of
    :data:`FAILURE_REASONS`, or ``named`` (the path as named by the caller, no member or folder
    inside it: :attr:`Skipped.named`) and it holds no mail (:data:`NO_MAIL_REASONS`). The one
    rule of the exit codes of ``onemail scan``, ``read`` and ``export``.

    :param reason: a key of :data:`SKIP_REASONS`.
    """
    return reason in FAILURE_REASONS or (named and reason in NO_MAIL_REASONS)

MAIL_SUFFIXES = (".eml", ".mbox", ".mbx", ".msg", ".dat", ".tnef", ".mail")
"""Name endings that make a header-less or unusual text file be read as a message anyway (a
hint only: content decides first)."""

HEAD_BYTES = 64 << 10
"""How far into a file recognition looks for a mail field (a header section longer than this
before its first known field is not recognised without a hint)."""

MAX_RATIO = 100
"""A compressed stream (a ``.gz``/``.bz2``/``.xz`` file, a zip member, a whole zip) may give at
most this many bytes per compressed byte, beyond :data:`RATIO_FLOOR_BYTES`. Mail compresses
2 to 10 times (text 3-5x, base64 attachments about 1.3x); deflate's own limit is 1032:1, and a
zip or bzip2 bomb goes far beyond. Output past the bound is not read: a ``limit`` skip, the
messages before it kept."""

RATIO_FLOOR_BYTES = 64 << 20
"""Output any compressed stream may give whatever its ratio (a small file of one repeated line
is no bomb): 64 MiB."""

MAX_DECOMPRESSED_BYTES = 8 << 30
"""Output one compressed file, or all the members of one zip, may give at most (8 GiB; past
:data:`SPILL_BYTES` it goes to a temporary file, not to memory)."""

MAX_ZIP_MEMBERS = 100_000
"""Members of one zip walked; the rest are one ``limit`` skip (a zip of 10^6 empty members is a
bomb of entries)."""

SPILL_BYTES = 64 << 20
"""Decompressed output and standard input / FIFO contents above this size go to an anonymous
temporary file that is memory-mapped, so that memory stays bounded."""

_SIGNATURES = (
    (b"!BDN", "pst"),
    (b"\x1f\x8b", "gzip"),
    (b"\xfd7zXZ\x00", "xz"),
    (b"PK\x03\x04", "zip"),
    (b"PK\x05\x06", "zip"),  # an empty archive
)
_BZIP2 = re.compile(rb"BZh[1-9](?:1AY&SY|\x17rE8P\x90)")
_OUTLOOK_STREAMS = ("__properties_version1.0".encode("utf-16-le"), "__substg1.0_".encode("utf-16-le"))
_MAILDIR_INFO = re.compile(r"[:!;]2,([A-Za-z]*)$")
COMPRESSIONS = frozenset({"gzip", "bzip2", "xz"})

Item = Found | Skipped


def recognise(head: bytes | mmap.mmap, *, hint: bool = False) -> str | None:
    """Return the container kind of a file from its first bytes, or ``None`` (not mail).

    :param head: the file's bytes (``bytes`` or ``mmap``): its first :data:`HEAD_BYTES` are
        looked at, and for an OLE2 file the whole of it (for an Outlook stream name).
    :param hint: the name ends in a mail suffix or the file was named by the caller: a text that
        only looks like a header section (or an empty one) is taken as a message.
    :returns: ``"msg"``, ``"tnef"``, ``"mbox"``, ``"eml"``, ``"pst"`` (also OST), ``"gzip"``,
        ``"bzip2"``, ``"xz"`` or ``"zip"``.
    """
    for magic, kind in _SIGNATURES:
        if head[:len(magic)] == magic:
            return kind
    if _BZIP2.match(bytes(head[:10])):
        return "bzip2"
    fmt = formats.sniff(bytes(head[:4096]))
    if fmt == "msg":
        return "msg" if hint or any(head.find(s) >= 0 for s in _OUTLOOK_STREAMS) else None
    if fmt in ("tnef", "mbox"):
        return fmt
    if fmt == "rfc822" and (hint or begins_header(head, pos=3 if head[:3] == b"\xef\xbb\xbf" else 0, end=HEAD_BYTES)):
        return "eml"
    return None


def maildir_flags(name: str) -> str | None:
    """The flags of a Maildir file name (``"1234.host:2,RS"`` gives ``"RS"``), or ``None``
    when the name has no ``:2,`` info (a message in ``new/``). ``!`` and ``;`` also introduce
    the info (Dovecot and mutt on systems where ``:`` cannot be in a file name)."""
    m = _MAILDIR_INFO.search(name)
    return None if m is None else m.group(1)


@dataclass(frozen=True, slots=True)
class FileTask:
    """One file of a walk, found but not yet read: picklable, so that a pool of processes can
    read the files of one walk (:func:`tasks` plans, :func:`walk_task` reads).

    :param path: the path the caller named (``-`` for standard input, which only the calling
        process can read).
    :param file: the file to open (``path`` itself, or a file inside the named folder).
    :param member: ``file`` relative to ``path``, ``/``-separated, or ``None`` when named.
    :param container: ``"maildir"`` or ``"mh"`` for a file of such a folder, else ``None``
        (recognised by content when read).
    :param folder: the Maildir++ folder, else ``None``. ``flags``: the Maildir flags.
    """

    path: str
    file: str
    member: str | None = None
    container: str | None = None
    folder: str | None = None
    flags: str | None = None


@dataclass(frozen=True, slots=True)
class _Place:
    """Where bytes being read come from (the fields of the sources they give)."""

    path: str
    member: str | None = None
    archive: str | None = None
    folder: str | None = None
    flags: str | None = None
    compression: str | None = None
    container: str | None = None  # maildir / mh / stdin: given by the folder, not the content
    named: bool = False
    name: str = ""  # the file's own name, for the suffix hint
    depth: int = 0  # archives and compressed layers around these bytes

    def skipped(self, reason: str, detail: str, offset: int | None = None,
                container: str | None = None, folder: str | None = None) -> Skipped:
        return Skipped(self.path, reason, detail, self.member, self.archive, folder or self.folder,
                       offset, container or self.container)

    def source(self, container: str, index: int = 0, offset: int | None = None,
               length: int | None = None, folder: str | None = None) -> Source:
        return Source(self.path, self.container or container, self.member, index, offset, length,
                      folder if folder is not None else self.folder, self.flags, self.compression,
                      self.archive)


MAX_LAYERS = 2
"""Compression and archive layers opened around one file (``box.mbox.gz`` inside a zip is two);
deeper layers are a ``limit`` skip."""


def walk(paths: Iterable[str | os.PathLike[str]], *, repair: bool = False, read: bool = True) -> Iterator[Item]:
    """Yield every message (:class:`Found`) and every skipped path (:class:`Skipped`) under
    ``paths``, in order (module docstring).

    :param paths: files, folders, or ``"-"`` for standard input (read once; any non-seekable
        input works, FIFOs included). Paths are walked in the order given.
    :param repair: passed to the reader (mojibake repair, :func:`onemail.read`).
    :param read: ``False`` yields :class:`Found` items whose ``message`` is ``None``: the
        sources only (counting messages, planning shards), at the cost of finding them.
    :raises TypeError: ``paths`` is a single path, or holds something that is no path.

    Never raises ``OSError``: an unreadable path is a :class:`Skipped` with reason
    ``unreadable``. Equivalent to :func:`walk_task` over :func:`tasks`.
    """
    for task in tasks(paths):
        if isinstance(task, Skipped):
            yield task
        else:
            yield from walk_task(task, repair=repair, read=read)


def tasks(paths: Iterable[str | os.PathLike[str]]) -> Iterator[FileTask | Skipped]:
    """Yield the files of a walk in walk order (:class:`FileTask`, to read with
    :func:`walk_task`, perhaps in other processes) and the paths that cannot be walked
    (:class:`Skipped`). Folders are listed here; no file is opened.

    :param paths: as for :func:`walk`. :raises TypeError: as for :func:`walk`.
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
            yield FileTask("-", "-")
            continue
        try:
            st = os.stat(p)
        except OSError as exc:
            yield Skipped(p, "unreadable", stat_problem(p, exc))
            continue
        if stat.S_ISDIR(st.st_mode):
            yield from _folder_tasks(p, st)
        elif stat.S_ISREG(st.st_mode) or stat.S_ISFIFO(st.st_mode):
            yield FileTask(p, p)
        else:
            yield Skipped(p, "not-regular", not_regular(st.st_mode))


def walk_task(task: FileTask, *, repair: bool = False, read: bool = True) -> Iterator[Item]:
    """Yield the messages of one file planned by :func:`tasks` (the per-file step of a walk).

    :param task: the file. ``repair``, ``read``: as for :func:`walk`.
    """
    place = _task_place(task)
    ctx = ReadContext(repair, 0, read_bytes)
    if task.file == "-":
        try:
            stream = sys.stdin.buffer
        except AttributeError:  # a replaced sys.stdin without a buffer (tests, embedding)
            stream = sys.stdin
        yield from _stream(stream, place, ctx, read)
        return
    try:
        f = open(task.file, "rb")  # noqa: SIM115 - closed below
    except OSError as exc:
        yield place.skipped("unreadable", stat_problem(task.file, exc))
        return
    with f:
        try:
            st = os.fstat(f.fileno())
        except OSError as exc:
            yield place.skipped("unreadable", _os_text(exc))
            return
        if stat.S_ISFIFO(st.st_mode):
            yield from _stream(f, place, ctx, read)
            return
        if not stat.S_ISREG(st.st_mode):
            yield place.skipped("not-regular", not_regular(st.st_mode))
            return
        if st.st_size >= formats.MMAP_BYTES:
            try:
                mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
            except (OSError, ValueError) as exc:
                yield place.skipped("unreadable", str(exc))
                return
            with mm:
                yield from _data(mm, place, ctx, read)
            return
        try:
            data = f.read()
        except OSError as exc:
            yield place.skipped("unreadable", _os_text(exc))
            return
    yield from _data(data, place, ctx, read)


def _task_place(task: FileTask) -> _Place:
    """The place of a planned file's bytes (what :func:`walk_task` reads them as)."""
    return _Place(task.path, task.member, folder=task.folder, flags=task.flags,
                  container=task.container or ("stdin" if task.path == "-" else None),
                  named=task.member is None, name=os.path.basename(task.file))


@dataclass(frozen=True, slots=True)
class ZipLayout:
    """A zip archive's walk as its central directory plans it (:func:`zip_layout`), for cutting
    the archive into ranges of steps (:mod:`onemail.message.shards`): :attr:`ZipArchive.layout`.

    :param fingerprint: a digest of the archive's size and of every central directory entry
        (name, flags, method, CRC, sizes, offset): equal when the archive still says the same.
    :param members: per step of the walk (in walk order), the member it is about
        (``/``-separated, inside the archive), ``None`` for the archive itself.
    :param sizes: per step, the bytes of output it reads (a member's declared size; 0 for a
        step that reads nothing: a skip, an encrypted member, a bound met).
    """

    fingerprint: str
    members: tuple[str | None, ...]
    sizes: tuple[int, ...]


class ZipArchive:
    """A zip archive open for its walk (:func:`open_zip`): its central directory read once,
    its :class:`ZipLayout` planned, any range of its steps walked (:meth:`items`). A context
    manager; closing it leaves the file open."""

    def __init__(self, zf: zipfile.ZipFile, size: int) -> None:
        self._zf = zf
        self._steps = _zip_steps(zf, size)
        digest = hashlib.blake2b(str(size).encode(), digest_size=16)
        for i in zf.infolist():
            digest.update(repr((i.filename, i.flag_bits, i.compress_type, i.CRC, i.compress_size,
                                i.file_size, i.header_offset)).encode("utf-8", "surrogatepass"))
        self.layout = ZipLayout(
            digest.hexdigest(),
            tuple(None if s.action == "members" else s.task.member for s in self._steps),
            tuple(s.size for s in self._steps))

    def __enter__(self) -> ZipArchive:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the archive (not the file)."""
        self._zf.close()

    def items(self, task: FileTask, *, first: int = 0, stop: int | None = None,
              repair: bool = False, read: bool = True) -> Iterator[Item]:
        """Yield the items of the steps ``first`` to ``stop`` (excluded; ``None``: to the last)
        of the walk of this archive, the file ``task`` planned: exactly the items
        :func:`walk_task` gives for those steps (M45), the output budget spent as the steps
        before ``first`` spend it. ``repair``, ``read``: as for :func:`walk`. Never raises on
        what the archive holds (a member that cannot be read is a ``damaged`` skip)."""
        place = _task_place(task)
        ctx = ReadContext(repair, 0, read_bytes)
        yield from _zip_walk(self._zf, self._steps[first:stop], place, ctx, read)


def open_zip(f: BinaryIO) -> ZipArchive | None:
    """Read the central directory of the zip archive in ``f`` (a seekable binary file, read from
    its start; nothing is decompressed) into a :class:`ZipArchive`.

    :returns: ``None`` when ``f`` holds no readable zip archive or one without any file (the
        walk of it is then one ``damaged`` or ``empty`` skip). Never raises ``OSError``.
    """
    try:
        f.seek(0, os.SEEK_END)
        size = f.tell()
        f.seek(0)
        archive = ZipArchive(zipfile.ZipFile(f), size)
    except _ZIP_ERRORS:
        return None
    if not archive.layout.sizes:
        archive.close()
        return None
    return archive


def walk_pst_part(task: FileTask, store: Any, part: Any, *, repair: bool = False,
                  read: bool = True) -> Iterator[Item]:
    """Yield what :func:`walk_task` gives for one range of a PST/OST folder's items
    (:meth:`onemail.message.pst.PstStore.items`): the store ``task`` planned, open as
    ``store`` (:func:`onemail.message.pst.open_store`), and a
    :class:`~onemail.message.pst.PstPart` ``part``.

    :raises onemail.message.pst.PstChanged: as :meth:`~onemail.message.pst.PstStore.items`.
    """
    yield from store.items(part, _task_place(task), ReadContext(repair, 0, read_bytes), read=read)


def walk_file(path: str | os.PathLike[str], *, root: str | os.PathLike[str] | None = None,
              member: str | None = None, repair: bool = False, read: bool = True) -> Iterator[Item]:
    """Yield the messages of one file (regular or FIFO; ``"-"`` for standard input).

    :param path: the file.
    :param root: the folder the caller named, when ``path`` was found inside it: the sources
        then say ``path=root, member=...`` and the file is read as the walk of ``root`` reads
        it (a Maildir's file with its folder and flags, an MH message: :func:`task_for`).
        ``None``: ``path`` was named itself.
    :param member: ``path`` relative to ``root`` (``/``-separated; default: computed).
    :param repair: as for :func:`walk`. ``read``: as for :func:`walk`.

    A named file that is not recognised is still read, as :func:`onemail.read` would: its
    message has :attr:`Message.error` set ("not a message").
    """
    p = os.fsdecode(os.fspath(path))
    if root is None:
        task = FileTask(p, p)
    else:
        top = os.fsdecode(os.fspath(root))
        rel = member if member is not None else os.path.relpath(p, top).replace(os.sep, "/")
        task = task_for(top, rel)
    yield from walk_task(task, repair=repair, read=read)


def task_for(root: str, member: str) -> FileTask:
    """The :class:`FileTask` the walk of the folder ``root`` plans for its file ``member``
    (``/``-separated): the same container, folder and flags (a file of a Maildir's ``cur/`` or
    ``new/``, of a Maildir++ folder, a numbered file of an MH folder), found by listing the
    file's parent folders as the walk does. For a worker that is handed files one by one."""
    tree = _FsTree(root, os.stat(root)) if os.path.isdir(root) else None
    names = member.split("/")
    file = os.path.join(root, *names)
    if tree is None:
        return FileTask(root, file, member)

    def dirs_files(rel: str) -> tuple[set[str], list[str]]:
        tree.seen.clear()
        entries = tree.listdir(rel)
        if isinstance(entries, str):
            return set(), []
        return ({n for n, k, _ in entries if k == "dir"}, [n for n, k, _ in entries if k == "file"])

    parent = "/".join(names[:-1])
    if len(names) >= 2 and names[-2] in ("cur", "new"):
        maildir = "/".join(names[:-2])
        if {"cur", "new"} <= dirs_files(maildir)[0]:
            folder = None
            box = names[-3] if len(names) >= 3 else ""
            above = "/".join(names[:-3])
            if box.startswith(".") and len(box) > 1 and {"cur", "new"} <= dirs_files(above)[0]:
                folder = box[1:].replace(".", "/")
            return FileTask(root, file, member, "maildir", folder, maildir_flags(names[-1]))
    sub_dirs, files = dirs_files(parent)
    plain = [n for n in files if not n.startswith(".")]
    mh = (not {"cur", "new"} <= sub_dirs and names[-1].isdigit()
          and (".mh_sequences" in files or (bool(plain) and all(n.isdigit() for n in plain))))
    return FileTask(root, file, member, "mh" if mh else None)


def walk_data(data: bytes | bytearray | memoryview, *, path: str = "-", member: str | None = None,
              repair: bool = False, read: bool = True) -> Iterator[Item]:
    """Yield the messages held in ``data`` (the bytes of one file: standard input, a download),
    recognised by content as a named file is (:func:`recognise` with ``hint=True``).

    :param path: the name to record in each :class:`Source` (``"-"``: standard input, then
        ``container`` is ``"stdin"`` for a single message).
    :param member: the member name to record, else ``None``.
    :raises TypeError: ``data`` is not bytes-like.
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"data must be bytes, not {type(data).__name__}")
    place = _Place(path, member, container="stdin" if path == "-" and member is None else None,
                   named=True, name=os.path.basename(member or path))
    yield from _data(bytes(data), place, ReadContext(repair, 0, read_bytes), read)


# ---------------------------------------------------------------------------------------------
# one file's bytes


def _data(data: bytes | mmap.mmap, place: _Place, ctx: ReadContext, read: bool) -> Iterator[Item]:
    """The messages of one file's bytes."""
    if not data:
        yield place.skipped("empty", "an empty file")
        return
    hint = place.named or place.name.lower().endswith(MAIL_SUFFIXES)
    kind = recognise(data, hint=hint)
    if kind in COMPRESSIONS:
        yield from _compressed(data, kind, place, ctx, read)
        return
    if kind == "zip":
        yield from _zip(data, place, ctx, read)
        return
    if kind == "pst":
        from .pst import walk_pst

        empty = True
        for item in walk_pst(data, place, ctx, read=read):
            empty = False
            yield item
        if empty:
            yield place.skipped("empty", "a PST/OST store without any item", container="pst")
        return
    if kind == "mbox":
        first = max(0, mbox_start(data))
        container = "mbox" if place.container == "stdin" else place.container or "mbox"
        place = replace(place, container=container)
        count = 0
        for count, span in enumerate(spans(data, start=first), 1):
            yield Found(place.source("mbox", count - 1, span.start, span.end - span.start),
                        read_span(data, span, ctx) if read else None)
        if not count:
            yield place.skipped("empty", "an mbox without a message (a From line and nothing after it)",
                                container=container)
        return
    if kind is None and not hint:
        yield place.skipped("not-mail", "no message, mbox, Outlook .msg, TNEF, PST, compressed or "
                            "zip signature, and no mail header field")
        return
    fmt = {"eml": "rfc822", "msg": "msg", "tnef": "tnef"}.get(kind or "")
    yield Found(place.source(kind or "eml", 0, 0, len(data)),
                read_bytes(bytes(data), fmt, ctx) if read else None)


# ---------------------------------------------------------------------------------------------
# standard input, FIFOs, decompressed output: to memory, or past SPILL_BYTES to a mapped file


class _Sink:
    """Collects bytes in memory, moving them to an anonymous temporary file past
    :data:`SPILL_BYTES`; :meth:`view` gives ``bytes`` or a read-only ``mmap``."""

    def __init__(self) -> None:
        self.buf: bytearray | None = bytearray()
        self.file: io.BufferedRandom | None = None
        self.size = 0

    def write(self, chunk: bytes) -> None:
        self.size += len(chunk)
        if self.buf is not None:
            self.buf += chunk
            if len(self.buf) > SPILL_BYTES:
                self.file = tempfile.TemporaryFile()  # noqa: SIM115 - closed by close()
                self.file.write(self.buf)
                self.buf = None
        else:
            assert self.file is not None
            self.file.write(chunk)

    def view(self, stack: contextlib.ExitStack) -> bytes | mmap.mmap:
        if self.buf is not None:
            return bytes(self.buf)
        assert self.file is not None
        self.file.flush()
        mm = mmap.mmap(self.file.fileno(), 0, access=mmap.ACCESS_READ)
        stack.callback(mm.close)
        return mm

    def close(self) -> None:
        if self.file is not None:
            self.file.close()


def _stream(stream: Any, place: _Place, ctx: ReadContext, read: bool) -> Iterator[Item]:
    """Read a non-seekable input once (standard input, a FIFO), then its bytes."""
    sink = _Sink()
    with contextlib.ExitStack() as stack:
        stack.callback(sink.close)
        try:
            while True:
                chunk = stream.read(1 << 20)
                if not chunk:
                    break
                if not isinstance(chunk, (bytes, bytearray)):
                    raise TypeError("standard input must be binary")
                sink.write(bytes(chunk))
        except OSError as exc:
            yield place.skipped("unreadable", _os_text(exc))
            return
        yield from _data(sink.view(stack), place, ctx, read)


# ---------------------------------------------------------------------------------------------
# gzip, bzip2, xz


_NAMES = {"gzip": "gzip", "bzip2": "bzip2", "xz": "xz"}
_CHUNK = 1 << 20


def _decompressor(kind: str) -> Any:
    if kind == "gzip":
        return zlib.decompressobj(16 + zlib.MAX_WBITS)
    if kind == "bzip2":
        return bz2.BZ2Decompressor()
    return lzma.LZMADecompressor()


def _limit(compressed: int) -> int:
    """Output allowed for ``compressed`` input bytes (:data:`MAX_RATIO` beyond the floor)."""
    return min(MAX_DECOMPRESSED_BYTES, max(RATIO_FLOOR_BYTES, MAX_RATIO * compressed))


def _decompress(data: bytes | mmap.mmap, kind: str, sink: _Sink, limit: int) -> tuple[str, str, int] | None:
    """Decompress every stream of ``data`` (gzip members, bzip2 and xz streams may follow one
    another) into ``sink``, at most ``limit`` bytes. Returns ``None``, or ``(reason, detail,
    offset)`` when the data is damaged or the limit was met (``offset``: into the output)."""
    pos, n = 0, len(data)
    while pos < n:
        d = _decompressor(kind)
        try:
            while True:
                if kind == "gzip":
                    tail = d.unconsumed_tail
                    if tail:
                        out = d.decompress(tail, _CHUNK)
                    else:
                        chunk = data[pos:pos + _CHUNK]
                        pos += len(chunk)
                        out = d.decompress(chunk, _CHUNK)
                    done = d.eof
                else:
                    if d.needs_input:
                        chunk = data[pos:pos + _CHUNK]
                        pos += len(chunk)
                    else:
                        chunk = b""
                    out = d.decompress(chunk, _CHUNK)
                    done = d.eof
                if sink.size + len(out) > limit:
                    sink.write(out[:limit - sink.size])
                    return ("limit", f"decompressed output over {limit} bytes (MAX_RATIO {MAX_RATIO}:1 "
                            f"beyond {RATIO_FLOOR_BYTES} bytes, at most {MAX_DECOMPRESSED_BYTES}): "
                            "the rest not read", sink.size)
                sink.write(out)
                if done:
                    rest = d.unused_data
                    pos -= len(rest)
                    break
                if pos >= n and not out and (kind == "gzip" and not d.unconsumed_tail or
                                             kind != "gzip" and d.needs_input):
                    return ("damaged", f"{_NAMES[kind]} stream truncated", sink.size)
        except (zlib.error, OSError, EOFError, lzma.LZMAError, ValueError) as exc:
            return ("damaged", f"{_NAMES[kind]} stream damaged ({exc})", sink.size)
        # a further stream follows, or padding: NUL bytes after a gzip member are padding
        if kind == "gzip" and not bytes(data[pos:pos + 2]) == b"\x1f\x8b":
            if bytes(data[pos:]).strip(b"\x00"):
                return ("damaged", f"{n - pos} bytes after the last gzip member", sink.size)
            break
    return None


def _compressed(data: bytes | mmap.mmap, kind: str, place: _Place, ctx: ReadContext,
                read: bool) -> Iterator[Item]:
    if place.depth >= MAX_LAYERS:
        yield place.skipped("limit", f"{kind} data inside {MAX_LAYERS} layers of archives or "
                            "compression: not opened")
        return
    inner_name = place.name
    for suffix in (".gz", ".bz2", ".xz", ".tgz"):
        if inner_name.lower().endswith(suffix):
            inner_name = inner_name[:-len(suffix)]
    inner = replace(place, compression=kind, depth=place.depth + 1, name=inner_name)
    sink = _Sink()
    with contextlib.ExitStack() as stack:
        stack.callback(sink.close)
        problem = _decompress(data, kind, sink, _limit(len(data)))
        if sink.size and problem is None:
            yield from _data(sink.view(stack), inner, ctx, read)
        elif sink.size:  # the last message ends where the output stopped: it says so
            last: Item | None = None
            for item in _data(sink.view(stack), inner, ctx, read):
                if last is not None:
                    yield last
                last = item
            if last is not None:
                yield _cut(last, sink.size)
        elif problem is None:
            yield inner.skipped("empty", f"an empty {kind} stream")
    if problem is not None:
        reason, detail, offset = problem
        yield inner.skipped(reason, detail, offset)


def _cut(item: Item, end: int) -> Item:
    """``item`` with a ``TruncatedContainer`` issue on its message when it is a message that
    reaches ``end``, the byte where decompressed output stopped (the issue's offset: into the
    message's bytes, length 0)."""
    if not isinstance(item, Found) or item.message is None:
        return item
    from .issues import MessageIssueKind
    from .model import MessageIssue

    at = max(0, end - (item.source.offset or 0))
    issue = MessageIssue(MessageIssueKind.TRUNCATED_CONTAINER, "container", at, 0)
    return replace(item, message=replace(item.message, issues=(*item.message.issues, issue)))


# ---------------------------------------------------------------------------------------------
# zip


def _zip(data: bytes | mmap.mmap, place: _Place, ctx: ReadContext, read: bool) -> Iterator[Item]:
    if place.archive is not None or place.depth >= MAX_LAYERS:
        yield place.skipped("limit", "a zip inside an archive or compressed file: not opened")
        return
    try:
        zf = zipfile.ZipFile(io.BytesIO(data) if isinstance(data, bytes) else _MapFile(data))
    except _ZIP_ERRORS as exc:
        yield place.skipped("damaged", f"not a readable zip archive ({exc})")
        return
    with zf:
        steps = _zip_steps(zf, len(data))
        if not steps:
            yield place.skipped("empty", "a zip archive without any file")
            return
        yield from _zip_walk(zf, steps, place, ctx, read)


class _MapFile(io.RawIOBase):
    """A read-only, seekable binary file over an ``mmap`` (``zipfile`` asks its file for
    ``seekable()``, which an ``mmap`` has only from Python 3.13), without copying it."""

    def __init__(self, mm: mmap.mmap) -> None:
        super().__init__()
        self._mm = mm
        self._pos = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._pos

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        base = {os.SEEK_SET: 0, os.SEEK_CUR: self._pos, os.SEEK_END: len(self._mm)}[whence]
        if base + offset < 0:
            raise ValueError("negative seek position")
        self._pos = base + offset
        return self._pos

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        chunk = self._mm[self._pos:self._pos + len(view)]
        view[:len(chunk)] = chunk
        self._pos += len(chunk)
        return len(chunk)


_ZIP_ERRORS = (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError)


@dataclass(frozen=True, slots=True)
class _ZipStep:
    """One step of a zip's walk, decided from its central directory alone (M45): ``action``
    ``"skip"`` (``task`` is the tree's :class:`Skipped`), ``"read"`` (a member read with at most
    ``limit`` bytes of output; ``size``, its declared size, is charged to the archive's budget),
    ``"encrypted"``, ``"over"`` (the member declares more than ``limit``), ``"members"`` (past
    :data:`MAX_ZIP_MEMBERS`: the last step) or ``"budget"`` (the budget is spent: the last step)."""

    task: FileTask | Skipped
    action: str
    info: zipfile.ZipInfo | None = None
    limit: int = 0
    size: int = 0
    rest: int = 0  # "members": the members not read


def _zip_steps(zf: zipfile.ZipFile, archive_bytes: int) -> list[_ZipStep]:
    """The steps of the walk of ``zf`` (an archive of ``archive_bytes`` bytes), in walk order.

    A pure function of the central directory (names, flags, sizes), so that a shard of the
    archive's members knows the output budget left at its first step without decompressing
    anything before it (M45): each member read is charged the size the central directory
    declares for it (``zipfile`` stops a member's output at that size, so it bounds what the
    member gives); a member that declares more than it may give is not read, and when it is
    the archive's budget it exceeds, the budget is spent (the next member ends the walk)."""
    infos = [i for i in zf.infolist() if not i.is_dir()]
    infos.sort(key=lambda i: [name_key(n) for n in _zip_name(i).split("/")])
    tree = _ZipTree(zf, {_zip_name(i): i for i in infos})
    budget = _limit(archive_bytes)
    count = 0
    steps: list[_ZipStep] = []
    for task in _tree_tasks(tree, ""):
        if isinstance(task, Skipped):
            steps.append(_ZipStep(task, "skip"))
            continue
        count += 1
        if count > MAX_ZIP_MEMBERS:
            steps.append(_ZipStep(task, "members", rest=len(infos) - MAX_ZIP_MEMBERS))
            break
        if budget <= 0:
            steps.append(_ZipStep(task, "budget", limit=_limit(archive_bytes)))
            break
        info = tree.infos[task.file]
        if info.flag_bits & 0x1:
            steps.append(_ZipStep(task, "encrypted", info))
            continue
        limit = min(budget, _limit(info.compress_size))
        if info.file_size > limit:
            steps.append(_ZipStep(task, "over", info, limit))
            if limit == budget:  # the archive declares more than its budget: spent
                budget = 0
            continue
        budget -= info.file_size
        steps.append(_ZipStep(task, "read", info, limit, info.file_size))
    return steps


def _zip_walk(zf: zipfile.ZipFile, steps: list[_ZipStep], place: _Place, ctx: ReadContext,
              read: bool) -> Iterator[Item]:
    """The items of ``steps`` of the zip ``zf``, read from the file at ``place``."""
    archive = place.member or ""
    base = replace(place, archive=archive, depth=place.depth + 1, named=False)
    for step in steps:
        task = step.task
        if isinstance(task, Skipped):
            yield replace(task, path=place.path, archive=archive)
        elif step.action == "members":
            yield base.skipped("limit", f"more than {MAX_ZIP_MEMBERS} members: {step.rest} not read")
        elif step.action == "budget":
            yield replace(base, member=task.member).skipped(
                "limit", f"the archive's members declare more than {step.limit} bytes "
                "(a zip bomb?): the rest not read")
        else:
            member_place = replace(base, member=task.member, container=task.container,
                                   folder=task.folder, flags=task.flags,
                                   name=task.file.rsplit("/", 1)[-1])
            yield from _zip_member(zf, step, member_place, ctx, read)


def _zip_name(info: zipfile.ZipInfo) -> str:
    """A member's name as a ``/``-separated path inside the archive (backslashes of DOS tools
    read as separators, empty and ``.`` segments dropped). Never used as a file system path."""
    parts = [p for p in info.filename.replace("\\", "/").split("/") if p not in ("", ".")]
    return "/".join(parts) or "(unnamed)"


def _zip_member(zf: zipfile.ZipFile, step: _ZipStep, place: _Place, ctx: ReadContext,
                read: bool) -> Iterator[Item]:
    info = step.info
    assert info is not None
    if step.action == "encrypted":
        yield place.skipped("encrypted", "an encrypted zip member (no password is tried)")
        return
    limit = step.limit
    if step.action == "over":
        yield place.skipped("limit", f"the member declares {info.file_size} bytes, more than {limit} "
                            f"from {info.compress_size} (MAX_RATIO {MAX_RATIO}:1 beyond "
                            f"{RATIO_FLOOR_BYTES} bytes, or the archive's budget left): not read")
        return
    sink = _Sink()
    with contextlib.ExitStack() as stack:
        stack.callback(sink.close)
        try:
            with zf.open(info) as f:
                while True:
                    chunk = f.read(_CHUNK)
                    if not chunk:
                        break
                    if sink.size + len(chunk) > limit:  # zipfile stops at the declared size: a guard
                        yield place.skipped("limit", f"the member gives more than {limit} bytes: "
                                            "not read", sink.size)
                        return
                    sink.write(chunk)
        except (zipfile.BadZipFile, zlib.error, lzma.LZMAError, OSError, EOFError, ValueError,
                NotImplementedError, RuntimeError) as exc:
            yield place.skipped("damaged", f"the zip member cannot be read ({type(exc).__name__}: {exc})")
            return
        yield from _data(sink.view(stack), place, ctx, read)


# ---------------------------------------------------------------------------------------------
# folders: plain, Maildir, Maildir++, MH (on the file system and inside a zip)


class _Tree:
    """A tree of folders and files: the file system below a named folder, or a zip's members."""

    def listdir(self, rel: str) -> list[tuple[str, str, str]] | str:
        """``[(name, kind, detail)]`` of the folder ``rel`` (``""``: the top), in
        :func:`name_key` order; ``kind`` is ``dir``, ``file``, ``not-regular`` or
        ``unreadable``. A folder that cannot be listed gives its error text instead."""
        raise NotImplementedError

    def file(self, rel: str) -> str:
        """What :attr:`FileTask.file` holds for the file ``rel``."""
        raise NotImplementedError


class _FsTree(_Tree):
    def __init__(self, top: str, st: os.stat_result) -> None:
        self.top = top
        self.seen = {(st.st_dev, st.st_ino)}

    def file(self, rel: str) -> str:
        return os.path.join(self.top, *rel.split("/"))

    def listdir(self, rel: str) -> list[tuple[str, str, str]] | str:
        folder = self.file(rel) if rel else self.top
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: name_key(e.name))
        except OSError as exc:
            return _os_text(exc)
        out = []
        for entry in entries:
            try:
                est = entry.stat()  # follows a symbolic link
            except OSError as exc:
                out.append((entry.name, "unreadable", stat_problem(entry.path, exc)))
                continue
            if stat.S_ISDIR(est.st_mode):
                key = (est.st_dev, est.st_ino)
                if key in self.seen:
                    continue  # walked already (a link loop or a second link): not twice
                self.seen.add(key)
                out.append((entry.name, "dir", ""))
            elif stat.S_ISREG(est.st_mode):
                out.append((entry.name, "file", ""))
            else:
                out.append((entry.name, "not-regular", not_regular(est.st_mode)))
        return out


class _ZipTree(_Tree):
    def __init__(self, zf: zipfile.ZipFile, infos: dict[str, zipfile.ZipInfo]) -> None:
        self.infos = infos
        self.children: dict[str, dict[str, str]] = {"": {}}
        for name in infos:
            parts = name.split("/")
            for i in range(len(parts)):
                parent = "/".join(parts[:i])
                kind = "file" if i == len(parts) - 1 else "dir"
                self.children.setdefault(parent, {}).setdefault(parts[i], kind)
                if kind == "dir":
                    self.children.setdefault("/".join(parts[:i + 1]), {})

    def file(self, rel: str) -> str:
        return rel

    def listdir(self, rel: str) -> list[tuple[str, str, str]] | str:
        kids = self.children.get(rel, {})
        return [(n, kids[n], "") for n in sorted(kids, key=name_key)]


def _folder_tasks(top: str, st: os.stat_result) -> Iterator[FileTask | Skipped]:
    for task in _tree_tasks(_FsTree(top, st), ""):
        yield replace(task, path=top)


def _tree_tasks(tree: _Tree, rel: str, folder: str | None = None,
                listing: list[tuple[str, str, str]] | str | None = None) -> Iterator[FileTask | Skipped]:
    """The files below ``rel`` of ``tree`` in walk order, Maildir and MH folders recognised.
    The tasks' ``path`` is left empty (the caller sets it)."""
    entries = tree.listdir(rel) if listing is None else listing
    if isinstance(entries, str):
        yield Skipped("", "unreadable", entries, member=rel or None)
        return
    dirs = {n for n, k, _ in entries if k == "dir"}
    files = [n for n, k, _ in entries if k == "file"]
    maildir = "cur" in dirs and "new" in dirs
    plain = [n for n in files if not n.startswith(".")]
    mh = not maildir and (".mh_sequences" in files or (bool(plain) and all(n.isdigit() for n in plain)))
    for name, kind, detail in entries:
        child = f"{rel}/{name}" if rel else name
        if kind == "dir":
            if maildir and name in ("cur", "new", "tmp"):
                yield from _maildir_files(tree, child, name, folder)
            elif maildir and name.startswith(".") and len(name) > 1:
                sub = tree.listdir(child)
                sub_dirs = set() if isinstance(sub, str) else {n for n, k, _ in sub if k == "dir"}
                sub_folder = name[1:].replace(".", "/") if {"cur", "new"} <= sub_dirs else None
                yield from _tree_tasks(tree, child, sub_folder, sub)
            else:
                yield from _tree_tasks(tree, child, None)
        elif kind == "file":
            container = "mh" if mh and name.isdigit() else None
            yield FileTask("", tree.file(child), child, container)
        else:
            yield Skipped("", kind, detail, member=child)


def _maildir_files(tree: _Tree, rel: str, sub: str, folder: str | None) -> Iterator[FileTask | Skipped]:
    entries = tree.listdir(rel)
    if isinstance(entries, str):
        yield Skipped("", "unreadable", entries, member=rel, folder=folder, container="maildir")
        return
    for name, kind, detail in entries:
        child = f"{rel}/{name}"
        if kind == "dir":
            yield from _tree_tasks(tree, child, None)
        elif kind != "file":
            yield Skipped("", kind, detail, member=child, folder=folder, container="maildir")
        elif sub == "tmp":
            yield Skipped("", "incomplete", "a Maildir tmp/ file: a message still being delivered",
                          member=child, folder=folder, container="maildir")
        else:
            yield FileTask("", tree.file(child), child, "maildir", folder, maildir_flags(name))


def _os_text(exc: OSError) -> str:
    return exc.strerror or str(exc) or errno.errorcode.get(exc.errno or 0, "error")

