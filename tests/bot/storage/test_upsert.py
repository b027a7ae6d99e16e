"""``INSERT … ON CONFLICT`` built once per table and kind, its values as parameters
(``bot.storage.repositories._atomic``): the same rows as before, on SQLite and PostgreSQL."""

from __future__ import annotations

import gc

from sqlalchemy import select

from bot.storage import Database
from bot.storage.models import LanguageChoice
from bot.storage.repositories import languages


async def choices(db: Database) -> list[tuple[str, int, str, int]]:
    async with db.unit_of_work(read_only=True) as session:
        rows = await session.execute(
            select(
                LanguageChoice.scope,
                LanguageChoice.target_id,
                LanguageChoice.language,
                LanguageChoice.set_by,
            ).order_by(LanguageChoice.target_id)
        )
        return [tuple(row) for row in rows]  # type: ignore[misc]


async def test_an_upsert_inserts_then_updates_only_the_named_columns(any_db: Database) -> None:
    await any_db.upgrade_async()
    async with any_db.unit_of_work() as session:
        await languages.choose(session, "user", 7, "es", set_by=1)
        await languages.choose(session, "user", 8, "en", set_by=1)
    async with any_db.unit_of_work() as session:
        await languages.choose(session, "user", 7, "en", set_by=2)
    assert await choices(any_db) == [("user", 7, "en", 2), ("user", 8, "en", 1)]


async def test_an_upsert_leaves_nothing_in_reference_cycles(any_db: Database) -> None:
    """Building the statement (and its ``excluded`` alias, a copy of every column) for each
    call left ~40 objects a call for the cyclic collector; now none is left."""
    await any_db.upgrade_async()
    async with any_db.unit_of_work() as session:
        await languages.choose(session, "user", 7, "es", set_by=1)  # built and compiled once
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        async with any_db.unit_of_work() as session:
            for target in range(20):
                await languages.choose(session, "user", target, "es", set_by=1)
        gc.collect()
        aliases = [thing for thing in gc.garbage if type(thing).__name__ == "Alias"]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert aliases == []
