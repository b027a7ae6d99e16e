"""``/drama test|opposed`` and the "Pay the price" button, with penalty dice flowing in."""

from __future__ import annotations

from typing import Any

import pytest
from simcord.backend.errors import OptionError

from bot.app import create_bot
from engine.dice import ScriptedDice
from tests.conftest import Table, embed_of, text_of


async def william(table: Table, player: Any = None) -> None:
    """Alice's William (or, given ``player``, theirs: the GM's, to roll other players' sides)."""
    player = player or table.alice
    await player.slash(table.channel, "sheet create", name="William", system="drama")
    await player.slash(table.channel, "sheet set", attribute="Physical", value=2)
    await player.slash(table.channel, "sheet set", attribute="Agility", value=3)
    await player.slash(table.channel, "sheet set", attribute="Social", value=2)
    await player.slash(table.channel, "sheet skill", name="Riding", ranks=2, attribute="Agility")
    await player.slash(table.channel, "sheet skill", name="Dancing", ranks=4, attribute="Physical")


async def yes_but(table: Table):
    """Alice (William) rolls 2Bd {5, 3}: net 1."""
    table.bot.dice = ScriptedDice([5, 3])
    result = await table.alice.slash(table.channel, "drama test", base=2, label="the gate")
    assert embed_of(result).title.startswith("⚖️ Yes, but… — net 1")
    return result


# --- /drama test ---------------------------------------------------------------------------


async def test_attribute_test_from_the_seed_fails(table: Table) -> None:
    await william(table)
    table.bot.dice = ScriptedDice([4, 3, 3, 1])
    result = await table.alice.slash(table.channel, "drama test", attribute="Physical")
    embed = embed_of(result)
    assert embed.title == "❌ Failure — net 0"
    assert "**4Bd · 0Rd · 0Dd** = 2 × Physical 2 (4Bd)" in embed.description
    text = text_of(result)
    assert "Base dice +0 [4] [3] [3] [1]" in text
    assert "William has no penalty dice." in text
    assert "Chance: " in text
    assert "alice as William" in embed.footer.text
    assert result.response.components == []  # no price to pay


async def test_skill_test_with_difficulty_and_the_lower_attribute_rule(table: Table) -> None:
    await william(table)
    table.bot.dice = ScriptedDice([6, 5, 5, 1, 2, 4, 4, 4, 4, 3, 3])
    result = await table.alice.slash(
        table.channel, "drama test", skill="Dancing", difficulty="Difficult"
    )
    description = embed_of(result).description
    assert "**6Bd · 5Rd · 0Dd**" in description
    assert "Physical 2 < Dancing 4 (1Rd)" in description
    assert "Difficult (4Rd)" in description
    text = text_of(result)
    assert "Base dice +3 **[6]** **[5]** **[5]** [1] [2] [4]" in text
    assert "Resistance dice +0" in text
    assert embed_of(result).title == "✅ Success — net 3"


async def test_agility_2_with_dance_3_picks_up_one_resistance_die(table: Table) -> None:
    # Seed 004's example: an attribute lower than the skill adds 1 Rd (not "half or less").
    await william(table)
    await table.alice.slash(
        table.channel, "sheet skill", name="Dance", ranks=3, attribute="Physical"
    )
    table.bot.dice = ScriptedDice([5, 5, 3, 3, 3, 1])
    result = await table.alice.slash(table.channel, "drama test", skill="Dance")
    description = embed_of(result).description
    assert "**5Bd · 1Rd · 0Dd**" in description
    assert "Physical 2 < Dance 3 (1Rd)" in description
    assert embed_of(result).title == "⚖️ Yes, but… — net 1"
    assert "Chance: 42.9% of success" in text_of(result)


async def test_backgrounds_indirect_and_a_target(table: Table) -> None:
    await william(table)
    table.bot.dice = ScriptedDice([3] * 9)
    result = await table.alice.slash(
        table.channel,
        "drama test",
        attribute="Social",
        backgrounds=2,
        indirect=True,
        target=3,
    )
    description = embed_of(result).description
    assert "**4Bd · 5Rd · 0Dd**" in description
    assert "2 indirect background(s) (4Bd 2Rd)" in description
    assert "target's stat (3Rd)" in description


