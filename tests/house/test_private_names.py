"""No private name crosses modules in ``src/onemail`` (house rule; issue 18 item 4).

Read from the source with :mod:`ast`, in every module but the generated tables:

* ``from <ours> import _name`` -- a private function, class or constant of another module;
* ``<module>._name`` -- the same through a module bound by an import;
* a private module (``_x``) imported from outside the package that holds it: a private module
  is for its own package and the packages inside it (``onemail._walk`` for all of onemail,
  ``onemail.text._tables`` for ``onemail.text`` only, which gives others a documented accessor
  such as :func:`onemail.text.charsets.single_byte_table`).

Dunder names (``__version__``) are public.
"""

from __future__ import annotations

import ast

from paths import REPO

SRC = REPO / "src"


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _module_name(path, root) -> tuple[str, str]:
    """``(module, package)`` of a source file under ``root``."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
        return ".".join(parts), ".".join(parts)
    return ".".join(parts), ".".join(parts[:-1])


def _is_module(name: str, root) -> bool:
    base = root.joinpath(*name.split("."))
    return base.with_suffix(".py").exists() or (base / "__init__.py").exists()


def _resolve(node: ast.ImportFrom, package: str) -> str:
    if not node.level:
        return node.module or ""
    base = package.split(".")
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _private_module_outside(module: str, package: str) -> str | None:
    """The first private component of ``module`` whose package does not hold ``package``."""
    parts = module.split(".")
    for i, part in enumerate(parts):
        if _private(part):
            holder = ".".join(parts[:i])
            if not (package == holder or package.startswith(holder + ".")):
                return ".".join(parts[: i + 1])
    return None


def _violations(path, root=SRC) -> list[str]:
    """Every crossing in the module at ``path`` (``root``: the folder holding ``onemail``)."""
    _module, package = _module_name(path, root)
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found: list[str] = []
    modules: set[str] = set()  # local names bound to modules of ours
    where = path.relative_to(root.parent)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] != "onemail":
                    continue
                bad = _private_module_outside(alias.name, package)
                if bad:
                    found.append(f"{where}:{node.lineno}: imports {bad}")
                modules.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            source = _resolve(node, package)
            if source.split(".")[0] != "onemail":
                continue
            bad = _private_module_outside(source, package)
            if bad:
                found.append(f"{where}:{node.lineno}: imports from {bad}")
            for alias in node.names:
                full = f"{source}.{alias.name}"
                if _is_module(full, root):
                    bad = _private_module_outside(full, package)
                    if bad:
                        found.append(f"{where}:{node.lineno}: imports {bad}")
                    modules.add(alias.asname or alias.name)
                elif _private(alias.name):
                    found.append(f"{where}:{node.lineno}: imports {alias.name} from {source}")
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and _private(node.attr) and isinstance(node.value, ast.Name)
                and node.value.id in modules):
            found.append(f"{where}:{node.lineno}: uses {node.value.id}.{node.attr}")
    return found


def _sources():
    return [p for p in sorted((SRC / "onemail").rglob("*.py")) if "_tables" not in p.parts]


def test_no_private_name_crosses_modules():
    assert len(_sources()) > 40
    assert [v for path in _sources() for v in _violations(path)] == []


def test_the_checker_sees_each_kind_of_crossing(tmp_path):
    """The three patterns above, in a scratch package laid out like src/onemail."""
    pkg = tmp_path / "onemail"
    for folder in ("text/_tables", "detect/_tables"):
        (pkg / folder).mkdir(parents=True)
    for name in ("__init__.py", "text/__init__.py", "detect/__init__.py", "text/_tables/__init__.py",
                 "detect/_tables/__init__.py", "_walk.py", "text/_tables/t.py", "detect/_tables/d.py",
                 "detect/_scoring.py", "text/charsets.py"):
        (pkg / name).touch()
    (pkg / "detect" / "_x.py").write_text(
        "from ..text._tables.t import TABLES\n"  # another package's private module
        "from ._scoring import _helper\n"  # a private name of another module
        "from ..text import charsets\n"
        "charsets._tables()\n"  # the same through the module
        "from ._tables.d import D\n"  # its own package's tables: fine
        "from .._walk import walk\n"  # a private module of an outer package: fine
        "from .. import __version__\n")  # a dunder: fine
    found = [v.split(": ", 1)[1] for v in _violations(pkg / "detect" / "_x.py", tmp_path)]
    assert found == ["imports from onemail.text._tables", "imports _helper from onemail.detect._scoring",
                     "uses charsets._tables"]
