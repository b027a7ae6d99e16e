"""One row read locked and written back: :func:`locked_row`."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any

from bot.errors import StorageBusy
from bot.internals import run_on_sqlite_thread
from bot.storage.db import Database, current_writes, driver_gave_up
from bot.storage.one_statement._prepared import PreparedSelect, PreparedUpdate, row_of
from bot.storage.one_statement._sqlite import refused, rollback_on_sqlite, writer_connection

_CLEAN, _OPEN, _UNKNOWN = "clean", "open", "unknown"


class LockedRow:
    """The row :func:`locked_row` read (``row``, None when none matched), locked until
    :meth:`write` ends its transaction or the block does (rolled back: nothing written)."""

    __slots__ = ("_db", "_driver", "_state", "row")

    def __init__(self, db: Database, driver: Any) -> None:
        self._db = db
        self._driver = driver  # aiosqlite's or asyncpg's connection
        self._state = _CLEAN
        self.row: Any = None

    async def _lock(self, sql: str, parameters: tuple[Any, ...]) -> Any:
        self._state = _UNKNOWN
        if self._db.is_sqlite:
            try:
                raw = await run_on_sqlite_thread(self._driver, _lock_on_sqlite, sql, parameters)
            except sqlite3.Error:
                self._state = _CLEAN  # _lock_on_sqlite left no transaction open
                raise
        else:
            await self._driver.execute("BEGIN")
            try:
                raw = await self._driver.fetchrow(sql, *parameters)
            except BaseException as error:
                if refused(error):
                    self._state = _OPEN  # rolled back on the way out
                raise
        self._state = _OPEN
        return raw

    async def write(self, prepared: PreparedUpdate, values: Mapping[str, Any]) -> bool:
        """Run ``prepared`` and commit if it changed exactly one row (True); else roll back
        (False: nothing written). Either way the transaction is over.

        Raises :class:`StorageBusy` when a wait gave up, the driver's error when the database
        refused (nothing saved either way). An unknown outcome (a lost connection, a task
        cancelled meanwhile) marks the interaction's writes in doubt.
        """
        if self._state != _OPEN:
            raise RuntimeError("write() needs the row's transaction open")
        compiled = prepared.compiled(self._db.engine.dialect)
        parameters = compiled.parameters(values)
        self._state = _UNKNOWN
        try:
            if self._db.is_sqlite:
                count = await run_on_sqlite_thread(
                    self._driver, _write_on_sqlite, compiled.sql, parameters
                )
            else:
                status = await self._driver.execute(compiled.sql, *parameters)
                count = int(status.rsplit(" ", 1)[-1])
                await self._driver.execute("COMMIT" if count == 1 else "ROLLBACK")
        except BaseException as error:
            if refused(error):
                # SQLite's thread rolled back already; PostgreSQL's is rolled back on the way out.
                self._state = _CLEAN if self._db.is_sqlite else _OPEN
                if driver_gave_up(error):
                    raise StorageBusy from error
            else:
                writes = current_writes.get()
                if writes is not None:
                    writes.in_doubt = True
            raise
        self._state = _CLEAN
        if count != 1:
            return False
        writes = current_writes.get()
        if writes is not None:
            writes.committed += 1
        return True

    async def _end(self, pooled: Any) -> None:
        """Given back with no transaction open: rolled back if one is; a connection
        whose state is unknown is invalidated, never reused."""
        if self._state == _OPEN:
            try:
                if self._db.is_sqlite:
                    await run_on_sqlite_thread(self._driver, rollback_on_sqlite)
                else:
                    await self._driver.execute("ROLLBACK")
                self._state = _CLEAN
            except BaseException:
                self._state = _UNKNOWN
        if self._state == _CLEAN:
            await self._db.held.give(pooled)
        else:
            await self._db.held.invalidate(pooled)


@asynccontextmanager
async def locked_row(
    db: Database, prepared: PreparedSelect, parameters: Mapping[str, Any]
) -> AsyncIterator[LockedRow]:
    """A transaction of its own that reads one row locked (``prepared`` ends in ``FOR
    UPDATE``; on SQLite ``BEGIN IMMEDIATE`` holds the file), for :meth:`LockedRow.write` to
    write back and commit. A block that ends without writing, or raises, rolls back.

    Don't open it inside a writing unit of work: on SQLite it would wait for it forever.
    Raises :class:`StorageBusy` when the lock wait gave up (nothing saved).
    """
    compiled, results, row_type = prepared.compiled(db.engine.dialect)
    values = compiled.parameters(parameters)
    writer = await db.take_writer_turn()
    try:
        pooled = await writer_connection(db)
        locked = LockedRow(db, pooled.driver_connection)
        try:
            try:
                raw = await locked._lock(compiled.sql, values)
            except BaseException as error:
                if refused(error) and driver_gave_up(error):
                    raise StorageBusy from error
                raise
            locked.row = None if raw is None else row_of(row_type, results, tuple(raw))
            yield locked
        finally:
            await asyncio.shield(locked._end(pooled))
    finally:
        if writer is not None:
            writer.release()


def _lock_on_sqlite(
    connection: sqlite3.Connection, sql: str, parameters: tuple[Any, ...]
) -> tuple[Any, ...] | None:
    """On SQLite's thread: begin the write transaction (its lock waited for up to the
    connection's ``busy_timeout``) and read the row; an error leaves no transaction open."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        cursor = connection.execute(sql, parameters)
        try:
            found: tuple[Any, ...] | None = cursor.fetchone()
            return found
        finally:
            cursor.close()
    except BaseException:
        rollback_on_sqlite(connection)
        raise


def _write_on_sqlite(connection: sqlite3.Connection, sql: str, parameters: tuple[Any, ...]) -> int:
    """On SQLite's thread: the UPDATE, then COMMIT if it changed exactly one row, else
    ROLLBACK; its row count. An error leaves no transaction open (nothing saved)."""
    try:
        cursor = connection.execute(sql, parameters)
        count = cursor.rowcount
        cursor.close()
        connection.execute("COMMIT" if count == 1 else "ROLLBACK")
    except BaseException:
        rollback_on_sqlite(connection)
        raise
    return count
