"""One target of the end-to-end load benchmark: what it is sent, how a run is timed, and the
phases that find its served maximum (``benchmarks/e2e_load.py`` runs them per target).

A *target* is a bot process behind the Discord stand-in: ``narrator run``, or one of the
floors of ``benchmarks/_floor_bot.py``. Every target gets the same mix, the same open-loop
load generator and the same phases, so their figures can be divided by each other.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import math
import os
import resource
import statistics
import sys
import time
from collections.abc import AsyncIterator, Callable, Collection, Iterator
from dataclasses import dataclass
from pathlib import Path

from benchmarks import _mix as load_mix
from bot.gateway import GENERIC_FAILURE, VERY_BUSY
from tests.e2e.fake_discord import FakeDiscord, InteractionResult
from tests.e2e.process import BotProcess

SETUP_CONCURRENCY = 4
FLOOR_SCRIPT = Path(__file__).with_name("_floor_bot.py")
#: The phases of a target's runs, in order: the plan's rates; the saturating rates that find
#: the served maximum (:class:`MaximumSearch`); twice the served maximum (nothing may pass
#: 3 s); half of it (p99).
RATE, SATURATE, OVERLOAD, HALF = "rate", "saturate", "2x max", "half max"
#: After a run past capacity, the tracker edits and the writes it queued still drain: seconds
#: to wait before the next run is timed (at least: see :func:`settle`).
SETTLE_AFTER_OVERLOAD = 4.0
#: A target is quiet again when it used less than this share of a core over half a second.
#: A floor has no admission control: offered twice its maximum it queued ten seconds of work,
#: and the next run, timed after a fixed pause, served 0-170/s while that drained (measured
#: 2026-11-28), which said nothing of the rate it was offered.
QUIET_CPU = 0.1
#: The longest :func:`settle` waits for a target to be quiet (seconds).
SETTLE_LIMIT = 30.0
#: At most this many saturating rates, each twice the last kept up, until one is not kept up.
SATURATE_STEPS = 4
#: Then this many more between the last rate kept up and the first not, each the geometric
#: middle of the two: a target's maximum is then known within 2 ** (1 / 2**3), 9%. Without
#: them a target that kept up at 400/s and not at 800/s read 400, and two targets whose
#: maxima lay anywhere in adjacent doublings read as a ratio of 50% (or 49.5%: a run never
#: serves quite all it is offered), whatever their true ratio (measured 2026-11-28).
BISECT_STEPS = 3
#: A saturating rate is kept up when at least this share of it is served.
KEPT_UP = 0.9


@dataclass
class RateResult:
    rate: int
    run: int
    sent: int
    served_per_s: float  # commands answered with their work (or a deferral), per second
    p50_ms: float  # first response, "very busy" ones included: what users wait for
    p99_ms: float
    max_ms: float
    cpu_ms: float  # the bot's CPU per command answered
    load_cpu_ms: float  # this process's (load generator + stand-in) CPU per command sent
    errors: int
    busy: int  # answered "very busy, try again"
    late: int  # no first response within Discord's 3 s
    peak_rss_mib: float
    phase: str = RATE

    @property
    def overload(self) -> bool:
        """Offered past capacity (twice the best served, or twice the served maximum)."""
        return self.phase in (SATURATE, OVERLOAD)


def percentile(sorted_values: list[float], fraction: float) -> float:
    if not sorted_values:
        return math.nan
    index = max(0, math.ceil(fraction * len(sorted_values)) - 1)
    return sorted_values[index]


class Mix:
    """What to send: rolls always; sheet reads and initiative changes when the target has
    those commands. Setup runs only the setup commands the target synced (a floor has
    ``/init start`` to post its tracker, and no sheets to create)."""

    def __init__(self, fake: FakeDiscord, bot: BotProcess) -> None:
        self.fake = fake
        self.bot = bot
        self.sheets = fake.has_command("sheet show")
        self.init = fake.has_command("init next") and fake.has_command("init start")
        available = {"roll": True, "sheet": self.sheets, "init": self.init}
        self.kinds = [kind if available[kind] else "roll" for kind in load_mix.MIX]
        channels = fake.table.channel_ids
        self.player = dict(zip(channels, load_mix.channel_players(len(channels)), strict=True))

    def describe(self) -> str:
        return (
            "rolls"
            + (", sheet reads" if self.sheets else "")
            + (", initiative changes" if self.init else "")
        )

    async def setup(self, channels: list[int]) -> None:
        """Each channel: its player's character and the GM's encounter with three NPCs."""
        semaphore = asyncio.Semaphore(SETUP_CONCURRENCY)

        async def one(index: int, channel: int) -> None:
            async with semaphore:
                for command, user, options in load_mix.setup_steps(index, self.player[channel]):
                    if self.fake.has_command(command):
                        await self._ok(command, channel, user, **options)

        await asyncio.gather(*(one(i, c) for i, c in enumerate(channels)))

    async def _ok(self, command: str, channel: int, user: str, **options: object) -> None:
        result = await self.fake.interact(command, channel=channel, user=user, within=30, **options)
        if result.callback_status != 200 or GENERIC_FAILURE in result.content:
            raise RuntimeError(
                f"setup /{command} failed: status {result.callback_status} {result.callback}\n"
                f"{self.bot.log_tail(20)}"
            )

    def payload(self, number: int, channel: int) -> tuple[str, dict]:
        kind = self.kinds[number % len(self.kinds)]
        return kind, load_mix.payload(self.fake, kind, channel, self.player[channel])


def floor_process(fake: FakeDiscord, workdir: Path, name: str, storage: str) -> BotProcess:
    """``benchmarks/_floor_bot.py`` as a :class:`BotProcess` (``storage``: ``FLOOR_STORAGE``).

    ``BotProcess`` starts ``<script> run``: the script here is a two-line shell wrapper that
    ``exec``s this interpreter on the floor, so the process measured is the floor itself."""
    wrapper = workdir / f"{name}.sh"
    wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{FLOOR_SCRIPT}"\n')
    wrapper.chmod(0o755)
    return BotProcess(
        fake, "none", workdir, name=name, script=wrapper, env={"FLOOR_STORAGE": storage}
    )


def raise_open_files_limit() -> None:
    """Let this process (the stand-ins: one socket per connection a bot opens) and the bots it
    starts open as many files as their hard limit allows.

    discord.py's HTTP client opens a connection per request in flight (no pool limit), so a
    target far past its maximum holds thousands, and all the stand-ins share this process's
    descriptors: on a VM whose limit was 20,000 (soft and hard; raising the hard limit needs
    a capability its root lacks) they ran out (2026-11-28) when the floors were run at twice
    their maximum, the stand-ins stopped accepting, and Narrator's next run lost its
    callbacks. The floors no longer run there (:func:`measure`); where the soft limit is
    lower than the hard one (often 1,024), this lifts it."""
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def is_error(result: InteractionResult) -> bool:
    return result.callback_status != 200 or GENERIC_FAILURE in result.content


def very_busy(result: InteractionResult) -> bool:
    return result.callback_status == 200 and result.content == VERY_BUSY


@contextlib.contextmanager
def without_collection() -> Iterator[None]:
    """No automatic collection in this process while a run is timed: collect and freeze what
    is alive before, so the next pause-free window starts from a small heap, and turn it back
    on after. (Reference counting still frees most garbage as it goes.)"""
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


async def run_rate(
    fake: FakeDiscord, bot: BotProcess, mix: Mix, rate: int, count: int, run: int = 1
) -> RateResult:
    with without_collection():
        return await _run_rate(fake, bot, mix, rate, count, run)


async def _run_rate(
    fake: FakeDiscord, bot: BotProcess, mix: Mix, rate: int, count: int, run: int
) -> RateResult:
    channels = fake.table.channel_ids
    results: list[InteractionResult] = []
    loop = asyncio.get_running_loop()
    late_before = len(fake.late_callbacks)
    cpu_before = bot.cpu_seconds()
    own_before = time.process_time()
    start = loop.time()
    for number in range(count):
        delay = start + number / rate - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        kind, payload = mix.payload(number, channels[number % len(channels)])
        results.append(fake.send(payload, kind))
    deadline = loop.time() + 4.0  # past Discord's 3 s, whatever is unanswered is lost
    for result in results:
        if result.callback_status is None and loop.time() < deadline:
            with contextlib.suppress(TimeoutError):
                await result.wait(deadline - loop.time())
    cpu = bot.cpu_seconds() - cpu_before
    own_cpu = time.process_time() - own_before
    answered = [r for r in results if r.callback_at is not None]
    busy = [r for r in answered if very_busy(r)]
    latencies = sorted(r.latency * 1000 for r in answered if r.latency is not None)
    last = max((r.callback_at for r in answered), default=time.perf_counter())
    first = min((r.sent_at or r.created_at for r in results), default=last)
    late_ids = {r.id for r in fake.late_callbacks[late_before:]}
    late = sum(1 for r in results if r.callback_status is None or r.id in late_ids)
    return RateResult(
        rate=rate,
        run=run,
        sent=count,
        served_per_s=(len(answered) - len(busy)) / max(last - first, 1e-9),
        p50_ms=percentile(latencies, 0.50),
        p99_ms=percentile(latencies, 0.99),
        max_ms=latencies[-1] if latencies else math.nan,
        cpu_ms=cpu * 1000 / max(len(answered), 1),
        load_cpu_ms=own_cpu * 1000 / max(count, 1),
        errors=sum(
            1
            for r in results
            if r.callback_status is not None and r.id not in late_ids and is_error(r)
        ),
        busy=len(busy),
        late=late,
        peak_rss_mib=bot.peak_rss_kib() / 1024,
    )


@dataclass
class Plan:
    """How much to send: each rate for at least ``seconds`` and ``commands``, ``repeat``
    times; then (``overload``) the phases past the plan's rates (:func:`served_maximum`)."""

    rates: list[int]
    seconds: float
    commands: int
    repeat: int
    overload: bool = True

    def count(self, rate: int) -> int:
        return max(self.commands, math.ceil(rate * self.seconds))


