"""onemail: turn the bytes of e-mail into correct text, and say exactly what had to be repaired.

Subpackages:

* :mod:`onemail.text` -- charset labels, decoders and encoders, UTF-7, ISO-2022, RFC 2047, RFC 2231.
* :mod:`onemail.rtf` -- compressed RTF, the RTF tokenizer, de-encapsulation and encapsulation.
* :mod:`onemail.detect` -- charset detection, binary detection, mojibake repair.
* :mod:`onemail.message` -- ``read`` and ``read_mbox``: .eml, mbox, Outlook .msg, TNEF into text.

``onemail.read`` and ``onemail.read_mbox`` are loaded on first use (``import onemail`` stays light).
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("onemail")
except PackageNotFoundError:  # running from a source tree
    __version__ = "0.0.0"


def __getattr__(name: str):
    if name in ("read", "read_mbox"):
        from . import message

        value = getattr(message, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'onemail' has no attribute {name!r}")
