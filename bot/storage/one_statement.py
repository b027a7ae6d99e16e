"""A unit of work that is exactly one statement (an INSERT or a SELECT, autocommitted), or
one row read locked and written back (:func:`locked_row`).

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

:func:`locked_row` is the same for a change of one row: read it locked (``BEGIN IMMEDIATE``
on SQLite, ``SELECT … FOR UPDATE`` on PostgreSQL), compute, then write it and commit. A
unit of work around those two statements cost about 1 ms of CPU more than the statements
(the session, its connection, two execution contexts, three trips to SQLite's thread); here
it is two trips on SQLite (``BEGIN IMMEDIATE`` + ``SELECT``, then ``UPDATE`` + ``COMMIT``),
with the same locks, timeouts, write record and connection hygiene as above.
"""

from __future__ import annotations

import asyncio
import sqlite3
import weakref
from collections import namedtuple
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Dialect
from sqlalchemy.sql import Select
from sqlalchemy.sql.dml import Insert, Update

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


def _binds(compiled: Any, dialect: Dialect) -> tuple[tuple[str, Callable[[Any], Any] | None], ...]:
    """Each positional parameter's name and its type's bind processor, in the SQL's order."""
    return tuple(
        (name, compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect))
        for name in compiled.positiontup or []
    )


class PreparedUpdate:
    """An UPDATE with named parameters, compiled once per dialect: its SQL and, per
    parameter, the column type's bind processor (JSON as the ORM writes it)."""

    def __init__(self, statement: Update) -> None:
        self.statement = statement
        self._by_dialect: dict[str, _Compiled] = {}

    def compiled(self, dialect: Dialect) -> _Compiled:
        key = f"{dialect.name}+{dialect.driver}"
        found = self._by_dialect.get(key)
        if found is None:
            compiled = self.statement.compile(dialect=dialect)
            found = self._by_dialect[key] = _Compiled(str(compiled), _binds(compiled, dialect))
        return found


class PreparedSelect:
    """A SELECT with named parameters, compiled once per dialect: its SQL, the parameters'
    order and bind processors, and each result column's key and result processor (JSON
    parsed, timestamps read as the ORM reads them). Rows come back as named tuples, read by
    attribute like the ORM's objects (read-only: nothing tracks them)."""

    def __init__(self, statement: Select[Any] | Update) -> None:
        self.statement = statement  # or an UPDATE … RETURNING (update_returning)
        self._by_dialect: dict[str, tuple[_Compiled, tuple[Any, ...], Any]] = {}

    def compiled(self, dialect: Dialect) -> tuple[_Compiled, tuple[Any, ...], Any]:
        key = f"{dialect.name}+{dialect.driver}"
        found = self._by_dialect.get(key)
        if found is None:
            compiled = self.statement.compile(dialect=dialect)
            binds = _binds(compiled, dialect)
            columns = list(self.statement.exported_columns)
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
    return [_row(row_type, results, row) for row in raw]


def _row(row_type: Any, results: tuple[Any, ...], raw: Any) -> Any:
    return row_type(
        *(
            value if process is None else process(value)
            for value, process in zip(raw, results, strict=True)
        )
    )


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


def _run_on_sqlite(connection: sqlite3.Connection, sql: str, parameters: tuple[Any, ...]) -> Any:
    """On SQLite's thread; the first row it returns, if any. The connection is in autocommit
    mode between units of work (``isolation_level = None``): the statement commits when it
    ends (its cursor read to the end and closed: ``RETURNING`` rows come before the commit)."""
    cursor = connection.execute(sql, parameters)
    try:
        rows = cursor.fetchall()
    finally:
        cursor.close()
    return rows[0] if rows else None


async def insert_one(db: Database, prepared: PreparedInsert, values: Mapping[str, Any]) -> None:
    """Insert one row as a transaction of its own; return once it is committed.

    Raises :class:`StorageBusy` when a lock wait gave up (nothing saved); a statement the
    database refused raises the driver's error (nothing saved either).
    """
    compiled = prepared.compiled(db.engine.dialect)
    await _write_one(db, compiled.sql, compiled.parameters(values), fetch=False)