async def test_drama_dice_explode_and_their_ones_fill_the_penalty_pool(table: Table) -> None:
    await william(table)
    # 4Bd {5,3,2,2} + 2Dd {6,6} exploding into {4,1}: net 3, one penalty die.
    table.bot.dice = ScriptedDice([5, 3, 2, 2, 6, 6, 4, 1])
    result = await table.alice.slash(table.channel, "drama test", base=4, drama=2)
    text = text_of(result)
    assert embed_of(result).title == "✅ Success — net 3"
    assert "Drama dice +2, 2 exploded **[6]**💥 **[6]**💥 ⤷**[4]** ⤷**[1]**⚠️" in text
    assert "+1 penalty die for William from drama-die 1s: 0 → **1** (distracted)" in text
    assert "**William** is now **distracted** (was none)" in text
    # The next test rolls that die in Rd, automatically.
    table.bot.dice = ScriptedDice([5, 5, 1])
    again = await table.alice.slash(table.channel, "drama test", base=2)
    assert (
        "**2Bd · 1Rd · 0Dd** = Base dice (2Bd), penalty dice (1Rd)" in embed_of(again).description
    )
    assert "1 penalty die added to Rd (William is distracted)" in text_of(again)
    assert embed_of(again).title.startswith("⚖️ Yes, but… — net 1")
    shown = await table.alice.slash(table.channel, "penalty show")
    assert "1s on drama dice: 0 → 1" in text_of(shown)
    # The entry does not repeat itself ("drama-die 1s … — 1 drama-die 1s").
    assert "drama-die" not in text_of(shown)


async def test_the_penalty_line_shows_this_roll_s_rd_not_the_pool_after_it(table: Table) -> None:
    await william(table)
    # 2Bd {5,5} + 1Dd {1}: the drama die's 1 adds a penalty die AFTER this roll.
    table.bot.dice = ScriptedDice([5, 5, 1])
    first = await table.alice.slash(table.channel, "drama test", base=2, drama=1)
    text = text_of(first)
    assert "William has no penalty dice." in text
    assert "added to Rd" not in text
    assert "+1 penalty die for William from drama-die 1s: 0 → **1**" in text
    # With one die already: the line says 1 (this roll's Rd), the gain says 1 → 2.
    table.bot.dice = ScriptedDice([5, 5, 3, 1])
    second = await table.alice.slash(table.channel, "drama test", base=2, drama=1)
    text = text_of(second)
    assert "**2Bd · 1Rd · 1Dd**" in embed_of(second).description
    assert "1 penalty die added to Rd (William is distracted)" in text
    assert "+1 penalty die for William from drama-die 1s: 1 → **2**" in text


async def test_the_gm_rolls_penalty_dice_as_a_risk(table: Table) -> None:
    # The GM's own character (an NPC the GM plays), with two penalty dice.
    await table.gm.slash(table.channel, "sheet create", name="Inquisitor", system="drama")
    await table.gm.slash(table.channel, "penalty add", character="Inquisitor", amount=2)
    # 2Bd {5,5}, no Rd, the two penalty dice as Dd {4,1}: 2 + 1 − 1 = net 2.
    table.bot.dice = ScriptedDice([5, 5, 4, 1])
    result = await table.gm.slash(table.channel, "drama test", base=2, risk=True)
    description = embed_of(result).description
    assert "**2Bd · 0Rd · 2Dd** = Base dice (2Bd), penalty dice as a risk (2Dd)" in description
    text = text_of(result)
    assert "2 penalty dice rolled as a risk (Dd), by the GM's decision," in text
    # A Dd 1 of the risk is a drama die's 1: one more penalty die, as for any Dd.
    assert "+1 penalty die for Inquisitor from drama-die 1s: 2 → **3**" in text
    assert embed_of(result).title == "✅ Success — net 2"
    # drama.chance(base=2, drama=2): pinned against a brute-force count in tests/engine.
    assert "Chance: 48.3% of success" in text
    # Only for one test: the next one has them in Rd again.
    table.bot.dice = ScriptedDice([5, 5, 3, 3, 3])
    again = await table.gm.slash(table.channel, "drama test", base=2)
    assert "**2Bd · 3Rd · 0Dd**" in embed_of(again).description


async def test_a_risk_is_the_gms_to_grant_and_needs_penalty_dice(table: Table) -> None:
    await william(table)
    refused = await table.alice.slash(table.channel, "drama test", base=2, risk=True)
    assert refused.ephemeral
    assert "Only the channel's GM can turn penalty dice into a risk" in refused.response.content
    await table.gm.slash(table.channel, "sheet create", name="Inquisitor", system="drama")
    none = await table.gm.slash(table.channel, "drama test", base=2, risk=True)
    assert none.ephemeral and "no penalty dice to turn into a risk" in none.response.content


