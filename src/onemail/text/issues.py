"""What a decoder had to repair or guess: :class:`TextIssue` and :class:`IssueKind`.

This module defines the text layer's issue kinds (house style: one taxonomy per layer; the RTF
kinds are :class:`onemail.rtf.RtfDefectKind`, the message layer's
:class:`onemail.message.MessageIssueKind`, all with disjoint values). Spec 000 "Contract":
decoders never raise on malformed input; each repair or guess is a
``TextIssue(kind, offset, length)`` where ``offset`` and ``length`` are bytes into the span given
to the decoder, plus the ``offset`` argument the caller passed.

Kinds named ``Ambiguous*`` are documented resolutions (each has an id in ``docs/ambiguities.md``);
every other kind is plain damage.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NoReturn

__all__ = ["MAX_ISSUES", "BoundedIssues", "IssueKind", "TextIssue"]


class IssueKind(enum.Enum):
    """The kind of a :class:`TextIssue`; the value is the spec's CamelCase name (used in JSON)."""

    # Undecodable bytes, one kind per encoding family (each produced exactly one U+FFFD).
    INVALID_UTF8 = "InvalidUtf8"
    INVALID_UTF16 = "InvalidUtf16"
    INVALID_UTF32 = "InvalidUtf32"
    INVALID_SINGLE_BYTE = "InvalidSingleByte"
    INVALID_GB18030 = "InvalidGb18030"
    INVALID_BIG5 = "InvalidBig5"
    INVALID_EUC_JP = "InvalidEucJp"
    INVALID_SHIFT_JIS = "InvalidShiftJis"
    INVALID_EUC_KR = "InvalidEucKr"
    INVALID_JOHAB = "InvalidJohab"
    INVALID_UTF7 = "InvalidUtf7"
    INVALID_IMAP_UTF7 = "InvalidImapUtf7"
    INVALID_ISO2022 = "InvalidIso2022"
    # Transfer-level damage inside encoded words and parameters.
    INVALID_BASE64 = "InvalidBase64"
    INVALID_QUOTED_PRINTABLE = "InvalidQuotedPrintable"
    INVALID_PERCENT_ESCAPE = "InvalidPercentEscape"
    # Syntax.
    MALFORMED_ENCODED_WORD = "MalformedEncodedWord"
    MALFORMED_EXTENDED_VALUE = "MalformedExtendedValue"
    #: An IMAP modified UTF-7 run that encodes printable ASCII (RFC 3501 5.1.3: it must be
    #: written directly; ``&`` as ``&-``): decoded, the whole run reported (T83).
    MALFORMED_IMAP_UTF7 = "MalformedImapUtf7"
    #: Text in a parameter list that is no parameter (``*=test`` without a name, junk without
    #: ``=``, an unterminated comment): dropped, its span reported (T86).
    MALFORMED_PARAMETER = "MalformedParameter"
    #: 8-bit bytes that are valid UTF-8 in a word or extended value labelled US-ASCII: read
    #: as UTF-8 (T81, as M6 reads such a body).
    AMBIGUOUS_ASCII_LABELLED_UTF8 = "AmbiguousAsciiLabelledUtf8"
    #: Plain header text written in raw 7-bit ISO-2022-JP (escape sequences, no encoded word):
    #: decoded as ISO-2022-JP (T84).
    AMBIGUOUS_RAW_ISO2022 = "AmbiguousRawIso2022"
    # Limits.
    ENCODED_WORD_TOO_LONG = "EncodedWordTooLong"
    # More issues than a BoundedIssues keeps: offset and length span the dropped ones.
    TOO_MANY_ISSUES = "TooManyIssues"
    # Encoding: a character the charset lacks was written as "?" (offset = index in the text).
    UNENCODABLE = "Unencodable"
    # Documented resolutions (docs/ambiguities.md).
    AMBIGUOUS_UNKNOWN_CHARSET = "AmbiguousUnknownCharset"
    AMBIGUOUS_RAW_8BIT = "AmbiguousRaw8Bit"
    AMBIGUOUS_ISO2022_REPERTOIRE = "AmbiguousIso2022Repertoire"
    AMBIGUOUS_ENCODED_WORD_IN_QUOTED_STRING = "AmbiguousEncodedWordInQuotedString"

    @property
    def is_ambiguous(self) -> bool:
        """True for documented resolutions (``Ambiguous*``), False for damage."""
        return self.value.startswith("Ambiguous")

    @property
    def ambiguity(self) -> str | None:
        """The id of the ``docs/ambiguities.md`` entry an ``Ambiguous*`` kind documents
        (``"T51"``), or ``None`` for damage."""
        return _AMBIGUITY.get(self.value)


