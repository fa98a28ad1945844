#!/usr/bin/env python3
"""Run one fuzz target of ``fuzz/targets.py`` under atheris (libFuzzer), or write its seeds.

``python fuzz/fuzz.py TARGET [libFuzzer options and corpus folders]`` fuzzes; onemail is
instrumented for coverage as it is imported. ``python fuzz/fuzz.py --seeds TARGET FOLDER``
writes the target's seed inputs (from ``../shared/corpus/``, read now) into FOLDER, outside the
project. ``fuzz/run`` does both. See ``fuzz/README.md``.
"""

from __future__ import annotations

import hashlib
import importlib
import pkgutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "src"))


def write_seeds(name: str, folder: Path) -> int:
    import targets

    folder.mkdir(parents=True, exist_ok=True)
    n = 0
    for data in targets.seed_inputs(name):
        (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)
        n += 1
    return n


def import_all() -> list[str]:
    """Import every module of onemail (the packages load theirs lazily), so that under
    ``atheris.instrument_imports`` all of them are instrumented; return the names left out.

    Not the command line, nor the layers that spread records over cores and machines
    (onemail.dask, onemail.spark: no target reaches them, and importing dask costs seconds). A
    module of an optional extra that is not installed raises ImportError naming the extra: it
    is left out too (without pyspark, every target failed at start-up before this).
    """
    import onemail

    left_out = []
    for mod in pkgutil.walk_packages(onemail.__path__, "onemail."):
        if mod.name.startswith(("onemail._cli", "onemail.cli", "onemail.dask", "onemail.spark")):
            left_out.append(mod.name)
            continue
        try:
            importlib.import_module(mod.name)
        except ImportError as exc:
            if "extra" not in str(exc):
                raise
            print(f"fuzz: {mod.name} left out ({exc})", file=sys.stderr)
            left_out.append(mod.name)
    return left_out


def main(argv: list[str]) -> int:
    if len(argv) >= 3 and argv[1] == "--seeds":
        print(f"{write_seeds(argv[2], Path(argv[3]))} seeds for {argv[2]}", file=sys.stderr)
        return 0
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    import atheris

    with atheris.instrument_imports(include=["onemail"]):
        import_all()
    import targets

    name = argv[1]
    if name not in targets.TARGETS:
        print(f"unknown target {name!r}; targets: {', '.join(targets.TARGETS)}", file=sys.stderr)
        return 2
    fn = targets.TARGETS[name][0]
    # Load the lazy modules once (tables, codecs) before fuzzing, so they are instrumented too.
    for data in (b"", b"x", b"\xff" * 8):
        try:
            fn(data)
        except AssertionError:
            pass
    atheris.Setup([argv[0], *argv[2:]], fn)
    atheris.Fuzz()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
