"""Outlook personal folders (``.pst``) and offline folders (``.ost``), through ``onemail[pst]``.

The file's structure (the node and block B-trees, the heap, the property contexts; MS-PST) is
read by ``libpff-python`` (``pypff``, LGPL-3.0-or-later), the optional extra ``onemail[pst]``,
imported only when a PST/OST is met (:func:`onemail.message.containers.walk` recognises it by
its ``!BDN`` signature). Without it, each PST/OST is one ``needs-extra`` skip naming the extra.

Everything above the properties is onemail's: every item's raw MAPI properties (type and bytes)
go into the same :class:`~onemail.message.mapi.PropertyBag` as a ``.msg``'s, and the message is
built by :func:`onemail.message.mapi.build_message`: code pages, compressed RTF bodies,
recipients, attachments, embedded messages, issues. ``Message.format`` is ``"pst"``.

* **Folders** are walked depth first: a folder's items in the file's order, then its
  sub-folders in name order (:func:`~onemail.message.source.name_key`), so that
  :meth:`Source.key` (folder path, then index) sorts messages back into walk order. Each source
  has ``container="pst"``, ``folder`` the path of names from the top of the store
  (``Top of Personal Folders/Inbox``; the unnamed root left out), ``index`` the message's
  position among the folder's items of a message class (one that cannot be read keeps its
  number: M47).
* **Shards**: :meth:`PstStore.layout` lists the folders in walk order with each item's weight
  (PidTagMessageSize) and class, and :meth:`PstStore.items` reads a :class:`PstPart` (a range of
  one folder's items) with the walk's own item code: :mod:`onemail.message.shards` cuts a store
  into such pieces.
* **Items that are not messages** (contacts, appointments, tasks, notes, journal entries,
  distribution lists, configuration items) are skipped as ``not-message`` with their message
  class; messages are the classes in :data:`MESSAGE_CLASSES` (and items without a class).
* **The subject prefix marker**: a PST subject may start with U+0001 and one character giving
  the length of its prefix (``\\x01\\x05Re: ...``, MS-PST 2.5.3.1.1 ``PidTagSubject``); both
  are removed before the message is built.
* **Damage**: a folder or an item that ``pypff`` cannot open is a ``damaged`` skip at its
  folder (and index), and the walk goes on with the next one; a file that cannot be opened at
  all is one ``damaged`` skip.
* **Bounds**: attachment data over :data:`~onemail.message.formats.MAX_STREAM_BYTES` is not
  read (``MalformedMsg`` at the attachment, as for .msg); embedded messages nest at most
  :data:`~onemail.message.formats.MAX_DEPTH` levels.
"""

from __future__ import annotations

import io
import mmap
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from . import mapi
from .formats import MAX_STREAM_BYTES, ReadContext
from .issues import MessageIssueKind
from .model import Message, MessageIssue
from .source import Found, Skipped, name_key

__all__ = ["EXTRA_MESSAGE", "HEADER_BYTES", "ITEM_BYTES", "MESSAGE_CLASSES", "MESSAGE_SIZE", "PstChanged",
           "PstFolder", "PstPart", "PstStore", "heap_properties", "is_message_class", "open_store",
           "strip_subject_prefix", "walk_pst"]

MESSAGE_CLASSES = ("IPM.Note", "IPM.Schedule.Meeting", "IPM.Post", "IPM.Outlook.Recall",
                   "IPM.Recall", "IPM.Sharing", "REPORT")
"""Message classes (PidTagMessageClass, MS-OXCMSG 2.2.1.3) read as messages, with their
sub-classes (``IPM.Note.SMIME``, ``REPORT.IPM.Note.NDR``): mail, meeting requests and responses,
posts, recalls, sharing invitations, delivery and read reports. ``IPM.Contact``,
``IPM.Appointment``, ``IPM.Task``, ``IPM.StickyNote``, ``IPM.Activity``, ``IPM.DistList``,
``IPM.Configuration.*`` and the like are not."""

EXTRA_MESSAGE = ("reading PST/OST files needs the optional extra onemail[pst] "
                 "(pip install 'onemail[pst]': libpff-python, LGPL-3.0-or-later)")
"""The detail of the ``needs-extra`` skip of a PST/OST when ``pypff`` is not installed."""

