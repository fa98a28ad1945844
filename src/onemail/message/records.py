"""One record per message: :func:`build_records`, a pure function of a read message and its
:class:`~onemail.message.source.Source`, for search indexes, dataframes and review tools.

The record is a JSON object with a fixed set of keys (every key always present, ``null`` when
there is no value), described field by field in ``docs/records.md`` and by the JSON Schema
shipped beside this module (:func:`schema`, ``record.schema.json``); :mod:`onemail.message.arrow`
gives the same shape as an Arrow schema. :data:`SCHEMA_VERSION` is the record's
``schema_version``: it grows by one whenever a key is removed or renamed or a value changes
meaning; adding a key does not change it.

Decisions (``docs/ambiguities.md``):

* **M30 Body and attachments.** ``body_text`` is the first ``text/plain`` body that is not an
  attachment (:attr:`Message.text`), else the text of the first ``text/html`` body
  (:func:`onemail.message.htmltext.html_to_text`), else the text of the first plain RTF body
  (:func:`onemail.rtf.rtf_to_text`: Outlook's RTF bodies and MIME ``text/rtf``); text made from
  HTML or RTF has ``\\n`` line ends, a ``text/plain`` body keeps its own. ``body_text_from``
  says which (``text/plain``, ``text/html``, ``text/rtf``). ``body_html`` is the first
  ``text/html`` body. Every leaf part that is not one of these three bodies, and not an Outlook
  body property (``PidTagBody``, ``PidTagBodyHtml``, ``PidTagRtfCompressed``: renderings of the
  one body), is an attachment: files, inline images, nested messages, and a second inline text
  part (a mailing list's footer), so that no part of a message is missing from its record.
* **M31 Nested messages are records.** A message held in a part (``message/rfc822``, an
  attached or embedded Outlook ``.msg``, a TNEF ``winmail.dat``) is a record of its own, after
  its parent's, depth first: ``parent_id`` is the enclosing record's id, ``part`` the place of
  the part holding it from the top-level message (``"2"``, ``"2>att1"``; ``>`` as in issue
  places), ``source`` the top-level message's. Its parent lists the part as an attachment whose
  ``record_id`` is the nested record's id. Issues, charsets and repairs are each record's own
  (the parent's issue list has them again with prefixed places in :attr:`Message.issues`; here
  they are not repeated).

The record id (:func:`record_id`) is the first 32 hexadecimal digits of the SHA-256 of the
message's place: the source's ``path``, ``member``, ``folder``, ``index`` and the nested ``part``.
The same place read again, in any order or shard, gives the same id; two copies of one message
in two places have two ids.
"""

from __future__ import annotations

import hashlib
import json
import mimetypes
from datetime import UTC
from typing import Any

from .attachments import safe_filename, unique_names
from .model import Address, Message, Part
from .source import Source

__all__ = ["SCHEMA_VERSION", "SOURCE_FIELDS", "attachment_parts", "build_records", "record_id",
           "schema"]

SCHEMA_VERSION = 1
"""The ``schema_version`` of the records :func:`build_records` makes (module docstring)."""

SOURCE_FIELDS = ("path", "container", "member", "index", "offset", "length", "folder", "flags",
                 "compression")
"""The keys of a record's ``source`` object: the fields of :class:`Source`, each always present."""

_OUTLOOK_BODIES = frozenset({"PidTagBody", "PidTagBodyHtml", "PidTagRtfCompressed"})
_RTF_TYPES = frozenset({"text/rtf", "application/rtf", "text/richtext+rtf"})
_MIME_TYPES = mimetypes.MimeTypes()  # the standard library's table only: the same on every system


