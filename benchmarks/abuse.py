"""What hostile input costs, and whether other players notice (docs/decisions/fair-use.md).

Not a test: ``python -m benchmarks.abuse`` from the project root. Two parts:

1. **Cost of each hostile input** in this process: CPU time (``time.thread_time``) of the
   engine work a command does before answering: parsing, the budget check and the roll
   for ``/roll``; building pools and exact odds for Drama and RPS. Min / median / max of
   several runs. Then a random search over the whole d20 grammar prints the slowest
   expression the budget *accepted*. Goal: every accepted roll ≤ 5 ms.
2. **/dice stats on a 5,000-roll × 250-face log**: the event loop's longest stall while it
   runs, counted the old way (every face read and counted on the loop) and from the tallies
   the database adds up, against a quiet loop in the same run.
3. **A concurrent cheap roll's latency** through the real process (``narrator run`` against
   the Discord stand-in): one user floods a channel with every hostile input (and a burst of
   300 ``/roll 1000d1000kh1``) while other users in other channels roll ``1d20`` every 50 ms.
   Prints their p50 / p99 / max latency, with and without the flood. Goal: p99 ≤ 20 ms.

4. **Odds and stats flood**: five users each send ``/odds drama`` with big pools, ``/odds
   h90`` and ``/dice stats`` on their channel's 5,000-roll × 250-face log (a chart each) as
   fast as their rate limit lets them (a burst of 10, then 2 a second). In this process: the
   event loop's longest stall while the five floods run through the services and the worker
   pool, against a quiet loop. Through the real process: bystanders' ``/roll 1d20`` p50 /
   max, quiet and during the flood. Then one line per goal of issue 28, PASS or FAIL, judged
   against the quiet baseline of the same run: no stall over 5 ms, bystander max ≤ 150 ms,
   bystander p50 ≤ 2 × quiet.

Figures from a loaded, shared machine are noisy: compare the quiet and flooded runs.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import random
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from benchmarks._timing import print_table
from engine.dice import SeededDice
from engine.notation import RollError, read, roll_expression
from engine.systems import drama, rps

HOSTILE_ROLLS = [
    "1000d1000kh999kh999kh999kh999kh999kh999",  # the 28 s expression, shortened
    "1000d1000kh1",
    "250d1000" + "k>1" * 60,
    "250d1000kh249",
    "1d1000e>1",
    "200d2e2",
    "250d2rr1",
    "(" + ",".join(["9d1000"] * 25) + ")kh1kl1kh1kl1",
    "1" + "+1" * 140,
    "(" * 140 + "1" + ")" * 140,
    "250d1000",  # the largest plain roll accepted
    "1d20+5 adv",
]


def _drama_odds_11() -> None:
    pools = [drama.given_pools(60, resistance=60, drama=60)] * 11
    drama.together_chances(pools=pools, criticals=True)


def _drama_opposed() -> None:
    a = drama.given_pools(60, resistance=60, drama=60)
    b = drama.given_pools(59, resistance=60, drama=60, penalty=200)
    drama.opposed_chances(a=a, b=b, criticals=True)


def _rps_resisted() -> None:
    parties = [(f"P{i}", 11 + 3 * i) for i in range(rps.MAX_CHANCE_PARTIES)]
    rps.resisted_chances(parties=parties)


# Run in a worker process by the bot (bot/services/offload.py, bot/workers), not on its loop.
OFFLOADED: list[tuple[str, Callable[[], object]]] = [
    ("drama: 11 × (60 Bd, 60 Rd, 60 Dd) together, criticals", _drama_odds_11),
    ("drama: opposed 60/60/60 vs 59/260/60, criticals", _drama_opposed),
    (f"rps: resisted, {rps.MAX_CHANCE_PARTIES} parties", _rps_resisted),
]


def _cost_ms(work: Callable[[], object], runs: int, clear: Callable[[], None]) -> list[float]:
    spent = []
    for _ in range(runs):
        clear()
        started = time.thread_time()
        with contextlib.suppress(RollError):
            work()
        spent.append((time.thread_time() - started) * 1000)
    return spent


def _roll_once(expression: str) -> Callable[[], object]:
    def roll() -> object:
        result = roll_expression(SeededDice(1), expression)
        return result.breakdown  # a /roll shows it: part of the cost

    return roll


def costs(runs: int) -> None:
    rows = []
    for expression in HOSTILE_ROLLS:
        spent = _cost_ms(_roll_once(expression), runs, read.cache_clear)
        try:
            read(expression)
            verdict = "rolled"
        except RollError as error:
            verdict = "refused: " + str(error)[:50]
        rows.append((f"/roll {expression[:44]}", *_spread(spent), verdict))
    for name, work in OFFLOADED:
        spent = _cost_ms(work, max(1, runs // 3), drama.clear_caches)
        rows.append((name, *_spread(spent), "worker process"))
    print("\nCPU cost of each hostile input (ms; parse + budget + roll + breakdown)")
    print_table(["input", "min", "median", "max", "verdict"], rows)


def _spread(values: list[float]) -> tuple[float, float, float]:
    return min(values), statistics.median(values), max(values)


def _random_expression(rng: random.Random, depth: int = 0) -> str:
    """An expression from the whole grammar: dice with operators, sets, nesting, arithmetic."""
    roll = rng.random()
    if depth > 2 or roll < 0.45:
        dice = f"{rng.choice([1, 2, 5, 20, 60, 120, 250])}d{rng.choice([2, 6, 20, 100, 1000])}"
        for _ in range(rng.choice([0, 1, 2, 4, 8])):
            op = rng.choice(["k", "p", "rr", "ro", "ra", "e", "mi", "ma"])
            cat = rng.choice(["", "h", "l", "<", ">"])
            dice += f"{op}{cat}{rng.randint(1, 20)}"
        return dice
    if roll < 0.65:
        items = ", ".join(_random_expression(rng, depth + 1) for _ in range(rng.randint(1, 8)))
        ops = "".join(f"k{rng.choice('hl')}{rng.randint(1, 5)}" for _ in range(rng.randint(0, 4)))
        return f"({items}){ops}"
    if roll < 0.8:
        return f"({_random_expression(rng, depth + 1)})"
    op = rng.choice("+-*/")
    return f"{_random_expression(rng, depth + 1)} {op} {_random_expression(rng, depth + 1)}"


def search(count: int, seed: int) -> None:
    rng = random.Random(seed)
    slowest: list[tuple[float, str]] = []
    refused = 0
    for _ in range(count):
        expression = _random_expression(rng)[:300]
        spent = _cost_ms(_roll_once(expression), 1, read.cache_clear)[0]
        try:
            read(expression)
        except RollError:
            refused += 1
            continue
        slowest.append((spent, expression))
    slowest.sort(reverse=True)
    print(f"\nRandom search: {count} expressions, {refused} refused; slowest accepted:")
    for spent, expression in slowest[:5]:
        again = _cost_ms(_roll_once(expression), 5, read.cache_clear)
        print(
            f"  {spent:6.2f} ms (re-run min {min(again):.2f}, median "
            f"{statistics.median(again):.2f})  {expression[:90]}"
        )


# --- through the real process ---------------------------------------------------------------


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)] if ordered else math.nan


async def _cheap_rolls(fake, users: list[str], channels: list[int], seconds: float) -> list[float]:
    from tests.e2e.fake_discord import InteractionResult

    sent: list[InteractionResult] = []
    deadline = time.perf_counter() + seconds
    index = 0
    while time.perf_counter() < deadline:
        payload = fake.command_payload(
            "roll",
            channel=channels[index % len(channels)],
            user=users[index % len(users)],
            expression="1d20",
        )
        sent.append(fake.send(payload, "roll"))
        index += 1
        await asyncio.sleep(0.05)
    await asyncio.gather(*(r.wait(10) for r in sent), return_exceptions=True)
    _UNANSWERED[0] += sum(1 for r in sent if r.latency is None or r.ephemeral)
    return [r.latency * 1000 for r in sent if r.latency is not None and not r.ephemeral]


#: Bystanders' rolls not answered with a roll (refused as "very busy", or no answer): kept
#: out of the latencies, so they are counted and printed beside them.
_UNANSWERED = [0]


async def _flood(fake, channel: int) -> tuple[int, int]:
    sent = []
    for expression in [*HOSTILE_ROLLS, *["1000d1000kh1"] * 300]:
        payload = fake.command_payload(
            "roll", channel=channel, user="flooder", expression=expression
        )
        sent.append(fake.send(payload, "roll"))
        await asyncio.sleep(0.002)
    await asyncio.gather(*(r.wait(5) for r in sent), return_exceptions=True)
    answered = [r for r in sent if r.callback is not None]
    told = sum(1 for r in answered if "Slow down" in r.content)
    return told, len(sent) - len(answered)


async def through_the_process(seconds: float) -> None:
    from tests.e2e.fake_discord import FakeDiscord
    from tests.e2e.process import BotProcess

    users = [f"player{i}" for i in range(20)]
    with tempfile.TemporaryDirectory() as directory:
        workdir = Path(directory)
        url = f"sqlite+aiosqlite:///{workdir / 'abuse.db'}"
        async with FakeDiscord(channels=12, players=("flooder", *users)) as fake:
            bot = BotProcess(fake, url, workdir, name="abuse", rate_limits=True)
            try:
                await bot.start(ready_timeout=60)
                await asyncio.sleep(2.5)  # on_ready and the heap freeze
                channels = fake.table.channel_ids[2:]
                await _cheap_rolls(fake, users, channels, 1.0)  # warm-up
                quiet = await _cheap_rolls(fake, users, channels, seconds)
                flood = asyncio.ensure_future(_flood(fake, fake.table.channel_ids[0]))
                flooded = await _cheap_rolls(fake, users, channels, seconds)
                told, ignored = await flood
            finally:
                await bot.stop()
    rows = [
        ("quiet", len(quiet), *(_percentile(quiet, f) for f in (0.5, 0.99, 1.0))),
        ("during the flood", len(flooded), *(_percentile(flooded, f) for f in (0.5, 0.99, 1.0))),
    ]
    print(
        f"\nCheap /roll 1d20 by 20 other users in 10 other channels, every 50 ms (ms); the "
        f"flood: {len(HOSTILE_ROLLS)} hostile rolls + 300 × 1000d1000kh1 by one user: "
        f"{told} told to slow down, {ignored} past the limit left unanswered"
    )
    print_table(["", "rolls", "p50", "p99", "max"], rows)


# --- /dice stats on a long log -------------------------------------------------------------

STATS_ROLLS = 5000
STATS_FACES = 250


async def _stall_while(
    work: Callable[[], object] | None, seconds: float
) -> tuple[float, float, float]:
    """The event loop's longest stall and the total time lost (ms) while ``work`` runs (or,
    without work, for ``seconds``): a probe asks for a 1 ms sleep and measures the overshoot."""
    stalls: list[float] = []
    done = asyncio.Event()

    async def probe() -> None:
        while not done.is_set():
            asked = time.perf_counter()
            await asyncio.sleep(0.001)
            stalls.append(max(0.0, time.perf_counter() - asked - 0.001) * 1000)

    task = asyncio.ensure_future(probe())
    await asyncio.sleep(0.05)
    stalls.clear()
    started = time.perf_counter()
    if work is None:
        await asyncio.sleep(seconds)
    else:
        await work()  # type: ignore[misc]
    wall = (time.perf_counter() - started) * 1000
    done.set()
    await task
    return max(stalls), sum(stalls), wall


async def _count_the_old_way(db, actor) -> None:
    """``/dice stats`` before the tallies: every entry's faces read and counted on the loop."""
    from sqlalchemy import select

    from bot.storage.models import RollLog
    from bot.storage.roll_tally import SYSTEMS, tally

    query = (
        select(RollLog.system, RollLog.input, RollLog.faces)
        .where(
            RollLog.channel_id == actor.channel_id,
            RollLog.system.in_(SYSTEMS),
            RollLog.secret.is_(False),
        )
        .order_by(RollLog.id.desc())
        .limit(STATS_ROLLS)
    )
    async with db.unit_of_work(read_only=True) as session:
        rows = list(await session.execute(query))
    counts: dict[int, list[int]] = {}
    for row in rows:
        counted = tally(row.system, row.input, row.faces)
        if counted is not None:
            sides, faces = counted
            per_face = counts.setdefault(sides, [0] * sides)
            for face, count in faces.items():
                per_face[int(face) - 1] += count


