"""De-encapsulation of every encapsulated RTF in ``../shared/corpus/rtf/`` (spec 002).

- Every ``\\fromhtml1``/``\\fromtext`` file de-encapsulates without an exception and with
  no defect except the ones listed in ``EXPECTED_DEFECTS`` (none of which loses text).
- ``\\fromtext`` files equal Outlook's stored PidTagBody (``expected/*.txt``) after CRLF and
  trailing-space normalisation.
- ``\\fromhtml1`` files against the stored PidTagHtml (``expected/*.html``, a weak oracle):
  after removing the README's usual differences (the ``<meta http-equiv=Content-Type>`` tag
  Outlook adds, line breaks and other white space, letter case of tags) they are equal,
  except where ``HTML_EXPLAINED`` explains the rest.
"""

from __future__ import annotations

import csv
import re

import pytest
from paths import CORPUS
from rtf_oracles import normalise_html

from onemail.rtf import RtfDefectKind, deencapsulate, is_encapsulated

RTF = CORPUS / "rtf"
pytestmark = pytest.mark.skipif(not RTF.exists(), reason="../shared/corpus/rtf is not present")


def _manifest() -> list[dict]:
    if not RTF.exists():
        return []
    with open(RTF / "MANIFEST.tsv", newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


MANIFEST = _manifest()
RTF_FILES = sorted(r["file"] for r in MANIFEST if r["kind"] in ("rtf-decompressed", "rtf-file"))
EXPECTED = {r["file"]: r for r in MANIFEST if r["kind"].startswith("expected-")}

K = RtfDefectKind
# Defects the corpus really has; none of them loses text.
EXPECTED_DEFECTS = {
    # Aspose writes an unbalanced '}' inside \htmlrtf that closes the root early (RT24).
    "rtf/Aspose.Email-for-Java--New-Draft.rtf": [K.UNBALANCED_GROUP_END],
    # An RTFDE test file whose last groups are never closed.
    "rtf/RTFDE--multiple-encodings-2.rtf": [K.UNCLOSED_GROUPS],
    # An RTFDE test file made to hold \uN high surrogates followed by plain text (\uc1 with
    # two fallback characters): the spec's LoneSurrogate, twice.
    "rtf/RTFDE--surrogate_pairs.rtf": [K.LONE_SURROGATE, K.LONE_SURROGATE],
}

# Measured on the visible corpus: 127 files are \fromhtml1 (126 documents and one RTFDE
# template), 37 are \fromtext.
ENCAPSULATED_COUNTS = {"html": 127, "text": 37, None: 36}


def test_corpus_counts():
    counts = {"html": 0, "text": 0, None: 0}
    for name in RTF_FILES:
        counts[is_encapsulated((RTF / name).read_bytes())] += 1
    assert counts == ENCAPSULATED_COUNTS


@pytest.mark.parametrize("name", RTF_FILES)
def test_deencapsulates_with_only_known_defects(name):
    data = (RTF / name).read_bytes()
    result = deencapsulate(data)
    flavour = next(r["flavour"] for r in MANIFEST if r["file"] == name)
    if flavour in ("fromhtml", "fromtext"):
        assert result.kind == flavour[4:]
    assert [d.kind for d in result.defects] == EXPECTED_DEFECTS.get(name, [])


def _expected_text(expected_name: str, rtf: bytes) -> str:
    row = EXPECTED[expected_name]
    raw = (RTF / expected_name).read_bytes().rstrip(b"\x00")
    if "PT_STRING8" in row["status"]:  # the message's code page, which is the RTF's here
        cp = re.search(rb"\\ansicpg(\d+)", rtf)
        return raw.decode(f"cp{int(cp.group(1)) if cp else 1252}")
    return raw.decode("utf-8")


def _normalise_text(text: str) -> str:
    text = text.rstrip("\x00").replace("\r\n", "\n").replace("\r", "\n")
    return "\n".join(line.rstrip(" ") for line in text.split("\n")).strip("\n")


TEXT_CASES = sorted(n[len("expected/"):-4] for n in EXPECTED if n.endswith(".txt"))
HTML_CASES = sorted(n[len("expected/"):-5] for n in EXPECTED if n.endswith(".html"))


def test_expected_counts():
    assert (len(TEXT_CASES), len(HTML_CASES)) == (27, 11)


@pytest.mark.parametrize("stem", TEXT_CASES)
def test_fromtext_equals_stored_body(stem):
    rtf = (RTF / "rtf" / f"{stem}.rtf").read_bytes()
    result = deencapsulate(rtf)
    assert result.kind == "text"
    expected = _expected_text(f"expected/{stem}.txt", rtf)
    assert _normalise_text(result.text) == _normalise_text(expected)


# Remaining differences, each with its explanation and the edit that removes it from both.
HTML_EXPLAINED = {
    # The RTF was written by Exchange's HTML converter ({\*\formatConverter converted from
    # html}): it wrote a plain space where the stored HTML has &nbsp;, and the implied
    # </tbody> end tags the stored HTML leaves out. The RTF holds no &nbsp; at all.
    "poi--bug66335": lambda html: html.replace("&nbsp;", "").replace("</tbody>", ""),
}


@pytest.mark.parametrize("stem", HTML_CASES)
def test_fromhtml_matches_stored_html(stem):
    rtf = (RTF / "rtf" / f"{stem}.rtf").read_bytes()
    result = deencapsulate(rtf)
    assert result.kind == "html"
    expected = normalise_html((RTF / "expected" / f"{stem}.html").read_bytes().decode("utf-8"))
    ours = normalise_html(result.text)
    explain = HTML_EXPLAINED.get(stem)
    if explain is not None:
        assert ours != expected  # the explanation is still needed
        expected, ours = explain(expected), explain(ours)
    assert ours == expected


def _onemail_charsets(code_page, data, errors):
    """The adapter the message layer uses: onemail.text's charsets as the code page decoder."""
    from onemail.text import for_code_page

    charset = for_code_page(code_page)
    if charset is None:
        return None
    issues = []
    text = charset.decode(data, issues)
    errors.extend((i.offset, i.length) for i in issues if not i.kind.value.startswith("Ambiguous"))
    return text


def test_onemail_charsets_decode_the_corpus_like_the_default():
    """The plug-in point with onemail's own charsets gives the same result on every file."""
    from onemail.rtf import DeencapsulationOptions

    options = DeencapsulationOptions(code_page_decoder=_onemail_charsets)
    for name in RTF_FILES:
        data = (RTF / name).read_bytes()
        assert deencapsulate(data, options=options) == deencapsulate(data), name


@pytest.mark.parametrize("stem", HTML_CASES + TEXT_CASES)
def test_stored_bodies_round_trip_through_encapsulation(stem):
    """Decision 1 on real bodies: Outlook's stored HTML and text come back exactly."""
    from onemail.rtf import encapsulate_html, encapsulate_text

    rtf = (RTF / "rtf" / f"{stem}.rtf").read_bytes()
    if stem in HTML_CASES:
        body = (RTF / "expected" / f"{stem}.html").read_bytes().decode("utf-8")
        result = deencapsulate(encapsulate_html(body))
    else:
        body = _expected_text(f"expected/{stem}.txt", rtf)
        result = deencapsulate(encapsulate_text(body))
    assert (result.text, result.defects) == (body, ())
