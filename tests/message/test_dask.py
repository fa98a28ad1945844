"""onemail.dask (issue 15 item 3): records from shards on Dask schedulers equal a sequential read.

Runs when the ``onemail[dask]`` extra is installed (the ``test`` extra installs it); skipped
otherwise.
"""

from __future__ import annotations

import pytest
from paths import CORPUS

pytest.importorskip("dask.bag", reason="the onemail[dask] extra is not installed")
distributed = pytest.importorskip("distributed", reason="the onemail[dask] extra is not installed")

import onemail.dask as od  # noqa: E402
from onemail.message.containers import walk  # noqa: E402

MAIL = CORPUS / "mail"


def _box(tmp_path, n=300):
    box = tmp_path / "box.mbox"
    box.write_bytes(b"".join(b"From a@b Sat Jan  1 00:00:00 2000\nSubject: m%d\n\n%s\n" % (i, b"x" * 80)
                             for i in range(n)))
    return box


def test_local_cluster_over_the_corpus():
    """Two worker processes, the mail corpus in 1 MiB shards: the records of a sequential walk,
    in its order."""
    if not MAIL.exists():
        pytest.skip("../shared/corpus/mail is not present")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster):
        b = od.bag([MAIL], target_bytes=1 << 20)
        assert b.npartitions > 20
        got = b.compute()
    assert len(got) == 3386 + 5  # four files are mailboxes of several messages (M20)
    assert got == list(walk([MAIL]))


def test_threaded_scheduler_mbox_ranges(tmp_path):
    box = _box(tmp_path)
    b = od.bag([box, tmp_path], target_bytes=4096)
    assert b.npartitions == len(od.plan([box, tmp_path], target_bytes=4096)) > 10
    assert b.compute(scheduler="threads") == list(walk([box, tmp_path]))


def test_empty_and_wrong_input(tmp_path):
    assert od.bag([]).compute() == []
    with pytest.raises(ValueError, match="standard input"):
        od.bag(["-"])
    with pytest.raises(TypeError, match="list of paths"):
        od.bag(str(tmp_path))
