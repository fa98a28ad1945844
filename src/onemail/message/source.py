"""Where a message came from: :class:`Source`, the place of one message inside what was read.

A mail archive is a container (an mbox, a Maildir, a PST, a zip of .eml files, ...); a message
is found at a place inside it. :class:`Found` (a message and its place) and :class:`Skipped` (a
place that gave no message, and why) are the items of
:func:`onemail.message.containers.walk`, defined here so that every container reader can make
them. :class:`Source` names that place so that a record can say where
its message came from and a reader can find it again:

* ``path`` -- the file or folder named by the user, as given (``-`` for standard input);
* ``container`` -- what kind of container the message was found in (:data:`CONTAINERS`);
* ``member`` -- the file inside a folder or archive holding the message, ``/``-separated (a
  Maildir file ``cur/1234.host:2,S``, an MH message ``inbox/12``, a zip member ``mail/a.eml``),
  else ``None``;
* ``archive`` -- the zip archive holding ``member``: its path inside ``path`` (``""`` when
  ``path`` itself is the zip), else ``None``;
* ``index`` -- the message's number inside its file, from 0 (an mbox's n-th message; 0 for a
  file of one message), or inside its PST folder;
* ``offset`` / ``length`` -- the byte range of the message in its (decompressed) file, when it
  has one (mbox), else ``None``;
* ``folder`` -- the folder path inside a PST/OST (``Top of Personal Folders/Inbox``), or a
  Maildir++ folder name, else ``None``;
* ``flags`` -- Maildir flags from the file name (``"RS"``), else ``None``;
* ``compression`` -- ``gzip``, ``bzip2`` or ``xz`` when the file was decompressed, else ``None``.

:meth:`Source.key` orders sources the way a sequential read meets them, so that records read in
shards sort back into that order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .model import Message

__all__ = ["CONTAINERS", "Found", "Skipped", "Source", "name_key", "place_name"]

CONTAINERS = frozenset({"eml", "mbox", "maildir", "mh", "msg", "tnef", "pst", "zip", "stdin"})
"""The kinds of container a message can be found in (``eml``: a file holding one RFC 5322
message)."""


@dataclass(frozen=True, slots=True)
class Source:
    """The place of one message (module docstring). Picklable; JSON by :meth:`to_json`."""

    path: str
    container: str
    member: str | None = None
    index: int = 0
    offset: int | None = None
    length: int | None = None
    folder: str | None = None
    flags: str | None = None
    compression: str | None = None
    archive: str | None = None

    def key(self) -> tuple[Any, ...]:
        """A sort key: sources of one named path in the order a sequential read
        (:func:`onemail.message.containers.walk`) meets them: by the ``/``-separated names of
        archive and member compared name by name with :func:`name_key` (a folder's files and
        sub-folders in one order, ``2`` before ``10``), then the PST folder path the same way,
        the index and the offset. Sources of different named paths sort by path (a walk takes
        paths in the order given)."""
        names = tuple(name_key(n) for n in _names(self.archive) + _names(self.member))
        folder = tuple(name_key(n) for n in _names(self.folder))
        return (self.path, names, folder, self.index, self.offset or 0)

    @property
    def where(self) -> str:
        """A human name of the place (:func:`place_name`), ``#n`` (from 1) added for a message
        of an mbox or a PST folder; not escaped (escape it before printing on a terminal)."""
        out = place_name(self.path, member=self.member, archive=self.archive, folder=self.folder)
        return out + f" #{self.index + 1}" if self.container in ("mbox", "pst") else out

    def to_json(self) -> dict[str, object]:
        """Return the fields as a JSON object (``None`` fields left out, ``path`` and
        ``container`` always present)."""
        out: dict[str, object] = {"path": self.path, "container": self.container}
        for name in ("member", "archive", "index", "offset", "length", "folder", "flags", "compression"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        return out


def _names(path: str | None) -> list[str]:
    return [] if not path else path.split("/")


_DIGITS = re.compile(r"([0-9]+)")


def name_key(name: str) -> tuple[Any, ...]:
    """The sort key of one file or folder name: runs of ASCII digits compare as numbers
    (``2`` before ``10``: MH messages, numbered files), the rest as text, the name itself last
    (``01`` and ``1`` stay distinct). The order of every walk of
    :mod:`onemail.message.containers` and of :meth:`Source.key`."""
    pieces = _DIGITS.split(name)
    return (tuple(int(p) if i % 2 else p for i, p in enumerate(pieces)), name)


def place_name(path: str, *, member: str | None = None, archive: str | None = None,
               folder: str | None = None) -> str:
    """A human name of a place: ``path``, then ``/member`` inside a folder, or ``/archive!member``
    inside a zip (``path!member`` when ``path`` is the zip), then ``:folder`` (a PST or
    Maildir++ folder). Not escaped. A folder named with a trailing ``/`` (``examples/``, as a
    shell completes it) gives ``examples/NOTICE``, never ``examples//NOTICE``."""
    out = path
    if archive or (member and archive is None):  # a "/" follows: one, not two ("/" + "x" is "/x")
        out = path.rstrip("/")
    if archive:
        out += "/" + archive
    if member:
        out += ("!" if archive is not None else "/") + member
    if folder:
        out += ":" + folder
    return out


@dataclass(frozen=True, slots=True)
class Found:
    """A message found by :func:`onemail.message.containers.walk`.

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
    :param reason: a key of :data:`~onemail.message.containers.SKIP_REASONS`.
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
        """A human name of the place (:func:`place_name`; not escaped:
        escape it before printing on a terminal)."""
        return place_name(self.path, member=self.member, archive=self.archive, folder=self.folder)

    def to_json(self) -> dict[str, object]:
        """Return ``{"path", "reason", "detail"}`` and the other fields that are set."""
        out: dict[str, object] = {"path": self.path, "reason": self.reason, "detail": self.detail}
        for name in ("member", "archive", "folder", "offset", "container"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        return out
