"""Migrations: empty to head works, and the models match the migrated schema exactly."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, create_engine, inspect
from sqlalchemy.ext.asyncio import create_async_engine

from bot.storage.migrate import alembic_config, upgrade_to_head
from bot.storage.models import Base
from tests.conftest import POSTGRES_URL, _postgres_admin


def _sync_url(async_url: str) -> str:
    return async_url.replace("+aiosqlite", "")


def test_upgrade_from_empty_to_head_creates_every_table(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'fresh.db'}"
    upgrade_to_head(url)
    upgrade_to_head(url)  # idempotent: a second start changes nothing
    engine = create_engine(_sync_url(url))
    try:
        tables = set(inspect(engine).get_table_names())
    finally:
        engine.dispose()
    assert set(Base.metadata.tables) <= tables
    assert "alembic_version" in tables


async def test_models_match_the_migrated_schema(any_database_url: str) -> None:
    # any_database_url is already migrated to head (SQLite, and PostgreSQL when configured).
    def compare(connection: Connection) -> list[object]:
        context = MigrationContext.configure(
            connection, opts={"compare_type": True, "render_as_batch": True}
        )
        return compare_metadata(context, Base.metadata)

    engine = create_async_engine(any_database_url)
    try:
        async with engine.connect() as connection:
            differences = await connection.run_sync(compare)
    finally:
        await engine.dispose()
    assert differences == []


def test_every_migration_descends_from_the_foundation() -> None:
    script = ScriptDirectory.from_config(alembic_config("sqlite://"))
    bases = script.get_bases()
    assert bases == ["0001"]
    for head in script.get_heads():
        assert "0001" in {rev.revision for rev in script.iterate_revisions(head, "base")}


def _migrate_at_once(url: str, processes: int = 2) -> list[subprocess.CompletedProcess[str]]:
    """``narrator migrate`` in several processes started together on one database."""
    env = {**os.environ, "DATABASE_URL": url}
    running = [
        subprocess.Popen(
            [sys.executable, "-m", "bot", "migrate"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(processes)
    ]
    finished = []
    for process in running:
        out, err = process.communicate(timeout=120)
        finished.append(subprocess.CompletedProcess(process.args, process.returncode, out, err))
    return finished


def test_processes_migrating_a_fresh_database_at_once_all_succeed(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'fresh.db'}"
    for result in _migrate_at_once(url, processes=3):
        assert result.returncode == 0, result.stderr
        assert "newest schema" in result.stdout


@pytest.mark.postgres
def test_processes_migrating_a_fresh_postgres_database_at_once_all_succeed() -> None:
    if not POSTGRES_URL:
        pytest.skip("TEST_DATABASE_URL is not set")
    name = f"narrator_{uuid.uuid4().hex[:12]}"
    asyncio.run(_postgres_admin(POSTGRES_URL, f'CREATE DATABASE "{name}"'))
    try:
        url = POSTGRES_URL.rsplit("/", 1)[0] + f"/{name}"
        for result in _migrate_at_once(url, processes=3):
            assert result.returncode == 0, result.stderr
    finally:
        asyncio.run(_postgres_admin(POSTGRES_URL, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
