"""Helpers naming others' characters (docs/decisions/other-players.md): in a Drama test worked
together and a CODA combined test, each of those players rolls their own help with
**Roll my part**; the roll completes when every help is in. A GM still rolls everyone at once.

The machinery (one request row, its lock, expiry, restart, pruning) is tested in depth with
``/rps resisted`` in ``test_roll_your_part.py``; here each system's own part.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.actor import Actor
from bot.app import create_bot
from bot.services import coda as coda_combined
from bot.services.side_requests import RequestClosed
from engine.dice import ScriptedDice
from engine.systems import coda, drama
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


# --------------------------------------------------------------------------- /drama test helpers


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


async def riding_together(table: Table, **options: Any) -> Any:
    """William 5Bd 2Rd {5, 3, 3, 3, 3} {4, 4}: net 1; Tom 3Bd 2Rd {5, 5, 3} {2, 4}: net 1,
    both now; Peter's part waits for Bob."""
    table.bot.dice = ScriptedDice([5, 3, 3, 3, 3, 4, 4, 5, 5, 3, 2, 4])
    options = {
        "skill": "Riding",
        "difficulty": "Troublesome",
        "helpers": f"<@{table.bob.id}>, Tom:3",
    } | options
    asked = await table.alice.slash(table.channel, "drama test", **options)
    assert table.bot.dice.remaining == 0
    return asked


def _penalty(shown: Any) -> str:
    return embed_of(shown).description


async def test_drama_a_helper_rolls_their_own_part(table: Table) -> None:
    await william_and_peter(table)
    asked = await riding_together(table, label="the ford")
    content = asked.response.content
    assert content.startswith(
        f"<@{table.bob.id}>: William asks for help with a test worked together (skill Riding) "
        "— the ford — each of you rolls your part"
    )
    assert _stored(table, asked.response.message).ping_user_ids == [table.bob.id]
    assert "Peter" not in content
    # Peter 3Bd, 2Rd + his penalty die {6, 3, 3} {3, 3, 1}: +1 −1 = 0.
    table.bot.dice = ScriptedDice([6, 3, 3, 3, 3, 1])
    await table.bob.click(asked.response, label=PART)
    message = table.channel.last_message
    embed = message.embeds[0]
    assert embed.title == "✅ Success — net 2 — the ford"
    assert "Working together, the nets add up: William 1 + Peter 0 + Tom 1 = **2**." in (
        embed.description
    )
    fields = "\n".join(f"{f.name} {f.value}" for f in embed.fields)
    assert "Peter: net 0 **3Bd · 3Rd · 0Dd**" in fields
    assert "alice and bob" in embed.footer.text
    assert [c.label for c in message.components[0].children] == [PART]  # no price to pay
    # The engine's working together on the same faces in the rules' order gives the same.
    pools = [
        drama.skill_pools(
            3, 2, attribute_name="Agility", skill_name="Riding", difficulty="Troublesome"
        ),
        drama.skill_pools(
            2, 1, attribute_name="Agility", skill_name="Riding", difficulty="Troublesome", penalty=1
        ),
        drama.given_pools(3, difficulty="Troublesome"),
    ]
    engine = drama.together(
        ScriptedDice([5, 3, 3, 3, 3, 4, 4, 6, 3, 3, 3, 3, 1, 5, 5, 3, 2, 4]), pools=pools
    )
    assert [t.net for t in engine.tests] == [1, 0, 1] and engine.net == 2
    # Helpers pay nothing: Peter's pool is as it was.
    assert "**1 penalty die**" in _penalty(await table.bob.slash(table.channel, "penalty show"))


async def test_drama_a_yes_but_together_offers_the_roller_the_price(table: Table) -> None:
    await william_and_peter(table)
    table.bot.dice = ScriptedDice([5, 3, 3, 3, 3])  # William 5Bd: net 1
    asked = await table.alice.slash(
        table.channel, "drama test", skill="Riding", helpers=f"<@{table.bob.id}>"
    )
    table.bot.dice = ScriptedDice([3, 3, 3, 3])  # Peter 3Bd 1Rd: net 0
    await table.bob.click(asked.response, label=PART)
    message = table.channel.last_message
    assert message.embeds[0].title.startswith("⚖️ Yes, but… — net 1")
    refused = await table.bob.click(message, label="Pay the price")
    assert refused.ephemeral and f"Only <@{table.alice.id}>, who rolled" in text_of(refused)
    await table.alice.click(message, label="Pay the price")
    assert table.channel.last_message.embeds[0].title.startswith("✅ Success (price paid)")
    assert "**1 penalty die**" in _penalty(await table.alice.slash(table.channel, "penalty show"))
    assert "**1 penalty die**" in _penalty(await table.bob.slash(table.channel, "penalty show"))


