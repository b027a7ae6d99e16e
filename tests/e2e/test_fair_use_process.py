"""Issue 12 through the shipped program (``narrator run`` against the Discord stand-in): the
roll budget, the rate limits and whom messages may ping, with the real limits."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from tests.e2e.conftest import migrated_copy
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.process import BotProcess

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

#: Seconds a wait lasts before the test gives up (only a failsafe: never reached when it works).
FAILSAFE = 60.0

Running = tuple[FakeDiscord, BotProcess]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def running(e2e_workdir: Path, migrated_template: Path) -> AsyncIterator[Running]:
    """The bot with the shipped rate limits (the shared fixture turns them off)."""
    async with FakeDiscord(channels=8) as fake:
        database = migrated_copy(migrated_template, e2e_workdir, "fair_use.db")
        # The shipped bursts, refilled next to never: how many of a burst get through does
        # not depend on how fast a loaded machine reads it (a user's 10 last the module).
        bot = BotProcess(
            fake,
            database,
            e2e_workdir,
            name="fair-use",
            rate_limits=True,
            env={"RATE_USER_PER_SECOND": "0.0001", "RATE_CHANNEL_PER_SECOND": "0.0001"},
        )
        try:
            await bot.start()
            yield fake, bot
        finally:
            await bot.stop()


async def test_a_costly_roll_is_refused_and_another_user_is_answered(running: Running) -> None:
    fake, _bot = running
    hostile = fake.send(
        fake.command_payload(
            "roll", channel=fake.channel(1), user="alice", expression="1000d1000" + "kh999" * 5
        ),
        "roll",
    )
    cheap = fake.send(
        fake.command_payload("roll", channel=fake.channel(2), user="bob", expression="1d20"),
        "roll",
    )
    await asyncio.gather(hostile.wait(FAILSAFE), cheap.wait(FAILSAFE))
    assert hostile.ephemeral and "at most 250 dice" in hostile.content
    costly = await fake.interact(
        "roll", channel=fake.channel(1), user="alice", expression="240d1000kh1kh1"
    )
    assert costly.ephemeral and "too much work for one roll" in costly.content
    assert not cheap.ephemeral and cheap.embeds
    # Refused before any die was rolled (tests/engine/test_notation.py counts the dice), and
    # both answered within Discord's deadline (the stand-in refuses a late callback).
    assert hostile.callback_status == 200 and cheap.callback_status == 200


async def test_a_burst_is_limited_and_another_user_is_not(running: Running) -> None:
    fake, _bot = running
    channel = fake.channel(3)
    burst = [
        fake.send(
            fake.command_payload("roll", channel=channel, user="carol", expression="1d6"), "roll"
        )
        for _ in range(14)
    ]
    other = await fake.interact("roll", channel=fake.channel(4), user="bob", expression="1d6")
    # The 11 answers (10 rolls, 1 "slow down"); the other 3 are never answered.
    await fake._wait_state(
        lambda: sum(r.callback is not None for r in burst) >= 11, FAILSAFE, "the burst's answers"
    )
    rolled = [r for r in burst if r.callback is not None and not r.ephemeral]
    told = [r for r in burst if r.callback is not None and "Slow down" in r.content]
    unanswered = [r for r in burst if r.callback is None]
    assert len(rolled) == 10, [r.content for r in burst]
    assert len(told) == 1 and told[0].ephemeral
    assert len(unanswered) == 3
    assert not other.ephemeral and other.embeds


async def test_user_text_pings_nobody_and_a_turn_pings_its_player(running: Running) -> None:
    fake, _bot = running
    channel = fake.channel(5)
    bob, alice = fake.user_id("bob"), fake.user_id("alice")
    labelled = await fake.interact(
        "roll", channel=channel, user="alice", expression="1d6", label=f"<@{bob}> @everyone"
    )
    assert labelled.data["allowed_mentions"]["parse"] == []
    assert not labelled.data["allowed_mentions"].get("users")
    await fake.interact(
        "sheet create", channel=channel, user="alice", name="Hermione", system="h90"
    )
    await fake.interact("init start", channel=channel, user="gm", system="h90")
    await fake.interact("init join", channel=channel, user="alice")
    turn = await fake.interact("init next", channel=channel, user="gm")
    assert f"<@{alice}>" in turn.content
    assert [int(u) for u in turn.data["allowed_mentions"]["users"]] == [alice]
    assert turn.data["allowed_mentions"]["parse"] == []


async def test_a_resisted_action_asks_the_other_player_for_their_part(running: Running) -> None:
    """Issue 12, item 3: a player's resisted action naming another player's character pings
    exactly that player, whose **Roll my part** (theirs alone) completes the result."""
    fake, _bot = running
    channel = fake.channel(6)
    alice, bob = fake.user_id("alice"), fake.user_id("bob")
    for user, name, strength in (("alice", "Daniela", 5), ("bob", "Rupert", 6)):
        await fake.interact("sheet create", channel=channel, user=user, name=name, system="rps")
        await fake.interact(
            "sheet set", channel=channel, user=user, attribute="Strength", value=strength
        )
    asked = await fake.interact(
        "rps resisted",
        channel=channel,
        user="alice",
        parties=f"Brute:12, <@{alice}>, <@{bob}>",
        attribute="Strength",
    )
    assert not asked.ephemeral and asked.content.startswith(f"<@{bob}>: Daniela asks")
    assert [int(u) for u in asked.data["allowed_mentions"]["users"]] == [bob]
    assert asked.message is not None
    refused = await fake.click(asked.message, user="gm", label="Roll my part")
    assert refused.ephemeral and f"Only <@{bob}> can roll a part" in refused.content
    pressed = await fake.click(asked.message, user="bob", label="Roll my part")
    assert not pressed.ephemeral and pressed.embeds, pressed.callback
    assert pressed.embeds[0]["title"].startswith("⚔️ ")
    assert "Rupert" in str(pressed.embeds[0])
