"""``onemail rtf html FILE`` and ``onemail rtf text FILE``: HTML or text out of RTF (and back).

Plugs into the ``rtf`` group of :mod:`onemail._cli.rtf`. The input is RTF, or a compressed-RTF
stream (``PidTagRtfCompressed``, recognised by ``LZFu``/``MELA`` at bytes 8-11), which is
decompressed first. The HTML or text goes to standard output (or ``-o``), the kind and the
defects to standard error (``--json`` prints one JSON object instead). ``--encapsulate`` goes
the other way: it reads UTF-8 HTML or text and writes ``\\fromhtml1``/``\\fromtext`` RTF.

Exit codes: 0 done; 1 unreadable input, or RTF that does not encapsulate the asked kind
(``rtf text`` also accepts RTF that encapsulates nothing and prints its plain text); 2 usage.
"""

from __future__ import annotations

import argparse
import sys

from ._exits import add_command
from ._jsonout import dumps
from ._safe import for_stream
from .rtf import read_input, write_output


def add_subparser(rtf_sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    for kind, what in (("html", "HTML (\\fromhtml1)"), ("text", "plain text (\\fromtext)")):
        p = add_command(rtf_sub, kind, help=f"de-encapsulate the {what} of RTF; list defects",
                        unread=f"FILE could not be read, does not encapsulate {kind}"
                               + (" (RTF that encapsulates nothing gives its plain text)" if kind == "text" else "")
                               + "")
        p.add_argument("file", help="RTF or a compressed-RTF stream ('-' for standard input)")
        p.add_argument("-o", "--output", metavar="OUT", help="write here (default stdout)")
        p.add_argument("--json", action="store_true",
                       help="print JSON (kind, text, defects) to stdout instead")
        p.add_argument("--encapsulate", action="store_true",
                       help=f"the other way: read UTF-8 {kind} and write RTF")
        p.set_defaults(run=run, rtf_kind=kind)


def run(args: argparse.Namespace) -> int:
    from ..rtf import deencapsulate, encapsulate_html, encapsulate_text

    data = read_input(args.file)
    if data is None:
        return 1
    if args.encapsulate:
        source = data.decode("utf-8", "replace")
        rtf = encapsulate_html(source) if args.rtf_kind == "html" else encapsulate_text(source)
        return 0 if write_output(args.output, rtf) else 1
    defects: list[dict[str, str | int]] = []
    if data[8:12] in (b"LZFu", b"MELA"):
        from ..rtf import decompress

        unpacked = decompress(data)
        defects.extend(d.to_json() for d in unpacked.defects)
        data = unpacked.data
    result = deencapsulate(data)
    defects.extend(d.to_json() for d in result.defects)
    wanted = args.rtf_kind
    ok = result.kind == wanted or (wanted == "text" and result.kind is None)
    if args.json:
        sys.stdout.write(dumps({"kind": result.kind, "text": result.text if ok else None,
                   "defects": defects}))
        sys.stdout.write("\n")
        return 0 if ok else 1
    if not ok:
        print(f"onemail: {args.file} does not encapsulate {wanted} "
              f"(found: {result.kind or 'nothing'}; try 'onemail rtf {result.kind or 'text'}')",
              file=sys.stderr)
        return 1
    print(f"-- {result.kind or 'not encapsulated (plain text walk)'}; {len(defects)} defect(s)",
          file=sys.stderr)
    for d in defects[:50]:
        print(f"   {d['kind']} at byte {d['offset']}, {d['length']} byte(s)", file=sys.stderr)
    text = result.text if args.output is not None else for_stream(result.text, sys.stdout)
    return 0 if write_output(args.output, text.encode("utf-8", "surrogatepass")) else 1
