"""CODA services: one transaction per command, the roll log, and extended tests' state."""

from __future__ import annotations

import asyncio

import pytest

from bot.actor import Actor
from bot.errors import UserError
from bot.services import coda as service
from bot.storage import Database
from bot.storage.repositories import rolls as roll_log
from engine.dice import ScriptedDice, SeededDice
from engine.systems import coda

ALICE = Actor(user_id=100, channel_id=10, guild_id=1)
BOB = Actor(user_id=200, channel_id=10, guild_id=1)


async def test_a_test_is_logged_with_its_faces_and_degree(db: Database) -> None:
    outcome = await service.roll_test(
        db,
        ScriptedDice([6, 6, 2]),
        ALICE,
        service.PlainRoll(modifier=1),
        service.TestRequest(difficulty="Challenging", attempt=2),
    )
    assert outcome.result.total == 13 and outcome.result.penalty == 2
    assert outcome.difficulty == "Challenging"
    assert outcome.chance == pytest.approx(coda.chance(modifier=1, tn=15, penalty=2))
    async with db.unit_of_work(read_only=True) as session:
        (entry,) = await roll_log.latest(session, 10, count=5, include_secret=True)
    assert entry.system == "coda"
    assert entry.faces == [6, 6, 2]
    assert entry.input == "test 2d6+1-2 vs TN 15"
    assert entry.outcome == "13 · Failure"


async def test_a_refused_test_writes_nothing(db: Database) -> None:
    with pytest.raises(UserError):
        await service.roll_test(
            db,
            ScriptedDice([3, 3]),
            ALICE,
            service.PlainRoll(),
            service.TestRequest(tn=10, difficulty="Routine"),
        )
    async with db.unit_of_work(read_only=True) as session:
        assert await roll_log.latest(session, 10, count=5, include_secret=True) == []


async def test_extended_state_round_trips_through_the_database(db: Database) -> None:
    await service.start_extended(
        db,
        ALICE,
        name="Brew",
        stages="10:Potions, 15",
        interval=3,
        participants=f"<@{BOB.user_id}>",
    )
    outcome = await service.roll_extended(db, ScriptedDice([5, 5]), BOB, modifier=1)
    assert outcome.step.added == 11
    (view,) = await service.extended_status(db, ALICE)
    assert view.task == outcome.step.after
    assert view.task.stages == (coda.Stage(10, "Potions"), coda.Stage(15))
    assert view.task.log[0].degree is coda.Degree.COMPLETE_SUCCESS
    assert view.started_by == ALICE.user_id
    assert view.participants == (BOB.user_id,)


async def test_concurrent_extended_rolls_lose_no_test(db: Database) -> None:
    await service.start_extended(
        db, ALICE, name="Siege", stages="100", participants=f"<@{BOB.user_id}>"
    )
    dice = SeededDice(5)

    async def one() -> None:
        await service.roll_extended(db, dice, BOB, modifier=-100)

    await asyncio.gather(*(one() for _ in range(12)))
    (view,) = await service.extended_status(db, ALICE)
    assert view.task.tests == 12
    assert len(view.task.log) == 12


async def test_completed_and_abandoned_tasks_are_removed(db: Database) -> None:
    await service.start_extended(db, ALICE, name="Quick", stages="5")
    outcome = await service.roll_extended(db, ScriptedDice([3, 3]), ALICE, modifier=0)
    assert outcome.step.completed
    assert await service.extended_status(db, ALICE) == []
    await service.start_extended(db, ALICE, name="Slow", stages="20")
    await service.abandon_extended(db, ALICE)
    assert await service.extended_names(db, 10) == []
