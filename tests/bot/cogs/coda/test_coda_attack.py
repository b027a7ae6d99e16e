"""``/coda attack`` as a table plays it: the attack, the defender's buttons (pressed by the
right and the wrong user), damage taken from Health, secrecy, restarts and bad input."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.actor import Actor
from bot.app import create_bot
from bot.services import coda as service
from bot.services.attack_exchange import ExchangeClosed
from engine.dice import ScriptedDice
from engine.systems.coda import Defence
from tests.conftest import Table, embed_of, text_of


async def harry_and_draco(table: Table) -> None:
    """Alice plays Harry (Melee 2 + Strength 3 = +5), Bob plays Draco (Defence 9, Health 10,
    Dodge 2 + Nimbleness 3 = +5, Parry 1 + Strength 1 = +2)."""
    alice, bob, channel = table.alice, table.bob, table.channel
    await alice.slash(channel, "sheet create", name="Harry", system="coda")
    await alice.slash(channel, "sheet set", attribute="Swiftness", value=0)
    await alice.slash(channel, "sheet set", attribute="Strength", value=3)
    await alice.slash(channel, "sheet skill", name="Melee", ranks=2, attribute="Strength")
    await bob.slash(channel, "sheet create", name="Draco", system="coda")
    await bob.slash(channel, "sheet set", attribute="Swiftness", value=0)
    await bob.slash(channel, "sheet set", attribute="Strength", value=1)
    await bob.slash(channel, "sheet set", attribute="Nimbleness", value=3)
    await bob.slash(channel, "sheet set", attribute="Defence", value=9)
    await bob.slash(channel, "sheet skill", name="Dodge", ranks=2, attribute="Nimbleness")
    await bob.slash(channel, "sheet skill", name="Parry", ranks=1, attribute="Strength")
    await bob.slash(channel, "sheet resource", name="Health", current=10, max=10)
    await bob.slash(channel, "sheet use", character="Draco")


def labels(message) -> list[str]:
    """The buttons' labels of a sent message (or of an interaction's response)."""
    rows = message.components
    return [
        child["label"] if isinstance(child, dict) else child.label
        for row in rows
        for child in (row["components"] if isinstance(row, dict) else row.children)
    ]


async def hit_draco(table: Table, *, ranged: bool = False):
    """Harry rolls 3 + 2 + 5 = 10 against Draco's Defence 9: a Marginal Success, a hit."""
    table.bot.dice = ScriptedDice([3, 2])
    result = await table.alice.slash(
        table.channel,
        "coda attack",
        skill="Melee",
        target="Draco",
        dice=2,
        modifier=1,
        ranged=ranged,
    )
    assert not result.ephemeral, text_of(result)
    return result


async def test_a_hit_waits_for_the_defender_who_parries(table: Table) -> None:
    await harry_and_draco(table)
    result = await hit_draco(table)
    embed = embed_of(result)
    assert embed.title == "⚔️ Harry hits Draco: defend?"
    assert "2d6 (5) + 3 (Strength) + 2 (Melee ranks) = **10** vs TN 9" in embed.fields[0].value
    assert "TN = Draco's Defence 9 (from the sheet)" in embed.fields[0].value
    assert f"Waiting for <@{table.bob.id}> (or the GM): Dodge, Parry, Take it." in (
        embed.description
    )
    assert labels(result.response) == ["Dodge", "Parry", "Take it"]
    # Carol is not the defender: a short refusal, and the exchange still waits.
    refused = await table.carol.click(result.response, label="Parry")
    assert refused.ephemeral
    assert f"Only <@{table.bob.id}> (or the GM) answers this attack on Draco." in text_of(refused)
    # Bob parries: 6 + 5 + 2 = 13 against the attack's 10.
    table.bot.dice = ScriptedDice([6, 5])
    await table.bob.click(result.response, label="Parry")
    message = table.channel.last_message
    shown = message.embeds[0]
    assert shown.title == "🛡️ Draco parries Harry's attack"
    assert "2d6 (11) + 1 (Strength) + 1 (Parry ranks) = **13** vs TN 10" in shown.fields[1].value
    assert message.components == []
    sheet = await table.bob.slash(table.channel, "sheet show")
    assert "10/10" in text_of(sheet)


