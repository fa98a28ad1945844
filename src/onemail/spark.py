"""Records as a Spark DataFrame, read by Spark's Python workers shard by shard.

``onemail.spark`` needs the optional extra ``onemail[spark]`` (``pyspark``, ``pyarrow``) and a
Java runtime for Spark; importing it without pyspark raises ``ImportError`` naming the extra.

:func:`dataframe` plans the paths into shards here, on the driver (:func:`onemail.shards`: it
reads each large mbox once to cut it at its separators), makes a DataFrame of one row per shard
(``n``: the shard's number in plan order, ``shard``: the pickled
:class:`~onemail.message.shards.Shard`), one shard per partition, and turns it into records with
``mapInArrow``: each Python worker reads its shards (:func:`onemail.records`) into Arrow record
batches of the records' schema (:func:`onemail.message.arrow.record_schema`, the Parquet file's:
the same columns, lists and structs as ``onemail export --format parquet``).

The executors must see the same paths (a shared file system) and have onemail installed with the
same version. A task that fails (an executor lost) is Spark's to retry
(``spark.task.maxFailures``); what changed on disk since planning is an error record in place
(M40). ``toArrow()`` / ``collect()`` give the rows in plan order (the sequential order of the
records); after a shuffle, sort on ``source`` to get it back.

To run the tests of this module: ``pip install -e '.[test,spark]'`` with Java 17 or later, then
``python -m pytest tests/message/test_spark.py`` (README, "Run the tests").
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable, Iterable, Iterator
from typing import Any

try:
    import pyspark  # noqa: F401
    from pyspark.sql import DataFrame, SparkSession
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("onemail.spark needs the optional extra onemail[spark] "
                      "(pip install 'onemail[spark]'; Spark also needs Java): " + str(exc)) from exc

from .message.shards import DEFAULT_TARGET_BYTES, Shard, records, shards

__all__ = ["dataframe", "schema"]

BATCH = 1000
"""Records per Arrow record batch a worker sends back."""


def schema() -> Any:
    """The Spark schema of a record (``pyspark.sql.types.StructType``): the Arrow record schema
    converted by pyspark."""
    from pyspark.sql.pandas.types import from_arrow_schema

    from .message.arrow import record_schema

    arrow_schema: Any = record_schema  # onemail.message.arrow is not typed yet
    return from_arrow_schema(arrow_schema())


def dataframe(spark: SparkSession, paths: Iterable[str | os.PathLike[str]], *,
              target_bytes: int = DEFAULT_TARGET_BYTES, repair: bool = False) -> DataFrame:
    """A DataFrame of the records of ``paths`` (module docstring).

    :param spark: the session.
    :param paths: files and folders, as for :func:`onemail.shards` (not ``"-"``: an executor
        cannot read the driver's standard input).
    :param target_bytes: bytes per shard (:func:`onemail.shards`).
    :param repair: as for :func:`onemail.read`.
    :returns: a lazy DataFrame with the columns of :func:`schema`, one row per record.
    :raises TypeError: ``paths`` is a single path.
    :raises ValueError: ``"-"`` is among ``paths``.
    """
    if isinstance(paths, (str, bytes, os.PathLike)):
        raise TypeError("paths must be a list of paths, not a single path")
    paths = list(paths)
    if any(os.fspath(p) == "-" for p in paths):
        raise ValueError("standard input ('-') cannot be read by Spark executors; save it to a file")
    planned = list(shards(paths, target_bytes=target_bytes))
    rows = [(n, pickle.dumps(shard, protocol=pickle.HIGHEST_PROTOCOL)) for n, shard in enumerate(planned)]
    sc = spark.sparkContext
    rdd = sc.parallelize(rows, max(1, len(rows)))
    plan_df = spark.createDataFrame(rdd, "n long, shard binary")
    return plan_df.mapInArrow(_reader(repair), schema())


def _reader(repair: bool) -> Callable[[Iterator[Any]], Iterator[Any]]:
    def read(batches: Iterator[Any]) -> Iterator[Any]:
        return _read_batches(batches, repair)

    return read


def _read_batches(batches: Iterable[Any], repair: bool) -> Iterator[Any]:
    """The work of one Spark task: the shards in ``batches`` (Arrow record batches of shard
    rows) into Arrow record batches of records."""
    from .message.arrow import records_to_table

    for batch in batches:
        for blob in batch.column("shard").to_pylist():
            shard: Shard = pickle.loads(blob)
            pending: list[dict[str, Any]] = []
            for record in records(shard, repair=repair):
                pending.append(record)
                if len(pending) >= BATCH:
                    yield from records_to_table(pending).to_batches()
                    pending = []
            if pending:
                yield from records_to_table(pending).to_batches()
