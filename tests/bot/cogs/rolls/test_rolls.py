"""``/roll`` as a player uses it: results, labels, secret rolls, and every kind of bad input."""

from __future__ import annotations

import pytest
from simcord.backend.errors import OptionError

from engine.dice import ScriptedDice
from tests.conftest import Table, embed_of, text_of


async def test_roll_shows_every_die_and_the_total(table: Table) -> None:
    table.bot.dice = ScriptedDice([6, 2, 5, 1])
    result = await table.alice.slash(
        table.channel, "roll", expression="4d6kh3 + 2", label="strength"
    )
    embed = embed_of(result)
    assert not result.ephemeral
    assert embed.title == "🎲 15 — strength"
    assert "4d6kh3 (**6**, 2, 5, ~~**1**~~) + 2 = `15`" in embed.description
    assert "alice rolled 4d6kh3 + 2" in embed.footer.text


async def test_roll_comment_becomes_the_label(table: Table) -> None:
    table.bot.dice = ScriptedDice([20])
    result = await table.alice.slash(table.channel, "roll", expression="1d20 sneak attack")
    assert embed_of(result).title == "🎲 20 — sneak attack"


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("1000001d6", "1000001d6: at most 250 dice per roll"),
        ("200d6+200d6", "at most 250 dice per roll"),
        ("1d1001", "dice have 1 to 1000 sides"),
        ("1d1e1", "would reroll or explode forever"),
        ("banana", "is not dice notation"),
        ("1/0", "Cannot divide by zero"),
        ("   ", "The expression is empty"),
    ],
)
async def test_bad_expressions_get_a_short_private_explanation(
    table: Table, expression: str, message: str
) -> None:
    result = await table.alice.slash(table.channel, "roll", expression=expression)
    assert result.ephemeral
    assert message in result.response.content
    assert "Traceback" not in result.response.content


async def test_empty_and_huge_expressions_are_refused_by_the_option_limits(table: Table) -> None:
    # Discord's client enforces the declared length limits before the bot is called.
    with pytest.raises(OptionError):
        await table.alice.slash(table.channel, "roll", expression="")
    with pytest.raises(OptionError):
        await table.alice.slash(table.channel, "roll", expression="1d6+" * 2500)


async def test_secret_roll_goes_to_the_roller_and_the_gm(table: Table) -> None:
    table.bot.dice = ScriptedDice([3, 4])
    result = await table.alice.slash(table.channel, "roll", expression="2d6", secret=True)
    assert result.ephemeral
    assert embed_of(result).title == "🎲 7"
    dm = table.gm.user.dm_channel.last_message  # the GM got a direct message
    assert dm is not None and "Secret roll by" in dm.content
    assert dm.embeds[0].title == "🎲 7"
    assert table.bob.user.dm_channel.last_message is None
    # Other players do not see secret rolls in the history; the GM does, and so does the
    # roller (their own, privately: /history answers ephemerally).
    history = await table.bob.slash(table.channel, "history")
    assert "2d6" not in text_of(history)
    history = await table.gm.slash(table.channel, "history")
    assert "`2d6` → **7**" in text_of(history)
    own = await table.alice.slash(table.channel, "history")
    assert own.ephemeral and "`2d6` → **7** 🔒" in text_of(own)
    assert "your secret rolls are shown to you and the GMs only" in text_of(own)
    table.bot.dice = ScriptedDice([5])
    await table.bob.slash(table.channel, "roll", expression="1d6", secret=True)
    own = await table.alice.slash(table.channel, "history")
    assert "1d6" not in text_of(own)  # bob's secret stays bob's


async def test_secret_rolls_can_be_refused_or_opened_by_the_gm(table: Table) -> None:
    await table.gm.slash(table.channel, "settings secret", mode="off")
    refused = await table.alice.slash(table.channel, "roll", expression="2d6", secret=True)
    assert refused.ephemeral and "Secret rolls are off" in refused.response.content
    await table.gm.slash(table.channel, "settings secret", mode="open")
    public = await table.alice.slash(table.channel, "roll", expression="2d6", secret=True)
    assert not public.ephemeral


async def test_every_roll_is_logged(table: Table) -> None:
    for _ in range(3):
        await table.alice.slash(table.channel, "roll", expression="1d20")
    history = await table.alice.slash(table.channel, "history", count=2)
    assert text_of(history).count("`1d20`") == 2


async def test_the_log_survives_a_restart(table: Table) -> None:
    table.bot.dice = ScriptedDice([4])
    await table.alice.slash(table.channel, "roll", expression="1d6")
    await table.env.restart_bot()
    history = await table.alice.slash(table.channel, "history")
    assert "`1d6` → **4**" in text_of(history)


