"""The hot queries read their plans: none scans a table that grows with a server's data.

Issue 31: cost must stay flat as the database grows (a server's years: a million rolls, a
hundred thousand characters). A query that reads a whole table is cheap on a test's empty
database and slow on that one, so each hot command of the load mix and of a session (/roll,
/sheet show and a sheet roll, /init start/add/join/next, /penalty, /macro, a panel button,
/dice stats, /history) runs here through SimCord like a user, every statement it sends is
captured, and each one's plan is read (``EXPLAIN QUERY PLAN`` on SQLite, ``EXPLAIN`` with
sequential scans discouraged on PostgreSQL, whose planner picks them on tiny tables): a full
scan of a growing table fails the test, naming the statement.
"""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import sqlite3
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from sqlalchemy import event
from sqlalchemy.engine import make_url

from bot import workers
from bot.services.standing import standing
from bot.storage import Database, one_statement
from bot.storage.migrate import upgrade_to_head
from bot.storage.one_statement import PreparedSelect
from bot.storage.repositories import characters as characters_repo
from tests.conftest import POSTGRES_URL, Table, sqlite_url

#: Tables whose rows grow with a server's use (every table but the schema's own bookkeeping):
#: a full scan of one of these is a query whose cost grows with the data.
SMALL_TABLES = {"alembic_version"}

#: Statements that are not hot and scan by design, with why (none today).
ALLOWED_SCANS: dict[str, str] = {}


@dataclass(frozen=True)
class Statement:
    """One statement a command sent, with its parameters, and which command sent it."""

    command: str
    sql: str
    parameters: Any


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database_url(
    request: pytest.FixtureRequest, tmp_path: Path, migrated_template: Path
) -> Iterator[str]:
    """The SimCord bot's database: SQLite, and PostgreSQL when TEST_DATABASE_URL is set."""
    if request.param == "sqlite":
        path = tmp_path / "narrator.db"
        shutil.copy(migrated_template, path)
        yield sqlite_url(path)
        return
    if not POSTGRES_URL:
        pytest.skip("TEST_DATABASE_URL is not set")
    name = f"narrator_{uuid.uuid4().hex[:12]}"
    asyncio.run(admin(POSTGRES_URL, f'CREATE DATABASE "{name}"'))
    url = POSTGRES_URL.rsplit("/", 1)[0] + f"/{name}"
    upgrade_to_head(url)
    try:
        yield url
    finally:
        asyncio.run(admin(POSTGRES_URL, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def dsn(url: str) -> str:
    """asyncpg's form of a SQLAlchemy URL."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


async def admin(url: str, statement: str) -> None:
    connection = await asyncpg.connect(dsn(url))
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


class Capture:
    """Every statement the bot's engine sends, tagged with the command being played."""

    def __init__(self) -> None:
        self.command = ""
        self.statements: list[Statement] = []

    def __call__(
        self, _conn: Any, _cursor: Any, sql: str, parameters: Any, _context: Any, many: bool
    ) -> None:
        if not many and sql.lstrip().upper().startswith(("SELECT", "UPDATE", "DELETE", "WITH")):
            self.statements.append(Statement(self.command, sql, parameters))


async def play_the_hot_commands(table: Table, capture: Capture) -> None:
    """A session's hot commands, each tagged: what the load mix sends and what a table does."""
    alice, bob, gm, channel = table.alice, table.bob, table.gm, table.channel

    async def run(tag: str, member: Any, name: str, /, **options: Any) -> Any:
        capture.command = tag
        return await member.slash(channel, name, **options)

    await run("/sheet create", alice, "sheet create", name="Hermione", system="coda")
    await run("/sheet set", alice, "sheet set", attribute="Agility", value=4)
    await run("/sheet set", alice, "sheet set", attribute="Swiftness", value=3)
    await run("/sheet create", bob, "sheet create", name="Peter", system="drama")
    await run("/sheet use", alice, "sheet use", character="Hermione")
    await run("/roll", bob, "roll", expression="4d6kh3 + 2", label="load")
    await run("/roll secret", bob, "roll", expression="1d20", secret=True)
    await run("/roll {sheet}", alice, "roll", expression="1d20 + {Agility}")
    await run("/sheet show", alice, "sheet show")
    await run("/init start", gm, "init start", system="coda")
    await run("/init add", gm, "init add", name="Goblin", roll=12, count=3)
    await run("/init join", alice, "init join")
    await run("/init next", gm, "init next")
    await run("/init next", gm, "init next")
    await run("/penalty add", gm, "penalty add", character="Peter", amount=1, reason="march")
    await run("/penalty show", bob, "penalty show")
    await run(
        "/macro save",
        alice,
        "macro save",
        name="quick",
        command="roll expression:1d20+{Agility}",
        scope="character",
    )
    await run("/macro run", alice, "macro run", name="quick")
    posted = await run("/sheet panel", alice, "sheet panel")
    capture.command = "panel button"
    await alice.click(posted.response, label="quick")
    await run("/dice stats", alice, "dice stats")
    await run("/dice stats player", alice, "dice stats", player=table.bob.user, since="24h")
    await run("/history", alice, "history")
    await run("/history", gm, "history", count=50)
    # What the fair-use limits read in a crowded channel (who is a GM, whose turn it is).
    capture.command = "rate limits' standing"
    await standing(table.bot.db, table.guild.id, channel.id)


def sqlite_scans(path: str, statement: Statement) -> list[str]:
    """The plan's full scans of growing tables (SQLite: ``SCAN <table>``, with or without an
    index: a scan reads every row or every index entry; ``SEARCH`` is a lookup)."""
    with sqlite3.connect(path) as connection:
        plan = connection.execute(
            f"EXPLAIN QUERY PLAN {statement.sql}", statement.parameters
        ).fetchall()
    scans = []
    for *_ids, detail in plan:
        found = re.match(r"SCAN (\w+)", detail)
        if found and found.group(1) not in SMALL_TABLES and _is_table(path, found.group(1)):
            scans.append(detail)
    return scans


def _is_table(path: str, name: str) -> bool:
    """A real table (not a subquery's or json_each's alias)."""
    with sqlite3.connect(path) as connection:
        row = connection.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)
        ).fetchone()
    return row is not None


