"""``/coda`` as players and the GM use it: every command, its refusals and bad input."""

from __future__ import annotations

import dataclasses

import pytest
from simcord.backend.errors import OptionError

from bot.app import create_bot
from bot.cogs.coda import CodaCog
from bot.hosting.config import Settings
from bot.services import coda as service
from engine.dice import ScriptedDice
from tests.conftest import Table, embed_of, text_of

# --------------------------------------------------------------------------- /coda test


async def test_test_shows_dice_arithmetic_degree_time_and_chance(table: Table) -> None:
    table.bot.dice = ScriptedDice([6, 6, 6, 3])
    result = await table.alice.slash(
        table.channel, "coda test", modifier=2, tn=15, label="sneaking past Filch"
    )
    assert not result.ephemeral
    embed = embed_of(result)
    assert embed.title == "🌟 Superior Success — sneaking past Filch"
    assert "[6] [6] 💥[6] 💥[3]" in embed.description
    assert "2d6 (21) + 2 (modifier) = **23** vs TN 15" in embed.description
    assert "margin +8" in embed.description
    assert "time ×0.5" in embed.description
    # 2d6 + 2 ≥ 15 needs 13+ on the dice: only 6,6 then anything (1/36).
    assert "Chance: 2.8%" in embed.description
    assert embed.colour is not None
    assert "alice · CODA test" in embed.footer.text


@pytest.mark.parametrize(
    ("faces", "modifier", "title"),
    [
        ([1, 1], 0, "💀 Disastrous Failure"),  # 2 vs 15: −13
        ([2, 3], 0, "❌ Complete Failure"),  # −10
        ([4, 6], 0, "✖️ Failure"),  # −5
        ([5, 5], 5, "➖ Marginal Success"),  # 0
        ([5, 5], 10, "✅ Complete Success"),  # +5
        ([5, 6], 10, "🌟 Superior Success"),  # +6
        ([5, 5], 16, "✨ Extraordinary Success"),  # +11
    ],
)
async def test_each_degree_is_named(table: Table, faces, modifier, title) -> None:
    table.bot.dice = ScriptedDice(faces)
    result = await table.alice.slash(table.channel, "coda test", modifier=modifier, tn=15)
    assert embed_of(result).title == title


async def test_named_difficulty_penalties_attempts_and_extra_actions(table: Table) -> None:
    table.bot.dice = ScriptedDice([6, 5])
    result = await table.alice.slash(
        table.channel,
        "coda test",
        modifier=10,
        difficulty="Difficult",
        penalty=1,
        attempt=2,
        extra_actions=1,
    )
    embed = embed_of(result)
    description = embed.description
    assert (
        "2d6 (11) + 10 (modifier) − 1 (penalty) − 2 (attempt 2) − 5 (action 3) = **13** vs TN 20"
        in description
    )
    assert "Complete Failure" in embed.title
    assert "Difficult (20)" in text_of(result)


async def test_conditions_change_the_tn(table: Table) -> None:
    table.bot.dice = ScriptedDice([5, 5])
    result = await table.alice.slash(
        table.channel,
        "coda test",
        tn=10,
        conditions="Darkness +5, Well-equipped/using superior tools",
    )
    description = embed_of(result).description
    assert (
        "vs TN 10 + 5 (Darkness) − 5 (Well-equipped/using superior tools) = **10**" in description
    )
    assert "Marginal Success" in embed_of(result).title


async def test_conditions_autocomplete_completes_the_last_item(table: Table) -> None:
    choices = await table.alice.autocomplete(
        table.channel, "coda test", "conditions", "Darkness +5, heavy sm"
    )
    values = [c["value"] for c in choices]
    assert values == ["Darkness +5, Heavy smoke/fog +5", "Darkness +5, Heavy smoke/fog -5"]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({}, "Give a TN"),
        ({"tn": 10, "difficulty": "Routine"}, "not both"),
        ({"tn": 10, "conditions": "Dragons"}, "Unknown condition"),
        ({"tn": 10, "conditions": "Darkness 5"}, "hinders"),
        ({"tn": 10, "penalty": 100, "attempt": 20}, "penalties add up to 138"),
    ],
)
async def test_test_bad_input_gets_a_private_explanation(table: Table, options, message) -> None:
    result = await table.alice.slash(table.channel, "coda test", **options)
    assert result.ephemeral
    assert message in result.response.content