async def settle(bot: BotProcess, least: float) -> None:
    """Wait ``least`` seconds, then until ``bot`` is quiet (:data:`QUIET_CPU`), so that no run
    is timed while the last one's backlog still drains (:data:`SETTLE_LIMIT` at most)."""
    await asyncio.sleep(least)
    waited = least
    while waited < SETTLE_LIMIT:
        before = bot.cpu_seconds()
        await asyncio.sleep(0.5)
        waited += 0.5
        if bot.cpu_seconds() - before < QUIET_CPU * 0.5:
            return


def median_served(rows: list[RateResult]) -> dict[tuple[str, int], float]:
    """The median rate served of each (phase, offered rate) group."""
    groups: dict[tuple[str, int], list[float]] = {}
    for row in rows:
        groups.setdefault((row.phase, row.rate), []).append(row.served_per_s)
    return {key: statistics.median(values) for key, values in groups.items()}


class MaximumSearch:
    """The saturating rates offered to find a target's served maximum: twice the plan's best
    rate served, doubled again while the target keeps up (:data:`SATURATE_STEPS` at most), then
    :data:`BISECT_STEPS` geometric middles between the highest rate kept up and the lowest
    not. The same for every target, so their maxima are found to the same precision."""

    def __init__(self, served: int) -> None:
        self.kept_up = served  # the highest rate kept up (the plan's best served, at first)
        self.not_kept_up: int | None = None  # the lowest rate not kept up
        self._doublings = 0
        self._bisections = 0

    def next_rate(self) -> int | None:
        """The next rate to offer; None when the maximum is found (or the steps are spent)."""
        if self.not_kept_up is None:
            if self._doublings >= SATURATE_STEPS:
                return None  # kept up at every rate offered: the maximum is at least this
            self._doublings += 1
            return max(1, 2 * self.kept_up)
        if self._bisections >= BISECT_STEPS:
            return None
        middle = round(math.sqrt(self.kept_up * self.not_kept_up))
        if not self.kept_up < middle < self.not_kept_up:
            return None  # the two are adjacent: nothing left between them
        self._bisections += 1
        return middle

    def record(self, offered: int, served: float) -> None:
        """What the target served when offered ``offered``."""
        if served >= KEPT_UP * offered:
            self.kept_up = max(self.kept_up, offered)
        elif self.not_kept_up is None or offered < self.not_kept_up:
            self.not_kept_up = offered


