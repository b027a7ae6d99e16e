"""Every line a played encounter posts and every tracker it shows, pinned text for text.

The reply and the tracker are rendered on the hot path with memos (a turn line said once for
both, CODA's action labels per language) and the tracker's view is stored once per message:
whatever is trimmed there, a table must read exactly what it read before.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.bot.cogs.initiative.test_initiative import add, ok, start, tracker
from tests.conftest import Table, text_of

PINNED = Path(__file__).with_name("pinned_init.json")


def shown(table: Table, result: Any) -> list[str]:
    """What one command showed: its reply (ephemeral or not) and the whole tracker embed."""
    embed = tracker(table).embeds[0].to_dict()
    fields = [f"{f['name']} | {f['value']}" for f in embed.get("fields", [])]
    return [
        text_of(result),
        embed.get("title", ""),
        embed.get("description", ""),
        *fields,
        embed.get("footer", {}).get("text", ""),
        str(embed.get("color")),
    ]


async def play(table: Table) -> list[list[str]]:
    """A CODA fight: a hidden NPC, turns, an action, a condition, a delay, a new round, undo."""
    gm, channel = table.gm, table.channel
    await start(table, system="coda")
    for name, roll in (("Alice", 18), ("Bob", 12), ("Carl", 7)):
        await ok(await add(table, name, roll))
    seen = [shown(table, await add(table, "Spy", 10, hidden=True))]
    steps: list[tuple[str, dict[str, Any]]] = [
        ("init next", {}),
        ("init next", {}),
        ("init action", {"kind": "Walk"}),
        ("init action", {"kind": "Walk"}),
        ("init condition add", {"target": "Carl", "name": "Stunned", "rounds": 2}),
        ("init next", {}),
        ("init next", {}),
        ("init delay", {}),
        ("init next", {}),
        ("init next", {}),
        ("init next", {}),
        ("init undo", {}),
        ("init next", {}),
    ]
    for command, options in steps:
        seen.append(shown(table, await gm.slash(channel, command, **options)))
    return seen


def pinned(language: str) -> list[list[str]]:
    """What the encounter showed before the hot path was trimmed (``pinned_init.json``)."""
    return json.loads(PINNED.read_text(encoding="utf-8"))[language]


async def test_a_played_coda_encounter_reads_as_pinned(table: Table) -> None:
    assert await play(table) == pinned("en")


async def test_the_same_encounter_in_spanish_reads_as_pinned(table: Table, as_spanish: Any) -> None:
    as_spanish(table.gm)
    assert await play(table) == pinned("es")
