"""0160: the per-channel penalty pools of a database with data merge into one per character."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.storage.migrate import alembic_config, upgrade_to_head
from tests.conftest import POSTGRES_URL, _postgres_admin, sqlite_url

BEFORE = "0030_rps_drama"
NOW = datetime(2026, 11, 20, 10, tzinfo=UTC)
LATER = datetime(2026, 11, 22, 10, tzinfo=UTC)


async def _run(url: str, statements: list[tuple[str, dict[str, object]]]) -> None:
    engine = create_async_engine(url)
    try:
        async with engine.begin() as connection:
            for statement, values in statements:
                await connection.execute(text(statement), values)
    finally:
        await engine.dispose()


async def _rows(url: str, query: str) -> list[tuple[object, ...]]:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as connection:
            return [tuple(row) for row in await connection.execute(text(query))]
    finally:
        await engine.dispose()


def _character(id_: int, name: str) -> tuple[str, dict[str, object]]:
    return (
        "INSERT INTO characters (id, guild_id, owner_id, name, name_key, system, attributes,"
        " skills, resources, notes, created_at, updated_at) VALUES (:id, 1, :owner, :name,"
        " :key, 'drama', '{}', '{}', '{}', '', :at, :at)",
        {"id": id_, "owner": 100 + id_, "name": name, "key": name.lower(), "at": NOW},
    )


def _pool(id_: int, channel: int, character: int, dice: int, at: datetime) -> tuple[str, dict]:
    return (
        "INSERT INTO penalty_pools (id, guild_id, channel_id, character_id, dice, updated_at)"
        " VALUES (:id, 1, :channel, :character, :dice, :at)",
        {"id": id_, "channel": channel, "character": character, "dice": dice, "at": at},
    )


def _log(id_: int, pool: int, before: int, after: int) -> tuple[str, dict]:
    return (
        "INSERT INTO penalty_log (id, pool_id, user_id, kind, before, after, reason, created_at)"
        " VALUES (:id, :pool, 7, 'add', :before, :after, '', :at)",
        {"id": id_, "pool": pool, "before": before, "after": after, "at": NOW},
    )


DATA = [
    _character(1, "William"),
    _character(2, "Peter"),
    _character(3, "Hugo"),
    # William played in three channels, Peter in one, Hugo (near the cap) in two.
    _pool(10, 500, 1, 2, NOW),
    _pool(11, 501, 1, 3, LATER),
    _pool(12, 502, 1, 1, NOW),
    _pool(13, 500, 2, 4, NOW),
    _pool(14, 500, 3, 600, NOW),
    _pool(15, 501, 3, 500, NOW),
    _log(1, 10, 0, 2),
    _log(2, 11, 0, 3),
    _log(3, 12, 0, 1),
    _log(4, 13, 0, 4),
    _log(5, 14, 0, 600),
    _log(6, 15, 0, 500),
]


def _migrate_with_data(url: str) -> None:
    command.upgrade(alembic_config(url), f"{BEFORE}")
    asyncio.run(_run(url, DATA))
    upgrade_to_head(url)


def _check(url: str) -> None:
    pools = asyncio.run(_rows(url, "SELECT id, character_id, dice FROM penalty_pools ORDER BY id"))
    # Each character keeps its oldest pool; the dice add up, capped at 999.
    assert pools == [(10, 1, 6), (13, 2, 4), (14, 3, 999)]
    logs = asyncio.run(_rows(url, "SELECT id, pool_id FROM penalty_log ORDER BY id"))
    assert logs == [(1, 10), (2, 10), (3, 10), (4, 13), (5, 14), (6, 14)]
    columns = asyncio.run(_rows(url, "SELECT * FROM penalty_pools WHERE id = 10"))
    assert len(columns[0]) == 5  # id, guild_id, character_id, dice, updated_at: no channel


def test_the_pools_of_a_character_merge_on_sqlite(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path / "old.db")
    _migrate_with_data(url)
    _check(url)


@pytest.mark.postgres
def test_the_pools_of_a_character_merge_on_postgresql() -> None:
    if not POSTGRES_URL:
        pytest.skip("TEST_DATABASE_URL is not set")
    name = f"narrator_{uuid.uuid4().hex[:12]}"
    asyncio.run(_postgres_admin(POSTGRES_URL, f'CREATE DATABASE "{name}"'))
    try:
        url = POSTGRES_URL.rsplit("/", 1)[0] + f"/{name}"
        _migrate_with_data(url)
        _check(url)
    finally:
        asyncio.run(_postgres_admin(POSTGRES_URL, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def test_a_second_pool_for_a_character_is_refused_after_the_merge(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path / "new.db")
    _migrate_with_data(url)
    with pytest.raises(Exception, match="UNIQUE"):
        asyncio.run(
            _run(
                url,
                [
                    (
                        "INSERT INTO penalty_pools (guild_id, character_id, dice, updated_at)"
                        " VALUES (1, 1, 0, :at)",
                        {"at": NOW},
                    )
                ],
            )
        )


def test_downgrade_keeps_the_merged_dice(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path / "down.db")
    _migrate_with_data(url)
    command.downgrade(alembic_config(url), BEFORE)
    pools = asyncio.run(_rows(url, "SELECT id, channel_id, dice FROM penalty_pools ORDER BY id"))
    assert pools == [(10, 0, 6), (13, 0, 4), (14, 0, 999)]