@pytest.mark.parametrize(
    ("name", "who"),
    [
        ("test", service.PlainRoll),
        ("skill", service.SkillRoll),
        ("attribute", service.AttributeRoll),
        ("reaction", service.ReactionRoll),
    ],
)
def test_every_option_of_a_test_command_reaches_the_service(name, who) -> None:
    # The commands hand their options on by name: one that matched no field would be lost.
    options = {p.name for p in getattr(CodaCog, name).parameters}
    fields = {f.name for f in dataclasses.fields(who)}
    request = {f.name for f in dataclasses.fields(service.TestRequest)}
    assert options == fields | request


@pytest.mark.parametrize(
    "options",
    [{"tn": 1000}, {"tn": 0}, {"tn": 10, "modifier": 500}, {"tn": 10, "attempt": 0}],
)
async def test_out_of_range_numbers_are_refused_by_discord(table: Table, options) -> None:
    with pytest.raises(OptionError):
        await table.alice.slash(table.channel, "coda test", **options)


async def test_secret_test_goes_to_the_roller_and_the_gm(table: Table) -> None:
    table.bot.dice = ScriptedDice([3, 4])
    result = await table.alice.slash(table.channel, "coda test", tn=7, secret=True)
    assert result.ephemeral
    assert "Marginal Success" in embed_of(result).title
    dm = table.gm.user.dm_channel.last_message
    assert dm is not None and "Marginal Success" in dm.embeds[0].title


async def test_tests_are_logged(table: Table) -> None:
    table.bot.dice = ScriptedDice([3, 4])
    await table.alice.slash(table.channel, "coda test", tn=7, modifier=1)
    history = await table.alice.slash(table.channel, "history")
    assert "test 2d6+1 vs TN 7" in text_of(history)
    assert "8 · Complete Success" in text_of(history)


# --------------------------------------------------------------------------- rolling 1s


async def test_ones_rule_is_a_gm_setting_and_caps_the_degree(table: Table) -> None:
    refused = await table.alice.slash(
        table.channel, "settings rule", name="coda.ones", value="failure"
    )
    assert refused.ephemeral and "Only the channel's GM" in refused.response.content
    await table.gm.slash(table.channel, "settings rule", name="coda.ones", value="failure")
    table.bot.dice = ScriptedDice([1, 1])
    result = await table.alice.slash(table.channel, "coda test", modifier=20, tn=10)
    embed = embed_of(result)
    assert embed.title == "✖️ Failure"
    assert "makes this at most **Failure**" in embed.description
    assert "Extraordinary Success" in embed.description  # what the margin alone gave
    assert "Chance: 97.2%" in embed.description  # only 1,1 fails


async def test_ones_fumble_is_flagged(table: Table) -> None:
    await table.gm.slash(table.channel, "settings rule", name="coda.ones", value="fumble")
    table.bot.dice = ScriptedDice([1, 1])
    result = await table.alice.slash(table.channel, "coda test", modifier=20, tn=10)
    assert "Extraordinary Success" in embed_of(result).title
    assert "fumble" in embed_of(result).description


async def test_ones_off_by_default(table: Table) -> None:
    table.bot.dice = ScriptedDice([1, 1])
    result = await table.alice.slash(table.channel, "coda test", modifier=20, tn=10)
    assert "Extraordinary Success" in embed_of(result).title
    assert "All 1s" not in embed_of(result).description


# --------------------------------------------------------------------------- /coda damage


async def test_damage_marks_rolling_sixes(table: Table) -> None:
    table.bot.dice = ScriptedDice([6, 6, 6, 2])
    result = await table.alice.slash(table.channel, "coda damage", dice=2, modifier=1, label="Stun")
    embed = embed_of(result)
    assert embed.title == "💥 21 damage — Stun"
    assert "[6] [6] 💥[6] 💥[2]" in embed.description
    assert "2d6 + 2 extra d6 (20) + 1 = **21**" in embed.description
    assert "rolling 6s added 2 extra dice" in embed.description


async def test_damage_dice_bounds_are_enforced(table: Table) -> None:
    with pytest.raises(OptionError):
        await table.alice.slash(table.channel, "coda damage", dice=51)
    with pytest.raises(OptionError):
        await table.alice.slash(table.channel, "coda damage", dice=0)


# --------------------------------------------------------------------------- /coda opposed


