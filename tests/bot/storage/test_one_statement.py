"""One statement without a unit of work keeps a unit of work's guarantees.

A public roll is logged as one autocommitted INSERT, and ``/sheet show`` reads a player's only
character with one SELECT (``bot.storage.one_statement``).

``rolls.append_public`` (``bot.storage.one_statement.insert_one``) writes without a session:
the row must be the one ``rolls.add`` stores, the interaction's write record must stay true
(committed, refused, in doubt), lock waits must end in ``StorageBusy``, and connections must
go back to the pool — or be replaced when their state is unknown.
"""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import insert, select, text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.actor import Actor
from bot.errors import StorageBusy
from bot.storage import Database
from bot.storage.db import track_writes
from bot.storage.models import Character, RollLog
from bot.storage.one_statement import PreparedInsert, insert_one
from bot.storage.repositories import characters as characters_repo
from bot.storage.repositories import rolls as roll_log
from tests.conftest import POSTGRES_URL

ACTOR = Actor(user_id=7, channel_id=100, guild_id=1)
WHEN = datetime(2026, 11, 24, 1, 2, 3, 456789, tzinfo=UTC)
ROLL: dict[str, Any] = {
    "system": "dice",
    "input": "4d6kh3 + 2 ✨ 'quoted' \"twice\"",
    "faces": [[6, 5, 1, 3], 2, {"kept": [6, 5, 3]}],
    "outcome": "16",
    "label": "Stealth <@123>",
}


def _stored_columns(url: str) -> str:
    """Every column of every row as the database holds it (text), in id order."""
    if url.startswith("sqlite"):
        return "SELECT id, " + ", ".join(
            f"quote({column.name})" for column in RollLog.__table__.columns if column.key != "id"
        )
    return "SELECT id, " + ", ".join(
        f"{column.name}::text" for column in RollLog.__table__.columns if column.key != "id"
    )


async def _raw_rows(db: Database) -> list[tuple[Any, ...]]:
    async with db.unit_of_work(read_only=True) as session:
        query = text(_stored_columns(db.url) + " FROM roll_log ORDER BY id")
        return [tuple(row) for row in await session.execute(query)]


