"""``onemail explain KIND``: what an issue kind means, and its entry of the ambiguity register.

Every kind of the three enums (:class:`onemail.text.IssueKind`, :class:`onemail.rtf.RtfDefectKind`,
:class:`onemail.message.MessageIssueKind`) has a one-paragraph meaning in :data:`MEANINGS`
(a test checks that the table and the enums hold the same kinds). For an ``Ambiguous*`` kind,
its entry of ``docs/ambiguities.md`` follows, then every other entry whose heading names the
kind. The register ships inside the package as :mod:`onemail._register`, written from
``docs/ambiguities.md`` by ``scripts/generate_meta.py`` (a test checks it is current).

``KIND`` is a kind's JSON value (``InvalidUtf8``) or member name (``INVALID_UTF8``), in any case;
a register id (``T51``) prints that entry. ``onemail explain --list`` lists every kind.
An unknown ``KIND`` exits 2 with the closest matches.
"""

from __future__ import annotations

import argparse
import difflib
import sys
import textwrap
from collections.abc import Iterator
from enum import Enum

from ._exits import add_command

#: The meaning of every issue kind, by its JSON value: what was found and what onemail did.
MEANINGS: dict[str, str] = {
    # onemail.text.IssueKind: undecodable bytes (each produced exactly one U+FFFD).
    "InvalidUtf8": "Bytes that are not well-formed UTF-8 (a stray continuation byte, a truncated "
                   "sequence, an overlong form, a surrogate, a value above U+10FFFF); each maximal "
                   "ill-formed sequence became one U+FFFD (Encoding Standard, UTF-8 decoder).",
    "InvalidUtf16": "A UTF-16 unit that does not decode: an unpaired surrogate, or an odd byte at "
                    "the end of the input; each became U+FFFD.",
    "InvalidUtf32": "A UTF-32 unit that is not a Unicode scalar value (a surrogate or a value "
                    "above U+10FFFF), or 1 to 3 bytes left at the end; each became U+FFFD.",
    "InvalidSingleByte": "A byte that the single-byte charset leaves unmapped (0x81 in "
                         "windows-1253, say); it became U+FFFD.",
    "InvalidGb18030": "A byte sequence that the Encoding Standard's gb18030 decoder rejects (also "
                      "used for GBK and gb2312); U+FFFD.",
    "InvalidBig5": "A byte sequence that the Encoding Standard's Big5 decoder rejects; U+FFFD.",
    "InvalidEucJp": "A byte sequence that the Encoding Standard's EUC-JP decoder rejects; U+FFFD.",
    "InvalidShiftJis": "A byte sequence that the Encoding Standard's Shift_JIS decoder rejects; "
                       "U+FFFD.",
    "InvalidEucKr": "A byte sequence that the Encoding Standard's EUC-KR decoder rejects; U+FFFD.",
    "InvalidJohab": "A byte sequence that is not Johab (Korean, code page 1361); U+FFFD.",
    "InvalidUtf7": "Malformed UTF-7 (RFC 2152): a byte outside its repertoire, a base64 run whose "
                   "bits do not end on a character boundary, or an unpaired surrogate; U+FFFD.",
    "InvalidImapUtf7": "Malformed IMAP modified UTF-7 (RFC 3501 section 5.1.3), the encoding of "
                       "mailbox names; U+FFFD.",
    "InvalidIso2022": "A byte or escape sequence that the ISO-2022 decoder (the ISO-2022-JP "
                      "family, ISO-2022-KR, HZ) cannot read in its current state; U+FFFD.",
    # onemail.text.IssueKind: transfer-level damage inside encoded words and parameters.
    "InvalidBase64": "Damaged base64 in a B-encoded word (RFC 2047 section 4.1): missing or wrong "
                     "padding, or a one-character tail; characters outside the alphabet and data "
                     "after the padding are skipped, and every decodable byte is kept.",
    "InvalidQuotedPrintable": "An '=' in a Q-encoded word (RFC 2047 section 4.2) that is not "
                              "followed by two hex digits; it stays a literal '=' and the rest of "
                              "the word decodes.",
    "InvalidPercentEscape": "A '%' in an RFC 2231 extended value that is not followed by two hex "
                            "digits; kept literally.",
    # onemail.text.IssueKind: syntax.
    "MalformedEncodedWord": "Text that starts like an RFC 2047 encoded word but breaks its syntax "
                            "(an encoding other than B or Q, no closing '?=', a line break inside "
                            "it) is kept literally; white space inside an accepted word is "
                            "reported too.",
    "MalformedExtendedValue": "An RFC 2231 extended value (charset'language'%XX) without its two "
                              "quotes; its bytes were read as UTF-8 if valid, else with the "
                              "fallback charset.",
    "MalformedImapUtf7": "An IMAP modified UTF-7 run that encodes printable ASCII, which RFC 3501 "
                         "section 5.1.3 says must be written directly ('&' as '&-'): decoded, "
                         "the run reported.",
    "MalformedParameter": "Text in a parameter list that is no parameter (a name missing before "
                          "'=', junk without '=', an unterminated comment): dropped, its span "
                          "reported.",
    # onemail.text.IssueKind: limits and encoding.
    "EncodedWordTooLong": "An encoded word longer than the 75 characters RFC 2047 section 2 "
                          "allows; decoded anyway.",
    "TooManyIssues": "More issues than a bounded issue list keeps for one header or part: its "
                     "offset and length span the issues left out.",
    "Unencodable": "While encoding: a character the charset lacks was written as '?'; offset and "
                   "length are its index and count in the str being encoded, not bytes.",
    # onemail.text.IssueKind: documented resolutions.
    "AmbiguousUnknownCharset": "The charset label is unknown (or missing where one is needed): "
                               "the bytes were read as UTF-8 when valid, otherwise as "
                               "windows-1252.",
    "AmbiguousRaw8Bit": "Raw 8-bit bytes where the standard allows only ASCII (header text "
                        "outside encoded words, a parameter without a charset): read as UTF-8 when "
                        "valid, otherwise with the fallback charset (default windows-1252).",
    "AmbiguousIso2022Repertoire": "An ISO-2022 escape sequence that the label's standard does not "
                                  "define (JIS X 0212 under iso-2022-jp, say); the escape was "
                                  "obeyed.",
    "AmbiguousEncodedWordInQuotedString": "An encoded word inside a parameter value, where RFC "
                                          "2047 section 5 forbids it; the value was decoded as "
                                          "header text.",
    "AmbiguousAsciiLabelledUtf8": "8-bit bytes that are valid UTF-8 in an encoded word or "
                                  "extended value labelled US-ASCII: read as UTF-8, as a body so "
                                  "labelled is (M6).",
    "AmbiguousRawIso2022": "Header text written in raw 7-bit ISO-2022-JP (escape sequences, no "
                           "encoded word), as old Japanese mailers did: decoded as ISO-2022-JP.",
    # onemail.rtf.RtfDefectKind: compressed RTF (MS-OXRTFCP), spec 002 "Compressed RTF".
    "HeaderTruncated": "A compressed RTF stream shorter than its 16-byte header; nothing was "
                       "decoded.",
    "UnknownCompressionType": "The header's compression type is neither LZFu (compressed) nor "
                              "MELA (stored); nothing was decoded.",
    "CompressedSizeMismatch": "The header's COMPSIZE + 4 differs from the bytes present; the "
                              "declared range, or what is there, was read.",
    "OutputLimitExceeded": "The header's RAWSIZE is above the output limit (256 MiB); nothing was "
                           "decoded.",
    "ExpansionRatioExceeded": "The header's RAWSIZE is above 20 times the input length; nothing "
                              "was decoded.",
    "MissingEndMarker": "The compressed data ends before its end marker; everything decoded is "
                        "kept.",
    "ReferenceBeyondDictionary": "A dictionary reference to a position nothing was written to "
                                 "yet; zero bytes were used for it.",
    "CrcMismatch": "The CRC-32 of the compressed data differs from the header's; everything "
                   "decoded is kept.",
    "RawSizeMismatch": "The bytes produced differ from the header's RAWSIZE; everything decoded "
                       "is kept.",
    # onemail.rtf.RtfDefectKind: the tokenizer, spec 002 "The tokenizer".
    "UnbalancedGroupEnd": "A '}' with no open group; the token was dropped.",
    "UnclosedGroups": "The input ends inside open groups; offset is the end of input, length 0.",
    "ParameterOverflow": "A control word's numeric parameter outside the signed 32-bit range; "
                         "clamped to 2**31 - 1 (or -2**31). Offset and length are the digits'.",
    "InvalidHexEscape": "\\' not followed by two hex digits; the escape was dropped.",
    "BinaryDataTruncated": "\\binN announces more bytes than remain; the rest was returned.",
    "TruncatedToken": "The input ends after \\ or \\'.",
    "NestingLimitExceeded": "A '{' would open one group more than the reader's depth limit "
                            "(default 1000); reading stopped there.",
    # onemail.rtf.RtfDefectKind: de-encapsulation, spec 002 "De-encapsulation".
    "LoneSurrogate": "A \\uN surrogate without its partner; given as U+FFFD.",
    "InvalidCodePageBytes": "Bytes of an RTF text run that its code page cannot map; each became "
                            "U+FFFD.",
    "AmbiguousUnknownCodePage": "A code page onemail cannot decode (\\cpg4242, say): the run was "
                                "decoded in the document's code page, else windows-1252; reported "
                                "once per code page.",
    # onemail.message.MessageIssueKind: documented resolutions.
    "AmbiguousDefaultCharset": "A text part (or an Outlook string body) without a charset, holding"
                               " 8-bit bytes that are valid UTF-8: read as UTF-8. 7-bit content is"
                               " US-ASCII and reports nothing; other 8-bit content goes to the "
                               "detector (AmbiguousDetectedCharset).",
    "AmbiguousDetectedCharset": "An 8-bit body that is not valid UTF-8 and has no usable charset: "
                                "the charset detector (onemail.detect) chose it.",
    "AmbiguousInBandCharset": "A body's charset was taken from the body itself: a byte order mark, "
                              "an HTML meta tag or an XML declaration.",
    "AmbiguousCharsetConflict": "The charset found in the body (byte order mark, meta tag, XML "
                                "declaration) and the declared one disagree.",
    "AmbiguousUnknownTransferEncoding": "An unknown Content-Transfer-Encoding: the body was "
                                        "taken as it stands, as 8bit.",
    "AmbiguousMislabelledCharset": "The body plainly is not in its declared charset (UTF-8, UTF-7 "
                                   "or a 7-bit ISO-2022 or HZ label with many invalid bytes, or "
                                   "US-ASCII holding valid UTF-8): it was read as UTF-8, or in the"
                                   " detector's charset.",
    "AmbiguousTextAfterBase64": "Text after the end of a base64 body (a mailing-list footer): not "
                                "decoded as base64; appended to a text part's text, left out of "
                                "other parts' data.",
    "AmbiguousUuencodedFile": "A uuencoded file (begin ... end) inside a text body: made an "
                              "attachment part, left out of the text.",
    "AmbiguousMboxSeparator": "A line of an mbox message starting with 'From ' that was not taken "
                              "as a separator (no empty line before it, or no message header "
                              "after it): it stays in the message, which may hold two.",
    "AmbiguousMboxQuoting": "A '>From ' line of an mbox message lost one '>' (mboxrd quoting "
                            "undone; in an mboxo mailbox the '>' may have been the author's).",
    "AmbiguousMboxContentLength": "An mbox message ended where its Content-Length said, over a "
                                  "'From ' line inside it that would otherwise have separated "
                                  "two messages (mboxcl/mboxcl2).",
    "AmbiguousNulInText": "NUL characters (U+0000) in the text of a text part: binary content "
                          "sent as text (RFC 2045 allows no NUL in 7bit or 8bit data). The part "
                          "stays a text part and the NULs stay in its text (lossless); the issue "
                          "gives the first run of NUL bytes, one issue per part.",
    # onemail.message.MessageIssueKind: damage of the containers.
    "MalformedHeader": "A header line that is no field (no colon, junk before the name, a fold "
                       "with no field above it), or a body that follows its fields without an "
                       "empty line.",
    "MalformedAddress": "An address list that is not RFC 5322: junk skipped, a mailbox salvaged "
                        "around it, or words that give no mailbox.",
    "MalformedDate": "A Date that could not be read, or was read only by assuming UTC for a "
                     "missing zone.",
    "SuspectedMojibake": "Text that reads as mojibake (text decoded in the wrong charset): "
                         "reported with the steps repair would apply, left as it is; read(..., "
                         "repair=True) repairs it.",
    "MalformedMimeStructure": "Damage in the MIME structure: a multipart without a boundary or "
                              "whose boundary never appears, a missing close delimiter, "
                              "delimiter lines with no part between them.",
    "MalformedTnef": "Damage in a TNEF (winmail.dat) stream: a truncated attribute, a bad level or "
                     "checksum, an unreadable property list; what could be read is kept.",
    "MalformedMsg": "Damage in an Outlook .msg file (an OLE2 compound file): a missing or "
                    "unreadable stream or property; what could be read is kept.",
    "InvalidUuencode": "A uuencoded line that does not decode; decoded as far as it goes.",
    # onemail.message.MessageIssueKind: limits.
    "HeaderTooLong": "A header value longer than 1 MiB; the rest was cut off.",
    "TruncatedContainer": "The message is the last one read from a compressed file (.gz, "
                          ".bz2, .xz) whose decompression stopped early: the stream is "
                          "damaged or truncated, or its output met the decompression limit "
                          "(containers.MAX_RATIO). The message's bytes end at the issue's "
                          "offset; what followed is lost. The walk also reports the file as "
                          "skipped with its reason.",
    "TooManyParts": "More than 10 000 parts in one message: the rest of the message was kept as "
                    "one opaque part, unparsed.",
    "TooManyHeaderFields": "More than 10 000 fields in one header section: past them only the "
                           "first Content-*, address, Subject, Date and Message-ID fields not yet "
                           "seen were kept; the other fields are not in the headers list.",
    "MessageNestingLimitExceeded": "MIME levels or nested messages (message/rfc822, TNEF, an "
                                   "attached .msg) deeper than onemail's caps; the part that would "
                                   "go deeper was kept whole, unparsed.",
}


