"""``/infinity roll|ftf|save`` as players use them: the seed's examples, sheets, every refusal."""

from __future__ import annotations

import pytest
from simcord.backend.errors import OptionError

from bot.render.common import percent
from engine.dice import ScriptedDice
from engine.systems import infinity
from tests.conftest import Table, embed_of, text_of


async def slash(table: Table, command: str, faces: list[int], member=None, **options) -> object:
    table.bot.dice = ScriptedDice(faces)
    result = await (member or table.alice).slash(table.channel, f"infinity {command}", **options)
    assert table.bot.dice.remaining == 0, "the command drew fewer dice than scripted"
    return result


async def fusilier(table: Table, member=None, name: str = "Fusilier", **attributes: int) -> None:
    member = member or table.alice
    await member.slash(table.channel, "sheet create", name=name, system="infinity")
    for attribute, value in (attributes or {"BS": 12, "ARM": 1}).items():
        await member.slash(table.channel, "sheet set", attribute=attribute, value=value)


def field(embed, name_start: str) -> str:
    return next(f.value for f in embed.fields if f.name.startswith(name_start))


# --------------------------------------------------------------------------- /infinity roll


async def test_roll_shows_every_die_with_its_mark_the_sv_and_the_chance(table: Table) -> None:
    result = await slash(table, "roll", [9, 3, 15], attribute="12", mods=-3, burst=3, label="shot")
    embed = embed_of(result)
    assert not result.ephemeral
    assert embed.title == "💥 2 successes, 1 of them a Critical · SV 9 — shot"
    assert "12 + MOD −3 = SV 9" in embed.description
    assert (
        "**Dice (B3):** **9** 💥 critical · **3** ✅ success · 15 ❌ failure" in embed.description
    )
    expected = percent(infinity.chance(attribute=12, mods=-3, burst=3))
    # One label: the field is "Chance", its value does not say "Chance:" again.
    assert field(embed, "Chance").startswith(f"{expected} of at least one success")
    assert [f.name for f in embed.fields] == ["Chance"]
    assert expected == "83.4%"  # 1 − (11/20)^3
    assert "alice rolled · Infinity CodeOne" in embed.footer.text


async def test_seed_normal_roll_fusilier_from_his_sheet(table: Table) -> None:
    # Seed 002: BS 12 with MOD −3 is SV 9; an 8 succeeds, a 12 fails.
    await fusilier(table)
    hit = embed_of(await slash(table, "roll", [8], attribute="bs", mods=-3))
    assert hit.title == "✅ 1 success · BS roll"
    assert "BS 12 + MOD −3 = SV 9" in hit.description
    assert "alice rolled as Fusilier" in hit.footer.text
    miss = embed_of(await slash(table, "roll", [12], attribute="BS", mods=-3))
    assert miss.title == "❌ Failure · BS roll" and "12 ❌ failure" in miss.description


async def test_seed_maximum_modifier_is_shown_clamped(table: Table) -> None:
    # Seed 002: Combi Rifle BS 13 with MODs −6 −3 −6 = −15, capped at −12: SV 1.
    embed = embed_of(await slash(table, "roll", [1], attribute="13", mods=-15))
    assert "13 + MOD −15 (clamped to −12) = SV 1" in embed.description
    assert "**1** 💥 critical" in embed.description
    assert "5.0% of at least one success" in field(embed, "Chance")


async def test_seed_cc_23_crits_on_17_and_up(table: Table) -> None:
    await fusilier(table, name="Knight of Justice", CC=23)
    embed = embed_of(await slash(table, "roll", [4, 16, 17], attribute="CC", burst=3))
    assert "CC 23 = SV 23 — SV 20, +3 to every die, Critical on 17+" in embed.description
    assert (
        "**4+3=7** ✅ success · **16+3=19** ✅ success · **17+3=20** 💥 critical"
        in embed.description
    )
    assert "100.0% of at least one success" in field(embed, "Chance")


async def test_sv_below_1_fails_without_rolling(table: Table) -> None:
    embed = embed_of(await slash(table, "roll", [], attribute="5", mods=-8, burst=3))
    assert embed.title == "❌ Automatic failure · SV −3"
    assert "automatic failure, no dice rolled" in embed.description
    assert "Dice" not in embed.description
    assert "0.0%" in field(embed, "Chance")


# --------------------------------------------------------------------------- /infinity ftf


