"""Worker processes (bot/workers): answers equal to the inline ones, budgets that really stop
the work, fair queues, and an event loop that keeps running meanwhile.

No test measures time: a job that must overrun its budget hangs for good in its worker (the
``NARRATOR_WORKER_TEST_HANG`` hook), and "the loop kept running" counts a heartbeat's ticks
while a job is known to be in its worker.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from bot import workers
from bot.app import create_bot
from bot.hosting.config import Settings
from bot.render.charts import Chart, Panel, Series, draw
from bot.workers import Busy, FairGate, OverBudget, WorkerPool
from bot.workers._child import NICENESS, niceness
from engine import odds_tables
from engine.systems import drama, rps

HANG = {**os.environ, "NARRATOR_WORKER_TEST_HANG": "1"}


@pytest.fixture
async def pool() -> AsyncIterator[WorkerPool]:
    workers = WorkerPool(1)
    try:
        yield workers
    finally:
        await workers.shutdown()


@pytest.fixture
async def hanging() -> AsyncIterator[WorkerPool]:
    """A pool whose every job hangs: any budget is overrun, however fast the machine."""
    workers = WorkerPool(1, env=HANG, per_channel=5)
    try:
        yield workers
    finally:
        await workers.shutdown()


async def until(condition: Callable[[], bool]) -> None:
    """Wait (by polling: what is awaited is another process's state) for ``condition``."""
    while not condition():  # noqa: ASYNC110 - no event to wait on: the state is a process's
        await asyncio.sleep(0.01)


async def heartbeat_while(job: asyncio.Future[object], counted: list[int]) -> None:
    while not job.done():
        counted[0] += 1
        await asyncio.sleep(0.001)


async def test_odds_in_a_worker_equal_the_inline_ones(pool: WorkerPool) -> None:
    big = drama.given_pools(60, resistance=60, drama=60)
    cases = [
        (drama.together_chances, {"pools": [big, drama.given_pools(5)], "criticals": True}),
        (drama.opposed_chances, {"a": big, "b": drama.given_pools(12, drama=3)}),
        (rps.resisted_chances, {"parties": [(f"P{i}", 11 + 3 * i) for i in range(5)]}),
        (odds_tables.drama_nets, {"base": 30, "resistance": 20, "drama_dice": 10}),
        (odds_tables.h90_variants, {"bonus": 3, "difficulty": 14, "variants": [(False, True)]}),
    ]
    for work, kwargs in cases:
        assert await pool.run(work, kwargs, budget=120) == work(**kwargs)
    assert pool.started == 1  # one worker served them all
    assert pool.processes == 1


async def test_a_chart_drawn_in_a_worker_is_the_same_png(pool: WorkerPool) -> None:
    chart = Chart("t", (Panel("p", ("a", "b"), (Series("s", (0.25, 0.75)),), percent=True),))
    png = await pool.run(draw, {"chart": chart}, budget=120, cache=True)
    assert png == draw(chart)
    # Asked again, the pool's cache answers: no worker runs it (a hanging pool would hang).
    again = Chart(chart.title, chart.panels)
    assert await pool.run(draw, {"chart": again}, budget=0.001, cache=True) is png


async def test_the_jobs_own_errors_come_back_and_the_worker_stays(pool: WorkerPool) -> None:
    with pytest.raises(drama.DramaError) as raised:
        await pool.run(drama.chance, {"base": 999}, budget=120)
    # Whole: its template and parameters, for the player's language.
    assert raised.value.params["value"] == 999 and "{what}" in raised.value.template
    assert await pool.run(drama.chance, {"base": 3}, budget=120) == drama.chance(base=3)
    assert pool.started == 1 and pool.killed == 0


async def test_past_its_budget_the_work_is_killed(hanging: WorkerPool) -> None:
    with pytest.raises(OverBudget):
        await hanging.run(drama.chance, {"base": 3}, budget=0.5)
    assert hanging.killed == 1
    assert hanging.processes == 0  # the killed worker is gone, not left running
    # The next job gets a new worker (which hangs too: this pool's hook).
    with pytest.raises(OverBudget):
        await hanging.run(drama.chance, {"base": 4}, budget=0.5)
    assert hanging.started == 2 and hanging.killed == 2


async def test_a_cancelled_caller_kills_its_work(hanging: WorkerPool) -> None:
    job = asyncio.ensure_future(hanging.run(drama.chance, {"base": 3}, budget=3600))
    await until(lambda: bool(hanging._busy))  # the job reached its worker
    job.cancel()
    with pytest.raises(asyncio.CancelledError):
        await job
    assert hanging.killed == 1 and hanging.processes == 0


async def test_the_user_queue_refuses_a_second_request(hanging: WorkerPool) -> None:
    first = asyncio.ensure_future(
        hanging.run(drama.chance, {"base": 3}, budget=3600, user=7, channel=1, what="odds")
    )
    await asyncio.sleep(0)
    with pytest.raises(Busy) as refused:  # whatever the second is, the first is what runs
        await hanging.run(drama.chance, {"base": 4}, budget=3600, user=7, channel=2, what="x")
    assert refused.value.scope == "user" and refused.value.held == "odds"
    # Another user in the same channel is queued behind (one worker), not refused.
    second = asyncio.ensure_future(
        hanging.run(drama.chance, {"base": 5}, budget=3600, user=8, channel=1)
    )
    await asyncio.sleep(0)
    assert not second.done()
    for job in (first, second):
        job.cancel()
    await asyncio.gather(first, second, return_exceptions=True)
    # Their places are free again.
    assert not hanging.holding


async def test_the_channel_and_pool_queues_are_bounded() -> None:
    workers = WorkerPool(1, env=HANG, per_channel=2, max_waiting=2)
    try:
        jobs = [
            asyncio.ensure_future(
                workers.run(drama.chance, {"base": b}, budget=3600, user=b, channel=1)
            )
            for b in (1, 2)
        ]
        await asyncio.sleep(0)
        with pytest.raises(Busy) as refused:
            await workers.run(drama.chance, {"base": 3}, budget=3600, user=3, channel=1)
        assert refused.value.scope == "channel"
        jobs += [
            asyncio.ensure_future(
                workers.run(drama.chance, {"base": b}, budget=3600, user=b, channel=b)
            )
            for b in (4,)
        ]
        await asyncio.sleep(0)  # one running, two waiting: the pool's queue is full
        with pytest.raises(Busy) as refused:
            await workers.run(drama.chance, {"base": 5}, budget=3600, user=5, channel=5)
        assert refused.value.scope == "pool"
        for job in jobs:
            job.cancel()
        await asyncio.gather(*jobs, return_exceptions=True)
    finally:
        await workers.shutdown()


async def test_the_event_loop_runs_on_while_heavy_odds_are_worked_out(
    hanging: WorkerPool, pool: WorkerPool
) -> None:
    """A heartbeat keeps beating while the heaviest odds are in a worker: the loop is never
    held. (The hanging pool proves the beats happen *while* a job runs, with no clock.)"""
    beats = [0]
    job = asyncio.ensure_future(hanging.run(drama.chance, {"base": 3}, budget=3600))
    beating = asyncio.ensure_future(heartbeat_while(job, beats))
    await until(lambda: beats[0] >= 200 and bool(hanging._busy))  # beats while it hangs
    assert not job.done()
    job.cancel()
    await asyncio.gather(job, beating, return_exceptions=True)
    # And a real heavy job (eleven full pools, criticals): the heartbeat beats throughout.
    drama.clear_caches()
    pools = [drama.given_pools(60, resistance=50 + i, drama=60) for i in range(11)]
    beats = [0]
    job = asyncio.ensure_future(
        pool.run(drama.together_chances, {"pools": pools, "criticals": True}, budget=600)
    )
    beating = asyncio.ensure_future(heartbeat_while(job, beats))
    result = await job
    await beating
    assert beats[0] > 1  # it ran while the job did (on the loop, it could not have)
    assert result == drama.together_chances(pools=pools, criticals=True)


async def test_the_bot_ends_its_workers_when_it_closes(settings: Settings) -> None:
    pool = WorkerPool(1)
    previous = workers.install(pool)
    try:
        bot = create_bot(settings)
        assert pool.processes == 0  # started lazily: nothing yet
        await workers.run(drama.chance, {"base": 3}, budget=120)
        assert pool.processes == 1
        await bot.close()
        assert pool.processes == 0
    finally:
        workers.install(previous)
        await pool.shutdown()


def gated(pool: WorkerPool, gate: Path) -> asyncio.Future[str]:
    """A job that runs until the test opens its ``gate`` (a FIFO: reading it blocks in the
    worker until something is written), then answers what was written: no clock involved."""
    os.mkfifo(gate)
    return asyncio.ensure_future(pool.run(Path.read_text, {"self": gate}, budget=3600))


async def release(gate: Path) -> None:
    await asyncio.to_thread(gate.write_text, gate.name)  # blocks until the job reads it


async def test_resize_grows_into_waiting_jobs_and_shrinks_as_jobs_finish(
    tmp_path: Path,
) -> None:
    pool = WorkerPool(1)
    try:
        a = gated(pool, tmp_path / "a")
        await until(lambda: len(pool._busy) == 1)
        b, c = gated(pool, tmp_path / "b"), gated(pool, tmp_path / "c")
        await asyncio.sleep(0)
        assert len(pool._waiters) == 2  # one worker: b and c wait their turn
        pool.resize(2)  # the new slot goes to b at once, not when a finishes
        await until(lambda: len(pool._busy) == 2)
        assert len(pool._waiters) == 1 and pool.started == 2
        pool.resize(1)  # c keeps waiting; a's worker ends when a is done
        await release(tmp_path / "a")
        assert await a == "a"
        await until(lambda: pool.processes == 1)
        assert not c.done() and len(pool._waiters) == 1  # a's slot is gone with its worker
        await release(tmp_path / "b")
        assert await b == "b"  # b's slot passes to c, on b's worker: no new process
        await until(lambda: len(pool._busy) == 1 and not pool._waiters)
        await release(tmp_path / "c")
        assert await c == "c"
        assert pool.started == 2 and pool.processes == 1 and pool.killed == 0
        # Shrinking with no job running ends the idle workers at once.
        pool.resize(2)
        both = [gated(pool, tmp_path / name) for name in ("d", "e")]
        await until(lambda: len(pool._busy) == 2)
        for name in ("d", "e"):
            await release(tmp_path / name)
        assert await asyncio.gather(*both) == ["d", "e"]
        assert pool.processes == 2
        pool.resize(1)
        assert pool.processes == 1 and pool.size == 1
        assert await pool.run(drama.chance, {"base": 3}, budget=120) == drama.chance(base=3)
        with pytest.raises(ValueError):
            pool.resize(0)
    finally:
        await pool.shutdown()


async def test_a_fair_gate_lets_one_in_at_a_time_and_refuses_past_its_bounds() -> None:
    gate = FairGate(1, per_user=1, per_channel=2, max_waiting=1)
    inside, leave = asyncio.Event(), asyncio.Event()
    order: list[str] = []

    async def hold(name: str, user: int, channel: int) -> None:
        async with gate.enter(user, channel, what=name):
            order.append(name)
            inside.set()
            await leave.wait()

    first = asyncio.ensure_future(hold("first", 1, 10))
    await inside.wait()
    with pytest.raises(Busy) as refused:  # the same user again
        await hold("again", 1, 11)
    assert refused.value.scope == "user" and refused.value.held == "first"
    second = asyncio.ensure_future(hold("second", 2, 10))  # waits its turn
    await asyncio.sleep(0)
    with pytest.raises(Busy) as refused:  # the channel has two in its line
        await hold("third", 3, 10)
    assert refused.value.scope == "channel"
    with pytest.raises(Busy) as refused:  # one waiting already: the line is full
        await hold("fourth", 4, 12)
    assert refused.value.scope == "pool"
    assert order == ["first"]
    leave.set()
    await asyncio.gather(first, second)
    assert order == ["first", "second"]
    async with gate.enter(1, 10):  # every place is free again
        pass


async def test_workers_run_at_a_lower_cpu_priority_than_the_bot(pool: WorkerPool) -> None:
    # On a machine short of cores the loop's commands run first; heavy work takes the rest.
    assert await pool.run(niceness, {}, budget=120) == min(19, os.nice(0) + NICENESS)
