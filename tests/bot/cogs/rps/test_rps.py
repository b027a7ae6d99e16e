"""``/rps check|resisted|sustained …`` as players use them, with every refusal."""

from __future__ import annotations

import pytest
from simcord.backend.errors import OptionError

from bot.app import create_bot
from engine.dice import ScriptedDice
from tests.conftest import Table, embed_of, text_of


async def daniela(table: Table) -> None:
    await table.alice.slash(table.channel, "sheet create", name="Daniela", system="rps")
    await table.alice.slash(table.channel, "sheet set", attribute="Intuition", value=6)
    await table.alice.slash(table.channel, "sheet set", attribute="Strength", value=5)
    await table.alice.slash(
        table.channel, "sheet skill", name="Tracking", ranks=4, attribute="Intuition"
    )


# --- /rps check ----------------------------------------------------------------------------


async def test_skill_check_from_the_sheet_with_a_named_difficulty(table: Table) -> None:
    await daniela(table)
    table.bot.dice = ScriptedDice([1, 7])
    result = await table.alice.slash(
        table.channel, "rps check", skill="Tracking", difficulty="Moderately hard", label="trail"
    )
    embed = embed_of(result)
    assert embed.title == "🎲 SL 4 — acceptable — trail"
    assert "**Base 12** = Tracking 4 + Intuition 6 + Moderately hard +2" in embed.description
    assert "2d10: [1] [7] → SL = 12 − 8 = 4" in embed.description
    assert "Chance: 55.0%" in text_of(result)
    assert "alice as Daniela" in embed.footer.text


async def test_attribute_check_doubles_the_attribute(table: Table) -> None:
    await daniela(table)
    table.bot.dice = ScriptedDice([4, 9])
    result = await table.alice.slash(table.channel, "rps check", attribute="strength", modifier=-2)
    embed = embed_of(result)
    assert "**Base 8** = 2 × Strength 5 + modifier −2" in embed.description
    assert embed.title.startswith("🎲 SL −5 — failure")  # a minus sign, as everywhere
    assert "→ SL = 8 − 13 = −5" in embed.description


@pytest.mark.parametrize(
    ("base", "faces", "line", "sl"),
    [
        (2, [1, 1], "**automatic success**", 1),
        (3, [1, 1], "**critical success**", 6),
        (21, [10, 10], "**automatic failure**", 0),
        (19, [10, 10], "**critical failure**", -1),
    ],
)
async def test_doubles(table: Table, base: int, faces: list[int], line: str, sl: int) -> None:
    table.bot.dice = ScriptedDice(faces)
    result = await table.bob.slash(table.channel, "rps check", base=base)
    embed = embed_of(result)
    assert line in embed.description
    assert f"**SL {sl}**".replace("-", "−") in embed.description


async def test_the_gm_grants_an_automatic_success(table: Table) -> None:
    table.bot.dice = ScriptedDice([])
    result = await table.gm.slash(
        table.channel, "rps check", base=3, automatic=True, label="open the door"
    )
    embed = embed_of(result)
    assert "Automatic success (the GM sees no reasonable chance of failure): **SL 1**" in (
        embed.description
    )
    assert "Chance: 100.0% of SL ≥ 1" in embed.description
    history = await table.gm.slash(table.channel, "history")
    assert "automatic success (GM)" in text_of(history)
    refused = await table.bob.slash(table.channel, "rps check", base=3, automatic=True)
    assert refused.ephemeral
    assert "Only the channel's GM can grant an automatic success" in refused.response.content
    both = await table.gm.slash(table.channel, "rps check", base=16, automatic=True, forgo=True)
    assert both.ephemeral and "choose one of the two" in both.response.content


