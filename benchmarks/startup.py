"""Start-up time of the real process on an empty and on a preloaded database, and its memory
per active channel.

Not a test: ``python -m benchmarks.startup`` from the project root (issue 31 item 3). For each
backend (SQLite, and PostgreSQL when it answers) it starts ``narrator run`` behind the Discord
stand-in (as ``tests/e2e`` and ``benchmarks.e2e_load`` do) at least three times on a database
migrated to head and empty, then on one filled with a server's years (``benchmarks._preload``:
a million rolls, 100,000 characters, 500 running encounters with posted trackers, the panels'
macros), and prints, min / median / max:

- **to READY**: from starting the process to the stand-in having sent READY and the guild
  (the bot identified: its database is migrated, its cogs loaded, its commands synced);
- **to first answer**: from starting the process to the callback of a ``/roll`` sent as soon
  as READY was.

Goal: both under 10 s on the preloaded database. Panels and trackers cost nothing at start-up
by design: their buttons are ``DynamicItem`` templates and one persistent view registered once
(``bot/cogs/macros/_panel.py``, ``bot/cogs/initiative/_tracker.py``), never a row read per
posted message, so the table shows whether the data's size reaches start-up at all.

Then, on the preloaded database, **memory per active channel**: the bot behind a stand-in with
``--rss-channels`` channels (default 1,000 and 3,000) plays in 1,000 channels, then in the
rest, a few commands each (a character, an encounter with three NPCs, a roll, a sheet read,
an initiative change); the resident set (RSS) and its peak after each step give the growth
per 1,000 active channels.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks import _mix as load_mix
from benchmarks._preload import preload
from benchmarks._timing import print_table
from bot.gateway import GENERIC_FAILURE
from bot.storage.migrate import upgrade_to_head
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.process import BotProcess

POSTGRES_ADMIN_URL = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
GOAL_SECONDS = 10.0
CHANNELS = 500  # the load run's server (Discord's limit per guild)
CONCURRENCY = 8


@dataclass
class Start:
    ready_s: float
    first_answer_s: float
    rss_mib: float


async def time_starts(fake: FakeDiscord, bot: BotProcess, starts: int) -> list[Start]:
    """Start and stop the bot ``starts`` times; time each to READY and to a first answer."""
    results = []
    for _ in range(starts):
        began = time.perf_counter()
        await bot.start(ready_timeout=120)
        ready = time.perf_counter() - began
        result = await fake.interact(
            "roll", channel=fake.channel(0), user=load_mix.ROLLER, expression="1d20", within=60
        )
        if result.callback_at is None or GENERIC_FAILURE in result.content:
            raise RuntimeError(f"no first answer: {result.callback}\n{bot.log_tail(20)}")
        results.append(Start(ready, result.callback_at - began, bot.rss_kib() / 1024))
        await bot.stop()
    return results


@dataclass
class Memory:
    active: int
    rss_mib: float
    peak_mib: float


async def memory_per_channel(
    workdir: Path, url: str, steps: Sequence[int], label: str
) -> list[Memory]:
    """RSS of the bot with no channel active, then after playing in each step's channels."""
    channels = max(steps)
    async with FakeDiscord(channels=channels, players=load_mix.players(channels)) as fake:
        bot = BotProcess(fake, url, workdir, name=f"memory-{label}")
        try:
            await bot.start(ready_timeout=120)
            await asyncio.sleep(2.5)  # on_ready (and its heap freeze) comes after the guild
            rows = [Memory(0, bot.rss_kib() / 1024, bot.peak_rss_kib() / 1024)]
            ids = fake.table.channel_ids
            done = 0
            for step in sorted(steps):
                await play(fake, bot, list(enumerate(ids))[done:step])
                done = step
                await asyncio.sleep(1.0)  # the tracker edits settle
                rows.append(Memory(step, bot.rss_kib() / 1024, bot.peak_rss_kib() / 1024))
                print(
                    f"[{label}] {step} channels active: RSS {rows[-1].rss_mib:.0f} MiB", flush=True
                )
            return rows
        finally:
            await bot.stop()


async def play(fake: FakeDiscord, bot: BotProcess, channels: list[tuple[int, int]]) -> None:
    """In each channel, the load mix's set-up (a character, an encounter with three NPCs),
    then one of each command of the mix."""
    semaphore = asyncio.Semaphore(CONCURRENCY)

    async def one(index: int, channel: int) -> None:
        player = f"player{index}"
        async with semaphore:
            for command, user, options in load_mix.setup_steps(index, player):
                await ok(command, channel, user, **options)
            await ok("roll", channel, load_mix.ROLLER, expression="4d6kh3 + 2", label="load")
            await ok("sheet show", channel, player)
            await ok("init next", channel, load_mix.GM)

    async def ok(command: str, channel: int, user: str, **options: Any) -> None:
        result = await fake.interact(command, channel=channel, user=user, within=60, **options)
        if result.callback_status != 200 or GENERIC_FAILURE in result.content:
            raise RuntimeError(f"/{command} failed: {result.callback}\n{bot.log_tail(20)}")

    await asyncio.gather(*(one(index, channel) for index, channel in channels))