_WIDTH = 79  # the meanings are wrapped like the register's lines (which are at most 100 wide)


def kind_enums() -> tuple[type[Enum], ...]:
    """Return the three issue-kind enums: text, RTF, message (in that order)."""
    from ..message import MessageIssueKind
    from ..rtf import RtfDefectKind
    from ..text import IssueKind

    return (IssueKind, RtfDefectKind, MessageIssueKind)


def all_kinds() -> Iterator[Enum]:
    """Yield every issue kind of the three enums, in definition order."""
    for enum_ in kind_enums():
        yield from enum_


def find_kind(name: str) -> Enum | None:
    """Return the kind whose value or member name is ``name`` (case and ``_`` ignored), or None."""
    key = name.replace("_", "").lower()
    for kind in all_kinds():
        if kind.value.lower() == key or kind.name.replace("_", "").lower() == key:
            return kind
    return None


def qualified_name(kind: Enum) -> str:
    """Return ``onemail.text.IssueKind.INVALID_UTF8`` for a kind (the public enum's path)."""
    package = {"IssueKind": "onemail.text", "RtfDefectKind": "onemail.rtf",
               "MessageIssueKind": "onemail.message"}[type(kind).__name__]
    return f"{package}.{type(kind).__name__}.{kind.name}"


def register_entries() -> dict[str, tuple[str, str]]:
    """Return the ambiguity register: ``{id: (heading, Markdown body)}`` in document order."""
    from .._register import ENTRIES

    return ENTRIES


