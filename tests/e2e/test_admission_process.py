"""Issue 21 through the shipped program: past capacity, every interaction is answered.

``narrator run`` turns an interaction away with a short ephemeral "very busy" when it is
behind: when the interaction has waited too long before the bot read it (its snowflake
says when Discord created it), or when as many commands as the bound are running. What it
admitted runs to its end (deferred when slow). These tests make the bot behind on purpose:
an interaction created seconds ago, and commands held up by another writer's SQLite lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.gateway import VERY_BUSY
from tests.e2e.conftest import migrated_copy
from tests.e2e.fake_discord import FakeDiscord, InteractionResult
from tests.e2e.fake_discord import payloads as p
from tests.e2e.process import BotProcess

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

Running = tuple[FakeDiscord, BotProcess, str]
MAX_IN_FLIGHT = 40  # the bound this bot runs with (MAX_IN_FLIGHT), small to keep it short
#: The most patient BUSY_AFTER: on a loaded machine a fresh interaction is never late.
BUSY_AFTER = 2.5
#: Seconds a wait lasts before the test gives up (only a failsafe: never reached when it works).
FAILSAFE = 60.0


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def running(e2e_workdir: Path, migrated_template: Path) -> AsyncIterator[Running]:
    async with FakeDiscord(channels=8) as fake:
        database = migrated_copy(migrated_template, e2e_workdir, "admission.db")
        bot = BotProcess(
            fake,
            database,
            e2e_workdir,
            name="admission",
            env={"MAX_IN_FLIGHT": str(MAX_IN_FLIGHT), "BUSY_AFTER": str(BUSY_AFTER)},
        )
        try:
            await bot.start()
            yield fake, bot, database.split("///", 1)[1]
        finally:
            await bot.stop()


def created_seconds_ago(payload: dict[str, Any], seconds: float) -> dict[str, Any]:
    """``payload`` as if Discord had created it ``seconds`` ago (its id and token say so)."""
    ms = int((time.time() - seconds) * 1000) - p.DISCORD_EPOCH_MS
    interaction_id = (ms << 22) | (int(payload["id"]) & 0x3FFFFF)
    secret = payload["token"].split(".", 1)[1]
    return {**payload, "id": str(interaction_id), "token": f"{interaction_id}.{secret}"}


def roll(fake: FakeDiscord, channel: int, expression: str = "1d20") -> dict[str, Any]:
    return fake.command_payload("roll", channel=channel, user="bob", expression=expression)


def very_busy(result: InteractionResult) -> bool:
    return result.callback_type == 4 and result.ephemeral and result.content == VERY_BUSY


@contextlib.contextmanager
def write_lock_held(path: str) -> Iterator[sqlite3.Connection]:
    """Another process's writer holding SQLite's write lock until the block ends."""
    connection = sqlite3.connect(path, isolation_level=None, timeout=5)
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield connection
    finally:
        connection.rollback()
        connection.close()


async def test_an_interaction_that_waited_too_long_is_told_to_retry(running: Running) -> None:
    fake, _bot, _path = running
    channel = fake.channel(0)
    for _ in range(3):  # what "no waiting" looks like on this machine
        served = await fake.interact("roll", channel=channel, user="bob", expression="1d20")
        assert served.embeds and not served.ephemeral
    # Far later than BUSY_AFTER, however long the bot takes to read it on a loaded machine.
    late = fake.send(created_seconds_ago(roll(fake, channel, "1d6 + 1000"), 20.0), "roll")
    await late.wait(FAILSAFE)
    assert very_busy(late), late.callback
    history = await fake.interact("history", channel=channel, user="bob")
    assert "1006" not in str(history.all_embeds()) and "1d6 + 1000" not in str(history.callback)
    # Caught up: the next fresh one is served.
    fresh = await fake.interact("roll", channel=channel, user="bob", expression="1d20")
    assert fresh.embeds and not fresh.ephemeral


async def test_past_the_bound_new_commands_are_told_and_admitted_ones_finish(
    running: Running,
) -> None:
    fake, _bot, path = running
    channel = fake.channel(1)
    await fake.interact("roll", channel=channel, user="bob", expression="1d20")
    with write_lock_held(path):  # every admitted roll waits for the lock: they pile up
        admitted = [fake.send(roll(fake, channel), "roll") for _ in range(MAX_IN_FLIGHT)]
        # Each one's first callback is its deferral, sent while it waits for the lock (the
        # bot's lock timeout, 10 s, is far off): all of them are running now.
        await asyncio.gather(*(r.wait(FAILSAFE) for r in admitted))
        extra = [fake.send(roll(fake, channel), "roll") for _ in range(5)]
        await asyncio.gather(*(r.wait(FAILSAFE) for r in extra))
    everyone = admitted + extra
    await asyncio.gather(*(r.wait(FAILSAFE, followups=0 if very_busy(r) else 1) for r in admitted))
    assert all(very_busy(r) for r in extra), [r.callback for r in extra]
    ran = [r for r in admitted if not very_busy(r)]
    assert ran, "the bound turned away everything"
    assert any(r.callback_type == 5 for r in ran)  # deferred while waiting, then answered
    for result in ran:
        answer = result.embeds or [e for f in result.followups for e in f.get("embeds") or []]
        assert answer and "1d20" in str(answer), result.callback
    late_ids = {r.id for r in fake.late_callbacks}
    assert not [r for r in everyone if r.id in late_ids or r.callback_status != 200]