async def test_opposed_higher_result_wins(table: Table) -> None:
    table.bot.dice = ScriptedDice([3, 4, 6, 6, 2])
    result = await table.gm.slash(table.channel, "coda opposed", a="+3", b="-1")
    embed = embed_of(result)
    assert "B (modifier −1) wins" in embed.title
    assert "wins by 3" in embed.description
    assert "Complete Success" in embed.description
    assert "Chance: A wins" in embed.description
    assert "[6] [6] 💥[2]" in text_of(result)


async def test_opposed_tie_is_reported(table: Table) -> None:
    table.bot.dice = ScriptedDice([3, 4, 4, 4])
    result = await table.gm.slash(table.channel, "coda opposed", a="+2", b="+1")
    assert embed_of(result).title == "⚖️ Tie"
    assert "the Narrator decides" in embed_of(result).description


async def test_opposed_bad_modifier(table: Table) -> None:
    result = await table.gm.slash(table.channel, "coda opposed", a="+300", b="1")
    assert result.ephemeral and "between -100 and 100" in result.response.content


async def test_opposed_side_named_with_its_modifier_is_an_npc(table: Table) -> None:
    # No character is called "Troll": "Troll +4" is an NPC side rolling 2d6 + 4.
    table.bot.dice = ScriptedDice([3, 1, 4, 2])
    result = await table.alice.slash(table.channel, "coda opposed", a="+3", b="Troll +4")
    embed = embed_of(result)
    assert embed.title == "✅ B (Troll +4) wins"
    assert "2d6 (6) + 4 (Troll) = **10**" in text_of(result)
    # A bare name is still a character, and a hostile NPC name renders literally.
    unknown = await table.alice.slash(table.channel, "coda opposed", a="+3", b="Troll")
    assert unknown.ephemeral and "no character called `Troll`" in unknown.response.content
    table.bot.dice = ScriptedDice([3, 1, 4, 2])
    hostile = await table.alice.slash(table.channel, "coda opposed", a="+3", b="**<@1>** −1")
    assert "**<@1>**" not in text_of(hostile) and "B (\\*\\*" in text_of(hostile)
    too_big = await table.alice.slash(table.channel, "coda opposed", a="+3", b="Dragon +999")
    assert too_big.ephemeral and "between -100 and 100" in too_big.response.content


async def test_combined_helpers_may_be_named_npcs(table: Table) -> None:
    table.bot.dice = ScriptedDice([1, 4, 5, 5, 2, 6])
    result = await table.gm.slash(
        table.channel, "coda combined", leader="+2", helpers="Troll +4, Goblin −1", tn=15
    )
    text = text_of(result)
    assert "**1. Troll +4**" in text and "**2. Goblin −1**" in text
    assert "2d6 (10) − 1 (Goblin) = **9**" in text


# --------------------------------------------------------------------------- /coda combined


async def test_combined_shows_each_helper_and_the_leader(table: Table) -> None:
    # TN 15: helpers at 10. +2: 6,6,3 = 17 Superior (+2); −5: 1,2 = −2 Disastrous (−2);
    # +1: 4,5 = 10 Marginal (+1). Leader +3 + 1: 5,5 = 14 vs 15 → Failure.
    table.bot.dice = ScriptedDice([6, 6, 3, 1, 2, 4, 5, 5, 5])
    result = await table.gm.slash(
        table.channel, "coda combined", leader="+3", helpers="+2, -5, +1", tn=15
    )
    text = text_of(result)
    assert "Helpers test at TN 10; their sum is **+1**" in text
    assert "Superior Success → **+2**" in text
    assert "Disastrous Failure → **−2**" in text
    assert "Marginal Success → **+1**" in text
    # Each helper's line: its arithmetic against TN 10 and its chance before the roll.
    assert "2d6 (15) + 2 (modifier) = **17** vs TN 10" in text
    assert "**+2** (chance 41.7%)" in text  # +2 vs TN 10: 8+ on 2d6, 15/36
    assert "**−2** (chance 1.9%)" in text  # −5 vs TN 10: 15+ needs 6,6 then 3+, 1/36 · 4/6
    assert "2d6 (10) + 3 (modifier) + 1 (helpers) = **14** vs TN 15" in text
    assert embed_of(result).title == "✖️ Failure — Combined test"
    # The leader's chance with the +1 the helpers rolled: 2d6 + 4 ≥ 15 is 11+, 3/36.
    assert "Chance with the helpers' +1: 8.3%" in text
    assert "Chance before anyone rolled: " in text


