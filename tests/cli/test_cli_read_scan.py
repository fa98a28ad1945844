"""``onemail read`` and ``onemail scan`` over containers (issue 14 item 4) and safe output
(issue 16 item 8): message N of M, --index/--all, standard input and FIFOs, JSON lines, --list,
skipped paths by reason, escaped names and values, cut parts, exit codes."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
import zipfile

import pytest
from paths import CORPUS

from onemail.cli import main

ENV = b"From a@b.example Sat Jan  1 00:00:00 2000\n"


def _mail(subject: str, body: str = "body") -> bytes:
    return f"Subject: {subject}\nFrom: a@b.example\n\n{body}\n".encode()


BOX = b"".join(ENV + _mail(s) + b"\n" for s in ("one", "two", "three"))


def _onemail() -> list[str]:
    exe = shutil.which("onemail")
    return [exe] if exe else [sys.executable, "-m", "onemail.cli"]


def _run(*args, stdin: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run([*_onemail(), *map(str, args)], input=stdin, capture_output=True,
                          timeout=120, check=False)


def _lines(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines()]


# -- read ---------------------------------------------------------------------------------


def test_read_says_message_n_of_m_and_takes_index_and_all(tmp_path, capsys):
    (tmp_path / "box").write_bytes(BOX)
    assert main(["read", str(tmp_path / "box")]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"== message 1 of 3: {tmp_path / 'box'} #1\nformat: mbox\nsubject: one\n")
    assert main(["read", str(tmp_path / "box"), "--index", "3"]) == 0
    assert "== message 3 of 3" in (out := capsys.readouterr().out) and "subject: three" in out
    assert main(["read", str(tmp_path / "box"), "--all"]) == 0
    out = capsys.readouterr().out
    assert [line for line in out.splitlines() if line.startswith("==")] == [
        f"== message {i} of 3: {tmp_path / 'box'} #{i}" for i in (1, 2, 3)]
    assert main(["read", str(tmp_path / "box"), "--index", "4"]) == 2
    assert capsys.readouterr().err == f"onemail read: error: --index 4, but {tmp_path / 'box'} holds 3 messages\n"
    assert main(["read", str(tmp_path / "box"), "--index", "0"]) == 2


def test_read_json_all_is_json_lines_with_places(tmp_path, capsys):
    (tmp_path / "box").write_bytes(BOX)
    assert main(["read", str(tmp_path / "box"), "--all", "--json"]) == 0
    rows = _lines(capsys.readouterr().out)
    assert [(r["number"], r["of"], r["subject"], r["source"]["index"]) for r in rows] == [
        (1, 3, "one", 0), (2, 3, "two", 1), (3, 3, "three", 2)]
    assert main(["read", str(tmp_path / "box"), "--index", "2", "--json"]) == 0
    one = json.loads(capsys.readouterr().out)
    assert one["source"] == {"path": str(tmp_path / "box"), "container": "mbox", "index": 1,
                             "offset": BOX.index(b"Subject: two"), "length": len(_mail("two"))}


def test_read_a_maildir_and_a_single_file(tmp_path, capsys):
    for sub in ("cur", "new", "tmp"):
        (tmp_path / sub).mkdir()
    (tmp_path / "cur" / "1.host:2,S").write_bytes(_mail("seen"))
    (tmp_path / "new" / "2.host").write_bytes(_mail("new"))
    assert main(["read", str(tmp_path), "--index", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"== message 2 of 2: {tmp_path}/new/2.host\nformat: rfc822\nsubject: new\n")
    assert main(["read", str(tmp_path / "cur" / "1.host:2,S")]) == 0
    assert capsys.readouterr().out.startswith("format: rfc822\nsubject: seen\n")  # one: no header line


def test_read_pst(capsys):
    pytest.importorskip("pypff", reason="the optional extra onemail[pst] is not installed")
    path = CORPUS / "pst" / "tika-testPST.pst"
    assert main(["read", str(path), "--index", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"== message 1 of 7: {path}:Début du fichier de données Outlook #1\n"
                          "format: pst\nsubject: Re: Feature Generators\nfrom: Jörn Kottmann <kottmann@gmail.com>\n")


def test_read_standard_input_and_a_fifo():
    proc = _run("read", "-", "--index", "2", stdin=gzip.compress(BOX))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.decode().startswith("== message 2 of 3: - #2\nformat: mbox\nsubject: two\n")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs POSIX FIFOs")
@pytest.mark.parametrize("command", [["read", "--index", "3"], ["scan", "--json"], ["detect"]])
def test_fifo_for_every_command(tmp_path, command):
    from fifo import fed_fifo

    with fed_fifo(tmp_path, BOX, step=50) as fifo:
        proc = subprocess.Popen([*_onemail(), command[0], str(fifo), *command[1:]],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    text = out.decode()
    if command[0] == "read":
        assert "== message 3 of 3" in text and "subject: three" in text
    elif command[0] == "scan":
        assert _lines(text)[-1]["messages"] == 3
    else:
        assert text.startswith(f"{fifo}: ")


@pytest.mark.parametrize("command", [["scan", "-", "--json"], ["detect", "-", "--json"]])
def test_standard_input_for_scan_and_detect(command):
    proc = _run(*command, stdin=BOX)
    assert proc.returncode == 0, proc.stderr
    rows = _lines(proc.stdout.decode())
    if command[0] == "scan":
        assert [(r["source"]["path"], r["subject"]) for r in rows[:-1]] == [("-", "one"), ("-", "two"),
                                                                             ("-", "three")]
    else:
        assert [(r["path"], r["binary"], r["error"]) for r in rows] == [("-", False, None)]


# -- scan -----------------------------------------------------------------------------------


def test_scan_finds_mail_without_suffixes_and_names_skips_by_reason(tmp_path, capsys):
    maildir = tmp_path / "Maildir"
    for sub in ("cur", "new", "tmp"):
        (maildir / sub).mkdir(parents=True)
    (maildir / "cur" / "1.host:2,S").write_bytes(_mail("a"))
    (maildir / "tmp" / "3.host").write_bytes(_mail("c"))
    (tmp_path / "notes").write_bytes(b"shopping list\n")
    assert main(["scan", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    head = dict(line.rsplit(None, 1) for line in out.splitlines()[:6])
    assert head == {"files": "2", "messages": "1", "parts": "1", "failures (messages not readable)": "0",
                    "not read (unreadable, damaged, ...)": "0", "skipped (no mail to read)": "2"}
    assert (f"\nskipped, by reason\n  incomplete{1:>36}\n    {maildir}/tmp/3.host: a Maildir tmp/ file: "
            "a message still being delivered\n") in out
    assert f"  not-mail{1:>38}\n    {tmp_path}/notes: no message" in out


def test_scan_json_lines_then_summary(tmp_path, capsys):
    (tmp_path / "box").write_bytes(BOX.replace(b"\n\nbody", b"\n\n>From quoted\nbody", 1))
    assert main(["scan", str(tmp_path / "box"), "--json"]) == 0
    rows = _lines(capsys.readouterr().out)
    assert [r["type"] for r in rows] == ["message"] * 3 + ["summary"]
    assert rows[0] == {"type": "message", "source": {"path": str(tmp_path / "box"), "container": "mbox",
                                                      "index": 0, "offset": len(ENV),
                                                      "length": len(_mail("one")) + 13},
                       "subject": "one", "error": None, "parts": 1,
                       "issues": {"AmbiguousMboxQuoting": 1}, "charsets": {"us-ascii (default)": 1}}
    assert rows[-1]["issues"] == {"AmbiguousMboxQuoting": 1}
    assert rows[-1]["skipped"] == {} and rows[-1]["messages"] == 3


def test_scan_list_names_the_messages_behind_each_kind(tmp_path, capsys):
    (tmp_path / "box").write_bytes(BOX.replace(b"\n\nbody", b"\n\n>From quoted\nbody"))
    assert main(["scan", str(tmp_path), "--list"]) == 0
    out = capsys.readouterr().out
    assert (f"issues by kind\n  AmbiguousMboxQuoting{3:>26}\n    {tmp_path}/box #1\n"
            f"    {tmp_path}/box #2\n    {tmp_path}/box #3\n") in out


def test_exit_codes(tmp_path, capsys):
    (tmp_path / "README").write_bytes(b"# notes\n")
    assert main(["scan", str(tmp_path)]) == 0  # a file that is no mail beside the mail: fine
    assert main(["scan", str(tmp_path / "README")]) == 1  # named: it should have been mail
    capsys.readouterr()
    with zipfile.ZipFile(tmp_path / "z.zip", "w") as zf:
        zf.writestr("a.eml", _mail("a"))
        zf.writestr("b.eml", _mail("b"), compress_type=zipfile.ZIP_STORED)
    raw = bytearray((tmp_path / "z.zip").read_bytes())
    raw[raw.index(b"Subject: b") + 9] ^= 1
    (tmp_path / "z.zip").write_bytes(bytes(raw))
    assert main(["scan", str(tmp_path), "--json"]) == 1  # a damaged member
    summary = _lines(capsys.readouterr().out)[-1]
    assert summary["messages"] == 1 and summary["skipped"] == {"damaged": 1, "not-mail": 1}


def test_help_names_content_recognition_and_exit_codes(capsys):
    for command in ("read", "scan"):
        assert main([command, "--help"]) == 0
        text = " ".join(capsys.readouterr().out.split())
        assert "found by content, whatever the names" in text
        assert "exit codes: 0 done 1 " in text and "130 stopped by SIGINT (Ctrl-C) 143 stopped by SIGTERM" in text


def test_jobs_keep_the_lines_in_order(tmp_path, capsys):
    for i in range(12):
        (tmp_path / f"m{i}").write_bytes(_mail(f"s{i}"))
    assert main(["scan", str(tmp_path), "--json"]) == 0
    one = capsys.readouterr().out
    assert main(["scan", str(tmp_path), "--json", "--jobs", "2"]) == 0
    assert capsys.readouterr().out == one
    assert [r["subject"] for r in _lines(one)[:-1]] == [f"s{i}" for i in range(12)]


# -- safe output (issue 16 item 8) ---------------------------------------------------------


FORGED = "x\nmessages                                     999\n\x1b[2J\x1b]52;c;SGk=\x07\u202e"


def _no_raw_controls(text: str) -> None:
    assert not any(ch in text for ch in "\x1b\x07\u202e\r"), repr(text)
    assert "\nmessages                                     999" not in text


def test_file_names_cannot_forge_scan_lines(tmp_path, capsys):
    (tmp_path / f"a{FORGED}").write_bytes(b"\x89PNG\r\n\x1a\n")  # skipped: its name is printed
    (tmp_path / f"b{FORGED}.eml").write_bytes(b"\x00\x01")  # a failure: its name is printed
    with zipfile.ZipFile(tmp_path / "z.zip", "w") as zf:
        zf.writestr(f"c{FORGED}", b"binary\x00")
    assert main(["scan", str(tmp_path), "--list"]) == 1
    out = capsys.readouterr().out
    _no_raw_controls(out)
    assert "a x\\nmessages" not in out and "/ax\\nmessages" in out and "\\x1b[2J\\x1b]52;c;SGk=\\x07\\u202e" in out


def test_header_values_and_file_names_cannot_forge_read_lines(tmp_path, capsys):
    mail = (b"Subject: hi\x1b[2J there\r\nX-Evil: a\rb\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n"
            b"--b\r\nContent-Type: text/plain\r\n\r\nline 1\r\n\x1b]8;;http://x\x07link\r\n"
            b"--b\r\nContent-Type: application/octet-stream\r\n"
            b"Content-Disposition: attachment; filename*=utf-8''evil%0Aformat%3A%20forged%1B%5B1A.bin\r\n\r\n"
            b"\x1b[2J\x00\x01binary\r\n--b--\r\n")
    (tmp_path / f"m{FORGED}.eml").write_bytes(mail)
    assert main(["read", str(tmp_path / f"m{FORGED}.eml")]) == 0
    out = capsys.readouterr().out
    assert "subject: hi\\x1b[2J there\n" in out
    assert "X-Evil: a\\rb\n" in out
    assert "filename='evil\\nformat: forged\\x1b[1A.bin'  12 bytes]\n" in out
    assert "\nformat: forged" not in out
    assert "binary" not in out  # the octet-stream part is never printed
    # body text is escaped on a pipe (capsys) too: read's human form is a view, not data
    assert "line 1\n\\x1b]8;;http://x\\x07link\n" in out
    _no_raw_controls(out)


def test_long_parts_are_cut_with_a_note(tmp_path, capsys):
    body = "\n".join(f"line {i:05d} " + "x" * 60 for i in range(1000))
    (tmp_path / "long.eml").write_bytes(_mail("long", body))
    assert main(["read", str(tmp_path / "long.eml")]) == 0
    out = capsys.readouterr().out
    assert "line 00000" in out and "line 00999" not in out
    shown = out.count("\nline ")
    assert shown == 20_000 // 72  # whole lines up to TEXT_CHARS (72 characters a line)
    assert f"... ({len(body) + 1 - shown * 72} more characters; --full or --json for all)\n" in out
    assert main(["read", str(tmp_path / "long.eml"), "--full"]) == 0
    assert "line 00999" in capsys.readouterr().out


@pytest.mark.parametrize("tty", [True, False])
def test_body_text_is_escaped_on_a_terminal_and_a_pipe(tmp_path, capsys, monkeypatch, tty):
    (tmp_path / "m.eml").write_bytes(b"Subject: t\r\n\r\nline 1\r\n\x1b]52;c;SGk=\x07line 2\rover\r\n")
    monkeypatch.setattr(sys.stdout, "isatty", lambda: tty)
    assert main(["read", str(tmp_path / "m.eml")]) == 0
    out = capsys.readouterr().out
    assert "\nline 1\n\\x1b]52;c;SGk=\\x07line 2\\rover\n" in out
    _no_raw_controls(out)


def test_read_shows_a_plain_rtf_body_as_its_text_and_json_keeps_the_rtf(capsys):
    """``read`` printed an Outlook RTF body as its first twelve lines of RTF source; it now
    prints the text made from it (export's ``body_text``), the RTF itself with ``--json``."""
    path = CORPUS / "mail" / "hiraoka-msgreader" / "test__A_memo.msg"
    assert main(["read", str(path)]) == 0
    out = capsys.readouterr().out
    rtf_part = out[out.index("[body.rtf  text/rtf"):]
    assert rtf_part.split("\n")[1:3] == [
        "A memo.", "(text made from the RTF, as export's body_text; the RTF itself: --json)"]
    assert "\\rtf1" not in out
    assert main(["read", "--json", str(path)]) == 0
    (rtf,) = [p for p in json.loads(capsys.readouterr().out)["parts"] if p.get("is_rtf")]
    assert rtf["text"].startswith("{\\rtf1\\ansi\\ansicpg932")
