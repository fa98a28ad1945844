"""Mojibake in a read message: reported by default, repaired on request.

* By default (:func:`mark_mojibake`, M16) each header value, display name, file name and text
  body (``text/plain``, ``text/html``) that holds non-ASCII text is checked with
  :func:`onemail.detect.mojibake_steps` (its first :data:`CHECK_CHARACTERS` characters); one
  that repair would change is a ``SuspectedMojibake`` issue (offset 0, the length of its raw
  bytes) and a :class:`~onemail.message.model.RepairRecord` in :attr:`Message.mojibake` with the
  steps that would fix it (a nested message's records too, placed as its issues are:
  ``part:2>header:Subject``). The text is not changed.
* With ``read(..., repair=True)`` (:func:`repair_message`) each goes through
  :func:`onemail.detect.repair`; a change is kept with a ``RepairRecord`` in
  :attr:`Message.repairs` naming the place and the replayable steps (``apply_steps``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, cast

from ._pieces import looks_binary, mojibake_steps, repair_text
from .issues import MessageIssueKind
from .model import Message, MessageIssue, RepairRecord

__all__ = ["CHECK_CHARACTERS", "mark_mojibake", "repair_message"]
CHECK_CHARACTERS = 1 << 12
"""Characters of a text that the mojibake check reads: its cost is then bounded per piece of
text (the repair rounds on a megabyte of mojibake take seconds), as ``onemail scan`` bounded its
repair check before. Mojibake fills a text from where its wrong decoding starts, so its first
4 Ki characters show it; a text clean there and mojibake further on is a known limit (as D14's
window is for detection). bench/messages.py: 64 Ki characters cost a quarter of read's time on
the corpus, 4 Ki about a tenth; of the 18 corpus texts reported with 64 Ki, 4 Ki reports 15
(one of the three left out was a GIF sent as text/plain, one a Chinese comment in an English
patch that repair would have turned into Latin letters)."""


def mark_mojibake(msg: Message) -> Message:
    """Return ``msg`` with every piece of text that looks like mojibake reported (module
    docstring), the texts unchanged."""
    records: list[RepairRecord] = []
    issues: list[MessageIssue] = []

    def check(text: str | None, where: str, length: int) -> None:
        if not text or text.isascii():
            return
        steps = mojibake_steps(text[:CHECK_CHARACTERS])
        if steps:
            records.append(RepairRecord(where, tuple(steps)))
            issues.append(MessageIssue(MessageIssueKind.SUSPECTED_MOJIBAKE, where, 0, length))

    for h in msg.headers:
        check(h.value, f"header:{h.name}", len(h.raw))
    for p in msg.parts:
        if p.text is not None and not p.is_rtf and p.media_type in ("text/plain", "text/html") \
                and not looks_binary(p.data[:CHECK_CHARACTERS]):  # a GIF sent as text is no mojibake
            check(p.text, f"part:{p.path}", len(p.data))
        if p.filename:
            check(p.filename, f"part:{p.path}/filename", len(p.filename.encode("utf-8", "surrogatepass")))
        if p.message is not None and p.message.mojibake:
            # (a nested message's records, placed as its issues are: "part:2>header:Subject")
            records.extend(RepairRecord(f"part:{p.path}>{r.where}", r.steps) for r in p.message.mojibake)
    if not records:
        return msg
    return replace(msg, issues=msg.issues + tuple(issues), mojibake=tuple(records))


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

    def fix_str(text: str, where: str) -> str:
        return cast(str, fix(text, where))  # a str for a str

    headers = tuple(replace(h, value=fix_str(h.value, f"header:{h.name}")) for h in msg.headers)
    subject = fix(msg.subject, "subject")
    from_ = tuple(replace(a, name=fix_str(a.name, "from")) for a in msg.from_)
    to = tuple(replace(a, name=fix_str(a.name, "to")) for a in msg.to)
    cc = tuple(replace(a, name=fix_str(a.name, "cc")) for a in msg.cc)
    parts = []
    for p in msg.parts:
        changes: dict[str, Any] = {}
        if p.text is not None and not p.is_rtf and p.media_type in ("text/plain", "text/html"):
            changes["text"] = fix(p.text, f"part:{p.path}")
        if p.filename:
            changes["filename"] = fix(p.filename, f"part:{p.path}/filename")
        if p.message is not None and p.message.repairs:
            records.extend(RepairRecord(f"part:{p.path}>{r.where}", r.steps) for r in p.message.repairs)
        parts.append(replace(p, **changes) if changes else p)
    return replace(msg, headers=headers, subject=subject, from_=from_, to=to, cc=cc, parts=tuple(parts),
                   repairs=tuple(records))
