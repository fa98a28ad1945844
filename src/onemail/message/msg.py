"""Outlook ``.msg`` files (MS-OXMSG): MAPI properties from an OLE2 compound file via ``olefile``.

Layout (MS-OXMSG 2.1-2.4): each storage (the message, ``__recip_version1.0_#XXXXXXXX``,
``__attach_version1.0_#XXXXXXXX``, an embedded message ``__substg1.0_3701000D``) holds

* ``__properties_version1.0``: a header (32 bytes for the top-level message, 24 for an embedded
  one, 8 for recipients and attachments), then 16-byte entries ``type u16, id u16, flags u32,
  value 8 bytes``; fixed-size values are inline, variable-size ones give their size there;
* ``__substg1.0_IIIITTTT``: the value of property ``IIII`` of type ``TTTT`` (string8, unicode
  string, binary), one stream each.

Damage is reported, never raised: a file olefile cannot open gives a :class:`Message` with
``error`` set; a missing properties stream, or a property whose stream is missing, is a
``MalformedMsg`` issue at ``msg:<storage path>``.
"""

from __future__ import annotations

import io
import struct
import uuid
from collections.abc import Sequence
from typing import Any

from . import mapi
from .formats import MAX_STREAM_BYTES, ReadContext
from .issues import MessageIssueKind
from .model import Message, MessageIssue

__all__ = ["read_msg"]

_PROPS = "__properties_version1.0"
_SUBSTG = "__substg1.0_"
_RECIP = "__recip_version1.0_#"
_ATTACH = "__attach_version1.0_#"
_EMBEDDED = "__substg1.0_3701000D"

def read_msg(data: bytes, ctx: ReadContext) -> Message:
    """Read an Outlook .msg file from its bytes; never raises on bad input.

    :param data: the whole compound file.
    :param ctx: the reading context (repair flag, nesting depth, the nested-message reader).
    :returns: a :class:`Message` with ``format="msg"``; ``error`` set when the file cannot be
        opened as OLE2.
    :issues: ``MalformedMsg`` (missing or short streams), the string decoders' issues, RTF
        defects, body charset issues.
    """
    import olefile

    problem = header_problem(data)
    if problem is not None:
        return Message("msg", error=f"{NOT_MSG}{problem}")
    try:
        ole = olefile.OleFileIO(io.BytesIO(data))
    except Exception as exc:  # noqa: BLE001 - olefile raises many types on damaged files
        return Message("msg", error=f"{NOT_MSG}{_reason(exc)}")
    try:
        entries = ole.listdir(streams=True, storages=True)
        if not any(len(e) == 1 and (e[0] == _PROPS or e[0].startswith(_SUBSTG)) for e in entries):
            return Message("msg", error=f"{NOT_MSG}an OLE2 file without MAPI property streams")
        reader = _Reader(ole, entries)
        return reader.message((), top=True, ctx=ctx)
    except Exception as exc:  # noqa: BLE001 - damage deep in the FAT/directory: report it
        return Message("msg", error=f"{NOT_MSG}damaged compound file: {_reason(exc)}")
    finally:
        ole.close()


NOT_MSG = "not a readable Outlook .msg: "
"""The start of every :attr:`Message.error` of :func:`read_msg`."""


def header_problem(data: bytes) -> str | None:
    """Check the compound file header (MS-CFB 2.2) before olefile reads it; return what is
    wrong, or ``None``.

    olefile accepts any sector shift and fails later with messages about the consequences
    (a 2**40000-byte sector cannot even be printed); the fields checked here have one or two
    legal values: major version 3 or 4, byte order ``FE FF``, sector shift 9 (version 3) or 12
    (version 4), mini sector shift 6.
    """
    if len(data) < 512:
        return f"{len(data)} bytes, shorter than the 512-byte compound file header"
    major, order, shift, mini = struct.unpack_from("<HHHH", data, 0x1A)
    if major not in (3, 4) or order != 0xFFFE:
        return f"bad compound file header (version {major}, byte order 0x{order:04X})"
    if shift != (9 if major == 3 else 12) or mini != 6:
        return f"bad compound file header (version {major}, sector shift {shift}, mini sector shift {mini})"
    return None


def _reason(exc: Exception) -> str:
    """olefile's message when it is a short sentence, else the exception's type."""
    text = str(exc)
    if not text or len(text) > 200 or "sys." in text:
        return f"damaged compound file ({type(exc).__name__})"
    return text


_NAMEID = "__nameid_version1.0"
# MS-OXMSG 2.2.3.1.2: GUID index 1 and 2 in the entry stream are these property sets.
_PS_MAPI = "00020328-0000-0000-c000-000000000046"
_PS_PUBLIC_STRINGS = "00020329-0000-0000-c000-000000000046"


