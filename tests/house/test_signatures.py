"""One argument order across the public API (issue 18 item 2; docs/adr/0018-keyword-only-options.md).

For every public function, and every public method and hand-written ``__init__`` of a public
class, of the package faces (``onemail``, ``onemail.text``, ``onemail.rtf``, ``onemail.detect``,
``onemail.message``), their public modules and the top-level public modules:

1. after the data arguments, every parameter with a default is keyword-only;
2. a ``bool`` parameter (a flag) is keyword-only, default or not;
3. the list a function appends its issues to, ``issues: list[...]`` after the first parameter,
   is keyword-only, default or not;
4. where a signature has both, ``offset`` (added to every issue's offset) comes right after
   ``issues``; nothing else is named for that (``shift``, ``base``);

except the signatures the spec fixes, listed in :data:`SPEC_FIXED` with the section that fixes
them. Dataclass constructors are value records (``TextIssue(kind, offset, length)``), not
calls with options: they are not checked.
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import inspect
import pkgutil
from collections.abc import Callable, Iterator
from typing import Any, Protocol

import pytest

FACES = ["onemail", "onemail.text", "onemail.rtf", "onemail.detect", "onemail.message"]
#: Public modules of ``onemail`` itself (``onemail.spark`` needs the spark extra).
TOP_LEVEL = ["onemail.cli", "onemail.dask", "onemail.spark"]

#: qualified name -> the parameters that may stay positional, and why (the spec section).
SPEC_FIXED: dict[str, tuple[set[str], str]] = {
    "onemail.text.charsets.Charset.decode": (
        {"issues", "offset"},
        "spec README 'Names in Python': a Charset has .decode(data, issues=None, offset=0) -> str"),
    "onemail.text.charsets.Charset.encode": (
        {"issues"}, "spec README 'Names in Python': .encode(text, issues=None) -> bytes"),
    # The Codec protocol behind Charset.decode/encode (onemail.text._codecs.Codec): the same
    # positional (data, issues, offset) as the Charset methods the spec fixes, which call it.
    "onemail.text.utf7.Utf7Codec.decode": (
        {"issues"}, "spec README 'Names in Python' (Charset.decode's codec)"),
    "onemail.text.utf7.Utf7Codec.decode_chunk": (
        {"issues", "final"}, "spec README 'Names in Python' (Charset.decode's codec)"),
    "onemail.text.utf7.Utf7Codec.encode": (
        {"issues"}, "spec README 'Names in Python' (Charset.encode's codec)"),
    "onemail.cli.main": (
        {"argv"}, "issue 18 'the spec's fixed names stay (... the CLI commands)': main(argv) is "
                  "the console script; argv is its data (the command line, default sys.argv)"),
}
#: Names that mean what ``offset`` means and must be spelled ``offset``.
OFFSET_SYNONYMS = {"shift", "base", "base_offset", "start_offset"}


def _modules() -> Iterator[str]:
    yield from FACES
    for face in FACES[1:]:
        package = importlib.import_module(face)
        for info in pkgutil.iter_modules(package.__path__):
            if not info.name.startswith("_"):
                yield f"{face}.{info.name}"
    yield from TOP_LEVEL


def _callables() -> Iterator[tuple[str, Callable[..., Any], bool]]:
    """(qualified name, function, whether its first parameter is self/cls) of the public API."""
    seen: set[int] = set()
    for name in _modules():
        try:
            module = importlib.import_module(name)
        except ImportError:  # an optional extra (onemail.spark without pyspark)
            continue
        names = getattr(module, "__all__", None) or [n for n in vars(module) if not n.startswith("_")]
        for export in names:
            obj = getattr(module, export)
            if id(obj) in seen or not getattr(obj, "__module__", "").startswith("onemail"):
                continue
            seen.add(id(obj))
            if inspect.isfunction(obj):
                yield f"{obj.__module__}.{obj.__qualname__}", obj, False
            elif inspect.isclass(obj) and not issubclass(obj, enum.Enum) and Protocol not in obj.__mro__:
                yield from _methods(obj)


def _methods(cls: type) -> Iterator[tuple[str, Callable[..., Any], bool]]:
    prefix = f"{cls.__module__}.{cls.__qualname__}"
    for attr, value in vars(cls).items():
        if attr == "__init__" and dataclasses.is_dataclass(cls):
            continue  # a value record's fields
        if attr.startswith("_") and attr != "__init__":
            continue
        if isinstance(value, staticmethod):
            yield f"{prefix}.{attr}", value.__func__, False
        elif isinstance(value, classmethod):
            yield f"{prefix}.{attr}", value.__func__, True
        elif inspect.isfunction(value):
            yield f"{prefix}.{attr}", value, True


def _violations(fn: Callable[..., Any], bound: bool) -> list[str]:
    params = list(inspect.signature(fn).parameters.values())[1 if bound else 0:]
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    out = []
    for i, p in enumerate(params):
        if p.kind not in positional:
            continue
        annotation = p.annotation if isinstance(p.annotation, str) else getattr(p.annotation, "__name__", "")
        if p.default is not inspect.Parameter.empty:
            out.append(f"{p.name}: an option (it has a default) passed by position")
        elif annotation == "bool":
            out.append(f"{p.name}: a flag passed by position")
        elif p.name == "issues" and i > 0 and annotation.startswith("list["):
            out.append(f"{p.name}: the issue list passed by position")
    names = [p.name for p in params]
    if "issues" in names and "offset" in names and names.index("offset") != names.index("issues") + 1:
        out.append("offset does not come right after issues")
    out += [f"{n}: spelled offset everywhere else" for n in names if n in OFFSET_SYNONYMS]
    return out


def test_the_public_api_is_large_enough_to_mean_something():
    assert len(list(_callables())) > 150


def test_options_flags_and_issue_lists_are_keyword_only():
    found = {}
    for qualname, fn, bound in _callables():
        problems = _violations(fn, bound)
        allowed = SPEC_FIXED.get(qualname, (set(), ""))[0]
        problems = [p for p in problems if p.split(":")[0] not in allowed]
        if problems:
            found[qualname] = problems
    assert found == {}


@pytest.mark.parametrize("qualname", sorted(SPEC_FIXED))
def test_each_spec_fixed_signature_exists_and_still_needs_its_exception(qualname):
    callables = {q: (fn, bound) for q, fn, bound in _callables()}
    if qualname not in callables:
        pytest.fail(f"{qualname} is not in the public API any more: remove it from SPEC_FIXED")
    fn, bound = callables[qualname]
    used = {p.split(":")[0] for p in _violations(fn, bound)}
    assert SPEC_FIXED[qualname][0] <= used, "an exception that is no longer needed"
    assert SPEC_FIXED[qualname][1], "each exception cites the spec section that fixes it"


def test_the_rules_catch_what_they_are_for():
    def positional_option(data: bytes, issues: list[int] | None = None) -> None: ...
    def positional_flag(data: bytes, final: bool) -> None: ...
    def positional_list(data: bytes, issues: list[int]) -> None: ...
    def shifted(data: bytes, *, shift: int = 0) -> None: ...
    def out_of_order(data: bytes, *, offset: int = 0, issues: list[int] | None = None) -> None: ...
    def good(data: bytes, cte: str, *, issues: list[int], offset: int = 0, strict: bool = False) -> None: ...

    assert [len(_violations(f, False)) for f in (positional_option, positional_flag, positional_list,
                                                  shifted, out_of_order, good)] == [1, 1, 1, 1, 1, 0]