#: The register entry of each ``Ambiguous*`` kind (tests/house/test_issue_kinds.py checks that
#: every ``Ambiguous*`` kind has one and that the entry names the kind).
_AMBIGUITY = {
    "AmbiguousUnknownCharset": "T1",
    "AmbiguousIso2022Repertoire": "T36",
    "AmbiguousRaw8Bit": "T51",
    "AmbiguousEncodedWordInQuotedString": "T55",
    "AmbiguousAsciiLabelledUtf8": "T81",
    "AmbiguousRawIso2022": "T84",
}


@dataclass(frozen=True, slots=True)
class TextIssue:
    """One repair or guess made while decoding or encoding text.

    :param kind: what happened.
    :param offset: byte offset into the span given to the decoder, plus the caller's ``offset``
        argument. For :attr:`IssueKind.UNENCODABLE` it is the index of the character in the
        ``str`` being encoded.
    :param length: number of bytes concerned (characters for ``UNENCODABLE``); may be 0 for an
        issue about a position (e.g. a missing terminator).
    """

    kind: IssueKind
    offset: int
    length: int

    def to_json(self) -> dict[str, str | int]:
        """Return ``{"kind", "offset", "length"}`` with the kind's spec name, for JSON output."""
        return {"kind": self.kind.value, "offset": self.offset, "length": self.length}


#: How many issues a :class:`BoundedIssues` keeps by default, after merging runs. The message
#: layer keeps one per header field or body part; 100 is what its transfer decoders already
#: stop at (``MAX_ISSUES_PER_BODY``): a report for a person, who learns nothing new from the
#: 101st issue of one field, while the count and the span of the rest stay exact.
MAX_ISSUES = 100


