"""Load and latency of the real bot process (``narrator run``) through the Discord stand-in,
against two floors measured in the same run.

Not a test: ``python -m benchmarks.e2e_load`` from the project root. For SQLite and (when it
answers) PostgreSQL, three targets run at once, each behind a fresh stand-in and the same
open-loop load generator, and take turns run by run (so a drift of the machine's speed weighs
on all three alike):

- **narrator**: ``narrator run`` against a fresh database, with 500 channels set up (a
  player's character and the GM's encounter in each);
- **bare floor**: ``benchmarks/_floor_bot.py``, a minimal discord.py bot with no Narrator code
  and no database answering the same commands with canned embeds (and the tracker edit);
- **storage floor**: the same bot writing one row per command (aiosqlite with Narrator's
  WAL and ``synchronous=FULL``, or asyncpg), committed before the answer.

Each target is sent the mix of rolls, sheet reads and initiative changes
(``benchmarks/_mix.py``) at each of the plan's rates, ``--repeat`` times; then at rates
past them, doubled while it keeps up and then narrowed between the last kept up and the first
not (``_load_run.MaximumSearch``: its served maximum, within 9%); Narrator alone, whose goals
these are, at half of that maximum (the p99 goal), and at twice the maximum (nothing may pass
3 s). Per run: the rate
served, p50/p99/max from writing INTERACTION_CREATE on the gateway to the first response, the
bot's CPU per command and this process's (load generator + stand-in), errors, "very busy"
answers, interactions past Discord's 3-second deadline, the bot's peak RSS. Then the spread
of each rate's runs, Narrator beside the floors with the ratios, and issue 31's goals, PASS or FAIL
(``benchmarks/_load_report.py``; docs/performance.md).

With ``--preload`` (``--preload-only``: nothing else), Narrator also runs on two more
databases, both running at once behind their own stand-ins: an empty one and one filled first
with a server's years (``benchmarks/_preload.py``: a million rolls, 100,000 characters, 500
running encounters of 1,000 events, the panels' macros; ``--preload-scale`` to shrink it). The
plan's rates go to each in turn, run by run, so a shared machine's moving load weighs on both
alike; then the bot is started three times on the preloaded one. Their CPU per command and p99
side by side with the ratios, "within 1.2x" and the start-up goal (< 10 s to a first answer) as
PASS or FAIL (``benchmarks/_flat_cost.py``).

The stand-in keeps every interaction and message it saw, so its heap grows run after run, and
a full collection of that heap paused this process for 110-315 ms (measured on 2026-11-23): the
callbacks that arrived meanwhile were timed late, and that pause, not the bot, was the p99.
So this process's automatic collection is off while a run sends and waits
(``_load_run.without_collection``), and its garbage is collected and frozen between runs.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

from benchmarks._flat_cost import Preloader, interleaved, print_flat_cost, startup_on
from benchmarks._load_report import (
    BARE,
    NARRATOR,
    STORAGE,
    print_comparison,
    print_goals,
    print_runs,
    print_spread,
)
from benchmarks._load_run import (
    Plan,
    RateResult,
    floor_process,
    measure_in_turns,
    raise_open_files_limit,
)
from benchmarks.startup import database
from bot.storage.migrate import upgrade_to_head
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.process import BotProcess

POSTGRES_ADMIN_URL = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"

#: Fills a database before ``narrator run`` starts on it: called with its URL (e.g. the
#: preload of a server's years, so the same comparison runs on a full database). The database
#: is empty then, not even migrated: ``Database(url).upgrade_async()`` first.
Prepare = Callable[[str], Awaitable[None]]


async def bench_backend(
    label: str,
    database_url: str,
    workdir: Path,
    plan: Plan,
    channels: int,
    priority: int | None = None,
    *,
    prepare: Prepare | None = None,
    floors: bool = True,
) -> dict[str, list[RateResult]]:
    """Narrator on ``database_url`` (after ``prepare`` filled it, when given) and (with
    ``floors``) the bare floor and the storage floor on the same kind of database; each
    target's rows by name (:data:`NARRATOR`, :data:`BARE`, :data:`STORAGE`).

    The targets run at once, each behind its own stand-in, and take turns run by run
    (``_load_run.measure_in_turns``), each run followed by the wait for its target to
    be quiet: a drift of the machine's speed over the minutes of a backend's runs then
    weighs on all three alike. Run one after the other, Narrator's search of its maximum came
    ~8 minutes before the floors', and the ratio of the same code read 39-54% as the VM's
    speed moved by a fifth within a session (measured 2026-11-28)."""
    if prepare is not None:
        await prepare(database_url)
    targets: dict[str, Callable[[FakeDiscord], BotProcess]] = {
        NARRATOR: lambda fake: BotProcess(fake, database_url, workdir, name=f"load-{label}")
    }
    if floors:
        targets[BARE] = lambda fake: floor_process(fake, workdir, f"floor-bare-{label}", "none")
        targets[STORAGE] = lambda fake: floor_process(
            fake, workdir, f"floor-storage-{label}", floor_storage(database_url, workdir)
        )
    return await measure_in_turns(label, targets, plan, channels, priority, judged={NARRATOR})


async def compare_preloaded(
    backend: str, workdir: Path, plan: Plan, args: argparse.Namespace
) -> None:
    """``--preload``: Narrator on an empty and on a preloaded database, the plan's rates sent
    to each in turn (``_flat_cost.interleaved``), then three starts on the preloaded one."""
    preloader = Preloader(args.preload_scale)
    async with (
        database(backend, workdir, "flat_empty", args.postgres) as empty,
        database(backend, workdir, "flat_preloaded", args.postgres) as preloaded,
    ):
        await asyncio.to_thread(upgrade_to_head, empty)
        await preloader(preloaded)
        urls = {"empty": empty, "preloaded": preloaded}
        rows = await interleaved(backend, urls, workdir, plan, args.channels)
        starts = await startup_on(preloaded, workdir, f"{backend}-preloaded", args.channels)
    for case, case_rows in rows.items():
        print(f"\n{backend} narrator, {case} database (runs interleaved):")
        print_runs(case_rows)
        print()
        print_spread(case_rows)
    print_flat_cost(backend, rows["empty"], rows["preloaded"], starts, preloader.done)
    print(
        f"  ({time.strftime('%Y-%m-%d %H:%M')}, {machine()}, load average "
        f"{os.getloadavg()[0]:.1f})",
        flush=True,
    )


def floor_storage(database_url: str, workdir: Path) -> str:
    """The storage floor's ``FLOOR_STORAGE``: its own SQLite file next to Narrator's, or a
    table of its own in Narrator's PostgreSQL database."""
    if database_url.startswith("sqlite"):
        return f"sqlite:///{workdir / 'floor.db'}"
    return database_url.replace("postgresql+asyncpg://", "postgresql://")


