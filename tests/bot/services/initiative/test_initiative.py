"""Initiative services: one transaction per change, and no lost or doubled update under load."""

from __future__ import annotations

import asyncio

import pytest

from bot.actor import Actor
from bot.errors import PermissionDenied, UserError
from bot.services import initiative
from bot.storage import Database
from engine import initiative as ini
from engine.dice import ScriptedDice, SeededDice

CHANNEL = 555
GM = Actor(user_id=1, channel_id=CHANNEL, guild_id=9, display_name="gm", gm_role=True)
PLAYER = Actor(user_id=2, channel_id=CHANNEL, guild_id=9, display_name="alice")


async def three(db: Database) -> None:
    await initiative.start(db, GM)
    for name, total in (("Alice", 18), ("Bob", 12), ("Carl", 7)):
        await initiative.add(db, ScriptedDice([]), GM, name=name, roll=total)


async def test_twenty_simultaneous_nexts_advance_exactly_twenty_turns(any_db: Database) -> None:
    await three(any_db)
    outcomes = await asyncio.gather(*(initiative.next_turn(any_db, GM) for _ in range(20)))
    view = await initiative.show(any_db, GM)
    state = view.state
    # Turn k of the encounter is round ceil(k / 3): the 20th is round 7, the 2nd in order.
    assert (state.round, state.current.name) == (7, "Bob")
    assert sum(c.turns for c in state.order) == 20
    assert [e.kind for e in state.log].count("next") == 20
    # Every press saw a different state: no two committed on top of the same one.
    seen = {(o.view.state.round, o.view.state.turn) for o in outcomes}
    assert len(seen) == 20


async def test_concurrent_starts_leave_one_encounter(any_db: Database) -> None:
    results = await asyncio.gather(
        initiative.start(any_db, GM), initiative.start(any_db, GM), return_exceptions=True
    )
    assert sum(isinstance(r, initiative.InitOutcome) for r in results) == 1
    assert sum(isinstance(r, UserError) for r in results) == 1


async def test_state_round_trips_through_the_database(db: Database) -> None:
    await initiative.start(db, GM, system="coda")
    dice = ScriptedDice([3, 4, 2, 5, 4, 5, 1, 1])  # 2d6: 7 and 7, then roll-off 2d6: 9 vs 2
    await initiative.add(db, dice, GM, name="Goblin", count=2, hidden=True)
    await initiative.add(db, ScriptedDice([]), GM, name="Carl", roll=4)
    await initiative.next_turn(db, GM)
    view = await initiative.show(db, GM)
    assert [c.name for c in view.state.order] == ["Goblin 1", "Goblin 2", "Carl"]
    assert [c.tiebreak for c in view.state.order] == [(9,), (2,), ()]
    assert view.state.find("Goblin 1").hidden
    undone = await initiative.undo(db, GM)
    assert undone.view.state.round == 0
    assert isinstance(undone.undone, ini.Next)


async def test_a_player_may_only_next_on_their_own_turn(db: Database) -> None:
    await initiative.start(db, GM)
    await initiative.add(db, ScriptedDice([]), GM, name="Orc", roll=20)
    with pytest.raises(PermissionDenied):
        await initiative.next_turn(db, PLAYER)
    await initiative.next_turn(db, GM)
    with pytest.raises(PermissionDenied, match="whose combatant's turn"):
        await initiative.delay(db, PLAYER)
    with pytest.raises(PermissionDenied, match="Only the channel's GM"):
        await initiative.undo(db, PLAYER)


async def test_a_refused_change_saves_nothing(db: Database) -> None:
    await three(db)
    before = (await initiative.show(db, GM)).state
    with pytest.raises(ini.UnknownCombatant):
        await initiative.remove(db, GM, name="Nobody")
    with pytest.raises(ini.NotAllowedNow):
        await initiative.prev_turn(db, GM)
    assert (await initiative.show(db, GM)).state == before


async def test_add_bounds_count(db: Database) -> None:
    await initiative.start(db, GM)
    with pytest.raises(UserError, match="1 to 20"):
        await initiative.add(db, SeededDice(1), GM, name="Rat", count=21)


async def test_start_takes_the_channel_system_by_default(db: Database) -> None:
    from bot.services import channel_settings

    await channel_settings.set_system(db, GM, "coda")
    outcome = await initiative.start(db, GM)
    assert outcome.view.system == "coda"
    with pytest.raises(UserError, match="Unknown system"):
        await initiative.start(db, Actor(user_id=1, channel_id=7, gm_role=True), system="chess")


async def test_whoever_started_the_encounter_stays_its_gm(db: Database) -> None:
    await initiative.start(db, GM)
    without_role = Actor(user_id=GM.user_id, channel_id=CHANNEL, guild_id=9, gm_role=False)
    await initiative.add(db, ScriptedDice([]), without_role, name="Orc", roll=3)
    outcome = await initiative.next_turn(db, without_role)
    assert outcome.view.gm and outcome.view.state.current.name == "Orc"
    await initiative.end(db, without_role)
    with pytest.raises(PermissionDenied):  # the encounter is over: so is that GM status
        await initiative.start(db, without_role)


async def test_a_gm_by_role_and_a_gm_by_starting_race_without_a_lost_turn(any_db: Database) -> None:
    """A GM by Discord's word changes the row in a transaction of its own; one who is a GM
    because they started the encounter is looked up in a unit of work. Both lock the row."""
    await three(any_db)
    starter = Actor(user_id=GM.user_id, channel_id=CHANNEL, guild_id=9, display_name="gm")
    outcomes = await asyncio.gather(
        *(initiative.next_turn(any_db, actor) for _ in range(10) for actor in (GM, starter))
    )
    state = (await initiative.show(any_db, GM)).state
    assert sum(c.turns for c in state.order) == 20
    assert len({o.view.revision for o in outcomes}) == 20
