"""Opt-in mojibake repair of a read message (``read(..., repair=True)``).

Each decoded header value and each text body goes through :func:`onemail.detect.repair`; a
change is kept with a :class:`~onemail.message.model.RepairRecord` naming the place and the
replayable steps (``onemail.detect.apply_steps``). Nothing else of the message changes.
"""

from __future__ import annotations

from dataclasses import replace

from ._pieces import repair_text
from .model import Message, RepairRecord

__all__ = ["repair_message"]


def repair_message(msg: Message) -> Message:
    """Return ``msg`` with mojibake repaired in header values, subject, names and text bodies."""
    records: list[RepairRecord] = []

    def fix(text: str | None, where: str) -> str | None:
        if not text or text.isascii():
            return text
        fixed, steps = repair_text(text)
        if steps and fixed != text:
            records.append(RepairRecord(where, tuple(steps)))
            return fixed
        return text

    headers = tuple(replace(h, value=fix(h.value, f"header:{h.name}")) for h in msg.headers)
    subject = fix(msg.subject, "subject")
    from_ = tuple(replace(a, name=fix(a.name, "from")) for a in msg.from_)
    to = tuple(replace(a, name=fix(a.name, "to")) for a in msg.to)
    cc = tuple(replace(a, name=fix(a.name, "cc")) for a in msg.cc)
    parts = []
    for p in msg.parts:
        changes = {}
        if p.text is not None and not p.is_rtf and p.media_type in ("text/plain", "text/html"):
            changes["text"] = fix(p.text, f"part:{p.path}")
        if p.filename:
            changes["filename"] = fix(p.filename, f"part:{p.path}/filename")
        if p.message is not None and p.message.repairs:
            records.extend(RepairRecord(f"part:{p.path}>{r.where}", r.steps) for r in p.message.repairs)
        parts.append(replace(p, **changes) if changes else p)
    return replace(msg, headers=headers, subject=subject, from_=from_, to=to, cc=cc, parts=tuple(parts),
                   repairs=tuple(records))