@pytest.mark.parametrize(
    ("helpers", "message"),
    [(" , ", "at least one helper"), (",".join(["1"] * 21), "at most 20 helpers")],
)
async def test_combined_bad_helpers(table: Table, helpers, message) -> None:
    result = await table.gm.slash(
        table.channel, "coda combined", leader="+1", helpers=helpers, difficulty="Standard"
    )
    assert result.ephemeral and message in result.response.content


# --------------------------------------------------------------------------- /coda extended


async def test_extended_test_runs_to_completion(table: Table) -> None:
    started = await table.alice.slash(
        table.channel,
        "coda extended start",
        name="Brew Polyjuice",
        stages="10, 15",
        interval=2,
        unit="hours",
        participants=f"<@{table.bob.id}>",
    )
    assert "0 / 25 (aggregate TN)" in text_of(started)
    assert f"<@{table.bob.id}>" in text_of(started)
    table.bot.dice = ScriptedDice([3, 3])  # 6 + 2 = 8 < 10: nothing added
    failed = await table.alice.slash(table.channel, "coda extended roll", modifier=2)
    text = text_of(failed)
    assert "nothing added" in text
    assert "0 / 25" in text and "Tests made:** 1" in text
    assert "**Elapsed:** 2 hours (each test 2 hours)" in text
    table.bot.dice = ScriptedDice([5, 5])  # 12 ≥ 10
    passed = await table.bob.slash(table.channel, "coda extended roll", modifier=2)
    assert "12 added" in text_of(passed)
    assert "stage 2, TN 15" in text_of(passed)
    table.bot.dice = ScriptedDice([6, 6, 1])  # 15 ≥ 15 → 27 ≥ 25
    done = await table.alice.slash(table.channel, "coda extended roll", modifier=2)
    assert "complete" in embed_of(done).title
    assert "27 / 25" in text_of(done) and "6 hours" in text_of(done)
    status = await table.alice.slash(table.channel, "coda extended status")
    assert "None in progress" in text_of(status)


async def test_extended_survives_a_restart(table: Table, settings: Settings) -> None:
    await table.alice.slash(table.channel, "coda extended start", name="Repair", stages="10,10")
    table.bot.dice = ScriptedDice([5, 6])
    await table.alice.slash(table.channel, "coda extended roll", modifier=0)
    await table.env.restart_bot(create_bot(settings, dice=ScriptedDice([4, 6]), sync_globally=True))
    status = await table.alice.slash(table.channel, "coda extended status")
    assert "11 / 20" in text_of(status)
    # No unit: no game time is shown ("0 units (each test 1 unit)" meant nothing).
    assert "Tests made:** 1\n" in text_of(status)
    assert "unit" not in text_of(status) and "Elapsed" not in text_of(status)
    done = await table.alice.slash(table.channel, "coda extended roll", modifier=0)
    assert "21 / 20" in text_of(done)


async def test_extended_refusals(table: Table) -> None:
    none = await table.alice.slash(table.channel, "coda extended roll")
    assert none.ephemeral and "No extended test is in progress" in none.response.content
    bad = await table.alice.slash(table.channel, "coda extended start", name="X", stages="ten")
    assert bad.ephemeral and "not a TN" in bad.response.content
    huge = await table.alice.slash(table.channel, "coda extended start", name="X", stages="1000")
    assert huge.ephemeral and "TN of stage 1" in huge.response.content
    await table.alice.slash(table.channel, "coda extended start", name="Potion", stages="10")
    again = await table.bob.slash(table.channel, "coda extended start", name="potion", stages="5")
    assert again.ephemeral and "already in progress" in again.response.content
    await table.bob.slash(table.channel, "coda extended start", name="Broom", stages="5")
    which = await table.alice.slash(table.channel, "coda extended roll")
    assert which.ephemeral and "Several extended tests" in which.response.content
    unknown = await table.alice.slash(table.channel, "coda extended status", task="Cauldron")
    assert unknown.ephemeral and "No extended test called" in unknown.response.content
    both = await table.alice.slash(
        table.channel, "coda extended roll", task="Potion", modifier=1, skill="Potions"
    )
    assert both.ephemeral and "not both" in both.response.content


async def test_extended_abandon_is_for_the_starter_or_a_gm(table: Table) -> None:
    await table.alice.slash(table.channel, "coda extended start", name="Potion", stages="10")
    refused = await table.bob.slash(table.channel, "coda extended abandon")
    assert refused.ephemeral and "Only whoever started" in refused.response.content
    gm = await table.gm.slash(table.channel, "coda extended abandon", task="potion")
    assert "abandoned" in embed_of(gm).title
    await table.alice.slash(table.channel, "coda extended start", name="Potion", stages="10")
    mine = await table.alice.slash(table.channel, "coda extended abandon")
    assert "abandoned" in embed_of(mine).title


