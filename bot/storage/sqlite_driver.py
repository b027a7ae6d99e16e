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

import collections
import sqlite3
from collections.abc import Sequence
from typing import Any

from sqlalchemy.dialects import registry
from sqlalchemy.dialects.sqlite.aiosqlite import (
    AsyncAdapt_aiosqlite_connection,
    AsyncAdapt_aiosqlite_cursor,
    AsyncAdapt_aiosqlite_dbapi,
    SQLiteDialect_aiosqlite,
)
from sqlalchemy.util import EMPTY_DICT
from sqlalchemy.util.concurrency import await_

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


class OneTripCursor(AsyncAdapt_aiosqlite_cursor):
    """A buffered cursor whose ``execute`` is one hand-off to the SQLite thread."""

    __slots__ = ("_description", "_lastrowid", "_rowcount")

    _awaitable_cursor_close = False

    def __init__(self, adapt_connection: AsyncAdapt_aiosqlite_connection) -> None:
        # No aiosqlite cursor: each statement makes and closes its own on the thread.
        self._adapt_connection = adapt_connection
        self._connection = adapt_connection._connection
        self._cursor = None  # type: ignore[assignment]
        self._soft_closed_memoized = EMPTY_DICT
        self._rows = collections.deque()
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

    async def _async_soft_close(self) -> None:
        return None  # nothing is open between statements

    def close(self) -> None:
        self._rows.clear()

    def execute(self, operation: Any, parameters: Any = None) -> Any:
        try:
            return await_(self._trip(operation, parameters, many=False))
        except Exception as error:
            self._adapt_connection._handle_exception(error)

    def executemany(self, operation: Any, seq_of_parameters: Sequence[Any]) -> Any:
        try:
            return await_(self._trip(operation, seq_of_parameters, many=True))
        except Exception as error:
            self._adapt_connection._handle_exception(error)

    async def _trip(self, operation: Any, parameters: Any, *, many: bool) -> None:
        connection = self._connection
        adapted = self._adapt_connection
        async with adapted._execute_mutex:
            first: tuple[str, ...] = ()
            if isinstance(adapted, OneTripConnection) and adapted.pending:
                first, adapted.pending = tuple(adapted.pending), []
            outcome = await connection._execute(
                _run, connection._conn, first, operation, parameters, many
            )
        self._description, rows, self._rowcount, self._lastrowid = outcome
        self._rows = collections.deque(rows)

    def nextset(self) -> None:
        return None

    def setinputsizes(self, *inputsizes: Any) -> None:
        return None


class OneTripConnection(AsyncAdapt_aiosqlite_connection):
    """The connection: a transaction's ``BEGIN`` rides along with its first statement (one
    trip fewer per transaction). SQLite takes its locks then: nothing ran on this connection
    in between, so the transaction is the same; one without statements never begins."""

    __slots__ = ("pending",)
    _cursor_cls = OneTripCursor  # type: ignore[assignment]

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


class OneTripDBAPI(AsyncAdapt_aiosqlite_dbapi):
    def connect(self, *arg: Any, **kw: Any) -> OneTripConnection:
        adapted = super().connect(*arg, **kw)
        return OneTripConnection(self, adapted._connection)


class NarratorSQLiteDialect(SQLiteDialect_aiosqlite):
    """``sqlite+aiosqlite`` with :class:`OneTripCursor`."""

    driver = DRIVER
    supports_statement_cache = True

    @classmethod
    def import_dbapi(cls) -> OneTripDBAPI:
        import aiosqlite

        return OneTripDBAPI(aiosqlite, sqlite3)


registry.register(f"sqlite.{DRIVER}", __name__, "NarratorSQLiteDialect")
