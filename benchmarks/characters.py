"""Characters: resolving sheet references (pure) and reading/changing a sheet in SQLite.

Run: python -m benchmarks.characters
"""

from __future__ import annotations

import asyncio
import json
import tempfile
import time
from pathlib import Path

from benchmarks._timing import microseconds, print_table
from bot.actor import Actor
from bot.services import sheets
from bot.services.sheets import CharacterSheet, Resource, Skill, parse_sheet, resolve, substitute
from bot.storage import Database
from bot.storage.migrate import upgrade_to_head

ACTOR = Actor(user_id=1, channel_id=2, guild_id=3)


def full_sheet() -> CharacterSheet:
    return CharacterSheet(
        id=1,
        guild_id=3,
        owner_id=1,
        name="Bench",
        system="coda",
        attributes={f"A{i}": i for i in range(64)},
        skills={f"S{i}": Skill(i, f"A{i % 64}", ("x", "y")) for i in range(128)},
        resources={f"R{i}": Resource(i, 100) for i in range(32)},
    )


async def database_rows(url: str, count: int = 200) -> list[tuple[str, float]]:
    db = Database(url)
    try:
        await sheets.create(db, ACTOR, "Bench", "coda")
        await sheets.import_sheet(db, ACTOR, _export(full_sheet()).encode(), replace=True)

        async def read() -> None:
            async with db.unit_of_work(read_only=True) as session:
                sheet = await sheets.active_character(session, ACTOR)
                resolve(sheet, "skill S127")

        async def change() -> None:
            await sheets.set_resource(db, ACTOR, "R1", delta=1)

        rows = []
        for label, step in (
            ("read active + resolve (one tx)", read),
            ("resource delta (one tx)", change),
        ):
            start = time.perf_counter()
            for _ in range(count):
                await step()
            rows.append((label, (time.perf_counter() - start) / count * 1e6))
        return rows
    finally:
        await db.dispose()


def _export(sheet: CharacterSheet) -> str:
    return json.dumps(sheet.to_dict())


def main() -> None:
    sheet = full_sheet()
    data = sheet.to_dict()
    rows = [
        ("resolve 'skill S127' (full sheet)", microseconds(lambda: resolve(sheet, "skill S127"))),
        ("resolve bare name, last resource", microseconds(lambda: resolve(sheet, "R31"))),
        (
            "substitute '2d6 + {S5} + {A7}'",
            microseconds(lambda: substitute(sheet, "2d6 + {S5} + {A7}")),
        ),
        ("parse_sheet (full sheet)", microseconds(lambda: parse_sheet(data))),
    ]
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}"
        upgrade_to_head(url)
        rows += asyncio.run(database_rows(url))
    print_table(["operation", "µs per call"], rows)


if __name__ == "__main__":
    main()
