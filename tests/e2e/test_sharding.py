"""Two ``narrator run`` processes, two shards each, one PostgreSQL database.

The stand-in recommends 4 shards and routes each of its 4 guilds to shard
``(guild_id >> 22) % 4``. Process A runs shards 0-1, process B shards 2-3; both start at once
on a fresh database (so they also migrate it at once). Checked: only A (shard 0) syncs the
commands; each process serves its own guilds; concurrent changes from both processes to the
shared tables are exact; killing B mid-burst loses nothing it acknowledged, A keeps serving
its guilds meanwhile, and B's guilds are served again once it restarts.
"""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from tests.conftest import POSTGRES_URL, empty_postgres
from tests.e2e.fake_discord import FakeDiscord, InteractionResult
from tests.e2e.process import BotProcess

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]

SHARDS = {"A": [0, 1], "B": [2, 3]}
BURST = 24
KILL_AFTER = 6
ADDS = 10


@pytest.fixture
async def fresh_postgres() -> AsyncIterator[str]:
    """An empty PostgreSQL database (not migrated: the bots do that, both at once)."""
    if not POSTGRES_URL:
        pytest.skip("TEST_DATABASE_URL is not set")
    async with empty_postgres() as url:
        yield url


def acknowledged(result: InteractionResult) -> bool:
    """The user saw the outcome: a message callback, or a deferral's follow-up."""
    if result.callback_status != 200:
        return False
    return result.callback_type == 4 or (result.callback_type == 5 and bool(result.followups))


async def answered(result: InteractionResult, within: float = 30) -> None:
    """Until the reply is in: the callback, and the follow-up if the command was deferred."""
    await result.wait_until(
        lambda: acknowledged(result) or result.callback_status not in (None, 200), within
    )


async def scalar_rows(url: str, query: str) -> list[tuple]:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as connection:
            return [tuple(row) for row in await connection.execute(text(query))]
    finally:
        await engine.dispose()


async def test_two_processes_share_the_shards_and_the_database(
    tmp_path: Path, fresh_postgres: str
) -> None:
    async with FakeDiscord(channels=2, guilds=4, shards=4) as fake:
        bots = {
            name: BotProcess(
                fake,
                fresh_postgres,
                tmp_path,
                name=f"shards-{name}",
                env={"SHARD_COUNT": "4", "SHARD_IDS": f"{ids[0]}-{ids[-1]}"},
            )
            for name, ids in SHARDS.items()
        }
        try:
            await asyncio.gather(*(bots[n].start(shards=SHARDS[n]) for n in SHARDS))
            assert fake.command_syncs == 1, "only the process holding shard 0 syncs"
            guilds = [table.guild_id for table in fake.tables]
            assert [fake.shard_of(g) for g in guilds] == [0, 1, 2, 3]

            # Every guild is answered, each on its own shard.
            for index, guild in enumerate(guilds):
                result = await fake.interact(
                    "roll", channel=fake.channel(guild=index), expression="1d6", within=20
                )
                assert acknowledged(result), result
                assert fake.dispatched_on[result.token] == fake.shard_of(guild)

            # Concurrent changes from both processes to the same tables are exact.
            for index in (0, 2):
                await fake.interact(
                    "sheet create",
                    channel=fake.channel(guild=index),
                    name="William",
                    system="drama",
                    within=20,
                )
            adds = [
                fake.send(
                    fake.command_payload(
                        "penalty add",
                        channel=fake.channel(guild=index),
                        character="William",
                        amount=1,
                    ),
                    f"penalty add {index}",
                )
                for _ in range(ADDS)
                for index in (0, 2)
            ]
            await asyncio.gather(*(answered(r) for r in adds))
            assert [r for r in adds if not acknowledged(r)] == []
            pools = await scalar_rows(
                fresh_postgres, "SELECT guild_id, dice FROM penalty_pools ORDER BY guild_id"
            )
            assert sorted(pools) == sorted([(guilds[0], ADDS), (guilds[2], ADDS)])
            log = await scalar_rows(fresh_postgres, "SELECT count(*) FROM penalty_log")
            assert log == [(2 * ADDS,)]

            # Kill B mid-burst: what it acknowledged is stored; A serves on meanwhile.
            answered_by_b = 0

            def on_callback(result: InteractionResult) -> None:
                nonlocal answered_by_b
                if fake.dispatched_on.get(result.token) in SHARDS["B"]:
                    answered_by_b += 1
                    if answered_by_b == KILL_AFTER:
                        os.kill(bots["B"].pid, signal.SIGKILL)

            fake.on_callback = on_callback
            burst = []
            for n in range(BURST):
                payload = fake.command_payload(
                    "roll", channel=fake.channel(guild=2 + n % 2), expression="3d6", label=f"b-{n}"
                )
                burst.append(fake.send(payload, f"roll b-{n}"))
                await asyncio.sleep(0.005)
            await asyncio.wait_for(bots["B"].process.wait(), 20)  # type: ignore[union-attr]
            fake.on_callback = None
            during = await fake.interact(
                "roll", channel=fake.channel(guild=1), expression="1d6", within=20
            )
            assert acknowledged(during), "A stopped serving its guilds when B died"

            await bots["B"].start(shards=SHARDS["B"])
            stored = {
                label
                for (label,) in await scalar_rows(
                    fresh_postgres, "SELECT label FROM roll_log WHERE label LIKE 'b-%'"
                )
            }
            acked = {f"b-{n}" for n, r in enumerate(burst) if acknowledged(r)}
            assert len(acked) >= KILL_AFTER // 2, "the kill landed before the burst was served"
            assert acked <= stored, f"acknowledged but lost: {sorted(acked - stored)}"
            for index in (2, 3):
                after = await fake.interact(
                    "roll", channel=fake.channel(guild=index), expression="1d6", within=20
                )
                assert acknowledged(after), f"guild {index} is not served after the restart"
            assert fake.unknown == [] and fake.rejected == []
        finally:
            for bot in bots.values():
                await bot.kill()
