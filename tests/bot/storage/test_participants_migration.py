"""0250: shared tasks gain participants; an RPS action in progress keeps whoever rolled it."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from pathlib import Path

from alembic import command
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.storage.migrate import alembic_config, upgrade_to_head
from tests.conftest import sqlite_url

NOW = datetime(2026, 11, 25, 10, tzinfo=UTC)


def test_an_action_in_progress_keeps_its_rollers(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path / "before.db")
    config = alembic_config(url)
    command.upgrade(config, "0030_rps_drama")
    command.upgrade(config, "0010_coda")
    asyncio.run(_insert(url))
    upgrade_to_head(url)
    sustained, extended = asyncio.run(_participants(url))
    assert json.loads(sustained) == [7, 8]
    assert json.loads(extended) == []


async def _insert(url: str) -> None:
    log = [{"user_id": 7, "sl": 1}, {"user_id": 8, "sl": 2}, {"user_id": 7}, {"user_id": 5}]
    engine = create_async_engine(url)
    try:
        async with engine.begin() as connection:
            await connection.execute(
                text(
                    "INSERT INTO rps_sustained_tasks (channel_id, started_by, goal, pool, no_loss,"
                    " checks, status, log, created_at, updated_at) VALUES (1, 5, 10, 3, 0, 4,"
                    " 'in progress', :log, :at, :at)"
                ),
                {"log": json.dumps(log), "at": NOW},
            )
            await connection.execute(
                text(
                    "INSERT INTO coda_extended_tasks (channel_id, started_by, name, name_key,"
                    " stages, interval, unit, total, stage, tests, log, created_at, updated_at)"
                    " VALUES (1, 5, 'Brew', 'brew', '[]', 1, '', 0, 0, 0, '[]', :at, :at)"
                ),
                {"at": NOW},
            )
    finally:
        await engine.dispose()


async def _participants(url: str) -> tuple[str, str]:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as connection:
            (sustained,) = (
                await connection.execute(text("SELECT participants FROM rps_sustained_tasks"))
            ).all()
            (extended,) = (
                await connection.execute(text("SELECT participants FROM coda_extended_tasks"))
            ).all()
    finally:
        await engine.dispose()
    return sustained[0], extended[0]
