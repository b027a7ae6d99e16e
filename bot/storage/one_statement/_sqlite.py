"""What runs on SQLite's thread and what every one-statement path shares: the connection
for a write, whether an error was the database's refusal."""

from __future__ import annotations

import sqlite3
from typing import Any

from bot.errors import StorageBusy
from bot.storage.db import Database, driver_gave_up


async def writer_connection(db: Database) -> Any:
    """A connection for a write (one held between statements, or the pool's), for
    ``db.held`` to take back; :class:`StorageBusy` when the driver gave up waiting for one
    (nothing was sent: nothing saved)."""
    try:
        return await db.held.take()
    except Exception as error:
        if driver_gave_up(getattr(error, "orig", error)):
            raise StorageBusy from error
        raise


def refused(error: BaseException) -> bool:
    """True when the database answered with an error: the statement did nothing and the
    connection is usable. Anything else (a lost connection, a cancelled wait) leaves the
    outcome unknown."""
    if isinstance(error, sqlite3.Error):
        return True
    return getattr(error, "sqlstate", None) is not None  # asyncpg's server errors


def select_on_sqlite(
    connection: sqlite3.Connection, sql: str, parameters: tuple[Any, ...]
) -> list[Any]:
    """On SQLite's thread: no transaction is open between units of work, so the SELECT
    reads one snapshot of its own."""
    cursor = connection.execute(sql, parameters)
    try:
        return cursor.fetchall()
    finally:
        cursor.close()


def run_on_sqlite(connection: sqlite3.Connection, sql: str, parameters: tuple[Any, ...]) -> Any:
    """On SQLite's thread; the first row it returns, if any. The connection is in autocommit
    mode between units of work (``isolation_level = None``): the statement commits when it
    ends (its cursor read to the end and closed: ``RETURNING`` rows come before the commit)."""
    cursor = connection.execute(sql, parameters)
    try:
        rows = cursor.fetchall()
    finally:
        cursor.close()
    return rows[0] if rows else None


def rollback_on_sqlite(connection: sqlite3.Connection) -> None:
    if connection.in_transaction:
        connection.execute("ROLLBACK")