async def test_forgo_above_fifteen_and_its_refusal(table: Table) -> None:
    table.bot.dice = ScriptedDice([])
    result = await table.bob.slash(table.channel, "rps check", base=16, forgo=True)
    assert "Roll forgone" in embed_of(result).description
    assert "Chance: 100.0%" in text_of(result)
    refused = await table.bob.slash(table.channel, "rps check", base=15, forgo=True)
    assert refused.ephemeral
    assert "only be forgone when Base is above 15" in refused.response.content


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({}, "Give `base` (a number), or an `attribute` or `skill`"),
        ({"base": 10, "skill": "Tracking"}, "either a Base or an attribute/skill"),
        ({"skill": "Swimming"}, "Daniela has no skill `Swimming`"),
        ({"attribute": "Charm"}, "Daniela has no attribute `Charm`"),
        ({"base": 195, "modifier": 10}, "Base must be between -100 and 200"),
    ],
)
async def test_check_refusals(table: Table, options: dict, message: str) -> None:
    await daniela(table)
    result = await table.alice.slash(table.channel, "rps check", **options)
    assert result.ephemeral
    assert message in result.response.content


async def test_check_needs_an_rps_character(table: Table) -> None:
    result = await table.bob.slash(table.channel, "rps check", attribute="Strength")
    assert result.ephemeral and "You have no character here" in result.response.content
    await table.bob.slash(table.channel, "sheet create", name="Harry", system="coda")
    result = await table.bob.slash(table.channel, "rps check", attribute="Strength")
    assert "this command needs RPS" in result.response.content


async def test_skill_without_a_parent_attribute(table: Table) -> None:
    await daniela(table)
    await table.alice.slash(table.channel, "sheet skill", name="Poker", ranks=3)
    refused = await table.alice.slash(table.channel, "rps check", skill="Poker")
    assert "has no parent attribute" in refused.response.content
    table.bot.dice = ScriptedDice([2, 2])
    result = await table.alice.slash(
        table.channel, "rps check", skill="Poker", attribute="Intuition"
    )
    assert "**Base 9** = Poker 3 + Intuition 6" in embed_of(result).description


async def test_option_limits_are_declared(table: Table) -> None:
    with pytest.raises(OptionError):
        await table.bob.slash(table.channel, "rps check", base=500)
    with pytest.raises(OptionError):
        await table.bob.slash(table.channel, "rps check", base=10, difficulty="Hard-ish")


async def test_secret_check_goes_to_the_gm(table: Table) -> None:
    table.bot.dice = ScriptedDice([3, 3])
    result = await table.alice.slash(table.channel, "rps check", base=12, secret=True)
    assert result.ephemeral
    dm = table.gm.user.dm_channel.last_message
    assert dm is not None and dm.embeds[0].title.startswith("🎲 SL 6")


async def test_checks_are_logged(table: Table) -> None:
    table.bot.dice = ScriptedDice([3, 3])
    await table.alice.slash(table.channel, "rps check", base=12)
    history = await table.alice.slash(table.channel, "history")
    assert "check Base 12" in text_of(history)
    assert "(Base 12)" not in text_of(history)  # a plain Base is not repeated
    assert "SL 6 (good)" in text_of(history)
    await table.alice.slash(table.channel, "rps sustained start", goal=8)
    table.bot.dice = ScriptedDice([9, 9])
    await table.alice.slash(table.channel, "rps sustained roll", base=14)
    history = await table.alice.slash(table.channel, "history")
    assert "sustained check Base 14" in text_of(history)
    assert "(Base 14)" not in text_of(history)
    assert "SL −4" in text_of(history)


async def test_attribute_autocomplete(table: Table) -> None:
    await daniela(table)
    choices = await table.alice.autocomplete(table.channel, "rps check", "skill", "Tr")
    assert [c["value"] for c in choices] == ["Tracking"]


# --- /rps resisted -------------------------------------------------------------------------


async def test_resisted_poker_example(table: Table) -> None:
    table.bot.dice = ScriptedDice([6, 7, 4, 4, 5, 5])
    result = await table.gm.slash(
        table.channel, "rps resisted", parties="Johnny:10, Franky:9, Richard:8", label="poker"
    )
    embed = embed_of(result)
    assert embed.title == "⚔️ Franky wins — SL 3 — poker"
    assert "Johnny: Base 10, [6] [7] → **SL −3**" in text_of(result)
    # Johnny 10, Franky 9, Richard 8: each one's exact chance, roll-offs included.
    assert "Chance: Johnny wins 44.3% · Franky wins 32.5% · Richard wins 23.2%" in (
        embed.description
    )


