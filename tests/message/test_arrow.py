"""``onemail.message.arrow``: records as an Arrow table in the fixed schema (the parquet extra).

Parquet files through ``onemail export``: tests/cli/test_export.py."""

from __future__ import annotations

import sys

import pytest

from onemail.message import read
from onemail.message.arrow import MissingExtra, import_pyarrow, record_schema, records_to_table
from onemail.message.records import build_records
from onemail.message.source import Source


def _records(path: str = "/mail/a.eml") -> list[dict]:
    msg = read(b"Subject: hi\r\nFrom: A <a@b.example>\r\n\r\nbody\r\n")
    return build_records(msg, Source(path, "eml"))


def test_without_pyarrow_the_error_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # import pyarrow raises ImportError
    with pytest.raises(MissingExtra, match=r"onemail\[parquet\]"):
        import_pyarrow()
    assert issubclass(MissingExtra, ImportError)


def test_the_schema_is_the_json_one_in_order():
    pytest.importorskip("pyarrow")
    schema = record_schema()
    assert schema is record_schema()  # built once
    assert schema.names[:5] == ["schema_version", "id", "parent_id", "part", "source"]
    assert (len(schema.names), schema.names[-1], schema.metadata) == (
        23, "error", {b"onemail.schema_version": b"1"})
    assert str(schema.field("schema_version").type) == "int32"


def test_records_round_trip_and_surrogates_become_fffd():
    pytest.importorskip("pyarrow")
    records = _records("/mail/\udcffa.eml")  # an undecodable byte of a file name
    table = records_to_table(records)
    (row,) = table.to_pylist()
    assert row["source"]["path"] == "/mail/\ufffda.eml"
    assert {**row, "source": records[0]["source"]} == records[0]
    assert records_to_table([]).num_rows == 0


def test_a_record_that_does_not_fit_is_a_value_error():
    pytest.importorskip("pyarrow")
    bad = {**_records()[0], "schema_version": "one"}
    with pytest.raises(ValueError, match="does not fit the Arrow schema"):
        records_to_table([bad])
