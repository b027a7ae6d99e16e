"""SQLite's single-statement writes that wait for the writer turn are committed together
(``bot.storage.one_statement.GroupCommit``), each caller told only its own outcome.

Each test holds this process's writer turn (as a slow writer would), starts several public
rolls behind it, then lets them go: they must land in one trip to SQLite's thread, and each
caller's write record must stay true.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
import pytest_asyncio
from sqlalchemy import func, insert, select

from bot.actor import Actor
from bot.errors import StorageBusy
from bot.storage import Database
from bot.storage.db import Writes, track_writes
from bot.storage.models import RollLog
from bot.storage.one_statement import PreparedInsert, group_of, insert_one
from bot.storage.repositories import rolls as roll_log

ACTOR = Actor(user_id=7, channel_id=100, guild_id=1)
ROLL: dict[str, Any] = {"system": "dice", "input": "1d20", "faces": [[12]], "outcome": "12"}
COLUMNS = tuple(c.key for c in RollLog.__table__.columns if c.key != "id")
REFUSED = dict.fromkeys(COLUMNS) | {"secret": False}  # NOT NULL columns left empty


@pytest_asyncio.fixture
async def db(database_url: str) -> AsyncIterator[Database]:
    database = Database(database_url, lock_timeout=5.0)
    await roll_log.append_public(database, ACTOR, **ROLL)  # a connection waits in the pool
    try:
        yield database
    finally:
        await database.dispose()


async def _rolls(db: Database) -> int:
    async with db.unit_of_work(read_only=True) as session:
        return int((await session.execute(select(func.count()).select_from(RollLog))).scalar())


def _tracked(call: Callable[[], Any]) -> tuple[asyncio.Task[Any], list[Writes]]:
    """``call()`` in a task of its own, with that task's write record."""
    records: list[Writes] = []

    async def run() -> Any:
        records.append(track_writes())
        return await call()

    task = asyncio.create_task(run())
    return task, records


async def _started() -> None:
    """Every task started so far has run to its first wait."""
    for _ in range(3):
        await asyncio.sleep(0)


async def test_writes_waiting_for_the_turn_land_in_one_trip_and_each_is_committed(
    db: Database,
) -> None:
    writer = await db.take_writer_turn()
    assert writer is not None
    tasks = [_tracked(lambda: roll_log.append_public(db, ACTOR, **ROLL)) for _ in range(5)]
    await _started()
    assert await _rolls(db) == 1  # nothing written while the turn is held
    writer.release()
    await asyncio.gather(*(task for task, _ in tasks))
    group = group_of(db)
    assert (group.batches, group.batched) == (1, 5)  # one trip, one transaction, one fsync
    for _, records in tasks:
        record = records[0]
        assert (record.committed, record.in_doubt) == (1, False)
    assert await _rolls(db) == 6
    assert db.engine.sync_engine.pool.checkedout() == db.held.idle  # none lent out
    await roll_log.append_public(db, ACTOR, **ROLL)  # alone again: at once, no batch
    assert (group.batches, group.batched) == (1, 5)


async def test_a_statement_sqlite_refuses_fails_alone_and_the_batch_is_kept(
    db: Database,
) -> None:
    prepared = PreparedInsert(insert(RollLog.__table__), COLUMNS)
    writer = await db.take_writer_turn()
    assert writer is not None
    good = [_tracked(lambda: roll_log.append_public(db, ACTOR, **ROLL)) for _ in range(2)]
    bad, bad_records = _tracked(lambda: insert_one(db, prepared, REFUSED))
    last, last_records = _tracked(lambda: roll_log.append_public(db, ACTOR, **ROLL))
    await _started()
    writer.release()
    with pytest.raises(Exception, match=r"(?i)not null"):
        await bad
    await asyncio.gather(last, *(task for task, _ in good))
    assert (group_of(db).batches, group_of(db).batched) == (1, 4)
    refused = bad_records[0]
    assert (refused.committed, refused.in_doubt) == (0, False)  # "nothing was saved" is true
    assert (last_records[0].committed, last_records[0].in_doubt) == (1, False)
    assert await _rolls(db) == 4  # the first roll and the three good ones


async def test_a_write_cancelled_before_its_batch_is_sent_is_never_written(
    db: Database,
) -> None:
    writer = await db.take_writer_turn()
    assert writer is not None
    kept, _ = _tracked(lambda: roll_log.append_public(db, ACTOR, **ROLL))
    cancelled, records = _tracked(lambda: roll_log.append_public(db, ACTOR, **ROLL))
    await _started()
    cancelled.cancel()
    with pytest.raises(asyncio.CancelledError):
        await cancelled
    writer.release()
    await kept
    assert (group_of(db).batches, group_of(db).batched) == (1, 1)
    assert (records[0].committed, records[0].in_doubt) == (0, False)
    assert await _rolls(db) == 2


async def test_a_turn_waited_out_is_storage_busy_for_every_waiting_write(
    database_url: str,
) -> None:
    db = Database(database_url, lock_timeout=0.2)
    try:
        writer = await db.take_writer_turn()
        assert writer is not None
        tasks = [_tracked(lambda: roll_log.append_public(db, ACTOR, **ROLL)) for _ in range(3)]
        results = await asyncio.gather(*(task for task, _ in tasks), return_exceptions=True)
        writer.release()
        assert all(isinstance(result, StorageBusy) for result in results)
        for _, records in tasks:
            assert (records[0].committed, records[0].in_doubt) == (0, False)
        assert group_of(db).batches == 0
        await roll_log.append_public(db, ACTOR, **ROLL)  # the next write goes through
        assert await _rolls(db) == 1
    finally:
        await db.dispose()


async def test_a_write_whose_values_cannot_be_bound_fails_alone_and_the_group_goes_on(
    db: Database,
) -> None:
    """A value SQLite cannot store (an integer past 64 bits) is the driver's error before the
    statement runs: its caller is told, nothing of it is written, the batch's others are, and
    the next batch still goes through."""
    too_big = Actor(user_id=2**70, channel_id=100, guild_id=1)
    writer = await db.take_writer_turn()
    assert writer is not None
    good, good_records = _tracked(lambda: roll_log.append_public(db, ACTOR, **ROLL))
    bad, bad_records = _tracked(lambda: roll_log.append_public(db, too_big, **ROLL))
    await _started()
    writer.release()
    with pytest.raises(OverflowError):
        await bad
    await good
    assert (bad_records[0].committed, bad_records[0].in_doubt) == (0, False)
    assert (good_records[0].committed, good_records[0].in_doubt) == (1, False)
    assert (group_of(db).batches, group_of(db).batched) == (1, 2)
    writer = await db.take_writer_turn()
    assert writer is not None
    later = [_tracked(lambda: roll_log.append_public(db, ACTOR, **ROLL)) for _ in range(2)]
    await _started()
    writer.release()
    await asyncio.gather(*(task for task, _ in later))
    assert await _rolls(db) == 4  # the fixture's, the good one, the two later ones
    assert db.engine.sync_engine.pool.checkedout() == db.held.idle  # none lent out
