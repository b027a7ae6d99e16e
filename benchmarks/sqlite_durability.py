"""What "acknowledged means on disk" costs on SQLite: ``synchronous=FULL`` against ``NORMAL``.

In WAL mode, NORMAL skips the fsync of each commit (a power loss may lose the last commits,
never corrupt the file); FULL fsyncs the WAL at every commit. Each round times COMMITS
sequential one-row commands through :class:`bot.storage.Database` (``BEGIN IMMEDIATE``, one
INSERT into the roll log, COMMIT) on a fresh file in ``BENCH_DIR`` (default: a temporary
directory, which should be on the disk the bot uses), alternating the modes round by round
so that the machine's load falls on both alike. Run: ``python -m benchmarks.sqlite_durability``.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import tempfile
import time
from pathlib import Path

from benchmarks._timing import print_table
from bot.actor import Actor
from bot.storage import Database
from bot.storage.migrate import upgrade_to_head
from bot.storage.repositories import rolls

ROUNDS = 5
COMMITS = 300
ACTOR = Actor(user_id=1, channel_id=1, guild_id=1)


async def _round(url: str, synchronous: str) -> list[float]:
    db = Database(url, synchronous=synchronous)
    timings = []
    try:
        for n in range(COMMITS):
            start = time.perf_counter()
            async with db.unit_of_work() as session:
                rolls.add(
                    session, ACTOR, system="dice", input=f"1d6 #{n}", faces=[n % 6 + 1], outcome=""
                )
            timings.append((time.perf_counter() - start) * 1000)
    finally:
        await db.dispose()
    return timings


def main() -> None:
    base = Path(os.environ.get("BENCH_DIR") or tempfile.mkdtemp(prefix="narrator-bench-"))
    medians: dict[str, list[float]] = {"FULL": [], "NORMAL": []}
    p99s: dict[str, list[float]] = {"FULL": [], "NORMAL": []}
    for round_ in range(ROUNDS):
        for mode in ("FULL", "NORMAL") if round_ % 2 == 0 else ("NORMAL", "FULL"):
            path = base / f"bench-{mode}-{round_}.db"
            url = f"sqlite+aiosqlite:///{path}"
            upgrade_to_head(url)
            timings = sorted(asyncio.run(_round(url, mode)))
            medians[mode].append(statistics.median(timings))
            p99s[mode].append(timings[int(len(timings) * 0.99) - 1])
            for suffix in ("", "-wal", "-shm", ".migrate-lock"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)
    print(f"{ROUNDS} rounds × {COMMITS} sequential one-row commits, ms per command")
    rows = []
    for mode in ("FULL", "NORMAL"):
        m, p = sorted(medians[mode]), sorted(p99s[mode])
        rows.append((mode, m[0], statistics.median(m), m[-1], p[0], statistics.median(p), p[-1]))
    print_table(
        ("synchronous", "median min", "median med", "median max", "p99 min", "p99 med", "p99 max"),
        rows,
    )


if __name__ == "__main__":
    main()
