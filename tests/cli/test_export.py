"""``onemail export``: JSON Lines and Parquet records, attachments on disk inside their folder,
standard input, exit codes."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest
from paths import CORPUS

from onemail.cli import main
from onemail.message import read
from onemail.message.records import build_records, record_id
from onemail.message.source import Source

MAIL = CORPUS / "mail"
HTML_ONLY = MAIL / "csdmc2010-spam-corpus" / "naive_bayes__data__TRAINING__TRAIN_02276.eml"

LONG = "a" * 10000
HOSTILE = ["../../etc/passwd", "CON", "a\x00b", LONG, "same.txt", "same.txt"]


def _hostile_message() -> bytes:
    """A message whose attachments carry the hostile names (RFC 2231 for the NUL)."""
    out = [b"From: a@example.org\r\nSubject: hostile names\r\nMIME-Version: 1.0\r\n"
           b"Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nbody\r\n"]
    for n, name in enumerate(HOSTILE):
        quoted = "".join(c if c.isalnum() or c in "./" else f"%{ord(c):02X}" for c in name)
        out.append(f"--b\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; "
                   f"filename*=utf-8''{quoted}\r\n\r\ndata{n}\r\n".encode())
    out.append(b"--b--\r\n")
    return b"".join(out)


def _run(argv, capsys) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_json_lines_to_standard_output_are_the_records(capsys):
    code, out, _ = _run(["export", str(HTML_ONLY)], capsys)
    assert code == 0
    lines = out.splitlines()
    from onemail.message.containers import walk

    (found,) = walk([HTML_ONLY])
    assert [json.loads(line) for line in lines] == build_records(found.message, found.source)
    assert lines[0].startswith('{"schema_version":1,"id":')


def test_python_dash_m_onemail_export_works():
    r = subprocess.run([sys.executable, "-m", "onemail", "export", str(HTML_ONLY)],
                       capture_output=True, timeout=120)
    assert r.returncode == 0, r.stderr
    (record,) = [json.loads(line) for line in r.stdout.splitlines()]
    assert record["body_text"].startswith("View Online <http://ea44e4e02.fiqogas.cn/>")
    assert b"1 messages, 1 records" in r.stderr


PLAIN = MAIL / "aerc" / "lib__jwz__testdata__0003.acfc5ad94bbd27118a0d8685d18c89dd.eml"


def test_standard_input_is_read(tmp_path):
    r = subprocess.run([sys.executable, "-m", "onemail", "export", "-"], input=PLAIN.read_bytes(),
                       capture_output=True, timeout=120)
    assert r.returncode == 0, r.stderr
    (record,) = [json.loads(line) for line in r.stdout.splitlines()]
    assert record["source"]["path"] == "-" and record["source"]["container"] == "stdin"
    assert record["subject"] == read(PLAIN).subject


def test_hostile_attachment_names_stay_inside_the_folder(tmp_path, capsys):
    box = tmp_path / "box"
    box.mkdir()
    (box / "hostile.eml").write_bytes(_hostile_message())
    att = tmp_path / "att"
    code, out, err = _run(["export", str(box / "hostile.eml"), "--attachments", str(att)], capsys)
    assert code == 0, err
    (record,) = [json.loads(line) for line in out.splitlines()]
    rid = record["id"]
    assert [a["filename"] for a in record["attachments"]] == HOSTILE
    expected = ["passwd", "_CON", "a_b", "a" * 200, "same.txt", "same (2).txt"]
    assert [a["saved_path"] for a in record["attachments"]] == [f"{rid}/{n}" for n in expected]
    # exactly these files, with their bytes, and nothing anywhere else
    assert sorted(os.listdir(att)) == [rid]
    assert sorted(os.listdir(att / rid)) == sorted(expected)
    for n, name in enumerate(expected):
        assert (att / rid / name).read_bytes() == f"data{n}".encode()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["att", "box"]
    assert sorted(os.listdir(box)) == ["hostile.eml"]


def test_a_symbolic_link_planted_in_the_folder_is_refused(tmp_path, capsys):
    eml = tmp_path / "m.eml"
    eml.write_bytes(_hostile_message())
    outside = tmp_path / "outside"
    outside.mkdir()
    att = tmp_path / "att"
    att.mkdir()
    rid = record_id(Source(str(eml), "eml"))
    os.symlink(outside, att / rid)
    code, out, err = _run(["export", str(eml), "--attachments", str(att)], capsys)
    assert code == 1
    (record,) = [json.loads(line) for line in out.splitlines()]
    assert all(a["saved_path"] is None for a in record["attachments"])
    assert "not saved" in err and "6 not saved" in err
    assert list(outside.iterdir()) == []


def test_parquet_round_trip_equals_json(tmp_path, capsys):
    pq = pytest.importorskip("pyarrow.parquet")
    folder = MAIL / "mimekit-tnef"
    code, out, _ = _run(["export", str(folder), str(HTML_ONLY)], capsys)
    assert code == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert len(records) > 10
    target = tmp_path / "r.parquet"
    code, out, _ = _run(["export", str(folder), str(HTML_ONLY), "--format", "parquet", "-o", str(target)], capsys)
    assert (code, out) == (0, "")
    table = pq.read_table(target)
    from onemail.message.arrow import record_schema

    assert table.schema.equals(record_schema())
    assert table.to_pylist() == records


def test_parquet_without_pyarrow_names_the_extra(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # import pyarrow raises ImportError
    code, out, err = _run(["export", str(HTML_ONLY), "--format", "parquet", "-o", str(tmp_path / "x")], capsys)
    assert code == 2 and out == ""
    assert "onemail[parquet]" in err


def test_parquet_needs_an_output_file(capsys):
    code, _, err = _run(["export", str(HTML_ONLY), "--format", "parquet"], capsys)
    assert code == 2 and "needs -o FILE" in err


def test_output_file_and_exit_codes(tmp_path, capsys):
    target = tmp_path / "out.jsonl"
    code, out, err = _run(["export", str(HTML_ONLY), str(tmp_path / "missing.eml"), "-o", str(target)], capsys)
    assert code == 1 and out == ""
    assert "skipped" in err and "unreadable" in err
    assert len(target.read_text("utf-8").splitlines()) == 1
    code, _, err = _run(["export", str(HTML_ONLY), "-o", str(tmp_path / "no" / "such" / "dir.jsonl")], capsys)
    assert code == 2 and "cannot write" in err
    assert _run(["export"], capsys)[0] == 2


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_a_full_disk_is_exit_1_in_both_formats(capsys, fmt):
    """Fresh-user report D4: Parquet's first bytes to a full disk were exit 2 (a usage error),
    JSON Lines' exit 1. An output that can be created but not written is 1 in both."""
    if fmt == "parquet":
        pytest.importorskip("pyarrow", reason="the onemail[parquet] extra is not installed")
    code, _, err = _run(["export", str(HTML_ONLY), "--format", fmt, "-o", "/dev/full"], capsys)
    assert code == 1 and "No space left on device" in err