def record_id(source: Source, *, part: str | None = None) -> str:
    """Return the record id of the message at ``source`` (module docstring).

    :param source: where the top-level message was found.
    :param part: the place of a nested message inside it (``"2"``, ``"2>att1"``), or ``None``.
    :returns: 32 lower-case hexadecimal digits.
    :raises TypeError: ``source`` is not a :class:`Source`.

    >>> record_id(Source("inbox.mbox", "mbox", index=3))
    'a201eae25a2740cfdbaa92ecc0ae8f15'
    """
    if not isinstance(source, Source):
        raise TypeError(f"source must be a Source, not {type(source).__name__}")
    # repr() of a tuple of str, None and int: one spelling per value, on every Python
    key = repr((source.path, source.member, source.folder, source.index, part))
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def build_records(message: Message, source: Source, *, saved_paths: bool = False) -> list[dict[str, Any]]:
    """Return the records of ``message``: its own first, then those of the messages nested in
    it, depth first (M31). A pure function: the same arguments give equal records, in any
    process (for shards, Dask and Spark).

    :param message: a message from :func:`onemail.read` (or a container's iterator).
    :param source: where it was found (:class:`Source`).
    :param saved_paths: fill each attachment's ``saved_path`` with the path its bytes get under
        an attachments folder: ``"<record id>/<safe file name>"`` (``/`` separated, relative to
        that folder; names by :func:`onemail.message.attachments.safe_filename`, collisions in
        one record numbered); :func:`onemail.message.attachments.write_inside` writes them.
        ``False`` (the default): ``saved_path`` is ``null``.
    :returns: a list of JSON-ready dicts (``docs/records.md``; keys in a fixed order).
    :issues: none new: each record lists its message's issues (``kind``, ``where``, ``offset``,
        ``length``, ``count``).
    :raises TypeError: ``message`` is not a :class:`Message` or ``source`` not a :class:`Source`.
    """
    if not isinstance(message, Message):
        raise TypeError(f"message must be a Message, not {type(message).__name__}")
    if not isinstance(source, Source):
        raise TypeError(f"source must be a Source, not {type(source).__name__}")
    src = dict.fromkeys(SOURCE_FIELDS)
    src.update(source.to_json())
    out: list[dict[str, Any]] = []
    stack: list[tuple[Message, str | None, str | None]] = [(message, None, None)]
    while stack:  # depth first, without recursion (nesting is bounded by MAX_DEPTH anyway)
        msg, part, parent = stack.pop()
        rid = record_id(source, part=part)
        record, nested = _record(msg, src, rid, part, parent, saved_paths, source)
        out.append(record)
        stack.extend(reversed(nested))
    return out


def attachment_parts(message: Message) -> list[list[Part]]:
    """Return, for each record :func:`build_records` makes of ``message`` (in its order), the
    parts behind its ``attachments`` (in their order): what to write under their ``saved_path``
    (:attr:`Part.data`).

    :param message: the same message given to :func:`build_records`.
    :returns: one list of :class:`Part` per record.
    """
    out: list[list[Part]] = []
    stack = [message]
    while stack:
        msg = stack.pop()
        parts = _attachments(msg)
        out.append(parts)
        stack.extend(reversed([p.message for p in parts if p.message is not None]))
    return out


def _attachments(msg: Message) -> list[Part]:
    """The leaf parts of ``msg`` that are attachments (M30), in document order."""
    bodies = _bodies(msg)
    chosen = {id(p) for p in bodies if p is not None}
    return [p for p in msg.parts if id(p) not in chosen and p.origin not in _OUTLOOK_BODIES]


def _is_body(part: Part) -> bool:
    return not part.is_attachment and part.message is None


def _is_rtf(part: Part) -> bool:
    return part.is_rtf or part.media_type in _RTF_TYPES


def _bodies(msg: Message) -> tuple[Part | None, Part | None, Part | None]:
    """The first text/plain, text/html and plain RTF body parts of ``msg`` (M30)."""
    plain = html = rtf = None
    for p in msg.parts:
        if not _is_body(p):
            continue
        if plain is None and p.media_type == "text/plain" and p.text is not None:
            plain = p
        elif html is None and p.media_type == "text/html" and p.text is not None:
            html = p
        elif rtf is None and _is_rtf(p) and p.data:
            rtf = p
    return plain, html, rtf