async def test_extended_task_autocomplete_and_status_of_several(table: Table) -> None:
    await table.alice.slash(table.channel, "coda extended start", name="Brew", stages="10")
    await table.alice.slash(table.channel, "coda extended start", name="Broom repair", stages="5")
    choices = await table.alice.autocomplete(table.channel, "coda extended roll", "task", "br")
    assert [c["value"] for c in choices] == ["Brew", "Broom repair"]
    status = await table.alice.slash(table.channel, "coda extended status")
    assert "Extended tests in progress" in embed_of(status).title
    assert "Brew" in text_of(status) and "Broom repair" in text_of(status)


# --------------------------------------------------------------------------- from the sheet


async def hermione(table: Table) -> None:
    await table.alice.slash(table.channel, "sheet create", name="Hermione", system="coda")
    await table.alice.slash(table.channel, "sheet set", attribute="Wits", value=3)
    await table.alice.slash(table.channel, "sheet set", attribute="Willpower", value=2)
    await table.alice.slash(
        table.channel,
        "sheet skill",
        name="Stealth",
        ranks=2,
        attribute="Wits",
        specialty="Hiding, Sneaking",
    )


async def test_skill_test_from_the_sheet_with_specialty_and_affinity(table: Table) -> None:
    await hermione(table)
    table.bot.dice = ScriptedDice([4, 3])
    result = await table.alice.slash(
        table.channel, "coda skill", skill="stealth", tn=15, specialty="hiding", affinity=1
    )
    embed = embed_of(result)
    assert embed.title == "➖ Marginal Success — Stealth (Wits)"
    assert (
        "2d6 (7) + 3 (Wits) + 2 (Stealth ranks) + 2 (specialty\\: Hiding) + 1 (affinity)"
        " = **15** vs TN 15" in embed.description
    )
    assert "Hermione · Stealth (Wits)" in text_of(result)
    history = await table.alice.slash(table.channel, "history")
    assert "Stealth (Wits) 2d6+8 vs TN 15" in text_of(history)


async def test_untrained_skill_takes_minus_two_and_needs_an_attribute(table: Table) -> None:
    await hermione(table)
    refused = await table.alice.slash(table.channel, "coda skill", skill="Potions", tn=10)
    assert refused.ephemeral
    assert "has no skill `Potions`: an untrained attempt (−2) needs" in refused.response.content
    table.bot.dice = ScriptedDice([4, 4])
    result = await table.alice.slash(
        table.channel, "coda skill", skill="Potions", attribute="Wits", tn=10
    )
    embed = embed_of(result)
    assert "Potions (Wits, untrained)" in embed.title
    assert "2d6 (8) + 3 (Wits) − 2 (untrained) = **9** vs TN 10" in embed.description


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"skill": "Stealth", "tn": 10, "specialty": "Flying"}, "has no specialty `Flying`"),
        ({"skill": "Stealth", "tn": 10, "attribute": "Charm"}, "has no attribute `Charm`"),
        (
            {"skill": "Potions", "attribute": "Wits", "tn": 10, "specialty": "Brewing"},
            "untrained in Potions",
        ),
        ({"skill": "Stealth"}, "Give a TN"),
    ],
)
async def test_skill_test_refusals(table: Table, options, message) -> None:
    await hermione(table)
    result = await table.alice.slash(table.channel, "coda skill", **options)
    assert result.ephemeral and message in result.response.content


async def test_skill_test_needs_a_coda_character(table: Table) -> None:
    nobody = await table.carol.slash(table.channel, "coda skill", skill="Stealth", tn=10)
    assert nobody.ephemeral and "You have no character here" in nobody.response.content
    await table.bob.slash(table.channel, "sheet create", name="Oliver", system="h90")
    other = await table.bob.slash(table.channel, "coda skill", skill="Stealth", tn=10)
    assert other.ephemeral
    assert "is a Hogwarts 1990 character; this command needs CODA" in other.response.content


