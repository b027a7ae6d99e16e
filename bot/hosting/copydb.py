"""``narrator copy-db --to URL``: move every row to another database (SQLite → PostgreSQL).

The target gets the schema from the migrations first, so it ends at the same revision as
the source; then each table is copied in foreign-key order, in batches, inside one
transaction on the target (a failure leaves it empty, ready for another try). Row counts
are compared table by table before that transaction commits, and on PostgreSQL each id
sequence is moved past the copied ids, so the next row the bot inserts gets a fresh id.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from typing import TextIO

from sqlalchemy import Table, func, select, text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from bot.hosting.config import ConfigError, database_url_problem
from bot.hosting.errors import (
    DATABASE_ERRORS,
    SQLALCHEMY_ERRORS,
    DatabaseUnavailable,
    database_error_line,
    safe_url,
)
from bot.hosting.schema import schema_state
from bot.storage.migrate import upgrade_to_head
from bot.storage.models import Base

BATCH = 1000


class ProgressBar:
    """``table [#####-----] 1,200/3,000`` redrawn in place on one line per table."""

    def __init__(self, stream: TextIO, width: int = 30) -> None:
        self.stream = stream
        self.width = width

    def draw(self, name: str, done: int, total: int, *, final: bool = False) -> None:
        terminal = self.stream.isatty()
        if not final and not terminal:
            return  # a log file gets one line per table, not every redraw
        filled = self.width if total == 0 else self.width * done // total
        bar = "#" * filled + "-" * (self.width - filled)
        start = "\r" if terminal else ""
        self.stream.write(f"{start}{name:<28} [{bar}] {done:,}/{total:,}")
        if final:
            self.stream.write("\n")
        self.stream.flush()


async def _copy_table(
    source: AsyncConnection,
    target: AsyncConnection,
    table: Table,
    progress: Callable[[int, int], None],
) -> int:
    total = (await source.execute(select(func.count()).select_from(table))).scalar_one()
    done = 0
    progress(done, total)
    rows = await source.stream(select(table).order_by(*table.primary_key.columns))
    async for batch in rows.mappings().partitions(BATCH):
        await target.execute(table.insert(), [dict(row) for row in batch])
        done += len(batch)
        progress(done, total)
    copied = (await target.execute(select(func.count()).select_from(table))).scalar_one()
    if copied != total:
        raise ConfigError(f"{table.name}: {total} rows in the source but {copied} copied")
    return total


async def _fix_sequence(target: AsyncConnection, table: Table) -> None:
    column = table.autoincrement_column
    if column is None:
        return
    quoted = target.dialect.identifier_preparer.format_table(table)
    quoted_column = target.dialect.identifier_preparer.format_column(column)
    await target.execute(
        text(
            f"SELECT setval(pg_get_serial_sequence(:table, :column), "
            f"COALESCE((SELECT MAX({quoted_column}) FROM {quoted}), 0) + 1, false)"
        ),
        {"table": quoted, "column": column.name},
    )


async def copy_database(
    source_url: str, target_url: str, *, stream: TextIO | None = None
) -> dict[str, int]:
    """Copy every table; returns the row count of each. Refuses a non-empty target."""
    problem = database_url_problem(target_url)
    if problem is not None:
        raise ConfigError(f"--to {problem}")
    if safe_url(source_url) == safe_url(target_url):
        raise ConfigError("--to is the database DATABASE_URL names: copy to another one")
    bar = ProgressBar(stream or sys.stderr)
    source_engine = create_async_engine(source_url)
    target_engine = create_async_engine(target_url)
    try:
        try:
            state = await schema_state(source_engine)
        except DATABASE_ERRORS as error:
            raise DatabaseUnavailable(database_error_line(error, source_url)) from error
        if not state.at_head:
            raise ConfigError(f"DATABASE_URL: the source database is {state.describe()}")
        try:
            await asyncio.to_thread(upgrade_to_head, target_url)
        except DATABASE_ERRORS as error:
            raise DatabaseUnavailable(
                database_error_line(error, target_url, setting="--to")
            ) from error
        return await _copy_all(source_engine, target_engine, bar)
    finally:
        await source_engine.dispose()
        await target_engine.dispose()


async def _copy_all(
    source_engine: AsyncEngine, target_engine: AsyncEngine, bar: ProgressBar
) -> dict[str, int]:
    counts: dict[str, int] = {}
    try:
        async with source_engine.connect() as source, target_engine.begin() as target:
            await source.begin()  # one read transaction: a consistent snapshot
            for table in Base.metadata.sorted_tables:
                rows = (await target.execute(select(func.count()).select_from(table))).scalar()
                if rows:
                    raise ConfigError(
                        f"--to: table {table.name} already holds {rows} rows: copy into an "
                        "empty database"
                    )
            for table in Base.metadata.sorted_tables:

                def progress(done: int, total: int, name: str = table.name) -> None:
                    bar.draw(name, done, total, final=done == total)

                counts[table.name] = await _copy_table(source, target, table, progress)
                if target.dialect.name == "postgresql":
                    await _fix_sequence(target, table)
    except SQLALCHEMY_ERRORS as error:
        raise DatabaseUnavailable(
            "copy-db stopped, nothing was committed to --to: "
            + database_error_line(error, str(target_engine.url), setting="--to")
        ) from error
    return counts


def run_copy(source_url: str, target_url: str) -> int:
    counts = asyncio.run(copy_database(source_url, target_url))
    print(
        f"copied {sum(counts.values()):,} rows in {len(counts)} tables to "
        f"{safe_url(target_url)}; every table's row count matches"
    )
    return 0
