"""Rules as a GM plays them at the table, in English and Spanish: CODA initiative from
Swiftness, condition durations counted in the bearer's turns, NPCs' Health on the tracker in
Hogwarts 1990 attacks, CODA NPC attackers, the initiator rule only where it exists, and an
encounter's initiative attribute checked when it starts."""

from __future__ import annotations

from typing import Any

from engine.dice import ScriptedDice
from tests.bot.cogs.coda.test_coda_attack import harry_and_draco
from tests.bot.cogs.hogwarts1990.test_hogwarts1990_attack import three_students
from tests.bot.cogs.initiative.test_initiative import add, gm_next, ok, start, tracker_text
from tests.conftest import Table, embed_of, text_of


def spanish(table: Table, as_spanish: Any) -> None:
    for user in (table.gm, table.alice, table.bob, table.carol):
        as_spanish(user)


# ------------------------------------------------------------- CODA initiative: Swiftness


async def test_coda_join_without_swiftness_says_what_to_set(table: Table) -> None:
    await table.alice.slash(table.channel, "sheet create", name="Ron", system="coda")
    await start(table, system="coda")
    table.bot.dice = ScriptedDice([1, 5])
    refused = await table.alice.slash(table.channel, "init join")
    assert refused.ephemeral
    assert "Ron has no attribute `Swiftness`" in text_of(refused)
    assert "/sheet set attribute:Swiftness value:" in text_of(refused)
    await table.alice.slash(table.channel, "sheet set", attribute="Swiftness", value=2)
    joined = await ok(await table.alice.slash(table.channel, "init join"))
    assert "2d6 (1, 5) + 2 = **8**" in text_of(joined)
    # The Narrator's own modifier (the encounter's dice) needs no Swiftness.
    other = table.guild.create_text_channel("arena")
    await table.bob.slash(other, "sheet create", name="Seamus", system="coda")
    await ok(await table.gm.slash(other, "init start", system="coda", dice="2d6+1"))
    table.bot.dice = ScriptedDice([3, 4])
    assert "= **8**" in text_of(await ok(await table.bob.slash(other, "init join")))


async def test_coda_join_without_swiftness_in_spanish(table: Table, as_spanish: Any) -> None:
    spanish(table, as_spanish)
    await table.alice.slash(table.channel, "sheet create", name="Ron", system="coda")
    await start(table, system="coda")
    refused = await table.alice.slash(table.channel, "init join")
    assert refused.ephemeral and "Ron no tiene atributo `Swiftness`" in text_of(refused)
    assert "/sheet set attribute:Swiftness value:" in text_of(refused)


# ------------------------------------------------------------- condition durations


async def stunned_goblin(table: Table, **options: Any) -> Any:
    """Alice 18, Goblin 12; round 1, Alice's turn: the Goblin is Stunned for 1 round."""
    await start(table)
    await ok(await add(table, "Alice", 18))
    await ok(await add(table, "Goblin", 12))
    await gm_next(table)
    return await ok(
        await table.gm.slash(
            table.channel, "init condition add", target="Goblin", name="Stunned", **options
        )
    )


async def test_a_one_round_condition_lasts_the_bearers_next_turn(table: Table) -> None:
    await stunned_goblin(table, rounds=1)
    turn = await gm_next(table)  # the Goblin's turn: stunned through it
    assert "**Goblin**'s turn" in turn.response.content
    assert "wears off" not in turn.response.content
    assert "Stunned (last turn, ends as its next turn starts)" in tracker_text(table)
    await gm_next(table)  # round 2, Alice: still on until the Goblin's next turn starts
    assert "Stunned" in tracker_text(table)
    again = await gm_next(table)
    assert "⌛ **Goblin**: Stunned wears off." in again.response.content


async def test_a_one_round_condition_ticking_at_the_end_goes_with_that_turn(
    table: Table,
) -> None:
    await stunned_goblin(table, rounds=1, tick="end")
    turn = await gm_next(table)
    assert "wears off" not in turn.response.content
    assert "Stunned (1 round, ticks at end)" in tracker_text(table)
    ended = await gm_next(table)  # the Goblin's turn ends: gone
    assert "⌛ **Goblin**: Stunned wears off." in ended.response.content


async def test_condition_durations_in_spanish(table: Table, as_spanish: Any) -> None:
    spanish(table, as_spanish)
    await stunned_goblin(table, rounds=1)
    await gm_next(table)
    assert "Stunned (último turno, acaba al empezar su siguiente turno)" in tracker_text(table)


# ------------------------------------------------------------- Hogwarts 1990: NPC Health


async def h90_troll(table: Table) -> None:
    """Harry, Draco, Hermione's sheets; an H90 skirmish with a Troll NPC of Health 4."""
    await three_students(table)
    await start(table, system="h90")
    await ok(await add(table, "Troll", 9, health=4))


