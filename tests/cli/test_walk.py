"""Walking folders for ``onemail scan`` and ``onemail detect`` (onemail._walk): FIFOs, folders
that cannot be listed, unreachable and looping symbolic links are reported the same way by both
commands (exit code 1, the path listed), never skipped, never waited on."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

import onemail._walk
from onemail._walk import walk
from onemail.cli import main

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs POSIX FIFOs and symlinks")

MAIL = b"Subject: ok\r\n\r\nbody\r\n"


def _onemail() -> list[str]:
    exe = shutil.which("onemail")
    return [exe] if exe else [sys.executable, "-m", "onemail.cli"]


def _summary(stdout: str) -> dict:
    """The summary line of ``scan --json``, its unreadable paths as ``{"path", "error"}``."""
    out = json.loads(stdout.splitlines()[-1])
    out["unreadable"] = [{"path": u["path"], "error": u["error"]} for u in out["unreadable"]]
    return out


def _scan(capsys, *paths) -> tuple[int, dict]:
    rc = main(["scan", *map(str, paths), "--json"])
    return rc, _summary(capsys.readouterr().out)


def _detect(capsys, *paths) -> tuple[int, dict]:
    rc = main(["detect", *map(str, paths), "--json"])
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    return rc, {r["path"]: r["error"] for r in rows}


@pytest.mark.parametrize("command", ["scan", "detect"])
def test_fifo_in_a_folder_is_reported_not_opened(tmp_path, command):
    """A subprocess with a timeout: opening the FIFO would wait for a writer forever."""
    (tmp_path / "ok.eml").write_bytes(MAIL)
    os.mkfifo(tmp_path / "x.eml")
    proc = subprocess.run([*_onemail(), command, str(tmp_path), "--json"], capture_output=True,
                          text=True, timeout=60, check=False)
    assert proc.returncode == 1, proc.stderr
    fifo = str(tmp_path / "x.eml")
    if command == "scan":
        out = _summary(proc.stdout)
        assert (out["files"], out["messages"], out["failures"]) == (1, 1, [])
        assert out["unreadable"] == [{"path": fifo, "error": "not a regular file (FIFO)"}]
    else:
        rows = {r["path"]: r["error"] for r in map(json.loads, proc.stdout.splitlines())}
        assert rows == {str(tmp_path / "ok.eml"): None, fifo: "not a regular file (FIFO)"}


def test_named_fifo_is_read(tmp_path):
    """A FIFO named on the command line is read (``onemail read <(cat m.eml)`` gives one)."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    proc = subprocess.Popen([*_onemail(), "read", str(fifo), "--json"], stdout=subprocess.PIPE)
    with open(fifo, "wb") as f:
        f.write(MAIL)
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 0 and json.loads(out)["subject"] == "ok"


def test_unlistable_folder_is_reported(tmp_path, capsys, monkeypatch):
    """As a non-root user a chmod 000 folder fails os.scandir; root ignores modes, so the
    failure is simulated."""
    (tmp_path / "ok.eml").write_bytes(MAIL)
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "hidden.eml").write_bytes(MAIL)
    real = os.scandir
    locked = str(tmp_path / "locked")

    def scandir(path):
        if os.fspath(path) == locked:
            raise PermissionError(13, "Permission denied", path)
        return real(path)

    monkeypatch.setattr(onemail._walk.os, "scandir", scandir)
    rc, out = _scan(capsys, tmp_path)
    assert (rc, out["files"], out["messages"]) == (1, 1, 1)
    assert out["unreadable"] == [{"path": locked, "error": "Permission denied"}]
    rc, rows = _detect(capsys, tmp_path)
    assert (rc, rows) == (1, {str(tmp_path / "ok.eml"): None, locked: "Permission denied"})


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None,
                    reason="needs root and setpriv to run as another user")