async def test_attribute_and_reaction_tests(table: Table) -> None:
    await hermione(table)
    table.bot.dice = ScriptedDice([2, 3])
    attribute = await table.alice.slash(
        table.channel, "coda attribute", name="wits", difficulty="Standard"
    )
    assert "2d6 (5) + 3 (Wits) = **8** vs TN 10" in embed_of(attribute).description
    assert "CODA attribute test" in embed_of(attribute).footer.text
    table.bot.dice = ScriptedDice([6, 2])
    reaction = await table.alice.slash(
        table.channel, "coda reaction", name="Willpower", tn=10, modifier=1
    )
    description = embed_of(reaction).description
    assert "2d6 (8) + 2 (Willpower) + 1 (modifier) = **11** vs TN 10" in description
    missing = await table.alice.slash(table.channel, "coda attribute", name="Charm", tn=10)
    assert missing.ephemeral and "has no attribute `Charm`" in missing.response.content
    not_a_reaction = await table.alice.slash(table.channel, "coda reaction", name="Wits", tn=10)
    assert not_a_reaction.ephemeral
    assert "Wits is not a reaction" in not_a_reaction.response.content
    assert "/coda attribute" in not_a_reaction.response.content


async def test_sheet_autocomplete(table: Table) -> None:
    await hermione(table)
    skills = await table.alice.autocomplete(table.channel, "coda skill", "skill", "Ste")
    assert [c["value"] for c in skills] == ["Stealth"]
    reactions = await table.alice.autocomplete(table.channel, "coda reaction", "name", "")
    assert [c["value"] for c in reactions] == ["Willpower"]


async def test_opposed_with_characters(table: Table) -> None:
    await hermione(table)
    table.bot.dice = ScriptedDice([4, 4, 3, 3])
    result = await table.alice.slash(
        table.channel, "coda opposed", a="Hermione", a_skill="Stealth", b="+4"
    )
    text = text_of(result)
    assert "A (Hermione · Stealth (Wits)) wins" in embed_of(result).title
    assert "2d6 (8) + 3 (Wits) + 2 (Stealth ranks) = **13**" in text
    assert "wins by 3" in text
    unknown = await table.alice.slash(
        table.channel, "coda opposed", a="Hermione", a_skill="Flying", b="+4"
    )
    assert unknown.ephemeral and "has no skill or attribute `Flying`" in unknown.response.content
    missing = await table.alice.slash(table.channel, "coda opposed", a="Hermione", b="+4")
    assert missing.ephemeral and "say what Hermione rolls" in missing.response.content
    stranger = await table.alice.slash(table.channel, "coda opposed", a="Draco", b="1")
    assert stranger.ephemeral and "no character called `Draco`" in stranger.response.content


async def test_combined_with_characters(table: Table) -> None:
    await hermione(table)
    # Helper Hermione (Stealth +5) at TN 10: 3,3 → 11 Complete (+1); helper +0: 2,2 → 4
    # Complete Failure (−1). Leader +6: 5,4 → 15 vs 15 Marginal.
    table.bot.dice = ScriptedDice([3, 3, 2, 2, 5, 4])
    result = await table.alice.slash(
        table.channel,
        "coda combined",
        leader="+6",
        helpers="Hermione, 0",
        skill="Stealth",
        tn=15,
    )
    text = text_of(result)
    assert (
        "**1. Hermione · Stealth (Wits)** [3] [3] · 2d6 (6) + 3 (Wits) + 2 (Stealth ranks) = "
        "**11** vs TN 10: ✅ Complete Success → **+1** (chance 83.3%)"
    ) in text
    assert "Complete Failure → **−1**" in text
    assert "their sum is **+0**" in text
    assert "Marginal Success" in embed_of(result).title


async def test_extended_roll_uses_the_stages_skill(table: Table) -> None:
    await hermione(table)
    await table.alice.slash(
        table.channel, "coda extended start", name="Sneak in", stages="10:Stealth, 10"
    )
    table.bot.dice = ScriptedDice([2, 3])  # 5 + 5 = 10: passes
    first = await table.alice.slash(table.channel, "coda extended roll")
    assert "2d6 (5) + 3 (Wits) + 2 (Stealth ranks) = **10** vs TN 10" in text_of(first)
    assert "10 added" in text_of(first)
    # Alice plays Hermione: she rolls from the sheet, not a number of her choosing.
    bare = await table.alice.slash(table.channel, "coda extended roll", modifier=0)
    assert bare.ephemeral and "roll `Sneak in` from its sheet" in bare.response.content
    table.bot.dice = ScriptedDice([6, 4])
    second = await table.alice.slash(table.channel, "coda extended roll", skill="Stealth")
    assert "complete" in embed_of(second).title