async def hit_troll(table: Table, damage: int, take: str = "Take it") -> Any:
    table.bot.dice = ScriptedDice([13, 2])  # 13 + Strength 3 = 16 vs 14: a hit
    result = await table.alice.slash(
        table.channel,
        "h90 attack",
        target="Troll",
        difficulty=14,
        attribute="Strength",
        damage=damage,
    )
    assert not result.ephemeral, text_of(result)
    await table.gm.click(result.response, label=take)
    return table.channel.last_message.embeds[0]


async def test_an_h90_hit_on_an_npc_lowers_its_health_on_the_tracker(table: Table) -> None:
    await h90_troll(table)
    shown = await hit_troll(table, 1)
    assert shown.title == "💥 Harry hits Troll: −1 Health"
    assert "4 → **3**/4" in shown.fields[-1].value
    assert "Troll — 9 · ❤️ 3/4" in tracker_text(table)
    # Stopping at 0: knocked out, never below.
    shown = await hit_troll(table, 5)
    assert "3 → **0**/4" in shown.fields[-1].value and "knocked out" in shown.fields[-1].value
    assert "Troll — 9 · ❤️ 0/4" in tracker_text(table)
    undone = await ok(await table.gm.slash(table.channel, "init undo"))
    assert "Troll" in text_of(undone) and "Troll — 9 · ❤️ 3/4" in tracker_text(table)


async def test_an_h90_hit_on_an_npc_in_spanish(table: Table, as_spanish: Any) -> None:
    spanish(table, as_spanish)
    await h90_troll(table)
    shown = await hit_troll(table, 1, take="Encajarlo")
    assert "4 → **3**/4" in shown.fields[-1].value
    assert "Troll — 9 · ❤️ 3/4" in tracker_text(table)


# ------------------------------------------------------------- /init start


async def test_coda_refuses_an_initiator_with_the_rule_it_has(table: Table) -> None:
    refused = await table.gm.slash(table.channel, "init start", system="coda", initiator="Ron")
    assert refused.ephemeral and "CODA has no initiator rule" in text_of(refused)
    assert "stress:True" in text_of(refused)
    await start(table, system="h90", initiator="Harry")  # Hogwarts 1990's own rule


async def test_a_misspelt_attribute_is_refused_at_start(table: Table) -> None:
    refused = await table.gm.slash(table.channel, "init start", system="h90", attribute="Humr")
    assert refused.ephemeral
    assert "No Hogwarts 1990 sheet here has an attribute `Humr`" in text_of(refused)
    assert "Strength, Dexterity, Toughness, Humor" in text_of(refused)
    # Any case of a known name; a sheet's own attribute; any name for another game.
    await start(table, system="h90", attribute="humor")
    await table.alice.slash(table.channel, "sheet create", name="Luna", system="h90")
    await table.alice.slash(table.channel, "sheet set", attribute="Whimsy", value=2)
    arena = table.guild.create_text_channel("arena")
    await ok(await table.gm.slash(arena, "init start", system="h90", attribute="whimsy"))
    other = table.guild.create_text_channel("other")
    await ok(await table.gm.slash(other, "init start", system="generic", attribute="Humr"))


async def test_start_refusals_in_spanish(table: Table, as_spanish: Any) -> None:
    spanish(table, as_spanish)
    refused = await table.gm.slash(table.channel, "init start", system="h90", attribute="Humr")
    assert refused.ephemeral and "`Humr`" in text_of(refused)
    assert "No hay ninguna ficha de Hogwarts 1990" in text_of(refused)
    coda = await table.gm.slash(table.channel, "init start", system="coda", initiator="Ron")
    assert coda.ephemeral and "CODA no tiene regla de iniciador" in text_of(coda)


# ------------------------------------------------------------- CODA NPCs and actions


async def coda_fight(table: Table) -> None:
    """Harry (Alice) 11, Draco (Bob) 6, Ron (Carol, no Dodge, Swiftness 2) 5, a Troll NPC
    at 4 with Health 20; round 1, Harry's turn."""
    await harry_and_draco(table)
    carol = table.carol
    await carol.slash(table.channel, "sheet create", name="Ron", system="coda")
    await carol.slash(table.channel, "sheet set", attribute="Swiftness", value=2)
    await carol.slash(table.channel, "sheet set", attribute="Defence", value=5)
    await carol.slash(table.channel, "sheet resource", name="Health", current=10, max=10)
    await start(table, system="coda")
    for member, faces in ((table.alice, [6, 5]), (table.bob, [3, 3]), (table.carol, [1, 2])):
        table.bot.dice = ScriptedDice(faces)
        await ok(await member.slash(table.channel, "init join"))
    await ok(await add(table, "Troll", 4, health=20))
    await gm_next(table)


