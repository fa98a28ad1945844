"""Records as Arrow (onemail.message.arrow): the schema matches the JSON one, a table of records
reads back equal, a record that does not fit is a ValueError, a missing pyarrow names the extra."""

from __future__ import annotations

import sys

import pytest

from onemail.message import read
from onemail.message.records import build_records, schema
from onemail.message.source import Source

DATA = (b"From: Ann <ann@example.org>\r\nTo: b@example.org, Group: c@example.org;\r\n"
        b"Subject: =?utf-8?q?caf=C3=A9?=\r\nDate: Thu, 22 Aug 2002 13:52:38 +0100\r\n"
        b"MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n"
        b"--b\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>caf\xc3\xa9</p>\r\n"
        b"--b\r\nContent-Type: message/rfc822\r\n\r\nSubject: inner\r\n\r\nhello\r\n"
        b"--b\r\nContent-Type: application/pdf; name=\"a.pdf\"\r\n\r\n%PDF\r\n--b--\r\n")


def test_the_arrow_schema_has_the_json_schema_fields_in_order():
    pytest.importorskip("pyarrow")
    from onemail.message.arrow import record_schema

    s = record_schema()
    assert s.names == list(schema()["properties"])
    assert s.metadata == {b"onemail.schema_version": b"1"}
    assert record_schema() is s


def test_records_to_table_reads_back_equal():
    pytest.importorskip("pyarrow")
    from onemail.message.arrow import records_to_table

    records = build_records(read(DATA), Source("x.mbox", "mbox", index=2, offset=10, length=len(DATA)),
                            saved_paths=True)
    assert len(records) == 2 and records[1]["parent_id"] == records[0]["id"]
    table = records_to_table(iter(records))
    assert table.num_rows == 2
    assert table.to_pylist() == records


def test_a_lone_surrogate_of_a_path_becomes_u_fffd():
    pytest.importorskip("pyarrow")
    from onemail.message.arrow import records_to_table

    (record,) = build_records(read(b"Subject: x\r\n\r\ny"), Source("caf\udce9.eml", "eml"))
    (row,) = records_to_table([record]).to_pylist()
    assert row["source"]["path"] == "caf\ufffd.eml"
    assert {k: v for k, v in row.items() if k != "source"} == {k: v for k, v in record.items() if k != "source"}


def test_a_record_that_does_not_fit_is_a_value_error():
    pytest.importorskip("pyarrow")
    from onemail.message.arrow import records_to_table

    (record,) = build_records(read(b"Subject: x\r\n\r\ny"), Source("-", "stdin"))
    with pytest.raises(ValueError, match="does not fit"):
        records_to_table([{**record, "issues": "not a list"}])


def test_without_pyarrow_the_error_names_the_extra(monkeypatch):
    from onemail.message import arrow

    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setattr(arrow, "_SCHEMA", None)
    with pytest.raises(arrow.MissingExtra, match=r"onemail\[parquet\]"):
        arrow.record_schema()
    assert issubclass(arrow.MissingExtra, ImportError)


def test_parquet_writer_keeps_no_statistics_of_bodies(tmp_path):
    """Min / max statistics and a dictionary of a whole body copy it (a 64 MiB body of NULs cost
    500 MB more in the writer); every other column keeps its statistics."""
    pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    from onemail.message.arrow import LONG_TEXT_COLUMNS, parquet_writer, records_to_table

    msg = read(b"From: a@example.com\r\nSubject: s\r\nContent-Type: text/html\r\n\r\n<p>body\0</p>\r\n")
    records = build_records(msg, Source("m.eml", "eml"))
    writer = parquet_writer(str(tmp_path / "r.parquet"))
    writer.write_table(records_to_table(records))
    writer.close()
    meta = pq.ParquetFile(tmp_path / "r.parquet").metadata.row_group(0)
    columns = {meta.column(i).path_in_schema: meta.column(i) for i in range(meta.num_columns)}
    assert {n for n, c in columns.items() if not c.is_stats_set} == set(LONG_TEXT_COLUMNS)
    assert {"source.path", "subject", "date"} <= set(columns)
    assert pq.read_table(tmp_path / "r.parquet").to_pylist()[0]["body_html"] == "<p>body\0</p>\r\n"
