"""Outlook PST/OST (onemail.message.pst) through the optional extra onemail[pst]: the corpus
files (../shared/corpus/pst) with exact counts, folder paths and values; damage in one folder
or item is one skip and the walk goes on; without the extra, one clear skip."""

from __future__ import annotations

import shutil
from collections import Counter

import pytest
from paths import CORPUS

from onemail.message.containers import Found, Skipped, walk
from onemail.message.pst import (
    EXTRA_MESSAGE,
    heap_properties,
    is_message_class,
    strip_subject_prefix,
)

PST = CORPUS / "pst"


def test_subject_prefix_marker_and_message_classes():
    assert strip_subject_prefix(0x1F, "\x01\x05Re: hi".encode("utf-16-le")) == "Re: hi".encode("utf-16-le")
    assert strip_subject_prefix(0x1E, b"\x01\x05Re: hi") == b"Re: hi"
    assert strip_subject_prefix(0x1F, "plain".encode("utf-16-le")) == "plain".encode("utf-16-le")
    assert [is_message_class(c) for c in ("IPM.Note", "ipm.note.smime", "REPORT.IPM.Note.NDR",
                                          "IPM.Schedule.Meeting.Request", None, "IPM.Contact",
                                          "IPM.Appointment", "IPM.Notes", "IPM.Configuration.Calendar")] == [
        True, True, True, True, True, False, False, False, False]


def test_heap_properties_refuses_what_is_no_property_context():
    assert heap_properties(b"", "x") is None
    assert heap_properties(b"\x0c\x00\xec\xbc" + bytes(20), "x") is None


def test_without_the_extra_one_clear_skip(tmp_path, monkeypatch):
    import onemail.message.pst as pst

    monkeypatch.setattr(pst, "_pypff", lambda: None)
    shutil.copy(PST / "tika-testPST.pst", tmp_path / "a")
    (s,) = walk([tmp_path])
    assert (s.reason, s.member, s.container, s.detail) == ("needs-extra", "a", "pst", EXTRA_MESSAGE)
    assert "onemail[pst]" in s.detail


pypff = pytest.importorskip("pypff", reason="the optional extra onemail[pst] is not installed")

EXPECTED = {  # messages, and items that are not messages, per file
    "aspose-net-Outlook.pst": (14, 13),
    "aspose-net-Outlook_1.pst": (14, 13),
    "aspose-net-PersonalStorage.pst": (0, 0),
    "aspose-net-test.ost": (0, 18),
    "tika-testPST.pst": (7, 0),
    "tika-testPST_variousBodyTypes.pst": (4, 0),
}


def _walk(*names):
    return list(walk([PST / n for n in names]))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_corpus_counts(name):
    items = _walk(name)
    found = [i for i in items if isinstance(i, Found)]
    reasons = Counter(i.reason for i in items if isinstance(i, Skipped))
    assert (len(found), reasons["not-message"]) == EXPECTED[name]
    assert all(f.source.container == "pst" and f.message.format == "pst" and f.message.error is None
               for f in found)
    if name == "aspose-net-PersonalStorage.pst":
        assert [(i.reason, i.detail) for i in items] == [("empty", "a PST/OST store without any item")]
    else:
        assert set(reasons) <= {"not-message"}
    assert sorted(found, key=lambda f: f.source.key()) == found


def test_corpus_total_is_the_readme_count():
    """README: 63 messages counted with pypff (contacts and appointments included)."""
    items = _walk(*EXPECTED)
    found = sum(isinstance(i, Found) for i in items)
    not_messages = [i for i in items if isinstance(i, Skipped) and i.reason == "not-message"]
    assert found == 39 and len(not_messages) == 44
    assert Counter(i.detail for i in not_messages)["an item of class IPM.Contact, not a message"] == 20


def test_folders_and_values_tika():
    found = [i for i in _walk("tika-testPST.pst") if isinstance(i, Found)]
    assert {f.source.folder for f in found} == {"Début du fichier de données Outlook"}
    assert [f.source.index for f in found] == list(range(7))
    first = found[0].message
    assert first.subject == "Re: Feature Generators"  # the \x01\x05 marker removed
    assert [(a.name, a.address) for a in first.from_] == [("Jörn Kottmann", "kottmann@gmail.com")]
    assert first.date.isoformat() == "2014-02-26T07:50:04+00:00"
    assert first.text.startswith("Hello,\r\n\r\nthe Previous")
    fw = found[6].message
    assert fw.subject == "FW: First email"
    (att,) = [p for p in fw.parts if p.is_attachment]
    assert (att.filename, att.media_type, att.message.subject) == (
        "First email", "application/vnd.ms-outlook", "First email")


