"""Record what the PyPI package ``compressed_rtf`` makes of onemail's compressed RTF.

Writes ``tests/data/rtf_compressed_oracle.json``: for each input of
``tests/rtf_oracle_inputs.py``, the SHA-256 of the stream ``onemail.rtf.compress`` writes and
of what ``compressed_rtf.decompress`` returns for it. ``tests/rtf/test_compressed.py``
checks without the oracle that our streams are still the ones it decoded correctly.
Re-run after any change to the compressor's output: ``python tools/rtf_oracle.py``.
Needs ``pip install compressed_rtf`` (the ``bench`` extra).
"""

from __future__ import annotations

import hashlib
import json
import sys
from importlib.metadata import version
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))


def main() -> int:
    import compressed_rtf
    from rtf_oracle_inputs import inputs

    from onemail.rtf import compress

    cases = []
    failures = 0
    for name, rtf, level, mela in inputs():
        stream = compress(rtf, level=level, mela=mela)
        try:
            answer = compressed_rtf.decompress(stream)
        except Exception as exc:  # the oracle raises on what it rejects
            answer = repr(exc).encode()
        if answer != rtf:
            failures += 1
            print(f"oracle disagrees: {name}", file=sys.stderr)
        cases.append({
            "name": name,
            "level": level,
            "mela": mela,
            "stream_sha256": hashlib.sha256(stream).hexdigest(),
            "oracle_output_sha256": hashlib.sha256(answer).hexdigest(),
        })
    record = {"oracle": f"compressed_rtf {version('compressed_rtf')}", "cases": cases}
    out = REPO / "tests" / "data" / "rtf_compressed_oracle.json"
    out.write_text(json.dumps(record, indent=1) + "\n")
    print(f"{len(cases)} cases, {failures} disagreement(s) -> {out.relative_to(REPO)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
