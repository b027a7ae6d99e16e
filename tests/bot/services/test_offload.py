"""A roll's odds and ``/odds``'s tables: inline when cheap, in a worker process past the
cost estimate, and never holding up the reply (bot/services/offload.py)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator

import pytest

from bot import workers
from bot.actor import Actor
from bot.services import offload
from engine.systems import drama, rps

ACTOR = Actor(user_id=1, channel_id=10, guild_id=100)
HANG = {**os.environ, "NARRATOR_WORKER_TEST_HANG": "1"}


@pytest.fixture
async def hanging() -> AsyncIterator[workers.WorkerPool]:
    """The process's pool swapped for one whose every job hangs (any budget is overrun)."""
    pool = workers.WorkerPool(1, env=HANG)
    previous = workers.install(pool)
    try:
        yield pool
    finally:
        workers.install(previous)
        await pool.shutdown()


def test_the_cost_estimate_keeps_typical_rolls_inline() -> None:
    typical = drama.given_pools(6, resistance=3, drama=2)
    assert not offload.drama_heavy(typical, typical)  # an opposed test
    assert not offload.drama_heavy(drama.given_pools(20, resistance=10, drama=10))
    assert offload.drama_heavy(drama.given_pools(30, resistance=10, drama=1))
    assert offload.drama_heavy(*[typical] * 4)  # four helpers of 11 dice: 44
    assert not offload.rps_heavy([("a", 10), ("b", 12), ("c", 14)])
    assert offload.rps_heavy([("a", 10), ("b", 12), ("c", 14), ("d", 9)])


async def test_cheap_odds_never_reach_a_worker(hanging: workers.WorkerPool) -> None:
    # The hanging pool would make any job miss its budget: these answer, so ran inline.
    pools = [drama.given_pools(5, resistance=2, drama=1)]
    chances = await offload.odds(
        drama.together_chances, actor=ACTOR, heavy=False, pools=pools, criticals=True
    )
    assert chances == drama.together_chances(pools=pools, criticals=True)
    assert hanging.started == 0


async def test_heavy_odds_come_from_a_worker_equal_to_inline() -> None:
    parties = [(f"P{i}", 11 + 3 * i) for i in range(5)]
    assert offload.rps_heavy(parties)
    chances = await offload.odds(rps.resisted_chances, actor=ACTOR, heavy=True, parties=parties)
    assert chances == rps.resisted_chances(parties=parties)


async def test_a_rolls_odds_past_the_budget_are_left_out(
    hanging: workers.WorkerPool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(offload, "ODDS_SECONDS", 0.5)
    pools = [drama.given_pools(60, resistance=60, drama=60)]
    assert await offload.odds(drama.together_chances, actor=ACTOR, heavy=True, pools=pools) is None
    assert hanging.processes == 0  # the work was stopped (its worker killed), not left running


async def test_table_says_too_heavy_and_busy(
    hanging: workers.WorkerPool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(offload, "TABLE_SECONDS", 0.5)
    with pytest.raises(offload.TooHeavy, match="narrow it"):
        await offload.table(drama.chance, actor=ACTOR, heavy=True, base=60)
    hanging.per_user = 0  # the user's queue full
    with pytest.raises(offload.OddsBusy, match="previous request"):  # none of its to name
        await offload.table(drama.chance, actor=ACTOR, heavy=True, base=60)
    # A roll's odds are never refused: only left out.
    assert await offload.odds(drama.chance, actor=ACTOR, heavy=True, base=60) is None
