"""Commitments to secret rolls: a roll fixed before anyone saw it, checkable with ``sha256sum``.

A secret roll is written down as a *record*: canonical JSON (keys sorted, no spaces, ASCII
only, the apostrophe written ``\\u0027``) of the system, inputs, every face, the outcome, the
time and the roller. A random 128-bit *salt* (32 hex digits) keeps the table from guessing
the record by trying every outcome. The *commitment*, shown at once, is::

    SHA-256( salt + "." + record )            (UTF-8 bytes, hex digest)

so that after ``/history reveal`` anyone can check it with one shell line::

    printf '%s.%s' 'SALT' 'RECORD' | sha256sum

(the record never holds an apostrophe or a newline, so single quotes are safe). Free of
discord and SQLAlchemy: the roll log, the services and the renderers share it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

#: The record's format version, written into every record as ``"v"``.
FORMAT = 1
#: Hex digits of a commitment shown in a notice; the whole 64 are a button away.
SHORT = 16


def record(
    *,
    system: str,
    input: str,
    label: str | None,
    faces: Sequence[Any],
    outcome: str,
    time: datetime,
    roller: int,
    channel: int,
    guild: int | None,
) -> str:
    """The canonical record of one roll: the exact text the commitment hashes."""
    fields = {
        "v": FORMAT,
        "system": system,
        "input": input,
        "label": label,
        "faces": list(faces),
        "outcome": outcome,
        "time": time.astimezone(UTC).isoformat(timespec="microseconds"),
        "roller": str(roller),
        "channel": str(channel),
        "guild": str(guild) if guild is not None else None,
    }
    return canonical(fields)


def canonical(fields: Mapping[str, Any]) -> str:
    """JSON that one reader and the next write byte for byte alike, and a shell can quote."""
    text = json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return text.replace("'", "\\u0027")


def new_salt() -> str:
    """128 random bits as 32 hex digits, from the operating system's CSPRNG."""
    return secrets.token_hex(16)


def commit(record: str, salt: str) -> str:
    """The SHA-256 hex digest of ``salt + "." + record``."""
    return hashlib.sha256(f"{salt}.{record}".encode()).hexdigest()


def matches(record: str, salt: str, commitment: str) -> bool:
    """Whether ``commitment`` is the commitment of ``record`` with ``salt`` (whitespace and
    case of the hex digits aside; a shortened commitment is compared on its length)."""
    wanted = commitment.strip().lower()
    if not SHORT <= len(wanted) <= 64:
        return False
    actual = commit(record, salt.strip().lower())
    return hmac.compare_digest(actual[: len(wanted)], wanted)


def short(commitment: str) -> str:
    """The commitment as a notice shows it: its first :data:`SHORT` hex digits and "…"."""
    return f"{commitment[:SHORT]}…"


def shell_line(record: str, salt: str) -> str:
    """The line that checks a commitment with nothing but ``sha256sum``."""
    return f"printf '%s.%s' '{salt}' '{record}' | sha256sum"
