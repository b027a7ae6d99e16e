"""``e2e_load --preload``: the same mix on an empty and on a preloaded database, compared.

Issue 31 item 3: a server's years in the database (``benchmarks._preload``) must not make a
command dearer. In one invocation, Narrator runs the plan's rates on an empty database and then
on one filled first; this module compares, rate by rate, the bot's CPU per command and the p99
latency (medians of the repeats), gives their ratios, and judges "within 1.2×" (PASS / FAIL);
and it starts the bot on the preloaded database three times (``benchmarks.startup``) for the
start-up goal: a first answer within 10 s.
"""

from __future__ import annotations

import statistics
from pathlib import Path

from benchmarks import _mix as load_mix
from benchmarks._load_run import RATE, RateResult
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


def _median(rows: list[RateResult], rate: int, field: str) -> float:
    return statistics.median(getattr(r, field) for r in rows if r.phase == RATE and r.rate == rate)


def comparison(
    empty: list[RateResult], preloaded: list[RateResult]
) -> list[tuple[int, float, float, float, float]]:
    """Per plan rate run on both: (rate, CPU ms empty, CPU ms preloaded, p99 empty, p99
    preloaded), medians of the repeats."""
    rates = sorted({r.rate for r in empty if r.phase == RATE} & {r.rate for r in preloaded})
    return [
        (
            rate,
            _median(empty, rate, "cpu_ms"),
            _median(preloaded, rate, "cpu_ms"),
            _median(empty, rate, "p99_ms"),
            _median(preloaded, rate, "p99_ms"),
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
        [
            "rate/s",
            "CPU ms/cmd empty",
            "preloaded",
            "ratio",
            "p99 ms empty",
            "preloaded",
            "ratio",
        ],
        [(r, ce, cp, cp / ce, pe, pp, pp / pe) for r, ce, cp, pe, pp in rows],
    )
    worst_cpu = max((cp / ce for _, ce, cp, _, _ in rows), default=float("nan"))
    worst_p99 = max((pp / pe for _, _, _, pe, pp in rows), default=float("nan"))
    met = bool(rows) and worst_cpu <= FLAT_GOAL and worst_p99 <= FLAT_GOAL
    print(
        f"  {'PASS' if met else 'FAIL'}  preloaded within {FLAT_GOAL:g}x of empty (CPU per "
        f"command and p99, every rate): worst CPU {worst_cpu:.2f}x, worst p99 {worst_p99:.2f}x"
    )
    if starts:
        worst = max(s.first_answer_s for s in starts)
        print(
            f"  {'PASS' if worst < GOAL_SECONDS else 'FAIL'}  start-up on the preloaded database "
            f"< {GOAL_SECONDS:g} s: to READY {spread([s.ready_s for s in starts])} s, to first "
            f"answer {spread([s.first_answer_s for s in starts])} s (min/median/max of "
            f"{len(starts)})"
        )