@asynccontextmanager
async def database(backend: str, workdir: Path, name: str, admin: str) -> AsyncIterator[str]:
    """A new, empty database's URL: a SQLite file, or a PostgreSQL database dropped after."""
    if backend == "sqlite":
        yield f"sqlite+aiosqlite:///{workdir / f'{name}.db'}"
        return
    database_name = f"narrator_{name}_{uuid.uuid4().hex[:8]}"
    await postgres(admin, f'CREATE DATABASE "{database_name}"')
    try:
        yield admin.rsplit("/", 1)[0] + f"/{database_name}"
    finally:
        await postgres(admin, f'DROP DATABASE IF EXISTS "{database_name}" WITH (FORCE)')


async def postgres(admin_url: str, statement: str) -> None:
    import asyncpg  # only when PostgreSQL is benchmarked

    url = admin_url.replace("postgresql+asyncpg://", "postgresql://")
    connection = await asyncpg.connect(url, timeout=5)
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


def spread(values: list[float]) -> str:
    return " / ".join(f"{v:.2f}" for v in (min(values), statistics.median(values), max(values)))


async def bench_backend(
    backend: str, workdir: Path, args: argparse.Namespace
) -> tuple[dict[str, list[Start]], list[Memory], str]:
    """The starts on an empty and a preloaded database, then the memory run."""
    starts: dict[str, list[Start]] = {}
    memory: list[Memory] = []
    loaded = ""
    async with FakeDiscord(channels=CHANNELS, players=load_mix.players(CHANNELS)) as fake:
        for case in ("empty", "preloaded"):
            async with database(backend, workdir, f"startup_{case}", args.postgres) as url:
                if case == "empty":
                    await asyncio.to_thread(upgrade_to_head, url)
                else:
                    done = await preload(url, scale=args.scale, guild_id=fake.table.guild_id)
                    loaded = done.summary()
                    print(f"[{backend}] {loaded}", flush=True)
                bot = BotProcess(fake, url, workdir, name=f"startup-{backend}-{case}")
                starts[case] = await time_starts(fake, bot, args.starts)
                print(
                    f"[{backend}] {case}: to READY {spread([s.ready_s for s in starts[case]])} s",
                    flush=True,
                )
                if case == "preloaded" and args.rss_channels:
                    steps = [int(n) for n in args.rss_channels.split(",")]
                    memory = await memory_per_channel(workdir, url, steps, backend)
    return starts, memory, loaded


def print_report(
    backend: str, starts: dict[str, list[Start]], memory: list[Memory], loaded: str
) -> None:
    print(
        f"\n{backend}: {time.strftime('%Y-%m-%d')}, {os.cpu_count()} CPUs, load average "
        f"{os.getloadavg()[0]:.1f}; {loaded}"
    )
    print_table(
        ["database", "starts", "to READY s min/med/max", "to first answer s", "RSS MiB"],
        [
            (
                case,
                len(rows),
                spread([r.ready_s for r in rows]),
                spread([r.first_answer_s for r in rows]),
                spread([r.rss_mib for r in rows]),
            )
            for case, rows in starts.items()
        ],
    )
    worst = max(s.first_answer_s for s in starts["preloaded"])
    mark = "PASS" if worst < GOAL_SECONDS else "FAIL"
    print(f"  {mark}  preloaded start-up to first answer < {GOAL_SECONDS:g} s: worst {worst:.2f} s")
    if len(memory) >= 2:
        print()
        print_table(
            ["active channels", "RSS MiB", "peak RSS MiB"],
            [(m.active, m.rss_mib, m.peak_mib) for m in memory],
        )
        first, last = memory[1], memory[-1]
        if last.active > first.active:
            slope = (last.rss_mib - first.rss_mib) / (last.active - first.active) * 1000
            peak = (last.peak_mib - first.peak_mib) / (last.active - first.active) * 1000
            print(
                f"  per 1,000 active channels ({first.active:,} → {last.active:,}): "
                f"RSS +{slope:.1f} MiB, peak RSS +{peak:.1f} MiB; "
                f"the first {first.active:,} over idle: "
                f"+{first.rss_mib - memory[0].rss_mib:.1f} MiB"
            )


async def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=3, help="starts per database (>= 3)")
    parser.add_argument("--scale", type=float, default=1.0, help="of the preloaded data")
    parser.add_argument("--backends", default="sqlite,postgresql")
    parser.add_argument("--postgres", default=POSTGRES_ADMIN_URL, help="admin URL (a database)")
    parser.add_argument(
        "--rss-channels", default="1000,3000", help="active channels for memory ('' to skip)"
    )
    args = parser.parse_args(argv)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="narrator-startup-") as tmp:
        for backend in args.backends.split(","):
            if backend == "postgresql":
                try:
                    await postgres(args.postgres, "SELECT 1")
                except Exception as error:  # no server: report and go on
                    print(f"[postgresql] skipped: {error}")
                    continue
            starts, memory, loaded = await bench_backend(backend, Path(tmp), args)
            print_report(backend, starts, memory, loaded)
    print(f"\ntotal time {time.perf_counter() - started:.0f}s")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
