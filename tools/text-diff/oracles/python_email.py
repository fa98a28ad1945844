"""Oracle: CPython's ``email`` package, in process.

Answers per case kind (every answer is a JSON-able dict; an exception becomes ``{"error": ...}``):

* ``header``: ``py-legacy`` = ``str(make_header(decode_header(v)))`` on the value as ``str``
  (UTF-8 if valid, else latin-1: the legacy API takes no bytes); ``py-default`` = the
  ``Subject`` header of ``message_from_bytes(b"Subject: " + v + b"\\r\\n\\r\\n",
  policy=policy.default)`` as ``str``.
* ``param``: ``py-legacy`` = for every parameter name of the compat32 ``Message``,
  ``collapse_rfc2231_value(msg.get_param(name))``; ``py-default`` = ``msg["Content-Type"].params``
  under ``policy.default``. Names are lower-cased.
* ``charset``: ``py-codec`` = ``bytes.decode(<python codec>, "replace")``.
"""

from __future__ import annotations

import email
import email.policy
from email.header import decode_header, make_header
from email.utils import collapse_rfc2231_value

NAMES = ("py-legacy", "py-default")

# charset label -> CPython codec, for ``charset`` cases
PY_CODECS = {"utf-7": "utf-7", "iso-2022-jp": "iso2022_jp", "iso-2022-jp-1": "iso2022_jp_1",
             "iso-2022-jp-2": "iso2022_jp_2", "iso-2022-jp-3": "iso2022_jp_3",
             "iso-2022-kr": "iso2022_kr", "hz-gb-2312": "hz"}


def _as_str(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _guard(fn, *args) -> dict:
    try:
        return fn(*args)
    except Exception as exc:  # the oracle's failure is an answer
        return {"error": f"{type(exc).__name__}: {exc}"[:200]}


def _legacy_header(data: bytes) -> dict:
    return {"value": str(make_header(decode_header(_as_str(data))))}


def _default_header(data: bytes) -> dict:
    msg = email.message_from_bytes(b"Subject: " + data + b"\r\n\r\n", policy=email.policy.default)
    return {"value": str(msg["Subject"])}


def _legacy_param(data: bytes) -> dict:
    msg = email.message_from_bytes(b"Content-Type: " + data + b"\r\n\r\n")
    params = {}
    for name, _ in msg.get_params(header="content-type")[1:]:
        key = name.lower()
        if key not in params:
            v = msg.get_param(name, header="content-type")
            params[key] = collapse_rfc2231_value(v) if v is not None else None
    return {"params": params}


def _default_param(data: bytes) -> dict:
    msg = email.message_from_bytes(b"Content-Type: " + data + b"\r\n\r\n", policy=email.policy.default)
    h = msg["Content-Type"]
    return {"params": {k.lower(): v for k, v in dict(h.params).items()}}


def answer(case: dict) -> dict[str, dict]:
    """Return {oracle name: answer} for one case."""
    data = case["in"].encode("latin-1")
    kind = case["kind"]
    if kind == "header":
        return {"py-legacy": _guard(_legacy_header, data), "py-default": _guard(_default_header, data)}
    if kind == "param":
        return {"py-legacy": _guard(_legacy_param, data), "py-default": _guard(_default_param, data)}
    if kind == "charset" and case["label"] in PY_CODECS:
        return {"py-codec": _guard(lambda: {"value": data.decode(PY_CODECS[case["label"]], "replace")})}
    return {}