_ATTACH_EMBEDDED = 5  # PidTagAttachMethod afEmbeddedMessage (MS-OXCMSG 2.2.2.9)


def is_message_class(value: str | None) -> bool:
    """True for a message class read as a message (:data:`MESSAGE_CLASSES`, any case; ``None``
    or empty: an item without a class is taken as a message)."""
    if not value:
        return True
    low = value.lower()
    return any(low == c.lower() or low.startswith(c.lower() + ".") for c in MESSAGE_CLASSES)


def strip_subject_prefix(ptype: int, raw: bytes) -> bytes:
    """The raw bytes of a PST ``PidTagSubject`` without its prefix marker (U+0001 and the
    prefix-length character), in UTF-16LE (``ptype`` 0x001F) or 8-bit (0x001E) form."""
    if ptype == mapi.PT_UNICODE and raw[:2] == b"\x01\x00" and len(raw) >= 4:
        return raw[4:]
    if ptype == mapi.PT_STRING8 and raw[:1] == b"\x01" and len(raw) >= 2:
        return raw[2:]
    return raw


def _pypff() -> Any:
    """The ``pypff`` module, or ``None`` when the extra is not installed."""
    try:
        import pypff
    except ImportError:
        return None
    return pypff


def walk_pst(data: bytes | mmap.mmap, place: Any, ctx: ReadContext, *, read: bool) -> Iterator[Found | Skipped]:
    """Yield the messages and skipped items of one PST/OST file's bytes (module docstring).

    :param data: the whole file (``bytes`` or a read-only ``mmap``).
    :param place: where the file is (a :mod:`onemail.message.containers` place: its
        ``source()`` and ``skipped()`` make the items).
    :param ctx: the reading context. :param read: ``False``: sources only.
    """
    store = open_store(io.BytesIO(data) if isinstance(data, bytes) else data)
    if store is None:
        yield place.skipped("needs-extra", EXTRA_MESSAGE, container="pst")
        return
    if isinstance(store, str):
        yield place.skipped("damaged", f"not a readable PST/OST file ({store})", container="pst")
        return
    with store:
        yield from _folder(store.root, (), place, ctx, read)


MESSAGE_SIZE = 0x0E08
"""PidTagMessageSize (MS-OXPROPS 2.796): an item's size in bytes, as the store counts it."""

ITEM_BYTES = 4096
"""The bytes :meth:`PstStore.layout` counts for an item without PidTagMessageSize, and for an
item that is not a message (a contact or appointment costs its classification, little more)."""

HEADER_BYTES = 564
"""Bytes of a store's header (MS-PST 2.2.2.6, the Unicode form; the ANSI one is 512): its root
structure names the B-trees' roots and the file's end, so a store that Outlook changed has
another header."""


class PstChanged(Exception):  # noqa: N818 - the name says what happened
    """A planned :class:`PstPart` no longer matches the store (:meth:`PstStore.items`): its
    folder is gone, renamed, or holds another number of items. Raised before anything of that
    part is yielded; :mod:`onemail.message.shards` turns it into one error message (M40)."""


@dataclass(frozen=True, slots=True)
class PstFolder:
    """One folder of a store's walk (:meth:`PstStore.layout`), in walk order.

    :param route: the folder's position: the sub-item index in its parent of each folder from
        the root down (``()``: the root).
    :param names: the folder names from the top (the walk's ``folder`` path, split).
    :param sizes: per sub-item (in the folder's order), the bytes it weighs: its
        PidTagMessageSize, :data:`ITEM_BYTES` without one or when it is no message, 0 for a
        sub-folder. ``None``: the folder cannot be listed (the walk gives one ``damaged`` skip).
    :param messages: per sub-item, whether the walk gives it a message index (an item of a
        message class: :func:`is_message_class`).
    """

    route: tuple[int, ...]
    names: tuple[str, ...]
    sizes: tuple[int, ...] | None
    messages: tuple[bool, ...] = ()


@dataclass(frozen=True, slots=True)
class PstPart:
    """A range of one folder's sub-items: what a shard reads of a store (:meth:`PstStore.items`).

    :param route: :attr:`PstFolder.route`. :param names: :attr:`PstFolder.names`.
    :param items: the folder's number of sub-items at planning (-1: it could not be listed).
    :param start: the first sub-item index. :param stop: the index after the last.
    :param first_message: the :attr:`~onemail.message.source.Source.index` the first message
        at or after ``start`` has (the messages before it in the folder).
    """

    route: tuple[int, ...]
    names: tuple[str, ...]
    items: int
    start: int
    stop: int
    first_message: int


