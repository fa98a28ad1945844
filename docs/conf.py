"""Sphinx configuration of the onemail documentation (``sphinx-build -W docs docs/_build``).

The API reference comes from the docstrings (reST field lists, house style section 6) by
autodoc; the Markdown pages (the user guide, the ambiguity register, the ADRs) are read by
MyST. The issue-kind reference (``kinds.md``) is written at each build from the three enums and
the meanings of ``onemail explain`` (:func:`kinds_page`): the committed ``kinds.md`` is a stub
whose text is replaced as Sphinx reads it, so the page cannot go stale.
"""

from __future__ import annotations

import sys
from pathlib import Path

from sphinx.application import Sphinx

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS.parent / "src"))

import onemail  # noqa: E402
from onemail._cli import explain  # noqa: E402
from onemail._register import ENTRIES  # noqa: E402

project = "onemail"
author = "The onemail authors"
copyright = "2026, The onemail authors"
release = version = onemail.__version__

extensions = ["sphinx.ext.autodoc", "sphinx.ext.viewcode", "myst_parser"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "README.md"]
nitpicky = False
suppress_warnings: list[str] = []

# The register's headings get anchors, so the kind reference links to each entry.
myst_heading_anchors = 4
myst_enable_extensions = ["colon_fence"]

autodoc_default_options = {"members": True, "show-inheritance": True, "member-order": "bysource"}
autodoc_typehints = "description"
autodoc_preserve_defaults = True
# Types named in signatures but not importable at run time, where autodoc would warn.
autodoc_type_aliases: dict[str, str] = {}

html_theme = "alabaster"
html_title = f"onemail {release}"
html_static_path: list[str] = []


def kinds_page() -> str:
    """Return the Markdown of the issue-kind reference: every kind, its meaning, its entries."""
    from myst_parser.slugs import github_slugify

    lines = [
        "# Issue kinds",
        "",
        "Every issue reports a kind (its value is the name written in JSON), a byte offset and a",
        "length. The three enums have disjoint values. A kind named `Ambiguous*` is a documented",
        "resolution with an entry in the [ambiguity register](ambiguities.md); every other kind",
        "is damage. `onemail explain KIND` prints the same from the command line.",
    ]
    for enum_ in explain.kind_enums():
        path = explain.qualified_name(next(iter(enum_))).rsplit(".", 1)[0]
        lines += ["", f"## `{path}`", "", "| kind | member | meaning | register |",
                  "| --- | --- | --- | --- |"]
        for kind in enum_:
            ids = explain.entries_naming(kind)
            links = ", ".join(
                f"[{key}](ambiguities.md#{github_slugify(f'{key} {ENTRIES[key][0]}')})" for key in ids)
            meaning = explain.MEANINGS[kind.value].replace("|", "\\|")
            lines.append(f"| `{kind.value}` | `{kind.name}` | {meaning} | {links} |")
    return "\n".join(lines) + "\n"


def cli_help() -> str:
    """Return ``onemail --help`` and every ``onemail COMMAND --help`` as Markdown code blocks."""
    import argparse
    import os

    from onemail.cli import build_parser

    os.environ["COLUMNS"] = "100"  # argparse wraps help to the terminal; the page is fixed
    parser = build_parser()
    blocks = [("onemail --help", parser.format_help())]
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, command in sub.choices.items():
        blocks.append((f"onemail {name} --help", command.format_help()))
        for action in command._actions:
            if isinstance(action, argparse._SubParsersAction):
                blocks += [(f"onemail {name} {n} --help", c.format_help())
                           for n, c in action.choices.items()]
    return "\n".join(f"## `{title[:-7]}`\n\n```text\n{text.rstrip()}\n```\n" for title, text in blocks)


def _source_read(app: Sphinx, docname: str, source: list[str]) -> None:
    if docname == "kinds":
        source[0] = kinds_page()
    elif docname == "cli":
        source[0] = source[0].replace("<!-- onemail-help -->", cli_help())


def setup(app: Sphinx) -> None:
    """Fill the generated pages as Sphinx reads them."""
    app.connect("source-read", _source_read)