async def stats_stall(url: str | None, runs: int) -> None:
    from bot.actor import Actor
    from bot.services import dice_stats
    from bot.storage import Database
    from bot.storage.migrate import upgrade_to_head
    from bot.storage.repositories import rolls

    rng = random.Random(5)
    with tempfile.TemporaryDirectory() as directory:
        url = url or f"sqlite+aiosqlite:///{Path(directory) / 'stats.db'}"
        await asyncio.to_thread(upgrade_to_head, url)
        db = Database(url)
        try:
            actor = Actor(user_id=1, channel_id=777_000 + rng.randrange(10**6), guild_id=1)
            for start in range(0, STATS_ROLLS, 500):
                async with db.unit_of_work() as session:
                    for _ in range(start, start + 500):
                        faces = [rng.randint(1, 6) for _ in range(STATS_FACES)]
                        rolls.add(
                            session, actor, system="dice", input="250d6", faces=faces, outcome=""
                        )
            rows = [("quiet loop, 1 s", *await _stall_while(None, 1.0))]
            for name, work in (
                ("before: faces counted on the loop", lambda: _count_the_old_way(db, actor)),
                ("after: tallies added up in SQL", lambda: dice_stats.stats(db, actor)),
            ):
                measured = [await _stall_while(work, 0) for _ in range(runs)]
                worst = max(m[0] for m in measured)
                lost = statistics.median(m[1] for m in measured)
                rows.append((name, worst, lost, statistics.median(m[2] for m in measured)))
        finally:
            await db.dispose()
    print(
        f"\n/dice stats on a {STATS_ROLLS:,}-roll × {STATS_FACES}-face log "
        f"({url.split(':')[0]}): event-loop stall (ms), worst of {runs} runs"
    )
    print_table(["", "longest stall", "stalls summed (median)", "command (median)"], rows)