async def test_drama_only_the_helper_rolls_and_a_restart_keeps_the_request(table: Table) -> None:
    await william_and_peter(table)
    asked = await riding_together(table)
    table.bot.dice = ScriptedDice([])
    for stranger in (table.carol, table.alice, table.gm):
        refused = await stranger.click(asked.response, label=PART)
        assert f"Only <@{table.bob.id}> can roll a part of this" in text_of(refused)
    await table.env.restart_bot(create_bot(table.bot.settings, sync_globally=True))
    table.bot.dice = ScriptedDice([6, 3, 3, 3, 3, 1])
    await table.bob.click(asked.response, label=PART)
    assert table.channel.last_message.embeds[0].title == "✅ Success — net 2"


async def test_drama_a_helper_request_lapses(table: Table) -> None:
    await william_and_peter(table)
    asked = await riding_together(table)
    await table.env.advance_time(10 * 60 + 1)
    late = await table.bob.click(asked.response, label=PART)
    assert "Too late: this roll lapsed" in text_of(late)
    assert _button(table.channel.last_message).disabled


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"secret": True}, "A secret roll cannot wait for the helpers asked"),
        ({"risk": True}, "Only the channel's GM can turn penalty dice into a risk"),
        ({"skill": None, "base": 2}, "Say which `attribute` or `skill` the helpers"),
        ({"helpers": "{bob}, {bob}"}, "Each helper can be named only once"),
        ({"helpers": "{alice}, {bob}"}, "You roll your own test already"),
        ({"helpers": ", ".join(f"<@{n}>" for n in range(1001, 1008))}, "at most 6 other"),
        ({"helpers": ", ".join(f"H{n}:1" for n in range(10)) + ", {bob}"}, "At most 10 helpers"),
    ],
)
async def test_drama_request_refusals(table: Table, options: Any, message: str) -> None:
    await william_and_peter(table)
    table.bot.dice = ScriptedDice([])  # refused before any die
    options = {"skill": "Riding", "helpers": "{bob}"} | options
    options["helpers"] = options["helpers"].format(
        alice=f"<@{table.alice.id}>", bob=f"<@{table.bob.id}>"
    )
    refused = await table.alice.slash(
        table.channel, "drama test", **{k: v for k, v in options.items() if v is not None}
    )
    assert refused.ephemeral and message in refused.response.content


# --------------------------------------------------------------------------- /coda combined


async def hermione_ron_and_fred(table: Table) -> None:
    """Alice's Hermione (Stealth: Wits 3 + 2 ranks), Bob's Ron (Wits 2 + 1) and Carol's
    Fred (Wits 1 + 1), all used here."""
    await table.alice.slash(table.channel, "sheet create", name="Hermione", system="coda")
    await table.alice.slash(table.channel, "sheet set", attribute="Wits", value=3)
    await table.alice.slash(table.channel, "sheet skill", name="Stealth", ranks=2, attribute="Wits")
    for member, name, wits in ((table.bob, "Ron", 2), (table.carol, "Fred", 1)):
        await member.slash(table.channel, "sheet create", name=name, system="coda")
        await member.slash(table.channel, "sheet set", attribute="Wits", value=wits)
        await member.slash(table.channel, "sheet skill", name="Stealth", ranks=1, attribute="Wits")
        await member.slash(table.channel, "sheet use", character=name)


def _embed_text(embed: Any) -> str:
    return "\n".join(
        [embed.title or "", embed.description or "", *(f"{f.name} {f.value}" for f in embed.fields)]
    )


