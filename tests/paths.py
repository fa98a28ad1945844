"""Where the repository and the shared data live (import as ``from paths import ...``)."""

from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = (REPO / ".." / "shared").resolve()
WHATWG = SHARED / "whatwg-encoding"
CORPUS = SHARED / "corpus"
DATA = REPO / "tests" / "data"
#: The one table of charset facts (decoders, header names, code pages, mail-only labels).
CHARSET_FACTS = REPO / "scripts" / "data" / "charsets.toml"
