"""``/h90 attack`` as a table plays it: the attack, Dodge / a delayer's dodge / Take it pressed
by the right and the wrong user, the turn a dodge uses up, Health, secrecy, restarts."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from bot.actor import Actor
from bot.app import create_bot
from bot.errors import UserError
from bot.services import hogwarts1990 as service
from bot.services.attack_exchange import ExchangeClosed
from engine.dice import ScriptedDice
from engine.systems.hogwarts1990 import Answer
from tests.bot.cogs.coda.test_coda_attack import labels
from tests.bot.cogs.initiative.test_initiative import tracker_text
from tests.conftest import Table, embed_of, text_of


async def three_students(table: Table) -> None:
    """Alice plays Harry (Strength 3, Dexterity 2, Health 5), Bob plays Draco (Dexterity 3,
    Toughness 2, Health 4), Carol plays Hermione (Dexterity 4, Health 5)."""
    alice, bob, carol, channel = table.alice, table.bob, table.carol, table.channel
    for member, name, attributes, health in (
        (alice, "Harry", {"Strength": 3, "Dexterity": 2}, 5),
        (bob, "Draco", {"Dexterity": 3, "Toughness": 2}, 4),
        (carol, "Hermione", {"Dexterity": 4}, 5),
    ):
        await member.slash(channel, "sheet create", name=name, system="h90")
        for attribute, value in attributes.items():
            await member.slash(channel, "sheet set", attribute=attribute, value=value)
        await member.slash(channel, "sheet resource", name="Health", current=health, max=health)
        await member.slash(channel, "sheet use", character=name)


async def harry_hits_draco(table: Table, **options):
    """Harry rolls [4, 11] keeping 11, + Strength 3 = 14 against 12: a hit."""
    table.bot.dice = ScriptedDice([4, 11])
    result = await table.alice.slash(
        table.channel,
        "h90 attack",
        target="Draco",
        difficulty=12,
        attribute="Strength",
        **options,
    )
    assert not result.ephemeral, text_of(result)
    return result


async def health(table: Table, member) -> str:
    return text_of(await member.slash(table.channel, "sheet show"))


async def test_a_hit_waits_and_draco_dodges_out_of_it(table: Table) -> None:
    await three_students(table)
    result = await harry_hits_draco(table)
    embed = embed_of(result)
    assert embed.title == "⚔️ Harry hits Draco: dodge?"
    assert "[4] **[11]**" in embed.fields[0].value
    assert "11 + 3 (Strength) = **14** vs 12: **Success**" in embed.fields[0].value
    assert f"Waiting for <@{table.bob.id}> (or the GM): **Dodge**" in embed.description
    assert "the difficulty rises by Draco's Dexterity" in embed.description
    assert labels(result.response) == ["Dodge", "Take it"]
    # Carol is not the defender: a short refusal, and the exchange still waits.
    refused = await table.carol.click(result.response, label="Dodge")
    assert refused.ephemeral
    assert f"Only <@{table.bob.id}> (or the GM) answers this attack on Draco." in text_of(refused)
    # Bob dodges: 12 + Dexterity 3 = 15 > 14; no dice are drawn (the same roll, judged again).
    table.bot.dice = ScriptedDice([])
    await table.bob.click(result.response, label="Dodge")
    message = table.channel.last_message
    shown = message.embeds[0]
    assert shown.title == "🛡️ Draco dodges Harry's attack"
    assert "difficulty 12 + Dexterity 3 = **15**; the attack now misses." in shown.fields[1].value
    assert "Chance the dodge turned the hit into a miss: 100.0%" in shown.fields[1].value
    assert "No skirmish runs here, so no turn is used up." in shown.fields[1].value
    assert message.components == []
    assert "4/4" in await health(table, table.bob)
    history = text_of(await table.bob.slash(table.channel, "history"))
    assert "Draco dodges Harry's attack on Draco" in history


async def test_a_dodge_that_falls_short_and_take_it_cost_health(table: Table) -> None:
    await three_students(table)
    result = await harry_hits_draco(table, dodge="Toughness", damage=2)
    table.bot.dice = ScriptedDice([])
    await table.bob.click(result.response, label="Dodge")  # 12 + 2 = 14: still a hit
    shown = table.channel.last_message.embeds[0]
    assert shown.title == "💥 Harry hits Draco: −2 Health"
    assert "the attack still hits" in shown.fields[1].value
    assert "❤️ Draco's Health: 4 → **2**/4" in shown.fields[2].value
    # The GM may answer for a player's character: Take it, 2 more, down to 0: knocked out.
    again = await harry_hits_draco(table, damage=3)
    await table.gm.click(again.response, label="Take it")
    shown = table.channel.last_message.embeds[0]
    assert shown.fields[1].name == "🛡️ No dodge"
    assert "❤️ Draco's Health: 2 → **0**/4" in shown.fields[2].value
    assert "💤 Draco is knocked out" in shown.fields[2].value
    assert "0/4" in await health(table, table.bob)


async def test_a_miss_has_no_buttons(table: Table) -> None:
    await three_students(table)
    table.bot.dice = ScriptedDice([4, 8])  # 8 + 3 = 11 < 12
    result = await table.alice.slash(
        table.channel, "h90 attack", target="Draco", difficulty=12, attribute="Strength"
    )
    assert embed_of(result).title == "⚔️ Harry attacks Draco: a miss"
    assert result.response.components == []


async def test_an_npc_is_answered_by_the_gm_with_its_given_dodge(table: Table) -> None:
    await three_students(table)
    table.bot.dice = ScriptedDice([13, 2])  # 13 + 3 = 16 vs 14
    result = await table.alice.slash(
        table.channel,
        "h90 attack",
        target="Troll",
        difficulty=14,
        attribute="Strength",
        npc_dodge=2,
    )
    assert "Waiting for the GM (for the NPC)" in embed_of(result).description
    refused = await table.alice.click(result.response, label="Dodge")
    assert "Only the GM answers this attack on Troll." in text_of(refused)
    await table.gm.click(result.response, label="Dodge")  # 14 + 2 = 16: still a hit
    shown = table.channel.last_message.embeds[0]
    assert shown.title == "💥 Harry hits Troll: −1 Health"
    assert "difficulty 14 + dodge 2 = **16**; the attack still hits." in shown.fields[1].value
    assert "The NPC has no sheet" in shown.fields[2].value


async def test_an_npc_attacker_and_advantage_rerolled_by_the_dodge(table: Table) -> None:
    await three_students(table)
    # Goyle (the GM's NPC, bonus 1): [3, 15] keeps 15, 16 vs 12 hits; advantage not needed.
    table.bot.dice = ScriptedDice([3, 15])
    result = await table.gm.slash(
        table.channel,
        "h90 attack",
        target="Draco",
        difficulty=12,
        bonus=1,
        advantage=True,
        attacker="Goyle",
    )
    embed = embed_of(result)
    assert embed.title == "⚔️ Goyle hits Draco: dodge?"
    assert "advantage not used" in embed.fields[0].value
    # Draco dodges: 12 + 3 = 15 ... 16 still reaches it. A harder dodge (Dexterity + 3 = 18)
    # makes the first roll fail, so advantage rerolls the 3 now: a 19 hits anyway.
    result = await _goyle_again(table, dodge="Dexterity + 3")
    table.bot.dice = ScriptedDice([19])
    await table.bob.click(result.response, label="Dodge")
    shown = table.channel.last_message.embeds[0]
    assert "difficulty 12 + Dexterity 3 + 3 = **18**; the attack still hits." in (
        shown.fields[1].value
    )
    assert "~~[3]~~ → **[19]**" in shown.fields[1].value
    assert "Chance the dodge turned the hit into a miss: 80.0%" in shown.fields[1].value
    assert "4 → **3**/4" in shown.fields[2].value


async def _goyle_again(table: Table, **options):
    table.bot.dice = ScriptedDice([3, 15])
    return await table.gm.slash(
        table.channel,
        "h90 attack",
        target="Draco",
        difficulty=12,
        bonus=1,
        advantage=True,
        attacker="Goyle",
        **options,
    )


async def skirmish(table: Table) -> None:
    """An H90 skirmish: Harry 15, Draco 12, Hermione 10 (all set by the GM, played by their
    players' sheets through /init join's roll: scripted)."""
    await table.gm.slash(table.channel, "init start", system="h90")
    for member, faces in ((table.alice, [15, 1]), (table.bob, [12, 1]), (table.carol, [10, 1])):
        table.bot.dice = ScriptedDice(faces)
        await member.slash(table.channel, "init join")
    await table.gm.slash(table.channel, "init next")  # round 1: Harry's turn


async def test_a_dodge_uses_up_the_targets_turn_on_the_tracker(table: Table) -> None:
    await three_students(table)
    await skirmish(table)
    assert "Round 1 · **Harry**'s turn" in tracker_text(table)
    result = await harry_hits_draco(table)
    await table.bob.click(result.response, label="Dodge")
    shown = table.channel.last_message.embeds[0]
    assert "⏱️ The dodge uses up Draco's turn this round." in shown.fields[1].value
    # Draco's turn is spent: Next goes from Harry to Hermione.
    await table.gm.slash(table.channel, "init next")
    assert "Round 1 · **Hermione**'s turn" in tracker_text(table)
    # Hermione attacks Draco, whose turn has passed: the dodge is refused, Take it works.
    table.bot.dice = ScriptedDice([18, 2])
    second = await table.carol.slash(
        table.channel, "h90 attack", target="Draco", difficulty=10, bonus=0
    )
    refused = await table.bob.click(second.response, label="Dodge")
    assert refused.ephemeral and "Draco has already defended this round." in text_of(refused)
    await table.bob.click(second.response, label="Take it")
    assert "4 → **3**/4" in table.channel.last_message.embeds[0].fields[2].value
    assert "~~Draco~~ — 12 · *defended this round* · ❤️ 3/4" in tracker_text(table)


async def test_only_a_delayer_dodges_for_a_friend(table: Table) -> None:
    await three_students(table)
    await skirmish(table)
    await table.gm.slash(table.channel, "init next")  # Draco's turn
    await table.bob.slash(table.channel, "init delay")  # Draco delays; Hermione's turn
    await table.gm.slash(table.channel, "init add", name="Goyle", roll=8)
    await table.carol.slash(table.channel, "init next")  # Goyle's turn
    # Goyle attacks Harry (who has acted): Draco, delaying, may dodge for him.
    table.bot.dice = ScriptedDice([17, 4])  # 17 + 2 = 19 vs 15
    result = await table.gm.slash(
        table.channel, "h90 attack", target="Harry", difficulty=15, bonus=2, attacker="Goyle"
    )
    assert labels(result.response) == ["Dodge", "Draco dodges for them", "Take it"]
    assert "A delayer may dodge for Harry instead: **Draco**." in embed_of(result).description
    # Harry's own dodge: his turn has passed.
    own = await table.alice.click(result.response, label="Dodge")
    assert "Harry's turn this round has passed." in text_of(own)
    # Only Draco's player (or the GM) presses Draco's button.
    wrong = await table.alice.click(result.response, label="Draco dodges for them")
    assert "Only Draco's player (or the GM) answers this attack on Harry." in text_of(wrong)
    await table.bob.click(result.response, label="Draco dodges for them")  # 15 + 3 = 18 < 19
    shown = table.channel.last_message.embeds[0]
    assert shown.fields[1].name == "🛡️ Draco dodges for Harry"
    assert "The dodge spends Draco's delayed action; Draco keeps the place." in (
        shown.fields[1].value
    )
    assert "❤️ Harry's Health: 5 → **4**/5" in shown.fields[2].value
    tracker = tracker_text(table)
    assert "Delayed" not in tracker and "Harry — 15 · ❤️ 4/5" in tracker


async def test_a_delayer_from_the_table_saves_a_friend(table: Table) -> None:
    await three_students(table)
    await skirmish(table)
    await table.alice.slash(table.channel, "init delay")  # Harry delays; Draco's turn
    table.bot.dice = ScriptedDice([12, 12])  # doubles: 12 + 0 vs 11, an Exceptional success
    result = await table.bob.slash(
        table.channel, "h90 attack", target="Hermione", difficulty=11, bonus=0
    )
    assert "**Exceptional success**" in embed_of(result).fields[0].value
    await table.alice.click(result.response, label="Harry dodges for them")  # 11 + 2 = 13
    shown = table.channel.last_message.embeds[0]
    assert shown.title == "🛡️ Harry dodges for Hermione: Draco misses"
    assert "**Critical failure**" in shown.fields[1].value  # doubles, judged again
    assert "5/5" in await health(table, table.carol)
    assert "Delayed" not in tracker_text(table)


async def test_a_double_press_answers_once(table: Table) -> None:
    """Two presses at once (the defender and the GM): the row lock lets one answer; the
    other is told the attack is over, and Health is taken once."""
    await three_students(table)
    await harry_hits_draco(table, damage=2)
    now = table.env.now()
    bob = Actor(user_id=table.bob.id, channel_id=table.channel.id, guild_id=table.guild.id)
    gm = Actor(
        user_id=table.gm.id, channel_id=table.channel.id, guild_id=table.guild.id, gm_role=True
    )
    results = await asyncio.gather(
        *(
            service.answer(table.bot.db, ScriptedDice([]), who, 1, Answer.TAKE, now=now)
            for who in (bob, gm)
        ),
        return_exceptions=True,
    )
    closed = [r for r in results if isinstance(r, ExchangeClosed)]
    done = [r for r in results if isinstance(r, service.Exchange)]
    assert len(closed) == 1 and "already over" in str(closed[0]) and len(done) == 1
    assert "2/4" in await health(table, table.bob)  # taken once
    # The button pressed again later: refused, nothing taken.
    late = await harry_hits_draco(table, damage=1)
    await table.bob.click(late.response, label="Take it")
    assert table.channel.last_message.components == []
    assert "1/4" in await health(table, table.bob)


async def test_an_exchange_resumes_after_a_restart(table: Table) -> None:
    await three_students(table)
    await skirmish(table)
    await table.gm.slash(table.channel, "init next")
    await table.bob.slash(table.channel, "init delay")  # Draco delays
    await table.carol.slash(table.channel, "init next")  # round 2: Harry's turn
    table.bot.dice = ScriptedDice([14, 3])  # 14 + 0 vs 13
    result = await table.alice.slash(
        table.channel, "h90 attack", target="Hermione", difficulty=13, bonus=0
    )
    first = table.bot
    await table.env.restart_bot(create_bot(table.bot.settings, sync_globally=True))
    assert table.bot is not first
    table.bot.dice = ScriptedDice([])
    await table.bob.click(result.response, label="Draco dodges for them")  # 13 + 3 = 16
    shown = table.channel.last_message.embeds[0]
    assert shown.title == "🛡️ Draco dodges for Hermione: Harry misses"
    tracker = await table.gm.slash(table.channel, "init show")
    assert "Delayed" not in text_of(tracker)
    # Delayed since round 1, Draco spent the delayed action: his round-2 turn still comes.
    await table.alice.slash(table.channel, "init next")
    assert "Round 2 · **Draco**'s turn" in tracker_text(table)


async def test_finished_and_expired_exchanges_refuse_politely(table: Table) -> None:
    await three_students(table)
    await harry_hits_draco(table)
    actor = Actor(user_id=table.bob.id, channel_id=table.channel.id, guild_id=table.guild.id)
    now = table.env.now()
    await service.answer(table.bot.db, ScriptedDice([]), actor, 1, Answer.TAKE, now=now)
    with pytest.raises(ExchangeClosed, match="already over"):
        await service.answer(table.bot.db, ScriptedDice([]), actor, 1, Answer.TAKE, now=now)
    with pytest.raises(ExchangeClosed, match="no longer known"):
        await service.answer(table.bot.db, ScriptedDice([]), actor, 99, Answer.TAKE, now=now)
    late = await harry_hits_draco(table)
    await table.env.advance_time(int(timedelta(hours=25).total_seconds()))
    refused = await table.bob.click(late.response, label="Take it")
    assert "Too late" in text_of(refused)
    assert table.channel.last_message.components == []


async def test_a_cover_without_a_skirmish_or_a_delay_is_refused(table: Table) -> None:
    await three_students(table)
    await harry_hits_draco(table)
    gm = Actor(
        user_id=table.gm.id, channel_id=table.channel.id, guild_id=table.guild.id, gm_role=True
    )
    now = table.env.now()
    with pytest.raises(UserError, match="nobody delays"):
        await service.answer(
            table.bot.db, ScriptedDice([]), gm, 1, Answer.COVER, now=now, cover="Hermione"
        )
    await skirmish(table)
    with pytest.raises(Exception, match="Hermione is not delaying"):
        await service.answer(
            table.bot.db, ScriptedDice([]), gm, 1, Answer.COVER, now=now, cover="Hermione"
        )


async def test_a_secret_attack_shows_the_table_no_dice(table: Table) -> None:
    await three_students(table)
    table.bot.dice = ScriptedDice([4, 11])
    result = await table.alice.slash(
        table.channel,
        "h90 attack",
        target="Draco",
        difficulty=12,
        attribute="Strength",
        secret=True,
    )
    assert result.ephemeral
    assert "**14** vs 12" in embed_of(result).fields[0].value
    public = table.channel.last_message
    assert public.embeds[0].title == "⚔️ Harry hits Draco: dodge?"
    assert "**14**" not in public.embeds[0].fields[0].value
    assert "rolled in secret" in public.embeds[0].fields[0].value
    answered = await table.bob.click(public, label="Take it")
    own = answered.followups[0]  # Bob's own copy, with the dice
    assert own.ephemeral
    assert "❤️ Draco's Health: 4 → **3**/4" in own.embeds[0].fields[2].value
    shown = answered.response
    assert shown.embeds[0].title == "💥 Harry hits Draco"
    assert "Draco is hurt" in shown.embeds[0].fields[2].value
    assert "→" not in shown.embeds[0].fields[2].value
    dm = table.gm.user.dm_channel.last_message
    assert dm is not None and "4 → **3**/4" in dm.embeds[0].fields[2].value


async def test_bad_input_is_refused_kindly(table: Table) -> None:
    await three_students(table)
    too_many = await table.alice.slash(
        table.channel,
        "h90 attack",
        target="Draco",
        difficulty=12,
        attribute="Strength",
        dodge="A + B + C + D + E",
    )
    assert too_many.ephemeral and "at most 4" in text_of(too_many)
    empty = await table.alice.slash(
        table.channel, "h90 attack", target="Draco", difficulty=12, dodge="Dexterity +"
    )
    assert empty.ephemeral and "joined by +" in text_of(empty)
    no_attribute = await table.alice.slash(
        table.channel, "h90 attack", target="Draco", difficulty=12, attribute="Charm"
    )
    assert no_attribute.ephemeral
    blank = await table.alice.slash(table.channel, "h90 attack", target="  ", difficulty=12)
    assert blank.ephemeral and "Name the target" in text_of(blank)
    # A dodge attribute the dodger's sheet lacks: told at the press, the exchange still waits.
    result = await harry_hits_draco(table, dodge="Charm")
    refused = await table.bob.click(result.response, label="Dodge")
    assert refused.ephemeral and "Charm" in text_of(refused)
    await table.bob.click(result.response, label="Take it")
    assert "4 → **3**/4" in table.channel.last_message.embeds[0].fields[2].value
    table.bot.dice = ScriptedDice([20, 1])
    hostile = await table.alice.slash(
        table.channel, "h90 attack", target="@everyone **Troll**", difficulty=5, bonus=0
    )
    assert "@\u200beveryone \\*\\*Troll\\*\\*" in embed_of(hostile).title


async def test_an_npc_delayer_dodges_for_a_player_and_hidden_delayers_stay_hidden(
    table: Table,
) -> None:
    await three_students(table)
    await skirmish(table)  # Harry's turn
    await table.gm.slash(table.channel, "init add", name="Filch", roll=14)
    await table.gm.slash(table.channel, "init add", name="Spy", roll=13, hidden=True)
    await table.alice.slash(table.channel, "init next")  # Filch's turn
    await table.gm.slash(table.channel, "init delay")  # Filch delays: the Spy's turn
    await table.gm.slash(table.channel, "init delay")  # the Spy delays: Draco's turn
    table.bot.dice = ScriptedDice([14, 2])  # 14 + 0 vs 10
    result = await table.bob.slash(
        table.channel,
        "h90 attack",
        target="Hermione",
        difficulty=10,
        bonus=0,
        dodge="Charm",
        npc_dodge=5,
    )
    assert labels(result.response) == ["Dodge", "Filch dodges for them", "Take it"]
    assert "Spy" not in str(embed_of(result).to_dict())
    # A dodge attribute Hermione's sheet lacks: refused, and her turn is not spent.
    refused = await table.carol.click(result.response, label="Dodge")
    assert refused.ephemeral and "Charm" in text_of(refused)
    assert "defended" not in tracker_text(table)
    # Filch is the GM's: Bob may not press his button; the GM does (10 + 5 = 15 > 14).
    wrong = await table.bob.click(result.response, label="Filch dodges for them")
    assert "Only the GM answers this attack on Hermione." in text_of(wrong)
    await table.gm.click(result.response, label="Filch dodges for them")
    shown = table.channel.last_message.embeds[0]
    assert shown.title == "🛡️ Filch dodges for Hermione: Draco misses"
    assert "difficulty 10 + dodge 5 = **15**" in shown.fields[1].value
    tracker = tracker_text(table)
    assert "⏸️ Filch" not in tracker and "Hermione — 10 · ❤️ 5/5" in tracker


async def test_a_press_counts_like_a_command(table: Table) -> None:
    from tests.bot.cogs.test_fair_use import limits

    await three_students(table)
    result = await harry_hits_draco(table)
    limits(table)
    table.bot.dice = ScriptedDice([3] * 10)
    for _ in range(10):
        await table.bob.slash(table.channel, "roll", expression="1d6")
    pressed = await table.bob.click(result.response, label="Take it")
    assert pressed.ephemeral and "Slow down" in text_of(pressed)
    assert "4/4" in text_of(await table.gm.slash(table.channel, "sheet show", character="Draco"))