async def test_seed_ftf_sv_12_rolling_11_vs_sv_11_rolling_11(table: Table) -> None:
    # Seed 002: the Fusilier (BS 12, +3 range −3 cover) and Zhanshi B (SV 11) both roll 11:
    # a success for both, but the Zhanshi's is a Critical and wins.
    await fusilier(table)
    result = await slash(
        table, "ftf", [11, 11], active_attribute="BS", active_mods=0, reactive_attribute="11"
    )
    embed = embed_of(result)
    assert embed.title == "💥 Reactive wins with a Critical — 1 hit"
    assert "**Hits:** **11** 💥 critical" in embed.description
    assert "BS 12 = SV 12" in field(embed, "Active — Fusilier")
    assert "~~11~~ 🚫 cancelled" in field(embed, "Active")
    assert "SV 11" in field(embed, "Reactive") and "**11** 💥 critical" in field(embed, "Reactive")


async def test_seed_ftf_both_critical_with_full_burst(table: Table) -> None:
    embed = embed_of(
        await slash(
            table,
            "ftf",
            [12, 3, 8, 11],
            active_attribute="12",
            active_burst=3,
            reactive_attribute="11",
        )
    )
    assert embed.title == "⚖️ Nobody wins: both rolled a Critical"
    assert "every die is cancelled" in embed.description and "Hits" not in embed.description
    assert field(embed, "Active").endswith(
        "~~12~~ 🚫 cancelled · ~~3~~ 🚫 cancelled · ~~8~~ 🚫 cancelled"
    )
    assert field(embed, "Reactive").endswith("~~11~~ 🚫 cancelled")


async def test_seed_ftf_split_burst_the_9_wins_with_chances(table: Table) -> None:
    result = await slash(
        table, "ftf", [4, 9, 5], active_attribute="12", active_burst=2, reactive_attribute="11"
    )
    embed = embed_of(result)
    assert embed.title == "🎯 Active wins — 1 hit"
    assert "**Hits:** **9** ✅ success" in embed.description
    assert "~~4~~ 🚫 cancelled · **9** ✅ success" in field(embed, "Active")
    odds = infinity.ftf_odds(a_attribute=12, a_burst=2, b_attribute=11)
    chances = field(embed, "Chance")
    assert (
        f"Active wins {percent(odds.a_wins)} · reactive wins {percent(odds.b_wins)}"
        f" · nobody {percent(odds.neither)}"
    ) in chances
    assert f"Expected hits: active {odds.a_expected_hits:.2f}" in chances


async def test_ftf_equal_values_cancel(table: Table) -> None:
    embed = embed_of(
        await slash(table, "ftf", [7, 7], active_attribute="12", reactive_attribute="11")
    )
    assert embed.title == "⚖️ Nobody wins: the best successes tie"


async def test_ftf_both_fail(table: Table) -> None:
    embed = embed_of(
        await slash(table, "ftf", [15, 20], active_attribute="12", reactive_attribute="11")
    )
    assert embed.title == "❌ Nobody wins: both failed"


async def test_ftf_automatic_failure_side_rolls_no_dice(table: Table) -> None:
    embed = embed_of(
        await slash(
            table, "ftf", [5], active_attribute="5", active_mods=-8, reactive_attribute="11"
        )
    )
    assert embed.title == "🎯 Reactive wins — 1 hit"
    assert "automatic failure, no dice rolled" in field(embed, "Active")
    assert "Dice" not in field(embed, "Active")
    assert "The active side has no success" in embed.description


async def test_largest_bursts_show_every_die_within_discords_limits(table: Table) -> None:
    faces = list(range(11, 21)) + list(range(1, 11))
    embed = embed_of(
        await slash(
            table,
            "ftf",
            faces,
            active_attribute="33",
            active_mods=12,
            active_burst=10,
            reactive_attribute="30",
            reactive_burst=10,
        )
    )
    assert len(embed) <= 6000 and "shortened" not in (embed.footer.text or "")
    assert field(embed, "Active").count("🚫 cancelled") == 10
    assert field(embed, "Reactive").count("🚫 cancelled") == 10
    assert "~~20+25=45~~ 🚫 cancelled" in field(embed, "Active")


async def test_gm_pits_two_players_characters(table: Table) -> None:
    await fusilier(table)
    await fusilier(table, table.bob, name="Zhanshi", BS=11)
    # Both characters are used in the channel once their players have rolled here.
    await slash(table, "roll", [1], attribute="BS")
    await slash(table, "roll", [1], member=table.bob, attribute="BS")
    result = await slash(
        table,
        "ftf",
        [11, 11],
        member=table.gm,
        active_attribute="BS",
        active_character="Fusilier",
        reactive_attribute="BS",
        reactive_character="zhanshi",
    )
    embed = embed_of(result)
    assert embed.title.startswith("💥 Reactive wins with a Critical")
    assert "BS 11 = SV 11" in field(embed, "Reactive — Zhanshi")
    assert "gm rolled as Fusilier, Zhanshi" in embed.footer.text


