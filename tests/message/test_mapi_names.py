"""MAPI properties carry their MS-OXPROPS names beside the tag (issue 18)."""

from __future__ import annotations

from paths import REPO

import onemail
from onemail.message.mapi_names import PROPERTY_NAMES, property_name


def test_names_of_the_properties_the_readers_use():
    from onemail.message import mapi

    assert property_name(mapi.SUBJECT) == "PidTagSubject"
    assert property_name(mapi.RTF_COMPRESSED) == "PidTagRtfCompressed"
    assert property_name(mapi.MESSAGE_CODEPAGE) == "PidTagMessageCodepage"
    assert property_name(mapi.ATTACH_DATA, ptype=0x0102) == "PidTagAttachDataBinary"
    assert property_name(mapi.ATTACH_DATA, ptype=0x000D) == "PidTagAttachDataObject"
    assert property_name(0x8005) is None
    assert all(name.startswith("PidTag") for name in PROPERTY_NAMES.values())
    assert len(set(PROPERTY_NAMES.values())) == len(PROPERTY_NAMES)


def test_names_in_json():
    msg = onemail.read(REPO / "examples" / "ruby-msg-test_Blammo.msg")
    subject = next(p for p in msg.properties if p.tag == 0x0037)
    assert subject.canonical_name == "PidTagSubject"
    assert subject.to_json() == {"tag": "0x0037", "type": "0x001E", "value": "BlammoBlammo",
                                 "property": "PidTagSubject"}
