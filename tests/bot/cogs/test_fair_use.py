"""Safe in a public server (docs/decisions/fair-use.md), as players would try it: names that ping or
restyle, hidden combatants that must not leak, floods and costly rolls."""

from __future__ import annotations

import gc
import time
from typing import Any

from bot.gateway import Rate, RateLimiter
from engine.dice import ScriptedDice
from tests.conftest import Table, embed_of, text_of


def _stored(table: Table, message: Any) -> Any:
    """SimCord's record of a message: its mention policy and whom it really pinged."""
    return table.env.backend.get_message(message.channel.id, message.id)


def _pinged(table: Table) -> dict[int, list[Any]]:
    """Every channel message's pings (users, roles, @everyone), by message id."""
    pings = {}
    for message in table.channel.history():
        stored = _stored(table, message)
        pinged = [*stored.ping_user_ids, *stored.ping_role_ids]
        if stored.mention_everyone:
            pinged.append("everyone")
        pings[message.id] = pinged
    return pings


async def test_hostile_names_ping_nobody_and_render_literally(table: Table) -> None:
    hostile = f"<@{table.bob.id}> @everyone **B** ||x||"
    await table.alice.slash(table.channel, "sheet create", name=hostile, system="h90")
    await table.gm.slash(table.channel, "init start", system="h90")
    table.bot.dice = ScriptedDice([7, 14])
    joined = await table.alice.slash(table.channel, "init join")
    assert not joined.ephemeral
    npc = f"<@&{table.gm_role.id}> [x](https://e.io) # `T`"
    await table.gm.slash(table.channel, "init add", name=npc, roll=1)
    turn = await table.gm.slash(table.channel, "init next")
    # The turn line pings its player, and only them; the name in it pings nobody.
    assert turn.response.content.endswith(f"'s turn — <@{table.alice.id}>.")
    assert _stored(table, turn.response.message).ping_user_ids == [table.alice.id]
    pings = _pinged(table)
    assert pings.pop(turn.response.id) == [table.alice.id]
    assert all(pinged == [] for pinged in pings.values()), pings
    # Rendered literally: every markdown and mention character is escaped.
    text = text_of(joined)
    assert f"\\<@\u200b{table.bob.id}\\>" in text
    assert "@\u200beveryone" in text
    assert "\\*\\*B\\*\\* \\|\\|x\\|\\|" in text
    tracker = embed_of(await table.gm.slash(table.channel, "init show")).description
    assert f"\\<@\u200b&{table.gm_role.id}\\> \\[x\\](https\\://e.io) \\# \\`T\\`" in tracker


async def test_a_label_and_a_penalty_reason_are_escaped(table: Table) -> None:
    table.bot.dice = ScriptedDice([4])
    result = await table.alice.slash(
        table.channel, "roll", expression="1d6", label=f"<@{table.bob.id}> ~~x~~"
    )
    assert embed_of(result).title.endswith(f"— \\<@\u200b{table.bob.id}\\> \\~\\~x\\~\\~")
    assert _stored(table, result.response.message).ping_user_ids == []


async def test_a_hidden_npc_name_clash_reveals_nothing(table: Table) -> None:
    await table.alice.slash(table.channel, "sheet create", name="Spy", system="h90")
    await table.gm.slash(table.channel, "init start", system="h90")
    hidden = await table.gm.slash(table.channel, "init add", name="Spy", roll=10, hidden=True)
    assert hidden.ephemeral
    table.bot.dice = ScriptedDice([7, 14])
    joined = await table.alice.slash(table.channel, "init join")
    assert not joined.ephemeral  # no "'Spy' is already in the encounter"
    assert "hidden" not in text_of(joined).lower()
    shown = text_of(await table.alice.slash(table.channel, "init show"))
    assert "Spy" in shown and "hidden" not in shown.lower()
    # The GM sees both: the hidden one renamed.
    gm_view = text_of(await table.gm.slash(table.channel, "init show"))
    assert "Spy (hidden)" in gm_view
    # Undo replays the same rename: the player's Spy leaves, the hidden one keeps its name.
    await table.gm.slash(table.channel, "init undo")
    assert "Spy (hidden)" not in text_of(await table.gm.slash(table.channel, "init show"))


# --- rate limits ------------------------------------------------------------------------------


def limits(table: Table) -> None:
    """The shipped figures (bot/hosting/config.py), on SimCord's virtual clock: a test moves
    it with ``table.env.advance_time`` and never sleeps."""
    fields = type(table.bot.settings).model_fields
    user = Rate(fields["rate_user_burst"].default, fields["rate_user_per_second"].default)
    channel = Rate(fields["rate_channel_burst"].default, fields["rate_channel_per_second"].default)
    assert (user, channel) == (Rate(10, 2.0), Rate(30, 5.0))  # as docs/hosting.md says
    table.bot.rate_limiter = RateLimiter(user, channel, clock=lambda: table.env.now().timestamp())


