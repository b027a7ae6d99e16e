"""The campaign page's read models: the bot's visibility rules (hidden combatants, NPC Health
and secret rolls only for GMs and a secret roll's roller), the log's filters and paging, and
a channel mark that moves with every change the page shows."""

from __future__ import annotations

import pytest

from bot.actor import Actor
from bot.errors import PermissionDenied, UserError
from bot.services import campaign, coda, initiative, rolls, rps, sheets
from bot.storage import Database
from engine.dice import ScriptedDice

CHANNEL = 700
GM = Actor(user_id=1, channel_id=CHANNEL, guild_id=9, display_name="gm", gm_role=True)
ALICE = Actor(user_id=2, channel_id=CHANNEL, guild_id=9, display_name="alice")
BOB = Actor(user_id=3, channel_id=CHANNEL, guild_id=9, display_name="bob")


async def _fight(db: Database) -> None:
    await initiative.start(db, GM)
    await initiative.add(db, ScriptedDice([]), GM, name="Orc", roll=20, health=12)
    await initiative.add(db, ScriptedDice([]), GM, name="Lurker", roll=15, hidden=True)
    await initiative.add(db, ScriptedDice([]), GM, name="Wolf", roll=10)


async def test_the_turn_order_hides_what_the_tracker_hides(db: Database) -> None:
    assert await campaign.turn_order(db, ALICE) is None  # nothing runs: no error, no order
    await _fight(db)
    await initiative.next_turn(db, GM)
    players = await campaign.turn_order(db, ALICE)
    gms = await campaign.turn_order(db, GM)
    assert players is not None and gms is not None
    assert [c.name for c in players.combatants] == ["Orc", "Wolf"]
    assert [c.name for c in gms.combatants] == ["Orc", "Lurker", "Wolf"]
    assert players.current is not None and players.current.name == "Orc"
    assert (players.round, gms.gm, players.gm) == (1, True, False)
    orc = {c.name: c for c in gms.combatants}["Orc"]
    assert orc.health == (12, 12)  # the NPC's Health: the GM's
    assert {c.name: c for c in players.combatants}["Orc"].health is None


async def test_a_hidden_turn_names_nobody_to_players(db: Database) -> None:
    await _fight(db)
    await initiative.next_turn(db, GM)
    await initiative.next_turn(db, GM)  # the Lurker's turn
    players = await campaign.turn_order(db, ALICE)
    gms = await campaign.turn_order(db, GM)
    assert players is not None and gms is not None
    assert players.current is None
    assert gms.current is not None and gms.current.name == "Lurker"


async def test_secret_rolls_reach_their_roller_and_gms_with_a_checked_commitment(
    any_db: Database,
) -> None:
    secret = await rolls.roll_notation(
        any_db, ScriptedDice([4]), ALICE, expression="1d6", label="sneak", secret=True
    )
    await rolls.roll_notation(
        any_db, ScriptedDice([2]), BOB, expression="1d6", label=None, secret=False
    )
    (seal,) = secret.secrecy.seals
    for viewer, sees in ((ALICE, True), (GM, True), (BOB, False)):
        page = await campaign.roll_log_page(any_db, viewer, campaign.LogFilter())
        ids = [entry.id for entry in page.entries]
        assert (seal.roll_id in ids) is sees, viewer
        if sees:
            entry = next(e for e in page.entries if e.id == seal.roll_id)
            assert entry.sealed is not None
            assert entry.sealed.commitment == seal.commitment
            assert entry.sealed.verified is True
    assert len((await campaign.roll_log_page(any_db, BOB, campaign.LogFilter())).entries) == 1