async def test_the_stored_row_is_the_one_a_unit_of_work_stores(
    any_db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(roll_log, "utcnow", lambda: WHEN)
    async with any_db.unit_of_work() as session:
        roll_log.add(session, ACTOR, **ROLL)
    await roll_log.append_public(any_db, ACTOR, **ROLL)
    first, second = await _raw_rows(any_db)
    assert first[1:] == second[1:]  # byte for byte, as the database holds them
    assert second[0] == first[0] + 1
    async with any_db.unit_of_work(read_only=True) as session:
        entries = list((await session.execute(select(RollLog).order_by(RollLog.id))).scalars())
    assert entries[1].faces == ROLL["faces"] and entries[1].secret is False
    assert entries[1].created_at == WHEN


async def test_a_commit_is_recorded_and_a_refusal_is_not(any_db: Database) -> None:
    writes = track_writes()
    await roll_log.append_public(any_db, ACTOR, **ROLL)
    assert (writes.committed, writes.in_doubt) == (1, False)
    columns = tuple(c.key for c in RollLog.__table__.columns if c.key != "id")
    prepared = PreparedInsert(insert(RollLog.__table__), columns)
    refused = dict.fromkeys(columns) | {"secret": False}  # NOT NULL columns left empty
    with pytest.raises(Exception) as caught:
        await insert_one(any_db, prepared, refused)
    assert isinstance(caught.value, sqlite3.IntegrityError) or "null" in str(caught.value)
    assert (writes.committed, writes.in_doubt) == (1, False)  # "nothing was saved" is true
    pool = any_db.engine.sync_engine.pool
    assert pool.checkedout() == any_db.held.idle == 1  # refused: kept for the next statement
    await roll_log.append_public(any_db, ACTOR, **ROLL)  # the connection is still good
    assert len(await _raw_rows(any_db)) == 2


def _lock_sqlite(path: str) -> sqlite3.Connection:
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    return holder


async def test_sqlite_gives_up_waiting_for_another_process_with_storage_busy(
    database_url: str,
) -> None:
    db = Database(database_url, lock_timeout=0.2)
    holder = _lock_sqlite(database_url.split("///", 1)[1])
    try:
        writes = track_writes()
        with pytest.raises(StorageBusy):  # no connection yet: opening one waits too
            await roll_log.append_public(db, ACTOR, **ROLL)
        holder.rollback()
        await roll_log.append_public(db, ACTOR, **ROLL)  # a connection now waits in the pool
        holder.execute("BEGIN IMMEDIATE")
        with pytest.raises(StorageBusy):  # the statement waits
            await roll_log.append_public(db, ACTOR, **ROLL)
        assert (writes.committed, writes.in_doubt) == (1, False)
        holder.rollback()
        await roll_log.append_public(db, ACTOR, **ROLL)
        assert len(await _raw_rows(db)) == 2
        assert db.engine.sync_engine.pool.checkedout() == db.held.idle  # none lent out
    finally:
        holder.close()
        await db.dispose()


async def test_a_cancelled_write_is_in_doubt_and_its_connection_is_not_reused(
    database_url: str,
) -> None:
    db = Database(database_url, lock_timeout=5.0)
    await roll_log.append_public(db, ACTOR, **ROLL)  # a connection is held for the next one
    pool = db.engine.sync_engine.pool
    assert pool.checkedout() == db.held.idle == 1
    holder = _lock_sqlite(database_url.split("///", 1)[1])
    try:
        writes = track_writes()
        task = asyncio.create_task(roll_log.append_public(db, ACTOR, **ROLL))
        # The INSERT has its connection and is on its way to the driver's thread (where it
        # waits in SQLite's busy timeout); cancelled from here on, its outcome is unknown.
        for _ in range(6000):
            if db.held.in_use:
                break
            await asyncio.sleep(0.01)
        assert db.held.in_use == 1 and db.held.idle == 0
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert writes.in_doubt and writes.committed == 0  # it may still land: don't say no
        holder.rollback()
        assert pool.checkedout() == db.held.idle == db.held.in_use == 0  # invalidated, not kept
        await roll_log.append_public(db, ACTOR, **ROLL)  # on a fresh connection
        rows = await _raw_rows(db)
        assert 2 <= len(rows) <= 3  # the cancelled one landed once its wait ended, or not
    finally:
        holder.close()
        await db.dispose()


@pytest.mark.parametrize("any_database_url", ["postgresql"], indirect=True)
@pytest.mark.postgres
@pytest.mark.skipif(not POSTGRES_URL, reason="TEST_DATABASE_URL is not set")
async def test_postgres_lock_timeout_is_storage_busy(any_database_url: str) -> None:
    db = Database(any_database_url, lock_timeout=0.2)
    holder = create_async_engine(any_database_url)
    try:
        async with holder.connect() as connection:
            await connection.execute(text("LOCK TABLE roll_log IN ACCESS EXCLUSIVE MODE"))
            writes = track_writes()
            with pytest.raises(StorageBusy):
                await roll_log.append_public(db, ACTOR, **ROLL)
            assert (writes.committed, writes.in_doubt) == (0, False)
            await connection.rollback()
        await roll_log.append_public(db, ACTOR, **ROLL)
        assert len(await _raw_rows(db)) == 1
    finally:
        await holder.dispose()
        await db.dispose()


@pytest.mark.parametrize("any_database_url", ["postgresql"], indirect=True)
@pytest.mark.postgres
@pytest.mark.skipif(not POSTGRES_URL, reason="TEST_DATABASE_URL is not set")
async def test_postgres_restart_replaces_the_pooled_connection(any_database_url: str) -> None:
    db = Database(any_database_url)
    try:
        await roll_log.append_public(db, ACTOR, **ROLL)  # a connection now waits in the pool
        killer = create_async_engine(any_database_url, isolation_level="AUTOCOMMIT")
        try:
            async with killer.connect() as connection:
                killed = await connection.scalar(
                    text(
                        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                        " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                    )
                )
        finally:
            await killer.dispose()
        assert killed >= 1
        await asyncio.sleep(0.2)  # the termination reaches the client
        writes = track_writes()
        await roll_log.append_public(db, ACTOR, **ROLL)
        assert (writes.committed, writes.in_doubt) == (1, False)
        assert len(await _raw_rows(db)) == 2
    finally:
        await db.dispose()


# --- a read that is one SELECT ---------------------------------------------------------------

SHEET: dict[str, Any] = {
    "system": "coda",
    "attributes": {"Reason": 3, "Ñandú ✨": -2},
    "skills": {"Stealth": {"ranks": 2, "attribute": "Reason", "specialties": ["in the dark"]}},
    "resources": {"Health": {"current": 7, "max": 10}, "Luck": {"current": 1, "max": None}},
    "notes": "Owes 3 galleons to <@123>; likes \"quotes\" and 'apostrophes'.",
}


async def test_owned_snapshot_reads_what_the_orm_reads(any_db: Database) -> None:
    async with any_db.unit_of_work() as session:
        for name in ("Zed", "Ada"):
            session.add(
                Character(guild_id=1, owner_id=7, name=name, name_key=name.casefold(), **SHEET)
            )
        session.add(
            Character(guild_id=2, owner_id=7, name="Elsewhere", name_key="elsewhere", **SHEET)
        )
    async with any_db.unit_of_work(read_only=True) as session:
        expected = await characters_repo.owned(session, 1, 7)
    rows = await characters_repo.owned_snapshot(any_db, 1, 7)
    assert [row.name for row in rows] == ["Ada", "Zed"]  # the same rows, in the same order
    for row, orm in zip(rows, expected, strict=True):
        for column in Character.__table__.columns:
            assert getattr(row, column.key) == getattr(orm, column.key), column.key
    assert rows[0].resources["Luck"]["max"] is None and rows[0].created_at.tzinfo is not None
    assert await characters_repo.owned_snapshot(any_db, 1, 8) == []
    assert any_db.engine.sync_engine.pool.checkedout() == any_db.held.idle  # none lent out