async def test_players_cannot_roll_from_someone_elses_sheet(table: Table) -> None:
    await fusilier(table)
    result = await slash(
        table,
        "ftf",
        [7],  # bob's own active side only
        member=table.bob,
        active_attribute="12",
        reactive_attribute="BS",
        reactive_character="Fusilier",
    )
    # Issue 12b: alice is asked to roll the Fusilier's side herself; nothing of it is read.
    assert result.response.content.startswith(
        f"<@{table.alice.id}>: bob challenges **Fusilier** (BS) — roll your side"
    )
    assert not result.response.embeds
    own = await slash(table, "roll", [], member=table.bob, attribute="BS", character="Fusilier")
    assert own.ephemeral and "no character called `Fusilier` that you can use" in text_of(own)


# --------------------------------------------------------------------------- /infinity save


async def test_save_one_die_per_hit_with_cover(table: Table) -> None:
    result = await slash(table, "save", [3, 10], damage=13, armor="3", cover=True, hits=2)
    embed = embed_of(result)
    assert embed.title == "🩸 1 Wound — saving roll"
    assert (
        "13 − ARM 3 −3 (cover: +3 to the save) = 7 — a face of 7 or less fails" in embed.description
    )
    assert "**Saves (2 hits):** 3 🩸 wound · **10** ✅ saved" in embed.description
    assert "42.2% of no Wound · each save fails 35.0% · expected Wounds 0.70" in field(
        embed, "Chance"
    )


async def test_save_reads_arm_from_the_sheet(table: Table) -> None:
    await fusilier(table, BS=12, ARM=3)
    embed = embed_of(await slash(table, "save", [11], damage=13, armor="ARM"))
    assert embed.title == "🛡️ Saved: no Wounds — saving roll"
    assert "13 − ARM 3 = 10" in embed.description


async def test_save_mods_are_clamped_with_cover(table: Table) -> None:
    embed = embed_of(await slash(table, "save", [9], damage=20, armor="0", cover=True, mods=-11))
    assert "(MODs clamped to −12) = 8" in embed.description
    assert "🛡️ Saved" in embed.title


# --------------------------------------------------------------------------- refusals


@pytest.mark.parametrize("burst", [0, 50])
async def test_burst_out_of_range_is_refused_by_discord(table: Table, burst: int) -> None:
    with pytest.raises(OptionError):
        await table.alice.slash(table.channel, "infinity roll", attribute="12", burst=burst)
    with pytest.raises(OptionError):
        await table.alice.slash(
            table.channel,
            "infinity ftf",
            active_attribute="12",
            reactive_attribute="11",
            reactive_burst=burst,
        )


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("roll", {"attribute": "12", "mods": 51}),
        ("save", {"damage": 41, "armor": "3"}),
        ("save", {"damage": 13, "armor": "3", "hits": 0}),
        ("save", {"damage": 13, "armor": "3", "hits": 21}),
    ],
)
async def test_other_numbers_out_of_range_are_refused_by_discord(
    table: Table, command: str, options: dict
) -> None:
    with pytest.raises(OptionError):
        await table.alice.slash(table.channel, f"infinity {command}", **options)


async def test_negative_attribute_is_refused_clearly(table: Table) -> None:
    result = await slash(table, "roll", [], attribute="-5")
    assert result.ephemeral
    assert result.response.content == "attribute must be between 0 and 40 (got -5)"
    ftf = await slash(table, "ftf", [], active_attribute="12", reactive_attribute="−5")
    assert ftf.ephemeral
    assert ftf.response.content == "Reactive: attribute must be between 0 and 40 (got -5)"
    save = await slash(table, "save", [], damage=13, armor="-1")
    assert save.response.content == "armor must be between 0 and 40 (got -1)"