def test_unlistable_folder_as_another_user():
    """The tester's case: ``setpriv --reuid=65534 ... onemail scan dir`` with a chmod 000 folder
    (a folder under /tmp and the source tree on PYTHONPATH, both readable by that user)."""
    import tempfile

    from paths import REPO

    top = tempfile.mkdtemp(prefix="onemail-walk-")
    try:
        os.chmod(top, 0o755)
        with open(os.path.join(top, "ok.eml"), "wb") as f:
            f.write(MAIL)
        os.chmod(os.path.join(top, "ok.eml"), 0o644)
        os.mkdir(os.path.join(top, "locked"), mode=0o000)
        python = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
        proc = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                               python, "-m", "onemail.cli", "scan", top, "--json"],
                              capture_output=True, text=True, timeout=60, check=False,
                              env={**os.environ, "PYTHONPATH": str(REPO / "src")})
        if proc.returncode not in (0, 1) or not proc.stdout:  # that user cannot run the code
            pytest.skip(proc.stderr[-200:])
        out = _summary(proc.stdout)
        assert (proc.returncode, out["files"], out["messages"]) == (1, 1, 1)
        assert out["unreadable"] == [{"path": os.path.join(top, "locked"), "error": "Permission denied"}]
    finally:
        shutil.rmtree(top)


def test_dangling_symlink_reported_by_scan_and_detect(tmp_path, capsys):
    (tmp_path / "ok.eml").write_bytes(MAIL)
    (tmp_path / "gone.eml").symlink_to(tmp_path / "nowhere.eml")
    gone = str(tmp_path / "gone.eml")
    problem = "unreachable symbolic link (No such file or directory)"
    rc, out = _scan(capsys, tmp_path)
    assert (rc, out["files"], out["unreadable"]) == (1, 1, [{"path": gone, "error": problem}])
    assert _detect(capsys, tmp_path) == (1, {str(tmp_path / "ok.eml"): None, gone: problem})
    rc, out = _scan(capsys, gone)  # named on the command line: the same report
    assert (rc, out["unreadable"]) == (1, [{"path": gone, "error": problem}])


def test_symlink_loops_end(tmp_path, capsys):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "m.eml").write_bytes(MAIL)
    (tmp_path / "sub" / "up").symlink_to(tmp_path)  # a folder loop: walked once
    (tmp_path / "self.eml").symlink_to(tmp_path / "self.eml")  # a link to itself
    rc, out = _scan(capsys, tmp_path)
    assert (rc, out["files"], out["messages"]) == (1, 1, 1)
    assert [u["path"] for u in out["unreadable"]] == [str(tmp_path / "self.eml")]
    assert out["unreadable"][0]["error"].startswith("unreachable symbolic link (")


def test_linked_folder_is_walked_once(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "m.eml").write_bytes(MAIL)
    (tmp_path / "b").symlink_to(tmp_path / "a")
    assert list(walk([tmp_path])) == [(str(tmp_path / "a" / "m.eml"), None)]
    assert list(walk([tmp_path / "b"])) == [(str(tmp_path / "b" / "m.eml"), None)]


def test_text_summary_counts_like_json(tmp_path, capsys):
    (tmp_path / "junk.eml").write_bytes(b"\x00\x01\x02" * 100)
    missing = tmp_path / "missing.eml"
    assert main(["scan", str(tmp_path), str(missing)]) == 1
    text = capsys.readouterr().out
    lines = dict(line.rsplit(None, 1) for line in text.splitlines()[:6])
    assert (lines["failures (messages not readable)"], lines["not read (unreadable, damaged, ...)"],
            lines["skipped (no mail to read)"]) == ("1", "1", "0")
    assert "\nfailures\n  " + str(tmp_path / "junk.eml") + ": not a message" in text
    assert (f"\nnot read, by reason\n  unreadable{1:>36}\n    {missing}: No such file or directory\n"
            in text)


def test_read_of_a_device_is_an_oserror(capsys):
    """``onemail read /dev/zero`` would read forever: a device is an unreadable path."""
    from onemail.message import read

    with pytest.raises(OSError, match="not a regular file"):
        read("/dev/zero")
    assert main(["read", "/dev/zero"]) == 1
    assert "not a regular file" in capsys.readouterr().err