async def test_a_secret_roll_nobody_else_can_see_says_so(table: Table) -> None:
    # No GM channel, and every direct message to a GM fails (DMs closed).
    table.env.inject_error("POST", "/channels/*/messages", status=403, times=None)
    result = await table.alice.slash(table.channel, "roll", expression="1d6", secret=True)
    assert result.ephemeral
    assert any(
        "Nobody else could see this secret roll" in followup.content
        for followup in result.followups
    )


async def test_whoever_started_the_encounter_gets_secret_rolls(table: Table) -> None:
    # The GM starts an encounter, then loses the GM role: they stay the channel's GM as its
    # starter, which Discord cannot tell but the database can.
    started = await table.gm.slash(table.channel, "init start")
    assert not started.ephemeral
    table.guild.remove_member(table.gm)
    former = table.guild.add_member(table.gm.user)
    result = await table.alice.slash(table.channel, "roll", expression="1d6", secret=True)
    # somebody saw it (the one follow-up is the table's notice with the commitment)
    assert not any("Nobody else could see" in f.content for f in result.followups)
    dm = former.user.dm_channel.last_message
    assert dm is not None and "Secret roll by" in dm.content
    history = await former.slash(table.channel, "history")
    assert "`1d6`" in text_of(history)  # and, as a GM, sees it in the history


async def test_nul_characters_never_reach_the_database(table: Table) -> None:
    table.bot.dice = ScriptedDice([2])
    result = await table.alice.slash(table.channel, "roll", expression="1d6", label="sneak\x00y")
    assert embed_of(result).title == "🎲 2 — sneaky"
    assert "sneaky" in text_of(await table.alice.slash(table.channel, "history"))


async def test_a_reading_that_differs_is_named(table: Table) -> None:
    table.bot.dice = ScriptedDice([6, 2, 5, 1])
    result = await table.alice.slash(table.channel, "roll", expression="4d6k3")
    embed = embed_of(result)
    assert embed.title == "🎲 13"
    assert embed.description.startswith("Read as `4d6kh3`")
    assert "alice rolled 4d6kh3" in embed.footer.text
    history = await table.alice.slash(table.channel, "history")
    assert "`4d6kh3` → **13**" in text_of(history)


async def test_a_reading_as_typed_is_not_named(table: Table) -> None:
    table.bot.dice = ScriptedDice([6, 2, 5, 1])
    result = await table.alice.slash(table.channel, "roll", expression="4d6kh3")
    assert "Read as" not in embed_of(result).description


async def test_a_pool_counts_successes_and_names_a_botch(table: Table) -> None:
    table.bot.dice = ScriptedDice([8, 1, 9, 1, 3])
    result = await table.alice.slash(table.channel, "roll", expression="5d10 t8 f1")
    embed = embed_of(result)
    assert embed.title == "🎲 0"
    assert "successes 2 − failures 2 = **0**" in embed.description
    table.bot.dice = ScriptedDice([1, 3, 4, 5])
    botched = embed_of(await table.alice.slash(table.channel, "roll", expression="4wod8"))
    assert botched.title == "🎲 −1"
    assert "Read as `4d10 t8 f1`" in botched.description
    assert "**botch**" in botched.description


async def test_several_rolls_in_one_reply(table: Table) -> None:
    table.bot.dice = ScriptedDice([1] * 24 + [20])
    result = await table.alice.slash(
        table.channel, "roll", expression="6 4d6 k3 ; 1d20 + 5 ! to hit"
    )
    embed = embed_of(result)
    assert embed.title == "🎲 3 · 3 · 3 · 3 · 3 · 3 · 25 — to hit"
    assert "Read as `6x4d6kh3 ; 1d20 + 5`" in embed.description
    assert embed.description.count("4d6kh3 (") == 6


async def test_the_biggest_reply_stays_within_discords_limits(table: Table) -> None:
    table.bot.dice = ScriptedDice([1] * 4 * 20 * 4)
    # The most rolls one command may ask for: four rolls of twenty, within the work budget.
    expression = " ; ".join(["20 4d6 k3 ! a very long comment for every roll"] * 4)
    result = await table.alice.slash(table.channel, "roll", expression=expression)
    embed = embed_of(result)
    assert len(embed.description) <= 4096
    assert len(embed.title) <= 256
    assert len(embed) <= 6000


async def test_a_system_alias_it_does_not_read_is_named(table: Table) -> None:
    result = await table.alice.slash(table.channel, "roll", expression="sw8")
    assert result.ephemeral
    assert "`sw8` is a Dice Maiden system alias" in result.response.content
