"""``/dice stats`` from the per-roll tallies the database adds up: the same statistics as an
independent count of the raw roll log, on SQLite and PostgreSQL, and a bound on the rows the
event loop reads that does not grow with the rolls (no timing)."""

from __future__ import annotations

import asyncio
import random
import re
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.script import ScriptDirectory
from sqlalchemy import column, insert, select, table
from sqlalchemy.ext.asyncio import create_async_engine

from bot.actor import Actor
from bot.services import dice_stats
from bot.storage import Database
from bot.storage.migrate import alembic_config, upgrade_to_head
from bot.storage.models import RollLog
from bot.storage.repositories import rolls
from bot.storage.roll_tally import tally
from engine.fairness import check_counts
from tests.conftest import POSTGRES_URL, _postgres_admin, sqlite_url

NOW = datetime(2026, 11, 24, 12, tzinfo=UTC)
CHANNEL, OTHER_CHANNEL = 500, 501
USERS = (1, 2, 3)


# --- the independent count: the raw log, counted the way /dice stats always counted ---------


def _flat(faces: Any) -> Iterator[Any]:
    if isinstance(faces, list):
        for item in faces:
            yield from _flat(item)
    else:
        yield faces


def _die_size(system: str, expression: str) -> int | None:
    fixed = {"coda": 6, "drama": 6, "h90": 20, "infinity": 20, "rps": 10}
    if system in fixed:
        return fixed[system]
    sizes = {int(size) for size in re.findall(r"d(\d+)", expression, re.IGNORECASE)}
    return sizes.pop() if len(sizes) == 1 and "%" not in expression else None


async def _by_hand(
    db: Database, *, player_id: int | None, system: str | None, since: str | None, limit: int
) -> tuple[Any, ...]:
    async with db.unit_of_work(read_only=True) as session:
        log = (await session.execute(select(RollLog).order_by(RollLog.id.desc()))).scalars().all()
    start = NOW - dice_stats.SINCE[since] if since else None
    chosen = [
        entry
        for entry in log
        if entry.channel_id == CHANNEL
        and not entry.secret
        and entry.system in (dice_stats.SYSTEMS if system is None else (system,))
        and (player_id is None or entry.user_id == player_id)
        and (start is None or entry.created_at >= start)
    ][:limit]
    counts: dict[int, list[int]] = {}
    uncounted = 0
    for entry in chosen:
        sides = _die_size(entry.system, entry.input)
        faces = list(_flat(entry.faces))
        if sides is None or not all(isinstance(f, int) and 1 <= f <= sides for f in faces):
            uncounted += 1
            continue
        tally_ = counts.setdefault(sides, [0] * sides)
        for face in faces:
            tally_[face - 1] += 1
    tests = tuple(check_counts(counts[sides]) for sides in sorted(counts))
    return tests, len(chosen), len(chosen) >= limit, uncounted


def _seen(result: dice_stats.DiceStats) -> tuple[Any, ...]:
    return result.tests, result.rows, result.capped, result.uncounted


# --- a random log ---------------------------------------------------------------------------


def _entry(rng: random.Random) -> tuple[str, str, list[Any]]:
    """(system, input, faces) of one roll: counted, mixed, out of range, nested, empty."""
    kind = rng.randrange(9)
    if kind <= 2:
        sides = rng.choice([4, 6, 8, 20, 100])
        count = rng.randint(1, 12)
        return "dice", f"{count}d{sides}kh1", [rng.randint(1, sides) for _ in range(count)]
    if kind == 3:  # mixed die sizes: left out
        return "dice", "1d20 + 1d4", [rng.randint(1, 20), rng.randint(1, 4)]
    if kind == 4:  # percentile: left out
        return "dice", "1d%", [rng.randint(1, 100)]
    if kind == 5:  # a face that does not fit the die: left out
        return "dice", "2d6", [rng.randint(1, 6), 7]
    if kind == 6:  # nested faces of a system's fixed die
        system, sides = rng.choice([("rps", 10), ("coda", 6), ("infinity", 20), ("drama", 6)])
        faces = [[rng.randint(1, sides) for _ in range(rng.randint(0, 4))] for _ in range(2)]
        return system, "check", faces
    if kind == 7:  # no faces at all, of a die size: a test with nothing counted
        return "h90", "nothing rolled", []
    return "quidditch", "turn", [rng.randint(1, 6)]  # not a dice statistics system


async def _fill(db: Database, rng: random.Random, count: int, monkeypatch: Any) -> None:
    for index in range(count):
        system, expression, faces = _entry(rng)
        user = rng.choice(USERS)
        channel = CHANNEL if rng.random() < 0.85 else OTHER_CHANNEL
        secret = rng.random() < 0.1
        age = timedelta(minutes=rng.choice([5, 50, 70, 600, 2000, 5000]) + rng.random())
        monkeypatch.setattr(rolls, "utcnow", lambda age=age: NOW - age)
        actor = Actor(user_id=user, channel_id=channel, guild_id=9)
        if index % 2 or secret:  # both ways a roll is logged
            async with db.unit_of_work() as session:
                rolls.add(
                    session,
                    actor,
                    system=system,
                    input=expression,
                    faces=faces,
                    outcome="",
                    secret=secret,
                )
        else:
            await rolls.append_public(
                db, actor, system=system, input=expression, faces=faces, outcome=""
            )
    monkeypatch.undo()


FILTERS = [
    {},
    {"player_id": 2},
    {"system": "dice"},
    {"system": "rps"},
    {"since": "1h"},
    {"since": "24h", "player_id": 1},
    {"system": "dice", "since": "7d", "player_id": 3},
]