async def test_resisted_roll_off_and_a_mentioned_player(table: Table) -> None:
    await daniela(table)
    # Johnny: 12 − 8 = SL 4; Daniela: Base 2 × 5 = 10, double 1s: 10 − 2 + 5 = SL 13.
    table.bot.dice = ScriptedDice([4, 4, 1, 1])
    result = await table.gm.slash(
        table.channel,
        "rps resisted",
        parties=f"Johnny:12, <@{table.alice.id}>",
        attribute="Strength",
    )
    text = text_of(result)
    assert "Daniela wins — SL 9" in embed_of(result).title
    assert "Daniela: 2 × Strength 5" in text
    # Roll-offs: two tied, then only they roll.
    table.bot.dice = ScriptedDice([4, 4, 3, 5, 6, 8, 6, 5, 2, 5])
    result = await table.gm.slash(table.channel, "rps resisted", parties="A:10; B:10; C:10")
    assert "Roll-off 1" in text_of(result)
    assert embed_of(result).title == "⚔️ B wins — SL 4"


async def test_resisted_typed_at_name_is_a_mention(table: Table) -> None:
    await daniela(table)
    table.bot.dice = ScriptedDice([2, 2, 9, 9])
    result = await table.gm.slash(
        table.channel, "rps resisted", parties="@alice:14, Brute:12", label="arm wrestling"
    )
    assert "Daniela wins" in embed_of(result).title


@pytest.mark.parametrize(
    ("parties", "message"),
    [
        ("Johnny", "needs a Base"),
        ("Johnny:12", "needs 2 to 25 parties"),
        ("Johnny:x, B:3", "must be a whole number"),
        ("Johnny:12, johnny:3", "named twice"),
        (" , ; ", "List them, e.g. `Johnny:12"),
    ],
)
async def test_resisted_refusals(table: Table, parties: str, message: str) -> None:
    result = await table.gm.slash(table.channel, "rps resisted", parties=parties)
    assert result.ephemeral and message in result.response.content


async def test_resisted_mentioned_player_needs_a_character_or_a_stat(table: Table) -> None:
    result = await table.gm.slash(
        table.channel, "rps resisted", parties=f"Johnny:12, <@{table.bob.id}>"
    )
    assert "has no active RPS character" in result.response.content
    table.bot.dice = ScriptedDice([5, 5, 2, 2])
    with_base = await table.gm.slash(
        table.channel, "rps resisted", parties=f"Johnny:12, <@{table.bob.id}>:9"
    )
    assert f"<@{table.bob.id}>: Base 9, [2] [2] → **SL 5**" in text_of(with_base)
    await daniela(table)
    result = await table.gm.slash(
        table.channel, "rps resisted", parties=f"Johnny:12, <@{table.alice.id}>"
    )
    assert "Say which `attribute` or `skill`" in result.response.content


# --- /rps sustained ------------------------------------------------------------------------


async def test_sustained_action_to_completion_survives_a_restart(table: Table) -> None:
    started = await table.alice.slash(
        table.channel,
        "rps sustained start",
        goal=8,
        label="pushing the cart",
        participants=f"<@{table.bob.id}>",
    )
    assert "Success Pool **0** / Goal **8**" in embed_of(started).description
    assert f"Participants: <@{table.bob.id}>" in embed_of(started).description
    table.bot.dice = ScriptedDice([3, 4])
    first = await table.alice.slash(table.channel, "rps sustained roll", base=12)
    assert "0 +5 → **5** / 8" in text_of(first)
    # A fresh bot process on the same database file (what a restart is).
    await table.env.restart_bot(create_bot(table.bot.settings, sync_globally=True))
    status = await table.bob.slash(table.channel, "rps sustained status")
    assert "Success Pool **5** / Goal **8** after 1 checks" in embed_of(status).description
    table.bot.dice = ScriptedDice([2, 6])
    done = await table.bob.slash(table.channel, "rps sustained roll", base=12)
    assert "✅" in embed_of(done).title
    assert "complete" in text_of(done)
    refused = await table.bob.slash(table.channel, "rps sustained roll", base=12)
    assert "No sustained action is in progress" in refused.response.content
    # A finished action is not "abandoned": it stays complete.
    abandon = await table.alice.slash(table.channel, "rps sustained abandon")
    assert abandon.ephemeral
    assert "already complete: there is nothing to abandon" in abandon.response.content
    status = await table.bob.slash(table.channel, "rps sustained status")
    assert "✅" in embed_of(status).title