def test_folders_attachments_and_embedded_messages_aspose():
    found = [i for i in _walk("aspose-net-Outlook.pst") if isinstance(i, Found)]
    assert Counter(f.source.folder for f in found) == {"Top of Personal Folders/Inbox": 8,
                                                       "Top of Personal Folders/Sent Items": 6}
    by_subject = {f.message.subject: f.message for f in found if f.source.folder.endswith("Inbox")}
    multi = by_subject["Multiple attachments"]
    names = [p.filename for p in multi.parts if p.is_attachment]
    assert names == ["text file.txt", "Sunset.jpg", "Blue hills.jpg"]
    txt = multi.parts[2]
    assert (txt.media_type, len(txt.data)) == ("text/plain", 29)
    assert len(multi.parts[3].data) == 71189  # Sunset.jpg
    embedded = by_subject["this message contains embedded MSG"]
    inner = [p.message for p in embedded.parts if p.message is not None]
    assert [m.subject for m in inner] == ["message 1", "message 2"]
    assert inner[0].text is not None
    attachments = sum(p.is_attachment for f in found for p in f.message.parts)
    assert attachments == 34


def test_body_types_tika():
    found = [i for i in _walk("tika-testPST_variousBodyTypes.pst") if isinstance(i, Found)]
    assert {f.source.folder for f in found} == {"Top of Outlook data file/Inbox/tmp"}
    kinds = [[p.path for p in f.message.parts] for f in found]
    assert kinds == [["body.txt", "body.html"], ["body.txt", "body.html"], ["body.txt", "body.rtf"], ["body.txt"]]
    rtf = found[2].message.parts[1]
    assert rtf.is_rtf and rtf.text.startswith("{\\rtf1")


class _Proxy:
    """A pypff object whose chosen calls fail, as on a damaged file."""

    def __init__(self, real, fail):
        self._real, self._fail = real, fail

    def __getattr__(self, name):
        value = getattr(self._real, name)
        if not callable(value):
            return value

        def call(*args):
            if (name, self._real_name(), *args) in self._fail:
                raise OSError("libpff_item_get_sub_item: unable to retrieve sub item")
            out = value(*args)
            return _Proxy(out, self._fail) if type(out).__name__ in ("folder", "file") else out
        return call

    def _real_name(self):
        try:
            return self._real.get_name()
        except Exception:  # noqa: BLE001 - the file object has no name
            return None


def test_a_failing_folder_and_item_are_one_skip_each(monkeypatch):
    import onemail.message.pst as pst

    fail = {("get_number_of_sub_items", "Inbox"), ("get_sub_item", "Sent Items", 2)}

    class Fake:
        @staticmethod
        def file():
            return _Proxy(pypff.file(), fail)

    monkeypatch.setattr(pst, "_pypff", lambda: Fake)
    items = _walk("aspose-net-Outlook.pst", "tika-testPST.pst")
    damaged = [(i.folder, i.detail) for i in items if isinstance(i, Skipped) and i.reason == "damaged"]
    assert damaged == [
        ("Top of Personal Folders/Inbox", "the folder cannot be listed (OSError: libpff_item_get_sub_item: "
                                          "unable to retrieve sub item)"),
        ("Top of Personal Folders/Sent Items", "item 2 of the folder cannot be opened (OSError: "
                                               "libpff_item_get_sub_item: unable to retrieve sub item)")]
    found = [i for i in items if isinstance(i, Found)]
    assert Counter(f.source.path.rsplit("/", 1)[-1] for f in found) == {"aspose-net-Outlook.pst": 5,
                                                                        "tika-testPST.pst": 7}


def test_a_damaged_pst_is_one_skip(tmp_path):
    raw = (PST / "tika-testPST.pst").read_bytes()
    (tmp_path / "cut.pst").write_bytes(raw[:4096])
    (tmp_path / "junk.pst").write_bytes(b"!BDN" + bytes(600))
    items = list(walk([tmp_path]))
    assert [(i.member, i.reason) for i in items] == [("cut.pst", "damaged"), ("junk.pst", "damaged")]
    assert all(i.detail.startswith("not a readable PST/OST file (") for i in items)


def test_read_false_counts_without_building(monkeypatch):
    import onemail.message.mapi as mapi

    def boom(*a, **k):
        raise AssertionError("built")

    monkeypatch.setattr(mapi, "build_message", boom)
    found = [i for i in walk([PST / "tika-testPST.pst"], read=False) if isinstance(i, Found)]
    assert len(found) == 7 and all(f.message is None for f in found)
