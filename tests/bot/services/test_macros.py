"""Macro services: the limits hold under simultaneous saves, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio

from bot.actor import Actor
from bot.errors import UserError
from bot.services import macros
from bot.storage import Database

ALICE = Actor(user_id=100, channel_id=10, guild_id=1)
GM = Actor(user_id=900, channel_id=10, guild_id=1, gm_role=True)
LINE = "roll expression:d6"


async def test_simultaneous_saves_never_exceed_100(any_database_url: str) -> None:
    db = Database(any_database_url)
    try:
        for index in range(95):
            await macros.save(db, ALICE, scope="me", name=f"m{index}", command=LINE)
        results = await asyncio.gather(
            *(macros.save(db, ALICE, scope="me", name=f"n{i}", command=LINE) for i in range(12)),
            return_exceptions=True,
        )
        visible = await macros.visible(db, ALICE)
    finally:
        await db.dispose()
    assert len(visible) == 100
    refused = [r for r in results if isinstance(r, BaseException)]
    assert all(isinstance(r, UserError) for r in refused), refused
    assert len(results) - len(refused) == 5


async def test_simultaneous_saves_of_one_name_keep_one(any_database_url: str) -> None:
    db = Database(any_database_url)
    try:
        results = await asyncio.gather(
            *(
                macros.save(
                    db, GM, scope="channel", name=f"Perception{' ' * (i % 2)}", command=LINE
                )
                for i in range(8)
            ),
            return_exceptions=True,
        )
        visible = await macros.visible(db, ALICE)
    finally:
        await db.dispose()
    assert [m.name.raw for m in visible] == ["Perception"]
    assert sum(not isinstance(r, BaseException) for r in results) == 1
    assert all(isinstance(r, UserError) for r in results if isinstance(r, BaseException))


def test_sheet_files_macros_are_checked() -> None:
    assert macros.parse_exported(None) == []
    assert macros.parse_exported(
        [{"name": " a  b ", "command": LINE}, {"name": "A B", "command": "roll expression:d8"}]
    ) == [{"name": "a b", "command": LINE}]
