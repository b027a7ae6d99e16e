"""A unit of work that is exactly one statement: an INSERT or a SELECT, autocommitted.

Most commands write one row and nothing else (a public ``/roll`` logs its entry). Through
:meth:`~bot.storage.db.Database.unit_of_work` that costs about 0.45 ms of CPU on the 2-core
machine the benchmarks run on (docs/performance.md): SQLAlchemy's async session, connection and
execution context, three greenlet switches and two trips to the driver (the statement, then
``COMMIT``), before the statement does anything. A single statement outside an explicit
transaction is a transaction of its own on both databases (SQLite and PostgreSQL commit it
when it ends, all or nothing), so :func:`insert_one` runs it that way on a connection from
the same pool: one trip to SQLite's thread, one round trip to PostgreSQL.

What stays the same as a unit of work:

- the SQL and every bound value come from SQLAlchemy's compiler and the column types' own
  bind processors for the engine's dialect (:class:`PreparedInsert`), so the row stored is the
  row the ORM would store (JSON through :mod:`bot.storage.json_codec`, timestamps as the
  ``DateTime`` columns write them);
- on SQLite the statement waits its turn in this process's writer queue and then for the
  file's lock for at most ``lock_timeout``; on PostgreSQL the connection's own lock and
  statement timeouts apply. Giving up raises :class:`~bot.errors.StorageBusy` (nothing saved);
- the interaction's write record (:func:`~bot.storage.db.tracked_writes`) counts the commit,
  or marks it *in doubt* when the outcome is unknown (the connection lost mid-statement, the
  task cancelled while the statement ran), so error messages stay true;
- the pool's checkout check replaces connections a restarted PostgreSQL closed; a connection
  whose state is unknown after a failure is invalidated, never reused; every connection goes
  back to the pool, on cancellation too.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections import namedtuple
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Dialect
from sqlalchemy.sql import Select
from sqlalchemy.sql.dml import Insert

from bot.errors import StorageBusy
from bot.internals import greenlet_spawn, run_on_sqlite_thread
from bot.storage.db import Database, current_writes, driver_gave_up


@dataclass(frozen=True, slots=True)
class _Compiled:
    sql: str
    processors: tuple[tuple[str, Callable[[Any], Any] | None], ...]

    def parameters(self, values: Mapping[str, Any]) -> tuple[Any, ...]:
        return tuple(
            values[key] if process is None else process(values[key])
            for key, process in self.processors
        )


class PreparedInsert:
    """An INSERT of a fixed set of columns, compiled once per dialect: its SQL with
    positional parameters and, per parameter, the column type's bind processor."""

    def __init__(self, statement: Insert, columns: tuple[str, ...]) -> None:
        # inline(): no RETURNING of the new id, no defaults fetched before; every value given.
        self.statement = statement.inline()
        self.columns = columns
        self._by_dialect: dict[str, _Compiled] = {}

    def compiled(self, dialect: Dialect) -> _Compiled:
        key = f"{dialect.name}+{dialect.driver}"
        found = self._by_dialect.get(key)
        if found is None:
            compiled = self.statement.compile(dialect=dialect, column_keys=list(self.columns))
            order = compiled.positiontup
            if order is None or sorted(order) != sorted(self.columns):
                raise TypeError(f"not one positional parameter per column: {order}")
            processors = tuple(
                (name, compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect))
                for name in order
            )
            found = self._by_dialect[key] = _Compiled(str(compiled), processors)
        return found


class PreparedSelect:
    """A SELECT with named parameters, compiled once per dialect: its SQL, the parameters'
    order and bind processors, and each result column's key and result processor (JSON
    parsed, timestamps read as the ORM reads them). Rows come back as named tuples, read by
    attribute like the ORM's objects (read-only: nothing tracks them)."""

    def __init__(self, statement: Select[Any]) -> None:
        self.statement = statement
        self._by_dialect: dict[str, tuple[_Compiled, tuple[Any, ...], Any]] = {}

    def compiled(self, dialect: Dialect) -> tuple[_Compiled, tuple[Any, ...], Any]:
        key = f"{dialect.name}+{dialect.driver}"
        found = self._by_dialect.get(key)
        if found is None:
            compiled = self.statement.compile(dialect=dialect)
            order = compiled.positiontup or []
            binds = tuple(
                (name, compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect))
                for name in order
            )
            columns = list(self.statement.selected_columns)
            results = tuple(
                column.type.dialect_impl(dialect).result_processor(dialect, None)
                for column in columns
            )
            row_type = namedtuple("Row", [column.key for column in columns])  # type: ignore[misc]
            found = self._by_dialect[key] = (_Compiled(str(compiled), binds), results, row_type)
        return found


