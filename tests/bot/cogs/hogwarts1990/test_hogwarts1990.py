"""``/h90 roll`` and ``/h90 opposed`` as players use them, with every refusal."""

from __future__ import annotations

import pytest
from simcord.backend.errors import OptionError

from engine.dice import ScriptedDice
from tests.conftest import Table, embed_of, text_of


async def roll(table: Table, faces: list[int], member=None, **options) -> object:
    table.bot.dice = ScriptedDice(faces)
    result = await (member or table.alice).slash(table.channel, "h90 roll", **options)
    return result


async def test_a_standard_roll_keeps_the_higher_die(table: Table) -> None:
    result = await roll(table, [4, 15], bonus=3, difficulty=18, label="climb the tower")
    embed = embed_of(result)
    assert embed.title == "✅ Success — climb the tower"
    assert "**Dice:** [4] **[15]** (standard roll: keeps the higher)" in embed.description
    assert "15 + 3 = **18** vs 18" in embed.description
    assert "Chance: 51.0% · exceptional 1.5% · critical failure 3.5%" in embed.description
    assert "alice · Hogwarts 1990" in embed.footer.text


async def test_a_stress_roll_keeps_the_lower_die(table: Table) -> None:
    embed = embed_of(await roll(table, [4, 15], bonus=3, difficulty=18, stress=True))
    assert embed.title.startswith("❌ Failure")
    assert "[4] **[15]**" not in embed.description
    assert "**[4]** [15] (stress roll: keeps the lower)" in embed.description


async def test_doubles_make_an_exceptional_success_or_a_critical_failure(table: Table) -> None:
    embed = embed_of(await roll(table, [12, 12], bonus=2, difficulty=14))
    assert embed.title.startswith("🌟 Exceptional success")
    assert "Doubles on a success" in embed.description
    embed = embed_of(await roll(table, [3, 3], bonus=2, difficulty=14))
    assert embed.title.startswith("💀 Critical failure")


async def test_advantage_rerolls_the_lower_die(table: Table) -> None:
    embed = embed_of(await roll(table, [3, 11, 17], bonus=1, difficulty=15, advantage=True))
    assert "~~[3]~~ → **[17]** [11]" in embed.description
    assert "advantage: the lower die rerolled" in embed.description
    assert embed.title.startswith("✅ Success")


async def test_advantage_is_refused_on_failing_doubles(table: Table) -> None:
    embed = embed_of(await roll(table, [4, 4], bonus=2, difficulty=10, advantage=True))
    assert "advantage refused: doubles that would fail are not rerolled" in embed.description
    assert embed.title.startswith("💀 Critical failure")


async def test_advantage_keeps_a_successful_first_roll(table: Table) -> None:
    # Stress 15/13 vs 12 succeeds on the first roll: the third die is never drawn.
    embed = embed_of(await roll(table, [15, 13], difficulty=12, stress=True, advantage=True))
    assert embed.title.startswith("✅ Success")
    assert "advantage not used: the first roll succeeded" in embed.description
    # The chance shown is for advantage used only on a failure (exact, tests/engine).
    assert "Chance: 42.5% · exceptional 4.7% · critical failure 4.1%" in embed.description


async def test_without_difficulty_the_total_is_all(table: Table) -> None:
    embed = embed_of(await roll(table, [9, 9], bonus=2))
    assert embed.title == "🎲 11 — Hogwarts 1990 roll"
    assert "Chance" not in embed.description
    assert "Doubles, with no difficulty: they mean nothing." in embed.description


async def test_bounds_are_enforced(table: Table) -> None:
    with pytest.raises(OptionError):
        await roll(table, [1, 2], bonus=101)
    with pytest.raises(OptionError):
        await roll(table, [1, 2], difficulty=201)
    with pytest.raises(OptionError):
        await roll(table, [1, 2], bonus=-51)


async def test_a_roll_needs_a_sheet_for_an_attribute(table: Table) -> None:
    result = await roll(table, [1, 2], attribute="Bravery")
    assert result.ephemeral
    assert "You have no character here" in result.response.content


