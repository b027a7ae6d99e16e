"""Multi-party rolls with others' characters (docs/decisions/other-players.md): the roller's own
parts are rolled now, each other player is pinged once and rolls their own part from their
own sheet with **Roll my part**, and one message shows the result when every part is in.
A GM still runs everything at once.

Draw order: the roller's parts when they ask (in the order given), each other part when its
player presses; the result is the engine's own function on every face replayed in the
rules' order (checked against the engine run with ScriptedDice on the same faces).
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest

from bot.actor import Actor
from bot.app import create_bot
from bot.errors import UserError
from bot.services import retention, side_requests
from bot.services import rps as rps_resisted
from bot.services.side_requests import RequestClosed, Waiting
from engine.dice import ScriptedDice
from engine.systems import rps
from tests.conftest import Table, embed_of, text_of

PART = "Roll my part"


def _stored(table: Table, message: Any) -> Any:
    return table.env.backend.get_message(message.channel.id, message.id)


def _button(message: Any) -> Any:
    return message.components[0].children[0]


def _actor(table: Table, member: Any) -> Actor:
    return Actor(
        user_id=member.id,
        channel_id=table.channel.id,
        guild_id=table.guild.id,
        display_name=member.name,
    )


# --------------------------------------------------------------------------- /rps resisted


async def rps_characters(table: Table) -> None:
    """Alice's Daniela (Strength 5: Base 10), Bob's Rupert (6: 12), Carol's Celia (4: 8)."""
    for member, name, strength in (
        (table.alice, "Daniela", 5),
        (table.bob, "Rupert", 6),
        (table.carol, "Celia", 4),
    ):
        await member.slash(table.channel, "sheet create", name=name, system="rps")
        await member.slash(table.channel, "sheet set", attribute="Strength", value=strength)


async def arm_wrestling(table: Table, parties: str | None = None, **options: Any) -> Any:
    """Alice asks: Brute (Base 12) and her Daniela roll now, [4, 4] and [3, 3]: SL 4 each."""
    table.bot.dice = ScriptedDice([4, 4, 3, 3])
    mentions = f"<@{table.alice.id}>, <@{table.bob.id}>, <@{table.carol.id}>"
    asked = await table.alice.slash(
        table.channel,
        "rps resisted",
        parties=parties or f"Brute:12, {mentions}",
        attribute="Strength",
        **options,
    )
    assert table.bot.dice.remaining == 0  # Bob's and Carol's parts are not rolled yet
    return asked


async def test_rps_each_player_rolls_their_part_and_one_message_shows_the_result(
    table: Table,
) -> None:
    await rps_characters(table)
    asked = await arm_wrestling(table, label="the inn")
    assert not asked.ephemeral
    content = asked.response.content
    assert content.startswith(
        f"<@{table.bob.id}> <@{table.carol.id}>: Daniela asks for a resisted action with "
        "Brute, Daniela (2 × Strength) — the inn — each of you rolls your part"
    )
    # Pinged once each, nobody else (not the roller, not the GM).
    assert _stored(table, asked.response.message).ping_user_ids == [table.bob.id, table.carol.id]
    assert "Rupert" not in content and "Celia" not in content  # no sheet read yet
    # Carol presses first: her part is in, the line says so; the button stays open.
    table.bot.dice = ScriptedDice([2, 2])  # Celia: 8 − 4 = SL 4
    await table.carol.click(asked.response, label=PART)
    message = table.channel.last_message
    assert f"✅ <@{table.carol.id}>: **Celia** (Base 8) SL 4" in message.content
    assert f"⏳ Waiting for <@{table.bob.id}>." in message.content
    assert not message.embeds and not _button(message).disabled
    assert _stored(table, message).ping_user_ids == []  # the edit pings nobody again
    # Bob presses last: the result, in the parties' order whatever the presses' order.
    table.bot.dice = ScriptedDice([1, 2])  # Rupert: 12 − 3 = SL 9
    pressed = await table.bob.click(asked.response, label=PART)
    assert not pressed.ephemeral
    message = table.channel.last_message
    embed = message.embeds[0]
    assert embed.title == "⚔️ Rupert wins — SL 5 — the inn"
    assert not message.content and _button(message).disabled
    assert "Rupert: 2 × Strength 6" in "\n".join(f.value for f in embed.fields)
    assert "alice, bob and carol" in embed.footer.text
    engine = rps.resisted(
        ScriptedDice([4, 4, 3, 3, 1, 2, 2, 2]),
        parties=[("Brute", 12), ("Daniela", 10), ("Rupert", 12), ("Celia", 8)],
    )
    assert (engine.winner, engine.success_level) == ("Rupert", 5)
    fields = "\n".join(f"{f.name} {f.value}" for f in embed.fields)
    for party in engine.rounds[0]:
        faces = " ".join(f"[{face}]" for face in party.check.faces)
        assert f"{party.name}: Base {party.check.base}, {faces}" in fields
    history = text_of(await table.alice.slash(table.channel, "history"))
    assert "waiting for" in history and "Rupert wins, SL 5" in history