async def troll_turn(table: Table) -> None:
    for _ in range(3):
        await gm_next(table)
    assert "Round 1 · **Troll**'s turn" in tracker_text(table)


async def test_a_coda_npc_without_a_sheet_attacks_on_its_turn(table: Table) -> None:
    await coda_fight(table)
    await troll_turn(table)
    table.bot.dice = ScriptedDice([3, 3])  # 6 + 4 = 10 vs Defence 9: a hit
    result = await ok(
        await table.gm.slash(
            table.channel,
            "coda attack",
            skill="Club",
            target="Draco",
            attacker="Troll",
            bonus=4,
            dice=2,
        )
    )
    embed = embed_of(result)
    assert embed.title == "⚔️ Troll hits Draco: defend?"
    assert "+ 4 (Troll)" in embed.fields[0].value
    assert "Troll's 1st action this round" in embed.fields[0].value
    assert "Troll** — 4 · 🏃 1 of 2 actions left" in tracker_text(table)
    table.bot.dice = ScriptedDice([2, 3])
    await table.bob.click(result.response, label="Take it")
    assert "❤️ 5/10" in tracker_text(table)  # Draco took 5
    # Only a GM plays an NPC; with a sheet's options it is refused.
    player = await table.alice.slash(
        table.channel, "coda attack", skill="Club", target="Draco", attacker="Troll", bonus=4
    )
    assert player.ephemeral and "GM" in text_of(player)
    mixed = await table.gm.slash(
        table.channel,
        "coda attack",
        skill="Club",
        target="Draco",
        attacker="Troll",
        character="Harry",
    )
    assert mixed.ephemeral and "without `character` or `attribute`" in text_of(mixed)


async def test_a_gms_roll_on_an_npcs_turn_is_the_npcs_only_when_it_is(table: Table) -> None:
    await coda_fight(table)
    await troll_turn(table)
    # A player's sheet the GM rolls is not the Troll's action.
    table.bot.dice = ScriptedDice([2, 2])
    harry = await ok(
        await table.gm.slash(
            table.channel, "coda attribute", name="Strength", character="Harry", tn=10
        )
    )
    assert "action this round" not in (embed_of(harry).description or "")
    # action:False: a test for something else, nothing spent.
    table.bot.dice = ScriptedDice([2, 2])
    other = await ok(
        await table.gm.slash(table.channel, "coda test", modifier=3, tn=10, action=False)
    )
    assert "action this round" not in (embed_of(other).description or "")
    assert "🏃" not in tracker_text(table).split("**Troll** — 4")[1]
    # By default the GM's test on the Troll's turn is the Troll's.
    table.bot.dice = ScriptedDice([2, 2])
    own = await ok(await table.gm.slash(table.channel, "coda test", modifier=3, tn=10))
    assert "Troll's 1st action this round" in (embed_of(own).description or "")


async def test_a_defender_without_dodge_dodges_untrained_with_swiftness(table: Table) -> None:
    await coda_fight(table)
    table.bot.dice = ScriptedDice([3, 2])  # 5 + 5 = 10 vs Ron's Defence 5
    result = await ok(
        await table.alice.slash(table.channel, "coda attack", skill="Melee", target="Ron")
    )
    table.bot.dice = ScriptedDice([6, 5])  # 11 + 2 − 2 = 11 vs the attack's 10
    await table.carol.click(result.response, label="Dodge")
    shown = table.channel.last_message.embeds[0]
    assert shown.title == "🛡️ Ron dodges Harry's attack"
    assert "+ 2 (Swiftness) − 2 (untrained) = **11** vs TN 10" in shown.fields[1].value


async def test_npc_attackers_and_untrained_dodges_in_spanish(table: Table, as_spanish: Any) -> None:
    spanish(table, as_spanish)
    await coda_fight(table)
    table.bot.dice = ScriptedDice([3, 2])
    result = await ok(
        await table.alice.slash(table.channel, "coda attack", skill="Melee", target="Ron")
    )
    table.bot.dice = ScriptedDice([6, 5])
    await table.carol.click(result.response, label="Esquivar")
    shown = table.channel.last_message.embeds[0]
    assert "+ 2 (Swiftness) − 2 (sin entrenar) = **11**" in shown.fields[1].value
    player = await table.alice.slash(
        table.channel, "coda attack", skill="Club", target="Draco", attacker="Troll", bonus=4
    )
    assert player.ephemeral and "DJ" in text_of(player)


# ------------------------------------------------------------- every test on your turn