def _record(msg: Message, src: dict[str, Any], rid: str, part: str | None, parent: str | None,
            saved_paths: bool, source: Source) -> tuple[dict[str, Any], list[tuple[Message, str, str]]]:
    plain, html, rtf = _bodies(msg)
    body_text = body_from = None
    if plain is not None:
        body_text, body_from = plain.text, "text/plain"
    elif html is not None:
        from .htmltext import html_to_text

        body_text, body_from = html_to_text(html.text or ""), "text/html"
    elif rtf is not None:
        body_text, body_from = rtf_body_text(rtf.data), "text/rtf"
    nested_places = []
    attachments = []
    parts = _attachments(msg)
    names = unique_names([safe_filename(p.filename, _default_name(p)) for p in parts]) if saved_paths else None
    nested: list[tuple[Message, str, str]] = []
    for n, p in enumerate(parts):
        place = p.path if part is None else f"{part}>{p.path}"
        child = None
        if p.message is not None:
            child = record_id(source, part=place)
            nested.append((p.message, place, rid))
            nested_places.append(f"part:{p.path}>")
        own_bytes = bool(p.data) or p.message is None
        attachments.append({
            "part": p.path,
            "filename": p.filename,
            "media_type": p.media_type,
            "disposition": p.disposition,
            "size": len(p.data) if own_bytes else None,
            "sha256": hashlib.sha256(p.data).hexdigest() if own_bytes else None,
            "content_id": p.content_id,
            "saved_path": f"{rid}/{names[n]}" if names is not None and own_bytes else None,
            "record_id": child,
        })
    prefixes = tuple(nested_places)
    issues = [i.to_json() for i in msg.issues if not (prefixes and i.where.startswith(prefixes))]
    for i in issues:
        i.setdefault("count", 1)
    repairs = [{"where": r.where, "steps": r.to_json()[1], "applied": applied}
               for records, applied in ((msg.repairs, True), (msg.mojibake, False))
               for r in records if not (prefixes and r.where.startswith(prefixes))]
    date_raw = message_id = None
    for h in msg.headers:  # one pass for both fields (Message.header() is one pass each)
        name = h.name.lower()
        if name == "date" and date_raw is None:
            date_raw = h.value
        elif name == "message-id" and message_id is None:
            message_id = h.value
    record = {
        "schema_version": SCHEMA_VERSION,
        "id": rid,
        "parent_id": parent,
        "part": part,
        "source": src,
        "format": msg.format,
        "message_id": _message_id(msg, message_id),
        "date": _iso_utc(msg),
        "date_raw": date_raw,
        "subject": msg.subject,
        "from": _addresses(msg.from_),
        "to": _addresses(msg.to),
        "cc": _addresses(msg.cc),
        "bcc": _addresses(msg.bcc),
        "reply_to": _addresses(msg.reply_to),
        "body_text": body_text,
        "body_text_from": body_from,
        "body_html": html.text if html is not None else None,
        "attachments": attachments,
        "charsets": [{"part": p.path, "media_type": p.media_type, "charset": p.charset,
                      "source": p.charset_source}
                     for p in msg.parts if p.charset is not None],
        "issues": issues,
        "repairs": repairs,
        "error": msg.error,
    }
    return record, nested


def _default_name(part: Part) -> str:
    ext = ".eml" if part.media_type in ("message/rfc822", "message/global") else (
        _MIME_TYPES.guess_extension(part.media_type, strict=False) or ".bin")
    return f"part-{part.path}{ext}"


def rtf_body_text(data: bytes) -> str:
    """The text of a plain RTF body as a record's ``body_text`` gives it (and ``read`` shows it).

    :param data: the RTF, raw bytes (decompressed), e.g. :attr:`Part.data` of a part with
        ``is_rtf`` or a ``text/rtf`` part.
    :returns: :func:`onemail.rtf.rtf_to_text`'s text, code pages of ``\\fcharset`` and
        ``\\ansicpg`` decoded as for Outlook (:func:`onemail.message.mapi.code_page_decoder`),
        with LF line ends and no empty lines at either end. Never raises on bad RTF.
    """
    from ..rtf import DeencapsulationOptions, rtf_to_text
    from .mapi import code_page_decoder

    text = rtf_to_text(data, options=DeencapsulationOptions(code_page_decoder=code_page_decoder)).text
    return text.replace("\r\n", "\n").strip("\n")


def _addresses(addresses: tuple[Address, ...]) -> list[dict[str, str | None]]:
    return [{"name": a.name, "address": a.address, "group": a.group} for a in addresses]


def _message_id(msg: Message, value: str | None) -> str | None:
    """The Message-ID ``value`` without angle brackets and white space (PidTagInternetMessageId
    for an Outlook message without transport headers), or ``None``."""
    if value is None:
        for p in msg.properties:
            if p.tag == 0x1035 and isinstance(p.value, str):  # PidTagInternetMessageId
                value = p.value
                break
    if value is None:
        return None
    value = value.strip()
    if value.startswith("<"):
        end = value.find(">")
        value = value[1:end] if end > 0 else value[1:]
    return value.strip() or None


def _iso_utc(msg: Message) -> str | None:
    """The date in UTC, ISO 8601 with ``Z`` (``2002-08-22T16:46:39Z``), or ``None``."""
    d = msg.date
    if d is None:
        return None
    if d.tzinfo is not None:
        d = d.astimezone(UTC)
    return d.replace(tzinfo=None).isoformat() + "Z"


def schema() -> dict[str, Any]:
    """Return the JSON Schema of a record (``record.schema.json``, shipped in the package), a new
    dict at each call."""
    from importlib.resources import files

    loaded: dict[str, Any] = json.loads(files(__package__).joinpath("record.schema.json").read_text("utf-8"))
    return loaded