class PstStore:
    """A PST/OST store open through ``pypff`` (:func:`open_store`). A context manager."""

    def __init__(self, pst: Any, root: Any, fingerprint: str) -> None:
        self._pst = pst
        self.root = root
        self.fingerprint = fingerprint
        """A digest of the file's size and header (:data:`HEADER_BYTES`)."""

    def __enter__(self) -> PstStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the store (not the file)."""
        try:
            self._pst.close()
        except Exception:  # noqa: BLE001, S110 - closing a damaged file: nothing left to report
            pass

    def layout(self) -> list[PstFolder]:
        """The store's folders in walk order, each with the weight of its sub-items, for
        cutting the store into :class:`PstPart` ranges: every item is opened and classified as
        the walk classifies it (its message class; nothing else of it is read)."""
        out: list[PstFolder] = []

        def visit(folder: Any, route: tuple[int, ...], names: tuple[str, ...]) -> None:
            try:
                count = folder.get_number_of_sub_items()
            except Exception:  # noqa: BLE001 - the walk's damaged skip
                out.append(PstFolder(route, names, None))
                return
            sizes, messages, subfolders = [], [], []
            for i in range(count):
                kind, item, name = _sub_item(folder, i)
                size, message = 0, False
                if kind == "folder":
                    subfolders.append((name, i, item))
                elif kind == "item":
                    try:
                        klass, size = _class_and_size(item)
                        message = is_message_class(klass)
                    except Exception:  # noqa: BLE001 - the walk's damaged skip, no index
                        klass, size = None, 0
                    size = size if message and size > 0 else ITEM_BYTES
                else:
                    size = ITEM_BYTES
                sizes.append(size)
                messages.append(message)
            out.append(PstFolder(route, names, tuple(sizes), tuple(messages)))
            for name, i, sub in sorted(subfolders, key=lambda s: name_key(s[0])):
                visit(sub, (*route, i), (*names, name))

        visit(self.root, (), ())
        return out

    def items(self, part: PstPart, place: Any, ctx: ReadContext, *,
              read: bool = True) -> Iterator[Found | Skipped]:
        """Yield what the walk gives for the sub-items ``part.start`` to ``part.stop`` of the
        folder ``part`` names (not its sub-folders: they are parts of their own).

        :param place: as for :func:`walk_pst`. ``ctx``, ``read``: as for :func:`walk_pst`.
        :raises PstChanged: the folder is not found where planned (a folder on its route is
            missing or named otherwise) or holds another number of sub-items; raised before
            anything of the part is yielded.
        """
        folder = self.root
        for depth, i in enumerate(part.route):
            kind, item, name = _sub_item(folder, i)
            if kind != "folder" or name != part.names[depth]:
                raise PstChanged(f"no folder {'/'.join(part.names[:depth + 1])!r} at item {i} "
                                 f"of {'/'.join(part.names[:depth]) or 'the root'!r}")
            folder = item
        path = "/".join(part.names) or None
        try:
            count = folder.get_number_of_sub_items()
        except Exception as exc:  # noqa: BLE001
            if part.items >= 0:
                raise PstChanged(f"the folder {path or 'the root'!r} cannot be listed") from exc
            yield place.skipped("damaged", f"the folder cannot be listed ({_text(exc)})", folder=path,
                                container="pst")
            return
        if count != part.items:
            raise PstChanged(f"the folder {path or 'the root'!r} holds {count} items, "
                             f"{part.items} planned")
        yield from _items(folder, path, range(part.start, part.stop), part.first_message, place,
                          ctx, read, None)


def open_store(f: Any) -> PstStore | str | None:
    """Open the PST/OST store in ``f`` (a seekable binary file object, ``mmap`` included).

    :returns: a :class:`PstStore`; the problem (text) when ``pypff`` cannot open it; ``None``
        when the extra ``onemail[pst]`` is not installed (:data:`EXTRA_MESSAGE`).
    """
    pypff = _pypff()
    if pypff is None:
        return None
    import hashlib

    try:
        f.seek(0, 2)
        size = f.tell()
        f.seek(0)
        digest = hashlib.blake2b(str(size).encode() + f.read(HEADER_BYTES), digest_size=16).hexdigest()
        f.seek(0)
    except (OSError, ValueError) as exc:
        return _text(exc)
    pst = pypff.file()
    try:
        pst.open_file_object(f)
        root = pst.get_root_folder()
    except Exception as exc:  # noqa: BLE001 - pypff raises OSError, IOError, ValueError, ...
        try:
            pst.close()
        except Exception:  # noqa: BLE001, S110 - not opened: nothing to close
            pass
        return _text(exc)
    return PstStore(pst, root, digest)


def _sub_item(folder: Any, i: int) -> tuple[str, Any, str]:
    """``(kind, item, name)`` of sub-item ``i``: kind ``"folder"`` (with its name, ``""``
    when it has none or it does not decode), ``"item"``, or ``"damaged"`` (``item`` the
    exception: it cannot be opened)."""
    try:
        item = folder.get_sub_item(i)
    except Exception as exc:  # noqa: BLE001
        return "damaged", exc, ""
    if not _is_folder(item):
        return "item", item, ""
    try:
        name = item.get_name() or ""
    except Exception:  # noqa: BLE001 - a name that does not decode: an unnamed folder
        name = ""
    return "folder", item, name


def _folder(folder: Any, names: tuple[str, ...], place: Any, ctx: ReadContext,
            read: bool) -> Iterator[Found | Skipped]:
    path = "/".join(names) or None
    try:
        count = folder.get_number_of_sub_items()
    except Exception as exc:  # noqa: BLE001
        yield place.skipped("damaged", f"the folder cannot be listed ({_text(exc)})", folder=path,
                            container="pst")
        return
    subfolders: list[tuple[str, Any]] = []
    yield from _items(folder, path, range(count), 0, place, ctx, read, subfolders)
    for name, sub in sorted(subfolders, key=lambda s: name_key(s[0])):
        yield from _folder(sub, (*names, name), place, ctx, read)


def _items(folder: Any, path: str | None, indexes: range, index: int, place: Any, ctx: ReadContext,
           read: bool, subfolders: list[tuple[str, Any]] | None) -> Iterator[Found | Skipped]:
    """The walk's items for the sub-items ``indexes`` of ``folder``, the first message taking
    ``index``; sub-folders are added to ``subfolders`` (``None``: passed over). An item of a
    message class takes an index even when it cannot be read (M47), so that the indexes are
    those the store's layout plans."""
    for i in indexes:
        kind, item, name = _sub_item(folder, i)
        if kind == "damaged":
            yield place.skipped("damaged", f"item {i} of the folder cannot be opened ({_text(item)})",
                                folder=path, container="pst")
            continue
        if kind == "folder":
            if subfolders is not None:
                subfolders.append((name, item))
            continue
        try:
            klass = _message_class(item)
        except Exception as exc:  # noqa: BLE001 - an item whose properties cannot be read
            yield place.skipped("damaged", f"item {i} of the folder cannot be read ({_text(exc)})",
                                folder=path, container="pst")
            continue
        if not is_message_class(klass):
            yield place.skipped("not-message", f"an item of class {klass}, not a message", folder=path,
                                container="pst")
            continue
        msg = None
        try:
            if read:
                msg = _message(item, ctx, [])
        except Exception as exc:  # noqa: BLE001 - an item whose properties cannot be read
            yield place.skipped("damaged", f"item {i} of the folder cannot be read ({_text(exc)})",
                                folder=path, container="pst")
        else:
            yield Found(place.source("pst", index, folder=path or ""), msg)
        index += 1


