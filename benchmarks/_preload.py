"""Fill a database with a server's years, so speed is measured on a full database too.

Issue 31 item 3: every benchmark used to start on a nearly empty database, while a real server
holds years of rolls. :func:`preload` fills a database migrated to head (SQLite file or
PostgreSQL URL) with, at ``scale=1``:

- 1,000,000 roll-log rows over 5,000 channels (a tenth in the channels of ``busy_channels``,
  the ones a load run then plays in), three years old to now;
- 100,000 characters over 20,000 players, a fifth of them chosen with ``/sheet use``;
- 10,000 initiative encounters, 500 of them running, each with 1,000 events in its log (the
  undo history's limit) and a posted tracker message; the ended ones ended within the last
  30 days (older ones would have been pruned by retention);
- 5,000 macros on the quick-roll panels of 2,000 characters (panels have no row of their own:
  their buttons carry the macro ids, ``bot.cogs.macros._panel``), with channel settings and
  language choices for the channels and players involved.

Rows are copies of rows the real services wrote (:func:`_templates` runs ``/roll``,
``/sheet create``, ``/sheet set``, ``/init start``/``add``/``next`` and ``/macro save``
through the services on a scratch database), with new ids, owners, channels and times; so the
faces, tallies and JSON states are what the bot writes and reads. Inserts are SQLAlchemy
Core executemany in batches, in one transaction per table.

Every row lives in ``guild_id`` (one server), and no preloaded player, channel or encounter is
one a load run uses: the load's ``/sheet show`` still finds its player's one character, and its
``/init start`` finds its channel free.
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import Table, insert, select, text

from bot.actor import Actor
from bot.services import initiative, macros, rolls, sheets
from bot.storage import Database
from bot.storage.migrate import upgrade_to_head
from bot.storage.models import (
    ActiveCharacter,
    ChannelSettings,
    Character,
    InitiativeEncounter,
    LanguageChoice,
    Macro,
    RollLog,
)
from engine import initiative as ini
from engine.dice import SeededDice

#: Rows per executemany.
BATCH = 20_000
#: Ids of preloaded players and channels start here: far below Discord's snowflakes of today
#: (the stand-in's), so they never collide with a load run's.
PLAYER_BASE = 10**15
CHANNEL_BASE = 2 * 10**15
MESSAGE_BASE = 3 * 10**15

#: ``/roll`` expressions the roll-log rows copy (a table's everyday rolls).
EXPRESSIONS = ("1d20 + 5", "4d6kh3 + 2", "2d6", "1d100", "3d8 + 4", "1d20 + 1d4")


@dataclass(frozen=True)
class Shape:
    """How many rows of each kind (``scale`` 1: issue 31's server)."""

    rolls: int = 1_000_000
    characters: int = 100_000
    players: int = 20_000
    channels: int = 5_000
    encounters: int = 10_000
    active: int = 500
    events: int = 1_000
    macros: int = 5_000
    panels: int = 2_000

    @classmethod
    def scaled(cls, scale: float) -> Shape:
        """Every count times ``scale`` (at least 1; events at least 6: the four additions and
        turns after them)."""
        full = cls()

        def n(value: int, least: int = 1) -> int:
            return max(least, round(value * scale))

        return cls(
            rolls=n(full.rolls),
            characters=n(full.characters, 2),
            players=n(full.players),
            channels=n(full.channels, 2),
            encounters=n(full.encounters, 2),
            active=n(full.active),
            events=min(ini.MAX_HISTORY, n(full.events, 6)),
            macros=n(full.macros),
            panels=n(full.panels),
        )


@dataclass
class Preloaded:
    """What was written: row counts per table and seconds taken (templates, each table)."""

    shape: Shape
    rows: dict[str, int] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    #: The preloaded players, channels and the running encounters' channels, for checks.
    players: list[int] = field(default_factory=list)
    channels: list[int] = field(default_factory=list)
    active_channels: list[int] = field(default_factory=list)

    @property
    def total_seconds(self) -> float:
        return sum(self.seconds.values())

    def summary(self) -> str:
        counts = ", ".join(f"{table} {count:,}" for table, count in self.rows.items())
        return f"preloaded {counts} in {self.total_seconds:.1f}s"


@dataclass
class _Templates:
    """Rows the services wrote on the scratch database, as column dicts."""

    rolls: list[dict[str, Any]]
    character: dict[str, Any]
    running: dict[str, Any]  # an encounter row with ``events`` events, running
    ended: dict[str, Any]  # a short encounter, ended
    macro: dict[str, Any]


async def preload(
    url: str,
    *,
    scale: float = 1.0,
    guild_id: int = 1,
    busy_channels: Sequence[int] = (),
    seed: int = 31,
) -> Preloaded:
    """Migrate ``url`` to head and fill it (see the module's docstring); returns what it did.

    ``busy_channels`` (a load run's channels) get a tenth of the roll log, nothing else.
    """
    shape = Shape.scaled(scale)
    done = Preloaded(shape)
    started = time.perf_counter()
    await asyncio.to_thread(upgrade_to_head, url)
    templates = await _templates(shape.events, seed)
    done.seconds["templates"] = time.perf_counter() - started
    rng = random.Random(seed)
    done.players = [PLAYER_BASE + n for n in range(shape.players)]
    done.channels = [CHANNEL_BASE + n for n in range(shape.channels)]
    done.active_channels = done.channels[: min(shape.active, shape.channels)]
    db = Database(url)
    try:
        tables = _rows(shape, templates, rng, guild_id, done, list(busy_channels))
        for name, model, rows in tables:
            table_started = time.perf_counter()
            done.rows[name] = await _insert(db, model.__table__, rows)
            done.seconds[name] = time.perf_counter() - table_started
        finishing = time.perf_counter()
        await _finish(db)
        done.seconds["sequences and statistics"] = time.perf_counter() - finishing
    finally:
        await db.dispose()
    return done


def _rows(
    shape: Shape,
    templates: _Templates,
    rng: random.Random,
    guild_id: int,
    done: Preloaded,
    busy: list[int],
) -> list[tuple[str, type[Any], Iterable[dict[str, Any]]]]:
    """Each table's rows, generated lazily (a million dicts are never all alive at once)."""
    now = datetime.now(UTC)
    players, channels = done.players, done.channels
    return [
        ("characters", Character, _characters(shape, templates, guild_id, players, now)),
        ("active_characters", ActiveCharacter, _selections(shape, guild_id, players, channels)),
        ("macros", Macro, _macros(shape, templates, guild_id, players)),
        (
            "initiative_encounters",
            InitiativeEncounter,
            _encounters(shape, templates, guild_id, done, now, rng),
        ),
        ("channel_settings", ChannelSettings, _settings(guild_id, channels, now)),
        ("language_choices", LanguageChoice, _languages(players, now)),
        (
            "roll_log",
            RollLog,
            _rolls(shape, templates, rng, guild_id, players, channels, busy, now),
        ),
    ]


def _characters(
    shape: Shape, templates: _Templates, guild_id: int, players: list[int], now: datetime
) -> Iterator[dict[str, Any]]:
    for n in range(shape.characters):
        name = f"Hero {n}"
        yield {
            **templates.character,
            "id": n + 1,
            "guild_id": guild_id,
            "owner_id": players[n % len(players)],
            "name": name,
            "name_key": name.casefold(),
            "created_at": now - timedelta(days=n % 1000),
            "updated_at": now - timedelta(days=n % 30),
        }


def _selections(
    shape: Shape, guild_id: int, players: list[int], channels: list[int]
) -> Iterator[dict[str, Any]]:
    """A fifth of the characters chosen with ``/sheet use`` in a channel of their own."""
    for n in range(0, shape.characters, 5):
        yield {
            "user_id": players[n % len(players)],
            # A player's characters sit apart (n // players counts them): one choice each.
            "channel_id": channels[(n + n // len(players)) % len(channels)],
            "guild_id": guild_id,
            "character_id": n + 1,
            "updated_at": datetime.now(UTC),
        }


def _macros(
    shape: Shape, templates: _Templates, guild_id: int, players: list[int]
) -> Iterator[dict[str, Any]]:
    """The panels' macros: ``macros`` spread over the first ``panels`` characters."""
    panels = min(shape.panels, shape.characters)
    for n in range(shape.macros):
        character_id = n % panels + 1
        slot = n // panels
        name = f"attack {slot}"
        yield {
            **templates.macro,
            "id": n + 1,
            "guild_id": guild_id,
            "owner_id": character_id,
            "character_id": character_id,
            "slot": slot,
            "name": name,
            "name_key": name,
            "created_by": players[(character_id - 1) % len(players)],
            "uses": n % 50,
        }


def _encounters(
    shape: Shape,
    templates: _Templates,
    guild_id: int,
    done: Preloaded,
    now: datetime,
    rng: random.Random,
) -> Iterator[dict[str, Any]]:
    """The running ones first (one per channel, with a posted tracker), then the ended."""
    channels = done.channels
    for n in range(shape.encounters):
        channel = channels[n % len(channels)]
        running = n < len(done.active_channels)
        row = templates.running if running else templates.ended
        changed = now - timedelta(minutes=rng.randrange(60 * 24 * (1 if running else 29)))
        yield {
            **row,
            "id": n + 1,
            "guild_id": guild_id,
            "channel_id": channel,
            "active_channel_id": channel if running else None,
            "started_by": done.players[n % len(done.players)],
            "tracker_message_id": MESSAGE_BASE + n,
            "created_at": changed - timedelta(hours=2),
            "updated_at": changed,
        }


def _settings(guild_id: int, channels: list[int], now: datetime) -> Iterator[dict[str, Any]]:
    for n, channel in enumerate(channels):
        yield {
            "channel_id": channel,
            "guild_id": guild_id,
            "default_system": ("coda", "h90", "drama", None)[n % 4],
            "rules": {},
            "secret_mode": "gm",
            "gm_channel_id": None,
            "updated_at": now,
        }


def _languages(players: list[int], now: datetime) -> Iterator[dict[str, Any]]:
    """A tenth of the players chose Spanish."""
    for player in players[::10]:
        yield {
            "scope": "user",
            "target_id": player,
            "language": "es",
            "set_by": player,
            "updated_at": now,
        }


def _rolls(
    shape: Shape,
    templates: _Templates,
    rng: random.Random,
    guild_id: int,
    players: list[int],
    channels: list[int],
    busy: list[int],
    now: datetime,
) -> Iterator[dict[str, Any]]:
    """Oldest first (ids follow time, as the bot writes them), over three years."""
    span = timedelta(days=3 * 365).total_seconds()
    start = now - timedelta(days=3 * 365)
    for n in range(shape.rolls):
        if busy and n % 10 == 0:
            channel = busy[(n // 10) % len(busy)]
        else:
            channel = channels[rng.randrange(len(channels))]
        template = templates.rolls[n % len(templates.rolls)]
        yield {
            **template,
            "id": n + 1,
            "guild_id": guild_id,
            "channel_id": channel,
            "user_id": players[rng.randrange(len(players))],
            "created_at": start + timedelta(seconds=span * n / shape.rolls),
        }


async def _insert(db: Database, table: Table, rows: Iterable[dict[str, Any]]) -> int:
    """Executemany in batches of :data:`BATCH`, all in one transaction."""
    count = 0
    statement = insert(table)
    async with db.engine.begin() as connection:
        batch: list[dict[str, Any]] = []
        for row in rows:
            batch.append(row)
            if len(batch) >= BATCH:
                await connection.execute(statement, batch)
                count += len(batch)
                batch = []
        if batch:
            await connection.execute(statement, batch)
            count += len(batch)
    return count


async def _finish(db: Database) -> None:
    """PostgreSQL: move the id sequences past the ids written here, then vacuum and gather
    statistics, as autovacuum would have on a server's database long before: the pages'
    visibility and hint bits are set, so the timed runs' first reads of the million new rows
    do not write them (nor find index-only scans unusable). SQLite keeps no sequence."""
    if db.is_sqlite:
        return
    async with db.engine.begin() as connection:
        for table in ("characters", "macros", "initiative_encounters", "roll_log"):
            await connection.execute(
                text(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"(SELECT max(id) FROM {table}))"
                )
            )
    async with db.engine.connect() as connection:
        await connection.execution_options(isolation_level="AUTOCOMMIT")
        await connection.execute(text("VACUUM (ANALYZE)"))


async def _templates(events: int, seed: int) -> _Templates:
    """Run the real services once on a scratch SQLite database and keep the rows they wrote."""
    dice = SeededDice(seed)
    gm = Actor(user_id=1, channel_id=10, guild_id=100, display_name="gm", gm_role=True)
    player = Actor(user_id=2, channel_id=10, guild_id=100, display_name="player")
    with tempfile.TemporaryDirectory(prefix="narrator-preload-") as tmp:
        url = f"sqlite+aiosqlite:///{Path(tmp) / 'templates.db'}"
        await asyncio.to_thread(upgrade_to_head, url)
        db = Database(url)
        try:
            for expression in EXPRESSIONS:
                for _ in range(3):
                    await rolls.roll_notation(
                        db, dice, player, expression=expression, label="attack", secret=False
                    )
            await sheets.create(db, player, "Hero", "coda")
            for attribute, value in (("Strength", 3), ("Agility", 4), ("Wits", 2)):
                await sheets.set_attribute(db, player, attribute, value)
            await macros.save(
                db, player, scope="character", name="attack", command="/roll 1d20 + {Agility}"
            )
            await initiative.start(db, gm, system="coda")
            await initiative.add(db, dice, gm, name="Goblin", roll=12, count=3)
            await initiative.add(db, dice, gm, name="Orc", roll=9)
            rows = await _read(db)
        finally:
            await db.dispose()
    encounter = rows["initiative_encounters"][0]
    return _Templates(
        rolls=[_without(row, "id") for row in rows["roll_log"]],
        character=_without(rows["characters"][0], "id"),
        running=_with_events(encounter, events, dice, running=True),
        ended=_with_events(encounter, 20, dice, running=False),
        macro=_without(rows["macros"][0], "id"),
    )


async def _read(db: Database) -> dict[str, list[dict[str, Any]]]:
    read: dict[str, list[dict[str, Any]]] = {}
    async with db.engine.connect() as connection:
        for model in (RollLog, Character, Macro, InitiativeEncounter):
            table: Table = model.__table__  # type: ignore[assignment]
            result = await connection.execute(select(table).order_by(table.c.id))
            read[table.name] = [dict(row._mapping) for row in result]
    return read


def _with_events(row: dict[str, Any], events: int, dice: SeededDice, *, running: bool) -> dict:
    """The encounter row with its log grown to ``events`` events by the engine: the four
    additions, then turns (``/init next``), then (ended) its end."""
    state = ini.from_dict(row["state"])
    added = len(state.log)
    for _ in range(max(0, events - added - (0 if running else 1))):
        state = ini.apply(state, ini.Next(), dice)
    if not running:
        state = ini.apply(state, ini.End(), dice)
    return {
        **_without(row, "id"),
        "state": ini.to_dict(state),
        "status": "active" if running else "ended",
        "revision": len(state.log),
    }


def _without(row: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {key: value for key, value in row.items() if key not in keys}


async def main(argv: list[str] | None = None) -> int:
    """``python -m benchmarks._preload URL [SCALE]``: fill a database and say how long."""
    args = sys.argv[1:] if argv is None else argv
    if not args:
        print("usage: python -m benchmarks._preload DATABASE_URL [SCALE]")
        return 2
    done = await preload(args[0], scale=float(args[1]) if len(args) > 1 else 1.0)
    print(done.summary())
    for step, seconds in done.seconds.items():
        print(f"  {step}: {seconds:.1f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