async def test_coda_a_helper_s_player_rolls_its_help(table: Table) -> None:
    await hermione_ron_and_fred(table)
    table.bot.dice = ScriptedDice([5, 4])  # the +1 helper, now
    asked = await table.alice.slash(
        table.channel,
        "coda combined",
        leader="Hermione",
        helpers="Ron, +1, Fred",
        skill="Stealth",
        tn=15,
        label="past Filch",
    )
    assert table.bot.dice.remaining == 0
    content = asked.response.content
    assert content.startswith(
        f"<@{table.bob.id}> <@{table.carol.id}>: Hermione asks for help with a combined test "
        "led by Hermione · Stealth (Wits) (Stealth) — past Filch — each of you rolls your part"
    )
    assert _stored(table, asked.response.message).ping_user_ids == [table.bob.id, table.carol.id]
    table.bot.dice = ScriptedDice([3, 3])  # Fred helps first
    await table.carol.click(asked.response, label=PART)
    assert f"✅ <@{table.carol.id}>: **Fred** 2d6 (6) +2" in table.channel.last_message.content
    table.bot.dice = ScriptedDice([6, 2, 4, 4])  # Ron, then the leader, last by the rules
    await table.bob.click(asked.response, label=PART)
    assert table.bot.dice.remaining == 0
    embed = table.channel.last_message.embeds[0]
    assert "alice, bob and carol" in embed.footer.text
    engine = coda.combined(
        ScriptedDice([6, 2, 5, 4, 3, 3, 4, 4]), tn=15, helpers=[3, 1, 2], leader_modifier=5
    )
    assert f"their sum is **{engine.bonus:+d}**" in embed.description.replace("−", "-")
    assert f"**{engine.leader.total}**" in _embed_text(embed)
    lines = embed.description.splitlines()[1:]
    assert [line.split("**")[1] for line in lines] == [
        "1. Ron · Stealth (Wits)",
        "2. modifier +1",
        "3. Fred · Stealth (Wits)",
    ]
    # A GM running the same test with the same faces at once shows the same result.
    await table.alice.slash(table.channel, "sheet use", character="Hermione")
    table.bot.dice = ScriptedDice([6, 2, 5, 4, 3, 3, 4, 4])
    at_once = await table.gm.slash(
        table.channel,
        "coda combined",
        leader="Hermione",
        helpers="Ron, +1, Fred",
        skill="Stealth",
        tn=15,
        label="past Filch",
    )
    assert _embed_text(embed_of(at_once)) == _embed_text(embed)
    assert at_once.response.components == []
    history = text_of(await table.alice.slash(table.channel, "history"))
    assert "waiting for" in history and "combined leader Hermione" in history


async def test_coda_only_the_owner_helps_once_and_a_restart_keeps_the_request(
    table: Table,
) -> None:
    await hermione_ron_and_fred(table)
    table.bot.dice = ScriptedDice([])
    asked = await table.alice.slash(
        table.channel, "coda combined", leader="Hermione", helpers="Ron", skill="Stealth", tn=12
    )
    for stranger in (table.carol, table.alice, table.gm):
        refused = await stranger.click(asked.response, label=PART)
        assert f"Only <@{table.bob.id}> can roll a part of this" in text_of(refused)
    await table.env.restart_bot(create_bot(table.bot.settings, sync_globally=True))
    table.bot.dice = ScriptedDice([3, 3, 4, 4])
    await table.bob.click(asked.response, label=PART)
    assert _button(table.channel.last_message).disabled
    with pytest.raises(RequestClosed, match="already been rolled"):
        await coda_combined.roll_their_part(
            table.bot.db, ScriptedDice([]), _actor(table, table.bob), 1, now=table.env.now()
        )


async def test_coda_a_help_request_lapses(table: Table) -> None:
    await hermione_ron_and_fred(table)
    asked = await table.alice.slash(
        table.channel, "coda combined", leader="Hermione", helpers="Ron", skill="Stealth", tn=12
    )
    await table.env.advance_time(11 * 60)
    late = await table.bob.click(asked.response, label=PART)
    assert "Too late: this roll lapsed" in text_of(late)
    assert "⌛ Lapsed" in table.channel.last_message.content


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"secret": True}, "A secret roll cannot wait for the helpers asked"),
        ({"skill": None}, "Say what the helpers roll (`skill`)"),
        ({"helpers": "Ron, Ron"}, "Each character can help only once"),
        ({"tn": None}, "Give a TN"),
    ],
)
async def test_coda_help_request_refusals(table: Table, options: Any, message: str) -> None:
    await hermione_ron_and_fred(table)
    table.bot.dice = ScriptedDice([])
    options = {"leader": "Hermione", "helpers": "Ron", "skill": "Stealth", "tn": 12} | options
    refused = await table.alice.slash(
        table.channel, "coda combined", **{k: v for k, v in options.items() if v is not None}
    )
    assert refused.ephemeral and message in refused.response.content