async def update_returning(
    db: Database, prepared: PreparedSelect, values: Mapping[str, Any]
) -> Any | None:
    """Run one ``UPDATE … RETURNING`` (``prepared``) as a transaction of its own: the row it
    changed (a named tuple), committed when this returns, or None when it matched none.

    Its ``WHERE`` is the compare-and-set: a row some other writer moved on is not matched,
    not overwritten. Raises as :func:`insert_one`.
    """
    compiled, results, row_type = prepared.compiled(db.engine.dialect)
    raw = await _write_one(db, compiled.sql, compiled.parameters(values), fetch=True)
    return None if raw is None else _row(row_type, results, tuple(raw))


async def _writer_connection(db: Database) -> Any:
    """A connection from the pool for a write; :class:`StorageBusy` when the driver gave up
    waiting for one (nothing was sent: nothing saved)."""
    try:
        return await greenlet_spawn(db.engine.sync_engine.pool.connect)
    except Exception as error:
        if driver_gave_up(getattr(error, "orig", error)):
            raise StorageBusy from error
        raise


async def _write_one(db: Database, sql: str, parameters: tuple[Any, ...], *, fetch: bool) -> Any:
    """One writing statement, committed when this returns; its first row with ``fetch``.

    On SQLite, when other writes wait for the writer turn, it waits with them and they are
    committed together (:class:`GroupCommit`); alone, it is autocommitted at once.
    """
    if db.is_sqlite:
        group = _groups.get(db)
        if group is None:
            group = _groups[db] = GroupCommit(db)
        if not group.alone():
            return await group.write(sql, parameters, fetch=fetch)
    return await _write_now(db, sql, parameters, fetch=fetch)


async def _write_now(db: Database, sql: str, parameters: tuple[Any, ...], *, fetch: bool) -> Any:
    """One writing statement, autocommitted in its own writer turn. The write record counts
    a commit only when it changed something (an INSERT always does)."""
    writes = current_writes.get()
    writer = await db.take_writer_turn()
    try:
        pooled = await _writer_connection(db)
        try:
            driver: Any = pooled.driver_connection  # aiosqlite's or asyncpg's connection
            if db.is_sqlite:
                found = await run_on_sqlite_thread(driver, _run_on_sqlite, sql, parameters)
            elif fetch:
                found = await driver.fetchrow(sql, *parameters)
            else:
                found = await driver.execute(sql, *parameters)
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
    if not fetch:
        found = True
    if writes is not None and found is not None:
        writes.committed += 1
    return found if fetch else None


# --------------------------------------------------------------------------- group commit


@dataclass(slots=True, eq=False)
class _Waiting:
    """One statement waiting in a :class:`GroupCommit`, and how it ended."""

    sql: str
    parameters: tuple[Any, ...]
    fetch: bool
    done: asyncio.Future[Any]
    taken: bool = False  # in a batch sent to SQLite: it may be written from then on
    in_doubt: bool = False  # the batch's outcome is unknown


