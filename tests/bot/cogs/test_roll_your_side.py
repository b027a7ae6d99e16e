"""Opposed rolls against someone else's character (docs/decisions/other-players.md): the challenger
rolls their side, the other player rolls theirs from their own sheet with **Roll my side**,
and the result appears when both have rolled. A GM still rolls both sides at once.

Draw order: the challenger's dice when they ask, the other side's when its player presses.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.actor import Actor
from bot.app import create_bot
from bot.services import coda as coda_opposed
from bot.services.side_requests import RequestClosed
from engine.dice import ScriptedDice
from tests.conftest import Table, embed_of, text_of

ROLL = "Roll my side"


def _stored(table: Table, message: Any) -> Any:
    return table.env.backend.get_message(message.channel.id, message.id)


def _fields(embed: Any) -> str:
    return "\n".join(f"{f.name} {f.value}" for f in embed.fields)


async def hermione_and_ron(table: Table) -> None:
    """Alice's Hermione (Stealth 3 + 2) and Bob's Ron (Stealth 2 + 1), both used here."""
    await table.alice.slash(table.channel, "sheet create", name="Hermione", system="coda")
    await table.alice.slash(table.channel, "sheet set", attribute="Wits", value=3)
    await table.alice.slash(table.channel, "sheet skill", name="Stealth", ranks=2, attribute="Wits")
    await table.bob.slash(table.channel, "sheet create", name="Ron", system="coda")
    await table.bob.slash(table.channel, "sheet set", attribute="Wits", value=2)
    await table.bob.slash(table.channel, "sheet skill", name="Stealth", ranks=1, attribute="Wits")
    await table.bob.slash(table.channel, "sheet use", character="Ron")


async def challenge(table: Table, **options: Any) -> Any:
    """Alice's Hermione (Stealth) against Bob's Ron (Stealth): her dice 4, 4 (13)."""
    table.bot.dice = ScriptedDice([4, 4])
    options = {"a": "Hermione", "a_skill": "Stealth", "b": "Ron", "b_skill": "Stealth"} | options
    result = await table.alice.slash(table.channel, "coda opposed", **options)
    assert table.bot.dice.remaining == 0  # side A rolled now, side B not yet
    return result


# --------------------------------------------------------------------------- /coda opposed


async def test_coda_the_other_player_rolls_their_side(table: Table) -> None:
    await hermione_and_ron(table)
    asked = await challenge(table, label="past Filch")
    assert not asked.ephemeral
    content = asked.response.content
    assert content.startswith(
        f"<@{table.bob.id}>: Hermione · Stealth (Wits) challenges **Ron** (Stealth) — past Filch"
        " — roll your side with **Roll my side** (within 10 minutes)"
    )
    assert _stored(table, asked.response.message).ping_user_ids == [table.bob.id]
    table.bot.dice = ScriptedDice([3, 3])  # Ron: 6 + 2 + 1 = 9
    pressed = await table.bob.click(asked.response, label=ROLL)
    assert not pressed.ephemeral
    message = table.channel.last_message
    embed = message.embeds[0]
    assert embed.title == "✅ A (Hermione · Stealth (Wits)) wins — past Filch"
    assert "wins by 4" in embed.description
    fields = _fields(embed)
    assert "2d6 (8) + 3 (Wits) + 2 (Stealth ranks) = **13**" in fields
    assert "2d6 (6) + 2 (Wits) + 1 (Stealth ranks) = **9**" in fields
    assert "alice and bob" in embed.footer.text
    assert not message.content  # the ping line gave way to the result
    assert message.components[0].children[0].disabled
    history = await table.alice.slash(table.channel, "history")
    assert "→ **13 · waiting for side B** *past Filch*" in text_of(history)
    assert "13 vs 9 · A wins" in text_of(history)


async def test_coda_only_the_addressed_player_may_roll(table: Table) -> None:
    await hermione_and_ron(table)
    asked = await challenge(table)
    table.bot.dice = ScriptedDice([])  # nobody else draws a die
    for stranger in (table.carol, table.alice, table.gm):
        refused = await stranger.click(asked.response, label=ROLL)
        assert refused.ephemeral
        assert f"Only <@{table.bob.id}> can roll this side" in refused.response.content
    table.bot.dice = ScriptedDice([6, 5])
    await table.bob.click(asked.response, label=ROLL)
    assert table.channel.last_message.embeds[0].title.endswith("B (Ron · Stealth (Wits)) wins")


async def test_coda_a_double_press_rolls_once(table: Table) -> None:
    await hermione_and_ron(table)
    asked = await challenge(table)
    table.bot.dice = ScriptedDice([3, 3])
    await table.bob.click(asked.response, label=ROLL)
    assert table.channel.last_message.components[0].children[0].disabled
    # A second press from a client that has not seen the edit yet: told, nothing rolled.
    bob = Actor(user_id=table.bob.id, channel_id=table.channel.id, guild_id=table.guild.id)
    with pytest.raises(RequestClosed, match="already been rolled"):
        await coda_opposed.roll_their_side(
            table.bot.db, ScriptedDice([]), bob, 1, now=table.env.now()
        )
    history = await table.alice.slash(table.channel, "history")
    assert text_of(history).count("13 vs 9 · A wins") == 1


async def test_coda_two_presses_at_once_roll_once(table: Table) -> None:
    await hermione_and_ron(table)
    await challenge(table)
    bob = Actor(user_id=table.bob.id, channel_id=table.channel.id, guild_id=table.guild.id)
    dice = ScriptedDice([3, 3, 3, 3])
    now = table.env.now()
    results = await asyncio.gather(
        coda_opposed.roll_their_side(table.bot.db, dice, bob, 1, now=now),
        coda_opposed.roll_their_side(table.bot.db, dice, bob, 1, now=now),
        return_exceptions=True,
    )
    assert sum(isinstance(r, coda_opposed.OpposedOutcome) for r in results) == 1
    assert sum(isinstance(r, RequestClosed) for r in results) == 1
    assert dice.used == 2


async def test_coda_a_request_lapses_after_ten_minutes(table: Table) -> None:
    await hermione_and_ron(table)
    asked = await challenge(table)
    await table.env.advance_time(11 * 60)
    table.bot.dice = ScriptedDice([])
    late = await table.bob.click(asked.response, label=ROLL)
    assert "Too late: this challenge lapsed" in text_of(late)
    message = table.channel.last_message
    assert "⌛ Lapsed: the other side was not rolled within 10 minutes." in message.content
    assert message.components[0].children[0].disabled


async def test_coda_a_request_survives_a_restart(table: Table) -> None:
    await hermione_and_ron(table)
    asked = await challenge(table)
    first = table.bot
    await table.env.restart_bot(create_bot(table.bot.settings, sync_globally=True))
    assert table.bot is not first
    table.bot.dice = ScriptedDice([1, 2])
    await table.bob.click(asked.response, label=ROLL)
    embed = table.channel.last_message.embeds[0]
    assert "2d6 (3) + 2 (Wits) + 1 (Stealth ranks) = **6**" in _fields(embed)


async def test_coda_the_other_side_is_refused_nicely_and_stays_open(table: Table) -> None:
    await hermione_and_ron(table)
    asked = await challenge(table, b_skill="Flying")
    table.bot.dice = ScriptedDice([])
    refused = await table.bob.click(asked.response, label=ROLL)
    assert refused.ephemeral and "Ron has no skill or attribute `Flying`" in text_of(refused)
    assert not table.channel.last_message.components[0].children[0].disabled


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"b_skill": None}, "Side B: say what Ron rolls (`b_skill`)"),
        ({"secret": True}, "A secret roll cannot wait for Ron's player"),
        ({"b": "Draco"}, "no character called `Draco`"),
    ],
)
async def test_coda_request_refusals(table: Table, options: Any, message: str) -> None:
    await hermione_and_ron(table)
    table.bot.dice = ScriptedDice([])
    options = {"a": "Hermione", "a_skill": "Stealth", "b": "Ron", "b_skill": "Stealth"} | options
    refused = await table.alice.slash(
        table.channel, "coda opposed", **{k: v for k, v in options.items() if v is not None}
    )
    assert refused.ephemeral and message in refused.response.content


async def test_coda_a_gm_still_rolls_both_sides(table: Table) -> None:
    await hermione_and_ron(table)
    await table.alice.slash(table.channel, "sheet use", character="Hermione")
    table.bot.dice = ScriptedDice([4, 4, 3, 3])
    result = await table.gm.slash(
        table.channel, "coda opposed", a="Hermione", a_skill="Stealth", b="Ron", b_skill="Stealth"
    )
    assert embed_of(result).title == "✅ A (Hermione · Stealth (Wits)) wins"
    assert result.response.components == []


# --------------------------------------------------------------------------- /drama opposed


async def william_and_peter(table: Table) -> None:
    """Alice's William (Agility 3, Riding 2) and Bob's Peter (Agility 2, Riding 1, one
    penalty die)."""
    await table.alice.slash(table.channel, "sheet create", name="William", system="drama")
    await table.alice.slash(table.channel, "sheet set", attribute="Agility", value=3)
    await table.alice.slash(
        table.channel, "sheet skill", name="Riding", ranks=2, attribute="Agility"
    )
    await table.bob.slash(table.channel, "sheet create", name="Peter", system="drama")
    await table.bob.slash(table.channel, "sheet set", attribute="Agility", value=2)
    await table.bob.slash(table.channel, "sheet skill", name="Riding", ranks=1, attribute="Agility")
    await table.gm.slash(table.channel, "penalty add", character="Peter", amount=1)


async def drama_challenge(table: Table, **options: Any) -> Any:
    """William rides (5Bd + 1Dd): {5, 5, 5, 3, 3} {1}: net 2, and a penalty die for him."""
    table.bot.dice = ScriptedDice([5, 5, 5, 3, 3, 1])
    options = {
        "their_name": f"<@{table.bob.id}>",
        "their_skill": "Riding",
        "skill": "Riding",
        "drama": 1,
    } | options
    result = await table.alice.slash(table.channel, "drama opposed", **options)
    assert table.bot.dice.remaining == 0
    return result


async def test_drama_the_other_player_rolls_their_side_from_their_sheet(table: Table) -> None:
    await william_and_peter(table)
    asked = await drama_challenge(table, label="the race")
    content = asked.response.content
    assert content.startswith(
        f"<@{table.bob.id}>: William challenges you (skill Riding) — the race — roll your side"
    )
    assert _stored(table, asked.response.message).ping_user_ids == [table.bob.id]
    shown = await table.alice.slash(table.channel, "penalty show")
    assert "**1 penalty die**" in embed_of(shown).description  # her Dd 1, at once
    peter = await table.bob.slash(table.channel, "penalty show")
    assert "**1 penalty die**" in embed_of(peter).description  # his: untouched until he rolls
    table.bot.dice = ScriptedDice([6, 3, 3, 2])  # Peter 3Bd + 1Rd (his penalty die): 1 − 1
    await table.bob.click(asked.response, label=ROLL)
    message = asked.response.message.id
    embed = next(m for m in table.channel.history() if m.id == message).embeds[0]
    assert embed.title == "🏆 William wins by 2 — the race"
    text = f"{embed.description}\n{_fields(embed)}"
    assert "Peter **3Bd · 1Rd · 0Dd** = Agility 2 + Riding 1 (3Bd), penalty dice (1Rd)" in text
    assert "+1 penalty die for William from drama-die 1s: 0 → **1**" in text
    assert "alice and bob" in embed.footer.text
    history = await table.alice.slash(table.channel, "history")
    assert "net 2 · waiting for the other side" in text_of(history)
    assert "2 vs 0: William wins by 2" in text_of(history)


async def test_drama_only_bob_rolls_and_a_restart_keeps_the_request(table: Table) -> None:
    await william_and_peter(table)
    asked = await drama_challenge(table)
    table.bot.dice = ScriptedDice([])
    refused = await table.carol.click(asked.response, label=ROLL)
    assert refused.ephemeral and f"Only <@{table.bob.id}> can roll" in text_of(refused)
    await table.env.restart_bot(create_bot(table.bot.settings, sync_globally=True))
    table.bot.dice = ScriptedDice([5, 5, 5, 6])  # Peter: 3 − 0 = 3 beats William's 2
    await table.bob.click(asked.response, label=ROLL)
    assert table.channel.last_message.embeds[0].title == "🏆 Peter wins by 1"


async def test_drama_a_request_lapses(table: Table) -> None:
    await william_and_peter(table)
    asked = await drama_challenge(table)
    await table.env.advance_time(11 * 60)
    late = await table.bob.click(asked.response, label=ROLL)
    assert "Too late" in text_of(late)
    assert "⌛ Lapsed" in table.channel.last_message.content


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"their_drama": 60}, "Drama dice are <@"),
        ({"secret": True}, "A secret roll cannot wait for <@"),
        ({"their_name": "Tom"}, "are read from a mentioned player's character"),
        ({"their_skill": None}, "Give the opponent's Base dice (`their_base`)"),
    ],
)
async def test_drama_request_refusals(table: Table, options: Any, message: str) -> None:
    await william_and_peter(table)
    table.bot.dice = ScriptedDice([])
    options = {"their_name": f"<@{table.bob.id}>", "their_skill": "Riding", "skill": "Riding"} | (
        options
    )
    refused = await table.alice.slash(
        table.channel, "drama opposed", **{k: v for k, v in options.items() if v is not None}
    )
    assert refused.ephemeral and message in text_of(refused)


async def test_drama_a_gm_builds_the_other_side_from_its_sheet(table: Table) -> None:
    """Issue 14: the opposing player's side from their sheet, with their penalty dice."""
    await william_and_peter(table)
    table.bot.dice = ScriptedDice([5, 5, 3, 6, 3, 3, 2])
    result = await table.gm.slash(
        table.channel,
        "drama opposed",
        their_name=f"<@{table.bob.id}>",
        their_skill="Riding",
        base=3,
    )
    assert embed_of(result).title == "🏆 gm wins by 2"
    text = text_of(result)
    assert "Peter **3Bd · 1Rd · 0Dd** = Agility 2 + Riding 1 (3Bd), penalty dice (1Rd)" in text