async def test_a_failed_dodge_takes_damage_rolling_sixes_from_health(table: Table) -> None:
    await harry_and_draco(table)
    result = await hit_draco(table)
    # Dodge 1 + 1 + 5 = 7 < 10; damage 2d6 [6, 6] rolls on: 💥[2], + 1 = 15 → Health −5.
    table.bot.dice = ScriptedDice([1, 1, 6, 6, 2])
    await table.bob.click(result.response, label="Dodge")
    shown = table.channel.last_message.embeds[0]
    assert shown.title == "💥 Harry hits Draco: 15 damage"
    assert "does not avoid" not in shown.fields[1].value  # the dice are shown, not the note
    assert "[6] [6] 💥[2]" in shown.fields[2].value
    assert "2d6 + 1 extra d6 (14) + 1 = **15**" in shown.fields[2].value
    assert "❤️ Draco's Health: 10 → **−5**/10" in shown.fields[2].value
    history = await table.bob.slash(table.channel, "history")
    assert "damage 2d6+1 to Draco" in text_of(history)


async def test_take_it_rolls_damage_at_once_and_a_gm_may_answer(table: Table) -> None:
    await harry_and_draco(table)
    result = await hit_draco(table)
    table.bot.dice = ScriptedDice([2, 3])
    await table.gm.click(result.response, label="Take it")
    shown = table.channel.last_message.embeds[0]
    assert shown.title == "💥 Harry hits Draco: 6 damage"
    assert "Takes it" in shown.fields[1].value
    assert "10 → **4**/10" in shown.fields[2].value


async def test_a_miss_has_no_buttons(table: Table) -> None:
    await harry_and_draco(table)
    table.bot.dice = ScriptedDice([1, 2])  # 8 < 9
    result = await table.alice.slash(table.channel, "coda attack", skill="Melee", target="Draco")
    assert embed_of(result).title == "⚔️ Harry attacks Draco: a miss"
    assert result.response.components == []


async def test_only_dodge_against_a_ranged_attack(table: Table) -> None:
    await harry_and_draco(table)
    result = await hit_draco(table, ranged=True)
    assert labels(result.response) == ["Dodge", "Take it"]
    assert "Only Dodge works against a ranged attack." in embed_of(result).description
    actor = Actor(user_id=table.bob.id, channel_id=table.channel.id, guild_id=table.guild.id)
    with pytest.raises(Exception, match="Only Dodge avoids a ranged attack"):
        await service.answer(
            table.bot.db, ScriptedDice([6, 6]), actor, 1, Defence.PARRY, now=table.env.now()
        )


async def test_an_npc_with_a_given_defence_is_answered_by_the_gm(table: Table) -> None:
    await harry_and_draco(table)
    table.bot.dice = ScriptedDice([5, 5])  # 15 vs 12: Marginal Success
    result = await table.alice.slash(
        table.channel, "coda attack", skill="Melee", target="Troll", defence=12, npc_defend=3
    )
    assert "Waiting for the GM (for the NPC)" in embed_of(result).description
    refused = await table.alice.click(result.response, label="Dodge")
    assert "Only the GM answers this attack on Troll." in text_of(refused)
    table.bot.dice = ScriptedDice([4, 4, 3])  # 8 + 3 = 11 < 15; damage 1d6 = 3
    await table.gm.click(result.response, label="Dodge")
    shown = table.channel.last_message.embeds[0]
    assert shown.title == "💥 Harry hits Troll: 3 damage"
    assert "2d6 (8) + 3 (modifier) = **11** vs TN 15" in shown.fields[1].value
    assert "The NPC has no sheet" in shown.fields[2].value


async def test_an_exchange_resumes_after_a_restart(table: Table) -> None:
    await harry_and_draco(table)
    result = await hit_draco(table)
    first = table.bot
    await table.env.restart_bot(create_bot(table.bot.settings, sync_globally=True))
    assert table.bot is not first
    table.bot.dice = ScriptedDice([1, 1, 3, 3])
    await table.bob.click(result.response, label="Dodge")
    shown = table.channel.last_message.embeds[0]
    assert shown.title == "💥 Harry hits Draco: 7 damage"
    assert "10 → **3**/10" in shown.fields[2].value


