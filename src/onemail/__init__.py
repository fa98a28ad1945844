"""onemail: turn the bytes of e-mail into correct text, and say exactly what had to be repaired.

Subpackages:

* :mod:`onemail.text` -- charset labels, decoders and encoders, UTF-7, ISO-2022, RFC 2047, RFC 2231.
* :mod:`onemail.rtf` -- compressed RTF, the RTF tokenizer, de-encapsulation and encapsulation.
* :mod:`onemail.detect` -- charset detection, binary detection, mojibake repair.
* :mod:`onemail.message` -- ``read`` and ``read_mbox``: .eml, mbox, Outlook .msg, TNEF into text.
* :mod:`onemail.dask`, :mod:`onemail.spark` -- records as a Dask bag or dataframe, a Spark
  DataFrame (extras ``onemail[dask]``, ``onemail[spark]``).

``onemail.read`` and ``onemail.read_mbox`` are :func:`onemail.message.read` and
:func:`onemail.message.read_mbox`; ``onemail.shards`` and ``onemail.records`` are
:func:`onemail.message.shards.shards` (plan paths into picklable shards) and
:func:`onemail.message.shards.records` (read one shard). They are imported on first use, so that ``import onemail``
stays under 30 ms (the message layer, with the stdlib ``email`` package and olefile, costs about
100 ms); type checkers see them through the ``TYPE_CHECKING`` import below.
``__version__`` is a constant written by ``scripts/generate_meta.py`` from ``pyproject.toml``.
"""

from ._version import __version__ as __version__

# The typing module costs more than the rest of this import: the constant type checkers honour.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from .message import read, read_mbox
    from .message.shards import records, shards

__all__ = ["read", "read_mbox", "records", "shards"]

_LAZY = {"read", "read_mbox"}
_SHARDS = {"records", "shards"}


def __getattr__(name: str) -> object:
    """Import ``read`` and ``read_mbox`` from :mod:`onemail.message`, ``records`` and ``shards``
    from :mod:`onemail.message.shards`, on first use."""
    if name in _LAZY or name in _SHARDS:
        from . import message
        from .message import shards as shards_module

        value = getattr(message if name in _LAZY else shards_module, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'onemail' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | _LAZY | _SHARDS)
