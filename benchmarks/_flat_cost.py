"""``e2e_load --preload``: the same mix on an empty and on a preloaded database, compared.

Issue 31 item 3: a server's years in the database (``benchmarks._preload``) must not make a
command dearer. In one invocation, Narrator runs the plan's rates on an empty database and then
on one filled first; this module compares, rate by rate, the bot's CPU per command and the p99
latency (medians of the repeats), gives their ratios, and judges "within 1.2×" (PASS / FAIL)
on the rates neither run saturated (at a rate the bot cannot keep up with, p99 measures the
queue, not a command); and it starts the bot on the preloaded database three times
(``benchmarks.startup``) for the start-up goal: a first answer within 10 s.
"""

from __future__ import annotations

import dataclasses
import statistics
from dataclasses import dataclass
from pathlib import Path

from benchmarks import _mix as load_mix
from benchmarks._load_run import RATE, Plan, RateResult, measure_in_turns
from benchmarks._preload import Preloaded, preload
from benchmarks._timing import print_table
from benchmarks.startup import GOAL_SECONDS, Start, spread, time_starts
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.process import BotProcess

FLAT_GOAL = 1.2  # preloaded / empty, for CPU per command and p99
STARTS = 3


class Preloader:
    """The ``prepare`` hook of ``e2e_load.bench_backend``: fills the database, keeps what it did."""

    def __init__(self, scale: float) -> None:
        self.scale = scale
        self.done: Preloaded | None = None

    async def __call__(self, url: str) -> None:
        self.done = await preload(url, scale=self.scale)
        print(f"[preload] {self.done.summary()}", flush=True)


async def startup_on(url: str, workdir: Path, label: str, channels: int) -> list[Start]:
    """:data:`STARTS` starts of ``narrator run`` on ``url``, each to READY and a first answer."""
    async with FakeDiscord(channels=channels, players=load_mix.players(channels)) as fake:
        bot = BotProcess(fake, url, workdir, name=f"startup-{label}")
        try:
            return await time_starts(fake, bot, STARTS)
        finally:
            await bot.stop()


async def interleaved(
    backend: str, urls: dict[str, str], workdir: Path, plan: Plan, channels: int
) -> dict[str, list[RateResult]]:
    """Narrator on each database of ``urls`` (``empty``, ``preloaded``), both running, each
    behind its own stand-in, sent the plan's rates turn about (``measure_in_turns``): each
    run on one database is followed by the same run on the other, so that a machine shared
    with others (its load moves minute to minute) weighs on both alike."""
    factories = {
        case: lambda fake, url=url, case=case: BotProcess(
            fake, url, workdir, name=f"flat-{backend}-{case}"
        )
        for case, url in urls.items()
    }
    no_overload = dataclasses.replace(plan, overload=False)
    return await measure_in_turns(backend, factories, no_overload, channels, ready_timeout=120)


def _median(rows: list[RateResult], rate: int, field: str) -> float:
    return statistics.median(getattr(r, field) for r in rows if r.phase == RATE and r.rate == rate)


def saturated(rows: list[RateResult], rate: int) -> bool:
    """Whether any run at ``rate`` fell behind it (served < 90 %, or "very busy" answers): its
    p99 is then the queue's length, not a command's cost, and is left out of the verdict."""
    runs = [r for r in rows if r.phase == RATE and r.rate == rate]
    return any(r.served_per_s < 0.9 * rate or r.busy for r in runs)


@dataclass(frozen=True)
class Compared:
    """One plan rate run on both databases: medians of the repeats."""

    rate: int
    cpu_empty: float
    cpu_preloaded: float
    p99_empty: float
    p99_preloaded: float
    saturated: bool


def comparison(empty: list[RateResult], preloaded: list[RateResult]) -> list[Compared]:
    """Per plan rate run on both databases, CPU per command and p99 (medians of the repeats)."""
    rates = sorted({r.rate for r in empty if r.phase == RATE} & {r.rate for r in preloaded})
    return [
        Compared(
            rate,
            _median(empty, rate, "cpu_ms"),
            _median(preloaded, rate, "cpu_ms"),
            _median(empty, rate, "p99_ms"),
            _median(preloaded, rate, "p99_ms"),
            saturated(empty, rate) or saturated(preloaded, rate),
        )
        for rate in rates
    ]


def print_flat_cost(
    backend: str,
    empty: list[RateResult],
    preloaded: list[RateResult],
    starts: list[Start],
    loaded: Preloaded | None,
) -> None:
    """The table and the two goals' verdicts."""
    rows = comparison(empty, preloaded)
    print(
        f"\n{backend}: empty vs preloaded database" + (f" ({loaded.summary()})" if loaded else "")
    )
    print_table(
        ["rate/s", "CPU ms/cmd empty", "preloaded", "ratio", "p99 ms empty", "preloaded", "ratio"],
        [
            (
                f"{c.rate}{' (saturated)' if c.saturated else ''}",
                c.cpu_empty,
                c.cpu_preloaded,
                c.cpu_preloaded / c.cpu_empty,
                c.p99_empty,
                c.p99_preloaded,
                c.p99_preloaded / c.p99_empty,
            )
            for c in rows
        ],
    )
    judged = [c for c in rows if not c.saturated]
    if not judged:
        print(f"  n/a   preloaded within {FLAT_GOAL:g}x of empty: every rate saturated")
    else:
        worst_cpu = max(c.cpu_preloaded / c.cpu_empty for c in judged)
        worst_p99 = max(c.p99_preloaded / c.p99_empty for c in judged)
        met = worst_cpu <= FLAT_GOAL and worst_p99 <= FLAT_GOAL
        print(
            f"  {'PASS' if met else 'FAIL'}  preloaded within {FLAT_GOAL:g}x of empty (CPU per "
            f"command and p99, rates not saturated: {', '.join(str(c.rate) for c in judged)}/s): "
            f"worst CPU {worst_cpu:.2f}x, worst p99 {worst_p99:.2f}x"
        )
    if starts:
        worst = max(s.first_answer_s for s in starts)
        print(
            f"  {'PASS' if worst < GOAL_SECONDS else 'FAIL'}  start-up on the preloaded database "
            f"< {GOAL_SECONDS:g} s: to READY {spread([s.ready_s for s in starts])} s, to first "
            f"answer {spread([s.first_answer_s for s in starts])} s (min/median/max of "
            f"{len(starts)})"
        )
