"""JSON for the database's JSON columns: orjson, with the standard library behind it.

Every command writes or reads a JSON column (a roll's faces, an encounter's whole state and
undo history, a sheet), and SQLAlchemy's default, the standard ``json`` module, costs several
times orjson's: 29 µs against 3 µs to write a small encounter and 416 µs against 28 µs at its
1,000-event history limit on the project's 2-core machine (docs/performance.md). Both write the same
JSON values. What orjson refuses to write (an integer beyond 64 bits), would read inexactly
(the same integer, which it reads as a float) or refuses to read (the
``NaN``/``Infinity`` tokens only the standard library writes, in rows stored before) goes to
``json``, so nothing storable or readable before stops being so. One difference remains, on
purpose: a NaN or infinite float is written as ``null`` (the standard library wrote a token
that is not JSON and PostgreSQL refuses); nothing the bot stores holds one.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS  # {1: ...} becomes {"1": ...}, as json.dumps does
#: 20 digits in a row (every digit made a 9, then a substring test: ten times faster than a
#: regular expression) may be an integer of 2**64 or more, which orjson reads as a float. Any
#: such run sends the text to json, digits in a string or a long fraction too: slower, exact.
_NINES = bytes.maketrans(b"0123456789", b"9999999999")
_LONG_NUMBER = b"9" * 20


def dumps(value: Any) -> str:
    """``value`` as JSON text."""
    try:
        return orjson.dumps(value, option=_OPTIONS).decode()
    except TypeError:  # orjson.JSONEncodeError: e.g. an int past 64 bits
        return json.dumps(value)


def loads(text: str | bytes) -> Any:
    """The value stored as ``text``."""
    raw = text.encode() if isinstance(text, str) else text
    if _LONG_NUMBER in raw.translate(_NINES):
        return json.loads(text)  # orjson would read an integer past 64 bits as a float
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:  # e.g. NaN, which only json.dumps writes
        return json.loads(text)
