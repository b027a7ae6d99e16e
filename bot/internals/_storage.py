"""SQLAlchemy's greenlet bridge and aiosqlite adapter, and aiosqlite's own thread, behind the
accessors :mod:`bot.internals` lists."""

from __future__ import annotations

import asyncio
import collections
from collections.abc import Callable
from typing import Any, NoReturn, TypeVar

from sqlalchemy.dialects.sqlite.aiosqlite import (
    AsyncAdapt_aiosqlite_connection,
    AsyncAdapt_aiosqlite_cursor,
    AsyncAdapt_aiosqlite_dbapi,
    SQLiteDialect_aiosqlite,
)
from sqlalchemy.util import EMPTY_DICT

T = TypeVar("T")


AiosqliteDBAPI = AsyncAdapt_aiosqlite_dbapi
AiosqliteDialect = SQLiteDialect_aiosqlite


class AiosqliteCursorBase(AsyncAdapt_aiosqlite_cursor):
    """SQLAlchemy's aiosqlite cursor adapter holding no aiosqlite cursor: a subclass runs
    each statement itself (:meth:`driver_connection`, :meth:`execute_mutex`) and hands the
    rows over with :meth:`set_rows`; ``fetch*`` are SQLAlchemy's own."""

    __slots__ = ()

    _awaitable_cursor_close = False  # close() never awaits: nothing is open

    def __init__(self, adapt_connection: AsyncAdapt_aiosqlite_connection) -> None:
        self._adapt_connection = adapt_connection
        self._connection = adapt_connection._connection
        self._cursor = None  # type: ignore[assignment]
        self._soft_closed_memoized = EMPTY_DICT
        self._rows = collections.deque()

    async def _async_soft_close(self) -> None:
        return None  # nothing is open between statements

    def close(self) -> None:
        self._rows.clear()

    @property
    def adapted_connection(self) -> AsyncAdapt_aiosqlite_connection:
        return self._adapt_connection  # type: ignore[return-value]

    @property
    def driver_connection(self) -> Any:
        """The ``aiosqlite.Connection``."""
        return self._connection

    def execute_mutex(self) -> asyncio.Lock:
        """The adapted connection's lock: one statement at a time on it."""
        lock: asyncio.Lock = self._adapt_connection._execute_mutex
        return lock

    def raise_dbapi_error(self, error: Exception) -> NoReturn:
        """Raise ``error`` as SQLAlchemy's adapter translates it (DBAPI exceptions)."""
        self._adapt_connection._handle_exception(error)

    def set_rows(self, rows: list[Any]) -> None:
        """The rows ``fetchone``/``fetchmany``/``fetchall`` hand out next."""
        self._rows = collections.deque(rows)


class AiosqliteConnectionBase(AsyncAdapt_aiosqlite_connection):
    """SQLAlchemy's aiosqlite connection adapter; ``cursor_class=`` in the class statement
    picks the buffered cursor it makes."""

    __slots__ = ()

    def __init_subclass__(cls, cursor_class: type[AiosqliteCursorBase] | None = None) -> None:
        super().__init_subclass__()
        if cursor_class is not None:
            cls._cursor_cls = cursor_class


async def run_on_sqlite_thread(connection: Any, fn: Callable[..., T], *args: Any) -> T:
    """``fn(sqlite3_connection, *args)`` on the ``aiosqlite.Connection``'s own thread, in one
    hand-off; its result (or exception) comes back here."""
    result: T = await connection._execute(fn, connection._conn, *args)
    return result