async def _postgres(admin_url: str, statement: str) -> None:
    import asyncpg

    url = admin_url.replace("postgresql+asyncpg://", "postgresql://")
    connection = await asyncpg.connect(url, timeout=5)
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


def machine() -> str:
    """The CPU model and the cores this machine has (lscpu), for the record."""
    try:
        lines = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
        model = next(
            (line.split(":", 1)[1].strip() for line in lines.splitlines() if "Model name" in line),
            "unknown CPU",
        )
    except (OSError, subprocess.CalledProcessError):
        model = "unknown CPU"
    return f"{model}, {os.cpu_count()} cores"


def report(
    backend: str, targets: dict[str, list[RateResult]], plan: Plan, args: argparse.Namespace
) -> None:
    niced = "" if args.priority is None else f", bots at nice {args.priority}"
    print(
        f"\n{backend}: {args.channels} channels, each rate for >= {plan.commands} "
        f"commands and >= {plan.seconds:g}s, {plan.repeat} run(s){niced}; "
        f"{time.strftime('%Y-%m-%d %H:%M')}, {machine()}, load average "
        f"{os.getloadavg()[0]:.1f}"
    )
    for label, rows in targets.items():
        print(f"\n{backend} {label}:")
        print_runs(rows)
        print()
        print_spread(rows)
    print()
    print_comparison(targets)
    print_goals(backend, targets)
    print(flush=True)


async def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rates", default="100,200", help="commands/s, comma-separated")
    parser.add_argument("--seconds", type=float, default=5.0, help="least duration of a rate")
    parser.add_argument("--commands", type=int, default=500, help="least commands of a rate")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each rate (spread)")
    parser.add_argument(
        "--no-overload",
        action="store_true",
        help="skip the runs past the plan's rates (served maximum, 2x, half)",
    )
    parser.add_argument("--no-floors", action="store_true", help="Narrator alone")
    parser.add_argument("--channels", type=int, default=500)
    parser.add_argument("--backends", default="sqlite,postgresql")
    parser.add_argument("--postgres", default=POSTGRES_ADMIN_URL, help="admin URL (a database)")
    parser.add_argument(
        "--priority", type=int, help="nice value for the bot processes (negative needs root)"
    )
    parser.add_argument(
        "--preload",
        action="store_true",
        help="Narrator again on a database preloaded with a server's years, compared",
    )
    parser.add_argument(
        "--preload-only",
        action="store_true",
        help="only the --preload comparison (no plain run, floors or their goals)",
    )
    parser.add_argument(
        "--preload-scale", type=float, default=1.0, help="of the preloaded data (1: issue 31's)"
    )
    args = parser.parse_args(argv)
    plan = Plan(
        rates=[int(r) for r in args.rates.split(",")],
        seconds=args.seconds,
        commands=args.commands,
        repeat=args.repeat,
        overload=not args.no_overload,
    )
    floors = not args.no_floors
    raise_open_files_limit()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="narrator-load-") as tmp:
        workdir = Path(tmp)
        for backend in args.backends.split(","):
            if args.preload_only:
                await compare_preloaded(backend, workdir, plan, args)
                continue
            if backend == "sqlite":
                url = f"sqlite+aiosqlite:///{workdir / 'load.db'}"
                targets = await bench_backend(
                    "sqlite", url, workdir, plan, args.channels, args.priority, floors=floors
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
                    targets = await bench_backend(
                        "postgresql",
                        url,
                        workdir,
                        plan,
                        args.channels,
                        args.priority,
                        floors=floors,
                    )
                finally:
                    await _postgres(args.postgres, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            report(backend, targets, plan, args)
            if args.preload:  # after the plain run's report
                await compare_preloaded(backend, workdir, plan, args)
    print(f"total time {time.perf_counter() - started:.0f}s")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
