"""A PostgreSQL restart kills every pooled connection: the next commands must not fail.

``Database`` checks a connection with one ``SELECT 1`` when it leaves the pool (instead of
``pool_pre_ping``'s three round trips on asyncpg) and replaces a dead one. The server side
of a restart is played by ``pg_terminate_backend`` on every connection of the database.
"""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import text

from bot.storage import Database
from tests.conftest import POSTGRES_URL, empty_postgres

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(not POSTGRES_URL, reason="TEST_DATABASE_URL is not set"),
]

_KILL_THE_OTHERS = text(
    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
)


async def _fill_the_pool(db: Database, connections: int) -> None:
    async def hold() -> None:
        async with db.unit_of_work() as session:
            await session.execute(text("SELECT 1"))
            await asyncio.sleep(0.05)  # the others check out connections of their own

    await asyncio.gather(*(hold() for _ in range(connections)))


async def _restart(url: str) -> int:
    """Kill every other connection to the database, as a restart would."""
    killer = Database(url)
    try:
        async with killer.unit_of_work(read_only=True) as session:
            killed = int(await session.scalar(_KILL_THE_OTHERS) or 0)
    finally:
        await killer.dispose()
    await asyncio.sleep(0.2)  # the terminations reach the clients
    return killed


async def _commands(db: Database, count: int) -> list[int]:
    results = []
    for _ in range(count):
        async with db.unit_of_work() as session:
            results.append(await session.scalar(text("SELECT 1")))
    return results


async def test_commands_after_a_restart_get_live_connections() -> None:
    async with empty_postgres() as url:
        db = Database(url)
        try:
            await _fill_the_pool(db, 3)
            assert await _restart(url) >= 3
            assert await _commands(db, 6) == [1] * 6
        finally:
            await db.dispose()


async def test_without_the_check_a_restart_fails_a_command() -> None:
    """The control: the restart above really leaves dead connections in the pool."""
    async with empty_postgres() as url:
        db = Database(url, pool_pre_ping=False)
        try:
            await _fill_the_pool(db, 3)
            assert await _restart(url) >= 3
            with pytest.raises(Exception, match=r"(?i)connection"):
                await _commands(db, 1)
        finally:
            await db.dispose()