def test_a_message_that_cannot_be_read_is_a_record_and_exit_1(tmp_path, capsys):
    junk = tmp_path / "junk.eml"
    junk.write_bytes(b"\x00\x01\x02 not mail at all")
    code, out, err = _run(["export", str(junk)], capsys)
    assert code == 1
    (record,) = [json.loads(line) for line in out.splitlines()]
    assert record["error"]


def test_lone_surrogates_of_a_path_are_json_escapes(tmp_path):
    name = os.fsdecode(b"caf\xe9.eml")  # an undecodable byte of a file name
    path = tmp_path / name
    path.write_bytes(HTML_ONLY.read_bytes())
    buf = io.BytesIO()
    from onemail._cli.export import _JsonSink

    sink = _JsonSink.__new__(_JsonSink)
    sink.own, sink.out = True, buf
    (record,) = build_records(read(path), Source(str(path), "eml"))
    sink.write(record)
    line = buf.getvalue()
    assert b"caf\\udce9.eml" in line
    assert json.loads(line)["source"]["path"] == str(path)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_empty_file_named_is_exit_1_as_in_scan_and_read(tmp_path, capsys, jobs):
    """A path named on the command line that holds no mail is input not read (exit 1), in
    export as in scan and read; the same file inside a named folder is an ordinary skip."""
    (tmp_path / "empty.eml").write_bytes(b"")
    assert main(["export", "--jobs", jobs, str(tmp_path / "empty.eml")]) == 1
    assert main(["scan", str(tmp_path / "empty.eml")]) == 1
    assert main(["read", str(tmp_path / "empty.eml")]) == 1
    (tmp_path / "box").mkdir()
    (tmp_path / "box" / "empty.eml").write_bytes(b"")
    (tmp_path / "box" / "m.eml").write_bytes(b"Subject: hi\r\n\r\nbody\r\n")
    assert main(["export", "--jobs", jobs, str(tmp_path / "box")]) == 0
    assert main(["scan", str(tmp_path / "box")]) == 0
    err = capsys.readouterr().err
    assert f"onemail export: skipped {tmp_path / 'empty.eml'}: empty (an empty file)\n" in err


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_maildir_tmp_file_is_no_failure_in_export_as_in_scan(tmp_path, capsys, jobs):
    """A file in a Maildir's tmp/ is a message still being delivered (M41): an ``incomplete``
    skip, reported, exit 0 in export and scan alike (export exited 1)."""
    maildir = tmp_path / "Maildir"
    for sub in ("cur", "new", "tmp"):
        (maildir / sub).mkdir(parents=True)
    (maildir / "cur" / "1.host:2,S").write_bytes(b"Subject: a\r\n\r\nbody\r\n")
    (maildir / "tmp" / "2.host").write_bytes(b"Subject: b\r\n\r\nbo")
    assert main(["export", "--jobs", jobs, str(maildir), "-o", str(tmp_path / "out.jsonl")]) == 0
    err = capsys.readouterr().err
    assert f"skipped {maildir}/tmp/2.host: incomplete" in err and "1 incomplete" in err
    assert main(["scan", "--jobs", jobs, str(maildir)]) == 0
    assert len((tmp_path / "out.jsonl").read_text("utf-8").splitlines()) == 1


