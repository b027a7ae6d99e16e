"""CODA's actions per round on the tracker (``/init action``): Tables 9-9 to 9-11, the −5 per
action beyond the allowance, the attribute test it asks for, full-round and free actions."""

from __future__ import annotations

from engine.dice import ScriptedDice
from tests.bot.cogs.initiative.test_initiative import add, gm_next, ok, start, tracker_text
from tests.conftest import Table, text_of


async def ron_and_goblin(table: Table) -> None:
    """Alice's Ron (2d6 5 + 2 = 7... rolled 6, 5: 11 + 0) leads; a Goblin NPC at 4."""
    await table.alice.slash(table.channel, "sheet create", name="Ron", system="coda")
    await table.alice.slash(table.channel, "sheet set", attribute="Swiftness", value=0)
    await start(table, system="coda")
    table.bot.dice = ScriptedDice([6, 5])
    await ok(await table.alice.slash(table.channel, "init join"))
    await ok(await add(table, "Goblin", 4))
    await gm_next(table)  # round 1: Ron is up


async def test_actions_are_spent_and_beyond_the_allowance_ask_for_a_test(table: Table) -> None:
    await ron_and_goblin(table)
    assert "2 actions · 3rd −5, 4th −10" in tracker_text(table)
    walk = await ok(await table.alice.slash(table.channel, "init action", kind="Walk"))
    assert "🏃 **Ron**: Walk (1 action), no penalty. 1 of 2 actions left." in text_of(walk)
    assert "1 of 2 actions left" in tracker_text(table)
    run = await ok(await table.alice.slash(table.channel, "init action", kind="Run"))
    # Run costs 2: the 2nd and the 3rd action, so the larger penalty, −5.
    assert "Run (2 actions): **−5**." in text_of(run)
    assert "a **TN 5 Nimbleness test** is needed" in text_of(run)
    assert "0 of 2 actions left · next −10" in text_of(run)
    free = await ok(await table.alice.slash(table.channel, "init action", kind="Warn/Alert"))
    assert "Warn/Alert, a free action." in text_of(free)
    custom = await ok(await table.alice.slash(table.channel, "init action", kind="custom", cost=1))
    assert "custom (1 action): **−10**." in text_of(custom)
    assert "without one, it needs an attribute test at **TN 10**" in text_of(custom)


async def test_full_round_actions_need_the_whole_round(table: Table) -> None:
    await ron_and_goblin(table)
    hide = await ok(await table.alice.slash(table.channel, "init action", kind="Hide"))
    assert "Hide, a full-round action (the whole round). Its test: Stealth." in text_of(hide)
    assert "0 of 2 actions left · next −5" in text_of(hide)
    await table.gm.slash(table.channel, "init undo")
    await ok(await table.alice.slash(table.channel, "init action", kind="Walk"))
    refused = await table.alice.slash(table.channel, "init action", kind="Sprint")
    assert refused.ephemeral
    assert "Sprint is a full-round action" in text_of(refused)


async def test_a_new_round_gives_the_actions_back_and_undo_restores_them(table: Table) -> None:
    await ron_and_goblin(table)
    await ok(await table.alice.slash(table.channel, "init action", kind="Run"))
    undone = await ok(await table.gm.slash(table.channel, "init undo"))
    assert "Undid Ron taking Run" in text_of(undone)
    await ok(await table.alice.slash(table.channel, "init action", kind="Jog"))
    await gm_next(table)  # the Goblin
    goblin = await ok(await table.gm.slash(table.channel, "init action", kind="Walk"))
    assert "**Goblin**: Walk" in text_of(goblin)
    assert "🏃 1 of 2 actions left" in tracker_text(table)  # Ron's line, after his turn
    await gm_next(table)  # round 2: Ron again, two actions
    assert "Round 2" in tracker_text(table)
    assert "of 2 actions left" not in tracker_text(table)


async def test_players_spend_only_their_own_actions_on_their_turn(table: Table) -> None:
    await ron_and_goblin(table)
    other = await table.alice.slash(table.channel, "init action", kind="Walk", name="Goblin")
    assert other.ephemeral and "for Ron only" in text_of(other)
    stranger = await table.bob.slash(table.channel, "init action", kind="Walk")
    assert stranger.ephemeral
    await gm_next(table)
    late = await table.alice.slash(table.channel, "init action", kind="Walk", name="Ron")
    assert late.ephemeral
    gm = await ok(await table.gm.slash(table.channel, "init action", kind="Walk", name="Ron"))
    assert "**Ron**: Walk" in text_of(gm)


async def test_other_systems_and_bad_input_are_refused(table: Table) -> None:
    await start(table)
    await ok(await add(table, "Orc", 10))
    early = await table.gm.slash(table.channel, "init action", kind="Walk")
    assert early.ephemeral
    await gm_next(table)
    generic = await table.gm.slash(table.channel, "init action", kind="Walk")
    assert generic.ephemeral and "CODA's" in text_of(generic)
    unknown = await table.gm.slash(table.channel, "init action", kind="Walk", name="@everyone")
    assert unknown.ephemeral