# --------------------------------------------------------------------------- /h90 opposed


async def oliver_and_percy(table: Table) -> None:
    """Alice's Oliver (Bravery 3) and Bob's Percy (Bravery 1), both used here."""
    await table.alice.slash(table.channel, "sheet create", name="Oliver", system="h90")
    await table.alice.slash(table.channel, "sheet set", attribute="Bravery", value=3)
    await table.bob.slash(table.channel, "sheet create", name="Percy", system="h90")
    await table.bob.slash(table.channel, "sheet set", attribute="Bravery", value=1)
    await table.bob.slash(table.channel, "sheet use", character="Percy")


async def h90_challenge(table: Table, **options: Any) -> Any:
    """Oliver's Bravery: 2d20 {5, 14} keeps 14, + 3 = 17."""
    table.bot.dice = ScriptedDice([5, 14])
    options = {"attribute": "Bravery", "vs_character": "Percy", "vs_attribute": "Bravery"} | (
        options
    )
    result = await table.alice.slash(table.channel, "h90 opposed", **options)
    assert table.bot.dice.remaining == 0
    return result


async def test_h90_the_other_player_rolls_their_side(table: Table) -> None:
    await oliver_and_percy(table)
    asked = await h90_challenge(table, label="the dare")
    assert asked.response.content.startswith(
        f"<@{table.bob.id}>: Oliver · Bravery challenges **Percy** (Bravery) — the dare — roll"
    )
    assert _stored(table, asked.response.message).ping_user_ids == [table.bob.id]
    table.bot.dice = ScriptedDice([])
    refused = await table.carol.click(asked.response, label=ROLL)
    assert refused.ephemeral and f"Only <@{table.bob.id}> can roll" in text_of(refused)
    table.bot.dice = ScriptedDice([10, 2])  # Percy: 10 + 1 = 11
    await table.bob.click(asked.response, label=ROLL)
    embed = table.channel.last_message.embeds[0]
    assert embed.title == "🏆 Oliver · Bravery wins by 6 — the dare"
    assert "alice and bob" in embed.footer.text
    assert table.channel.last_message.components[0].children[0].disabled
    history = await table.alice.slash(table.channel, "history")
    assert "17 · waiting for the other side" in text_of(history)
    assert "17 vs 11: Oliver · Bravery wins" in text_of(history)


