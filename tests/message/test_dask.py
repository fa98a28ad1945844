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
from onemail.message.arrow import record_schema, records_to_table  # noqa: E402
from onemail.message.containers import Found, walk  # noqa: E402
from onemail.message.records import build_records  # noqa: E402

MAIL = CORPUS / "mail"


def _box(tmp_path, n=300):
    box = tmp_path / "box.mbox"
    box.write_bytes(b"".join(b"From a@b Sat Jan  1 00:00:00 2000\nSubject: m%d\n\n%s\n" % (i, b"x" * 80)
                             for i in range(n)))
    return box


def _sequential(paths) -> list[dict]:
    """The records of a sequential walk: what ``onemail export`` writes."""
    return [r for item in walk(paths) if isinstance(item, Found)
            for r in build_records(item.message, item.source)]


def _rows(frame) -> list[dict]:
    """A computed dataframe's rows as records (through the Arrow schema)."""
    import pyarrow as pa

    return pa.Table.from_pandas(frame, schema=record_schema(), preserve_index=False).to_pylist()


def test_local_cluster_over_the_corpus():
    """Two worker processes, the mail corpus in 1 MiB shards: the bag's records and the
    dataframe's rows are the records of a sequential walk, in its order."""
    if not MAIL.exists():
        pytest.skip("../shared/corpus/mail is not present")
    expected = _sequential([MAIL])
    assert len(expected) > 3700
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster, distributed.Client(cluster):
        b = od.bag([MAIL], target_bytes=1 << 20)
        assert b.npartitions > 20
        assert b.compute() == expected
        frame = od.dataframe([MAIL], target_bytes=1 << 20).compute()
    assert list(frame.columns) == record_schema().names
    assert _rows(frame) == records_to_table(expected).to_pylist()


def test_threaded_scheduler_mbox_ranges(tmp_path):
    box = _box(tmp_path)
    b = od.bag([box, tmp_path], target_bytes=4096)
    assert b.npartitions == len(od.plan([box, tmp_path], target_bytes=4096)) > 10
    expected = _sequential([box, tmp_path])
    assert b.compute(scheduler="threads") == expected
    df = od.dataframe([box], target_bytes=4096)
    assert df.npartitions > 5
    assert [str(t) for t in df.dtypes][:3] == ["int32[pyarrow]", "string[pyarrow]", "string[pyarrow]"]
    assert _rows(df.compute(scheduler="threads")) == expected[:300]
    assert df["subject"].compute(scheduler="sync").tolist() == [f"m{i}" for i in range(300)]


def test_empty_and_wrong_input(tmp_path):
    assert od.bag([]).compute() == []
    empty = od.dataframe([]).compute()
    assert len(empty) == 0 and list(empty.columns) == record_schema().names
    with pytest.raises(ValueError, match="standard input"):
        od.bag(["-"])
    with pytest.raises(TypeError, match="list of paths"):
        od.bag(str(tmp_path))


def test_zip_members_and_pst_items_on_processes(tmp_path):
    """A zip of corpus messages and the corpus PST/OST stores cut into ranges of members and of
    folders and items (small shards), on Dask's process scheduler (each shard pickled to another
    process): the bag's records and the dataframe's rows are the sequential records."""
    import zipfile

    files = sorted(MAIL.rglob("*.eml"))[::11][:120]
    stores = sorted(p for p in (CORPUS / "pst").glob("*.pst"))
    if len(files) < 120 or not stores:
        pytest.skip("../shared/corpus is not present")
    pytest.importorskip("pypff", reason="the onemail[pst] extra is not installed")
    archive = tmp_path / "mail.zip"
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for i, p in enumerate(files):
            zf.writestr(f"d{i % 3}/{p.name}", p.read_bytes())
    paths = [archive, *stores]
    planned = od.plan(paths, target_bytes=20_000)
    assert {"zip", "pst"} <= {s.kind for s in planned} and len(planned) > 20
    expected = _sequential(paths)
    assert od.bag(paths, target_bytes=20_000).compute(scheduler="processes", num_workers=2) == expected
    frame = od.dataframe(paths, target_bytes=20_000).compute(scheduler="processes", num_workers=2)
    assert _rows(frame) == records_to_table(expected).to_pylist()
