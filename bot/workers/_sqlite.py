"""A job for a worker process: read queries on an SQLite file, opened read-only.

An aggregate over thousands of rows (``/dice stats``) costs a core for a while; run in the
bot's process it is aiosqlite's thread sharing the GIL and the cores with the event loop. In
a worker it runs at the worker's lower priority under a budget that kills it. The worker
needs only :mod:`sqlite3` (nothing to import: the job starts at once); WAL lets it read a
consistent snapshot while the bot writes.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def read_sqlite(
    path: str, queries: Sequence[tuple[str, Sequence[Any]]]
) -> list[list[tuple[Any, ...]]]:
    """Every query's rows (each ``(sql, parameters)``), in order, all from one snapshot of
    the SQLite file at ``path`` (one read transaction), on a connection that cannot write."""
    uri = f"{Path(path).resolve().as_uri()}?mode=ro"
    connection = sqlite3.connect(uri, uri=True, isolation_level=None)
    try:
        connection.execute("BEGIN")  # one snapshot: the queries' totals agree
        answers = [connection.execute(sql, tuple(values)).fetchall() for sql, values in queries]
        connection.execute("COMMIT")
        return answers
    finally:
        connection.close()