async def postgres_scans(url: str, statement: Statement) -> list[str]:
    """The plan's full scans of growing tables, with sequential scans discouraged
    (``enable_seqscan = off``): a ``Seq Scan`` that stays has no index to use instead, and an
    index scan whose condition leaves out the index's first column walks the whole index (a
    B-tree has no skip scan in PostgreSQL 15)."""
    connection = await asyncpg.connect(dsn(url))
    try:
        await connection.execute("SET enable_seqscan = off")
        parameters = statement.parameters or ()
        plan = json.loads(
            await connection.fetchval(f"EXPLAIN (FORMAT JSON) {statement.sql}", *parameters)
        )
        leading = {
            row["index"]: (row["table"], row["column"])
            for row in await connection.fetch(LEADING_COLUMNS)
        }
    finally:
        await connection.close()
    return full_scans_in(plan[0]["Plan"], leading)


#: Each index's table and first column.
LEADING_COLUMNS = """
SELECT index.relname AS index, tab.relname AS table, a.attname AS column
FROM pg_index i
JOIN pg_class index ON index.oid = i.indexrelid
JOIN pg_class tab ON tab.oid = i.indrelid
JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
JOIN pg_namespace n ON n.oid = tab.relnamespace
WHERE n.nspname = 'public'
"""


def full_scans_in(node: dict[str, Any], leading: dict[str, tuple[str, str]]) -> list[str]:
    """The scan nodes of an ``EXPLAIN (FORMAT JSON)`` plan that read a growing table whole."""
    scans = []
    kind = node.get("Node Type", "")
    if kind == "Seq Scan" and node.get("Relation Name") not in SMALL_TABLES:
        scans.append(f"Seq Scan on {node.get('Relation Name')}")
    index = node.get("Index Name")
    if index is not None and kind in ("Index Scan", "Index Only Scan", "Bitmap Index Scan"):
        table, column = leading.get(index, ("?", "?"))
        condition = node.get("Index Cond") or ""
        if table not in SMALL_TABLES and not re.search(rf"\b{column}\b", condition):
            scans.append(f"{kind} using {index} on {table}: {condition or 'no condition'}")
    for child in node.get("Plans", []):
        scans.extend(full_scans_in(child, leading))
    return scans


