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
