"""CODA rolls and the tracker: a roll on your turn spends an action and takes its
penalty by itself, a Dodge or Parry spends the defender's, an action beyond the allowance
offers its attribute test as a button, the tracker's action buttons, and NPCs' Health."""

from __future__ import annotations

from typing import Any

import pytest

from bot.actor import Actor
from bot.app import create_bot
from bot.services.coda import TestClosed, roll_action_test
from engine.dice import ScriptedDice
from tests.bot.cogs.coda.test_coda_attack import harry_and_draco, labels
from tests.bot.cogs.initiative.test_initiative import add, gm_next, ok, start, tracker, tracker_text
from tests.conftest import Table, embed_of, text_of


async def fight(table: Table) -> None:
    """Harry (Alice) 11, Draco (Bob) 6, a Troll NPC at 4 with Health 20; Harry is up."""
    await harry_and_draco(table)
    await table.alice.slash(table.channel, "sheet set", attribute="Nimbleness", value=1)
    await start(table, system="coda")
    table.bot.dice = ScriptedDice([6, 5])
    await ok(await table.alice.slash(table.channel, "init join"))
    table.bot.dice = ScriptedDice([3, 3])
    await ok(await table.bob.slash(table.channel, "init join"))
    await ok(await add(table, "Troll", 4, health=20))
    await gm_next(table)
    assert "Round 1 · **Harry**'s turn" in tracker_text(table)


def description(result: Any) -> str:
    return embed_of(result).description or ""


async def strength(table: Table, user: Any, faces: list[int], **options: Any) -> Any:
    table.bot.dice = ScriptedDice(faces)
    return await ok(
        await user.slash(table.channel, "coda attribute", name="Strength", tn=10, **options)
    )


async def test_rolls_on_your_turn_spend_actions_and_the_third_takes_minus_five(
    table: Table,
) -> None:
    await fight(table)
    first = await strength(table, table.alice, [3, 3])
    assert "2d6 (6) + 3 (Strength) = **9**" in description(first)
    assert "🏃 Harry's 1st action this round · 1 of 2 left on the tracker." in description(first)
    assert "**Harry** — 11 · 🏃 1 of 2 actions left" in tracker_text(table)
    await strength(table, table.alice, [3, 3])
    third = await strength(table, table.alice, [4, 4])
    # No extra_actions typed: the tracker knew this was the 3rd action.
    assert "2d6 (8) + 3 (Strength) − 5 (extra action, 3rd) = **6**" in description(third)
    assert "Harry's 3rd action this round (−5) · 0 of 2 left" in description(third)
    assert "0 of 2 actions left · next −10" in tracker_text(table)
    # Bob's roll is not on his turn: no penalty, nothing spent.
    off_turn = await strength(table, table.bob, [4, 4])
    assert "2d6 (8) + 1 (Strength) = **9**" in description(off_turn)
    assert "action this round" not in description(off_turn)
    assert "Draco — 6 · ❤️ 10/10" in tracker_text(table)
    # extra_actions given by hand wins over the tracker, which is left alone.
    by_hand = await strength(table, table.alice, [4, 4], extra_actions=0)
    assert "= **11**" in description(by_hand) and "action this round" not in description(by_hand)
    assert "0 of 2 actions left · next −10" in tracker_text(table)
    # A roll that fails to happen spends nothing.
    table.bot.dice = ScriptedDice([4, 4])
    refused = await table.alice.slash(table.channel, "coda attribute", name="Charm", tn=10)
    assert refused.ephemeral
    assert "0 of 2 actions left · next −10" in tracker_text(table)
    # The GM's rolls on an NPC's turn are that NPC's; undo gives the action back.
    await gm_next(table)
    await gm_next(table)
    assert "**Troll**'s turn" in tracker_text(table)
    table.bot.dice = ScriptedDice([2, 2])
    gm = await ok(await table.gm.slash(table.channel, "coda test", modifier=3, tn=10))
    assert "Troll's 1st action this round" in description(gm)
    assert "**Troll** — 4 · 🏃 1 of 2 actions left · ❤️ 20/20" in tracker_text(table)
    undone = await ok(await table.gm.slash(table.channel, "init undo"))
    assert "Undid Troll taking Test" in text_of(undone)
    assert "🏃" not in tracker_text(table).split("**Troll** — 4")[1]


async def hit(table: Table, faces: list[int], target: str = "Draco", **options: Any) -> Any:
    table.bot.dice = ScriptedDice(faces)
    result = await table.alice.slash(
        table.channel, "coda attack", skill="Melee", target=target, dice=2, modifier=1, **options
    )
    assert not result.ephemeral, text_of(result)
    return result