class BoundedIssues(list[TextIssue]):
    """An issue list that merges runs and keeps at most :attr:`limit` issues (issue 16).

    Pass it wherever a decoder takes ``issues``: it is a ``list`` of :class:`TextIssue`, so the
    decoders accept it and the caller reads it as one; decoders only ``append`` and ``extend``
    (ADR 0016). A plain list keeps getting one issue per error, with exact offsets (spec 000);
    this class is the caller's choice of a bounded report of the same issues:

    * **Runs merge.** An issue whose ``offset`` is where the previous issue *of the same kind*
      ended (its ``offset + length``) extends that issue: a run of adjacent damage of one kind
      is one issue with the run's offset and length. Both must have a length above 0 (an
      issue of length 0 marks a position: it is kept as it is and ends the kind's run).
    * **Bounded.** At most :attr:`limit` issues are kept, in the order their first error was
      added. After that, issues that do not continue a kept run are dropped and counted in
      :attr:`dropped` (as merged issues: a dropped run counts once), and the list ends with one
      more issue, ``TooManyIssues``, whose ``offset`` is the smallest offset dropped and whose
      ``offset + length`` the largest end (it is replaced as more are dropped). So the list
      never holds more than ``limit + 1`` issues.

    Offsets and lengths are exact: the kept issues are exactly what feeding each issue to
    ``append`` in turn gives, whether a decoder adds errors one by one or as runs
    (:meth:`add_run`; property-tested against plain lists for every charset).

    :param limit: issues to keep before dropping (default :data:`MAX_ISSUES`), an ``int`` >= 0.
    :raises TypeError: ``limit`` is not an int.
    :raises ValueError: ``limit`` is negative.

    >>> issues = BoundedIssues(limit=2)
    >>> from onemail.text import for_label
    >>> for_label("utf-8").decode(b"a\\xff\\xffb\\xc3c\\xffd\\xff", issues)
    'a\ufffd\ufffdb\ufffdc\ufffdd\ufffd'
    >>> [i.to_json() for i in issues], issues.dropped
    ([{'kind': 'InvalidUtf8', 'offset': 1, 'length': 2}, {'kind': 'InvalidUtf8', 'offset': 4, \
'length': 1}, {'kind': 'TooManyIssues', 'offset': 6, 'length': 3}], 2)
    """

    __slots__ = ("limit", "dropped", "_last", "_span")

    def __init__(self, *, limit: int = MAX_ISSUES) -> None:
        if not isinstance(limit, int) or isinstance(limit, bool):
            raise TypeError(f"limit must be an int, not {type(limit).__name__}")
        if limit < 0:
            raise ValueError(f"limit must be >= 0, not {limit}")
        super().__init__()
        #: The most issues kept (the list then holds one more: ``TooManyIssues``).
        self.limit = limit
        #: How many issues (after merging runs) were dropped; 0 while nothing was.
        self.dropped = 0
        # id(kind) -> [end of its last issue, its index in the list, or -1 if it was dropped]
        self._last: dict[int, list[int]] = {}
        self._span: list[int] | None = None  # [first offset, last end] of the dropped issues

    def append(self, issue: TextIssue) -> None:
        """Add one issue (merged into its kind's run, kept, or counted as dropped)."""
        self.add_run(issue.kind, issue.offset, issue.length, issue=issue)

    def extend(self, issues: Iterable[TextIssue]) -> None:
        """Add each issue of the iterable ``issues`` in turn, as :meth:`append` does.

        Another :class:`BoundedIssues` (a trial decode the caller keeps) brings its kept issues
        and its dropped ones: they stay dropped, counted and spanned here.
        """
        if isinstance(issues, BoundedIssues) and issues.dropped:
            self.extend(list.__getitem__(issues, slice(0, issues.limit)))
            assert issues._span is not None  # noqa: SLF001 - the same class; set when dropped
            start, end = issues._span  # noqa: SLF001 - the same class
            self.dropped += issues.dropped
            if self._span is None:
                self._span = [start, end]
            else:
                self._span = [min(start, self._span[0]), max(end, self._span[1])]
            self._mark()
            return
        add = self._add
        dirty = False
        for issue in issues:
            if add(issue.kind, issue.offset, issue.length, issue):
                dirty = True
        if dirty:
            self._mark()

    def __iadd__(self, issues: Iterable[TextIssue]) -> BoundedIssues:  # type: ignore[override,misc]
        self.extend(issues)
        return self

    def add_run(self, kind: IssueKind, offset: int, length: int, *, issue: TextIssue | None = None) -> None:
        """Add the errors of one run: the same as appending ``TextIssue(kind, offset, length)``.

        :param kind: the issue kind (any of the three vocabularies).
        :param offset: byte offset of the run's first byte.
        :param length: bytes the run covers (0 for a position).
        :param issue: the issue itself when the caller has one (kept as it is).
        """
        if self._add(kind, offset, length, issue):
            self._mark()

    def add_runs(self, kind: IssueKind, runs: Iterable[tuple[int, int]]) -> None:
        """Add ``(offset, length)`` runs of one kind in turn, as :meth:`add_run` does each.

        Decoders that find damage in runs call this once per decode (``report`` in
        ``onemail.text._codecs``), so no issue object is made for an error that is merged or
        dropped, and the ``TooManyIssues`` issue is written once.
        """
        add = self._add
        dirty = False
        for offset, length in runs:
            if add(kind, offset, length, None):
                dirty = True
        if dirty:
            self._mark()

    def _add(self, kind: IssueKind, offset: int, length: int, issue: TextIssue | None) -> bool:
        """Add one run; return True when the dropped span changed (``_mark`` is then due)."""
        key = id(kind)  # enum members hash in Python; their identity is what counts here
        last = self._last.get(key)
        if last is not None and length and last[0] == offset:
            end = offset + length
            last[0] = end
            index = last[1]
            if index >= 0:
                first = list.__getitem__(self, index).offset
                list.__setitem__(self, index, TextIssue(kind, first, end - first))
                return False
            assert self._span is not None  # a dropped run (index -1) set the span
            if end > self._span[1]:
                self._span[1] = end
                return True
            return False
        span = self._span
        if span is None and list.__len__(self) < self.limit:
            if length:
                self._last[key] = [offset + length, list.__len__(self)]
            else:
                self._last.pop(key, None)
            list.append(self, issue if issue is not None else TextIssue(kind, offset, length))
            return False
        self.dropped += 1
        if length:
            self._last[key] = [offset + length, -1]
        else:
            self._last.pop(key, None)
        if span is None:
            self._span = [offset, offset + length]
        else:
            if offset < span[0]:
                span[0] = offset
            if offset + length > span[1]:
                span[1] = offset + length
        return True

    def _mark(self) -> None:
        """Write the ``TooManyIssues`` issue for the dropped span at the end of the list."""
        assert self._span is not None  # called only after a drop
        start, end = self._span
        final = TextIssue(IssueKind.TOO_MANY_ISSUES, start, end - start)
        if list.__len__(self) > self.limit:
            list.__setitem__(self, self.limit, final)
        else:
            list.append(self, final)

    def clear(self) -> None:
        """Forget every issue, the runs and the count (to start a new header or part)."""
        list.clear(self)
        self.dropped = 0
        self._last = {}
        self._span = None

    def __reduce__(self) -> tuple[type[list[TextIssue]], tuple[list[TextIssue]]]:
        # Pickled (and copied) as a plain list of its issues: the runs and the count are a
        # matter of the accumulation, not of the result.
        return (list, (list(self),))

    def _refuse(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("BoundedIssues only grows: use append, extend or add_run")

    insert = pop = remove = sort = reverse = __setitem__ = __delitem__ = __imul__ = _refuse