async def test_missing_sheet_value_says_which_to_set(table: Table) -> None:
    await fusilier(table)
    result = await slash(table, "roll", [], attribute="WIP")
    assert result.ephemeral
    assert "Fusilier has no attribute `WIP`" in result.response.content
    assert "/sheet set attribute:WIP value:…" in result.response.content
    save = await slash(table, "save", [], damage=13, armor="BTS")
    assert "Fusilier has no attribute `BTS`" in save.response.content
    await table.alice.slash(table.channel, "sheet set", attribute="BTS", value=6)
    embed = embed_of(await slash(table, "save", [7], damage=13, armor="bts"))
    assert "13 − BTS 6 = 7" in embed.description and "🩸 1 Wound" in embed.title


async def test_a_name_without_any_character_asks_for_one(table: Table) -> None:
    result = await slash(table, "roll", [], attribute="BS")
    assert result.ephemeral and "You have no character here" in result.response.content


async def test_a_character_of_another_system_is_refused(table: Table) -> None:
    await table.alice.slash(table.channel, "sheet create", name="Hermione", system="coda")
    result = await slash(table, "roll", [], attribute="BS")
    assert "needs Infinity CodeOne" in result.response.content


async def test_sheet_value_outside_infinity_bounds_names_the_sheet(table: Table) -> None:
    await fusilier(table, BS=50)
    result = await slash(table, "roll", [], attribute="BS")
    assert result.ephemeral
    assert "Fusilier's BS is 50, but an Infinity attribute must be between 0 and 40" in (
        result.response.content
    )


# --------------------------------------------------------------- secrecy, log, autocomplete


async def test_secret_roll_goes_to_the_roller_and_the_gm(table: Table) -> None:
    result = await slash(table, "roll", [5], attribute="12", secret=True)
    assert result.ephemeral and embed_of(result).title.startswith("✅ 1 success")
    dm = table.gm.user.dm_channel.last_message
    assert dm is not None and dm.embeds[0].title.startswith("✅ 1 success")
    assert "secret roll" in dm.embeds[0].footer.text


async def test_refused_secret_roll_draws_no_dice(table: Table) -> None:
    await table.gm.slash(table.channel, "settings secret", mode="off")
    result = await slash(
        table, "ftf", [], active_attribute="12", reactive_attribute="11", secret=True
    )
    assert result.ephemeral and "Secret rolls are off" in result.response.content


async def test_every_roll_is_logged(table: Table) -> None:
    await fusilier(table)
    await slash(table, "roll", [8], attribute="BS", mods=-3)
    await slash(table, "ftf", [11, 11], active_attribute="BS", reactive_attribute="11")
    await slash(table, "save", [3], damage=13, armor="ARM")
    history = text_of(await table.alice.slash(table.channel, "history"))
    assert "roll Fusilier's BS 12 MOD -3 B1: SV 9" in history
    assert "reactive wins, 1 hit(s)" in history
    assert "save damage 13 armor Fusilier's ARM 1" in history
    assert history.count("**infinity**") == 3


async def test_attribute_autocomplete_reads_the_sheets(table: Table) -> None:
    await fusilier(table, BS=12, ARM=1, BTS=3)
    await fusilier(table, name="Zhanshi", BS=11, PH=10)  # now active here

    def names(choices):
        return [c["name"] for c in choices]

    assert names(
        await table.alice.autocomplete(table.channel, "infinity roll", "attribute", "")
    ) == [
        "BS",
        "PH",
    ]
    choices = await table.alice.autocomplete(
        table.channel, "infinity save", "armor", "b", character="Fusilier"
    )
    assert names(choices) == ["BS", "BTS"]
    reactive = await table.alice.autocomplete(
        table.channel, "infinity ftf", "reactive_attribute", "", reactive_character="Fusilier"
    )
    assert names(reactive) == ["BS", "ARM", "BTS"]
    active = await table.alice.autocomplete(table.channel, "infinity ftf", "active_attribute", "p")
    assert names(active) == ["PH"]


# --------------------------------------------------------------------------- MODs by name


async def test_named_mods_are_each_shown_and_summed(table: Table) -> None:
    # Combi Rifle at 60 cm (−3), target in cover (−3): BS 12 − 6 = SV 6.
    result = await slash(
        table, "roll", [6], attribute="12", cover=True, range="40:+3,80:-3,120:-6", distance=60
    )
    embed = embed_of(result)
    assert "**MODs:** Range 60 (up to 80) −3 · Cover −3 = −6" in embed.description
    assert "12 + MOD −6 = SV 6" in embed.description
    assert embed.title == "💥 1 success: a Critical · SV 6"
    assert field(embed, "Chance").startswith(percent(infinity.chance(attribute=6)))


