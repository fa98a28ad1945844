"""Generate ``src/onemail/rtf/_tables/code_pages.py``: the CPython codec of each Windows code page.

``onemail.rtf`` imports nothing else of onemail's, so its standalone code-page decoder
(:func:`onemail.rtf.encapsulation.cpython_code_page_decoder`, used when no decoder is passed
in) cannot ask ``onemail.text``; this table gives it the same facts, from the one table of
charset facts (``scripts/data/charsets.toml``):

* ``CODEC_NAMES``: every code page of a decoder (its ``code_pages`` and its
  ``code_page_codecs``) -> the CPython codec that reads it, by this rule: the decoder's
  ``code_page_codecs`` entry, else ``cpNNN`` when CPython has that codec, else the decoder's
  first ``python`` codec; a code page none of these names is left out. Names are CPython's
  canonical ones (``codecs.lookup(...).name``). The decoder still looks ``cpNNN`` up for a code
  page of no decoder (the EBCDIC pages, for example).
* ``NOT_BYTE_CODE_PAGES``: the UTF-16 and UTF-32 code pages, which cannot decode the bytes of an
  8-bit RTF text run (RT28).
"""

from __future__ import annotations

import codecs

from _facts import FACTS_INPUT, read_facts

#: The family module of the UTF-16 and UTF-32 decoders.
_WIDE = "._codecs.utf_16"


def _codec(cp: int, decoder: dict) -> str | None:
    explicit = {int(k): v for k, v in decoder.get("code_page_codecs", {}).items()}
    for name in (explicit.get(cp), f"cp{cp}", *decoder["python"][:1]):
        if name is None:
            continue
        try:
            return codecs.lookup(name).name
        except LookupError:
            if name == explicit.get(cp):
                raise ValueError(f"charsets.toml: code page {cp}: CPython has no codec {name!r}") from None
    return None


def tables() -> tuple[dict[int, str], list[int]]:
    """``(code page -> codec name, the UTF-16/32 code pages)`` from the charset facts."""
    names: dict[int, str] = {}
    wide: list[int] = []
    for d in read_facts():
        pages = set(d["code_pages"]) | {int(k) for k in d.get("code_page_codecs", {})}
        for cp in sorted(pages):
            if d["module"] == _WIDE:
                wide.append(cp)
                continue
            codec = _codec(cp, d)
            if codec is not None:
                if cp in names:
                    raise ValueError(f"charsets.toml: code page {cp} given twice")
                names[cp] = codec
    return names, sorted(wide)


def body() -> str:
    names, wide = tables()
    rows = "".join(f"    {cp}: {name!r},\n" for cp, name in sorted(names.items()))
    return ("#: Windows code page -> the CPython codec that reads it (scripts/gen/rtf_code_pages.py).\n"
            f"CODEC_NAMES: dict[int, str] = {{\n{rows}}}\n\n"
            "#: The UTF-16 and UTF-32 code pages (no 8-bit text run decodes in them; RT28).\n"
            f"NOT_BYTE_CODE_PAGES: frozenset[int] = frozenset({tuple(wide)!r})\n")


OUTPUTS = [("src/onemail/rtf/_tables/code_pages.py", [FACTS_INPUT, "cpython:codecs"], body)]