async def test_attacks_and_dodges_spend_actions_and_take_the_penalty(table: Table) -> None:
    await fight(table)
    first = await hit(table, [3, 2])  # 5 + 5 = 10 vs Defence 9
    assert "Harry's 1st action this round" in embed_of(first).fields[0].value
    # Draco dodges out of turn: one of his two actions this round.
    table.bot.dice = ScriptedDice([6, 5])
    await table.bob.click(first.response, label="Dodge")
    dodge = table.channel.last_message.embeds[0].fields[1].value
    assert "2d6 (11) + 3 (Nimbleness) + 2 (Dodge ranks) = **16** vs TN 10" in dodge
    assert "Draco's 1st action this round · 1 of 2 left" in dodge
    assert "Draco — 6 · 🏃 1 of 2 actions left · ❤️ 10/10" in tracker_text(table)
    second = await hit(table, [3, 2])
    table.bot.dice = ScriptedDice([6, 5])
    await table.bob.click(second.response, label="Parry")
    assert "Draco's 2nd action this round · 0 of 2 left" in (
        table.channel.last_message.embeds[0].fields[1].value
    )
    # Harry's 3rd attack and Draco's 3rd defence both take −5, named.
    third = await hit(table, [6, 5])  # 11 + 5 − 5 = 11
    assert "− 5 (extra action, 3rd) = **11**" in embed_of(third).fields[0].value
    table.bot.dice = ScriptedDice([6, 5, 1, 1])  # 11 + 5 − 5 = 11: equal, a Marginal Success
    await table.bob.click(third.response, label="Dodge")
    shown = table.channel.last_message.embeds[0]
    assert "+ 2 (Dodge ranks) − 5 (extra action, 3rd) = **11** vs TN 11" in shown.fields[1].value
    assert shown.title == "🛡️ Draco dodges Harry's attack"
    assert "Draco — 6 · 🏃 0 of 2 actions left · next −10 · ❤️ 10/10" in tracker_text(table)
    # Take it is no action: nothing more is spent.
    fourth = await hit(table, [6, 6, 3])  # rolls on: 15 + 5 − 10 (the 4th action) = 10
    table.bot.dice = ScriptedDice([1, 1])
    await table.bob.click(fourth.response, label="Take it")
    assert "Draco — 6 · 🏃 0 of 2 actions left · next −10 · ❤️ 7/10" in tracker_text(table)


async def test_damage_to_an_npc_comes_off_its_health_on_the_tracker(table: Table) -> None:
    await fight(table)
    assert "Troll — 4 · ❤️ 20/20" in tracker_text(table)
    result = await hit(table, [4, 4], target="Troll", defence=12, npc_defend=1)
    refused = await table.bob.click(result.response, label="Dodge")
    assert refused.ephemeral and "Only the GM answers this attack on Troll" in text_of(refused)
    # The GM dodges for the Troll (2 + 1 = 3 < 13), which is one of the Troll's actions.
    table.bot.dice = ScriptedDice([1, 1, 6, 3])
    await table.gm.click(result.response, label="Dodge")
    shown = table.channel.last_message.embeds[0]
    assert shown.title == "💥 Harry hits Troll: 10 damage"
    assert "❤️ Troll's Health: 20 → **10**/20" in shown.fields[2].value
    assert "Troll — 4 · 🏃 1 of 2 actions left · ❤️ 10/20" in tracker_text(table)
    undone = await ok(await table.gm.slash(table.channel, "init undo"))
    assert "Undid Troll losing Health" in text_of(undone)
    assert "Troll — 4 · 🏃 1 of 2 actions left · ❤️ 20/20" in tracker_text(table)
    # The GM sets Health; players may not; a player's character keeps it on the sheet.
    healed = await ok(await table.gm.slash(table.channel, "init health", name="troll", value=25))
    assert "❤️ **Troll**'s Health: 20 → **25**/20." in text_of(healed)
    player = await table.alice.slash(table.channel, "init health", name="Troll", value=1)
    assert player.ephemeral
    sheet = await table.gm.slash(table.channel, "init health", name="Harry", value=1)
    assert sheet.ephemeral and "played from a sheet" in text_of(sheet)
    # An NPC without Health on the tracker: the exchange says the GM keeps it.
    await ok(await add(table, "Imp", 2))
    imp = await hit(table, [4, 4], target="Imp", defence=5)
    table.bot.dice = ScriptedDice([2, 2])
    await table.gm.click(imp.response, label="Take it")
    assert "nor Health on the tracker" in table.channel.last_message.embeds[0].fields[2].value


async def walk(table: Table, user: Any = None) -> Any:
    return await ok(await (user or table.alice).slash(table.channel, "init action", kind="Walk"))


