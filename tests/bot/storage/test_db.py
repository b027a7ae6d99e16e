"""The unit of work: commits, rolls back, serialises concurrent writers (SQLite, PostgreSQL)."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import func, select, text

from bot.actor import Actor
from bot.errors import StorageBusy
from bot.storage import Database
from bot.storage.models import ChannelSettings, RollLog
from bot.storage.repositories import channels
from bot.storage.repositories import rolls as roll_log
from tests.conftest import POSTGRES_URL, empty_postgres

ACTOR = Actor(user_id=7, channel_id=100, guild_id=1)


@pytest.fixture
async def any_db(any_database_url: str):
    database = Database(any_database_url)
    try:
        yield database
    finally:
        await database.dispose()


async def test_unit_of_work_commits(any_db: Database) -> None:
    async with any_db.unit_of_work() as session:
        roll_log.add(session, ACTOR, system="dice", input="1d6", faces=[4], outcome="4")
    async with any_db.unit_of_work(read_only=True) as session:
        entries = await roll_log.latest(session, 100, count=5, include_secret=True)
    assert [(e.input, e.faces, e.outcome) for e in entries] == [("1d6", [4], "4")]
    assert entries[0].created_at.tzinfo is not None


async def test_unit_of_work_rolls_back_on_error(any_db: Database) -> None:
    with pytest.raises(RuntimeError):
        async with any_db.unit_of_work() as session:
            roll_log.add(session, ACTOR, system="dice", input="1d6", faces=[4], outcome="4")
            await session.flush()
            raise RuntimeError("the command failed after writing")
    async with any_db.unit_of_work(read_only=True) as session:
        count = await session.scalar(select(func.count()).select_from(RollLog))
    assert count == 0


async def test_concurrent_read_modify_writes_lose_no_update(any_db: Database) -> None:
    async def increment() -> None:
        async with any_db.unit_of_work() as session:
            row = await channels.get_for_update(session, 100, 1)
            counter = int(row.rules.get("counter", 0))
            await asyncio.sleep(0)  # let the others interleave here if they could
            row.rules = {**row.rules, "counter": counter + 1}

    await increment()  # create the row first: creation races are not what is tested
    await asyncio.gather(*(increment() for _ in range(50)))
    async with any_db.unit_of_work(read_only=True) as session:
        row = await session.get(ChannelSettings, 100)
    assert row is not None and row.rules["counter"] == 51


async def test_sqlite_pragmas(db: Database) -> None:
    async with db.unit_of_work(read_only=True) as session:
        mode = await session.scalar(text("PRAGMA journal_mode"))
        foreign_keys = await session.scalar(text("PRAGMA foreign_keys"))
        synchronous = await session.scalar(text("PRAGMA synchronous"))
        busy = await session.scalar(text("PRAGMA busy_timeout"))
    # synchronous=FULL (2): an acknowledged change survives a power loss.
    assert (mode, foreign_keys, synchronous) == ("wal", 1, 2)
    assert busy == 10_000  # bounded: a command waits 10 s at most, then rolls back


async def test_sqlite_synchronous_normal_on_request(database_url: str) -> None:
    db = Database(database_url, synchronous="NORMAL")
    try:
        async with db.unit_of_work(read_only=True) as session:
            assert await session.scalar(text("PRAGMA synchronous")) == 1
    finally:
        await db.dispose()


async def _latest_rolls(db: Database) -> list[RollLog]:
    async with db.unit_of_work(read_only=True) as session:
        return await roll_log.latest(session, ACTOR.channel_id, count=10, include_secret=True)


@pytest.mark.postgres
async def test_a_postgres_read_blocked_by_a_lock_is_busy_not_a_crash() -> None:
    """A read waiting on a table lock past ``lock_timeout`` is told "busy", as a write is."""
    if not POSTGRES_URL:
        pytest.skip("TEST_DATABASE_URL is not set")
    async with empty_postgres() as url:
        holder, patient = Database(url), Database(url, lock_timeout=0.3)
        try:
            await holder.upgrade_async()
            async with holder.unit_of_work() as session:
                await session.execute(text("LOCK TABLE roll_log IN ACCESS EXCLUSIVE MODE"))
                with pytest.raises(StorageBusy, match="nothing was saved"):
                    await _latest_rolls(patient)
            # The lock is gone: the same read answers.
            assert await _latest_rolls(patient) == []
        finally:
            await holder.dispose()
            await patient.dispose()


@pytest.mark.postgres
async def test_a_postgres_read_cancelled_by_statement_timeout_is_busy() -> None:
    if not POSTGRES_URL:
        pytest.skip("TEST_DATABASE_URL is not set")
    async with empty_postgres() as url:
        patient = Database(url, pool_size=1, max_overflow=0)
        try:
            with pytest.raises(StorageBusy):
                async with patient.unit_of_work(read_only=True) as session:
                    await session.execute(text("SET statement_timeout = 100"))
                    await session.execute(text("SELECT pg_sleep(2)"))
        finally:
            await patient.dispose()
