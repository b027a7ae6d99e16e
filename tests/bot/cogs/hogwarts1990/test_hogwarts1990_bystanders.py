"""``/h90 attack``'s buttons pressed by bystanders, as the CODA exchange's are
(tests/bot/cogs/test_fair_share.py): refused from the bot's memory of the exchange, with no
read of the database, while the defender, a delayer's player and the GM still answer; and a
GM made by a command is never refused from that memory."""

from __future__ import annotations

from typing import Any

from bot.app import create_bot
from engine.dice import ScriptedDice
from tests.bot.cogs.hogwarts1990.test_hogwarts1990_attack import (
    harry_hits_draco,
    skirmish,
    three_students,
)
from tests.bot.cogs.test_fair_share import counted_queries
from tests.conftest import Table, text_of

#: What a refusal from memory never reads: the exchange, who is a GM, the tracker, sheets.
EXCHANGE_TABLES = ("attack_exchanges", "gm_roles", "encounter", "quidditch", "characters")


def exchange_reads(queries: list[str]) -> list[str]:
    return [q for q in queries if any(name in q for name in EXCHANGE_TABLES)]


async def presses(member: Any, message: Any, label: str, count: int = 10) -> list[str]:
    return [text_of(await member.click(message, label=label)) for _ in range(count)]


async def test_ten_presses_by_a_bystander_read_nothing_and_draco_still_dodges(
    table: Table,
) -> None:
    await three_students(table)
    attack = await harry_hits_draco(table)
    with counted_queries(table) as queries:
        refused = await presses(table.carol, attack.response, "Dodge")
        refused += await presses(table.carol, attack.response, "Take it")
    only_bob = f"Only <@{table.bob.id}> (or the GM) answers this attack on Draco."
    assert all(only_bob in text for text in refused)
    assert exchange_reads(queries) == [], queries
    # Bob, the defender, still answers: the database decides his press.
    table.bot.dice = ScriptedDice([])
    dodged = await table.bob.click(attack.response, label="Dodge")
    assert "answers this attack" not in text_of(dodged)
    assert table.channel.last_message.embeds[0].title == "🛡️ Draco dodges Harry's attack"


async def test_a_delayers_button_is_guarded_for_its_player_alone(table: Table) -> None:
    await three_students(table)
    await skirmish(table)
    await table.gm.slash(table.channel, "init next")  # Draco's turn
    await table.bob.slash(table.channel, "init delay")  # Draco delays; Hermione's turn
    await table.carol.slash(table.channel, "init next")  # round 2: Harry's turn
    table.bot.dice = ScriptedDice([17, 4])  # 17 + 2 = 19 vs 15
    result = await table.gm.slash(
        table.channel, "h90 attack", target="Hermione", difficulty=15, bonus=2, attacker="Goyle"
    )
    cover = "Draco dodges for them"
    with counted_queries(table) as queries:
        # Alice is neither Draco's player nor a GM; Carol defends, but not with Draco.
        refused = await presses(table.alice, result.response, cover)
        refused += await presses(table.carol, result.response, cover, count=1)
    assert all(
        "Only Draco's player (or the GM) answers this attack on Hermione." in text
        for text in refused
    )
    assert exchange_reads(queries) == [], queries
    await table.bob.click(result.response, label=cover)  # 15 + 3 = 18 < 19
    assert table.channel.last_message.embeds[0].fields[1].name == "🛡️ Draco dodges for Hermione"


async def test_after_a_restart_one_read_and_the_gm_still_answers(table: Table) -> None:
    await three_students(table)
    attack = await harry_hits_draco(table, damage=2)
    await table.env.restart_bot(create_bot(table.bot.settings, sync_globally=True))
    with counted_queries(table) as first:
        refused = await table.carol.click(attack.response, label="Dodge")  # read, remembered
    assert "answers this attack on Draco" in text_of(refused)
    assert exchange_reads(first)  # the new guard knew nothing: it read the exchange once
    with counted_queries(table) as queries:
        again = await presses(table.carol, attack.response, "Dodge")
    assert all("answers this attack on Draco" in text for text in again)
    assert exchange_reads(queries) == [], queries
    # The GM's press is never refused from memory: the database decides, and it answers.
    table.bot.dice = ScriptedDice([])
    taken = await table.gm.click(attack.response, label="Take it")
    assert "answers this attack" not in text_of(taken)
    assert "💥 Harry hits Draco: −2 Health" in text_of(taken)


async def test_a_player_made_gm_by_the_command_is_not_refused_next_press(table: Table) -> None:
    storyteller = table.guild.create_role("Storyteller")
    dave = table.guild.add_member(table.env.create_user("dave"), roles=[storyteller])
    await three_students(table)
    attack = await harry_hits_draco(table, damage=2)
    refused = await dave.click(attack.response, label="Take it")  # not a GM yet
    assert "answers this attack on Draco" in text_of(refused)
    added = await table.gm.slash(table.channel, "settings gm-role", role=storyteller)
    assert not added.ephemeral, text_of(added)
    # At once (no minute of stale memory): Dave is a GM now, and answers for Draco.
    table.bot.dice = ScriptedDice([])
    taken = await dave.click(attack.response, label="Take it")
    assert "answers this attack" not in text_of(taken)
    assert "💥 Harry hits Draco: −2 Health" in text_of(taken)
