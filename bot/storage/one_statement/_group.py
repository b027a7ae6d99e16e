"""Group commit: SQLite's single-statement writes that wait for the writer turn, written
together in the next one."""

from __future__ import annotations

import asyncio
import sqlite3
import weakref
from dataclasses import dataclass
from typing import Any

from bot.errors import StorageBusy
from bot.internals import run_on_sqlite_thread
from bot.storage.db import Database, current_writes, driver_gave_up
from bot.storage.one_statement._sqlite import rollback_on_sqlite, run_on_sqlite, writer_connection


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
        #: Trips to SQLite's thread, and the statements they carried (the tests count them).
        self.batches = 0
        self.batched = 0

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
            pooled = await writer_connection(self._db)
        except BaseException as error:
            for waiting in batch:  # nothing was sent
                _fail(waiting, error)
            raise
        statements = [(waiting.sql, waiting.parameters, waiting.fetch) for waiting in batch]
        for waiting in batch:
            waiting.taken = True
        self.batches += 1
        self.batched += len(batch)
        try:
            outcomes = await run_on_sqlite_thread(
                pooled.driver_connection, batch_on_sqlite, statements
            )
        except BaseException as error:
            if isinstance(error, sqlite3.Error):  # refused, rolled back: nothing saved
                await self._db.held.give(pooled)
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
            await asyncio.shield(self._db.held.invalidate(pooled))
            if isinstance(error, asyncio.CancelledError):
                raise
            return  # the next batch goes on, on another connection
        await self._db.held.give(pooled)
        for waiting, (written, value) in zip(batch, outcomes, strict=True):
            if waiting.done.done():
                continue  # its caller was cancelled meanwhile (and knows it is in doubt)
            if written:
                waiting.done.set_result(value)
            else:
                waiting.done.set_exception(value)


_groups: weakref.WeakKeyDictionary[Database, GroupCommit] = weakref.WeakKeyDictionary()


def group_of(db: Database) -> GroupCommit:
    """``db``'s group commit (one per database handle)."""
    group = _groups.get(db)
    if group is None:
        group = _groups[db] = GroupCommit(db)
    return group


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
    """:func:`run_on_sqlite`'s first row with ``fetch``, else True."""
    found = run_on_sqlite(connection, sql, parameters)
    return found if fetch else True


def batch_on_sqlite(
    connection: sqlite3.Connection, statements: list[tuple[str, tuple[Any, ...], bool]]
) -> list[tuple[bool, Any]]:
    """On SQLite's thread: every statement in one transaction, each in a savepoint (one
    SQLite refuses, or whose values cannot be bound, is rolled back alone: ``(False,
    error)``); ``(True, outcome)`` for the others. A batch of one is autocommitted without a
    transaction around it (SQLite's refusal raises, as the transaction's would). An error of
    the transaction itself (its lock waited out, the commit failing) rolls everything back
    and raises."""
    if len(statements) == 1:
        sql, parameters, fetch = statements[0]
        try:
            return [(True, _statement(connection, sql, parameters, fetch))]
        except sqlite3.Error:
            raise
        except Exception as error:  # its values could not be bound: nothing ran
            return [(False, error)]
    outcomes: list[tuple[bool, Any]] = []
    connection.execute("BEGIN IMMEDIATE")
    try:
        for sql, parameters, fetch in statements:
            connection.execute("SAVEPOINT one_write")
            try:
                outcome = _statement(connection, sql, parameters, fetch)
            except Exception as error:  # refused, or its values could not be bound: undone
                connection.execute("ROLLBACK TO one_write")
                connection.execute("RELEASE one_write")
                outcomes.append((False, error))
                continue
            connection.execute("RELEASE one_write")
            outcomes.append((True, outcome))
        connection.execute("COMMIT")
    except BaseException:
        rollback_on_sqlite(connection)
        raise
    return outcomes
