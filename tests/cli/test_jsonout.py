"""``onemail._cli._jsonout.json_pieces``: the JSON text of ``json.dumps``, a long string escaped a
slice at a time (a body of NULs is six times longer escaped: written whole, it cost 1.4 GB in
``onemail export`` for 64 MiB)."""

from __future__ import annotations

import json
import tracemalloc

import pytest

from onemail._cli._jsonout import LONG, SLICE, json_pieces

LONG_NULS = "\0" * (SLICE * 2 + 5)
VALUES = [
    {"body_text": LONG_NULS, "body_html": "é\"\\\n" * (SLICE // 2), "to": [{"name": "x" * (LONG + 1)}],
     "n": 3, "f": 1.5, "none": None, "ok": True},
    ["a", ("b", "c" * (LONG + 7)), {"k": "\udcff" * (LONG * 3)}, "\ud83d" + "\ude00" * LONG],
    "x" * (LONG + 1),
    "short",
    {"nested": {"deeper": [LONG_NULS[: LONG + 1]]}},
    [],
]


@pytest.mark.parametrize("value", VALUES)
@pytest.mark.parametrize(("indent", "separators"), [(None, None), (1, None), (None, (",", ":"))])
def test_the_pieces_are_the_text_of_json_dumps(value, indent, separators):
    pieces = list(json_pieces(value, indent=indent, separators=separators))
    assert "".join(pieces) == json.dumps(value, ensure_ascii=False, indent=indent, separators=separators)
    assert max(len(p) for p in pieces) <= max(6 * SLICE, 6 * LONG * 20)


def test_a_long_string_is_escaped_a_slice_at_a_time():
    pieces = list(json_pieces({"body_text": LONG_NULS}))
    assert len(pieces) >= 4 and max(len(p) for p in pieces) == 6 * SLICE  # "\u0000" each


def test_a_string_of_the_input_cannot_pose_as_a_marker():
    """The marker of a lifted string is an unguessable token; any text of the input that looks
    like one is plain text."""
    value = {"a": "z" * (LONG + 1), "b": '"0"', "c": "0"}
    assert "".join(json_pieces(value)) == json.dumps(value, ensure_ascii=False)


def test_memory_is_a_slice_not_six_times_the_text():
    value = {"body_text": "\0" * (4 << 20)}
    tracemalloc.start()
    try:
        written = sum(len(p) for p in json_pieces(value))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert written == 6 * (4 << 20) + len('{"body_text": ""}')
    assert peak < 2 << 20  # json.dumps: 24 MiB of escaped text at once


def test_json_is_terminal_safe_and_the_same_value(tmp_path, capsys):
    """Fresh-user report F6: JSON leaves U+009B (a one-character CSI), U+202E and U+2028 as
    they are, so ``read --json`` on a terminal could be driven by a subject. Every JSON text
    onemail writes escapes them (``\\u009b``): the same value for a JSON reader."""
    import base64
    import json

    from onemail._cli._jsonout import dumps, terminal_safe
    from onemail.cli import main

    subject = "\u202eevil\u009b31m\u2028\x7f x é"
    assert dumps(subject) == '"\\u202eevil\\u009b31m\\u2028\\u007f x é"'
    assert json.loads(dumps(subject)) == subject
    assert "".join(json_pieces({"a": subject * 5000})) == dumps({"a": subject * 5000})
    assert terminal_safe('{"a": 1}') == '{"a": 1}'
    eml = tmp_path / "e.eml"
    eml.write_bytes(b"Subject: =?utf-8?b?" + base64.b64encode(subject.encode()) + b"?=\n\nx\n")
    for argv in (["read", "--json"], ["scan", "--json"], ["export"], ["read", "--json", "--all"]):
        main([*argv, str(eml)])
        out = capsys.readouterr().out
        assert not any(c in out for c in "\u202e\u009b\u2028\x7f"), argv
        first = out if argv == ["read", "--json"] else out.splitlines()[0]  # (indented: one value)
        assert json.loads(first)["subject"] == subject, argv
