"""Initiative: cost of one event, of undo at a full history, of storage, and of one ``next``
through the service (a locked read, the engine, a write: one SQLite transaction).

Run: ``python -m benchmarks.initiative`` from the project root.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
import time
from pathlib import Path

from benchmarks._timing import microseconds, print_table
from bot.actor import Actor
from bot.services import initiative as service
from bot.storage import Database
from bot.storage.migrate import upgrade_to_head
from engine import initiative as ini
from engine.dice import SeededDice

GM = Actor(user_id=1, channel_id=2, guild_id=3, gm_role=True)


def encounter(combatants: int, events: int) -> ini.Encounter:
    """``combatants`` combatants, then ``events`` Next events (history kept up to the bound)."""
    dice = SeededDice(1)
    state = ini.Encounter(system="coda")
    for i in range(combatants):
        state = ini.apply(state, ini.Add(f"Goblin {i + 1}", i % 7), dice)
    for _ in range(events):
        state = ini.apply(state, ini.Next())
    return state


def engine_table() -> None:
    rows = []
    for combatants, history in ((5, 100), (50, 100), (50, ini.MAX_HISTORY)):
        state = encounter(combatants, history)
        text = json.dumps(ini.to_dict(state))
        data = json.loads(text)
        rows.append(
            (
                combatants,
                len(state.log),
                microseconds(lambda s=state: ini.apply(s, ini.Next())),
                microseconds(lambda s=state: ini.undo(s)),
                microseconds(lambda s=state: json.dumps(ini.to_dict(s))),
                microseconds(lambda d=data: ini.from_dict(d)),
                len(text),
            )
        )
    print_table(
        ("combatants", "log", "next µs", "undo µs", "store µs", "load µs", "JSON bytes"), rows
    )


async def service_rows(url: str, combatants: int, count: int = 200) -> tuple[object, ...]:
    db = Database(url)
    try:
        await service.start(db, GM, system="coda")
        await service.add(db, SeededDice(2), GM, name="Goblin", count=min(combatants, 20))
        for start in range(20, combatants, 20):
            await service.add(
                db, SeededDice(start), GM, name="Goblin", count=min(20, combatants - start)
            )
        began = time.perf_counter()
        for _ in range(count):
            await service.next_turn(db, GM)
        sequential = (time.perf_counter() - began) / count * 1e6
        began = time.perf_counter()
        await asyncio.gather(*(service.next_turn(db, GM) for _ in range(20)))
        burst = (time.perf_counter() - began) * 1e3
        return (combatants, sequential, burst)
    finally:
        await db.dispose()


def service_table() -> None:
    rows = []
    for combatants in (5, 50):
        with tempfile.TemporaryDirectory() as folder:
            url = f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}"
            upgrade_to_head(url)
            rows.append(asyncio.run(service_rows(url, combatants)))
    print_table(("combatants", "service next µs (SQLite)", "20 at once, ms total"), rows)


def main() -> None:
    engine_table()
    print()
    service_table()


if __name__ == "__main__":
    main()
