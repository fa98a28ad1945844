"""``onemail rtf decompress|compress`` and the ``rtf`` group's extension hook."""

from __future__ import annotations

import json

from onemail._cli import rtf as rtf_cli
from onemail.cli import main
from onemail.rtf import compress, decompress

RTF = b"{\\rtf1\\ansi\\ansicpg1252\\pard hello world}\r\n"


def test_decompress_writes_the_rtf_and_reports(tmp_path, capsys):
    src = tmp_path / "body.bin"
    src.write_bytes(compress(RTF) + b"xx")  # COMPSIZE no longer matches
    out = tmp_path / "body.rtf"
    assert main(["rtf", "decompress", str(src), "-o", str(out)]) == 0
    assert out.read_bytes() == RTF
    err = capsys.readouterr().err
    assert "LZFu stream, 51 bytes -> 43 bytes of RTF; CRC verified; 1 defect(s)" in err
    assert "CompressedSizeMismatch at byte 0, 4 byte(s)" in err


def test_decompress_json_and_stdout(tmp_path, capsys):
    src = tmp_path / "body.bin"
    src.write_bytes(compress(RTF))
    assert main(["rtf", "decompress", "--json", str(src), "-o", str(tmp_path / "x.rtf")]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report == {"type": "LZFu", "input_bytes": 49, "output_bytes": 43,
                      "crc_verified": True, "defects": []}


def test_decompress_limit_and_missing_file(tmp_path, capsys):
    src = tmp_path / "body.bin"
    src.write_bytes(compress(RTF))
    assert main(["rtf", "decompress", "--max-output", "10", str(src), "-o", str(tmp_path / "o")]) == 0
    assert "OutputLimitExceeded at byte 4, 4 byte(s)" in capsys.readouterr().err
    assert main(["rtf", "decompress", str(tmp_path / "missing.bin")]) == 1


def test_compress_round_trip(tmp_path):
    src = tmp_path / "body.rtf"
    src.write_bytes(RTF * 50)
    for flags in ([], ["--lazy"], ["--mela"]):
        out = tmp_path / "body.bin"
        assert main(["rtf", "compress", str(src), "-o", str(out), *flags]) == 0
        assert decompress(out.read_bytes()).data == RTF * 50


def test_group_without_subcommand_is_a_usage_error(capsys):
    assert main(["rtf"]) == 2


def test_other_modules_can_add_subcommands(capsys):
    def add_subparser(rtf_sub):
        p = rtf_sub.add_parser("hello", help="test")
        p.set_defaults(run=lambda args: 7)

    rtf_cli.add_subcommands(add_subparser)
    try:
        assert main(["rtf", "hello"]) == 7
    finally:
        rtf_cli._EXTRA.remove(add_subparser)
