"""``narrator copy-db``: every table copied in batches, counts verified, ids continue."""

from __future__ import annotations

import asyncio
import io
import sqlite3
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.hosting.config import ConfigError
from bot.hosting.copydb import BATCH, copy_database
from bot.storage.models import Base
from tests.conftest import POSTGRES_URL, _postgres_admin

NARRATOR = Path(sys.executable).with_name("narrator")
CONSOLE_SESSION = [
    "/roll expression:2d6",
    "/sheet create name:Hermione system:coda",
    "/sheet set attribute:Wits value:3",
    "/init start",
    "/init add name:Troll modifier:2",
    "/settings system name:coda",
]


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database the console filled, with roll_log grown past one batch."""
    path = tmp_path_factory.mktemp("copydb") / "source.db"
    result = subprocess.run(
        [str(NARRATOR), "console", "--db", f"sqlite+aiosqlite:///{path}"],
        input="\n".join(CONSOLE_SESSION) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        cwd=path.parent,
    )
    assert result.returncode == 0, result.stderr
    connection = sqlite3.connect(path)
    try:
        columns = [row[1] for row in connection.execute("PRAGMA table_info(roll_log)")]
        listed = ", ".join(column for column in columns if column != "id")
        with connection:
            while connection.execute("SELECT count(*) FROM roll_log").fetchone()[0] <= BATCH * 2:
                connection.execute(f"INSERT INTO roll_log ({listed}) SELECT {listed} FROM roll_log")
    finally:
        connection.close()
    return path


def counts(url: str) -> dict[str, int]:
    async def count() -> dict[str, int]:
        engine = create_async_engine(url)
        try:
            async with engine.connect() as connection:
                return {
                    table.name: (
                        await connection.execute(select(func.count()).select_from(table))
                    ).scalar_one()
                    for table in Base.metadata.sorted_tables
                }
        finally:
            await engine.dispose()

    return asyncio.run(count())


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def target_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database: a new SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'target.db'}"
        return
    if not POSTGRES_URL:
        pytest.skip("TEST_DATABASE_URL is not set")
    name = f"narrator_copy_{uuid.uuid4().hex[:10]}"
    asyncio.run(_postgres_admin(POSTGRES_URL, f'CREATE DATABASE "{name}"'))
    try:
        yield POSTGRES_URL.rsplit("/", 1)[0] + f"/{name}"
    finally:
        asyncio.run(_postgres_admin(POSTGRES_URL, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def test_copy_every_table_then_ids_continue(source: Path, target_url: str) -> None:
    source_url = f"sqlite+aiosqlite:///{source}"
    progress = io.StringIO()
    copied = asyncio.run(copy_database(source_url, target_url, stream=progress))
    expected = counts(source_url)
    assert copied == expected == counts(target_url)
    assert copied["roll_log"] > 2 * BATCH and copied["characters"] == 1
    assert copied["initiative_encounters"] == 1
    # One final progress line per table (the stream is not a terminal).
    lines = progress.getvalue().strip().splitlines()
    assert len(lines) == len(Base.metadata.sorted_tables)
    assert any(line.startswith("roll_log") and f"{copied['roll_log']:,}/" in line for line in lines)

    async def next_id() -> tuple[int, int]:
        engine = create_async_engine(target_url)
        try:
            async with engine.begin() as connection:
                highest = (await connection.execute(text("SELECT max(id) FROM roll_log"))).scalar()
                new = (
                    await connection.execute(
                        text(
                            "INSERT INTO roll_log (guild_id, channel_id, user_id, system, input, "
                            "label, faces, outcome, secret, created_at) SELECT guild_id, "
                            "channel_id, user_id, system, input, label, faces, outcome, secret, "
                            "created_at FROM roll_log WHERE id = :id RETURNING id"
                        ),
                        {"id": highest},
                    )
                ).scalar_one()
                return highest, new
        finally:
            await engine.dispose()

    highest, new = asyncio.run(next_id())
    assert new > highest  # PostgreSQL's sequence was moved past the copied ids


def test_refuses_a_target_with_rows(source: Path, target_url: str) -> None:
    source_url = f"sqlite+aiosqlite:///{source}"
    asyncio.run(copy_database(source_url, target_url, stream=io.StringIO()))
    with pytest.raises(ConfigError, match="already holds"):
        asyncio.run(copy_database(source_url, target_url, stream=io.StringIO()))


def test_refuses_itself_and_a_bad_url(source: Path) -> None:
    url = f"sqlite+aiosqlite:///{source}"
    with pytest.raises(ConfigError, match="another one"):
        asyncio.run(copy_database(url, url))
    with pytest.raises(ConfigError, match="use postgresql\\+asyncpg://"):
        asyncio.run(copy_database(url, "postgres://u@h/db"))
