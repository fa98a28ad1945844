"""Records as a Dask bag or dataframe, built from shards, on any Dask scheduler.

``onemail.dask`` needs the optional extra ``onemail[dask]`` (``dask[bag,dataframe]``,
``distributed``, ``pyarrow``); importing it without them raises ``ImportError`` naming the extra.

* :func:`bag` -- a ``dask.bag.Bag`` with one partition per shard (:func:`onemail.shards`), each
  partition the shard's records (:func:`onemail.records`: dicts of ``docs/records.md``) in
  order, so ``bag.compute()`` is the list ``onemail export`` writes;
* :func:`dataframe` -- a ``dask.dataframe.DataFrame`` of the same records, one row per record and
  one partition per shard, its columns those of the records' Arrow schema
  (:func:`onemail.message.arrow.record_schema`, the Parquet file's), each of the
  ``pandas.ArrowDtype`` of its Arrow type (lists and structs stay nested: ``from`` is a list of
  ``{name, address, group}``); ``df.to_parquet(folder)`` writes that schema.

Planning runs here (it reads each large mbox once, to cut it at its separators: see
:mod:`onemail.message.shards`); reading runs wherever the scheduler puts the tasks: the
threaded scheduler (``compute()`` with no client), ``distributed.LocalCluster`` or a cluster
address (``distributed.Client("tcp://host:8786")``), whose workers must see the same paths (a
shared file system) and have onemail installed. A worker lost while it reads a shard is
Dask's to handle: ``distributed`` runs the task again on another worker (up to
``distributed.scheduler.allowed-failures`` times, 3 by default), then that one partition fails
with ``KilledWorker``; the other partitions are not touched (compute them with
``client.compute(bag.to_delayed())`` and gather with ``errors="skip"`` to keep them). What
changed on disk since planning is an error record in place, as everywhere (M40).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any, cast

try:
    import dask.bag as _bag
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("onemail.dask needs the optional extra onemail[dask] "
                      "(pip install 'onemail[dask]'): " + str(exc)) from exc

from .message.shards import DEFAULT_TARGET_BYTES, Shard, records, shards

__all__ = ["bag", "dataframe", "plan"]


def plan(paths: Iterable[str | os.PathLike[str]], *,
         target_bytes: int = DEFAULT_TARGET_BYTES) -> list[Shard]:
    """Plan ``paths`` into shards for Dask workers: :func:`onemail.shards` as a list.

    :raises ValueError: ``"-"`` (standard input) is among ``paths``: a worker cannot read this
        process's input.
    """
    if isinstance(paths, (str, bytes, os.PathLike)):
        raise TypeError("paths must be a list of paths, not a single path")
    paths = list(paths)
    if any(os.fspath(p) == "-" for p in paths):
        raise ValueError("standard input ('-') cannot be read by Dask workers; save it to a file")
    return list(shards(paths, target_bytes=target_bytes))


def bag(paths: Iterable[str | os.PathLike[str]], *, target_bytes: int = DEFAULT_TARGET_BYTES,
        repair: bool = False) -> _bag.Bag:
    """A bag of the records of ``paths``: one partition per shard, in the walk's order.

    :param paths: files and folders, as for :func:`onemail.shards` (not ``"-"``).
    :param target_bytes: bytes per shard (:func:`onemail.shards`).
    :param repair: as for :func:`onemail.read`.
    :returns: a lazy ``dask.bag.Bag``; ``bag.compute()`` lists the records in the order of a
        sequential read.
    """
    planned = plan(paths, target_bytes=target_bytes)
    db: Any = _bag  # dask has no type information
    if not planned:
        return cast(_bag.Bag, db.from_sequence([], npartitions=1))
    return cast(_bag.Bag, db.from_sequence(planned, npartitions=len(planned)).map_partitions(
        _partition, repair=repair))


def _partition(planned: Iterable[Shard], repair: bool = False) -> list[dict[str, Any]]:
    return [r for shard in planned for r in records(shard, repair=repair)]


def dataframe(paths: Iterable[str | os.PathLike[str]], *,
              target_bytes: int = DEFAULT_TARGET_BYTES, repair: bool = False) -> Any:
    """A dataframe of the records of ``paths`` (module docstring): one partition per shard.

    :param paths: files and folders, as for :func:`onemail.shards` (not ``"-"``).
    :param target_bytes: bytes per shard. ``repair``: as for :func:`onemail.read`.
    :returns: a lazy ``dask.dataframe.DataFrame`` whose columns are the record schema's
        fields in order, each a ``pandas.ArrowDtype``; rows in the order of a sequential read
        (the index of each partition starts at 0).
    """
    import dask.dataframe

    dd: Any = dask.dataframe  # no type information
    planned = plan(paths, target_bytes=target_bytes)
    meta = _frame(None)
    if not planned:
        return dd.from_pandas(meta, npartitions=1)
    return dd.from_map(_frame, planned, repair=repair, meta=meta, enforce_metadata=False)


def _frame(shard: Shard | None, repair: bool = False) -> Any:
    """The records of one shard as a pandas frame of Arrow types (``None``: the empty frame)."""
    import pandas as pd

    from .message.arrow import records_to_table

    table = records_to_table([] if shard is None else records(shard, repair=repair))
    return table.to_pandas(types_mapper=pd.ArrowDtype)
