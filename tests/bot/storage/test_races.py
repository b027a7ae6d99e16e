"""First-time creation and limits under real concurrency: two engines on one database.

Each race runs 30 times, each time on fresh rows (a new channel, player or house), as two
transactions in flight at once on two engines (two connection pools, as two processes
would have), on SQLite and PostgreSQL. The outcome must be what one-after-the-other would
give: never a generic error, limits exact, sums exact.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from typing import Any

import pytest
from sqlalchemy import func, select

from bot.actor import Actor
from bot.errors import UserError
from bot.services import channel_settings, coda, penalty, rps, sheets
from bot.storage import Database
from bot.storage.models import Character, CodaExtendedTask, HousePoints
from bot.storage.repositories import quidditch as matches

PAIRS = 30
GUILD = 7
ONES = ("fumble", "failure")
NAMES = ("Ann", "Bea")


@pytest.fixture
async def engines(any_database_url: str) -> AsyncIterator[tuple[Database, Database]]:
    first, second = Database(any_database_url), Database(any_database_url)
    try:
        yield first, second
    finally:
        await first.dispose()
        await second.dispose()


def gm(channel_id: int, user_id: int = 1) -> Actor:
    return Actor(user_id=user_id, channel_id=channel_id, guild_id=GUILD, gm_role=True)


async def race(
    engines: tuple[Database, Database], make: Callable[[Database, int], Awaitable[Any]]
) -> list[Any]:
    """Both engines at once, each ``make(db, side)``; the results, a UserError kept as one."""
    results = await asyncio.gather(
        *(make(db, side) for side, db in enumerate(engines)), return_exceptions=True
    )
    bugs = [r for r in results if isinstance(r, BaseException) and not isinstance(r, UserError)]
    if bugs:
        raise bugs[0]
    return results


async def fill(db: Database, rows: Iterable[Any]) -> None:
    """Rows up to one below a limit, in one transaction (the race is for the last place)."""
    async with db.unit_of_work() as session:
        session.add_all(list(rows))


def refusals(results: list[Any]) -> list[UserError]:
    return [r for r in results if isinstance(r, UserError)]


async def test_first_settings_change_of_a_channel(engines: tuple[Database, Database]) -> None:
    for pair in range(PAIRS):
        channel = 1000 + pair
        await race(
            engines,
            lambda db, side, c=channel: channel_settings.set_rule(
                db, gm(c), "coda.ones", ONES[side]
            ),
        )
        view = await channel_settings.show(engines[0], channel)
        assert view.rule("coda.ones") in ONES


async def test_first_penalty_dice_of_a_character(engines: tuple[Database, Database]) -> None:
    for pair in range(PAIRS):
        channel = 2000 + pair
        owner = Actor(user_id=500 + pair, channel_id=channel, guild_id=GUILD)
        await sheets.create(engines[0], owner, "William", "drama")
        await race(
            engines,
            lambda db, side, a=owner: penalty.add(db, a, character="William", amount=side + 1),
        )
        view = await penalty.show(engines[1], owner, character="William")
        assert view.dice == 3  # 1 + 2: neither change lost
        assert len(view.log) == 2


async def test_first_sustained_action_of_a_channel(engines: tuple[Database, Database]) -> None:
    for pair in range(PAIRS):
        channel = 3000 + pair
        results = await race(
            engines, lambda db, side, c=channel: rps.sustained_start(db, gm(c, side + 1), goal=20)
        )
        assert len(refusals(results)) == 1
        assert "already in progress" in str(refusals(results)[0])


async def test_same_named_extended_test(engines: tuple[Database, Database]) -> None:
    for pair in range(PAIRS):
        channel = 4000 + pair
        results = await race(
            engines,
            lambda db, side, c=channel: coda.start_extended(
                db, gm(c, side + 1), name="Climb", stages="5,10"
            ),
        )
        assert len(refusals(results)) == 1
        assert "already in progress" in str(refusals(results)[0])


async def test_extended_tests_per_channel_limit_is_exact(
    engines: tuple[Database, Database],
) -> None:
    for pair in range(PAIRS):
        channel = 5000 + pair
        await fill(
            engines[0],
            [
                CodaExtendedTask(
                    channel_id=channel, started_by=1, name=f"Task {n}", name_key=f"task {n}"
                )
                for n in range(coda.MAX_TASKS_PER_CHANNEL - 1)
            ],
        )
        results = await race(
            engines,
            lambda db, side, c=channel: coda.start_extended(
                db, gm(c), name=f"Last {side}", stages="5"
            ),
        )
        assert len(refusals(results)) == 1
        assert "finish or abandon one first" in str(refusals(results)[0])
        async with engines[0].unit_of_work(read_only=True) as session:
            count = await session.scalar(
                select(func.count()).where(CodaExtendedTask.channel_id == channel)
            )
        assert count == coda.MAX_TASKS_PER_CHANNEL


async def test_characters_per_player_limit_is_exact(engines: tuple[Database, Database]) -> None:
    for pair in range(PAIRS):
        player = Actor(user_id=9000 + pair, channel_id=6000 + pair, guild_id=GUILD)
        await fill(
            engines[0],
            [
                Character(
                    guild_id=GUILD,
                    owner_id=player.user_id,
                    name=f"Hero {n}",
                    name_key=f"hero {n}",
                    system="coda",
                )
                for n in range(sheets.MAX_CHARACTERS - 1)
            ],
        )
        results = await race(
            engines,
            lambda db, side, a=player: sheets.create(db, a, f"Last {side}", "coda"),
        )
        assert len(refusals(results)) == 1
        assert "at most 50 characters" in str(refusals(results)[0])
        listing = await sheets.list_characters(engines[1], player)
        assert len(listing.entries) == sheets.MAX_CHARACTERS


async def test_same_named_character_and_first_selection(
    engines: tuple[Database, Database],
) -> None:
    for pair in range(PAIRS):
        player = Actor(user_id=12000 + pair, channel_id=7000 + pair, guild_id=GUILD)
        results = await race(
            engines, lambda db, side, a=player: sheets.create(db, a, "Ann", "coda")
        )
        assert len(refusals(results)) == 1
        assert "already have a character called Ann" in str(refusals(results)[0])
        await sheets.create(engines[0], player, "Bea", "coda")
        other = Actor(user_id=player.user_id, channel_id=player.channel_id + 500, guild_id=GUILD)
        chosen = await race(engines, lambda db, side, a=other: sheets.use(db, a, NAMES[side]))
        assert {sheet.name for sheet in chosen} == set(NAMES)


async def test_new_house_in_the_points_table(engines: tuple[Database, Database]) -> None:
    async def award(db: Database, guild: int, points: int) -> None:
        async with db.unit_of_work() as session:
            await matches.award(session, guild, "Gryffindor", points)

    for pair in range(PAIRS):
        guild = 100 + pair
        await race(engines, lambda db, side, g=guild: award(db, g, 150 + side))
        async with engines[0].unit_of_work(read_only=True) as session:
            row = await session.get(HousePoints, (guild, "gryffindor"))
        assert row is not None
        assert (row.points, row.wins) == (301, 2)