async def test_the_gm_runs_a_players_test_with_a_risk(table: Table) -> None:
    await william(table)  # alice's, used in this channel
    await table.gm.slash(table.channel, "penalty add", character="William", amount=2)
    # 2Bd {5,5}, William's two penalty dice as Dd {4,1}: net 2; the Dd 1 is William's.
    table.bot.dice = ScriptedDice([5, 5, 4, 1])
    result = await table.gm.slash(
        table.channel, "drama test", base=2, risk=True, character="William"
    )
    assert "penalty dice as a risk (2Dd)" in embed_of(result).description
    assert "+1 penalty die for William from drama-die 1s: 2 → **3**" in text_of(result)
    # A player names only their own characters.
    await table.bob.slash(table.channel, "sheet create", name="Tom", system="drama")
    refused = await table.bob.slash(table.channel, "drama test", base=2, character="William")
    assert refused.ephemeral and "William" in refused.response.content


async def test_without_a_character_penalty_dice_are_not_tracked(table: Table) -> None:
    table.bot.dice = ScriptedDice([5, 5, 1])
    result = await table.bob.slash(table.channel, "drama test", base=2, drama=1)
    assert "penalty dice are not tracked" in text_of(result)


async def test_criticals_when_the_channel_turns_them_on(table: Table) -> None:
    await table.gm.slash(table.channel, "settings rule", name="drama.criticals", value="on")
    table.bot.dice = ScriptedDice([6, 6, 6, 1])
    result = await table.bob.slash(table.channel, "drama test", base=3, resistance=1)
    assert embed_of(result).title == "✅ Success — net 4"
    assert "Criticals +2 3 sixes in Bd and Dd − 1 Rd ones" in text_of(result)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({}, "Give `base` (a number of Base dice), or an `attribute` or `skill`"),
        ({"base": 3, "attribute": "Agility"}, "not both"),
        ({"skill": "Riding", "backgrounds": 1}, "use one or the other"),
        ({"backgrounds": 2}, "Backgrounds add to an attribute"),
        ({"skill": "Archery"}, "William has no skill `Archery`"),
        ({"attribute": "Wits"}, "William has no attribute `Wits`"),
        (
            {"base": 3, "difficulty": "Formidable", "resistance": 55},
            "Rd) you add would be 65 (10 from Formidable + 55 from situational resistance)",
        ),
    ],
)
async def test_test_refusals(table: Table, options: dict, message: str) -> None:
    await william(table)
    result = await table.alice.slash(table.channel, "drama test", **options)
    assert result.ephemeral
    assert message in result.response.content


async def test_sheet_values_need_a_drama_character(table: Table) -> None:
    result = await table.bob.slash(table.channel, "drama test", attribute="Agility")
    assert "You have no character here" in result.response.content


async def test_option_limits(table: Table) -> None:
    with pytest.raises(OptionError):
        await table.bob.slash(table.channel, "drama test", base=61)
    with pytest.raises(OptionError):
        await table.bob.slash(table.channel, "drama test", base=2, backgrounds=4)
    with pytest.raises(OptionError):
        await table.bob.slash(table.channel, "drama opposed", their_base=61, base=2)
    with pytest.raises(OptionError):
        await table.bob.slash(table.channel, "drama opposed", their_base=2, momentum="both")


async def test_a_secret_yes_but_keeps_its_button_for_the_roller(table: Table) -> None:
    await william(table)
    table.bot.dice = ScriptedDice([5, 3])
    result = await table.alice.slash(table.channel, "drama test", base=2, secret=True)
    assert result.ephemeral
    assert result.response.components  # the roller can still pay the price
    dm = table.gm.user.dm_channel.last_message
    assert dm is not None and dm.embeds[0].title.startswith("⚖️ Yes, but… — net 1")
    paid = await table.alice.click(result.response, label="Pay the price")
    assert paid.acknowledged
    shown = await table.alice.slash(table.channel, "penalty show")
    assert "**1 penalty die**" in embed_of(shown).description


async def test_tests_are_logged(table: Table) -> None:
    table.bot.dice = ScriptedDice([5, 5])
    await table.bob.slash(table.channel, "drama test", base=2)
    history = await table.bob.slash(table.channel, "history")
    assert "test 2Bd 0Rd 0Dd" in text_of(history)
    assert "net 2: Success" in text_of(history)


