"""Group commit for SQLite: the writers queued at one moment share one transaction.

With ``synchronous=FULL`` every SQLite commit waits for an fsync (4-15 ms here), and SQLite
has one writer at a time: one commit per command caps a process at one fsync per write, so
under load the writers queue behind each other's fsyncs. Here this process's writers still
queue (first come, first served, as before) but run in one transaction, each in a SAVEPOINT
of its own: a command that fails rolls back to its savepoint and leaves the others' work
alone. The group commits when nobody is queued behind its last member (or it has
:data:`MAX_GROUP` members), with one fsync, and only then does any member's unit of work
end: a reply is still only ever sent after its change is on disk.

If the group's COMMIT fails, every member fails with it (nothing of theirs was saved, or
nobody can tell: :class:`~bot.storage.db.Writes` records which). Reads use other
connections and see only committed work.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession, AsyncTransaction

from bot.errors import StorageBusy

if TYPE_CHECKING:
    from bot.storage.db import Writes

log = logging.getLogger(__name__)

#: Members of one group at most, so that the first one's reply is never held up for long.
MAX_GROUP = 32


class _Group:
    """One shared write transaction and the members waiting for its COMMIT."""

    def __init__(self, connection: AsyncConnection, transaction: AsyncTransaction) -> None:
        self.connection = connection
        self.transaction = transaction
        self.members: list[asyncio.Future[None]] = []
        self.broken = False  # a savepoint could not be rolled back: the whole group must go

    def join(self) -> asyncio.Future[None]:
        member: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.members.append(member)
        return member

    def settle(self, error: BaseException | None) -> None:
        for member in self.members:
            if member.done():
                continue
            if error is None:
                member.set_result(None)
            else:
                member.set_exception(error)
        for member in self.members:  # a member cancelled meanwhile must not log a warning
            if member.done() and not member.cancelled():
                member.exception()


class GroupCommit:
    """This process's SQLite writers: queued on one lock, committed in groups."""

    def __init__(self, engine: AsyncEngine, *, lock_timeout: float, max_group: int = MAX_GROUP):
        self.engine = engine
        self.lock_timeout = lock_timeout
        self.max_group = max_group
        self._lock = asyncio.Lock()
        self._waiting = 0
        self._group: _Group | None = None
        self._closing: set[asyncio.Task[None]] = set()
        #: Groups committed and members committed (for the tests and the benchmarks).
        self.groups = 0
        self.members = 0

    @asynccontextmanager
    async def unit_of_work(
        self, writes: Writes | None, waited_too_long: object
    ) -> AsyncIterator[AsyncSession]:
        """One member: its own savepoint in the group's transaction; returns after the
        group's COMMIT. ``waited_too_long(error)`` tells a lock timeout from other errors."""
        await self._acquire()
        member: asyncio.Future[None] | None = None
        try:
            group = self._group if self._group is not None else await self._open()
            session = AsyncSession(
                bind=group.connection,
                join_transaction_mode="create_savepoint",
                expire_on_commit=False,
            )
            async with session:
                savepoint = await session.begin()
                try:
                    yield session
                except BaseException as error:
                    try:
                        await savepoint.rollback()
                    except BaseException:
                        group.broken = True  # the transaction is in an unknown state
                    if isinstance(error, DBAPIError) and waited_too_long(error):  # type: ignore[operator]
                        raise StorageBusy from error
                    raise
                try:
                    await savepoint.commit()  # RELEASE: the work joins the group
                except BaseException:
                    group.broken = True
                    raise
            member = group.join()
        finally:
            await self._leave()
        try:
            await member
        except BaseException as error:
            refused = isinstance(error, DBAPIError) and not error.connection_invalidated
            if writes is not None and not refused:
                writes.in_doubt = True
            raise
        if writes is not None:
            writes.committed += 1

    async def _acquire(self) -> None:
        self._waiting += 1
        try:
            async with asyncio.timeout(self.lock_timeout):
                await self._lock.acquire()
        except TimeoutError:
            raise StorageBusy from None
        finally:
            self._waiting -= 1
            if self._group is not None and not self._lock.locked() and self._waiting == 0:
                # The group was left open for a writer who gave up: commit it now.
                self._spawn_close()

    async def _open(self) -> _Group:
        connection = await self.engine.connect()
        try:
            transaction = await connection.begin()  # BEGIN IMMEDIATE, with the first statement
        except BaseException:
            await connection.close()
            raise
        self._group = _Group(connection, transaction)
        return self._group

    async def _leave(self) -> None:
        """Commit the group now unless a writer is queued to join it; then let the next in."""
        try:
            group = self._group
            if group is not None and (
                self._waiting == 0 or group.broken or len(group.members) >= self.max_group
            ):
                await self._close(group)
        finally:
            self._lock.release()

    async def _close(self, group: _Group) -> None:
        """COMMIT (or, when broken or empty, ROLLBACK) and tell every member."""
        self._group = None
        error: BaseException | None = None
        try:
            if group.broken:
                await group.transaction.rollback()
                error = RuntimeError("a command's savepoint failed: the group was rolled back")
            elif group.members:
                await group.transaction.commit()
                self.groups += 1
                self.members += len(group.members)
            else:
                await group.transaction.rollback()
        except BaseException as failure:  # the members fail with it; the holder goes on
            error = failure
            log.warning("an SQLite group commit failed (%d members)", len(group.members))
        finally:
            group.settle(error)
            try:
                await group.connection.close()
            except Exception:
                log.warning("could not close a group's connection", exc_info=True)

    def _spawn_close(self) -> None:
        async def close_when_free() -> None:
            async with self._lock:
                if self._group is not None:
                    await self._close(self._group)

        task = asyncio.get_running_loop().create_task(close_when_free())
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)