async def test_a_secret_roll(table: Table) -> None:
    result = await roll(table, [4, 15], bonus=3, difficulty=10, secret=True)
    assert result.ephemeral
    dm = table.gm.user.dm_channel.last_message
    assert dm is not None and dm.embeds[0].title.startswith("✅ Success")


async def test_rolls_are_logged(table: Table) -> None:
    await roll(table, [4, 15], bonus=3, difficulty=18, stress=True)
    history = await table.alice.slash(table.channel, "history")
    assert "`Bonus +3 vs 18 stress` → **7 failure**" in text_of(history)


async def test_opposed_bonus_against_bonus(table: Table) -> None:
    table.bot.dice = ScriptedDice([5, 14, 10, 2])
    result = await table.alice.slash(
        table.channel, "h90 opposed", bonus=2, vs_bonus=3, label="arm wrestling"
    )
    embed = embed_of(result)
    assert embed.title == "🏆 alice wins by 3 — arm wrestling"
    assert [f.name for f in embed.fields] == ["alice", "Opponent"]
    assert "[5] **[14]**" in embed.fields[0].value and "14 + 2 = **16**" in embed.fields[0].value
    assert "**[10]** [2]" in embed.fields[1].value and "10 + 3 = **13**" in embed.fields[1].value
    assert "Chance: alice 40.5% · Opponent 53.3% · tie 6.2%" in embed.description
    # The log names the sides as the reply does (not "Bonus").
    history = await table.alice.slash(table.channel, "history")
    assert "`alice +2 vs Opponent +3` → **16 vs 13: alice wins**" in text_of(history)


async def test_opposed_tie_and_stress(table: Table) -> None:
    table.bot.dice = ScriptedDice([5, 14, 10, 2, 7])
    result = await table.alice.slash(
        table.channel, "h90 opposed", bonus=0, vs_bonus=12, vs_stress=True, vs_advantage=True
    )
    embed = embed_of(result)
    # B: 10, 2 -> reroll the 2 into 7 -> keeps the lower, 7 + 12 = 19 vs A 14.
    assert embed.title == "🏆 Opponent wins by 5"
    assert "[10] ~~[2]~~ → **[7]**" in embed.fields[1].value
    table.bot.dice = ScriptedDice([5, 14, 10, 2])
    tie = await table.alice.slash(table.channel, "h90 opposed", vs_bonus=4)
    assert embed_of(tie).title == "🤝 Tie at 14"


async def test_opposed_names_a_side_without_a_sheet(table: Table) -> None:
    table.bot.dice = ScriptedDice([5, 6, 10, 2])
    result = await table.alice.slash(table.channel, "h90 opposed", vs_bonus=5, vs_name="Filch")
    embed = embed_of(result)
    assert embed.title == "🏆 Filch wins by 9"
    assert [f.name for f in embed.fields] == ["alice", "Filch"]
    history = await table.alice.slash(table.channel, "history")
    assert "`alice +0 vs Filch +5` → **6 vs 15: Filch wins**" in text_of(history)


async def test_opposed_other_side_needs_a_character_for_an_attribute(table: Table) -> None:
    result = await table.alice.slash(table.channel, "h90 opposed", vs_attribute="Bravery")
    assert result.ephemeral and "`vs_character`" in result.response.content
    result = await table.alice.slash(table.channel, "h90 opposed", vs_character="Snape")
    assert result.ephemeral and "`vs_attribute`" in result.response.content


# --- from a character sheet -------------------------------------------------------------------


async def hermione(table: Table, system: str = "h90") -> None:
    created = await table.alice.slash(table.channel, "sheet create", name="Hermione", system=system)
    assert "Created Hermione" in text_of(created)
    await table.alice.slash(table.channel, "sheet set", attribute="Bravery", value=3)