async def test_an_extra_walk_offers_its_nimbleness_test_rolled_once_from_the_sheet(
    table: Table,
) -> None:
    await fight(table)
    await walk(table)
    second = await walk(table)
    assert second.response.components == []
    third = await walk(table)
    assert "a **TN 5 Nimbleness test** is needed" in text_of(third)
    assert labels(third.response) == ["Roll the test (TN 5)"]
    stranger = await table.carol.click(third.response, label="Roll the test (TN 5)")
    assert stranger.ephemeral and "(or the GM) rolls this test" in text_of(stranger)
    table.bot.dice = ScriptedDice([2, 2])  # 4 + 1 (Nimbleness) = 5 vs TN 5
    await table.alice.click(third.response, label="Roll the test (TN 5)")
    rolled = table.channel.last_message.embeds[0]
    assert "Walk beyond the allowance" in rolled.title
    assert "2d6 (4) + 1 (Nimbleness) = **5** vs TN 5" in rolled.description
    assert "Marginal Success" in rolled.title
    assert "action this round" not in rolled.description  # the test spends nothing more
    assert "0 of 2 actions left · next −10" in tracker_text(table)
    assert third.response.components == []  # the button is gone once rolled
    # A second press (a stale client, or two at once) finds it rolled.
    actor = Actor(user_id=table.alice.id, channel_id=table.channel.id, guild_id=table.guild.id)
    with pytest.raises(TestClosed, match="already rolled"):
        await roll_action_test(table.bot.db, ScriptedDice([6, 6]), actor, 1, now=table.env.now())
    # Undone, the action's test is gone too.
    fourth = await walk(table)
    assert labels(fourth.response) == ["Roll the test (TN 10)"]
    await ok(await table.gm.slash(table.channel, "init undo"))
    gone = await table.alice.click(fourth.response, label="Roll the test (TN 10)")
    assert gone.followups[0].ephemeral and "no longer on the tracker" in text_of(gone)
    assert fourth.response.components == []  # the button is taken away for everyone


async def test_the_test_button_works_after_a_restart_and_for_a_custom_action(
    table: Table,
) -> None:
    await fight(table)
    await ok(await table.alice.slash(table.channel, "init action", kind="Run"))
    custom = await ok(
        await table.alice.slash(table.channel, "init action", kind="custom", attribute="Strength")
    )
    assert labels(custom.response) == ["Roll the test (TN 5)"]  # Run took actions 1 and 2
    assert "without one, it needs a **TN 5 Strength test**" in text_of(custom)
    # Without an attribute a custom action's test is the Narrator's to name: no button.
    bare = await ok(await table.alice.slash(table.channel, "init action", kind="custom"))
    assert bare.response.components == []
    await table.env.restart_bot(create_bot(table.bot.settings, sync_globally=True))
    table.bot.dice = ScriptedDice([2, 1])  # 3 + 3 = 6 vs TN 5
    await table.gm.click(custom.response, label="Roll the test (TN 5)")
    rolled = table.channel.last_message.embeds[0]
    assert "2d6 (3) + 3 (Strength) = **6** vs TN 5" in rolled.description


async def test_the_coda_trackers_action_buttons(table: Table) -> None:
    await fight(table)
    shown = [c.label for row in tracker(table).components for c in row.children]
    assert shown == [
        "Next",
        "Delay",
        "Undo",
        "End",
        "Walk",
        "Run (2)",
        "Sprint (round)",
        "Drop prone",
        "Stand up",
    ]
    refused = await table.bob.click(tracker(table), label="Walk")
    assert refused.ephemeral and "whose combatant's turn it is" in text_of(refused)
    ran = await ok(await table.alice.click(tracker(table), label="Run (2)"))
    assert "🏃 **Harry**: Run (2 actions), no penalty." in text_of(ran)
    assert "0 of 2 actions left · next −5" in tracker_text(table)
    prone = await ok(await table.alice.click(tracker(table), label="Drop prone"))
    assert "a **TN 5 Nimbleness test** is needed" in text_of(prone)
    assert labels(prone.response) == ["Roll the test (TN 5)"]
    sprint = await table.alice.click(tracker(table), label="Sprint (round)")
    assert sprint.ephemeral and "full-round action" in text_of(sprint)
    # The GM presses for the NPC on its turn, after a restart (the buttons are persistent).
    await gm_next(table)
    await gm_next(table)
    await table.env.restart_bot(create_bot(table.bot.settings, sync_globally=True))
    walked = await ok(await table.gm.click(tracker(table), label="Walk"))
    assert "**Troll**: Walk (1 action)" in text_of(walked)
    # Other systems' trackers keep their four buttons.
    asked = await table.gm.slash(table.channel, "init end")
    await table.gm.click(asked.response, label="End the encounter")
    await start(table, system="h90")
    await ok(await add(table, "Goyle", 5))
    shown = [c.label for row in tracker(table).components for c in row.children]
    assert shown == ["Next", "Delay", "Undo", "End"]
