"""A row read locked and written back without a unit of work keeps a unit of work's guarantees.

A GM's ``/init next`` changes its encounter in a transaction of its own around the row
(``bot.storage.one_statement.locked_row``): a change refused or abandoned writes nothing and
says so, lock waits end in ``StorageBusy``, the revision read under the lock is checked
again, and connections go back to the pool with no transaction open.
"""

from __future__ import annotations

import asyncio
import dataclasses
import sqlite3

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.actor import Actor
from bot.errors import StorageBusy
from bot.services import initiative
from bot.storage import Database
from bot.storage.db import track_writes
from bot.storage.repositories import initiative as encounters
from engine import initiative as ini
from engine.dice import ScriptedDice
from tests.conftest import POSTGRES_URL

CHANNEL = 321
GM = Actor(user_id=1, channel_id=CHANNEL, guild_id=9, display_name="gm", gm_role=True)


async def _encounter(db: Database) -> None:
    await initiative.start(db, GM)
    for name, total in (("Alice", 18), ("Bob", 12)):
        await initiative.add(db, ScriptedDice([]), GM, name=name, roll=total)


async def _turns(db: Database) -> int:
    state = (await initiative.show(db, GM)).state
    return sum(c.turns for c in state.order)


async def test_a_refused_change_writes_nothing_and_frees_its_connection(any_db: Database) -> None:
    await _encounter(any_db)
    writes = track_writes()
    with pytest.raises(ini.UnknownCombatant):
        await initiative.remove(any_db, GM, name="Nobody")
    assert (writes.committed, writes.in_doubt) == (0, False)
    assert any_db.engine.sync_engine.pool.checkedout() == any_db.held.idle  # none lent out
    outcome = await initiative.next_turn(any_db, GM)  # the connection is still good
    assert (writes.committed, writes.in_doubt) == (1, False)
    assert outcome.view.revision == (await initiative.show(any_db, GM)).revision
    assert await _turns(any_db) == 1


async def test_no_encounter_is_said_and_nothing_stays_open(any_db: Database) -> None:
    with pytest.raises(Exception, match="No encounter is running"):
        await initiative.next_turn(any_db, GM)
    assert any_db.engine.sync_engine.pool.checkedout() == any_db.held.idle  # none lent out


async def test_a_revision_changed_under_the_lock_is_not_overwritten(any_db: Database) -> None:
    await _encounter(any_db)
    before = await initiative.show(any_db, GM)
    writes = track_writes()
    async with encounters.locked(any_db, CHANNEL) as (locking, row):
        assert row is not None
        stale = dataclasses.replace(row, revision=row.revision - 1)
        with pytest.raises(encounters.LostLock):
            await encounters.write_locked(locking, stale, {"nothing": "written"})
    assert (writes.committed, writes.in_doubt) == (0, False)
    after = await initiative.show(any_db, GM)
    assert (after.revision, after.state) == (before.revision, before.state)
    assert any_db.engine.sync_engine.pool.checkedout() == any_db.held.idle  # none lent out


async def test_two_processes_pressing_next_lose_no_turn(any_database_url: str) -> None:
    first, second = Database(any_database_url), Database(any_database_url)
    try:
        await _encounter(first)
        await asyncio.gather(
            *(initiative.next_turn(db, GM) for _ in range(10) for db in (first, second))
        )
        assert await _turns(first) == 20
    finally:
        await first.dispose()
        await second.dispose()


async def test_sqlite_gives_up_waiting_for_another_process_with_storage_busy(
    database_url: str,
) -> None:
    db = Database(database_url, lock_timeout=0.2)
    try:
        await _encounter(db)
        holder = sqlite3.connect(database_url.split("///", 1)[1], isolation_level=None)
        try:
            holder.execute("BEGIN IMMEDIATE")
            writes = track_writes()
            with pytest.raises(StorageBusy):
                await initiative.next_turn(db, GM)
            assert (writes.committed, writes.in_doubt) == (0, False)
            holder.rollback()
        finally:
            holder.close()
        assert db.engine.sync_engine.pool.checkedout() == db.held.idle  # none lent out
        await initiative.next_turn(db, GM)
        assert await _turns(db) == 1
    finally:
        await db.dispose()


@pytest.mark.parametrize("any_database_url", ["postgresql"], indirect=True)
@pytest.mark.postgres
@pytest.mark.skipif(not POSTGRES_URL, reason="TEST_DATABASE_URL is not set")
async def test_postgres_row_lock_timeout_is_storage_busy(any_database_url: str) -> None:
    db = Database(any_database_url, lock_timeout=0.2)
    holder = create_async_engine(any_database_url)
    try:
        await _encounter(db)
        async with holder.connect() as connection:
            await connection.execute(
                text(
                    "SELECT id FROM initiative_encounters WHERE active_channel_id = :c FOR UPDATE"
                ),
                {"c": CHANNEL},
            )
            writes = track_writes()
            with pytest.raises(StorageBusy):
                await initiative.next_turn(db, GM)
            assert (writes.committed, writes.in_doubt) == (0, False)
            await connection.rollback()
        assert db.engine.sync_engine.pool.checkedout() == db.held.idle  # none lent out
        await initiative.next_turn(db, GM)
        assert await _turns(db) == 1
    finally:
        await holder.dispose()
        await db.dispose()