async def test_h90_a_bare_bonus_challenge_survives_a_restart_and_lapses(table: Table) -> None:
    await oliver_and_percy(table)
    table.bot.dice = ScriptedDice([5, 14])
    asked = await table.alice.slash(
        table.channel, "h90 opposed", bonus=2, vs_character="Percy", vs_attribute="Bravery"
    )
    assert asked.response.content.startswith(f"<@{table.bob.id}>: alice challenges **Percy**")
    await table.env.restart_bot(create_bot(table.bot.settings, sync_globally=True))
    table.bot.dice = ScriptedDice([18, 3])  # Percy: 19 beats alice's 16
    await table.bob.click(asked.response, label=ROLL)
    embed = table.channel.last_message.embeds[0]
    assert embed.title == "🏆 Percy · Bravery wins by 3"
    assert embed.fields[0].name == "alice"
    again = await h90_challenge(table)
    await table.env.advance_time(11 * 60)
    late = await table.bob.click(again.response, label=ROLL)
    assert "Too late" in text_of(late)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"vs_attribute": None}, "Name the attribute Percy rolls with `vs_attribute`"),
        ({"secret": True}, "A secret roll cannot wait for Percy's player"),
    ],
)
async def test_h90_request_refusals(table: Table, options: Any, message: str) -> None:
    await oliver_and_percy(table)
    table.bot.dice = ScriptedDice([])
    options = {"attribute": "Bravery", "vs_character": "Percy", "vs_attribute": "Bravery"} | (
        options
    )
    refused = await table.alice.slash(
        table.channel, "h90 opposed", **{k: v for k, v in options.items() if v is not None}
    )
    assert refused.ephemeral and message in text_of(refused)