async def test_a_burst_is_limited_while_another_user_is_not(table: Table) -> None:
    limits(table)
    for _ in range(10):
        assert not (await table.alice.slash(table.channel, "roll", expression="1d6")).ephemeral
    refused = await table.alice.slash(table.channel, "roll", expression="1d6")
    assert refused.ephemeral
    assert text_of(refused) == "Slow down: try again in 1 s."
    # The rest of a flood is not answered at all: each reply would cost the bot an HTTP call.
    ignored = await table.alice.slash(table.channel, "roll", expression="1d6")
    assert not ignored.acknowledged
    # Bob, in the same channel at the same moment, is not affected.
    assert not (await table.bob.slash(table.channel, "roll", expression="1d6")).ephemeral
    await table.env.advance_time(0.5)  # one token back at 2 per second
    assert not (await table.alice.slash(table.channel, "roll", expression="1d6")).ephemeral
    assert (await table.alice.slash(table.channel, "roll", expression="1d6")).ephemeral


async def test_buttons_count_like_commands(table: Table) -> None:
    limits(table)
    started = await table.gm.slash(table.channel, "init start")
    for _ in range(9):
        await table.gm.slash(table.channel, "roll", expression="1d6")
    pressed = await table.gm.click(started.response, label="Next")
    assert pressed.ephemeral and "Slow down" in text_of(pressed)


# --- costly rolls -----------------------------------------------------------------------------


async def test_the_costliest_rolls_are_refused_at_once_and_others_answered(table: Table) -> None:
    """The issue's freezes: each is now refused before any die is drawn, and a cheap roll by
    another user in another channel, sent next, is answered. (SimCord runs one operation at
    a time; the concurrent latency is measured through the real process: tests/e2e and
    benchmarks/abuse.py.)"""
    other = table.guild.create_text_channel("arena")
    hostile = [
        "1000d1000kh999kh999kh999kh999kh999kh999",
        "250d1000" + "k>1" * 60,
        "1d1000e>1",
        "(" + ",".join(["9d1000"] * 25) + ")kh1kl1kh1kl1",
        "1" + "+1" * 140,
    ]
    table.bot.dice = ScriptedDice([])  # nothing is drawn
    for expression in hostile:
        gc.disable()  # a full collection of the test session's heap is not the roll's cost
        try:
            started = time.thread_time()
            refused = await table.alice.slash(table.channel, "roll", expression=expression)
            spent = time.thread_time() - started
        finally:
            gc.enable()
        assert refused.ephemeral, expression
        assert "too much work" in text_of(refused) or "at most" in text_of(refused)
        assert spent < 0.25, (expression, spent)  # the whole command, SimCord included
    table.bot.dice = ScriptedDice([17])
    cheap = await table.bob.slash(other, "roll", expression="1d20")
    assert embed_of(cheap).title.startswith("🎲 17")


# --- penalty pools ----------------------------------------------------------------------------


async def test_a_full_penalty_pool_never_locks_a_character_out(table: Table) -> None:
    await table.alice.slash(table.channel, "sheet create", name="William", system="drama")
    await table.alice.slash(table.channel, "sheet set", attribute="Physical", value=2)
    await table.gm.slash(table.channel, "penalty add", character="William", amount=71)
    table.bot.dice = ScriptedDice([3] * (4 + 60 + 71))
    rolled = await table.alice.slash(
        table.channel, "drama test", attribute="Physical", resistance=60
    )
    assert not rolled.ephemeral, text_of(rolled)
    text = text_of(rolled)
    # The 60 Rd she added, and where the other 71 came from.
    assert "**4Bd · 131Rd · 0Dd**" in text
    assert "situational resistance (60Rd), penalty dice (71Rd)" in text
    over = await table.alice.slash(
        table.channel, "drama test", attribute="Physical", resistance=60, target=1
    )
    assert over.ephemeral and "you add would be 61" in text_of(over)


async def test_an_initiative_roll_is_small_enough_to_roll_for_everyone(table: Table) -> None:
    refused = await table.gm.slash(table.channel, "init start", dice="200d6")
    assert refused.ephemeral
    assert "is rolled for every combatant" in text_of(refused)
    refused = await table.gm.slash(table.channel, "init start", dice="1000d1000kh1")
    assert refused.ephemeral and "at most 250 dice" in text_of(refused)
    started = await table.gm.slash(table.channel, "init start", dice="1d20+2")
    assert not started.ephemeral