def _is_folder(item: Any) -> bool:
    return type(item).__name__ == "folder" or hasattr(item, "get_number_of_sub_folders")


def _message_class(item: Any) -> str | None:
    return _class_and_size(item)[0]


def _class_and_size(item: Any) -> tuple[str | None, int]:
    """An item's message class (``None``: none) and PidTagMessageSize (0: none), from its
    first record set."""
    klass, size = None, 0
    for record_set in _record_sets(item):
        for entry in _entries(record_set):
            tag = entry.get_entry_type()
            if tag == mapi.MESSAGE_CLASS and klass is None:
                klass = _decode_class(entry.get_value_type(), entry.get_data() or b"")
            elif tag == MESSAGE_SIZE and entry.get_value_type() == mapi.PT_LONG:
                size = max(0, int.from_bytes((entry.get_data() or b"")[:4].ljust(4, b"\0"), "little",
                                             signed=True))
        break
    return klass, size


def _decode_class(ptype: int, raw: bytes) -> str:
    if ptype == mapi.PT_UNICODE:
        return raw[: len(raw) & ~1].decode("utf-16-le", "replace").rstrip("\0")
    return raw.decode("latin-1").rstrip("\0")


def _record_sets(item: Any) -> list[Any]:
    return [item.get_record_set(i) for i in range(item.get_number_of_record_sets())]