async def test_finished_and_expired_exchanges_refuse_politely(table: Table) -> None:
    await harry_and_draco(table)
    await hit_draco(table)
    actor = Actor(user_id=table.bob.id, channel_id=table.channel.id, guild_id=table.guild.id)
    now = table.env.now()
    await service.answer(table.bot.db, ScriptedDice([1, 1]), actor, 1, Defence.TAKE, now=now)
    with pytest.raises(ExchangeClosed, match="already over"):
        await service.answer(table.bot.db, ScriptedDice([1, 1]), actor, 1, Defence.TAKE, now=now)
    with pytest.raises(ExchangeClosed, match="no longer known"):
        await service.answer(table.bot.db, ScriptedDice([1]), actor, 99, Defence.TAKE, now=now)
    late = await hit_draco(table)
    await table.env.advance_time(int(timedelta(hours=25).total_seconds()))
    refused = await table.bob.click(late.response, label="Take it")
    assert "Too late" in text_of(refused)
    assert table.channel.last_message.components == []


async def test_a_secret_attack_shows_the_table_no_dice(table: Table) -> None:
    await harry_and_draco(table)
    table.bot.dice = ScriptedDice([3, 2])
    result = await table.alice.slash(
        table.channel, "coda attack", skill="Melee", target="Draco", secret=True
    )
    assert result.ephemeral
    assert "**10** vs TN 9" in embed_of(result).fields[0].value
    public = table.channel.last_message
    assert public.embeds[0].title == "⚔️ Harry hits Draco: defend?"
    assert "**10**" not in public.embeds[0].fields[0].value
    assert "rolled in secret" in public.embeds[0].fields[0].value
    table.bot.dice = ScriptedDice([1, 1, 4])
    answered = await table.bob.click(public, label="Dodge")
    own = answered.followups[0]  # Bob's own copy, with the dice
    assert own.ephemeral
    assert "❤️ Draco's Health: 10 → **6**/10" in own.embeds[0].fields[2].value
    shown = answered.response
    assert shown.id == public.id
    assert shown.embeds[0].title == "💥 Harry hits Draco"
    assert "Draco is hurt" in shown.embeds[0].fields[2].value
    assert "→" not in shown.embeds[0].fields[2].value
    dm = table.gm.user.dm_channel.last_message
    assert dm is not None and "❤️ Draco's Health: 10 → **6**/10" in dm.embeds[0].fields[2].value


async def test_bad_input_is_refused_kindly(table: Table) -> None:
    no_sheet = await table.carol.slash(
        table.channel, "coda attack", skill="Melee", target="Draco", defence=9
    )
    assert no_sheet.ephemeral and "no character" in text_of(no_sheet).casefold()
    await harry_and_draco(table)
    unknown = await table.alice.slash(table.channel, "coda attack", skill="Melee", target="Nobody")
    assert unknown.ephemeral and "give its `defence`" in text_of(unknown)
    untrained = await table.alice.slash(table.channel, "coda attack", skill="Brawl", target="Draco")
    assert untrained.ephemeral and "untrained attempt" in text_of(untrained)
    table.bot.dice = ScriptedDice([6, 5])
    hostile = await table.alice.slash(
        table.channel,
        "coda attack",
        skill="Brawl",
        attribute="Strength",
        target="@everyone **Troll**",
        defence=5,
    )
    embed = embed_of(hostile)
    assert "@\u200beveryone \\*\\*Troll\\*\\*" in embed.title
    assert "2d6 (11) + 3 (Strength) − 2 (untrained) = **12**" in embed.fields[0].value


async def test_no_player_attacks_with_another_players_character(table: Table) -> None:
    await harry_and_draco(table)
    refused = await table.bob.slash(
        table.channel, "coda attack", skill="Melee", target="Draco", character="Harry"
    )
    assert refused.ephemeral and "no character called `Harry` that you can use" in text_of(refused)
    no_defence = await table.bob.slash(table.channel, "coda attack", skill="Dodge", target="Harry")
    assert no_defence.ephemeral and "Harry's sheet has no Defence" in text_of(no_defence)


async def test_the_tracker_shows_health_after_damage(table: Table) -> None:
    from tests.bot.cogs.initiative.test_initiative import tracker_text

    await harry_and_draco(table)
    await table.gm.slash(table.channel, "init start", system="coda")
    table.bot.dice = ScriptedDice([3, 3])
    await table.bob.slash(table.channel, "init join")
    assert "Draco — 6" in tracker_text(table) and "❤️ 10/10" in tracker_text(table)
    result = await hit_draco(table)
    table.bot.dice = ScriptedDice([2, 2])
    await table.bob.click(result.response, label="Take it")
    assert "Draco — 6 · ❤️ 5/10" in tracker_text(table)  # 2 + 2 + 1 damage