async def test_extended_roll_for_a_named_character(table: Table) -> None:
    await hermione(table)
    await table.gm.slash(table.channel, "coda extended start", name="Ward", stages="10:Stealth, 10")
    table.bot.dice = ScriptedDice([3, 3])  # 6 + 5 = 11: passes
    first = await table.gm.slash(table.channel, "coda extended roll", character="Hermione")
    assert "2d6 (6) + 3 (Wits) + 2 (Stealth ranks) = **11** vs TN 10" in text_of(first)
    assert "Hermione · Stealth (Wits)" in text_of(first)
    both = await table.gm.slash(
        table.channel, "coda extended roll", character="Hermione", modifier=2
    )
    assert both.ephemeral and "not both" in both.response.content
    no_skill = await table.gm.slash(table.channel, "coda extended roll", character="Hermione")
    assert no_skill.ephemeral
    assert "Stage 2 of `Ward` names no skill" in no_skill.response.content
    table.bot.dice = ScriptedDice([4, 4])
    done = await table.gm.slash(
        table.channel, "coda extended roll", character="Hermione", skill="Stealth"
    )
    assert "complete" in embed_of(done).title


async def test_extended_stage_skill_without_a_sheet_suggests_a_modifier(table: Table) -> None:
    await table.alice.slash(
        table.channel,
        "coda extended start",
        name="Brew",
        stages="10:Potions",
        participants=f"<@{table.bob.id}>",
    )
    refused = await table.bob.slash(table.channel, "coda extended roll")
    assert refused.ephemeral
    # Two sentences: the reason keeps its own capital after a full stop, not a colon.
    assert "Stage 1 of `Brew` is a Potions test. You have no" in refused.response.content
    assert "plain `modifier`" in refused.response.content
    table.bot.dice = ScriptedDice([5, 5])
    done = await table.bob.slash(table.channel, "coda extended roll", modifier=0)
    assert "complete" in embed_of(done).title


async def test_opposed_rolls_an_untrained_skill_with_its_attribute(table: Table) -> None:
    await hermione(table)
    refused = await table.alice.slash(
        table.channel, "coda opposed", a="Hermione", a_skill="Potions", b="+4"
    )
    assert refused.ephemeral and "an untrained attempt (−2) needs" in refused.response.content
    table.bot.dice = ScriptedDice([4, 4, 3, 3])
    result = await table.alice.slash(
        table.channel,
        "coda opposed",
        a="Hermione",
        a_skill="Potions",
        a_attribute="Wits",
        b="+4",
    )
    text = text_of(result)
    assert "Hermione · Potions (Wits, untrained)" in text
    assert "2d6 (8) + 3 (Wits) − 2 (untrained) = **9**" in text
    # The trained skill ignores the untrained attribute (it has its own).
    table.bot.dice = ScriptedDice([4, 4, 3, 3])
    trained = await table.alice.slash(
        table.channel,
        "coda opposed",
        a="+0",
        b="Hermione",
        b_skill="Stealth",
        b_attribute="Willpower",
    )
    assert "2d6 (6) + 3 (Wits) + 2 (Stealth ranks) = **11**" in text_of(trained)
    bad = await table.alice.slash(
        table.channel, "coda opposed", a="Hermione", a_skill="Potions", a_attribute="Charm", b="1"
    )
    assert bad.ephemeral and "has no attribute `Charm`" in bad.response.content


async def test_combined_helpers_lacking_the_skill_roll_it_untrained(table: Table) -> None:
    await hermione(table)
    await table.alice.slash(table.channel, "sheet create", name="Luna", system="coda")
    await table.alice.slash(table.channel, "sheet set", attribute="Wits", value=2)
    # Helper Luna, untrained Stealth: 2 − 2 = +0 at TN 10: 5,5 → 10 Marginal (+1).
    # Leader Hermione, Stealth +5 at TN 15 with +1: 4,4 → 14 vs 15 Failure.
    table.bot.dice = ScriptedDice([5, 5, 4, 4])
    result = await table.alice.slash(
        table.channel,
        "coda combined",
        leader="Hermione",
        helpers="Luna",
        skill="Stealth",
        attribute="Wits",
        tn=15,
    )
    text = text_of(result)
    assert "**1. Luna · Stealth (Wits, untrained)**" in text
    assert "2d6 (10) + 2 (Wits) − 2 (untrained) = **10** vs TN 10" in text
    assert "their sum is **+1**" in text
    refused = await table.alice.slash(
        table.channel, "coda combined", leader="Hermione", helpers="Luna", skill="Stealth", tn=15
    )
    assert refused.ephemeral and "Luna has no skill or attribute `Stealth`" in (
        refused.response.content
    )