async def select_rows(
    db: Database, prepared: PreparedSelect, parameters: Mapping[str, Any]
) -> list[Any]:
    """Run one SELECT outside a transaction; its rows as named tuples."""
    compiled, results, row_type = prepared.compiled(db.engine.dialect)
    values = compiled.parameters(parameters)
    pooled = await greenlet_spawn(db.engine.sync_engine.pool.connect)
    try:
        driver: Any = pooled.driver_connection  # aiosqlite's or asyncpg's connection
        if db.is_sqlite:
            raw = await run_on_sqlite_thread(driver, _select_on_sqlite, compiled.sql, values)
        else:
            raw = await driver.fetch(compiled.sql, *values)
    except BaseException as error:
        if _refused(error):
            pooled.close()
        else:  # a statement may still be running on it: not reused
            await asyncio.shield(greenlet_spawn(pooled.invalidate))
        raise
    pooled.close()
    return [
        row_type(
            *(
                value if process is None else process(value)
                for value, process in zip(row, results, strict=True)
            )
        )
        for row in raw
    ]


def _select_on_sqlite(
    connection: sqlite3.Connection, sql: str, parameters: tuple[Any, ...]
) -> list[Any]:
    """On SQLite's thread: no transaction is open between units of work, so the SELECT
    reads one snapshot of its own."""
    cursor = connection.execute(sql, parameters)
    try:
        return cursor.fetchall()
    finally:
        cursor.close()


def _run_on_sqlite(connection: sqlite3.Connection, sql: str, parameters: tuple[Any, ...]) -> None:
    """On SQLite's thread. The connection is in autocommit mode between units of work
    (``isolation_level = None``): the INSERT commits when it ends."""
    connection.execute(sql, parameters).close()


async def insert_one(db: Database, prepared: PreparedInsert, values: Mapping[str, Any]) -> None:
    """Insert one row as a transaction of its own; return once it is committed.

    Raises :class:`StorageBusy` when a lock wait gave up (nothing saved); a statement the
    database refused raises the driver's error (nothing saved either).
    """
    compiled = prepared.compiled(db.engine.dialect)
    parameters = compiled.parameters(values)
    writes = current_writes.get()
    writer = await db.take_writer_turn()
    try:
        try:
            pooled = await greenlet_spawn(db.engine.sync_engine.pool.connect)
        except Exception as error:  # nothing was sent: nothing saved
            if driver_gave_up(getattr(error, "orig", error)):
                raise StorageBusy from error
            raise
        try:
            driver: Any = pooled.driver_connection  # aiosqlite's or asyncpg's connection
            if db.is_sqlite:
                await run_on_sqlite_thread(driver, _run_on_sqlite, compiled.sql, parameters)
            else:
                await driver.execute(compiled.sql, *parameters)
        except BaseException as error:
            refused = _refused(error)
            if not refused:
                if writes is not None:
                    writes.in_doubt = True
                # Its state is unknown (a statement may still be running on it): not reused.
                await asyncio.shield(greenlet_spawn(pooled.invalidate))
            else:
                pooled.close()
            if refused and driver_gave_up(error):
                raise StorageBusy from error
            raise
        # No transaction is open on it (autocommit): back to the pool without a round trip.
        pooled.close()
    finally:
        if writer is not None:
            writer.release()
    if writes is not None:
        writes.committed += 1


def _refused(error: BaseException) -> bool:
    """True when the database answered with an error: the statement did nothing and the
    connection is usable. Anything else (a lost connection, a cancelled wait) leaves the
    outcome unknown."""
    if isinstance(error, sqlite3.Error):
        return True
    return getattr(error, "sqlstate", None) is not None  # asyncpg's server errors
