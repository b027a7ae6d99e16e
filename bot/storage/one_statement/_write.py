"""One SELECT, one INSERT or one ``UPDATE … RETURNING``, each a transaction of its own."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from bot.errors import StorageBusy
from bot.internals import run_on_sqlite_thread
from bot.storage.db import Database, current_writes, driver_gave_up
from bot.storage.one_statement._group import group_of
from bot.storage.one_statement._prepared import PreparedInsert, PreparedSelect, row_of
from bot.storage.one_statement._sqlite import (
    refused,
    run_on_sqlite,
    select_on_sqlite,
    writer_connection,
)


async def select_rows(
    db: Database, prepared: PreparedSelect, parameters: Mapping[str, Any]
) -> list[Any]:
    """Run one SELECT outside a transaction; its rows as named tuples."""
    compiled, results, row_type = prepared.compiled(db.engine.dialect)
    values = compiled.parameters(parameters)
    pooled = await db.held.take()
    try:
        driver: Any = pooled.driver_connection  # aiosqlite's or asyncpg's connection
        if db.is_sqlite:
            raw = await run_on_sqlite_thread(driver, select_on_sqlite, compiled.sql, values)
        else:
            raw = await driver.fetch(compiled.sql, *values)
    except BaseException as error:
        if refused(error):
            await db.held.give(pooled)
        else:  # a statement may still be running on it: not reused
            await asyncio.shield(db.held.invalidate(pooled))
        raise
    await db.held.give(pooled)
    return [row_of(row_type, results, row) for row in raw]


async def insert_one(db: Database, prepared: PreparedInsert, values: Mapping[str, Any]) -> None:
    """Insert one row as a transaction of its own; return once it is committed.

    Raises :class:`StorageBusy` when a lock wait gave up (nothing saved); a statement the
    database refused raises the driver's error (nothing saved either).
    """
    compiled = prepared.compiled(db.engine.dialect)
    await write_one(db, compiled.sql, compiled.parameters(values), fetch=False)


async def update_returning(
    db: Database, prepared: PreparedSelect, values: Mapping[str, Any]
) -> Any | None:
    """Run one ``UPDATE … RETURNING`` (``prepared``) as a transaction of its own: the row it
    changed (a named tuple), committed when this returns, or None when it matched none.

    Its ``WHERE`` is the compare-and-set: a row some other writer moved on is not matched,
    not overwritten. Raises as :func:`insert_one`.
    """
    compiled, results, row_type = prepared.compiled(db.engine.dialect)
    raw = await write_one(db, compiled.sql, compiled.parameters(values), fetch=True)
    return None if raw is None else row_of(row_type, results, tuple(raw))


async def write_one(db: Database, sql: str, parameters: tuple[Any, ...], *, fetch: bool) -> Any:
    """One writing statement, committed when this returns; its first row with ``fetch``.

    On SQLite, when other writes wait for the writer turn, it waits with them and they are
    committed together (:class:`GroupCommit`); alone, it is autocommitted at once.
    """
    if db.is_sqlite:
        group = group_of(db)
        if not group.alone():
            return await group.write(sql, parameters, fetch=fetch)
    return await write_now(db, sql, parameters, fetch=fetch)


async def write_now(db: Database, sql: str, parameters: tuple[Any, ...], *, fetch: bool) -> Any:
    """One writing statement, autocommitted in its own writer turn. The write record counts
    a commit only when it changed something (an INSERT always does)."""
    writes = current_writes.get()
    writer = await db.take_writer_turn()
    try:
        pooled = await writer_connection(db)
        try:
            driver: Any = pooled.driver_connection  # aiosqlite's or asyncpg's connection
            if db.is_sqlite:
                found = await run_on_sqlite_thread(driver, run_on_sqlite, sql, parameters)
            elif fetch:
                found = await driver.fetchrow(sql, *parameters)
            else:
                found = await driver.execute(sql, *parameters)
        except BaseException as error:
            was_refused = refused(error)
            if not was_refused:
                if writes is not None:
                    writes.in_doubt = True
                # Its state is unknown (a statement may still be running on it): not reused.
                await asyncio.shield(db.held.invalidate(pooled))
            else:
                await db.held.give(pooled)
            if was_refused and driver_gave_up(error):
                raise StorageBusy from error
            raise
        # No transaction is open on it (autocommit): kept for the next one, no round trip.
        await db.held.give(pooled)
    finally:
        if writer is not None:
            writer.release()
    if not fetch:
        found = True
    if writes is not None and found is not None:
        writes.committed += 1
    return found if fetch else None