async def test_opposed_combined_and_extended_tests_on_your_turn_are_actions(
    table: Table,
) -> None:
    await coda_fight(table)  # Harry's turn
    table.bot.dice = ScriptedDice([3, 3, 2, 2])
    first = await ok(
        await table.alice.slash(table.channel, "coda opposed", a="Harry", a_skill="Melee", b="+3")
    )
    assert "🏃 Harry's 1st action this round · 1 of 2 left" in embed_of(first).description
    assert "Harry** — 11 · 🏃 1 of 2 actions left" in tracker_text(table)
    table.bot.dice = ScriptedDice([3, 3, 4, 4])  # helper +1: 6 + 1 ≥ 5; leader 8 + 5 + 1
    second = await ok(
        await table.alice.slash(
            table.channel, "coda combined", leader="Harry", helpers="+1", skill="Melee", tn=10
        )
    )
    assert "Harry's 2nd action this round · 0 of 2 left" in embed_of(second).fields[0].value
    await table.alice.slash(table.channel, "coda extended start", name="Barricade", stages="30")
    table.bot.dice = ScriptedDice([4, 4])
    # A player with a sheet rolls a skill from it (a bare modifier is refused to players).
    third = await ok(await table.alice.slash(table.channel, "coda extended roll", skill="Melee"))
    # The 3rd action takes its −5 by itself.
    assert "− 5 (extra action, 3rd)" in (embed_of(third).description)
    assert "Harry's 3rd action this round (−5)" in embed_of(third).description
    # Off its turn nothing is spent: Draco's opposed test.
    table.bot.dice = ScriptedDice([3, 3, 2, 2])
    off = await ok(
        await table.bob.slash(table.channel, "coda opposed", a="Draco", a_skill="Dodge", b="+3")
    )
    assert "action this round" not in embed_of(off).description


async def test_a_gms_opposed_side_b_on_the_npcs_turn_is_the_npcs_action(table: Table) -> None:
    await coda_fight(table)
    await troll_turn(table)
    table.bot.dice = ScriptedDice([3, 3, 2, 2])
    result = await ok(
        await table.gm.slash(
            table.channel, "coda opposed", a="Draco", a_skill="Dodge", b="Troll +4"
        )
    )
    assert "Troll's 1st action this round" in embed_of(result).description


async def test_b_attribute_alone_is_the_attribute_rolled(table: Table) -> None:
    await coda_fight(table)
    await troll_turn(table)
    table.bot.dice = ScriptedDice([3, 3, 2, 2])
    result = await ok(
        await table.gm.slash(
            table.channel, "coda opposed", a="+3", b="Ron", b_attribute="Swiftness"
        )
    )
    side_b = embed_of(result).fields[1]
    assert "Ron · Swiftness" in side_b.name and "+ 2 (Swiftness)" in side_b.value
    assert "untrained" not in side_b.value


async def test_actions_of_every_test_in_spanish(table: Table, as_spanish: Any) -> None:
    spanish(table, as_spanish)
    await coda_fight(table)
    table.bot.dice = ScriptedDice([3, 3, 2, 2])
    first = await ok(
        await table.alice.slash(table.channel, "coda opposed", a="Harry", a_skill="Melee", b="+3")
    )
    assert "1.ª acción" in embed_of(first).description


# ------------------------------------------------------------- Drama: a GM's NPC sheet


async def gm_ogre(table: Table) -> None:
    """The GM's NPC sheets: Ogre (Physical 2, one penalty die) and Goblin (none active)."""
    for name in ("Ogre", "Goblin"):
        await table.gm.slash(table.channel, "sheet create", name=name, system="drama")
    await table.gm.slash(
        table.channel, "sheet set", attribute="Physical", value=2, character="Ogre"
    )
    await table.gm.slash(table.channel, "penalty add", character="Ogre", amount=1)


async def test_a_gm_opposes_their_own_npcs_drama_sheet(table: Table) -> None:
    await gm_ogre(table)
    # GM: 4Bd {5,5,3,3} net 2. Ogre: Physical 2 → 4Bd {5,5,5,5} + 1Rd (its penalty die) {2}.
    table.bot.dice = ScriptedDice([5, 5, 3, 3, 5, 5, 5, 5, 2])
    result = await ok(
        await table.gm.slash(
            table.channel,
            "drama opposed",
            base=4,
            their_name="Ogre",
            their_attribute="Physical",
        )
    )
    text = text_of(result)
    assert embed_of(result).title == "🏆 Ogre wins by 1"
    assert "**Ogre**: net 3" in text and "4Bd · 1Rd" in text


async def test_a_gms_drama_npc_in_spanish(table: Table, as_spanish: Any) -> None:
    spanish(table, as_spanish)
    await gm_ogre(table)
    table.bot.dice = ScriptedDice([5, 5, 3, 3, 5, 5, 5, 5, 2])
    result = await ok(
        await table.gm.slash(
            table.channel,
            "drama opposed",
            base=4,
            their_name="Ogre",
            their_attribute="Physical",
        )
    )
    assert "Ogre" in embed_of(result).title
