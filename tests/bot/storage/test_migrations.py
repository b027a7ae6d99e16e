"""Migrations: empty to head works, and the models match the migrated schema exactly."""

from __future__ import annotations

from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, create_engine, inspect
from sqlalchemy.ext.asyncio import create_async_engine

from bot.storage.migrate import alembic_config, upgrade_to_head
from bot.storage.models import Base


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
