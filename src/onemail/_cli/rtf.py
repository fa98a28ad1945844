"""``onemail rtf ...``: the RTF command group (compressed RTF here; more subcommands plug in).

``onemail rtf decompress FILE [-o OUT]`` writes the RTF of a ``PidTagRtfCompressed`` stream
and lists the defects on standard error; ``onemail rtf compress FILE [-o OUT]`` writes one.

**Adding a subcommand to the group.** A module ``onemail/_cli/_rtf_<name>.py`` (the leading
underscore keeps :mod:`onemail.cli` from treating it as a top-level area) that defines
``add_subparser(rtf_sub)`` is found and called with the group's subparsers object, in name
order, when the parser is built; it adds its own ``rtf_sub.add_parser(...)`` and sets
``run=``. Other code can also call :func:`add_subcommands` with its own ``add_subparser``
function before :func:`onemail.cli.build_parser` runs.
"""

from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
import sys
from collections.abc import Callable

from ._exits import add_command
from ._safe import escape_for_terminal

_UNREAD = "FILE could not be read"

_EXTRA: list[Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None]] = []  # add_subparser functions registered through add_subcommands()


def add_subcommands(add_subparser: Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None]) -> None:
    """Register ``add_subparser(rtf_sub)``, called when the ``rtf`` group is built.

    :param add_subparser: a callable taking the group's ``argparse`` subparsers object.
    """
    if add_subparser not in _EXTRA:
        _EXTRA.append(add_subparser)


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = add_command(sub, "rtf", help="RTF bodies: compressed RTF (MS-OXRTFCP) and more", unread=None,
                    usage="a usage error: no SUBCOMMAND, or bad options")
    rtf_sub = p.add_subparsers(dest="rtf_command", metavar="SUBCOMMAND")
    p.set_defaults(run=lambda args: _usage(p))

    d = add_command(rtf_sub, "decompress", help="decompress a PidTagRtfCompressed stream; list defects",
                    unread=_UNREAD, usage="a usage error: bad options, a negative --max-output")
    d.add_argument("file", help="the stream, header included ('-' for standard input)")
    d.add_argument("-o", "--output", metavar="OUT", help="write the RTF here (default stdout)")
    d.add_argument("--max-output", type=int, default=None, metavar="BYTES",
                   help="the most bytes to produce (default 256 MiB)")
    d.add_argument("--json", action="store_true",
                   help="print JSON (type, sizes, crc_verified, defects) instead of the summary "
                        "(to stdout with -o, else to stderr)")
    d.set_defaults(run=run_decompress)

    c = add_command(rtf_sub, "compress", help="compress RTF into a PidTagRtfCompressed stream",
                    unread=_UNREAD)
    c.add_argument("file", help="the RTF ('-' for standard input)")
    c.add_argument("-o", "--output", metavar="OUT", help="write the stream here (default stdout)")
    c.add_argument("--lazy", action="store_true", help="lazy matching (smaller, slower)")
    c.add_argument("--mela", action="store_true", help="write an uncompressed MELA stream")
    c.set_defaults(run=run_compress)

    from . import __path__ as cli_path

    for info in sorted(pkgutil.iter_modules(cli_path), key=lambda i: i.name):
        if info.name.startswith("_rtf_"):
            importlib.import_module(f"{__package__}.{info.name}").add_subparser(rtf_sub)
    for add_subparser in _EXTRA:
        add_subparser(rtf_sub)


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def read_input(path: str) -> bytes | None:
    """The bytes of ``path`` (``-``: standard input), or ``None`` after printing why it could
    not be read (the commands then exit 1)."""
    try:
        if path == "-":
            return sys.stdin.buffer.read()
        with open(path, "rb") as f:
            return f.read()
    except OSError as exc:
        print(f"onemail: {exc}", file=sys.stderr)
        return None


def write_output(path: str | None, data: bytes) -> bool:
    """Write ``data`` to ``path`` (``None``: standard output); ``False`` after printing why it
    could not be written."""
    try:
        if path is None:
            sys.stdout.buffer.write(data)
            sys.stdout.flush()
        else:
            with open(path, "wb") as f:
                f.write(data)
    except OSError as exc:
        print(f"onemail: {exc}", file=sys.stderr)
        return False
    return True


def run_decompress(args: argparse.Namespace) -> int:
    from ..rtf import decompress

    if args.max_output is not None and args.max_output < 0:  # a usage error before any work
        print("onemail: --max-output must be >= 0", file=sys.stderr)
        return 2
    data = read_input(args.file)
    if data is None:
        return 1
    result = decompress(data) if args.max_output is None else decompress(data, max_output=args.max_output)
    comptype = data[8:12].decode("latin-1") if len(data) >= 12 else ""
    report = sys.stdout if args.output is not None else sys.stderr
    if args.json:
        json.dump({"type": comptype, "input_bytes": len(data), "output_bytes": len(result.data),
                   "crc_verified": result.crc_verified,
                   "defects": [d.to_json() for d in result.defects]}, report)
        report.write("\n")
    else:
        crc = "CRC verified" if result.crc_verified else "CRC not verified"
        print(f"-- {escape_for_terminal(comptype) or '?'} stream, {len(data)} bytes -> {len(result.data)} bytes of RTF; "
              f"{crc}; {len(result.defects)} defect(s)", file=sys.stderr)
        for d in result.defects:
            print(f"   {d.kind.value} at byte {d.offset}, {d.length} byte(s)", file=sys.stderr)
    return 0 if write_output(args.output, result.data) else 1


def run_compress(args: argparse.Namespace) -> int:
    from ..rtf import compress

    data = read_input(args.file)
    if data is None:
        return 1
    stream = compress(data, mela=args.mela, level=2 if args.lazy else 1)
    return 0 if write_output(args.output, stream) else 1
