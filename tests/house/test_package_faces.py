"""Every package face exports exactly its ``__all__``, with real objects that type checkers see.

For each face (``onemail``, ``onemail.text``, ``onemail.rtf``, ``onemail.message``,
``onemail.detect``):

* ``__all__`` is a literal list (what type checkers read) without duplicates;
* every name of it is bound by a statement of the face itself (an import, also under
  ``if TYPE_CHECKING:``, a ``def``, a ``class`` or an assignment), so no name exists only through
  a module ``__getattr__``, which type checkers cannot see;
* every name resolves to a real object of ours: no module where a function or class is
  expected, and no name shared with a submodule of the package (``onemail.detect.repair`` the
  module vs ``repair`` the function);
* the face binds no other public name (submodules aside).
"""

from __future__ import annotations
import __future__

import ast
import importlib
import inspect
import pkgutil
import types
from pathlib import Path

import pytest

FACES = ["onemail", "onemail.text", "onemail.rtf", "onemail.message", "onemail.detect"]
#: Public-looking names a face may bind that are not exports: the constant type checkers honour
#: (``TYPE_CHECKING = False`` saves importing ``typing``).
NOT_EXPORTS = {"TYPE_CHECKING"}


def _static(module: types.ModuleType) -> tuple[list[str] | None, set[str]]:
    """Return (the literal ``__all__``, or None; the names the face's statements bind)."""
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    literal: list[str] | None = None
    bound: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        nonlocal literal
        for node in body:
            if isinstance(node, ast.ImportFrom | ast.Import):
                bound.update((a.asname or a.name).split(".")[0] for a in node.names)
            elif isinstance(node, ast.FunctionDef | ast.ClassDef):
                bound.add(node.name)
            elif isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names = {t.id for t in targets if isinstance(t, ast.Name)}
                bound.update(names)
                if "__all__" in names:
                    try:
                        literal = list(ast.literal_eval(node.value))
                    except ValueError:
                        literal = None
            elif isinstance(node, ast.If):  # if TYPE_CHECKING: ...
                visit(node.body)
                visit(node.orelse)

    visit(tree.body)
    return literal, bound


def _submodules(module: types.ModuleType) -> set[str]:
    return {info.name for info in pkgutil.iter_modules(getattr(module, "__path__", []))}


@pytest.mark.parametrize("name", FACES)
def test_face_exports_exactly_all(name):
    module = importlib.import_module(name)
    exports = module.__all__
    assert len(exports) == len(set(exports)), "duplicates in __all__"
    literal, bound = _static(module)
    assert literal == list(exports), "__all__ must be one literal list (type checkers read it)"
    assert set(exports) - bound == set(), "exports bound only at run time (__getattr__)"
    clashes = set(exports) & _submodules(module)
    assert clashes == set(), "exports named like a submodule of the package"
    for export in exports:
        obj = getattr(module, export)
        assert not isinstance(obj, types.ModuleType), f"{name}.{export} is a module"
        if inspect.isclass(obj) or inspect.isfunction(obj):
            assert obj.__module__.split(".")[0] == "onemail", f"{name}.{export} is not ours"
    public = {key for key, value in vars(module).items()
              if not key.startswith("_") and key not in NOT_EXPORTS
              and not isinstance(value, __future__._Feature)
              and not (isinstance(value, types.ModuleType) and value.__name__ == f"{name}.{key}")}
    assert public == set(exports)


def test_top_level_read_is_the_message_layer_s():
    import onemail
    import onemail.message

    assert onemail.read is onemail.message.read
    assert onemail.read_mbox is onemail.message.read_mbox
    assert {"read", "read_mbox", "__version__"} <= set(dir(onemail))
    with pytest.raises(AttributeError, match="module 'onemail' has no attribute 'nothing'"):
        onemail.nothing  # noqa: B018


def test_the_spec_s_fixed_names_are_on_the_faces():
    """Spec README: ``for_label``, ``for_code_page``, ``Charset``, ``decode_text``,
    ``ParameterCollector``, ``RtfDefect`` and the ``onemail.rtf`` names stay."""
    import onemail.rtf
    import onemail.text

    assert {"Charset", "for_label", "for_code_page", "decode_text", "ParameterCollector",
            "DecodedParameter", "parse_header_params", "IssueKind", "TextIssue"} <= set(
        onemail.text.__all__)
    assert {"RtfDefect", "RtfDefectKind", "decompress", "compress", "deencapsulate",
            "is_encapsulated", "encapsulate_html", "encapsulate_text"} <= set(onemail.rtf.__all__)