def served_maximum(rows: list[RateResult]) -> float:
    """The most a target served: the best median of any group offered at or past it."""
    return max(median_served(rows).values(), default=math.nan)


async def measure(
    label: str,
    fake: FakeDiscord,
    bot: BotProcess,
    mix: Mix,
    plan: Plan,
    *,
    judged: bool = True,
    turns: asyncio.Lock | None = None,
) -> list[RateResult]:
    """Every phase of one target: the plan's rates; then, unless ``plan.overload`` is off,
    the saturating rates (:data:`SATURATE`, :class:`MaximumSearch`: its served maximum);
    and when the goals judge the target (``judged``: Narrator, not a floor), half of that
    maximum (:data:`HALF`: the p99 goal's rate) and twice it (:data:`OVERLOAD`: nothing may
    pass 3 s). A floor has no admission control: offered twice its maximum it queued
    seconds of work and opened a connection per request in flight, thousands, which no goal
    reads (measured 2026-11-28: the stand-ins' process ran out of file descriptors, and
    Narrator's next run lost its callbacks).

    With ``turns`` (one lock shared by targets measured at once: :func:`measure_in_turns`), each
    run, with the wait for the target to be quiet after it, holds the lock: the targets'
    runs alternate, one at a time."""
    hold = turns if turns is not None else contextlib.nullcontext()
    async with hold:
        await run_rate(fake, bot, mix, plan.rates[0], plan.rates[0])  # warm-up: 1 s
    rows: list[RateResult] = []

    async def runs(rate: int, phase: str, after: float = 1.0) -> None:
        """``plan.repeat`` runs at ``rate``; the last one settles for ``after`` s at least."""
        for run in range(1, plan.repeat + 1):
            async with hold:
                row = await run_rate(fake, bot, mix, rate, plan.count(rate), run)
                row.phase = phase
                rows.append(row)
                print(
                    f"[{label}] {rate}/s ({phase}) run {run}: served {row.served_per_s:.0f}/s, "
                    f"p99 {row.p99_ms:,.0f} ms, CPU {row.cpu_ms:.2f} ms/cmd, "
                    f"busy {row.busy}, >3s {row.late}",
                    flush=True,
                )
                # the tracker edits, the WAL, a backlog past capacity
                await settle(bot, after if run == plan.repeat else 1.0)

    for rate in plan.rates:
        await runs(rate, RATE)
    if not plan.overload:
        return rows
    search = MaximumSearch(max(1, round(served_maximum(rows))))
    while (offered := search.next_rate()) is not None:
        await runs(offered, SATURATE, SETTLE_AFTER_OVERLOAD)
        search.record(offered, median_served(rows)[(SATURATE, offered)])
    last = rows[-1].rate  # the last saturating rate run
    best = served_maximum(rows)
    if not judged:
        return rows
    # Half before the 2x runs, whose backlog would still be draining into it.
    await runs(max(1, round(best / 2)), HALF)
    overload = max(1, round(2 * best))
    if abs(overload - last) > 0.1 * overload:  # else the last saturating runs were 2x already
        await runs(overload, OVERLOAD, SETTLE_AFTER_OVERLOAD)
    else:
        for row in rows:
            if row.phase == SATURATE and row.rate == last:
                row.phase = OVERLOAD
    return rows