async def test_the_mod_cap_is_shown_when_it_bites(table: Table) -> None:
    result = await slash(
        table,
        "roll",
        [1],
        attribute="15",
        mods=-2,
        cover=True,
        mimetism=-6,
        range="40:+3,80:-3,120:-6",
        distance=100,
    )
    description = embed_of(result).description
    assert "Cover −3 · Mimetism −6 · MODs −2 = −17, capped at −12 (MODs are held to ±12)" in (
        description
    )
    assert "= SV 3" in description


async def test_ftf_named_mods_are_the_active_sides(table: Table) -> None:
    result = await slash(
        table, "ftf", [5, 8], active_attribute="13", reactive_attribute="11", mimetism=-3
    )
    embed = embed_of(result)
    assert "**MODs:** Mimetism −3 = −3" in field(embed, "Active")
    assert "MODs" not in field(embed, "Reactive")
    odds = infinity.ftf_odds(a_attribute=13, a_mods=-3, b_attribute=11)
    assert f"Active wins {percent(odds.a_wins)}" in field(embed, "Chance")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"range": "40:+3,80:-3"}, "both the weapon's range bands and the distance"),
        ({"range": "40:+3,80:-3", "distance": 90}, "out of range (the weapon reaches 80)"),
        ({"range": "far", "distance": 10}, "`far` is not a range band"),
    ],
)
async def test_bad_named_mods_are_explained(table: Table, options, message) -> None:
    result = await slash(table, "roll", [], attribute="12", **options)
    assert result.ephemeral and message in result.response.content


# --------------------------------------------------------------------------- burst split


async def test_a_burst_split_resolves_each_target_against_its_own_dice(table: Table) -> None:
    # B3: 2 dice at the reactive side (BS 11), 1 at the Warband (13, MOD −3 = SV 10).
    # Active dice 12, 5, 9 first, then the reactive side's 8, then the Warband's 10.
    result = await slash(
        table,
        "ftf",
        [12, 5, 9, 8, 10],
        active_attribute="13",
        active_burst=3,
        reactive_attribute="11",
        targets="Warband:1:13:-3",
        label="suppressive fire",
    )
    embed = embed_of(result)
    assert embed.title.startswith("🎯 Burst split among 2 targets — active 1 hit, 1 target(s)")
    assert "**Dice (B3):** **12** ✅ success · **5** ✅ success · **9** ✅ success" in (
        embed.description
    )
    reactive = field(embed, "→ Reactive")
    assert "**Aimed (B2):** **12** ✅ success · ~~5~~ 🚫 cancelled" in reactive
    assert "🎯 Active wins — 1 hit" in reactive
    first = infinity.ftf_odds(a_attribute=13, a_burst=2, b_attribute=11)
    assert f"active wins {percent(first.a_wins)}" in reactive
    warband = field(embed, "→ Warband")
    assert "13 + MOD −3 = SV 10" in warband
    assert "💥 Target wins with a Critical — 1 hit" in warband
    second = infinity.ftf_odds(a_attribute=13, a_burst=1, b_attribute=13, b_mods=-3)
    assert f"target wins {percent(second.b_wins)}" in warband
    history = await table.alice.slash(table.channel, "history")
    assert "Warband: target wins, 1 hit(s) (won with a Critical)" in text_of(history)


@pytest.mark.parametrize(
    ("targets", "message"),
    [
        ("Warband:3:13", "leaving none for the reactive side"),
        ("Warband", "is not a target"),
        ("12:1:13", "starts with its name"),
        ("Warband:1:45", "attribute must be between 0 and 40"),
        (",".join(f"T{i}:1:10" for i in range(10)), "the other targets take 10, leaving none"),
    ],
)
async def test_bad_burst_splits_are_explained(table: Table, targets: str, message: str) -> None:
    result = await slash(
        table,
        "ftf",
        [],
        active_attribute="13",
        active_burst=3,
        reactive_attribute="11",
        targets=targets,
    )
    assert result.ephemeral and message in result.response.content


async def test_ftf_a_typed_number_with_a_name_is_an_npc_side(table: Table) -> None:
    table.bot.dice = ScriptedDice([5, 17])
    result = await table.alice.slash(
        table.channel,
        "infinity ftf",
        active_attribute="13",
        reactive_attribute="11",
        reactive_character="Fusilier **x**",
    )
    embed = embed_of(result)
    assert any(f.name == "Reactive — Fusilier \\*\\*x\\*\\*" for f in embed.fields)
    history = text_of(await table.alice.slash(table.channel, "history", count=1))
    assert "Fusilier" in history and "11" in history