# --- five users flooding /odds drama and charts ---------------------------------------------

FLOODERS = 5
#: Each flooder's requests: a burst of 10, then 2 a second (the default per-user rate limit).
FLOOD_BURST, FLOOD_PER_SECOND = 10, 2.0


def _flood_schedule(seconds: float) -> list[float]:
    """When one flooder sends each request: as fast as the default rate limit allows."""
    times = [0.0] * FLOOD_BURST
    at = 0.0
    while at < seconds:
        at += 1 / FLOOD_PER_SECOND
        times.append(at)
    return times


def _flood_options(user: int, index: int) -> tuple[str, dict[str, int]]:
    """In turn: an /odds drama big enough for a worker (never twice the same, so no cache
    answers), an /odds h90 (its chart is the work) and a /dice stats of the user's channel
    (its 5,000-roll log added up by the database, and a chart)."""
    if index % 3 == 0:
        return "odds drama", {
            "base": 60,
            "resistance": 40 + (user * 7 + index) % 20,
            "drama_dice": 40 + index % 20,
        }
    if index % 3 == 1:
        return "odds h90", {"bonus": (user + index) % 10, "difficulty": 5 + index % 25}
    return "dice stats", {}


async def _fill_logs(url: str, channels: list[int], guild: int) -> None:
    """:data:`STATS_ROLLS` public rolls of :data:`STATS_FACES` d6 in each channel (migrated
    first): what every flooder's ``/dice stats`` adds up."""
    from bot.actor import Actor
    from bot.storage import Database
    from bot.storage.migrate import upgrade_to_head
    from bot.storage.repositories import rolls

    rng = random.Random(5)
    await asyncio.to_thread(upgrade_to_head, url)
    db = Database(url)
    try:
        for channel in channels:
            actor = Actor(user_id=1, channel_id=channel, guild_id=guild)
            for start in range(0, STATS_ROLLS, 500):
                async with db.unit_of_work() as session:
                    for _ in range(start, start + 500):
                        faces = [rng.randint(1, 6) for _ in range(STATS_FACES)]
                        rolls.add(
                            session, actor, system="dice", input="250d6", faces=faces, outcome=""
                        )
    finally:
        await db.dispose()