# --- Pay the price --------------------------------------------------------------------------


async def test_only_the_roller_pays_once_and_gains_a_penalty_die(table: Table) -> None:
    await william(table)
    rolled = await yes_but(table)
    message = rolled.response
    assert "Pay the price (+1 penalty die) within 15 minutes" in embed_of(rolled).description
    refused = await table.bob.click(message, label="Pay the price")
    assert refused.ephemeral
    assert f"Only <@{table.alice.id}>, who rolled, can pay this price" in refused.response.content
    await table.alice.click(message, label="Pay the price")
    edited = table.channel.last_message
    embed = edited.embeds[0]
    assert embed.title.startswith("✅ Success (price paid) — net 1")
    assert "Pay the price" not in embed.description  # the offer is taken
    assert "+1 penalty die for paying the price: 0 → **1** (distracted)" in "\n".join(
        f"{f.name} {f.value}" for f in embed.fields
    )
    button = edited.components[0].children[0]
    assert button.disabled
    shown = await table.alice.slash(table.channel, "penalty show")
    assert "paid the price: 0 → 1" in text_of(shown)
    assert "**1 penalty die**" in embed_of(shown).description


async def test_paying_twice_is_refused(table: Table) -> None:
    from bot.actor import Actor
    from bot.services import drama as service
    from bot.services.drama import OfferClosed

    await william(table)
    await yes_but(table)
    actor = Actor(user_id=table.alice.id, channel_id=table.channel.id, guild_id=table.guild.id)
    now = table.env.now()
    await service.pay_price(table.bot.db, actor, 1, now=now)
    with pytest.raises(OfferClosed, match="already been paid"):
        await service.pay_price(table.bot.db, actor, 1, now=now)


async def test_the_price_can_be_paid_after_a_restart(table: Table) -> None:
    await william(table)
    rolled = await yes_but(table)
    await table.env.restart_bot(create_bot(table.bot.settings, sync_globally=True))
    await table.alice.click(rolled.response, label="Pay the price")
    assert table.channel.last_message.embeds[0].title.startswith("✅ Success (price paid)")


async def test_the_price_expires_after_fifteen_minutes(table: Table) -> None:
    await william(table)
    rolled = await yes_but(table)
    await table.env.advance_time(16 * 60)
    late = await table.alice.click(rolled.response, label="Pay the price")
    assert "Too late" in text_of(late)
    assert table.channel.last_message.components[0].children[0].disabled
    shown = await table.alice.slash(table.channel, "penalty show")
    assert "**0 penalty dice**" in embed_of(shown).description


# --- /drama opposed -------------------------------------------------------------------------


async def test_opposed_marbles_example(table: Table) -> None:
    # Alice: 4Bd {5,3,2,2} + 2Dd {6,6} -> {4,1}: net 3. Tom: 5Bd {5,5,2,1,1}: net 2.
    table.bot.dice = ScriptedDice([5, 3, 2, 2, 6, 6, 4, 1, 5, 5, 2, 1, 1])
    result = await table.bob.slash(
        table.channel, "drama opposed", their_base=5, their_name="Tom", base=4, drama=2
    )
    embed = embed_of(result)
    assert embed.title == "🏆 bob wins by 1"
    text = text_of(result)
    assert "**bob**: net 3 · **Tom**: net 2" in text
    assert "Tom: Base dice +2" in text
    assert "Chance: bob wins" in text


async def test_opposed_draw_with_momentum_and_both_fail(table: Table) -> None:
    table.bot.dice = ScriptedDice([5, 5, 6, 6])
    draw = await table.bob.slash(
        table.channel, "drama opposed", their_base=2, base=2, momentum="them"
    )
    assert embed_of(draw).title == "🤝 Draw at 2"
    assert "Momentum settles the draw: **Opponent** prevails" in text_of(draw)
    table.bot.dice = ScriptedDice([5, 3, 1, 1])
    fail = await table.bob.slash(table.channel, "drama opposed", their_base=2, base=2)
    assert embed_of(fail).title == "❌ Both fail"


async def test_opposed_adds_the_roller_s_penalty_and_drama_ones(table: Table) -> None:
    await william(table)
    await table.gm.slash(table.channel, "penalty add", character="William", amount=1)
    table.bot.dice = ScriptedDice([5, 5, 5, 5, 5, 5, 3, 1, 3])
    result = await table.alice.slash(
        table.channel, "drama opposed", their_base=1, attribute="Agility", drama=1
    )
    text = text_of(result)
    assert "**6Bd · 1Rd · 1Dd**" in text
    assert "+1 penalty die for William from drama-die 1s: 1 → **2**" in text
    assert embed_of(result).title == "🏆 William wins by 5"