class GroupCommit:
    """SQLite's single-statement writes that wait for the writer turn, committed together.

    SQLite has one writer at a time, and this process queues its writers
    (:meth:`~bot.storage.db.Database.take_writer_turn`). Under load, a turn lasted far longer
    than its statement: the hand-off to the driver's thread and back waits for the GIL and
    for a busy event loop (a ~5 ms switch interval), so a public ``/roll`` or a GM's ``/init``
    change, each one statement, were served one per turn (~175 a second measured on the 2-core
    machine, the loop half idle). Here the statements that arrive while a turn is taken wait
    together, and the next turn writes them all in one trip: ``BEGIN IMMEDIATE``, each in a
    savepoint of its own (a statement SQLite refuses rolls back alone and its caller gets the
    error; the others are kept), one ``COMMIT`` (one fsync). Each caller returns only after
    that commit, so a reply still reports only what is on disk. A statement that finds the
    writer free and nobody waiting is written at once, alone, as before.

    Cancelled before its batch was taken, a statement is never written (nothing to doubt);
    after, its outcome is unknown to its caller, whose write record says so.
    """

    def __init__(self, db: Database) -> None:
        self._db = db
        self._waiting: list[_Waiting] = []
        self._flushing: asyncio.Task[None] | None = None

    def alone(self) -> bool:
        """True when a write now would wait for nothing: no batch forming or being written,
        the writer turn free."""
        flushing = self._flushing
        if flushing is not None and (
            flushing.done() or flushing.get_loop() is not asyncio.get_running_loop()
        ):
            self._flushing = None  # a former event loop's (a test's): gone with it
            self._waiting = []
            flushing = None
        return flushing is None and not self._waiting and self._db.writer_is_free()

    async def write(self, sql: str, parameters: tuple[Any, ...], *, fetch: bool) -> Any:
        """Wait with the others and return once the batch holding this statement has
        committed: its first row with ``fetch`` (None when it matched none)."""
        writes = current_writes.get()
        loop = asyncio.get_running_loop()
        waiting = _Waiting(sql, parameters, fetch, loop.create_future())
        self._waiting.append(waiting)
        if self._flushing is None:
            self._flushing = loop.create_task(self._flush(), name="sqlite-group-commit")
        try:
            found = await waiting.done
        except BaseException as error:
            cancelled = isinstance(error, asyncio.CancelledError)
            if writes is not None and (waiting.in_doubt or (cancelled and waiting.taken)):
                writes.in_doubt = True
            raise
        if writes is not None and found is not None:
            writes.committed += 1
        return found if fetch else None

    async def _flush(self) -> None:
        """Take the writer turn, write what waits, until nothing does."""
        try:
            while self._waiting:
                try:
                    writer = await self._db.take_writer_turn()
                except StorageBusy as busy:
                    batch, self._waiting = self._waiting, []
                    for waiting in batch:
                        _fail(waiting, busy)
                    continue
                try:
                    batch = [waiting for waiting in self._waiting if not waiting.done.done()]
                    self._waiting = []
                    if batch:
                        await self._commit(batch)
                finally:
                    if writer is not None:
                        writer.release()
        finally:
            for waiting in self._waiting:  # cancelled (the loop closing): none was sent
                waiting.done.cancel()
            self._waiting = []
            if self._flushing is asyncio.current_task():
                self._flushing = None

    async def _commit(self, batch: list[_Waiting]) -> None:
        """One trip: the batch in one transaction, each statement's outcome to its caller."""
        try:
            pooled = await _writer_connection(self._db)
        except BaseException as error:
            for waiting in batch:  # nothing was sent
                _fail(waiting, error)
            raise
        statements = [(waiting.sql, waiting.parameters, waiting.fetch) for waiting in batch]
        for waiting in batch:
            waiting.taken = True
        try:
            outcomes = await run_on_sqlite_thread(
                pooled.driver_connection, _batch_on_sqlite, statements
            )
        except BaseException as error:
            if isinstance(error, sqlite3.Error):  # refused, rolled back: nothing saved
                pooled.close()
                failure: BaseException = error
                if driver_gave_up(error):
                    failure = StorageBusy()
                    failure.__cause__ = error
                for waiting in batch:
                    _fail(waiting, failure)
                return
            for waiting in batch:  # a statement may still be running on it: not reused
                waiting.in_doubt = True
                _fail(waiting, error)
            await asyncio.shield(greenlet_spawn(pooled.invalidate))
            raise
        pooled.close()
        for waiting, (written, value) in zip(batch, outcomes, strict=True):
            if waiting.done.done():
                continue  # its caller was cancelled meanwhile (and knows it is in doubt)
            if written:
                waiting.done.set_result(value)
            else:
                waiting.done.set_exception(value)