class _Threads:
    """The pool's ``run`` as it was before worker processes: the work in a thread."""

    size = 0

    async def run(self, work, kwargs, **_ignored):  # type: ignore[no-untyped-def]
        return await asyncio.to_thread(work, **kwargs)


async def _flood_in_process(seconds: float, url: str) -> tuple[float, float, float, float, float]:
    """The five floods through the services and the pool, in this event loop; with the
    stall figures, the CPU the loop's own thread spent and its longest step's (ms)."""
    from bot import workers
    from bot.actor import Actor
    from bot.render.charts import Chart, draw
    from bot.render.dice_stats import stats_chart
    from bot.render.odds import odds_chart
    from bot.services import dice_stats, odds
    from bot.storage import Database

    db = Database(url)

    async def one(user: int, index: int) -> None:
        actor = Actor(user_id=user, channel_id=100 + user, guild_id=1)
        command, options = _flood_options(user, index)
        chart: Chart | None
        try:
            if command == "odds drama":
                chart = odds_chart(await odds.drama_odds(actor, **options))
            elif command == "odds h90":
                chart = odds_chart(await odds.h90_odds(actor, **options))
            else:
                chart = stats_chart(await dice_stats.stats(db, actor), f"#{actor.channel_id}")
            if chart is not None:
                await workers.run(
                    draw,
                    {"chart": chart},
                    budget=10,
                    user=user,
                    channel=actor.channel_id,
                    cache=True,
                )
        except Exception:  # refused (busy) or too heavy: what the user is told, not work
            pass

    async def flooder(user: int) -> None:
        # Each request sent at its time, as a user would (not all 130 tasks made at once).
        started, sent = time.perf_counter(), []
        for index, at in enumerate(_flood_schedule(seconds)):
            await asyncio.sleep(max(0.0, started + at - time.perf_counter()))
            sent.append(asyncio.ensure_future(one(user, index)))
        await asyncio.gather(*sent)

    async def flood() -> None:
        await asyncio.gather(*(flooder(user) for user in range(1, FLOODERS + 1)))

    try:
        # The process's first ORM query configures the mappers (~15 ms, once; the bot does
        # it with its first command): not part of the flood.
        await dice_stats.stats(db, Actor(user_id=0, channel_id=100, guild_id=1))
        cpu = time.thread_time()
        with _longest_step() as longest:
            stalls = await _stall_while(flood, 0)
        return (*stalls, (time.thread_time() - cpu) * 1000, longest[0])
    finally:
        await db.dispose()