async def test_rps_a_roll_off_is_drawn_when_the_last_part_is_in(table: Table) -> None:
    await rps_characters(table)
    table.bot.dice = ScriptedDice([4, 4])  # Brute: SL 4
    asked = await table.alice.slash(
        table.channel, "rps resisted", parties=f"Brute:12, <@{table.bob.id}>", attribute="Strength"
    )
    assert _stored(table, asked.response.message).ping_user_ids == [table.bob.id]
    # Rupert [4, 4]: SL 4, a tie; the roll-off: Brute [5, 5] SL 2, Rupert [1, 2] SL 9.
    table.bot.dice = ScriptedDice([4, 4, 5, 5, 1, 2])
    await table.bob.click(asked.response, label=PART)
    embed = table.channel.last_message.embeds[0]
    engine = rps.resisted(
        ScriptedDice([4, 4, 4, 4, 5, 5, 1, 2]), parties=[("Brute", 12), ("Rupert", 12)]
    )
    assert engine.roll_offs == 1
    assert embed.title == f"⚔️ {engine.winner} wins — SL {engine.success_level}"
    assert any(f.name == "Roll-off 1" for f in embed.fields)
    assert table.bot.dice.remaining == 0


async def test_rps_only_the_asked_players_may_roll_a_part(table: Table) -> None:
    await rps_characters(table)
    table.bot.dice = ScriptedDice([4, 4])
    asked = await table.alice.slash(
        table.channel, "rps resisted", parties=f"Brute:12, <@{table.bob.id}>", attribute="Strength"
    )
    table.bot.dice = ScriptedDice([])  # nobody else draws a die
    for stranger in (table.carol, table.alice, table.gm):
        refused = await stranger.click(asked.response, label=PART)
        assert refused.ephemeral
        assert f"Only <@{table.bob.id}> can roll a part of this" in refused.response.content
    assert not _button(table.channel.last_message).disabled
    table.bot.dice = ScriptedDice([1, 1])
    await table.bob.click(asked.response, label=PART)
    assert table.channel.last_message.embeds[0].title.startswith("⚔️ Rupert wins")


async def test_rps_a_double_press_rolls_once(table: Table) -> None:
    await rps_characters(table)
    asked = await arm_wrestling(table)
    table.bot.dice = ScriptedDice([2, 2])
    await table.carol.click(asked.response, label=PART)
    table.bot.dice = ScriptedDice([])
    again = await table.carol.click(asked.response, label=PART)
    assert again.ephemeral and "You have rolled your part already" in text_of(again)
    assert not _button(table.channel.last_message).disabled  # still open for Bob
    table.bot.dice = ScriptedDice([1, 2])
    await table.bob.click(asked.response, label=PART)
    assert _button(table.channel.last_message).disabled
    # A second press from a client that has not seen the edit yet: told, nothing rolled.
    with pytest.raises(RequestClosed, match="Every part of this roll has already been rolled"):
        await rps_resisted.roll_their_part(
            table.bot.db, ScriptedDice([]), _actor(table, table.bob), 1, now=table.env.now()
        )
    history = text_of(await table.alice.slash(table.channel, "history"))
    assert history.count("Rupert wins, SL 5") == 1


