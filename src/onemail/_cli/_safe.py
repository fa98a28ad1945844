"""Terminal-safe human output: values from the input never forge lines or drive the terminal.

Issue 16 item 8: a file name, header value or parameter printed raw in a human summary can hold
a line end (a forged line of the summary), an escape sequence (``ESC [ 2 J`` clears the screen;
OSC 8 writes a link; OSC 52 writes the clipboard) or a bidirectional override that reorders
what is shown. Every command module prints values that come from the input through
:func:`escape_for_terminal`; ``--json`` output stays exact (JSON escapes C0 controls itself,
and ``_jsonout.dumps`` the rest of this set as ``\\uXXXX``: the same value).

The escaped form is for display, in Python's spelling (``\\n``, ``\\x1b``, ``\\u202e``); it is
not meant to be read back: a backslash of the value itself is written as it is.
"""

from __future__ import annotations

import re
from typing import TextIO

#: Characters that move the cursor, end a line, start a control sequence or reorder text:
#: C0 controls, DEL and C1 controls (general category Cc), the line and paragraph separators
#: (Zl, Zp) and the bidirectional formatting characters (Unicode UAX #9: ALM, LRM, RLM,
#: LRE..RLO, LRI..PDI); lone surrogates, which a UTF-8 terminal cannot be sent at all
#: (``surrogateescape`` paths hold them for undecodable bytes).
_OTHER = "\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff"
_UNSAFE_RE = re.compile(f"[\x00-\x1f\x7f-\x9f{_OTHER}]")
#: The same, but line ends (LF, CR LF) and tabs stay: for multi-line text written to a terminal.
_UNSAFE_KEEP_LINES_RE = re.compile(f"\r(?!\n)|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f{_OTHER}]")
_SHORT = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _spell(ch: str) -> str:
    """The escaped spelling of one unsafe character."""
    cp = ord(ch)
    if ch in _SHORT:
        return _SHORT[ch]
    if cp <= 0xFF:
        return f"\\x{cp:02x}"
    if 0xDC80 <= cp <= 0xDCFF:  # surrogateescape: the undecodable byte it stands for
        return f"\\x{cp - 0xDC00:02x}"
    return f"\\u{cp:04x}"


def escape_for_terminal(text: str, *, keep_lines: bool = False) -> str:
    """Return ``text`` with every character that could forge output or drive a terminal escaped.

    :param text: a value to show (a ``str``; file names decoded with ``surrogateescape`` are
        fine: their surrogates U+DC80..U+DCFF are shown as the bytes ``\\x80``..``\\xff``).
    :param keep_lines: keep LF, CR LF and TAB (multi-line text such as a decoded body written
        to a terminal); a lone CR, which overwrites the line, is still escaped.
    :returns: ``text`` itself when nothing needs escaping, else a copy in which each C0/C1
        control character and DEL is ``\\n``, ``\\r``, ``\\t`` or ``\\xNN``, each line or
        paragraph separator, bidirectional formatting character or lone surrogate ``\\uNNNN``
        (``\\xNN`` for ``surrogateescape`` bytes). Time linear in ``len(text)``.
    :raises TypeError: ``text`` is not a ``str``.
    """
    if not isinstance(text, str):
        raise TypeError(f"escape_for_terminal: text must be str, not {type(text).__name__}")
    pattern = _UNSAFE_KEEP_LINES_RE if keep_lines else _UNSAFE_RE
    if pattern.search(text) is None:
        return text
    return pattern.sub(lambda m: _spell(m.group()), text)


def for_stream(text: str, stream: TextIO) -> str:
    """``text`` as it should be written to ``stream``: escaped (lines kept) when ``stream`` is a
    terminal, exact otherwise (a pipe or a file gets the command's output unchanged).

    :param text: multi-line output text (a decoded body, repaired text).
    :param stream: a text stream (``sys.stdout``); one without ``isatty`` counts as no terminal.
    """
    isatty = getattr(stream, "isatty", None)
    return escape_for_terminal(text, keep_lines=True) if isatty is not None and isatty() else text