@contextlib.contextmanager
def _longest_step() -> Iterator[list[float]]:
    """The most CPU (ms) the loop's thread spent in one callback meanwhile: what a command
    itself holds the loop for, whatever else the machine runs (a stall measured by the clock
    also counts the time the OS gave other processes). Diagnosis only: it wraps asyncio's
    ``Handle._run``."""
    longest = [0.0]
    original = asyncio.events.Handle._run

    def run(handle: asyncio.events.Handle) -> None:
        started = time.thread_time()
        original(handle)
        longest[0] = max(longest[0], (time.thread_time() - started) * 1000)

    asyncio.events.Handle._run = run  # type: ignore[method-assign,assignment]
    try:
        yield longest
    finally:
        asyncio.events.Handle._run = original  # type: ignore[method-assign]


async def odds_flood(seconds: float, process: bool) -> None:
    from bot import workers
    from bot.i18n import use_language

    with use_language("en"), tempfile.TemporaryDirectory() as directory:
        url = f"sqlite+aiosqlite:///{Path(directory) / 'flood.db'}"
        await _fill_logs(url, [100 + user for user in range(1, FLOODERS + 1)], guild=1)
        await workers.run(drama.chance, {"base": 1}, budget=60)  # a worker started: not measured
        cpu = time.thread_time()
        with _longest_step() as quiet_step:
            quiet = await _stall_while(None, seconds)
        rows = [("quiet loop", *quiet, (time.thread_time() - cpu) * 1000, quiet_step[0])]
        flooded = await _flood_in_process(seconds, url)
        rows.append((f"flood, {workers.shared().size} worker process(es)", *flooded))
        await workers.shutdown()
        drama.clear_caches()
        processes = workers.install(_Threads())  # type: ignore[arg-type]
        try:
            rows.append(("flood, threads (before)", *await _flood_in_process(seconds, url)))
        finally:
            workers.install(processes)
    print(
        f"\nOdds and stats flood in this process: {FLOODERS} users × (/odds drama, /odds h90 "
        f"or /dice stats on {STATS_ROLLS:,} rolls, + chart) at a burst of {FLOOD_BURST} then "
        f"{FLOOD_PER_SECOND:g}/s for {seconds:g} s: the event loop's stalls and its thread's "
        "CPU (ms)"
    )
    print_table(
        ["", "longest stall", "stalls summed", "wall", "loop thread CPU", "longest step CPU"],
        rows,
    )
    goals = [
        _goal("no command holds the loop > 5 ms (longest step's CPU)", flooded[4], 5.0, rows[0][5]),
        _goal(
            "no stall > 5 ms by the clock (counts the machine's load)", flooded[0], 5.0, quiet[0]
        ),
    ]
    if process:
        (quiet_p50, quiet_max), (flood_p50, flood_max) = await _odds_flood_through_the_process(
            seconds
        )
        goals += [
            _goal("bystander max ≤ 150 ms", flood_max, 150.0, quiet_max),
            _goal("bystander p50 ≤ 2 × quiet p50", flood_p50, 2 * quiet_p50, quiet_p50),
        ]
    print("\nIssue 28's goals, against the quiet baseline of this run:")
    for line in goals:
        print("  " + line)


