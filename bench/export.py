#!/usr/bin/env python3
"""Records per second: ``onemail.read`` plus :func:`onemail.message.records.build_records`
against ``onemail.read`` alone, against mail-parser (SpamScope) on the RFC 5322 messages and
against extract_msg on the Outlook .msg files, in one run.

Every file of ``../shared/corpus/mail/`` (MANIFEST kinds ``rfc822``, ``msg``, ``tnef``) is
loaded into memory first (no I/O is timed). Timed, in CPU seconds of this process
(``time.process_time``), best of ``--repeat`` runs, interleaved:

* ``read``: ``onemail.read(data)`` of every file;
* ``records``: the same, then ``build_records(message, source)`` (body text from HTML and RTF,
  attachment SHA-256, every field);
* ``build``: ``build_records`` alone, on the messages read once beforehand: the cost of the
  records themselves; goal (issue 14): at most 20 % of ``read``'s time. (On a machine shared
  with other work, ``read`` alone varies by 30 % from run to run, so the difference of two
  totals says less than the build timed by itself.)
* ``records + JSON``: the same, then ``json.dumps`` of each record (what ``onemail export``
  does besides writing);
* mail-parser (``mailparser.parse_from_bytes(data).mail``: its parsed dict of headers, bodies
  and attachments) on the rfc822 files, against onemail's records of the same files;
* extract_msg (``openMsg(data)``, then subject, sender, to, cc, date, body, htmlBody and each
  attachment's name and data, then ``close()``) on the .msg files, against onemail's records
  of the same files.

Exceptions an anchor raises are counted, not fatal. Ratios are onemail's speed over the
other's (above 1: onemail is faster). A missing anchor is named and left out.

Run: ``python bench/export.py [--repeat N]`` (the anchors come with the bench extra).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

from _timing import best

from onemail import read
from onemail.message.records import build_records
from onemail.message.source import Source

ROOT = Path(__file__).resolve().parent.parent
MAIL = (ROOT / ".." / "shared" / "corpus" / "mail").resolve()


def load() -> dict[str, list[tuple[str, bytes]]]:
    out: dict[str, list[tuple[str, bytes]]] = {"rfc822": [], "msg": [], "tnef": []}
    for line in (MAIL / "MANIFEST.tsv").read_text(encoding="utf-8").splitlines()[1:]:
        name, kind = line.split("\t")[:2]
        if kind in out:
            out[kind].append((name, (MAIL / name).read_bytes()))
    return out


def onemail_read(files) -> None:
    for _, data in files:
        read(data)


def onemail_records(files) -> int:
    n = 0
    for name, data in files:
        n += len(build_records(read(data), Source(name, "eml")))
    return n


def onemail_build(messages) -> None:
    for name, msg in messages:
        build_records(msg, Source(name, "eml"))


def onemail_json(files) -> None:
    for name, data in files:
        for r in build_records(read(data), Source(name, "eml")):
            json.dumps(r, ensure_ascii=False)


FAILURES: dict[str, int] = {}


def mail_parser(files) -> None:
    import mailparser

    failed = 0
    for _, data in files:
        try:
            mailparser.parse_from_bytes(data).mail  # noqa: B018 - building the dict is the work
        except Exception:  # noqa: BLE001 - counted
            failed += 1
    FAILURES["mail-parser"] = failed


def extract_msg_(files) -> None:
    import extract_msg

    failed = 0
    for _, data in files:
        try:
            m = extract_msg.openMsg(data)
            try:
                (m.subject, m.sender, m.to, m.cc, m.date, m.body, m.htmlBody)  # noqa: B018
                for a in m.attachments:
                    (getattr(a, "longFilename", None), getattr(a, "data", None))  # noqa: B018
            finally:
                m.close()
        except Exception:  # noqa: BLE001 - counted
            failed += 1
    FAILURES["extract_msg"] = failed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    if not MAIL.exists():
        print(f"corpus not present: {MAIL}")
        return 0
    logging.disable(logging.CRITICAL)  # mail-parser and extract_msg log every defect
    files = load()
    everything = files["rfc822"] + files["msg"] + files["tnef"]
    n_records = onemail_records(everything)
    print(f"{len(everything)} files ({len(files['rfc822'])} rfc822, {len(files['msg'])} msg, "
          f"{len(files['tnef'])} tnef), {n_records} records; CPU seconds, best of {args.repeat}")
    messages = [(name, read(data)) for name, data in everything]
    read_s = records_s = json_s = build_s = float("inf")
    for _ in range(args.repeat):  # interleaved: a neighbour's load hits all alike
        read_s = min(read_s, best(onemail_read, everything, 1))
        build_s = min(build_s, best(onemail_build, messages, 1))
        records_s = min(records_s, best(onemail_records, everything, 1))
        json_s = min(json_s, best(onemail_json, everything, 1))
    print(f"{'onemail read':<34}{read_s:>8.2f} s {len(everything) / read_s:>9.0f} messages/s")
    print(f"{'build_records alone':<34}{build_s:>8.2f} s {n_records / build_s:>9.0f} records/s"
          f"   {100 * build_s / read_s:.1f} % of read's time (goal <= 20 %)")
    print(f"{'onemail read + records':<34}{records_s:>8.2f} s {n_records / records_s:>9.0f} records/s"
          f"   cost {100 * (records_s / read_s - 1):+.1f} % over read")
    print(f"{'onemail read + records + JSON':<34}{json_s:>8.2f} s {n_records / json_s:>9.0f} records/s"
          f"   cost {100 * (json_s / read_s - 1):+.1f} % over read")
    for label, fn, subset in (("mail-parser", mail_parser, files["rfc822"]),
                              ("extract_msg", extract_msg_, files["msg"])):
        try:
            __import__("mailparser" if fn is mail_parser else "extract_msg")
        except ImportError:
            print(f"{label}: not installed (pip install -e '.[bench]')")
            continue
        ours = theirs = float("inf")
        for _ in range(args.repeat):
            ours = min(ours, best(onemail_records, subset, 1))
            theirs = min(theirs, best(fn, subset, 1))
        print(f"\n{len(subset)} {label} files: onemail records {ours:.2f} s "
              f"({len(subset) / ours:.0f} messages/s), {label} {theirs:.2f} s "
              f"({len(subset) / theirs:.0f} messages/s, {FAILURES.get(label, 0)} raised): "
              f"ratio {theirs / ours:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