async def test_extended_roll_untrained_in_the_stages_skill(table: Table) -> None:
    await hermione(table)
    await table.alice.slash(table.channel, "coda extended start", name="Brew", stages="10:Potions")
    refused = await table.alice.slash(table.channel, "coda extended roll")
    assert refused.ephemeral and "an untrained attempt (−2) needs" in refused.response.content
    table.bot.dice = ScriptedDice([5, 4])
    done = await table.alice.slash(table.channel, "coda extended roll", attribute="Wits")
    assert "2d6 (9) + 3 (Wits) − 2 (untrained) = **10** vs TN 10" in text_of(done)
    assert "complete" in embed_of(done).title
    await table.alice.slash(table.channel, "coda extended start", name="Plain", stages="10")
    lone = await table.alice.slash(table.channel, "coda extended roll", attribute="Wits")
    assert lone.ephemeral and "names no skill" in lone.response.content
    both = await table.alice.slash(
        table.channel, "coda extended roll", attribute="Wits", modifier=1
    )
    assert both.ephemeral and "not both" in both.response.content


async def test_opposed_and_combined_autocomplete_from_the_named_character(table: Table) -> None:
    await hermione(table)
    sides = await table.alice.autocomplete(table.channel, "coda opposed", "b", "Her")
    assert [c["value"] for c in sides] == ["Hermione"]
    # a_skill reads the character named in option a (here typed before it).
    skills = await table.alice.autocomplete(
        table.channel, "coda opposed", "a_skill", "", a="Hermione"
    )
    assert {c["value"] for c in skills} == {"Stealth", "Wits", "Willpower"}
    none = await table.alice.autocomplete(table.channel, "coda opposed", "a_skill", "", a="+3")
    assert none == []
    specialties = await table.alice.autocomplete(
        table.channel, "coda skill", "specialty", "", skill="Stealth"
    )
    assert [c["value"] for c in specialties] == ["Hiding", "Sneaking"]


# --- /coda table ---------------------------------------------------------------------------


async def test_a_reference_table_as_the_seed_prints_it(table: Table) -> None:
    result = await table.alice.slash(table.channel, "coda table", name="9-7", titanic=2)
    embed = embed_of(result)
    assert not result.ephemeral
    assert embed.title == "Table 9-7: Movement Based on Size"
    assert "**Titanic +X** — 180 + X\\*180 yards · 200 + X\\*200 miles" in embed.description
    assert "**Titanic +2**: walk 540 yards per action, 600 miles per hour." in embed.description
    encumbrance = await table.alice.slash(table.channel, "coda table", name="9-8", strength=3)
    description = embed_of(encumbrance).description
    assert "**Heavy burden (Strength x 10-20)** — ½ normal pace, rounded down; cannot Run" in (
        description
    )
    assert "Moderate burden: over 15 lbs up to 30 lbs" in description


async def test_every_reference_table_fits_an_embed(table: Table) -> None:
    for name in ("9-1", "9-5", "9-6", "9-7", "9-8", "9-9", "9-10", "9-11", "9-12", "9-13"):
        result = await table.alice.slash(table.channel, "coda table", name=name, strength=1000)
        embed = embed_of(result)
        assert embed.title.startswith(f"Table {name}: ")
        assert len(embed.description) <= 4096 and len(embed) <= 6000
    combat = await table.alice.slash(table.channel, "coda table", name="ranged")
    assert "__Target Motion__" in embed_of(combat).description
    assert "**Extended +X range** — 6+(X\\*2) TN" in embed_of(combat).description


async def test_reference_table_names_autocomplete_and_refusals(table: Table) -> None:
    choices = await table.alice.autocomplete(table.channel, "coda table", "name", "combat")
    assert [(c["name"], c["value"]) for c in choices] == [
        ("Table 9-12: Melee Combat Modifiers", "9-12"),
        ("Table 9-13: Ranged Combat Modifiers", "9-13"),
    ]
    every = await table.alice.autocomplete(table.channel, "coda table", "name", "")
    assert len(every) == 10
    unknown = await table.alice.slash(table.channel, "coda table", name="9-2 **bold**")
    assert unknown.ephemeral
    assert "There is no reference table" in unknown.response.content
    with pytest.raises(OptionError):
        await table.alice.slash(table.channel, "coda table", name="9-8", strength=0)