async def test_h90_a_gm_rolls_both_sides(table: Table) -> None:
    await oliver_and_percy(table)
    await table.alice.slash(table.channel, "sheet use", character="Oliver")
    table.bot.dice = ScriptedDice([5, 14, 10, 2])
    result = await table.gm.slash(
        table.channel,
        "h90 opposed",
        character="Oliver",
        attribute="Bravery",
        vs_character="Percy",
        vs_attribute="Bravery",
    )
    assert embed_of(result).title == "🏆 Oliver · Bravery wins by 6"


# --------------------------------------------------------------------------- /infinity ftf


async def fusilier_and_sniper(table: Table) -> None:
    """Alice's Fusilier (BS 12) and Bob's Sniper (BS 13), both used here."""
    await table.alice.slash(table.channel, "sheet create", name="Fusilier", system="infinity")
    await table.alice.slash(table.channel, "sheet set", attribute="BS", value=12)
    await table.bob.slash(table.channel, "sheet create", name="Sniper", system="infinity")
    await table.bob.slash(table.channel, "sheet set", attribute="BS", value=13)
    await table.bob.slash(table.channel, "sheet use", character="Sniper")


async def ftf_challenge(table: Table, **options: Any) -> Any:
    """The Fusilier's BS 12 with mimetism −3 (SV 9), Burst 1: a 7."""
    table.bot.dice = ScriptedDice([7])
    options = {
        "active_attribute": "BS",
        "reactive_attribute": "BS",
        "reactive_character": "Sniper",
        "mimetism": -3,
    } | options
    result = await table.alice.slash(table.channel, "infinity ftf", **options)
    assert table.bot.dice.remaining == 0
    return result


