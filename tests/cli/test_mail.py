"""``onemail read`` and ``onemail scan``: exit codes, JSON output, the bundled examples."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest
from paths import REPO

from onemail.cli import main

EXAMPLES = REPO / "examples"


def _onemail() -> list[str]:
    exe = shutil.which("onemail")
    return [exe] if exe else [sys.executable, "-m", "onemail.cli"]


def test_scan_examples_json_subprocess():
    proc = subprocess.run([*_onemail(), "scan", str(EXAMPLES), "--json"], capture_output=True,
                          text=True, encoding="utf-8", timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    out = lines[-1]
    assert [line["type"] for line in lines] == ["skipped"] + ["message"] * 6 + ["summary"]
    assert (out["files"], out["messages"], out["parts"]) == (7, 6, 7)  # NOTICE: not mail
    assert out["failures"] == [] and out["unreadable"] == [] and out["skipped"] == {"not-mail": 1}
    assert out["charsets"] == {"euc-kr (declared)": 1, "iso-2022-jp (declared)": 1,
                               "shift_jis (declared)": 1, "us-ascii (default)": 1,
                               "windows-1252 (declared)": 1}
    assert out["issues"] == {"AmbiguousEncodedWordInQuotedString": 1}


def test_scan_jobs_2_same_summary(capsys):
    assert main(["scan", str(EXAMPLES), "--json"]) == 0
    one = capsys.readouterr().out
    assert main(["scan", str(EXAMPLES), "--json", "--jobs", "2"]) == 0
    assert capsys.readouterr().out == one  # every line, in the same order


def test_scan_reports_unreadable_and_junk(tmp_path, capsys):
    (tmp_path / "junk.eml").write_bytes(b"\x00\x01\x02" * 100)
    (tmp_path / "ok.eml").write_bytes(b"Subject: ok\r\n\r\nbody\r\n")
    (tmp_path / "found.txt").write_bytes(b"Subject: found by content\r\n\r\n")
    assert main(["scan", str(tmp_path), str(tmp_path / "missing.eml"), "--json"]) == 1
    out = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert (out["files"], out["messages"], out["parts"]) == (3, 3, 2)
    assert out["failures"] == [{"path": str(tmp_path / "junk.eml"),
                                "source": {"path": str(tmp_path), "container": "eml", "member": "junk.eml",
                                           "index": 0, "offset": 0, "length": 300},
                                "error": "not a message: no header, mbox, Outlook .msg or TNEF signature"}]
    assert out["unreadable"] == [{"path": str(tmp_path / "missing.eml"), "reason": "unreadable",
                                  "error": "No such file or directory"}]


def test_scan_human_summary(capsys):
    assert main(["scan", str(EXAMPLES)]) == 0
    out = capsys.readouterr().out
    assert "messages" in out and "charsets (how chosen)" in out and "iso-2022-jp (declared)" in out


def test_scan_human_counts_do_not_overlap(tmp_path, capsys):
    """A path not read is counted once, under "not read", not again under "skipped"; the three
    rows add up to the lines of the two by-reason sections and the failures."""
    (tmp_path / "ok.eml").write_bytes(b"Subject: ok\r\n\r\nbody\r\n")
    (tmp_path / "junk.eml").write_bytes(b"\x00\x01\x02" * 100)
    (tmp_path / "notes").write_bytes(b"shopping list\n")
    (tmp_path / "empty").write_bytes(b"")
    missing = tmp_path / "missing.eml"
    assert main(["scan", str(tmp_path), str(missing)]) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[:6] == [
        f"{'files':<40}{4:>8}", f"{'messages':<40}{2:>8}", f"{'parts':<40}{1:>8}",
        f"{'failures (messages not readable)':<40}{1:>8}",
        f"{'not read (unreadable, damaged, ...)':<40}{1:>8}",
        f"{'skipped (no mail to read)':<40}{2:>8}"]
    assert (f"\nnot read, by reason\n  {'unreadable':<38}{1:>8}\n    {missing}: No such file or "
            f"directory\n\nskipped, by reason\n  {'empty':<38}{1:>8}\n    {tmp_path / 'empty'}: ") in out
    assert f"  {'not-mail':<38}{1:>8}\n    {tmp_path / 'notes'}: no message" in out


def test_read_json(capsys):
    assert main(["read", str(EXAMPLES / "jpmobile-docomo-jis.eml"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["format"] == "rfc822"
    assert out["parts"][0]["charset"] == "iso-2022-jp"
    assert out["parts"][0]["charset_source"] == "declared"


def test_read_human(capsys):
    assert main(["read", str(EXAMPLES / "ruby-msg-test_Blammo.msg")]) == 0
    out = capsys.readouterr().out
    assert "subject: BlammoBlammo" in out and "from PidTagRtfCompressed" in out


def test_read_missing_file(tmp_path, capsys):
    assert main(["read", str(tmp_path / "nope.eml")]) == 1
    assert "nope.eml" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["scan"], ["scan", "x", "--jobs", "0"], ["read"]])
def test_usage_errors(argv, capsys):
    assert main(argv) == 2


def test_read_shows_suspected_mojibake_with_its_chain(tmp_path, capsys):
    """Issue 17 item 5: ``read`` lists each SuspectedMojibake issue and, under it, the chain
    that would fix each place (before, the chain was only in --json); the text as decoded."""
    path = tmp_path / "m.eml"
    body = "メール".encode().decode("windows-1252").encode()  # ãƒ¡ãƒ¼ãƒ«, declared UTF-8
    path.write_bytes(b"Subject: test\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + body)
    assert main(["read", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.endswith("\u00e3\u0192\u00a1\u00e3\u0192\u00bc\u00e3\u0192\u00ab\n-- issues (1)\n"
                        "SuspectedMojibake in part:1 at byte 0, 18 byte(s)\n"
                        "-- suspected mojibake, not repaired (1; --repair applies it)\n"
                        "part:1: windows-1252 -> utf-8\n")
    assert main(["scan", str(path)]) == 0
    assert "  SuspectedMojibake                            1\n" in capsys.readouterr().out


def test_read_repair(tmp_path, capsys):
    path = tmp_path / "m.eml"
    path.write_bytes("Subject: cafÃ©\r\n\r\nhello\r\n".encode())
    assert main(["read", str(path), "--repair"]) == 0
    out = capsys.readouterr().out
    assert "subject: café" in out and "header:Subject: windows-1252 -> utf-8" in out
    assert main(["read", str(path), "--repair", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["repairs"] == [
        ["header:Subject", [["windows-1252", "utf-8"]]], ["subject", [["windows-1252", "utf-8"]]]]


def test_scan_jobs_capped_at_usable_cpus(monkeypatch, capsys):
    """More workers than CPUs only cost time: with one CPU, --jobs 4 runs in this process."""
    import multiprocessing

    from onemail._cli import _pool

    monkeypatch.setattr(_pool, "usable_cpus", lambda: 1)
    monkeypatch.setattr(multiprocessing, "Pool", None)  # calling it would fail the test
    assert main(["scan", str(EXAMPLES), "--json", "--jobs", "4"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["messages"] == 6


def _box(path, n: int) -> int:
    """An mbox of ``n`` small messages; its size."""
    msg = b"From a@b Sat Jan  1 00:00:00 2000\nSubject: hello %d\nFrom: a@example.org\n\nbody\n"
    with open(path, "wb") as f:
        for i in range(n):
            f.write(msg % i)
    return path.stat().st_size


def test_scan_memory_does_not_grow_with_the_messages(tmp_path):
    """The sequential scan keeps counts, not a line per message (it held every line of a file
    until the file's end: 137 MiB more for a 1 GB mbox than for 200 MB). Traced memory at its
    peak, for 4 times the messages, grows by the file's own bytes (read whole below
    ``formats.MMAP_BYTES``) and a little slack, not by the lines."""
    import tracemalloc

    from onemail._cli.mail import scan

    def peak(path) -> int:
        tracemalloc.start()
        try:
            assert scan([str(path)])["messages"] > 0
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    small, large = tmp_path / "small.mbox", tmp_path / "large.mbox"
    grown = _box(large, 1200) - _box(small, 300)
    peak(small)  # imports and first-use tables, outside the measure
    assert peak(large) - peak(small) < grown + (256 << 10)


def test_progress_counts_messages_not_skipped_items(tmp_path):
    """Fresh-user report F13: scan's progress line counted skipped items as messages (200009
    against the summary's 200006 messages and 3 skipped)."""
    from onemail._cli.mail import _chunk_messages, fold
    from onemail.message.containers import walk

    (tmp_path / "a.eml").write_bytes(b"Subject: a\n\nx\n")
    (tmp_path / "b.eml").write_bytes(b"Subject: b\n\nx\n")
    (tmp_path / "notes.bin").write_bytes(b"\x00\x01 no mail")
    (chunk,) = fold(walk([tmp_path]), text=False, listing=False)
    assert (chunk.lines, _chunk_messages(chunk)) == (3, 2)