def _goal(name: str, flooded: float, limit: float, quiet: float) -> str:
    verdict = "PASS" if flooded <= limit else "FAIL"
    return f"{verdict}  {name}: {flooded:.2f} ms flooded (limit {limit:.2f}; quiet {quiet:.2f})"


async def _flood_users(fake, channel_ids: list[int], seconds: float) -> int:
    sent = []
    started = time.perf_counter()
    requests = sorted(
        (at, user, index)
        for user in range(1, FLOODERS + 1)
        for index, at in enumerate(_flood_schedule(seconds))
    )
    for at, user, index in requests:
        await asyncio.sleep(max(0.0, started + at - time.perf_counter()))
        command, options = _flood_options(user, index)
        payload = fake.command_payload(
            command, channel=channel_ids[user - 1], user=f"flooder{user}", **options
        )
        sent.append(fake.send(payload, command.split()[0]))
    await asyncio.gather(*(r.wait(30) for r in sent), return_exceptions=True)
    return len(sent)


async def _odds_flood_through_the_process(
    seconds: float,
) -> tuple[tuple[float, float], tuple[float, float]]:
    """Bystanders' p50 and max (ms), quiet and during the flood, through ``narrator run``."""
    from tests.e2e.fake_discord import FakeDiscord
    from tests.e2e.process import BotProcess

    users = [f"player{i}" for i in range(10)]
    flooders = [f"flooder{i}" for i in range(1, FLOODERS + 1)]
    with tempfile.TemporaryDirectory() as directory:
        workdir = Path(directory)
        url = f"sqlite+aiosqlite:///{workdir / 'flood.db'}"
        async with FakeDiscord(channels=12, players=(*flooders, *users)) as fake:
            channels = fake.table.channel_ids
            await _fill_logs(url, channels[1 : FLOODERS + 1], guild=fake.table.guild_id)
            bot = BotProcess(fake, url, workdir, name="flood", rate_limits=True)
            try:
                await bot.start(ready_timeout=60)
                await asyncio.sleep(2.5)
                bystanders = channels[FLOODERS + 1 :]
                await _cheap_rolls(fake, users, bystanders, 1.0)  # warm-up
                _UNANSWERED[0] = 0
                quiet = await _cheap_rolls(fake, users, bystanders, seconds)
                unanswered_quiet, _UNANSWERED[0] = _UNANSWERED[0], 0
                flood = asyncio.ensure_future(_flood_users(fake, channels[1:], seconds))
                flooded = await _cheap_rolls(fake, users, bystanders, seconds)
                unanswered_flood = _UNANSWERED[0]
                sent = await flood
            finally:
                await bot.stop()
    rows = [
        (name, len(v), unanswered, *(_percentile(v, f) for f in (0.5, 0.99, 1.0)))
        for name, v, unanswered in (
            ("quiet", quiet, unanswered_quiet),
            ("during the flood", flooded, unanswered_flood),
        )
    ]
    print(
        f"\nBystanders' /roll 1d20 every 50 ms through the real process (ms), while "
        f"{FLOODERS} users send {sent} /odds drama, /odds h90 and /dice stats on "
        f"{STATS_ROLLS:,}-roll logs (with charts) in all"
    )
    print_table(["", "rolls", "not answered", "p50", "p99", "max"], rows)
    return (
        (_percentile(quiet, 0.5), _percentile(quiet, 1.0)),
        (_percentile(flooded, 0.5), _percentile(flooded, 1.0)),
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--search", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--no-process", action="store_true", help="skip part 2")
    parser.add_argument(
        "--stats-only", action="store_true", help="only /dice stats on a 5,000-roll log"
    )
    parser.add_argument("--stats-url", help="database for it (default: a new SQLite file)")
    parser.add_argument(
        "--odds-flood-only",
        action="store_true",
        help="only the odds and stats flood (part 4), with the goals' PASS/FAIL lines",
    )
    args = parser.parse_args(argv)
    if args.odds_flood_only:
        asyncio.run(odds_flood(args.seconds, not args.no_process))
        return 0
    asyncio.run(stats_stall(args.stats_url, max(3, args.runs // 3)))
    if args.stats_only:
        return 0
    costs(args.runs)
    search(args.search, seed=12)
    if not args.no_process:
        asyncio.run(through_the_process(args.seconds))
    asyncio.run(odds_flood(args.seconds, not args.no_process))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