def _entries(record_set: Any) -> list[Any]:
    return [record_set.get_entry(i) for i in range(record_set.get_number_of_entries())]


def _bag(record_set: Any, where: str, *, subject: bool = False) -> mapi.PropertyBag:
    """The properties of one record set (raw types and bytes, as a .msg's storage holds them)."""
    bag = mapi.PropertyBag(where)
    for entry in _entries(record_set):
        tag, ptype = entry.get_entry_type(), entry.get_value_type()
        raw = entry.get_data() or b""
        if ptype in mapi.FIXED_SIZES:
            size = 16 if ptype == mapi.PT_CLSID else 8
            bag.put(tag, ptype, mapi.fixed_value(ptype, (raw + bytes(size))[:size]))
        elif ptype in (mapi.PT_STRING8, mapi.PT_UNICODE, mapi.PT_BINARY):
            if subject and tag == mapi.SUBJECT:
                raw = strip_subject_prefix(ptype, raw)
            bag.put(tag, ptype, raw)
        # multi-valued and object properties: not used to build the message
    return bag


def _message(item: Any, ctx: ReadContext, issues: list[MessageIssue]) -> Message:
    """Build the message of one PST item (and, through ``ctx``, its embedded messages)."""
    sets = _record_sets(item)
    bag = _bag(sets[0], "pst:", subject=True) if sets else mapi.PropertyBag("pst:")
    recipients = []
    try:
        table = getattr(item, "recipients", None)
    except Exception:  # noqa: BLE001 - no recipient table, or one that cannot be read
        table = None
        issues.append(MessageIssue(MessageIssueKind.MALFORMED_MSG, "pst:recipients", 0, 0))
    if table is not None:
        recipients = [_bag(rs, f"pst:recipient{n}") for n, rs in enumerate(_record_sets(table), 1)]
    attachments = []
    count = item.get_number_of_attachments() if hasattr(item, "get_number_of_attachments") else 0
    for n in range(count):
        where = f"pst:attachment{n + 1}"
        try:
            att = item.get_attachment(n)
            sets = _record_sets(att)
            abag = _bag(sets[0], where) if sets else mapi.PropertyBag(where)
        except Exception:  # noqa: BLE001
            issues.append(MessageIssue(MessageIssueKind.MALFORMED_MSG, where, 0, 0))
            continue
        nested = None
        if abag.int(mapi.ATTACH_METHOD) == _ATTACH_EMBEDDED:
            nested = _embedded(att, ctx, where, issues)
        elif mapi.ATTACH_DATA not in abag.props or not abag.raw(mapi.ATTACH_DATA):
            data = _attachment_data(att, where, issues)
            if data is not None:
                abag.props[mapi.ATTACH_DATA] = (mapi.PT_BINARY, data, None)
        attachments.append((abag, nested))
    return mapi.build_message("pst", bag, recipients, attachments, issues=issues, ctx=ctx)


def _embedded(att: Any, ctx: ReadContext, where: str, issues: list[MessageIssue]) -> Message | None:
    """An embedded message (afEmbeddedMessage). ``pypff`` gives no item for it, only the bytes
    of its property context (a heap-on-node, MS-PST 2.3.1-2.3.3), which :func:`heap_properties`
    reads; values kept in sub-nodes (recipient and attachment tables, large bodies) are out of
    its reach and left out of the nested message."""
    inner = ctx.enter(where, issues=issues)
    if inner is None:
        return None
    try:
        size = att.get_size()
        data = att.read_buffer(size) if 0 < size <= MAX_STREAM_BYTES else b""
    except Exception:  # noqa: BLE001 - an embedded message that cannot be opened
        data = b""
    bag = heap_properties(data, f"{where}>pst:")
    if bag is None:
        issues.append(MessageIssue(MessageIssueKind.MALFORMED_MSG, where, 0, len(data)))
        return None
    sub = bag.raw(mapi.SUBJECT)
    if isinstance(sub, bytes):
        ptype = bag.props[mapi.SUBJECT][0]
        bag.props[mapi.SUBJECT] = (ptype, strip_subject_prefix(ptype, sub), None)
    return mapi.build_message("pst", bag, [], [], ctx=inner)