async def _compare(db: Database, monkeypatch: pytest.MonkeyPatch, *, limit: int) -> None:
    monkeypatch.setattr(dice_stats, "utcnow", lambda: NOW)
    monkeypatch.setattr(dice_stats, "MAX_ROWS", limit)
    actor = Actor(user_id=99, channel_id=CHANNEL, guild_id=9)
    for options in FILTERS:
        result = await dice_stats.stats(db, actor, **options)
        expected = await _by_hand(
            db,
            player_id=options.get("player_id"),
            system=options.get("system"),
            since=options.get("since"),
            limit=limit,
        )
        assert _seen(result) == expected, options
        assert result.tests, options  # the mix has something to count in every filter


@pytest.mark.parametrize("seed", [1, 2])
async def test_the_statistics_equal_a_count_of_the_raw_log(
    any_db: Database, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    await _fill(any_db, random.Random(seed), 220, monkeypatch)
    await _compare(any_db, monkeypatch, limit=5000)
    await _compare(any_db, monkeypatch, limit=25)  # only the newest: the cap, exactly


async def test_the_event_loop_reads_rows_per_face_not_per_roll(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    fetched: list[rolls.FaceTotals] = []
    face_totals = rolls.face_totals

    async def spy(*args: Any, **kwargs: Any) -> rolls.FaceTotals:
        totals = await face_totals(*args, **kwargs)
        fetched.append(totals)
        return totals

    rng = random.Random(3)
    actor = Actor(user_id=1, channel_id=CHANNEL, guild_id=9)
    sizes = []
    for batch in (4, 396):  # 4 rolls, then 400: the rows read stay the same
        async with db.unit_of_work() as session:
            for _ in range(batch):
                faces = [rng.randint(1, 6) for _ in range(250)]
                rolls.add(session, actor, system="dice", input="250d6", faces=faces, outcome="")
            rolls.add(session, actor, system="dice", input="1d20+1d4", faces=[3, 2], outcome="")
        monkeypatch.setattr(rolls, "face_totals", spy)
        # Nothing is counted per roll while the statistics are read.
        monkeypatch.setattr("bot.storage.repositories.rolls.tally", _refuse)
        result = await dice_stats.stats(db, actor)
        monkeypatch.undo()
        sizes.append((len(fetched[-1].entries), len(fetched[-1].faces)))
        assert result.tests[0].rolls == 250 * result.rows - 250 * result.uncounted
    assert result.rows == 402 and result.uncounted == 2
    # One row per die size (and one for the entries left out), one per (die size, face).
    assert sizes == [(2, 6), (2, 6)]


def _refuse(*args: Any) -> None:
    raise AssertionError("a roll's faces were counted while reading the statistics")


# --- the migration counts the entries logged before it -------------------------------------

#: Migrations are branches of features: every head but this one, as a database before it.
NEW = "0240_roll_tallies"


#: The roll log as it was before the tallies, with the model's column types.
OLD_LOG = table(
    "roll_log",
    *(
        column(c.name, c.type)
        for c in RollLog.__table__.columns
        if c.name not in {"tally_sides", "tally"}
    ),
)


def _old_entry(id_: int, rng: random.Random) -> dict[str, Any]:
    system, expression, faces = _entry(rng)
    return {
        "id": id_,
        "guild_id": 9,
        "channel_id": CHANNEL,
        "user_id": rng.choice(USERS),
        "system": system,
        "input": expression,
        "label": None,
        "macro": None,
        "faces": faces,
        "outcome": "",
        "secret": rng.random() < 0.15,
        "created_at": NOW - timedelta(minutes=rng.randint(1, 3000)),
        "record": None,
        "salt": None,
        "commitment": None,
    }


def _migrate_with_log(url: str, count: int) -> None:
    async def log() -> None:
        engine = create_async_engine(url)
        rng = random.Random(4)
        try:
            async with engine.begin() as connection:
                await connection.execute(
                    insert(OLD_LOG), [_old_entry(id_, rng) for id_ in range(1, count + 1)]
                )
        finally:
            await engine.dispose()

    config = alembic_config(url)
    for head in ScriptDirectory.from_config(config).get_heads():
        if head != NEW:
            command.upgrade(config, head)
    asyncio.run(log())
    upgrade_to_head(url)


async def _check_backfill(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    db = Database(url)
    try:
        async with db.unit_of_work(read_only=True) as session:
            log = (await session.execute(select(RollLog))).scalars().all()
        assert len(log) == 2500
        for entry in log:
            counted = None if entry.secret else tally(entry.system, entry.input, entry.faces)
            assert (entry.tally_sides, entry.tally) == (counted or (None, None))
        await _compare(db, monkeypatch, limit=5000)
        await _compare(db, monkeypatch, limit=40)
    finally:
        await db.dispose()


async def test_the_migration_counts_the_rolls_logged_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = sqlite_url(tmp_path / "old.db")
    await asyncio.to_thread(_migrate_with_log, url, 2500)  # more than one batch
    await _check_backfill(url, monkeypatch)


@pytest.mark.postgres
async def test_the_migration_counts_the_rolls_logged_before_on_postgresql(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if not POSTGRES_URL:
        pytest.skip("TEST_DATABASE_URL is not set")
    name = f"narrator_{uuid.uuid4().hex[:12]}"
    await _postgres_admin(POSTGRES_URL, f'CREATE DATABASE "{name}"')
    try:
        url = POSTGRES_URL.rsplit("/", 1)[0] + f"/{name}"
        await asyncio.to_thread(_migrate_with_log, url, 2500)
        await _check_backfill(url, monkeypatch)
    finally:
        await _postgres_admin(POSTGRES_URL, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