@contextlib.asynccontextmanager
async def started_target(
    label: str,
    bot_for: Callable[[FakeDiscord], BotProcess],
    channels: int,
    priority: int | None = None,
    *,
    ready_timeout: float = 60,
) -> AsyncIterator[tuple[FakeDiscord, BotProcess, Mix]]:
    """One target behind a fresh stand-in, started and its channels set up; stopped (and its
    stand-in's strays reported) on the way out."""
    async with FakeDiscord(channels=channels, players=load_mix.players(channels)) as fake:
        bot = bot_for(fake)
        try:
            started = time.perf_counter()
            await bot.start(ready_timeout=ready_timeout)
            ready = time.perf_counter() - started
            if priority is not None:  # e.g. -10 (root): the bot as if it had the machine
                os.setpriority(os.PRIO_PROCESS, bot.pid, priority)
            # discord.py's on_ready (and the heap freeze) comes ~2 s after the last guild.
            await asyncio.sleep(2.5)
            mix = Mix(fake, bot)
            setup_start = time.perf_counter()
            await mix.setup(fake.table.channel_ids)
            print(
                f"[{label}] ready in {ready:.1f}s; mix: {mix.describe()}; setup of {channels} "
                f"channels took {time.perf_counter() - setup_start:.1f}s",
                flush=True,
            )
            yield fake, bot, mix
            if fake.unknown or fake.rejected:
                print(
                    f"[{label}] unknown routes: {len(fake.unknown)}; rejected: {fake.rejected[:3]}"
                )
            foreign = bot.foreign_contacts({fake.port, 5432})
            if foreign:
                print(f"[{label}] WARNING: contacted {foreign}")
        finally:
            await bot.stop()


async def measure_in_turns(
    label: str,
    targets: dict[str, Callable[[FakeDiscord], BotProcess]],
    plan: Plan,
    channels: int,
    priority: int | None = None,
    *,
    judged: Collection[str] = (),
    ready_timeout: float = 60,
) -> dict[str, list[RateResult]]:
    """Every target of ``targets`` (name: its process behind a stand-in) started at once,
    each behind its own stand-in, then :func:`measure`'d taking turns run by run (one FIFO
    lock: the waiting targets get it in order), so that a drift of the machine's speed weighs
    on all alike; each target's rows by name. ``judged``: the targets the goals judge, which
    also run at half and twice their maximum (:func:`measure`)."""
    async with contextlib.AsyncExitStack() as stack:
        ready = {
            name: await stack.enter_async_context(
                started_target(
                    f"{label} {name}", bot_for, channels, priority, ready_timeout=ready_timeout
                )
            )
            for name, bot_for in targets.items()
        }
        turns = asyncio.Lock()
        rows = await asyncio.gather(
            *(
                measure(f"{label} {name}", *ready[name], plan, judged=name in judged, turns=turns)
                for name in targets
            )
        )
    return dict(zip(targets, rows, strict=True))
