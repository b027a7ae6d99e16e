"""Load and latency of the real bot process (``narrator run``) through the Discord stand-in.

Not a test: ``python -m benchmarks.e2e_load`` from the project root. For SQLite and (when it
answers) PostgreSQL, it starts the bot against a fresh database, sets up 500 channels (a
character and an encounter in each, when those commands exist), then sends a mix of rolls,
sheet reads and initiative changes at rising open-loop rates. Per rate it prints the
throughput served, p50/p99/max from writing INTERACTION_CREATE on the gateway to receiving
the callback, errors, interactions past Discord's 3-second deadline and the bot's peak RSS.
Goal: p99 under 25 ms at 200 commands/s with SQLite.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from benchmarks import _mix as load_mix
from benchmarks._timing import print_table
from bot.tree import GENERIC_FAILURE
from tests.e2e.fake_discord import FakeDiscord, InteractionResult
from tests.e2e.process import BotProcess

POSTGRES_ADMIN_URL = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
SETUP_CONCURRENCY = 4


@dataclass
class RateResult:
    rate: int
    sent: int
    served_per_s: float
    p50_ms: float
    p99_ms: float
    max_ms: float
    cpu_ms: float
    errors: int
    late: int
    peak_rss_mib: float


def percentile(sorted_values: list[float], fraction: float) -> float:
    if not sorted_values:
        return math.nan
    index = max(0, math.ceil(fraction * len(sorted_values)) - 1)
    return sorted_values[index]


class Mix:
    """What to send: rolls always; sheet reads and initiative changes when they exist."""

    def __init__(self, fake: FakeDiscord, bot: BotProcess) -> None:
        self.fake = fake
        self.bot = bot
        self.sheets = fake.has_command("sheet create") and fake.has_command("sheet show")
        self.init = all(fake.has_command(c) for c in ("init start", "init add", "init next"))
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
                    if command.startswith("sheet") and not self.sheets:
                        continue
                    if command.startswith("init") and not self.init:
                        continue
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


def is_error(result: InteractionResult) -> bool:
    return result.callback_status != 200 or GENERIC_FAILURE in result.content


async def run_rate(
    fake: FakeDiscord, bot: BotProcess, mix: Mix, rate: int, seconds: float
) -> RateResult:
    channels = fake.table.channel_ids
    count = int(rate * seconds)
    results: list[InteractionResult] = []
    loop = asyncio.get_running_loop()
    cpu_before = bot.cpu_seconds()
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
    answered = [r for r in results if r.callback_at is not None]
    latencies = sorted(r.latency * 1000 for r in answered if r.latency is not None)
    last = max((r.callback_at for r in answered), default=time.perf_counter())
    first = min((r.sent_at or r.created_at for r in results), default=last)
    late_ids = {r.id for r in fake.late_callbacks}
    late = sum(1 for r in results if r.callback_status is None or r.id in late_ids)
    return RateResult(
        rate=rate,
        sent=count,
        served_per_s=len(answered) / max(last - first, 1e-9),
        p50_ms=percentile(latencies, 0.50),
        p99_ms=percentile(latencies, 0.99),
        max_ms=latencies[-1] if latencies else math.nan,
        cpu_ms=cpu * 1000 / max(len(answered), 1),
        errors=sum(
            1
            for r in results
            if r.callback_status is not None and r.id not in late_ids and is_error(r)
        ),
        late=late,
        peak_rss_mib=bot.peak_rss_kib() / 1024,
    )


async def bench_backend(
    label: str,
    database_url: str,
    workdir: Path,
    rates: list[int],
    seconds: float,
    channels: int,
    priority: int | None = None,
) -> list[RateResult]:
    async with FakeDiscord(channels=channels, players=load_mix.players(channels)) as fake:
        bot = BotProcess(fake, database_url, workdir, name=f"load-{label}")
        try:
            await bot.start(ready_timeout=60)
            if priority is not None:  # e.g. -10 (root): the bot as if it had the machine
                os.setpriority(os.PRIO_PROCESS, bot.pid, priority)
            # discord.py's on_ready (and our heap freeze) comes ~2 s after the last guild.
            await asyncio.sleep(2.5)
            mix = Mix(fake, bot)
            setup_start = time.perf_counter()
            await mix.setup(fake.table.channel_ids)
            print(
                f"[{label}] mix: {mix.describe()}; setup of {channels} channels took "
                f"{time.perf_counter() - setup_start:.1f}s",
                flush=True,
            )
            await run_rate(fake, bot, mix, rates[0], min(2.0, seconds))  # warm-up, not reported
            rows = []
            for rate in rates:
                rows.append(await run_rate(fake, bot, mix, rate, seconds))
                await asyncio.sleep(1.0)  # let the tracker edits and the WAL settle
            if fake.unknown or fake.rejected:
                print(
                    f"[{label}] unknown routes: {len(fake.unknown)}; rejected: {fake.rejected[:3]}"
                )
            foreign = bot.foreign_contacts({fake.port, 5432})
            if foreign:
                print(f"[{label}] WARNING: contacted {foreign}")
            return rows
        finally:
            await bot.stop()


async def _postgres(admin_url: str, statement: str) -> None:
    import asyncpg

    url = admin_url.replace("postgresql+asyncpg://", "postgresql://")
    connection = await asyncpg.connect(url, timeout=5)
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


async def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rates", default="50,100,200,400", help="commands/s, comma-separated")
    parser.add_argument("--seconds", type=float, default=6.0, help="duration of each rate")
    parser.add_argument("--channels", type=int, default=500)
    parser.add_argument("--backends", default="sqlite,postgresql")
    parser.add_argument("--postgres", default=POSTGRES_ADMIN_URL, help="admin URL (a database)")
    parser.add_argument(
        "--priority", type=int, help="nice value for the bot process (negative needs root)"
    )
    args = parser.parse_args(argv)
    rates = [int(r) for r in args.rates.split(",")]
    headers = [
        "rate/s",
        "sent",
        "served/s",
        "p50 ms",
        "p99 ms",
        "max ms",
        "CPU ms/cmd",
        "errors",
        ">3s",
        "peak RSS MiB",
    ]

    with tempfile.TemporaryDirectory(prefix="narrator-load-") as tmp:
        workdir = Path(tmp)
        for backend in args.backends.split(","):
            if backend == "sqlite":
                url = f"sqlite+aiosqlite:///{workdir / 'load.db'}"
                rows = await bench_backend(
                    "sqlite", url, workdir, rates, args.seconds, args.channels, args.priority
                )
            else:
                name = f"narrator_load_{uuid.uuid4().hex[:10]}"
                try:
                    await _postgres(args.postgres, f'CREATE DATABASE "{name}"')
                except Exception as error:  # no server: report and go on
                    print(f"[postgresql] skipped: {error}")
                    continue
                url = args.postgres.rsplit("/", 1)[0] + f"/{name}"
                try:
                    rows = await bench_backend(
                        "postgresql",
                        url,
                        workdir,
                        rates,
                        args.seconds,
                        args.channels,
                        args.priority,
                    )
                finally:
                    await _postgres(args.postgres, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            niced = "" if args.priority is None else f", bot at nice {args.priority}"
            print(f"\n{backend}: {args.channels} channels, {args.seconds:g}s per rate{niced}")
            print_table(
                headers,
                [
                    (
                        r.rate,
                        r.sent,
                        r.served_per_s,
                        r.p50_ms,
                        r.p99_ms,
                        r.max_ms,
                        r.cpu_ms,
                        r.errors,
                        r.late,
                        r.peak_rss_mib,
                    )
                    for r in rows
                ],
            )
            print(flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
