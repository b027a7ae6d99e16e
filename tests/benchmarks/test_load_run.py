"""The served maximum's search (benchmarks/_load_run.py): the saturating rates a target is
offered, for a target whose true maximum is known."""

from __future__ import annotations

import asyncio

import pytest

from benchmarks import _load_run
from benchmarks._load_run import (
    BISECT_STEPS,
    HALF,
    KEPT_UP,
    OVERLOAD,
    RATE,
    SATURATE,
    SATURATE_STEPS,
    SETTLE_LIMIT,
    MaximumSearch,
    Plan,
    RateResult,
    measure,
    settle,
)


def offered_to(true_maximum: float, plan_best: int = 200) -> list[int]:
    """The rates offered to a target that serves all it is offered up to ``true_maximum``
    and that much past it."""
    search = MaximumSearch(plan_best)
    offered = []
    while (rate := search.next_rate()) is not None:
        offered.append(rate)
        search.record(rate, min(rate, true_maximum))
    return offered


def test_doubles_then_bisects_between_the_last_kept_up_and_the_first_not() -> None:
    # Kept up at 400, not at 800 (560 < 720 served); 566 kept up (560 is 99%), 673 not: 617.
    assert offered_to(560) == [400, 800, 566, 673, 617]


@pytest.mark.parametrize("true_maximum", [250, 450, 560, 700, 1000, 1700, 2900])
def test_the_maximum_served_is_found_within_nine_percent(true_maximum: float) -> None:
    offered = offered_to(true_maximum)
    served = max(min(rate, true_maximum) for rate in offered)
    assert true_maximum / served <= 2 ** (1 / 2**BISECT_STEPS)
    assert len(offered) <= SATURATE_STEPS + BISECT_STEPS


def test_a_target_that_keeps_up_at_every_doubling_is_offered_no_more() -> None:
    assert offered_to(10_000) == [400, 800, 1600, 3200]


def test_a_target_past_capacity_at_the_first_doubling_is_searched_below_it() -> None:
    assert offered_to(230) == [400, 283, 238, 260]


def test_a_rate_served_just_short_still_counts_as_kept_up() -> None:
    search = MaximumSearch(200)
    assert search.next_rate() == 400
    search.record(400, KEPT_UP * 400)
    assert search.next_rate() == 800
    search.record(800, KEPT_UP * 800 - 1)
    assert search.not_kept_up == 800
    assert search.kept_up == 400


class Draining:
    """A target whose CPU clock (``cpu_seconds``) reads each of ``readings`` in turn."""

    def __init__(self, *readings: float) -> None:
        self.readings = list(readings)

    def cpu_seconds(self) -> float:
        return self.readings.pop(0) if len(self.readings) > 1 else self.readings[0]


@pytest.fixture
def slept(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Every pause :func:`settle` takes, in seconds (none is really waited for)."""
    pauses: list[float] = []

    async def sleep(seconds: float) -> None:
        pauses.append(seconds)

    monkeypatch.setattr(_load_run.asyncio, "sleep", sleep)
    return pauses


async def test_the_next_run_waits_until_the_target_has_drained_its_backlog(
    slept: list[float],
) -> None:
    # Busy for two half-seconds (0.4 s of CPU each), then quiet (0.01 s).
    await settle(Draining(0.0, 0.4, 0.4, 0.8, 0.8, 0.81), 1.0)  # type: ignore[arg-type]
    assert slept == [1.0, 0.5, 0.5, 0.5]


async def test_a_target_that_never_quietens_is_waited_for_no_longer_than_the_limit(
    slept: list[float],
) -> None:
    busy = Draining(*(0.5 * n for n in range(200)))
    await settle(busy, 1.0)  # type: ignore[arg-type]
    assert sum(slept) == SETTLE_LIMIT


REAL_SLEEP = asyncio.sleep  # before ``slept`` replaces it


async def test_targets_measured_at_once_take_turns_run_by_run(
    slept: list[float], monkeypatch: pytest.MonkeyPatch
) -> None:
    ran: list[tuple[str, int, int]] = []

    async def run_rate(fake, bot, mix, rate, count, run=1):  # type: ignore[no-untyped-def]
        ran.append((bot.name, rate, run))
        await REAL_SLEEP(0.001)  # a run takes time: the other target queues for the lock
        return RateResult(rate, run, count, rate, 1, 2, 3, 1.0, 0.5, 0, 0, 0, 100)

    class Quiet(Draining):
        def __init__(self, name: str) -> None:
            super().__init__(0.0)
            self.name = name

    monkeypatch.setattr(_load_run, "run_rate", run_rate)
    plan = Plan(rates=[100, 200], seconds=1, commands=10, repeat=2, overload=False)
    turns = asyncio.Lock()
    rows = await asyncio.gather(
        *(
            measure(name, None, Quiet(name), None, plan, turns=turns)  # type: ignore[arg-type]
            for name in ("narrator", "floor")
        )
    )
    assert ran == [
        ("narrator", 100, 1),  # the warm-ups
        ("floor", 100, 1),
        *(
            (name, rate, run)
            for rate in (100, 200)
            for run in (1, 2)
            for name in ("narrator", "floor")
        ),
    ]
    assert [len(target) for target in rows] == [4, 4]


@pytest.mark.parametrize("judged", [True, False])
async def test_only_a_judged_target_runs_at_half_and_twice_its_maximum(
    slept: list[float], monkeypatch: pytest.MonkeyPatch, judged: bool
) -> None:
    async def run_rate(fake, bot, mix, rate, count, run=1):  # type: ignore[no-untyped-def]
        served = min(rate, 560)  # a target whose maximum is 560/s
        return RateResult(rate, run, count, served, 1, 2, 3, 1.0, 0.5, 0, 0, 0, 100)

    monkeypatch.setattr(_load_run, "run_rate", run_rate)
    plan = Plan(rates=[100, 200], seconds=1, commands=10, repeat=1)
    rows = await measure("t", None, Draining(0.0), None, plan, judged=judged)  # type: ignore[arg-type]
    phases = {row.phase: row.rate for row in rows}
    if judged:
        assert (phases[HALF], phases[OVERLOAD]) == (280, 1120)
    else:  # a floor: its search of the maximum, and nothing past it no goal reads
        assert set(phases) == {RATE, SATURATE}
