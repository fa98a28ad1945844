"""``onemail.cli``: the subcommands found in onemail._cli, exit codes, --version.

``python -m onemail`` and the console script: tests/house/test_packaging.py."""

from __future__ import annotations

import pytest

from onemail import __version__
from onemail.cli import build_parser, main

COMMANDS = ["decode", "detect", "explain", "export", "header", "param", "read", "repair", "rtf", "scan"]


def test_every_public_module_of_onemail_cli_adds_its_commands(capsys):
    usage = build_parser().format_help()
    listed = usage.split("positional arguments:", 1)[1].split("options:", 1)[0]
    names = [line.split()[0] for line in listed.splitlines() if line.startswith("    ") and line.strip()
             and not line.startswith("     ")]
    assert sorted(names) == COMMANDS
    for name in COMMANDS:
        assert main([name, "--help"]) == 0
    assert capsys.readouterr().out.count("usage: onemail ") == len(COMMANDS)


def test_no_command_prints_help_and_exits_2(capsys):
    assert main([]) == 2
    assert capsys.readouterr().err.startswith("usage: onemail")


@pytest.mark.parametrize(("argv", "code"), [(["--version"], 0), (["--help"], 0), (["no-such-command"], 2)])
def test_argparse_exits_become_return_codes(argv, code, capsys):
    assert main(argv) == code
    if argv == ["--version"]:
        assert capsys.readouterr().out == f"onemail {__version__}\n"


# --- stops and output failures: one line on stderr, never a traceback -----------------------

import os  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

from paths import CORPUS  # noqa: E402

MAIL = CORPUS / "mail"


def _started(args, **kw):
    """Start ``python -m onemail ARGS`` and return it once its first output line is out."""
    proc = subprocess.Popen([sys.executable, "-m", "onemail", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, **kw)
    assert proc.stdout is not None
    first = proc.stdout.readline()
    assert first, proc.stderr.read() if proc.stderr else ""
    return proc, first


@pytest.mark.skipif(not MAIL.is_dir(), reason="needs ../shared/corpus/mail")
@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_stop_of_one_process_exits_with_its_code_and_no_traceback(sig, code):
    proc, _ = _started(["export", str(MAIL)])
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == code, err
    assert b"Traceback" not in err
    assert err.rstrip().endswith(f"onemail: stopped by {sig.name}".encode())


@pytest.mark.skipif(not MAIL.is_dir(), reason="needs ../shared/corpus/mail")
def test_sigterm_during_a_parquet_export_leaves_a_readable_file(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    target = tmp_path / "out.parquet"
    proc = subprocess.Popen([sys.executable, "-m", "onemail", "export", "--format", "parquet",
                             "-o", str(target), str(MAIL)], stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while (not target.exists() or target.stat().st_size < 1024) and time.monotonic() < deadline:
        time.sleep(0.05)  # the first row group is written
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert b"Traceback" not in err
    assert pq.read_table(target).num_rows > 0  # closed with its footer


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_is_one_error_line_and_exit_1():
    with open("/dev/full", "wb") as full:
        proc = subprocess.run([sys.executable, "-m", "onemail", "header", "=?utf-8?q?caf=C3=A9?="],
                              stdout=full, stderr=subprocess.PIPE, timeout=60)
    assert proc.returncode == 1
    assert proc.stderr == b"onemail: error: cannot write the output: No space left on device\n"