async def test_infinity_the_reactive_player_rolls_their_side(table: Table) -> None:
    await fusilier_and_sniper(table)
    asked = await ftf_challenge(table, label="the corner")
    assert asked.response.content.startswith(
        f"<@{table.bob.id}>: Fusilier's BS challenges **Sniper** (BS) — the corner — roll"
    )
    assert _stored(table, asked.response.message).ping_user_ids == [table.bob.id]
    table.bot.dice = ScriptedDice([])
    refused = await table.alice.click(asked.response, label=ROLL)
    assert refused.ephemeral and f"Only <@{table.bob.id}> can roll" in text_of(refused)
    table.bot.dice = ScriptedDice([5])  # the Sniper's 5 (SV 13) is beaten by the 7
    await table.bob.click(asked.response, label=ROLL)
    embed = table.channel.last_message.embeds[0]
    assert embed.title == "🎯 Active wins — 1 hit — the corner"
    assert "**MODs:** Mimetism −3 = −3" in _fields(embed)
    assert "alice and bob rolled" in embed.footer.text
    history = await table.alice.slash(table.channel, "history")
    assert "waiting for the reactive side" in text_of(history)


async def test_infinity_restart_and_lapse(table: Table) -> None:
    await fusilier_and_sniper(table)
    asked = await ftf_challenge(table)
    await table.env.restart_bot(create_bot(table.bot.settings, sync_globally=True))
    table.bot.dice = ScriptedDice([12])  # 12 beats 7
    await table.bob.click(asked.response, label=ROLL)
    assert table.channel.last_message.embeds[0].title == "🎯 Reactive wins — 1 hit"
    again = await ftf_challenge(table)
    await table.env.advance_time(11 * 60)
    late = await table.bob.click(again.response, label=ROLL)
    assert "Too late" in text_of(late)
    secret = await table.alice.slash(
        table.channel,
        "infinity ftf",
        active_attribute="BS",
        reactive_attribute="BS",
        reactive_character="Sniper",
        secret=True,
    )
    assert secret.ephemeral and "A secret roll cannot wait for Sniper's player" in text_of(secret)