async def test_rps_presses_at_once_roll_once(table: Table) -> None:
    """Two players pressing at the same moment: the row lock serialises them, so exactly one
    of them completes the roll; the same player twice at once rolls once."""
    await rps_characters(table)
    await arm_wrestling(table)
    request_id = 1
    dice = ScriptedDice([2, 2, 1, 2, 5, 5])
    now = table.env.now()
    db = table.bot.db
    twice = await asyncio.gather(
        rps_resisted.roll_their_part(db, dice, _actor(table, table.carol), request_id, now=now),
        rps_resisted.roll_their_part(db, dice, _actor(table, table.carol), request_id, now=now),
        return_exceptions=True,
    )
    assert sum(isinstance(r, Waiting) for r in twice) == 1
    assert sum(isinstance(r, UserError) for r in twice) == 1
    both = await asyncio.gather(
        rps_resisted.roll_their_part(db, dice, _actor(table, table.bob), request_id, now=now),
        rps_resisted.roll_their_part(db, dice, _actor(table, table.bob), request_id, now=now),
        return_exceptions=True,
    )
    assert sum(isinstance(r, rps_resisted.ResistedOutcome) for r in both) == 1
    assert sum(isinstance(r, RequestClosed) for r in both) == 1
    assert dice.used == 4


async def test_rps_a_request_lapses_after_ten_minutes(table: Table) -> None:
    await rps_characters(table)
    asked = await arm_wrestling(table)
    table.bot.dice = ScriptedDice([2, 2])
    await table.carol.click(asked.response, label=PART)
    await table.env.advance_time(11 * 60)
    table.bot.dice = ScriptedDice([])
    late = await table.bob.click(asked.response, label=PART)
    assert "Too late: this roll lapsed" in text_of(late)
    message = table.channel.last_message
    assert "⌛ Lapsed: not every part was rolled within 10 minutes." in message.content
    assert _button(message).disabled


async def test_rps_a_request_survives_a_restart(table: Table) -> None:
    await rps_characters(table)
    asked = await arm_wrestling(table)
    table.bot.dice = ScriptedDice([2, 2])
    await table.carol.click(asked.response, label=PART)
    first = table.bot
    await table.env.restart_bot(create_bot(table.bot.settings, sync_globally=True))
    assert table.bot is not first
    table.bot.dice = ScriptedDice([1, 2])
    await table.bob.click(asked.response, label=PART)
    assert table.channel.last_message.embeds[0].title == "⚔️ Rupert wins — SL 5"


async def test_rps_a_part_refused_at_the_press_stays_open(table: Table) -> None:
    await rps_characters(table)
    table.bot.dice = ScriptedDice([4, 4])
    asked = await table.alice.slash(
        table.channel, "rps resisted", parties=f"Brute:12, <@{table.bob.id}>", attribute="Wits"
    )
    table.bot.dice = ScriptedDice([])
    refused = await table.bob.click(asked.response, label=PART)
    assert refused.ephemeral and "Wits" in text_of(refused)
    assert not _button(table.channel.last_message).disabled


async def test_rps_a_name_clash_is_told_apart(table: Table) -> None:
    await rps_characters(table)
    table.bot.dice = ScriptedDice([4, 4])
    asked = await table.alice.slash(
        table.channel,
        "rps resisted",
        parties=f"Rupert:12, <@{table.bob.id}>",
        attribute="Strength",
    )
    table.bot.dice = ScriptedDice([1, 2])
    await table.bob.click(asked.response, label=PART)
    assert table.channel.last_message.embeds[0].title == "⚔️ Rupert (bob) wins — SL 5"