_HN_SIGNATURE, _PC_SIGNATURE, _BTH_SIGNATURE = 0xEC, 0xBC, 0xB5
_BTH_LEVELS = 8  # a B-tree deeper than this over one block is damage, not data


def heap_properties(data: bytes, where: str) -> mapi.PropertyBag | None:
    """The properties of a property context held in the first block of a heap-on-node
    (MS-PST 2.3.1 HN, 2.3.2 BTH, 2.3.3 PC), or ``None`` when ``data`` is none.

    Values of at most 4 bytes stand in the B-tree records; longer ones in heap allocations of
    the same block. Values in other blocks or in sub-nodes are not in ``data`` and are left out.
    Bounded: each record is read once, the tree at most :data:`_BTH_LEVELS` deep.
    """
    import struct

    if len(data) < 12 or data[2] != _HN_SIGNATURE or data[3] != _PC_SIGNATURE:
        return None
    page_map = struct.unpack_from("<H", data, 0)[0]
    if page_map + 4 > len(data):
        return None
    count = struct.unpack_from("<H", data, page_map)[0]
    if page_map + 4 + 2 * (count + 1) > len(data):
        return None
    starts = struct.unpack_from(f"<{count + 1}H", data, page_map + 4)

    def alloc(hid: int) -> bytes | None:
        if hid & 0x1F or hid >> 16:  # a sub-node, or another block: not in data
            return None
        index = (hid >> 5) & 0x7FF
        if not 1 <= index <= count or starts[index - 1] > starts[index] or starts[index] > len(data):
            return None
        return data[starts[index - 1]:starts[index]]

    header = alloc(struct.unpack_from("<I", data, 4)[0])
    if header is None or len(header) < 8 or header[0] != _BTH_SIGNATURE or header[1:3] != b"\x02\x06":
        return None
    levels, root = header[3], struct.unpack_from("<I", header, 4)[0]
    bag = mapi.PropertyBag(where)
    nodes = [(root, levels)]
    while nodes:
        hid, level = nodes.pop()
        block = alloc(hid)
        if block is None or level > _BTH_LEVELS:
            continue
        if level:
            nodes.extend((struct.unpack_from("<I", block, p + 2)[0], level - 1)
                         for p in range(0, len(block) - 5, 6))
            continue
        for p in range(0, len(block) - 7, 8):
            tag, ptype, value = struct.unpack_from("<HHI", block, p)
            raw = value.to_bytes(4, "little")
            if ptype in mapi.FIXED_SIZES and mapi.FIXED_SIZES[ptype] <= 4:
                bag.put(tag, ptype, mapi.fixed_value(ptype, raw + bytes(4)))
                continue
            held = alloc(value)
            if held is None:
                continue
            if ptype in mapi.FIXED_SIZES:
                size = 16 if ptype == mapi.PT_CLSID else 8
                bag.put(tag, ptype, mapi.fixed_value(ptype, (held + bytes(size))[:size]))
            elif ptype in (mapi.PT_STRING8, mapi.PT_UNICODE, mapi.PT_BINARY):
                bag.put(tag, ptype, held)
    return bag


def _attachment_data(att: Any, where: str, issues: list[MessageIssue]) -> bytes | None:
    try:
        size = att.get_size()
        if size > MAX_STREAM_BYTES:
            issues.append(MessageIssue(MessageIssueKind.MALFORMED_MSG, where, 0, 0))
            return None
        return att.read_buffer(size) if size else b""
    except Exception:  # noqa: BLE001
        issues.append(MessageIssue(MessageIssueKind.MALFORMED_MSG, where, 0, 0))
        return None


def _text(exc: Exception) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[-1] if text else ''}".rstrip(": ")
