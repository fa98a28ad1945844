"""onemail.spark (issue 15 item 4): a DataFrame of records through mapInArrow over shard rows.

Runs when pyspark is installed (``pip install -e '.[spark]'``; Spark needs Java 17 or later on
the PATH) and is skipped otherwise: pyspark is not in the ``test`` extra (about 300 MB).
"""

from __future__ import annotations

import os
import shutil
import sys

import pytest
from paths import CORPUS

pytest.importorskip("pyspark", reason="pyspark is not installed (pip install -e '.[spark]')")
if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
    pytest.skip("Spark needs Java (no java on the PATH, no JAVA_HOME)", allow_module_level=True)

import onemail.spark as osp  # noqa: E402
from onemail.message.arrow import record_schema, records_to_table  # noqa: E402
from onemail.message.containers import Found, walk  # noqa: E402
from onemail.message.records import build_records  # noqa: E402

MAIL = CORPUS / "mail"

pytestmark = pytest.mark.filterwarnings(
    "ignore:PySpark does not yet fully support pandas:FutureWarning")


@pytest.fixture(scope="module")
def spark():
    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    session = (SparkSession.builder.master("local[2]").appName("onemail-test")
               .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "2")
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def _sequential(paths) -> list[dict]:
    return [r for item in walk(paths) if isinstance(item, Found)
            for r in build_records(item.message, item.source)]


def test_records_equal_the_sequential_ones(spark, tmp_path):
    """Corpus messages in a folder (batches) beside an mbox cut in ranges: the DataFrame's rows
    are the sequential records, in plan order."""
    files = sorted(MAIL.rglob("*.eml"))[::15]
    if not files:
        pytest.skip("../shared/corpus/mail is not present")
    folder = tmp_path / "mail"
    folder.mkdir()
    for i, f in enumerate(files):
        (folder / f"{i:04}.eml").write_bytes(f.read_bytes())
    box = tmp_path / "box.mbox"
    box.write_bytes(b"".join(b"From a@b Sat Jan  1 00:00:00 2000\nSubject: s%d\n\n%s\n\n" % (i, b"q" * 200)
                             for i in range(2000)))
    paths = [folder, box]
    df = osp.dataframe(spark, paths, target_bytes=64 << 10)
    assert df.schema == osp.schema()
    assert df.schema.names == record_schema().names
    got = df.toArrow()
    expected = _sequential(paths)
    assert got.num_rows == len(expected) > 2000
    assert got.to_pylist() == records_to_table(expected).to_pylist()
    assert df.filter(df.source.path == str(box)).count() == 2000


def test_wrong_input(spark, tmp_path):
    with pytest.raises(ValueError, match="standard input"):
        osp.dataframe(spark, ["-"])
    with pytest.raises(TypeError, match="list of paths"):
        osp.dataframe(spark, str(tmp_path))
    assert osp.dataframe(spark, []).count() == 0
