"""``onemail header`` and ``onemail param`` (human and JSON output)."""

from __future__ import annotations

import json

from onemail.cli import main


def test_header_human(capsys):
    assert main(["header", "=?utf-8?q?caf=C3=A9?= =?utf-8?b?YQ?="]) == 0
    assert capsys.readouterr().out == "caféa\nInvalidBase64 at byte 32, 2 byte(s)\n"


def test_header_json(capsys):
    assert main(["header", "--json", "=?x-foo?q?=E9?="]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "text": "é", "issues": [{"kind": "AmbiguousUnknownCharset", "offset": 10, "length": 3}]}


def test_param_human(capsys):
    assert main(["param", "attachment; filename*=utf-8''%E2%82%AC.txt; size=3"]) == 0
    assert capsys.readouterr().out == (
        "attachment\n  filename = '€.txt' (extended, charset utf-8)\n  size = '3' (plain)\n")


def test_param_json(capsys):
    assert main(["param", "--json", "text/plain; name*=x''%zz"]) == 0
    assert json.loads(capsys.readouterr().out) == {"value": "text/plain", "parameters": [
        {"name": "name", "value": "%zz", "charset": "utf-8", "language": None,
         "method": "extended", "issues": [
             {"kind": "InvalidPercentEscape", "offset": 21, "length": 1},
             {"kind": "AmbiguousUnknownCharset", "offset": 21, "length": 3}]}]}


def test_unknown_fallback_is_a_usage_error(capsys):
    assert main(["header", "--fallback", "nope", "x"]) == 2
