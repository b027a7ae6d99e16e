"""The database handle and its unit of work.

One command is one transaction: :meth:`Database.unit_of_work` commits when the block ends
and rolls back on any error, so a reply (sent after the block) only ever reports what is
on disk. On SQLite, write transactions begin with ``BEGIN IMMEDIATE`` so concurrent commands
queue for the write lock (with ``busy_timeout``) instead of failing with "database is locked"
when a read transaction tries to upgrade.

Waits are bounded (:data:`LOCK_TIMEOUT`): a command that cannot get its lock in time is rolled
back with :class:`~bot.errors.StorageBusy`, so it can still say so within the 15 minutes of a
deferred reply. Each interaction's commits are recorded (:func:`track_writes`), so an error
after a commit is never reported as "nothing was saved".
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.engine.default import DefaultDialect
from sqlalchemy.exc import DBAPIError, InvalidatePoolError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.orm import Session
from sqlalchemy.pool import QueuePool

from bot.errors import StorageBusy
from bot.internals import greenlet_spawn
from bot.storage import json_codec, sqlite_driver
from bot.storage.migrate import upgrade_to_head

log = logging.getLogger(__name__)

_READ_ONLY = "narrator_read_only"

#: Seconds a command may wait for a lock (a row on PostgreSQL, the write lock on SQLite)
#: before it is rolled back and told so: far below the 15 minutes a deferred reply has,
#: and short enough that a player still reads the answer as an answer.
LOCK_TIMEOUT = 10.0
#: A statement may run this much longer than a lock wait before PostgreSQL cancels it.
STATEMENT_EXTRA = 10.0
#: SQLite's fsync policy. FULL: every commit is on disk before the reply, through a power
#: loss; NORMAL skips that fsync in WAL mode (the last commits may be lost, the file is never
#: corrupted). docs/performance.md gives the measured cost (``benchmarks/sqlite_durability.py``).
SQLITE_SYNCHRONOUS = "FULL"
#: lock_not_available, query_canceled (lock_timeout, statement_timeout).
_TIMEOUT_STATES = frozenset({"55P03", "57014"})
#: Idle connections the one-statement layer keeps checked out between its statements
#: (:class:`HeldConnections`); the pool may open this many more, so units of work keep all
#: of theirs.
HELD_CONNECTIONS = 2
#: SQLAlchemy's own ``max_overflow`` when none is given.
_POOL_OVERFLOW = 10


class Database:
    """Owns the engine and hands out units of work."""

    def __init__(
        self,
        url: str,
        *,
        echo: bool = False,
        lock_timeout: float = LOCK_TIMEOUT,
        synchronous: str = SQLITE_SYNCHRONOUS,
        **engine_kwargs: Any,
    ) -> None:
        self.url = url
        self.lock_timeout = lock_timeout
        parsed = make_url(url)
        self.is_sqlite = parsed.get_backend_name() == "sqlite"
        connect_args = engine_kwargs.setdefault("connect_args", {})
        ping = False  # our own check on checkout (PostgreSQL with asyncpg, below)
        if self.is_sqlite:
            ensure_sqlite_directory(url)
            connect_args.setdefault("timeout", lock_timeout)
            # Every unit of work ends in COMMIT or ROLLBACK and pysqlite runs in autocommit
            # mode between them, so the pool's rollback-on-return would be one more round
            # trip to aiosqlite's thread per command for nothing.
            engine_kwargs.setdefault("pool_reset_on_return", None)
        else:
            # A connection is checked before use (a restarted server leaves the pool's
            # connections dead): on asyncpg without a round trip, not pool_pre_ping's three.
            engine_kwargs.setdefault("pool_pre_ping", True)
            if parsed.get_driver_name() == "asyncpg":
                ping = engine_kwargs.pop("pool_pre_ping")
            # Waits end in an error (rolled back, answered) instead of past every deadline.
            connect_args.setdefault("server_settings", {}).update(
                lock_timeout=str(round(lock_timeout * 1000)),
                statement_timeout=str(round((lock_timeout + STATEMENT_EXTRA) * 1000)),
            )
        engine_url = parsed
        if self.is_sqlite and parsed.get_driver_name() == "aiosqlite":
            # The same driver, one trip to its thread per statement (bot.storage.sqlite_driver).
            engine_url = parsed.set(drivername=f"sqlite+{sqlite_driver.DRIVER}")
        engine_kwargs.setdefault("json_serializer", json_codec.dumps)
        engine_kwargs.setdefault("json_deserializer", json_codec.loads)
        dialect = cast(type[DefaultDialect], engine_url.get_dialect())  # every dialect's base
        pool_class = engine_kwargs.get("poolclass") or dialect.get_pool_class(engine_url)
        overflow = engine_kwargs.get("max_overflow", _POOL_OVERFLOW)
        if "pool" not in engine_kwargs and issubclass(pool_class, QueuePool) and overflow >= 0:
            engine_kwargs["max_overflow"] = overflow + HELD_CONNECTIONS
        self.engine: AsyncEngine = create_async_engine(engine_url, echo=echo, **engine_kwargs)
        #: The one-statement layer's connections (:mod:`bot.storage.one_statement`).
        self.held = HeldConnections(self.engine, check_closed=ping)
        if self.is_sqlite:
            _configure_sqlite(
                self.engine, busy_ms=round(lock_timeout * 1000), synchronous=synchronous
            )
        elif ping:
            _ping_on_checkout(self.engine)
        self._write_sessions = async_sessionmaker(
            self.engine, expire_on_commit=False, sync_session_class=DeferringSession
        )
        read_options: dict[str, Any] = {_READ_ONLY: True}
        if not self.is_sqlite:
            # Under PostgreSQL's READ COMMITTED every statement reads its own snapshot, in a
            # transaction or not, so a read-only unit of work's BEGIN and COMMIT were two
            # round trips that changed nothing. (SQLite's read transaction keeps one
            # snapshot across statements: it stays.)
            read_options["isolation_level"] = "AUTOCOMMIT"
        self._read_sessions = async_sessionmaker(
            self.engine.execution_options(**read_options),
            expire_on_commit=False,
            sync_session_class=DeferringSession,
        )
        # SQLite has one writer at a time. Letting every pooled connection race for the lock
        # makes the losers poll it through busy_timeout's sleeps (up to 100 ms each), so under
        # load the lock sits idle while commands wait: queue this process's writers here
        # instead, first come first served. (busy_timeout still covers other processes.)
        self._sqlite_writer = asyncio.Lock() if self.is_sqlite else None
        #: Writers in :meth:`take_writer_turn`'s timed wait: while there are none and the lock
        #: is free, taking it cannot wait, so no timeout needs arming.
        self._writers_waiting = 0

    @asynccontextmanager
    async def unit_of_work(self, *, read_only: bool = False) -> AsyncIterator[AsyncSession]:
        """One transaction: commit when the block ends, roll back if it raises.

        Don't nest a writing unit of work inside another one: on SQLite the inner one would
        wait for the outer one forever.
        """
        writer = None if read_only else await self.take_writer_turn()
        try:
            # No explicit begin: the session begins at its first statement (where SQLAlchemy
            # connects anyway), and commit and close are one trip between them, not three.
            session = self._read_sessions() if read_only else self._write_sessions()
            try:
                yield session
            except BaseException as error:
                await _discard(session)  # rolls back
                # A read waits too (behind a table lock, a migration's, or a slow scan that
                # statement_timeout cancels): it is as busy as a write, and says so.
                if isinstance(error, DBAPIError) and waited_too_long(error):
                    raise StorageBusy from error
                raise
            if read_only:
                await _commit(session, None)
            else:
                await _commit(session, current_writes.get())
        finally:
            if writer is not None:
                writer.release()

    async def take_writer_turn(self) -> asyncio.Lock | None:
        """On SQLite, wait (at most ``lock_timeout``) for this process's turn to write and
        return the lock to release after the write; None on PostgreSQL (row locks instead)."""
        writer = self._sqlite_writer
        if writer is not None:
            if not writer.locked() and not self._writers_waiting:
                # Free and nobody queued: acquire() returns at once, without the timer.
                await writer.acquire()
                return writer
            self._writers_waiting += 1
            try:
                async with asyncio.timeout(self.lock_timeout):
                    await writer.acquire()
            except TimeoutError:
                raise StorageBusy from None
            finally:
                self._writers_waiting -= 1
        return writer

    def writer_is_free(self) -> bool:
        """True when :meth:`take_writer_turn` would not wait (always on PostgreSQL)."""
        writer = self._sqlite_writer
        return writer is None or (not writer.locked() and not self._writers_waiting)

    @property
    def sqlite_file(self) -> str | None:
        """The SQLite database's file, for another process to open (a worker's read-only
        aggregate); None on PostgreSQL and for an in-memory or URI-form SQLite database,
        which another process cannot open: their work stays in this process."""
        if not self.is_sqlite:
            return None
        parsed = make_url(self.url)
        database = parsed.database
        if not database or database == ":memory:" or database.startswith("file:"):
            return None
        if parsed.query.get("uri") or parsed.query.get("mode"):
            return None
        return str(Path(database).expanduser().resolve())

    async def dispose(self) -> None:
        await self.held.close()  # back to the pool first: dispose closes what is checked in
        await self.engine.dispose()

    def upgrade(self) -> None:
        """Bring the schema to the newest migration (blocking: call it off the event loop)."""
        upgrade_to_head(self.url)

    async def upgrade_async(self) -> None:
        await asyncio.to_thread(self.upgrade)


class HeldConnections:
    """Pooled connections the one-statement layer keeps checked out between statements.

    A checkout and checkin per statement (a greenlet switch, the pool's bookkeeping, its
    checkin's finalizer) cost ~26 µs of CPU on the 2-core machine, a list's pop and append
    well under 1 µs; the hot path's mix measured ~100-200 µs a command less. Up to
    :data:`HELD_CONNECTIONS` idle ones wait here instead; more at once come from the pool
    and go back to it. The pool was made that much larger (``max_overflow``), so the ones
    held never leave a unit of work short. Every connection here is in autocommit with no
    transaction open (its user gives it back only then); one whose state is unknown goes
    to :meth:`invalidate`, never back. On asyncpg the pool's checkout check is
    repeated here: an idle connection the server closed is replaced, and the pool's own
    check then replaces the others (``_ping_on_checkout``).
    """

    __slots__ = ("_check_closed", "_closed", "_engine", "_idle", "_ours")

    def __init__(self, engine: AsyncEngine, *, check_closed: bool) -> None:
        self._engine = engine
        self._check_closed = check_closed
        self._closed = False  # after close(): nothing is held any more (see close())
        self._idle: list[Any] = []
        self._ours: set[Any] = set()  # checked out of the current pool, not yet back in it

    @property
    def idle(self) -> int:
        """Connections held idle, ready for the next statement."""
        return len(self._idle)

    @property
    def in_use(self) -> int:
        """Connections a statement is using now (held or from the pool)."""
        return len(self._ours) - len(self._idle)

    async def take(self) -> Any:
        """A pooled connection (``_ConnectionFairy``) for one statement or one row's
        transaction, to :meth:`give` back or :meth:`invalidate`. Without an idle one, the
        pool's checkout (its errors, such as a lock wait on connecting, raised as is)."""
        idle = self._idle
        while idle:
            pooled = idle.pop()
            if not (self._check_closed and pooled.driver_connection.is_closed()):
                return pooled
            # The server closed it: closed here (even if this task is cancelled meanwhile),
            # and the pool's own check replaces the pool's others on the checkout below.
            await asyncio.shield(self.invalidate(pooled))
        pooled = await greenlet_spawn(self._engine.sync_engine.pool.connect)
        self._ours.add(pooled)
        return pooled

    async def give(self, pooled: Any) -> None:
        """Back from a statement with no transaction open: kept idle (no await), or to the
        pool, in SQLAlchemy's greenlet: a pool already full closes an overflow connection,
        which is I/O (outside the greenlet that failed, and the connection leaked)."""
        if not self._closed and pooled in self._ours and len(self._idle) < HELD_CONNECTIONS:
            self._idle.append(pooled)
            return
        self._ours.discard(pooled)
        await asyncio.shield(greenlet_spawn(pooled.close))

    async def invalidate(self, pooled: Any) -> None:
        """Close a connection whose state is unknown; the pool opens another when needed."""
        self._ours.discard(pooled)
        await greenlet_spawn(pooled.invalidate)

    async def close(self) -> None:
        """Give the idle ones back to the pool (before it is disposed of); those in use go
        back to it when their statement ends. From now on nothing is held: a task still
        finishing after ``Database.dispose()`` (a background write at shutdown) takes a
        connection from the pool and gives it back, so none is left checked out for the
        garbage collector to find."""
        self._closed = True
        idle, self._idle = self._idle, []
        self._ours.clear()
        for pooled in idle:
            await greenlet_spawn(pooled.close)


_DEFERRED = "narrator.deferred_writes"

#: Writes a batch of deferred items in the session's transaction (see :func:`deferred`).
DeferredWrite = Callable[[Session, list[Any]], None]


def deferred(session: AsyncSession, write: DeferredWrite) -> list[Any]:
    """The items ``write`` will write in this session's transaction, before its next flush,
    ORM query or commit: append to the list returned.

    Those are the points where the ORM flushes an added object, so a repository can write
    with a Core statement and keep what ``session.add`` promised: a later ORM query in the
    same unit of work sees the row, a rollback writes nothing (it drops the list).
    """
    writes: dict[DeferredWrite, list[Any]] | None = session.info.get(_DEFERRED)
    if writes is None:
        if not isinstance(session.sync_session, DeferringSession):
            raise TypeError("deferred writes need a session from Database.unit_of_work")
        writes = session.info[_DEFERRED] = {}
    items = writes.get(write)
    if items is None:
        items = writes[write] = []
    return items


def _run_deferred(session: Session) -> None:
    writes: dict[DeferredWrite, list[Any]] = session.info.pop(_DEFERRED)
    for write, items in writes.items():
        write(session, items)


class DeferringSession(Session):
    """A session that runs the writes :func:`deferred` queued before it flushes (autoflush
    included) and before it commits; a rollback drops them, as it drops pending objects."""

    def flush(self, objects: Any = None) -> None:
        if _DEFERRED in self.info:
            _run_deferred(self)
        super().flush(objects)

    def rollback(self) -> None:
        # Also when nothing began yet: session.add begins, so a rollback drops its objects.
        self.info.pop(_DEFERRED, None)
        super().rollback()


@event.listens_for(DeferringSession, "before_commit")
def _before_commit(session: Session) -> None:
    if _DEFERRED in session.info:
        _run_deferred(session)


@event.listens_for(DeferringSession, "after_soft_rollback")
def _after_rollback(session: Session, _previous: Any) -> None:
    session.info.pop(_DEFERRED, None)


@dataclass(slots=True)
class Writes:
    """What the writing units of work of one interaction did, for an honest error message.

    ``committed`` counts commits; ``in_doubt`` is set when a commit itself failed, so the
    database may or may not have kept the change (a connection lost mid-COMMIT).
    """

    committed: int = 0
    in_doubt: bool = False


current_writes: ContextVar[Writes | None] = ContextVar("narrator_writes", default=None)


def track_writes() -> Writes:
    """Start recording this task's commits (call it where an interaction starts)."""
    writes = Writes()
    current_writes.set(writes)
    return writes


@contextmanager
def writes_tracked() -> Iterator[Writes]:
    """Record the commits of whatever runs inside (and of the tasks it starts, which copy the
    context): the gateway wraps each component and modal dispatch in it."""
    writes = Writes()
    token = current_writes.set(writes)
    try:
        yield writes
    finally:
        current_writes.reset(token)


def tracked_writes() -> Writes:
    """This task's record since :func:`track_writes` (an empty one when never started)."""
    return current_writes.get() or Writes()


async def _commit(session: AsyncSession, writes: Writes | None) -> None:
    """Commit (one trip to the driver), then close; note the outcome in ``writes``."""
    try:
        await session.commit()
    except BaseException as error:
        # The database refusing the commit rolled it back; a lost connection (or a task
        # cancelled mid-COMMIT) leaves the outcome unknown.
        refused = isinstance(error, DBAPIError) and not error.connection_invalidated
        if writes is not None and not refused:
            writes.in_doubt = True
        await _discard(session)
        raise
    if writes is not None:
        writes.committed += 1
    # Nothing is open after a commit, so closing (forgetting the loaded objects) does no
    # I/O: no trip to the driver's greenlet for it.
    session.sync_session.close()


async def _discard(session: AsyncSession) -> None:
    """Roll back and close, shielded like ``AsyncSession.__aexit__``: a cancelled command
    still hands its connection back to the pool without a transaction open."""
    await asyncio.shield(session.close())


def waited_too_long(error: DBAPIError) -> bool:
    """True when the database gave up waiting: a lock or statement timeout, a busy SQLite."""
    return driver_gave_up(error.orig)


def driver_gave_up(original: BaseException | None) -> bool:
    """:func:`waited_too_long` for the driver's own exception (sqlite3's, asyncpg's)."""
    if getattr(original, "sqlstate", None) in _TIMEOUT_STATES:
        return True
    message = str(original).lower()
    return isinstance(original, sqlite3.OperationalError) and (
        "database is locked" in message or "database is busy" in message
    )


def ensure_sqlite_directory(url: str) -> None:
    """Create the directory an SQLite URL's file lives in (SQLite creates only the file)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return
    database = parsed.database
    if database and database != ":memory:" and not database.startswith("file:"):
        Path(database).expanduser().resolve().parent.mkdir(parents=True, exist_ok=True)


def _ping_on_checkout(engine: AsyncEngine) -> None:
    """Replace a pooled connection the server closed before it is used, with no round trip.

    A restart (or a terminated backend) closes the server's end of every connection; the
    event loop reads that end of file at once, even from an idle pooled connection, and
    asyncpg marks the connection closed. pool_pre_ping would find the same with three round
    trips on asyncpg (BEGIN, a query, ROLLBACK) for every unit of work. As with it, a
    connection that dies between the check and its first statement fails that statement.
    """

    @event.listens_for(engine.sync_engine, "checkout")
    def _on_checkout(_dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        if record.driver_connection.is_closed():
            # As pool_pre_ping does: the pool's older connections died with it, replace all.
            raise InvalidatePoolError("the server closed this pooled connection")


def _configure_sqlite(engine: AsyncEngine, *, busy_ms: int, synchronous: str) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy's "begin" event below issue BEGIN itself (pysqlite would defer it).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        for pragma in (
            # First: switching to WAL needs the file's lock too, and without a busy timeout a
            # new connection failed at once while another process was writing.
            f"PRAGMA busy_timeout={busy_ms}",
            "PRAGMA journal_mode=WAL",
            "PRAGMA foreign_keys=ON",
            f"PRAGMA synchronous={synchronous}",
        ):
            cursor.execute(pragma)
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(connection: Any) -> None:
        read_only = connection.get_execution_options().get(_READ_ONLY, False)
        statement = "BEGIN" if read_only else "BEGIN IMMEDIATE"
        dbapi_connection = connection.connection.dbapi_connection
        if isinstance(dbapi_connection, sqlite_driver.OneTripConnection):
            dbapi_connection.run_with_next(statement)  # with the first statement's trip
        else:
            connection.exec_driver_sql(statement)
