"""SQLAlchemy's aiosqlite dialect with one trip to the SQLite thread per statement.

aiosqlite runs the sqlite3 connection on a thread of its own and every call on it (make a
cursor, execute, fetch the rows, close the cursor) is one hand-off: a future, a queue put,
the thread waking, the GIL changing hands and a ``call_soon_threadsafe`` back. SQLAlchemy's
adapter makes three or four of those per statement. Here a statement is one function run
on that thread, which makes the cursor, executes, fetches every row and closes it, and
hands back the rows with the cursor's description, row count and last row id: the same
results, a quarter of the hand-offs (profiled in docs/decisions/hot-path.md).

Only the plain (buffered) cursor changes; server-side cursors, the connection's commit and
rollback, and error translation are SQLAlchemy's own. :class:`~bot.storage.db.Database`
uses this dialect for every ``sqlite+aiosqlite`` URL (registered as ``sqlite+narrator``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from sqlalchemy.dialects import registry

from bot.internals import (
    AiosqliteConnectionBase,
    AiosqliteCursorBase,
    AiosqliteDBAPI,
    AiosqliteDialect,
    await_,
    run_on_sqlite_thread,
)

DRIVER = "narrator"

_Outcome = tuple[Any, list[Any], int, int | None]


def _run(
    connection: sqlite3.Connection,
    first: tuple[str, ...],
    operation: str,
    parameters: Any,
    many: bool,
) -> _Outcome:
    """On the SQLite thread: a whole statement, from cursor to closed cursor (after the
    ``BEGIN`` that waited for it)."""
    for statement in first:
        connection.execute(statement)
    cursor = connection.cursor()
    try:
        if many:
            cursor.executemany(operation, parameters)
        elif parameters is None:
            cursor.execute(operation)
        else:
            cursor.execute(operation, parameters)
        description = cursor.description
        rows = cursor.fetchall() if description else []
        return description, rows, cursor.rowcount, cursor.lastrowid
    finally:
        cursor.close()


class OneTripCursor(AiosqliteCursorBase):
    """A buffered cursor whose ``execute`` is one hand-off to the SQLite thread."""

    __slots__ = ("_description", "_lastrowid", "_rowcount")

    def __init__(self, adapt_connection: Any) -> None:
        # No aiosqlite cursor: each statement makes and closes its own on the thread.
        super().__init__(adapt_connection)
        self._description: Any = None
        self._rowcount = -1
        self._lastrowid: int | None = None

    @property
    def description(self) -> Any:
        return self._description

    @property
    def rowcount(self) -> int:
        return self._rowcount

    @property
    def lastrowid(self) -> Any:
        return self._lastrowid

    @property
    def arraysize(self) -> int:
        return 1

    @arraysize.setter
    def arraysize(self, value: int) -> None:
        pass

    def execute(self, operation: Any, parameters: Any = None) -> Any:
        try:
            return await_(self._trip(operation, parameters, many=False))
        except Exception as error:
            self.raise_dbapi_error(error)

    def executemany(self, operation: Any, seq_of_parameters: Sequence[Any]) -> Any:
        try:
            return await_(self._trip(operation, seq_of_parameters, many=True))
        except Exception as error:
            self.raise_dbapi_error(error)

    async def _trip(self, operation: Any, parameters: Any, *, many: bool) -> None:
        adapted = self.adapted_connection
        async with self.execute_mutex():
            first: tuple[str, ...] = ()
            if isinstance(adapted, OneTripConnection) and adapted.pending:
                first, adapted.pending = tuple(adapted.pending), []
            outcome = await run_on_sqlite_thread(
                self.driver_connection, _run, first, operation, parameters, many
            )
        self._description, rows, self._rowcount, self._lastrowid = outcome
        self.set_rows(rows)

    def nextset(self) -> None:
        return None

    def setinputsizes(self, *inputsizes: Any) -> None:
        return None


class OneTripConnection(AiosqliteConnectionBase, cursor_class=OneTripCursor):
    """The connection: a transaction's ``BEGIN`` rides along with its first statement (one
    trip fewer per transaction). SQLite takes its locks then: nothing ran on this connection
    in between, so the transaction is the same; one without statements never begins."""

    __slots__ = ("pending",)

    def __init__(self, dbapi: Any, connection: Any) -> None:
        super().__init__(dbapi, connection)
        self.pending: list[str] = []

    def run_with_next(self, statement: str) -> None:
        """Run ``statement`` just before the next one, in the same trip."""
        self.pending.append(statement)

    def commit(self) -> None:
        if self.pending:  # nothing ran since BEGIN: no transaction to end
            self.pending = []
            return
        super().commit()

    def rollback(self) -> None:
        if self.pending:
            self.pending = []
            return
        super().rollback()


class OneTripDBAPI(AiosqliteDBAPI):
    def connect(self, *arg: Any, **kw: Any) -> OneTripConnection:
        adapted = super().connect(*arg, **kw)
        return OneTripConnection(self, adapted.driver_connection)


class NarratorSQLiteDialect(AiosqliteDialect):
    """``sqlite+aiosqlite`` with :class:`OneTripCursor`."""

    driver = DRIVER
    supports_statement_cache = True

    @classmethod
    def import_dbapi(cls) -> OneTripDBAPI:
        import aiosqlite

        return OneTripDBAPI(aiosqlite, sqlite3)


registry.register(f"sqlite.{DRIVER}", __name__, "NarratorSQLiteDialect")
