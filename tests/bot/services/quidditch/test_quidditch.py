"""Quidditch use cases against the database: the house table, the starter as GM, concurrency."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from bot.actor import Actor
from bot.errors import PermissionDenied, UserError
from bot.services import quidditch
from bot.services.permissions import is_gm
from bot.services.quidditch import _match
from bot.storage import Database
from bot.storage.repositories import quidditch as matches
from engine import quidditch as q
from engine.dice import ScriptedDice

GUILD, TABLE, PITCH = 1, 10, 11
GM = Actor(user_id=900, channel_id=TABLE, guild_id=GUILD, gm_role=True)
ALICE = Actor(user_id=100, channel_id=TABLE, guild_id=GUILD)
STARTER = Actor(user_id=300, channel_id=TABLE, guild_id=GUILD)

ROSTER = [
    ("C1", "chaser", 5, 3, 3, 3),
    ("C2", "chaser", 5, 3, 3, 3),
    ("C3", "chaser", 5, 3, 3, 3),
    ("B1", "beater", 1, 3, 3, 4),
    ("B2", "beater", 1, 3, 3, 4),
    ("K", "keeper", 2, 5, 20, 3),
    ("S", "seeker", 2, 5, 2, 4),
]
# Keepers at T 20 + D 5: every chaser roll below misses, so the beaters hold back.
QUIET_TURN = [1, 2] * 6


async def ready(db: Database, actor: Actor, *, home_house: str, away_house: str) -> None:
    await quidditch.new_match(
        db, actor, home="Lions", away="Snakes", home_house=home_house, away_house=away_house
    )
    for side, prefix in (("home", "H"), ("away", "A")):
        for name, position, s, d, t, h in ROSTER:
            await quidditch.set_player(
                db,
                actor,
                team=side,
                position=position,
                name=prefix + name,
                strength=s,
                dexterity=d,
                toughness=t,
                health=h,
            )


async def home_wins_at_turn_ten(db: Database, actor: Actor) -> quidditch.TurnOutcome:
    for _ in range(9):
        await quidditch.play_turn(db, ScriptedDice(QUIET_TURN), actor)
    return await quidditch.play_turn(db, ScriptedDice([*QUIET_TURN, 20, 1, 2, 3]), actor)


async def test_house_points_accumulate_per_house_ignoring_case(db: Database) -> None:
    await ready(db, GM, home_house="Gryffindor", away_house="Slytherin")
    first = await home_wins_at_turn_ten(db, GM)
    assert first.report.result is not None and first.report.result.house_points == 150
    assert first.house_total == 150
    await ready(db, GM, home_house="gryffindor", away_house="Slytherin")
    second = await home_wins_at_turn_ten(db, GM)
    assert second.house_total == 300
    table = await quidditch.houses(db, GM)
    assert [(row.house, row.points, row.wins) for row in table] == [("Gryffindor", 300, 2)]
    # Another server keeps its own table.
    assert await quidditch.houses(db, Actor(1, TABLE, guild_id=2)) == []


async def test_whoever_started_the_match_is_its_gm(db: Database) -> None:
    gm_for_now = Actor(STARTER.user_id, TABLE, GUILD, gm_role=True)
    await quidditch.new_match(db, gm_for_now, home="A", away="B")
    async with db.unit_of_work(read_only=True) as session:
        assert await is_gm(session, STARTER)  # without the role now
        assert not await is_gm(session, ALICE)
    await quidditch.end(db, STARTER)
    async with db.unit_of_work(read_only=True) as session:
        assert not await is_gm(session, STARTER)


async def test_a_player_is_refused_and_nothing_changes(db: Database) -> None:
    await quidditch.new_match(db, GM, home="A", away="B")
    with pytest.raises(PermissionDenied):
        await quidditch.set_player(
            db, ALICE, team="home", position="seeker", name="X", strength=1, dexterity=1,
            toughness=1, health=1,
        )  # fmt: skip
    view = await quidditch.show(db, ALICE)
    assert view.state.home.players == ()


async def test_a_stored_match_is_plain_json_and_plays_on(db: Database) -> None:
    await ready(db, GM, home_house="Gryffindor", away_house="Slytherin")
    await quidditch.play_turn(db, ScriptedDice(QUIET_TURN), GM)
    view = await quidditch.show(db, GM)
    assert view.state.turn == 1
    assert q.MatchState.from_dict(view.state.to_dict()) == view.state


async def test_two_gms_starting_at_once_leave_one_match(db: Database) -> None:
    other = Actor(user_id=901, channel_id=TABLE, guild_id=GUILD, gm_role=True)
    results = await asyncio.gather(
        quidditch.new_match(db, GM, home="A", away="B"),
        quidditch.new_match(db, other, home="C", away="D"),
        return_exceptions=True,
    )
    started = [r for r in results if isinstance(r, quidditch.MatchView)]
    refused = [r for r in results if isinstance(r, UserError)]
    assert len(started) == 1 and len(refused) == 1, results
    # Another channel is free.
    await quidditch.new_match(db, Actor(900, PITCH, GUILD, gm_role=True), home="E", away="F")


async def test_odds_are_seeded_and_stop_at_the_time_budget(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    await ready(db, GM, home_house="Gryffindor", away_house="Slytherin")
    ready_calls: list[bool] = []

    async def announce() -> None:
        ready_calls.append(True)

    # No time limit while the answer is compared: a loaded machine simulates fewer matches
    # within the shipped 1.5 s (the limit's own effect is checked with a budget of 0 below).
    monkeypatch.setattr(_match, "ODDS_BUDGET", float("inf"))
    full = await quidditch.odds(db, GM, count=300, ready=announce)
    assert ready_calls == [True]
    assert (full.summary.matches, full.requested) == (300, 300)
    again = await quidditch.odds(db, GM, count=300)
    assert again.summary == full.summary  # the same match state gives the same answer
    monkeypatch.setattr(_match, "ODDS_BUDGET", 0.0)
    cut = await quidditch.odds(db, GM, count=300)
    assert (cut.summary.matches, cut.requested) == (quidditch.ODDS_BATCH, 300)


async def test_only_a_gm_asks_for_the_odds_and_nothing_is_announced(db: Database) -> None:
    await ready(db, GM, home_house="Gryffindor", away_house="Slytherin")
    announced: list[bool] = []

    async def announce() -> None:
        announced.append(True)

    with pytest.raises(PermissionDenied):
        await quidditch.odds(db, ALICE, ready=announce)
    assert announced == []


async def test_two_first_wins_of_a_house_at_once_both_count(any_database_url: str) -> None:
    """Two matches of one guild ending together with a house new to the table (PostgreSQL:
    both insert its row; the loser of that race adds to the winner's row instead)."""
    database = Database(any_database_url)
    try:

        async def win(points: int) -> None:
            async with database.unit_of_work() as session:
                await matches.award(session, GUILD, "Hufflepuff", points)

        await asyncio.gather(*(win(points) for points in range(10, 60, 10)))
        async with database.unit_of_work(read_only=True) as session:
            (row,) = await matches.table(session, GUILD)
        assert (row.house, row.points, row.wins) == ("Hufflepuff", 150, 5)
    finally:
        await database.dispose()


async def test_undoing_a_won_match_on_both_databases(any_database_url: str) -> None:
    """The catch undone: the match reopens (locked by its row), the house's only win leaves
    the table, and a replayed catch counts once — on SQLite and PostgreSQL."""
    database = Database(any_database_url)
    try:
        # A GM by role starts it (as a whole); from then on its starter is one of its GMs.
        await quidditch.new_match(
            database,
            replace(STARTER, gm_role=True),
            home="Lions",
            away="Snakes",
            home_house="Gryffindor",
            away_house="Slytherin",
        )
        for side, prefix in (("home", "H"), ("away", "A")):
            for name, position, s, d, t, h in ROSTER:
                await quidditch.set_player(
                    database, STARTER, team=side, position=position, name=prefix + name,
                    strength=s, dexterity=d, toughness=t, health=h,
                )  # fmt: skip
        won = await home_wins_at_turn_ten(database, STARTER)
        assert won.house_total == 150
        with pytest.raises(PermissionDenied):
            await quidditch.undo(database, ALICE)
        # The starter is no GM of the channel once the match is over, but undoes it.
        undone = await quidditch.undo(database, STARTER)
        assert undone.reopened == ("Gryffindor", 150) and undone.undone == 10
        assert undone.view.state.turn == 9 and not undone.view.state.finished
        assert await quidditch.houses(database, STARTER) == []
        again = await quidditch.play_turn(
            database, ScriptedDice([*QUIET_TURN, 20, 1, 2, 3]), STARTER
        )
        assert again.house_total == 150
    finally:
        await database.dispose()