_groups: weakref.WeakKeyDictionary[Database, GroupCommit] = weakref.WeakKeyDictionary()


def _fail(waiting: _Waiting, error: BaseException) -> None:
    if waiting.done.done():
        return
    if isinstance(error, asyncio.CancelledError):
        waiting.done.cancel()
    elif isinstance(error, StorageBusy):
        busy = StorageBusy()  # one exception object per caller: their tracebacks differ
        busy.__cause__ = error.__cause__
        waiting.done.set_exception(busy)
    else:
        waiting.done.set_exception(error)


def _statement(
    connection: sqlite3.Connection, sql: str, parameters: tuple[Any, ...], fetch: bool
) -> Any:
    """:func:`_run_on_sqlite`'s first row with ``fetch``, else True."""
    found = _run_on_sqlite(connection, sql, parameters)
    return found if fetch else True


def _batch_on_sqlite(
    connection: sqlite3.Connection, statements: list[tuple[str, tuple[Any, ...], bool]]
) -> list[tuple[bool, Any]]:
    """On SQLite's thread: every statement in one transaction, each in a savepoint (one
    SQLite refuses is rolled back alone: ``(False, error)``); ``(True, outcome)`` for the
    others. A batch of one is autocommitted without a transaction around it. An error of the
    transaction itself (its lock waited out, the commit failing) rolls everything back and
    raises."""
    if len(statements) == 1:
        sql, parameters, fetch = statements[0]
        return [(True, _statement(connection, sql, parameters, fetch))]
    outcomes: list[tuple[bool, Any]] = []
    connection.execute("BEGIN IMMEDIATE")
    try:
        for sql, parameters, fetch in statements:
            connection.execute("SAVEPOINT one_write")
            try:
                outcome = _statement(connection, sql, parameters, fetch)
            except sqlite3.Error as error:
                connection.execute("ROLLBACK TO one_write")
                connection.execute("RELEASE one_write")
                outcomes.append((False, error))
                continue
            connection.execute("RELEASE one_write")
            outcomes.append((True, outcome))
        connection.execute("COMMIT")
    except BaseException:
        _rollback_on_sqlite(connection)
        raise
    return outcomes


def _refused(error: BaseException) -> bool:
    """True when the database answered with an error: the statement did nothing and the
    connection is usable. Anything else (a lost connection, a cancelled wait) leaves the
    outcome unknown."""
    if isinstance(error, sqlite3.Error):
        return True
    return getattr(error, "sqlstate", None) is not None  # asyncpg's server errors


# ----------------------------------------------------------------------------- locked_row

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
                if _refused(error):
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
            if _refused(error):
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
        """Back to the pool with no transaction open: rolled back if one is; a connection
        whose state is unknown is invalidated, never reused."""
        if self._state == _OPEN:
            try:
                if self._db.is_sqlite:
                    await run_on_sqlite_thread(self._driver, _rollback_on_sqlite)
                else:
                    await self._driver.execute("ROLLBACK")
                self._state = _CLEAN
            except BaseException:
                self._state = _UNKNOWN
        if self._state == _CLEAN:
            pooled.close()
        else:
            await greenlet_spawn(pooled.invalidate)


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
        pooled = await _writer_connection(db)
        locked = LockedRow(db, pooled.driver_connection)
        try:
            try:
                raw = await locked._lock(compiled.sql, values)
            except BaseException as error:
                if _refused(error) and driver_gave_up(error):
                    raise StorageBusy from error
                raise
            locked.row = None if raw is None else _row(row_type, results, tuple(raw))
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
        _rollback_on_sqlite(connection)
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
        _rollback_on_sqlite(connection)
        raise
    return count


def _rollback_on_sqlite(connection: sqlite3.Connection) -> None:
    if connection.in_transaction:
        connection.execute("ROLLBACK")
