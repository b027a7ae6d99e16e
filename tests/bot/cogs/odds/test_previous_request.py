"""A player's heavy requests share one place in the worker pool (bot/workers PER_USER): while
their ``/odds`` is still being worked out their ``/dice stats`` waits, and the other way
round. The refusal names what is really still running, in the player's language.

The request still running is the command's own use case, called beside SimCord (which runs
one interaction at a time); the refused one is the player's command."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest

from bot import workers
from bot.actor import Actor
from bot.services import dice_stats, odds, offload
from tests.conftest import Table, text_of

ODDS = {
    "en": "Your previous odds are still being worked out: wait for them, then ask again.",
    "es": "Tus probabilidades anteriores aún se están calculando: espéralas y vuelve a pedirlas.",
}
STATS = {
    "en": "Your previous dice statistics are still being counted: wait for them, then ask again.",
    "es": "Tus estadísticas de dados anteriores aún se están contando: espera a que terminen y "
    "vuelve a pedirlas.",
}


@contextlib.asynccontextmanager
async def still_running(
    pool: workers.WorkerPool, request: Callable[[], Awaitable[Any]]
) -> AsyncIterator[None]:
    """``request`` sent and its job admitted to the (hanging) pool for the block; then it is
    cancelled, which kills its worker. Budgets are long: nothing here waits on the clock."""
    admitted = asyncio.Event()
    run = pool.run

    async def run_and_tell(*args: Any, **kwargs: Any) -> Any:
        admitted.set()  # the pool admits the job before its first wait
        return await run(*args, **kwargs)

    pool.run = run_and_tell  # type: ignore[method-assign]
    task = asyncio.create_task(request())
    try:
        await asyncio.wait_for(admitted.wait(), 60)
        await asyncio.sleep(0)
        assert pool.holding
        yield
    finally:
        pool.run = run  # type: ignore[method-assign]
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


def player(table: Table) -> Actor:
    return Actor(user_id=table.alice.id, channel_id=table.channel.id, guild_id=table.guild.id)


@pytest.fixture
def patient(monkeypatch: pytest.MonkeyPatch) -> None:
    """Budgets far past the test: the first request stays in its worker until cancelled."""
    monkeypatch.setattr(offload, "TABLE_SECONDS", 600.0)
    monkeypatch.setattr(dice_stats, "STATS_SECONDS", 600.0)


@pytest.mark.parametrize("language", ["en", "es"])
async def test_stats_wait_for_your_odds_and_say_so(
    table: Table,
    hanging_workers: workers.WorkerPool,
    patient: None,
    as_spanish: Any,
    language: str,
) -> None:
    alice = as_spanish(table.alice) if language == "es" else table.alice
    await alice.slash(table.channel, "roll", expression="2d6")

    def heavy_odds() -> Awaitable[Any]:  # what /odds drama base:60 resistance:60 asks
        return odds.drama_odds(player(table), base=60, resistance=60)

    async with still_running(hanging_workers, heavy_odds):
        refused = await alice.slash(table.channel, "dice stats")
        assert refused.ephemeral and ODDS[language] in text_of(refused)
        test = await alice.slash(table.channel, "dice test", sides=6, count=50_000)
        assert test.ephemeral and ODDS[language] in text_of(test)


@pytest.mark.parametrize("language", ["en", "es"])
async def test_odds_wait_for_your_stats_and_say_so(
    table: Table,
    hanging_workers: workers.WorkerPool,
    patient: None,
    as_spanish: Any,
    language: str,
) -> None:
    alice = as_spanish(table.alice) if language == "es" else table.alice
    await alice.slash(table.channel, "roll", expression="2d6")

    def stats() -> Awaitable[Any]:  # what /dice stats asks (SQLite: counted in a worker)
        return dice_stats.stats(table.bot.db, player(table))

    async with still_running(hanging_workers, stats):
        refused = await alice.slash(table.channel, "odds drama", base=60, resistance=60)
        assert refused.ephemeral and STATS[language] in text_of(refused)