async def test_sustained_fails_on_a_critical_failure(table: Table) -> None:
    await table.alice.slash(table.channel, "rps sustained start", goal=5, no_loss=True)
    table.bot.dice = ScriptedDice([10, 10])
    result = await table.alice.slash(table.channel, "rps sustained roll", base=12)
    assert "💥" in embed_of(result).title
    assert "failed**: critical failure" in text_of(result)


async def test_sustained_automatic_failure_is_an_ordinary_failed_check(table: Table) -> None:
    # Decision: double 10s whose SL would have been ≥ 1 (Base 25 − 20 = 5) are an Automatic
    # Failure, SL 0: the pool loses 1 and the action goes on; only a Critical Failure ends it.
    await table.alice.slash(table.channel, "rps sustained start", goal=5)
    table.bot.dice = ScriptedDice([10, 10])
    result = await table.alice.slash(table.channel, "rps sustained roll", base=25)
    assert "Double 10s: **automatic failure**, SL 0." in text_of(result)
    assert "0 −1 → **−1** / 5" in text_of(result)
    assert "⏳" in embed_of(result).title and "in progress" in text_of(result)
    table.bot.dice = ScriptedDice([1, 2])
    going_on = await table.alice.slash(table.channel, "rps sustained roll", base=25)
    assert "pool 21/5" in embed_of(going_on).title and "✅" in embed_of(going_on).title


async def test_sustained_fails_when_the_pool_drops_below_minus_goal(table: Table) -> None:
    await table.alice.slash(table.channel, "rps sustained start", goal=1)
    table.bot.dice = ScriptedDice([9, 9, 9, 9])
    await table.alice.slash(table.channel, "rps sustained roll", base=5)
    result = await table.alice.slash(table.channel, "rps sustained roll", base=5)
    assert "success pool fell below −goal" in text_of(result)


async def test_sustained_refusals_and_abandon(table: Table) -> None:
    status = await table.alice.slash(table.channel, "rps sustained status")
    assert "There is no sustained action" in status.response.content
    abandon = await table.alice.slash(table.channel, "rps sustained abandon")
    assert "no sustained action in this channel to abandon" in abandon.response.content
    await table.alice.slash(table.channel, "rps sustained start", goal=10)
    again = await table.bob.slash(table.channel, "rps sustained start", goal=3)
    assert "already in progress" in again.response.content
    not_yours = await table.bob.slash(table.channel, "rps sustained abandon")
    assert not_yours.ephemeral and "Only whoever started" in not_yours.response.content
    gm = await table.gm.slash(table.channel, "rps sustained abandon")
    assert "abandoned" in embed_of(gm).title
    with pytest.raises(OptionError):
        await table.alice.slash(table.channel, "rps sustained start", goal=0)


async def test_a_player_cannot_read_another_player_s_attributes_as_a_party(table: Table) -> None:
    await daniela(table)
    # Naming her asks her to roll her own part (tests/bot/cogs/test_roll_your_part.py):
    # only Brute's dice are drawn, and nothing of Daniela's sheet is read or shown.
    table.bot.dice = ScriptedDice([5, 5])
    asked = await table.bob.slash(
        table.channel,
        "rps resisted",
        parties=f"Brute:12, <@{table.alice.id}>",
        attribute="Strength",
    )
    assert not asked.ephemeral and table.bot.dice.remaining == 0
    assert "Daniela" not in text_of(asked) and "Strength 5" not in text_of(asked)
    # A Base given for her reads nothing of Daniela's sheet, not even her name.
    table.bot.dice = ScriptedDice([2, 2, 9, 9])
    given = await table.bob.slash(
        table.channel, "rps resisted", parties=f"Brute:12, <@{table.alice.id}>:14"
    )
    assert "Daniela" not in text_of(given)