# --- working together and lending a hand ------------------------------------------------------


async def peter(table: Table) -> None:
    """Bob's Peter: Agility 2, Riding 1, one penalty die."""
    await table.bob.slash(table.channel, "sheet create", name="Peter", system="drama")
    await table.bob.slash(table.channel, "sheet set", attribute="Agility", value=2)
    await table.bob.slash(table.channel, "sheet skill", name="Riding", ranks=1, attribute="Agility")
    await table.gm.slash(table.channel, "penalty add", character="Peter", amount=1)


async def test_working_together_the_nets_add_up(table: Table) -> None:
    await william(table, table.gm)  # a GM rolls with a player's character
    await peter(table)
    # William 5Bd 2Rd: +1 −0 = 1. Peter 3Bd, 2Rd + his penalty die: +1 −1 = 0.
    # Tom 3Bd 2Rd: +2 −1 = 1. Together: 2, a success.
    table.bot.dice = ScriptedDice([*(5, 3, 3, 3, 3, 4, 4), *(6, 3, 3, 3, 3, 1), *(5, 5, 3, 2, 4)])
    result = await table.gm.slash(
        table.channel,
        "drama test",
        skill="Riding",
        difficulty="Troublesome",
        helpers=f"<@{table.bob.id}>, Tom:3",
    )
    embed = embed_of(result)
    assert embed.title == "✅ Success — net 2"
    assert "Working together, the nets add up: William 1 + Peter 0 + Tom 1 = **2**." in (
        embed.description
    )
    text = text_of(result)
    assert "Peter: net 0 **3Bd · 3Rd · 0Dd** = Agility 2 + Riding 1 (3Bd)" in text
    assert "Troublesome (2Rd), penalty dice (1Rd)" in text
    assert "Tom: net 1 **3Bd · 2Rd · 0Dd** = Base dice (3Bd), Troublesome (2Rd)" in text
    assert "Bd +2: **[5]** **[5]** [3] · Rd −1: **[2]** [4]" in text
    assert result.response.components == []
    history = await table.gm.slash(table.channel, "history")
    assert "+ Peter 3Bd 3Rd 0Dd + Tom 3Bd 2Rd 0Dd" in text_of(history)
    assert "net 2: Success" in text_of(history)
    # Helpers roll no drama dice and pay nothing: Peter's pool is as it was.
    shown = await table.bob.slash(table.channel, "penalty show")
    assert "**1 penalty die**" in embed_of(shown).description


async def test_a_yes_but_together_offers_the_roller_the_price(table: Table) -> None:
    await william(table)
    table.bot.dice = ScriptedDice([5, 3, 3, 3])
    result = await table.alice.slash(table.channel, "drama test", base=2, helpers="Tom:2")
    assert embed_of(result).title.startswith("⚖️ Yes, but… — net 1")
    await table.alice.click(result.response, label="Pay the price")
    assert table.channel.last_message.embeds[0].title.startswith("✅ Success (price paid)")


@pytest.mark.parametrize(
    ("helpers", "message"),
    [
        ("Tom", "`Tom` needs a number of Base dice, like `Tom:4`"),
        ("Tom:3, tom:2", "Each helper can be named only once"),
        (", ".join(f"H{i}:1" for i in range(11)), "At most 10 helpers"),
        ("Tom:99", "between 0 and 60"),
        ("{alice}", "You roll your own test already"),
        ("{carol}", "Say which `attribute` or `skill` the helpers you mention roll"),
    ],
)
async def test_working_together_refusals(table: Table, helpers: str, message: str) -> None:
    await william(table)
    helpers = helpers.format(alice=f"<@{table.alice.id}>", carol=f"<@{table.carol.id}>")
    result = await table.alice.slash(table.channel, "drama test", base=2, helpers=helpers)
    assert result.ephemeral
    assert message in result.response.content


async def test_a_mentioned_helper_needs_a_stat_to_roll(table: Table) -> None:
    await peter(table)
    result = await table.gm.slash(table.channel, "drama test", base=2, helpers=f"<@{table.bob.id}>")
    assert "Say which `attribute` or `skill`" in result.response.content
    table.bot.dice = ScriptedDice([5, 5, 5, 3, 3])
    given = await table.gm.slash(
        table.channel, "drama test", base=2, helpers=f"<@{table.bob.id}>:2"
    )
    # Peter's Bd are given; his penalty die still joins his Rd.
    assert "Peter: net 1 **2Bd · 1Rd · 0Dd**" in text_of(given)


