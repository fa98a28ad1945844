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
  (``Top of Personal Folders/Inbox``; the unnamed root left out), ``index`` the item's position
  in its folder.
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
from typing import Any

from . import mapi
from .formats import MAX_STREAM_BYTES, ReadContext
from .issues import MessageIssueKind
from .model import Message, MessageIssue
from .source import Found, Skipped, name_key

__all__ = ["EXTRA_MESSAGE", "MESSAGE_CLASSES", "heap_properties", "is_message_class", "strip_subject_prefix",
           "walk_pst"]

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
    pypff = _pypff()
    if pypff is None:
        yield place.skipped("needs-extra", EXTRA_MESSAGE, container="pst")
        return
    pst = pypff.file()
    try:
        pst.open_file_object(io.BytesIO(data) if isinstance(data, bytes) else data)
        root = pst.get_root_folder()
    except Exception as exc:  # noqa: BLE001 - pypff raises OSError, IOError, ValueError, ...
        yield place.skipped("damaged", f"not a readable PST/OST file ({_text(exc)})", container="pst")
        return
    try:
        yield from _folder(root, (), place, ctx, read)
    finally:
        try:
            pst.close()
        except Exception:  # noqa: BLE001, S110 - closing a damaged file: nothing left to report
            pass


def _folder(folder: Any, names: tuple[str, ...], place: Any, ctx: ReadContext,
            read: bool) -> Iterator[Found | Skipped]:
    path = "/".join(names) or None
    try:
        count = folder.get_number_of_sub_items()
    except Exception as exc:  # noqa: BLE001
        yield place.skipped("damaged", f"the folder cannot be listed ({_text(exc)})", folder=path,
                            container="pst")
        return
    subfolders = []
    index = 0
    for i in range(count):
        try:
            item = folder.get_sub_item(i)
        except Exception as exc:  # noqa: BLE001
            yield place.skipped("damaged", f"item {i} of the folder cannot be opened ({_text(exc)})",
                                folder=path, container="pst")
            continue
        if _is_folder(item):
            try:
                name = item.get_name() or ""
            except Exception:  # noqa: BLE001 - a name that does not decode: an unnamed folder
                name = ""
            subfolders.append((name, item))
            continue
        problem = klass = msg = None
        try:
            klass = _message_class(item)
            if is_message_class(klass) and read:
                msg = _message(item, ctx, [])
        except Exception as exc:  # noqa: BLE001 - an item whose properties cannot be read
            problem = f"item {i} of the folder cannot be read ({_text(exc)})"
        if problem is not None:
            yield place.skipped("damaged", problem, folder=path, container="pst")
        elif not is_message_class(klass):
            yield place.skipped("not-message", f"an item of class {klass}, not a message", folder=path,
                                container="pst")
        else:
            yield Found(place.source("pst", index, folder=path or ""), msg)
            index += 1
    for name, sub in sorted(subfolders, key=lambda s: name_key(s[0])):
        yield from _folder(sub, (*names, name), place, ctx, read)


def _is_folder(item: Any) -> bool:
    return type(item).__name__ == "folder" or hasattr(item, "get_number_of_sub_folders")


def _message_class(item: Any) -> str | None:
    for record_set in _record_sets(item):
        for entry in _entries(record_set):
            if entry.get_entry_type() == mapi.MESSAGE_CLASS:
                raw = entry.get_data() or b""
                return _decode_class(entry.get_value_type(), raw)
        break
    return None


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
