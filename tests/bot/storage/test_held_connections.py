"""The one-statement layer's connections (``Database.held``) stay checked out between its
statements, and that never costs a unit of work its connection, never reuses a connection
whose state is unknown, and never outlives ``Database.dispose``.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from sqlalchemy import func, select

from bot.actor import Actor
from bot.storage import Database
from bot.storage.db import HELD_CONNECTIONS, track_writes
from bot.storage.models import RollLog
from bot.storage.repositories import characters as characters_repo
from bot.storage.repositories import rolls as roll_log

ACTOR = Actor(user_id=7, channel_id=100, guild_id=1)
ROLL: dict[str, Any] = {"system": "dice", "input": "1d20", "faces": [[12]], "outcome": "12"}


async def _rolls(db: Database) -> int:
    async with db.unit_of_work(read_only=True) as session:
        return int((await session.execute(select(func.count()).select_from(RollLog))).scalar())


async def test_consecutive_statements_share_one_held_connection(any_db: Database) -> None:
    await roll_log.append_public(any_db, ACTOR, **ROLL)
    pool = any_db.engine.sync_engine.pool
    first = await any_db.held.take()
    await any_db.held.give(first)
    for _ in range(3):
        await roll_log.append_public(any_db, ACTOR, **ROLL)
        await characters_repo.owned_snapshot(any_db, 1, 7)
    second = await any_db.held.take()
    try:
        # The same checkout, never handed back to the pool and taken again.
        assert second is first
    finally:
        await any_db.held.give(second)
    assert pool.checkedout() == any_db.held.idle == 1
    assert await _rolls(any_db) == 4


async def test_statements_past_the_held_ones_go_back_to_the_pool(any_db: Database) -> None:
    many = HELD_CONNECTIONS + 3
    taken = [await any_db.held.take() for _ in range(many)]
    pool = any_db.engine.sync_engine.pool
    assert pool.checkedout() == many and any_db.held.in_use == many
    for pooled in taken:
        await any_db.held.give(pooled)
    assert any_db.held.idle == HELD_CONNECTIONS and any_db.held.in_use == 0
    assert pool.checkedout() == HELD_CONNECTIONS


async def test_an_overflow_connection_given_back_to_a_full_pool_is_closed(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    # The pool keeps one; the others past the held ones are closed on their way back, which
    # is I/O: SQLAlchemy logs (and swallows) MissingGreenlet when it runs outside its greenlet,
    # and the connection leaks.
    db = Database(database_url, pool_size=1, max_overflow=3)
    try:
        taken = [await db.held.take() for _ in range(HELD_CONNECTIONS + 2)]
        with caplog.at_level(logging.ERROR, logger="sqlalchemy.pool"):
            for pooled in taken:
                await db.held.give(pooled)
        assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
        pool = db.engine.sync_engine.pool
        assert db.held.idle == HELD_CONNECTIONS and pool.checkedin() == 1
    finally:
        await db.dispose()


async def test_held_connections_never_leave_a_unit_of_work_short(database_url: str) -> None:
    # A pool of one connection: the held ones are on top of it, not taken from it.
    db = Database(database_url, pool_size=1, max_overflow=0, pool_timeout=1)
    try:
        taken = [await db.held.take() for _ in range(HELD_CONNECTIONS)]
        for pooled in taken:
            await db.held.give(pooled)
        assert db.held.idle == HELD_CONNECTIONS
        await roll_log.append_public(db, ACTOR, **ROLL)
        assert await _rolls(db) == 1  # a unit of work got its connection, without waiting
    finally:
        await db.dispose()


async def test_an_invalidated_connection_is_never_held_again(any_db: Database) -> None:
    pooled = await any_db.held.take()
    await any_db.held.invalidate(pooled)
    assert any_db.held.idle == any_db.held.in_use == 0
    await roll_log.append_public(any_db, ACTOR, **ROLL)  # on a fresh connection
    fresh = await any_db.held.take()
    await any_db.held.give(fresh)
    assert fresh is not pooled


async def test_closing_gives_the_held_connections_back(database_url: str) -> None:
    db = Database(database_url)
    await roll_log.append_public(db, ACTOR, **ROLL)
    lent = await db.held.take()  # a statement still running when the bot closes
    await roll_log.append_public(db, ACTOR, **ROLL)
    pool = db.engine.sync_engine.pool
    assert pool.checkedout() == 2 and db.held.idle == 1
    await db.held.close()
    assert db.held.idle == 0 and pool.checkedout() == 1  # the idle one is back in the pool
    await db.held.give(lent)  # its statement ends: back to the pool, not held past the close
    assert db.held.idle == db.held.in_use == 0 and pool.checkedout() == 0
    await db.dispose()


async def test_dispose_gives_the_held_connections_back(database_url: str) -> None:
    db = Database(database_url)
    await roll_log.append_public(db, ACTOR, **ROLL)
    assert db.held.idle == 1
    await db.dispose()
    assert db.held.idle == 0
    try:  # a task still finishing after dispose writes through the new pool, holds nothing
        writes = track_writes()
        await roll_log.append_public(db, ACTOR, **ROLL)
        assert writes.committed == 1 and await _rolls(db) == 2
        assert db.engine.sync_engine.pool.checkedout() == db.held.idle == 0
    finally:
        await db.dispose()


@pytest.mark.parametrize("any_database_url", ["postgresql"], indirect=True)
@pytest.mark.postgres
async def test_a_held_connection_the_server_closed_is_replaced(any_database_url: str) -> None:
    db = Database(any_database_url)
    try:
        await roll_log.append_public(db, ACTOR, **ROLL)
        dead = await db.held.take()
        await db.held.give(dead)
        await dead.driver_connection.close()  # as a restarted server leaves it
        await asyncio.sleep(0)
        writes = track_writes()
        await roll_log.append_public(db, ACTOR, **ROLL)
        assert (writes.committed, writes.in_doubt) == (1, False)
        fresh = await db.held.take()
        try:
            assert fresh is not dead and not fresh.driver_connection.is_closed()
        finally:
            await db.held.give(fresh)
        assert db.engine.sync_engine.pool.checkedout() == db.held.idle == 1
    finally:
        await db.dispose()
