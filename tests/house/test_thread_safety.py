"""Threads that use onemail for the first time at once get the answers a single thread gets.

Lazily built tables (the language model's packed sums, repair's run patterns, the CJK fast
paths) must never be seen half built: a hostile test found every later call of ``detect``
raising ``struct.error`` after four threads made their first call together. Each run is a fresh
interpreter (the tables are built once per process) with a 1 us thread switch interval.
"""

from __future__ import annotations

import json
import subprocess
import sys

from paths import REPO

_SCRIPT = r"""
import json, sys, threading
sys.setswitchinterval(1e-6)
from onemail.detect import detect, repair
from onemail.detect._repair import repair_possible
from onemail.text import for_label, rfc2047

INPUTS = [b"Gr\xfc\xdfe aus K\xf6ln", "Oddeľovač stĺpcov".encode("cp1250"), "Привет, мир".encode("koi8_r"),
          "Καλημέρα".encode("cp1253"), "日本語のテキスト".encode("shift_jis"), "中文文本".encode("gbk"),
          "한국어".encode("euc_kr"), "FÃ¶rstÃ¥r".encode("utf-8"), b"caf\xe9 cr\xe8me"]
TEXTS = ["FÃ¶rstÃ¥r", "Ð\u009fÑ\u0080Ð¸Ð²ÐµÑ\u0082", "plain", "±² ³´"]

def work():
    out = []
    for data in INPUTS:
        d = detect(data)
        out.append([d.charset, d.confidence])
    for t in TEXTS:
        out.append([repair(t).text, repair_possible(t)])
    for label in ("gbk", "big5", "shift_jis", "euc-kr", "euc-jp", "iso-2022-jp", "utf-7"):
        out.append(for_label(label).decode("テスト中文".encode("utf-8")))
    out.append(rfc2047.decode_text("=?iso-8859-2?q?Gr=FC=DFe?= =?utf-8?b?5pel5pys?="))
    return out

if sys.argv[1] == "threads":
    results, errors = [], []
    def run():
        try:
            results.append(work())
        except BaseException as exc:  # report, do not hide
            errors.append(repr(exc))
    threads = [threading.Thread(target=run) for _ in range(8)]
    for t in threads: t.start()
    for t in threads: t.join()
    results.append(work())  # after the race, in one thread
    print(json.dumps({"errors": errors, "results": results}, default=str))
else:
    print(json.dumps({"errors": [], "results": [work()]}, default=str))
"""


def _run(mode: str) -> dict:
    out = subprocess.run([sys.executable, "-c", _SCRIPT, mode], capture_output=True, text=True,
                         cwd=REPO, check=True, timeout=120)
    return json.loads(out.stdout)


def test_first_use_from_many_threads_matches_one_thread():
    serial = _run("serial")["results"][0]
    for _ in range(3):
        got = _run("threads")
        assert got["errors"] == []
        assert len(got["results"]) == 9
        for result in got["results"]:
            assert result == serial