@pytest.mark.parametrize(
    ("parties", "options", "message"),
    [
        ("Brute:12, {bob}", {"secret": True}, "A secret roll cannot wait"),
        ("Brute:12, {bob}", {"attribute": None}, "Say which `attribute` or `skill`"),
        ("Brute:12, {bob}, {bob}", {}, "Each player can be named only once"),
        ("{bob}", {}, "needs 2 to 25 parties"),
        (
            "Brute:12, " + ", ".join(f"<@{n}>" for n in range(1001, 1008)),
            {},
            "at most 6 other players",
        ),
        (", ".join(f"P{n}:9" for n in range(25)) + ", {bob}", {}, "needs 2 to 25 parties"),
        ("Brute:12, Brute:9, {bob}", {}, "named twice"),
    ],
)
async def test_rps_request_refusals(table: Table, parties: str, options: Any, message: str) -> None:
    await rps_characters(table)
    table.bot.dice = ScriptedDice([])  # refused before any die
    options = {"attribute": "Strength"} | options
    refused = await table.alice.slash(
        table.channel,
        "rps resisted",
        parties=parties.format(bob=f"<@{table.bob.id}>"),
        **{k: v for k, v in options.items() if v is not None},
    )
    assert refused.ephemeral and message in refused.response.content


async def test_rps_a_gm_still_runs_every_party_at_once(table: Table) -> None:
    await rps_characters(table)
    table.bot.dice = ScriptedDice([4, 4, 3, 3, 1, 2, 2, 2])
    result = await table.gm.slash(
        table.channel,
        "rps resisted",
        parties=f"Brute:12, <@{table.alice.id}>, <@{table.bob.id}>, <@{table.carol.id}>",
        attribute="Strength",
    )
    assert embed_of(result).title == "⚔️ Rupert wins — SL 5"
    assert result.response.components == []
    assert _stored(table, result.response.message).ping_user_ids == []


# --------------------------------------------------------------------------- retention


async def test_old_requests_are_pruned(table: Table) -> None:
    await rps_characters(table)
    await arm_wrestling(table)
    db = table.bot.db
    now = table.env.now()
    kept = await retention.prune(db, now=now + timedelta(hours=23), keep_rolls=1000)
    assert kept.requests == 0
    pruned = await retention.prune(
        db, now=now + side_requests.WINDOW + timedelta(days=1, seconds=1), keep_rolls=1000
    )
    assert pruned.requests == 1
    # A press on a pruned request is told it is over (and the button greys out).
    with pytest.raises(RequestClosed, match="can no longer be answered"):
        await rps_resisted.roll_their_part(
            db, ScriptedDice([]), _actor(table, table.bob), 1, now=now
        )


# --------------------------------------------------------------------------- infinity split


async def test_infinity_a_burst_split_against_another_player_s_character_needs_a_gm(
    table: Table,
) -> None:
    """A split rolls every target at once, so it is not split into parts: a player's split
    with another player's character as the reactive side is refused before any die (its
    other targets are numbers, which read no sheet); a GM runs it."""
    await table.alice.slash(table.channel, "sheet create", name="Fusilier", system="infinity")
    await table.alice.slash(table.channel, "sheet set", attribute="BS", value=12)
    await table.bob.slash(table.channel, "sheet create", name="Sniper", system="infinity")
    await table.bob.slash(table.channel, "sheet set", attribute="BS", value=13)
    await table.bob.slash(table.channel, "sheet use", character="Sniper")
    split = {
        "active_attribute": "BS",
        "active_burst": 2,
        "reactive_attribute": "BS",
        "reactive_character": "Sniper",
        "targets": "Warband:1:13",
    }
    table.bot.dice = ScriptedDice([])
    refused = await table.alice.slash(table.channel, "infinity ftf", **split)
    assert refused.ephemeral
    assert f"Sniper is <@{table.bob.id}>'s character, and a Burst split rolls every" in (
        text_of(refused)
    )
    assert _stored(table, refused.response.message).ping_user_ids == []
    # A number for the Sniper's BS reads nothing of its sheet: allowed.
    table.bot.dice = ScriptedDice([3, 4, 20, 20])
    given = await table.alice.slash(
        table.channel, "infinity ftf", **split | {"reactive_attribute": "13"}
    )
    assert not given.ephemeral and "Burst split among 2 targets" in embed_of(given).title
    # A GM runs it from both sheets.
    table.bot.dice = ScriptedDice([3, 4, 20, 20])
    at_once = await table.gm.slash(
        table.channel, "infinity ftf", **split | {"active_attribute": "12"}
    )
    assert "Burst split among 2 targets" in embed_of(at_once).title
