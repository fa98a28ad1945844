"""Records as Apache Arrow: the fixed Arrow schema of a record (:func:`record_schema`) and
records to a table (:func:`records_to_table`), for Parquet files, Dask and Spark.

Needs the optional extra ``onemail[parquet]`` (pyarrow), imported on first use: without it,
:class:`MissingExtra` (an ``ImportError``) names the extra.

The Arrow schema is the JSON one (``record.schema.json``, ``docs/records.md``) field for field,
in the same order: JSON strings are ``string`` (UTF-8; lone surrogates from undecodable bytes of
a path are written as U+FFFD, the only place the two forms can differ), integers ``int64``,
``schema_version`` ``int32``, booleans ``bool``, objects ``struct``, arrays ``list``; ``null`` is
a null of the field's type. ``repairs.steps`` (a list of ``[wrong, right]`` pairs) is
``list<list<string>>``. A table's rows read back with ``Table.to_pylist()`` equal the records
that went in (tested).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["MissingExtra", "LONG_TEXT_COLUMNS", "import_pyarrow", "parquet_writer", "record_schema",
           "records_to_table"]


class MissingExtra(ImportError):
    """pyarrow is not installed: the message names the extra that installs it."""


def import_pyarrow() -> ModuleType:
    """Import and return ``pyarrow``.

    :raises MissingExtra: pyarrow is not installed (``pip install 'onemail[parquet]'``).
    """
    try:
        import pyarrow
    except ImportError as exc:
        raise MissingExtra("Parquet and Arrow output need pyarrow, from the optional extra "
                           "onemail[parquet]: pip install 'onemail[parquet]'") from exc
    return cast(ModuleType, pyarrow)  # untyped: pyarrow ships no type information


_SCHEMA: pa.Schema | None = None
_SURROGATE = re.compile("[\ud800-\udfff]")


def record_schema() -> pa.Schema:
    """Return the ``pyarrow.Schema`` of a record (module docstring); one object, built once.

    :raises MissingExtra: pyarrow is not installed.
    """
    global _SCHEMA
    if _SCHEMA is None:
        pa = import_pyarrow()
        s, i64 = pa.string(), pa.int64()
        address = pa.list_(pa.struct([("name", s), ("address", s), ("group", s)]))
        _SCHEMA = pa.schema([
            ("schema_version", pa.int32()),
            ("id", s),
            ("parent_id", s),
            ("part", s),
            ("source", pa.struct([("path", s), ("container", s), ("member", s), ("index", i64),
                                  ("offset", i64), ("length", i64), ("folder", s), ("flags", s),
                                  ("compression", s)])),
            ("format", s),
            ("message_id", s),
            ("date", s),
            ("date_raw", s),
            ("subject", s),
            ("from", address),
            ("to", address),
            ("cc", address),
            ("bcc", address),
            ("reply_to", address),
            ("body_text", s),
            ("body_text_from", s),
            ("body_html", s),
            ("attachments", pa.list_(pa.struct([
                ("part", s), ("filename", s), ("media_type", s), ("disposition", s), ("size", i64),
                ("sha256", s), ("content_id", s), ("saved_path", s), ("record_id", s)]))),
            ("charsets", pa.list_(pa.struct([("part", s), ("media_type", s), ("charset", s),
                                             ("source", s)]))),
            ("issues", pa.list_(pa.struct([("kind", s), ("where", s), ("offset", i64),
                                           ("length", i64), ("count", i64)]))),
            ("repairs", pa.list_(pa.struct([("where", s), ("steps", pa.list_(pa.list_(s))),
                                            ("applied", pa.bool_())]))),
            ("error", s),
        ], metadata={"onemail.schema_version": "1"})
    return _SCHEMA


LONG_TEXT_COLUMNS = ("body_text", "body_html")
"""Columns that hold whole bodies: a Parquet file keeps no statistics (min / max) and no
dictionary for them; both would copy each body (a 64 MiB body cost 500 MB more in the writer)
and help no query."""


def parquet_writer(path: str) -> Any:
    """Return a ``pyarrow.parquet.ParquetWriter`` for records at ``path``: :func:`record_schema`,
    statistics and dictionary encoding on every column but :data:`LONG_TEXT_COLUMNS`.

    :raises MissingExtra: pyarrow is not installed.
    :raises OSError: the file cannot be created.
    """
    import_pyarrow()
    import pyarrow.parquet as pq

    short = _short_columns()
    return pq.ParquetWriter(path, record_schema(), write_statistics=short, use_dictionary=short)


_SHORT: list[str] | None = None


def _short_columns() -> list[str]:
    """The Parquet leaf column paths of a record (``source.path``, ``from.list.element.name``)
    but :data:`LONG_TEXT_COLUMNS`, read from an empty file written once (the writer's own
    names for nested columns)."""
    global _SHORT
    if _SHORT is None:
        import io

        import pyarrow.parquet as pq

        buf = io.BytesIO()
        pq.write_table(record_schema().empty_table(), buf)
        schema = pq.ParquetFile(io.BytesIO(buf.getvalue())).schema
        _SHORT = [p for i in range(len(schema)) if (p := schema.column(i).path) not in LONG_TEXT_COLUMNS]
    return _SHORT


def records_to_table(records: Iterable[dict[str, Any]]) -> pa.Table:
    """Return a ``pyarrow.Table`` of ``records`` (dicts of
    :func:`onemail.message.records.build_records`) in :func:`record_schema`.

    :param records: records (any iterable; read once).
    :returns: the table, one row per record, in order.
    :raises MissingExtra: pyarrow is not installed.
    :raises ValueError: a record does not fit the schema (a caller's own dict).
    """
    pa = import_pyarrow()
    rows = [_arrow_safe(r) for r in records]
    try:
        return pa.Table.from_pylist(rows, schema=record_schema())
    except (pa.ArrowInvalid, pa.ArrowTypeError) as exc:
        raise ValueError(f"a record does not fit the Arrow schema of records: {exc}") from None


def _arrow_safe(record: dict[str, Any]) -> dict[str, Any]:
    """The record with lone surrogates of its source's names (undecodable bytes of a path) as
    U+FFFD: Arrow strings are UTF-8."""
    src = record.get("source")
    if not isinstance(src, dict):
        return record
    fixed = {k: _SURROGATE.sub("\ufffd", v) for k in ("path", "member", "folder")
             if isinstance(v := src.get(k), str) and _SURROGATE.search(v)}
    return {**record, "source": {**src, **fixed}} if fixed else record