async def test_a_roll_adds_an_attribute_of_the_active_character(table: Table) -> None:
    await hermione(table)
    result = await roll(table, [9, 12], attribute="bravery", bonus=2, difficulty=15)
    embed = embed_of(result)
    assert embed.title == "✅ Success — Hermione · Bravery"
    assert "12 + 3 (Bravery) + 2 = **17** vs 15" in embed.description
    history = await table.alice.slash(table.channel, "history")
    assert "`Hermione · Bravery +5 vs 15` → **17 success**" in text_of(history)


async def test_a_missing_attribute_says_which_to_set(table: Table) -> None:
    await hermione(table)
    result = await roll(table, [1, 2], attribute="Cunning")
    assert result.ephemeral
    assert "Hermione has no attribute `Cunning`" in result.response.content
    assert "/sheet set attribute:Cunning" in result.response.content


async def test_a_character_of_another_system_is_refused(table: Table) -> None:
    await hermione(table, system="coda")
    result = await roll(table, [1, 2], attribute="Bravery")
    assert result.ephemeral
    assert "this command needs Hogwarts 1990" in result.response.content


async def test_attribute_and_character_autocomplete(table: Table) -> None:
    await hermione(table)
    choices = await table.alice.autocomplete(table.channel, "h90 roll", "attribute", "bra")
    assert [c["value"] for c in choices] == ["Bravery"]
    choices = await table.alice.autocomplete(table.channel, "h90 roll", "character", "her")
    assert [c["value"] for c in choices] == ["Hermione"]


async def test_an_attribute_sum_beyond_the_bounds_is_refused(table: Table) -> None:
    await hermione(table)
    await table.alice.slash(table.channel, "sheet set", attribute="Bravery", value=90)
    result = await roll(table, [1, 2], attribute="Bravery", bonus=20)
    assert result.ephemeral
    assert "bonus must be between -50 and 100 (got 110)" in result.response.content


async def test_the_gm_opposes_a_players_character(table: Table) -> None:
    await hermione(table)
    await table.alice.slash(table.channel, "sheet use", character="Hermione")
    table.bot.dice = ScriptedDice([5, 14, 10, 2])
    result = await table.gm.slash(
        table.channel,
        "h90 opposed",
        bonus=1,
        vs_character="Hermione",
        vs_attribute="Bravery",
        label="staring contest",
    )
    embed = embed_of(result)
    assert embed.title == "🏆 gm wins by 2 — staring contest"
    assert [f.name for f in embed.fields] == ["gm", "Hermione · Bravery"]
    assert "10 + 3 (Bravery) = **13**" in embed.fields[1].value
    choices = await table.gm.autocomplete(
        table.channel, "h90 opposed", "vs_attribute", "", vs_character="Hermione"
    )
    assert [c["value"] for c in choices] == ["Bravery"]


async def test_a_player_cannot_read_another_players_sheet(table: Table) -> None:
    await hermione(table)
    await table.alice.slash(table.channel, "sheet use", character="Hermione")
    table.bot.dice = ScriptedDice([7, 4])  # bob's own side only
    result = await table.bob.slash(
        table.channel, "h90 opposed", vs_character="Hermione", vs_attribute="Bravery"
    )
    # Issue 12b: alice is asked to roll Hermione's side herself; nothing of her sheet is read.
    assert result.response.content.startswith(
        f"<@{table.alice.id}>: bob challenges **Hermione** (Bravery) — roll your side"
    )
    assert not result.response.embeds
    missing = await table.bob.slash(
        table.channel, "h90 roll", character="Hermione", attribute="Bravery"
    )
    assert "There is no character called `Hermione` that you can use" in text_of(missing)


async def test_the_gm_rolls_for_a_players_character(table: Table) -> None:
    await hermione(table)
    await table.alice.slash(table.channel, "sheet use", character="Hermione")
    result = await roll(
        table, [7, 4], member=table.gm, character="Hermione", attribute="Bravery", difficulty=10
    )
    assert embed_of(result).title == "✅ Success — Hermione · Bravery"
    alone = await roll(table, [7, 4], member=table.gm, character="Hermione")
    assert alone.ephemeral and "Name the attribute Hermione rolls" in alone.response.content