async def test_a_player_never_reads_another_player_s_sheet_as_a_helper(table: Table) -> None:
    await william(table)
    await peter(table)
    # Naming him asks him to roll his own part (tests/bot/cogs/test_roll_your_part.py): only
    # William's 5Bd are drawn, and nothing of Peter (name, penalty die) is read or shown.
    table.bot.dice = ScriptedDice([5, 5, 3, 3, 3])
    asked = await table.alice.slash(
        table.channel, "drama test", skill="Riding", helpers=f"<@{table.bob.id}>"
    )
    assert not asked.ephemeral and table.bot.dice.remaining == 0
    assert "Peter" not in text_of(asked) and "Rd" not in text_of(asked)
    # A number for Bob's side reads nothing of Peter: no name, no penalty die.
    table.bot.dice = ScriptedDice([5, 5, 5, 3, 3, 3])
    given = await table.alice.slash(
        table.channel, "drama test", base=2, helpers=f"<@{table.bob.id}>:2"
    )
    assert "Peter" not in text_of(given)
    assert "net 1 **2Bd · 0Rd · 0Dd**" in text_of(given)


async def test_lending_a_hand_adds_the_helper_s_attribute_to_bd(table: Table) -> None:
    await william(table)
    table.bot.dice = ScriptedDice([3] * 7)
    result = await table.alice.slash(table.channel, "drama test", attribute="Physical", hand=3)
    assert "**7Bd · 0Rd · 0Dd** = 2 × Physical 2 (4Bd), lending a hand 3 (3Bd)" in (
        embed_of(result).description
    )
    with pytest.raises(OptionError):
        await table.alice.slash(table.channel, "drama test", base=2, hand=61)


async def test_a_gm_opposing_a_player_tracks_both_pools(table: Table) -> None:
    await william(table, table.gm)
    await peter(table)  # one penalty die
    # William 2Bd {5, 5}: net 2. Peter 2Bd + 1Rd (his penalty die) + 1Dd: {5, 5} {3} {1}: 1.
    table.bot.dice = ScriptedDice([5, 5, 5, 5, 3, 1])
    result = await table.gm.slash(
        table.channel,
        "drama opposed",
        their_base=2,
        their_drama=1,
        their_name=f"<@{table.bob.id}>",
        base=2,
    )
    assert embed_of(result).title == "🏆 William wins by 1"
    text = text_of(result)
    assert "Peter **2Bd · 1Rd · 1Dd** = Base dice (2Bd), drama (1Dd), penalty dice (1Rd)" in text
    assert "+1 penalty die for Peter from drama-die 1s: 1 → **2** (distracted)" in text
    shown = await table.bob.slash(table.channel, "penalty show")
    assert "**2 penalty dice**" in embed_of(shown).description
    typed = await table.gm.slash(
        table.channel, "drama opposed", their_base=2, their_name="@carol", base=2
    )
    assert "has no active Drama character here: name the opponent instead" in text_of(typed)
    myself = await table.gm.slash(
        table.channel, "drama opposed", their_base=2, their_name=f"<@{table.gm.id}>", base=2
    )
    assert "You cannot oppose yourself" in text_of(myself)


async def test_griefing_another_player_s_pool_is_refused(table: Table) -> None:
    """The issue's sequence: a player opposing alice with 60 drama dice, again and again."""
    await william(table)
    await table.bob.slash(table.channel, "sheet create", name="Peter", system="drama")
    for _ in range(3):
        table.bot.dice = ScriptedDice([1] * 70)
        griefed = await table.bob.slash(
            table.channel,
            "drama opposed",
            their_base=1,
            their_name=f"<@{table.alice.id}>",
            their_drama=60,
            base=1,
        )
        assert griefed.ephemeral
        assert f"Drama dice are <@{table.alice.id}>'s own to risk" in text_of(griefed)
    shown = await table.alice.slash(table.channel, "penalty show")
    assert "**0 penalty dice**" in embed_of(shown).description
    table.bot.dice = ScriptedDice([5, 5, 3, 3])
    still = await table.alice.slash(table.channel, "drama test", attribute="Physical")
    assert not still.ephemeral