def entries_naming(kind: Enum) -> list[str]:
    """Return the register ids whose entry is the kind's own or whose heading names the kind.

    The kind's own entry (its ``ambiguity`` id) comes first; then, in document order, every
    entry whose heading names the kind in backquotes (``M9`` for ``AmbiguousRaw8Bit``, ``M7``
    for ``MessageNestingLimitExceeded``).
    """
    own: str | None = getattr(kind, "ambiguity", None)
    ids = [own] if own else []
    needle = f"`{kind.value}`"
    ids += [key for key, (title, _) in register_entries().items() if needle in title and key != own]
    return ids


def explain(kind: Enum) -> str:
    """Return the text ``onemail explain`` prints for ``kind``: its meaning and register entries."""
    own: str | None = getattr(kind, "ambiguity", None)
    what = (f"documented resolution, register entry {own}" if own else "damage")
    lines = [f"{kind.value} ({qualified_name(kind)}): {what}", "",
             textwrap.fill(MEANINGS[kind.value], width=_WIDTH)]
    for key in entries_naming(kind):
        lines += ["", *_entry(key)]
    return "\n".join(lines) + "\n"


def _entry(key: str) -> list[str]:
    title, body = register_entries()[key]
    return [f"{key} {title}  (docs/ambiguities.md)", body]