@pytest.fixture
async def captured(table: Table, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Capture]:
    """Statements through SQLAlchemy's engine, and the one-statement reads that go to the
    driver directly (:func:`bot.storage.one_statement.select_rows`: ``/sheet show``)."""
    capture = Capture()
    engine = table.bot.db.engine.sync_engine
    original = one_statement.select_rows

    async def select_rows(db: Database, prepared: PreparedSelect, parameters: Any) -> list[Any]:
        compiled = prepared.compiled(db.engine.dialect)[0]
        sql, values = compiled.sql, compiled.parameters(parameters)
        capture.statements.append(Statement(capture.command, sql, values))
        return await original(db, prepared, parameters)

    for module in (one_statement, characters_repo):
        monkeypatch.setattr(module, "select_rows", select_rows)

    # On an SQLite file /dice stats adds up in a worker process (workers.read_sqlite): its
    # queries and their parameters are captured on the way there.
    run = workers.run

    async def run_in_worker(job: Any, arguments: dict[str, Any], **limits: Any) -> Any:
        if job is workers.read_sqlite:
            for sql, values in arguments["queries"]:
                capture.statements.append(Statement(capture.command, sql, tuple(values)))
        return await run(job, arguments, **limits)

    monkeypatch.setattr(workers, "run", run_in_worker)
    event.listen(engine, "before_cursor_execute", capture)
    try:
        yield capture
    finally:
        event.remove(engine, "before_cursor_execute", capture)


async def test_no_hot_query_scans_a_growing_table(table: Table, captured: Capture) -> None:
    await play_the_hot_commands(table, captured)
    commands = {s.command for s in captured.statements}
    # Every command was captured (a listener that saw nothing would pass vacuously).
    assert {
        "/roll {sheet}",
        "/sheet show",
        "/init next",
        "/penalty show",
        "/macro run",
        "panel button",
        "/history",
        "/dice stats",
        "rate limits' standing",
    } <= commands
    url = table.bot.db.url
    problems = []
    seen: set[str] = set()
    for statement in captured.statements:
        if statement.sql in seen or statement.sql in ALLOWED_SCANS:
            continue
        seen.add(statement.sql)
        if table.bot.db.is_sqlite:
            scans = sqlite_scans(str(make_url(url).database), statement)
        else:
            scans = await postgres_scans(url, statement)
        if scans:
            problems.append(f"{statement.command}: {scans}\n  {' '.join(statement.sql.split())}")
    assert not problems, "full scans of growing tables:\n" + "\n".join(problems)


def test_a_full_scan_is_caught(tmp_path: Path, migrated_template: Path) -> None:
    """The check itself: a query with no usable index reads as a scan, an indexed one not."""
    path = tmp_path / "plans.db"
    shutil.copy(migrated_template, path)
    by_outcome = Statement("probe", "SELECT id FROM roll_log WHERE outcome = ?", ("x",))
    by_channel = Statement(
        "probe", "SELECT id FROM roll_log WHERE channel_id = ? ORDER BY id DESC LIMIT 5", (1,)
    )
    assert sqlite_scans(str(path), by_outcome) == ["SCAN roll_log"]
    assert sqlite_scans(str(path), by_channel) == []


def test_a_postgres_full_scan_is_caught() -> None:
    """PostgreSQL's plans as EXPLAIN (FORMAT JSON) gives them: a lookup by the index's first
    column passes; a condition on its second column only, or a sequential scan, does not."""
    leading = {"uq_characters_guild_id": ("characters", "guild_id")}
    lookup = {
        "Node Type": "Index Scan",
        "Index Name": "uq_characters_guild_id",
        "Index Cond": "((guild_id = $1) AND (owner_id = $2))",
    }
    walk = {**lookup, "Index Cond": "(owner_id = ANY ($1))"}
    sequential = {"Node Type": "Seq Scan", "Relation Name": "macros"}
    assert full_scans_in({"Node Type": "Limit", "Plans": [lookup]}, leading) == []
    assert full_scans_in(walk, leading) == [
        "Index Scan using uq_characters_guild_id on characters: (owner_id = ANY ($1))"
    ]
    assert full_scans_in(sequential, leading) == ["Seq Scan on macros"]
