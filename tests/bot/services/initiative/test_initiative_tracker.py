"""The tracker view a change carries (``InitOutcome.tracker``) and the encounter's revision.

The cog refreshes the tracker from the state a change committed instead of re-reading it
(no second read). That is only right if the view is exactly what :func:`initiative.latest` reads
right after the commit, and if every write of the state bumps the revision the cog compares.
"""

from __future__ import annotations

import asyncio

from bot.actor import Actor
from bot.i18n import use_language
from bot.render.initiative import tracker_embed
from bot.services import attack_exchange, initiative, sheets
from bot.services import coda as coda_turn
from bot.services.initiative import InitOutcome
from bot.storage import Database
from engine.dice import ScriptedDice

CHANNEL = 556
GM = Actor(user_id=1, channel_id=CHANNEL, guild_id=9, display_name="gm", gm_role=True)
ALICE = Actor(user_id=2, channel_id=CHANNEL, guild_id=9, display_name="alice")


async def same_as_latest(db: Database, outcome: InitOutcome) -> None:
    """The outcome's tracker view is what ``latest`` reads now, field for field."""
    latest = await initiative.latest(db, CHANNEL)
    assert latest is not None
    assert outcome.tracker == latest
    assert not outcome.tracker.gm and outcome.tracker.state.log == ()
    for language in ("en", "es"):
        with use_language(language):
            assert tracker_embed(outcome.tracker).to_dict() == tracker_embed(latest).to_dict()


async def test_every_change_carries_the_tracker_latest_reads(any_db: Database) -> None:
    await sheets.create(any_db, ALICE, "Hermione", "coda")
    await sheets.set_attribute(any_db, ALICE, "Swiftness", 0)
    await sheets.set_resource(any_db, ALICE, "Health", current=8, maximum=10)
    with use_language(
        "es"
    ):  # the starter's language is the tracker's (bot.gateway._public_language)
        started = await initiative.start(any_db, GM, system="coda")
    await same_as_latest(any_db, started)
    assert started.tracker.language == "es" and started.tracker.revision == 0
    revisions = [0]
    changes = [
        initiative.join(any_db, ScriptedDice([5, 5]), ALICE),  # Health from the sheet
        initiative.add(any_db, ScriptedDice([]), GM, name="Lurker", roll=30, hidden=True),
        initiative.add(any_db, ScriptedDice([]), GM, name="Orc", roll=3, health=9),
        initiative.next_turn(any_db, GM),
        initiative.add_condition(any_db, GM, name="Orc", condition="Stunned", rounds=2),
        initiative.next_turn(any_db, GM),
        initiative.set_health(any_db, GM, name="Orc", value=4),
        initiative.delay(any_db, GM),
        initiative.act(any_db, GM, name="Hermione"),
        initiative.undo(any_db, GM),
        initiative.reveal(any_db, GM, name="Lurker"),
    ]
    for change in changes:
        outcome = await change
        await same_as_latest(any_db, outcome)
        revisions.append(outcome.tracker.revision)
        if outcome.action == "add" and outcome.subject == "Hermione":
            assert outcome.tracker.health_of("Hermione") == (8, 10)
        if outcome.action == "add" and outcome.subject == "Lurker":
            # The GM's own reply sees the hidden one; the tracker's view hides it when drawn.
            assert outcome.view.gm
            assert "Lurker" not in tracker_embed(outcome.tracker).to_dict()["description"]
    assert revisions == list(range(len(changes) + 1))
    ended = await initiative.end(any_db, GM)
    assert ended.tracker.revision == len(changes) + 1 and ended.tracker.state.ended
    assert ended.tracker.encounter_id == started.tracker.encounter_id
    assert await initiative.latest(any_db, CHANNEL) is None


async def test_simultaneous_changes_get_distinct_increasing_revisions(any_db: Database) -> None:
    await initiative.start(any_db, GM)
    for name, total in (("Alice", 18), ("Bob", 12)):
        await initiative.add(any_db, ScriptedDice([]), GM, name=name, roll=total)
    outcomes = await asyncio.gather(*(initiative.next_turn(any_db, GM) for _ in range(10)))
    revisions = sorted(o.tracker.revision for o in outcomes)
    assert revisions == list(range(3, 13))
    # The same revision always shows the same state: the newest is the one on disk.
    newest = max(outcomes, key=lambda o: o.tracker.revision)
    assert newest.tracker == await initiative.latest(any_db, CHANNEL)


async def test_writes_outside_the_initiative_service_bump_the_revision(db: Database) -> None:
    """CODA damage to an NPC on the tracker and a spent action write the state too."""
    await initiative.start(db, GM, system="coda")
    await initiative.add(db, ScriptedDice([]), GM, name="Orc", roll=12, health=9)
    before = await initiative.latest(db, CHANNEL)
    assert before is not None and before.revision == 1
    async with db.unit_of_work() as session:
        hurt = await attack_exchange.hurt_npc(session, CHANNEL, target="Orc", damage=3)
    assert hurt is not None
    after = await initiative.latest(db, CHANNEL)
    assert after is not None and after.revision == 2 and after.health_of("Orc") == (6, 9)
    await initiative.next_turn(db, GM)  # revision 3: the Orc is up
    async with db.unit_of_work() as session:
        spent = await coda_turn.spend_on_turn(session, GM, character=None, action="Walk")
    assert spent is not None
    latest = await initiative.latest(db, CHANNEL)
    assert latest is not None and latest.revision == 4