def _loop(fat: Sequence[int], start: int, count: int, limit: int | None = None) -> int | None:
    """The step (from 0) at which the sector chain from ``start`` comes back to a sector it
    passed, or reaches a sector at or beyond ``limit``, within ``count`` steps; ``None`` when it
    does neither (it ends, or leaves the table)."""
    seen: set[int] = set()
    sect = start
    size = len(fat)
    for step in range(count):
        if limit is not None and limit <= sect < size:
            return step
        if sect >= size:  # ENDOFCHAIN, FREESECT and other markers, or out of range
            return None
        if sect in seen:
            return step
        seen.add(sect)
        sect = fat[sect]
    return None


def _container_issues(ole: Any) -> list[MessageIssue]:  # an olefile.OleFileIO
    """Damage of the compound file itself (MS-CFB 2.3-2.6): a loop in the directory chain, the
    mini FAT chain or the mini stream's chain (each read again and again until its size), and
    what olefile noted and went on (an entry referenced twice by sibling links, a duplicate
    name, a sector index out of range)."""
    out: list[MessageIssue] = []
    sectors = len(ole.fat)
    chains = (("msg:directory", ole.first_dir_sector, sectors),
              ("msg:minifat", ole.first_mini_fat_sector, ole.num_mini_fat_sectors),
              ("msg:ministream", ole.root.isectStart, -(-ole.root.size // ole.sectorsize)))
    for where, start, count in chains:
        step = _loop(ole.fat, start, min(count, sectors))
        if step is not None:
            out.append(MessageIssue(MessageIssueKind.MALFORMED_MSG, where, step * ole.sectorsize, 0))
            if where == "msg:ministream":  # mini sectors past the loop hold repeated bytes
                ole._onemail_mini_limit = step * ole.sectorsize // ole.minisectorsize  # noqa: SLF001
    out.extend(MessageIssue(MessageIssueKind.MALFORMED_MSG, "msg:/", 0, 0) for _ in ole.parsing_issues)
    return out


class _Reader:
    def __init__(self, ole: Any, entries: list[list[str]]) -> None:  # an olefile.OleFileIO
        self.ole = ole
        self.children: dict[tuple[str, ...], list[str]] = {}
        for path in entries:
            self.children.setdefault(tuple(path[:-1]), []).append(path[-1])
        self.container: list[MessageIssue] = []
        if ole.minifat is None and ole.root.size:
            try:
                ole.loadminifat()
            except Exception:  # noqa: BLE001 - mini streams then fail one by one, reported
                self.container.append(MessageIssue(MessageIssueKind.MALFORMED_MSG, "msg:minifat", 0, 0))
        self.container += _container_issues(ole)
        self.issues: list[MessageIssue] = []
        self.names = self._named_properties()

    def _named_properties(self) -> dict[int, str]:
        """Property id (0x8000 + index) -> ``"{GUID}:0xID"`` or ``"{GUID}:name"`` (MS-OXMSG 2.2.3)."""
        if _NAMEID not in self.children.get((), []):
            return {}
        storage = (_NAMEID,)
        present = set(self.children.get(storage, []))

        def stream(tag: str) -> bytes:
            name = f"{_SUBSTG}{tag}0102"
            return (self._stream(storage, name) or b"") if name in present else b""

        guids, entries, strings = stream("0002"), stream("0003"), stream("0004")
        out: dict[int, str] = {}
        for pos in range(0, len(entries) - 7, 8):
            ident, index_kind = struct.unpack_from("<II", entries, pos)
            index, guid_index, is_string = index_kind >> 16, (index_kind >> 1) & 0x7FFF, index_kind & 1
            if guid_index == 1:
                guid = _PS_MAPI
            elif guid_index == 2:
                guid = _PS_PUBLIC_STRINGS
            else:
                raw = guids[(guid_index - 3) * 16:(guid_index - 2) * 16]
                guid = str(uuid.UUID(bytes_le=raw)) if len(raw) == 16 else "?"
            if is_string:
                size = struct.unpack_from("<I", strings, ident)[0] if ident + 4 <= len(strings) else 0
                label = strings[ident + 4:ident + 4 + size].decode("utf-16-le", "replace")
                out[0x8000 + index] = f"{{{guid}}}:{label}"
            else:
                out[0x8000 + index] = f"{{{guid}}}:0x{ident:X}"
        return out

    def _where(self, storage: tuple[str, ...], name: str | None = None) -> str:
        parts = list(storage) + ([name] if name else [])
        return "msg:" + "/".join(parts) if parts else "msg:/"

    def _stream(self, storage: tuple[str, ...], name: str) -> bytes | None:
        path = [*storage, name]
        where = self._where(storage, name)
        try:
            size = self.ole.get_size(path)
            if size > MAX_STREAM_BYTES:
                self.issues.append(MessageIssue(MessageIssueKind.MALFORMED_MSG, where, 0, 0))
                return None
            data: bytes = self.ole.openstream(path).read()
            entry = self.ole.direntries[self.ole._find(path)]  # noqa: SLF001 - the entry's chain
        except Exception:  # noqa: BLE001 - a broken chain in the FAT: reported, not raised
            self.issues.append(MessageIssue(MessageIssueKind.MALFORMED_MSG, where, 0, 0))
            return None
        limit = None
        if size < self.ole.minisectorcutoff:
            fat, unit = self.ole.minifat, self.ole.minisectorsize
            limit = getattr(self.ole, "_onemail_mini_limit", None)
        else:
            fat, unit = self.ole.fat, self.ole.sectorsize
        step = _loop(fat, entry.isectStart, -(-size // unit), limit) if fat is not None else None
        if step is not None:  # the chain comes back to a sector: only what came before it is data
            self.issues.append(MessageIssue(MessageIssueKind.MALFORMED_MSG, where, step * unit, size - step * unit))
            data = data[:step * unit]
        return data

    def bag(self, storage: tuple[str, ...], header: int) -> mapi.PropertyBag:
        """Read one storage's properties."""
        bag = mapi.PropertyBag(self._where(storage))
        names = self.children.get(storage, [])
        present = set(names)
        if _PROPS in present:
            table = self._stream(storage, _PROPS) or b""
            self._fixed(bag, storage, table, header, present)
        else:
            self.issues.append(MessageIssue(MessageIssueKind.MALFORMED_MSG, self._where(storage, _PROPS), 0, 0))
        for name in names:
            if not name.startswith(_SUBSTG) or len(name) != len(_SUBSTG) + 8:
                continue  # multi-valued parts (-0000000N) and foreign streams
            try:
                tag, ptype = int(name[-8:-4], 16), int(name[-4:], 16)
            except ValueError:
                continue
            if ptype in (mapi.PT_STRING8, mapi.PT_UNICODE, mapi.PT_BINARY):
                value = self._stream(storage, name)
                if value is not None:
                    bag.put(tag, ptype, value)
        if self.names:
            for tag, (ptype, prop, _) in bag.props.items():
                if tag >= 0x8000 and tag in self.names:
                    bag.props[tag] = (ptype, prop, self.names[tag])
        return bag

    def _fixed(self, bag: mapi.PropertyBag, storage: tuple[str, ...], table: bytes, header: int,
               present: set[str]) -> None:
        if len(table) < header or (len(table) - header) % 16:
            self.issues.append(MessageIssue(MessageIssueKind.MALFORMED_MSG, self._where(storage, _PROPS),
                                            len(table) - (len(table) - header) % 16 if len(table) >= header else 0,
                                            (len(table) - header) % 16 if len(table) >= header else len(table)))
        for pos in range(header, len(table) - 15, 16):
            ptype, tag = struct.unpack_from("<HH", table, pos)
            value = table[pos + 8:pos + 16]
            if ptype in mapi.FIXED_SIZES:
                bag.put(tag, ptype, mapi.fixed_value(ptype, value))
            elif ptype in (mapi.PT_STRING8, mapi.PT_UNICODE, mapi.PT_BINARY):
                if f"{_SUBSTG}{tag:04X}{ptype:04X}" not in present:
                    self.issues.append(MessageIssue(MessageIssueKind.MALFORMED_MSG,
                                                    self._where(storage, f"{_SUBSTG}{tag:04X}{ptype:04X}"),
                                                    0, 0))

    def message(self, storage: tuple[str, ...], *, top: bool, ctx: ReadContext) -> Message:
        saved, self.issues = self.issues, list(self.container) if top else []
        names = self.children.get(storage, [])
        bag = self.bag(storage, 32 if top else 24)
        recipients = [self.bag((*storage, n), 8) for n in sorted(names) if n.startswith(_RECIP)]
        attachments = []
        for n in sorted(names):
            if not n.startswith(_ATTACH):
                continue
            astorage = (*storage, n)
            abag = self.bag(astorage, 8)
            nested = None
            if _EMBEDDED in self.children.get(astorage, []) and (*astorage, _EMBEDDED) in self.children:
                inner = ctx.enter(self._where(astorage, _EMBEDDED), issues=self.issues)
                if inner is not None:
                    nested = self.message((*astorage, _EMBEDDED), top=False, ctx=inner)
            attachments.append((abag, nested))
        issues, self.issues = self.issues, saved
        return mapi.build_message("msg", bag, recipients, attachments, issues=issues, ctx=ctx)