def listing() -> str:
    """Return the text of ``onemail explain --list``: one line per kind, grouped by enum."""
    lines = []
    for enum_ in kind_enums():
        lines.append(f"{qualified_name(next(iter(enum_))).rsplit('.', 1)[0]}:")
        for kind in enum_:
            own = getattr(kind, "ambiguity", None)
            lines.append(f"  {kind.value:<36} {own or ''}".rstrip())
    return "\n".join(lines) + "\n"


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``explain`` to the ``onemail`` subcommands."""
    p = add_command(sub, "explain", help="what an issue kind means (and its ambiguity register entry)",
                    unread=None, usage="a usage error: an unknown issue kind, or KIND and --list together",
                    description="Print what an issue kind means and, for an Ambiguous* kind, "
                                   "its entry of the ambiguity register (docs/ambiguities.md).")
    p.add_argument("kind", nargs="?", metavar="KIND",
                   help="a kind's name as in JSON (InvalidUtf8) or as the enum member "
                        "(INVALID_UTF8), any case; or a register id (T51)")
    p.add_argument("--list", action="store_true", help="list every issue kind")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the explanation of ``args.kind`` (or the list); return 0, or 2 for an unknown kind."""
    if args.list:
        if args.kind is not None:
            print("onemail explain: give KIND or --list, not both", file=sys.stderr)
            return 2
        sys.stdout.write(listing())
        return 0
    if args.kind is None:
        print("onemail explain: give an issue kind (onemail explain --list lists them)",
              file=sys.stderr)
        return 2
    kind = find_kind(args.kind)
    if kind is not None:
        sys.stdout.write(explain(kind))
        return 0
    if args.kind.upper() in register_entries():
        sys.stdout.write("\n".join(_entry(args.kind.upper())) + "\n")
        return 0
    values = [k.value for k in all_kinds()]
    by_lower = {v.lower(): v for v in values}
    close = [by_lower[m] for m in difflib.get_close_matches(
        args.kind.replace("_", "").lower(), list(by_lower), n=5, cutoff=0.6)]
    hint = f"; close matches: {', '.join(close)}" if close else ""
    print(f"onemail explain: unknown issue kind {args.kind!r}{hint} "
          "(onemail explain --list lists every kind)", file=sys.stderr)
    return 2
