"""Every character of the ``/roll`` reply and of its roll log row, pinned from the code as it
was before the roll path was trimmed (``pinned_rolls.json``): short and long expressions, one
past the description's room, repeats, pools, a hostile label, a sheet's values, a secret
roll, in English and Spanish. Whatever is made cheaper there, a table reads exactly what it
read before and the log keeps the same row.

``python -m tests.bot.render.test_roll_pinned`` rewrites the file from the current code
(only ever from code whose output is known to be right).
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from bot.actor import Actor
from bot.i18n import use_language
from bot.render.rolls import notation_embed
from bot.services import rolls
from bot.services.rolls import NotationOutcome
from bot.storage import Database
from bot.storage.migrate import upgrade_to_head
from bot.text import UserText
from engine.dice import SeededDice

PINNED = Path(__file__).with_name("pinned_rolls.json")
ROLLER = Actor(user_id=11, channel_id=22, guild_id=33)
HOSTILE = "*bold* @everyone <@1> [link](https://x.y) `tick` \u202ereversed " + "ü" * 60
#: (expression, label, secret): each rolled with ``SeededDice(seed)``, its index the seed.
CASES: tuple[tuple[str, str | None, bool], ...] = (
    ("4d6kh3 + 2", "load", False),
    ("1d20+5 sneak attack", None, False),
    ("1d20 + 5", None, False),
    ("2d20kl1 - 3", "disadvantage", False),
    ("6 4d6kh3", None, False),
    ("5d10>=8f1", "pool", False),
    ("1d20 ; 2d6 + 1 fire", None, False),
    ("250d6", HOSTILE, False),
    ("20 12d6", None, False),
    ("20 2d1000 [" + "fire " * 40 + "] + 3d1000 [ice] cold", None, False),
    ("1d%", None, False),
    ("4dF", None, False),
    ("1d20 [fire] + 2", None, True),
    ("2d6e6", None, False),
    ("8d6ro1", "x" * 99, False),
    ("(1d4+1)*3", None, True),
    ("d20", "", False),
)
#: Row columns that change from run to run (the id, the time) are left out.
VARIABLE = {"id", "created_at", "record", "salt", "commitment"}


def row_of(entry: Any) -> dict[str, Any]:
    columns = entry.__table__.columns.keys()
    return {key: getattr(entry, key) for key in columns if key not in VARIABLE}


async def rolled(db: Database, seed: int, expression: str, label: str | None, secret: bool) -> Any:
    return await rolls.roll_notation(
        db, SeededDice(seed), ROLLER, expression=expression, label=label, secret=secret
    )


async def shown(db: Database) -> dict[str, Any]:
    """Each case's embed in both languages, then the rows the log holds (oldest first)."""
    embeds: dict[str, list[Any]] = {"en": [], "es": []}
    for seed, (expression, label, secret) in enumerate(CASES):
        outcome = await rolled(db, seed, expression, label, secret)
        for language, seen in embeds.items():
            with use_language(language):
                seen.append(notation_embed(outcome, "bob <@7>").to_dict())
    sheet = NotationOutcome(
        roll=outcome.roll,
        label=UserText.of("x"),
        secrecy=outcome.secrecy,
        character="Hermione *G*",
    )
    embeds["en"].append(notation_embed(sheet, "bob").to_dict())
    history = await rolls.history(db, ROLLER, count=len(CASES))
    return {"embeds": embeds, "rows": [row_of(entry) for entry in reversed(history.entries)]}


async def _record(url: str) -> dict[str, Any]:
    db = Database(url)
    try:
        return await shown(db)
    finally:
        await db.dispose()


async def test_roll_replies_and_rows_read_as_pinned(db: Database) -> None:
    seen = json.loads(json.dumps(await shown(db)))
    pinned = json.loads(PINNED.read_text(encoding="utf-8"))
    assert seen["rows"] == pinned["rows"]
    for language in ("en", "es"):
        assert seen["embeds"][language] == pinned["embeds"][language], language


def test_the_pins_cover_what_they_claim() -> None:
    """The cases reach the paths they are meant to: a cut reply, Spanish text, a secret row."""
    pinned = json.loads(PINNED.read_text(encoding="utf-8"))
    english, spanish = pinned["embeds"]["en"], pinned["embeds"]["es"]
    assert any("…" in embed.get("description", "") for embed in english)
    assert english != spanish[: len(english)]
    assert len(pinned["rows"]) == len(CASES)
    assert any(row["secret"] for row in pinned["rows"])
    assert any(row["tally"] for row in pinned["rows"])


if __name__ == "__main__":  # rewrite the pins from the current code
    with tempfile.TemporaryDirectory() as folder:
        target = f"sqlite+aiosqlite:///{folder}/pins.db"
        upgrade_to_head(target)
        recorded = asyncio.run(_record(target))
    PINNED.write_text(json.dumps(recorded, ensure_ascii=False, indent=1) + "\n", "utf-8")
    sys.exit(0)