# --- /h90 defended ----------------------------------------------------------------------------


async def keeper(table: Table) -> None:
    """Alice's keeper Oliver: Toughness 8, Dexterity 3 (difficulty 11 as a defender)."""
    await table.alice.slash(table.channel, "sheet create", name="Oliver", system="h90")
    await table.alice.slash(table.channel, "sheet set", attribute="Toughness", value=8)
    await table.alice.slash(table.channel, "sheet set", attribute="Dexterity", value=3)
    await table.alice.slash(table.channel, "sheet use", character="Oliver")


async def test_defended_roll_against_a_sheets_attributes(table: Table) -> None:
    await keeper(table)
    table.bot.dice = ScriptedDice([4, 9])
    result = await table.gm.slash(
        table.channel,
        "h90 defended",
        defense="toughness + Dexterity",
        defender="Oliver",
        bonus=3,
        label="shot at the hoops",
    )
    embed = embed_of(result)
    assert embed.title == "✅ Success — shot at the hoops"
    assert "9 + 3 = **12** vs 11" in embed.description
    assert "🛡️ Defended: the difficulty is Oliver's Toughness 8 + Dexterity 3 = 11" in (
        embed.description
    )
    # The chance is the plain roll's against the summed difficulty: 1 − (7/20)² = 87.75%.
    assert "Chance: 87.8%" in embed.description
    history = await table.gm.slash(table.channel, "history")
    assert "defended by Oliver (Toughness 8 + Dexterity 3 = 11)" in text_of(history)


async def test_defended_roll_with_numbers_for_an_npc(table: Table) -> None:
    table.bot.dice = ScriptedDice([15, 13, 18])
    result = await table.alice.slash(
        table.channel,
        "h90 defended",
        defense="8 + 3",
        defender_name="Filch",
        stress=True,
        advantage=True,
    )
    embed = embed_of(result)
    # Stress 15/13 keeps 13 ≥ 11: a success, so advantage is not used (no third die drawn).
    assert embed.title.startswith("✅ Success")
    assert "Filch's 8 + 3 = 11" in embed.description
    assert "advantage not used: the first roll succeeded" in embed.description
    assert table.bot.dice.remaining == 1


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"defense": "Toughness + Dexterity"}, "`Toughness` is an attribute: name the defending"),
        ({"defense": "8 + "}, "joined by +"),
        ({"defense": "1+1+1+1+1+1+1"}, "at most 6"),
        ({"defense": "Toughness", "defender": "Oliver", "defender_name": "X"}, "Name the defender"),
        ({"defense": "Humor", "defender": "Oliver"}, "Oliver has no attribute `Humor`"),
        ({"defense": "150 + 60"}, "between -50 and 100 (got 150)"),
        ({"defense": "100 + 100 + 1"}, "difficulty must be between 0 and 200 (got 201)"),
    ],
)
async def test_defended_refusals(table: Table, options, message) -> None:
    await keeper(table)
    result = await table.alice.slash(table.channel, "h90 defended", **options)
    assert result.ephemeral and message in result.response.content


async def test_defended_sheets_follow_the_reading_rule_and_autocomplete(table: Table) -> None:
    await keeper(table)
    other = await table.bob.slash(
        table.channel, "h90 defended", defense="Toughness", defender="Oliver"
    )
    assert other.ephemeral and "There is no character called `Oliver`" in other.response.content
    choices = await table.gm.autocomplete(
        table.channel, "h90 defended", "defense", "Toughness + de", defender="Oliver"
    )
    assert [c["value"] for c in choices] == ["Toughness + Dexterity"]
    none = await table.gm.autocomplete(table.channel, "h90 defended", "defense", "To")
    assert none == []


async def test_a_negative_total_is_written_with_the_minus_sign(table: Table) -> None:
    table.bot.dice = ScriptedDice([3, 5])
    result = await table.alice.slash(table.channel, "h90 roll", bonus=-50)
    assert "5 − 50 = **−45**" in text_of(result)
    assert embed_of(result).title.startswith("🎲 −45")
