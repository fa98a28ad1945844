"""Every BMP character the ISO-2022 encoders write is read back as itself, except the pinned
T40 differences between CPython's JIS X 0208 encoder mapping and the Encoding Standard's index
(and, for HZ, the T20 pairs of onemail's GBK encoder)."""

from __future__ import annotations

import pytest

from onemail.text import for_label

# T40: CPython encodes these with JIS X 0208's own mapping; the Encoding Standard's jis0208 index
# (Windows code page 932) reads the same pairs as the full-width forms.
T40 = {"\u00a2": "\uffe0", "\u00a3": "\uffe1", "\u00ac": "\uffe2", "\u2016": "\u2225",
       "\u2212": "\uff0d", "\u301c": "\uff5e"}
# T20: onemail's GBK encoder still writes the Private Use code points U+E78D-U+E796 as the
# pairs A6D9-A6DF, A6EC, A6ED, A6F3, which the current index reads as U+FE10-U+FE19.
T20 = {chr(0xE78D + i): chr(c) for i, c in enumerate(
    (0xFE10, 0xFE12, 0xFE11, 0xFE13, 0xFE14, 0xFE15, 0xFE16, 0xFE17, 0xFE18, 0xFE19))}
BMP = [chr(c) for c in range(0x20, 0x10000) if not 0xD800 <= c < 0xE000]


@pytest.mark.parametrize("label", ["iso-2022-jp", "iso-2022-jp-2", "iso-2022-jp-3", "cp50221",
                                   "iso-2022-kr", "hz-gb-2312"])
def test_encoded_characters_read_back(label):
    cs = for_label(label)
    written = 0
    differ = {}
    for ch in BMP:
        issues = []
        data = cs.encode(ch, issues)
        if issues:
            continue
        written += 1
        found = []
        back = cs.decode(data, found)
        if b"\x1b$(P" in data:  # T38: JIS X 0213 plane 2 is not decoded
            assert back == "\ufffd" and len(found) == 1, ch
            continue
        assert found == [], ch
        if back != ch:
            differ[ch] = back
    assert written > 6000
    expected = (T40 if label.startswith(("iso-2022-jp", "cp5022"))
                else T20 if label == "hz-gb-2312" else {})
    assert differ == expected