async def test_the_log_filters_and_pages(any_db: Database) -> None:
    for face in range(1, 6):
        await rolls.roll_notation(
            any_db, ScriptedDice([face]), ALICE, expression="1d6", label=None, secret=False
        )
    await rolls.roll_notation(
        any_db, ScriptedDice([3]), BOB, expression="1d8", label=None, secret=False
    )
    first = await campaign.roll_log_page(
        any_db, GM, campaign.LogFilter(player_id=ALICE.user_id, count=2)
    )
    assert [e.outcome for e in first.entries] == ["5", "4"]
    assert first.next_before is not None
    second = await campaign.roll_log_page(
        any_db, GM, campaign.LogFilter(player_id=ALICE.user_id, count=2, before=first.next_before)
    )
    assert [e.outcome for e in second.entries] == ["3", "2"]
    last = await campaign.roll_log_page(
        any_db, GM, campaign.LogFilter(player_id=ALICE.user_id, count=2, before=second.next_before)
    )
    assert [e.outcome for e in last.entries] == ["1"] and last.next_before is None
    assert (
        await campaign.roll_log_page(any_db, GM, campaign.LogFilter(system="coda"))
    ).entries == ()
    recent = await campaign.roll_log_page(any_db, GM, campaign.LogFilter(since="1h"))
    assert len(recent.entries) == 6


@pytest.mark.parametrize(
    "bad",
    [
        campaign.LogFilter(system="'; DROP"),
        campaign.LogFilter(since="forever"),
        campaign.LogFilter(count=0),
        campaign.LogFilter(count=campaign.MAX_PAGE_SIZE + 1),
        campaign.LogFilter(before=-1),
        campaign.LogFilter(player_id=0),
    ],
)
async def test_a_bad_filter_is_a_short_refusal(db: Database, bad: campaign.LogFilter) -> None:
    with pytest.raises(UserError):
        await campaign.roll_log_page(db, GM, bad)


async def test_the_roster_is_the_gms(db: Database) -> None:
    await sheets.create(db, ALICE, "Hermione", "coda")
    await rolls.roll_notation(
        db, ScriptedDice([1]), ALICE, expression="1d6", label=None, secret=False
    )
    with pytest.raises(PermissionDenied):
        await campaign.roster(db, ALICE)
    found = await campaign.roster(db, GM)
    assert [sheet.name for sheet in found.characters] == ["Hermione"]
    page = await campaign.campaign_page(db, GM, campaign.LogFilter())
    assert page.gm and page.roster == found
    assert (await campaign.campaign_page(db, ALICE, campaign.LogFilter())).roster is None
    live = await campaign.campaign_page(db, GM, campaign.LogFilter(), live=True)
    assert live.roster is None and live.stats is None and live.gm  # what a change refreshes


async def test_the_mark_moves_with_the_turn_order_and_the_log(any_db: Database) -> None:
    other = CHANNEL + 1
    before = await campaign.marks(any_db, [CHANNEL, other])
    await _fight(any_db)
    started = await campaign.marks(any_db, [CHANNEL, other])
    assert started[CHANNEL] != before[CHANNEL] and started[other] == before[other]
    await initiative.next_turn(any_db, GM)
    moved = await campaign.marks(any_db, [CHANNEL])
    assert moved[CHANNEL] != started[CHANNEL]
    assert (await campaign.marks(any_db, [CHANNEL])) == moved  # no change, same mark
    await rolls.roll_notation(
        any_db, ScriptedDice([2]), BOB, expression="1d6", label=None, secret=False
    )
    assert (await campaign.marks(any_db, [CHANNEL]))[CHANNEL] != moved[CHANNEL]
    await initiative.end(any_db, GM)
    assert (await campaign.marks(any_db, [CHANNEL]))[CHANNEL] != moved[CHANNEL]
    assert await campaign.marks(any_db, []) == {}


async def test_tasks_read_every_system(db: Database) -> None:
    assert not (await campaign.tasks(db, ALICE)).any
    await coda.start_extended(db, GM, name="Pick the lock", stages="10, 12", unit="minutes")
    await rps.sustained_start(db, GM, goal=20, label="Climb")
    found = await campaign.tasks(db, ALICE)
    (task,) = found.extended
    assert (task.name, task.target, task.stage, task.stages, task.total) == (
        "Pick the lock",
        22,
        1,
        2,
        0,
    )
    assert found.sustained is not None
    assert (found.sustained.label, found.sustained.goal, found.sustained.pool) == ("Climb", 20, 0)
    assert found.score is None