def test_jobs_with_standard_input_is_a_usage_error_without_a_summary(capsys, monkeypatch):
    """``export --jobs 2 -`` is refused before anything is read: exit 2, one line, no summary
    line."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"Subject: a\r\n\r\nb\r\n")))
    code, out, err = _run(["export", "--jobs", "2", "-"], capsys)
    assert (code, out) == (2, "")
    assert err.startswith("onemail export: --jobs reads files and folders") and err.count("\n") == 1


def test_export_jobs_capped_at_usable_cpus(monkeypatch, tmp_path, capsys):
    """With one usable CPU, ``--jobs 4`` reads in this process (no pool is started)."""
    from onemail._cli import _pool

    monkeypatch.setattr(_pool, "usable_cpus", lambda: 1)
    monkeypatch.setattr(_pool, "run", None)  # calling it would fail the test
    code, out, _ = _run(["export", "--jobs", "4", str(HTML_ONLY)], capsys)
    assert code == 0 and len(out.splitlines()) == 1


def test_workers_make_lines_up_to_a_mebi_character_text(tmp_path):
    """``export --jobs``: a worker makes the JSON line of a record whose texts are up to
    WHOLE_LINE_CHARS long (the parent only writes it), the same bytes the parent's piece-wise
    writer gives; a longer text goes to the parent as the record, written a slice at a time."""
    from onemail._cli import export

    text = ("caf\u00e9 \x00\ud800 " * 20_000)[:100_000]
    record = {"id": "x", "text": text, "n": 3, "names": ["a", "\u00e9"]}
    assert not export._long(record)
    out = tmp_path / "w.jsonl"
    sink = export._JsonSink(str(out))
    sink.write(record)
    sink.close()
    assert export.json_line(record) == out.read_bytes()
    assert export._long({"text": "y" * (export.WHOLE_LINE_CHARS + 1)})
    assert not export._long({"text": "y" * export.WHOLE_LINE_CHARS})
