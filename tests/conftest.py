"""Shared fixtures: a migrated database per test, the bot under SimCord, and a table of players.

Tests use SQLite by default. When ``TEST_DATABASE_URL`` is set (``.ci/run`` sets it when
PostgreSQL answers), tests that take the ``any_database_url`` fixture run on both.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

import tests.hypothesis_profiles  # noqa: F401 - registers and loads Hypothesis' profiles
from bot import workers
from bot.app import NarratorBot, create_bot
from bot.gateway import user_message
from bot.hosting.config import Settings
from bot.i18n import available_languages
from bot.render.charts import Chart, Panel, Series, draw
from bot.storage import Database
from bot.storage.migrate import upgrade_to_head
from engine.dice import Dice, SeededDice

POSTGRES_URL = os.environ.get("TEST_DATABASE_URL")


#: SimCord's settle timeout (real seconds it waits for the bot to finish an interaction's
#: work) is only a failsafe here: a loaded machine is slow, never wrong. Its default, 5 s, was.
SIMCORD_SETTLE_TIMEOUT = 120.0

#: How often SimCord re-checks, while settling, a finished task's callback that is still
#: pending (real seconds): its default, 50 ms, made every such step of every interaction
#: wait 50 ms instead of about 1. Only the polling changes: it settles at the same point.
SETTLE_POLL = 0.002


def _patient_settling() -> None:
    """SimCord waits a fixed 5 s (real time) for the bot to settle when it attaches it; no
    wait in a test may be shorter than the env's own settle timeout (a failsafe). And it
    re-checks every ``SETTLE_POLL``: half of a SimCord test's time was these 50 ms polls
    (tests/bot/cogs/coda and drama: 60 s, 31 s with 2 ms, the same CPU time)."""
    from simcord.env import Env

    original = Env._settle_internal
    if getattr(original, "narrator_patient", False):
        return

    async def settle(self: Env, *, timeout: float | None = None, **kwargs: Any) -> None:  # noqa: ASYNC109 - SimCord's signature
        if timeout is not None:
            timeout = max(timeout, self.settle_timeout)
        kwargs["idle"] = min(kwargs.get("idle", SETTLE_POLL), SETTLE_POLL)
        await original(self, timeout=timeout, **kwargs)

    settle.narrator_patient = True  # type: ignore[attr-defined]
    Env._settle_internal = settle  # type: ignore[method-assign]


_patient_settling()


def _translated_once() -> None:
    """Every SimCord test starts a bot that syncs its command tree, and discord.py asks the
    translator for each description and choice in every one of Discord's ~30 locales: some
    38,000 calls, about half of a SimCord test's own time. The bots of a session build the
    same commands, so a top-level command's translated payload is computed once, by the real
    code, and given again (a fresh copy) to a later bot whose command says the same in
    English, to the same kind of translator, over the same catalogs. A command that differs
    in anything Discord is sent (a name, a description, an option, a choice) is translated
    anew; the memo starts again when the catalogs are reloaded (a test that adds or edits a
    language clears the cached language list, and a new list is a new object)."""
    if getattr(app_commands.Command.get_translated_payload, "narrator_once", False):
        return
    memo: dict[tuple[Any, ...], str] = {}
    loaded: list[tuple[str, ...]] = [available_languages()]

    for kind in (app_commands.Command, app_commands.Group, app_commands.ContextMenu):
        original = kind.get_translated_payload

        async def translated(
            self: Any,
            tree: app_commands.CommandTree,
            translator: app_commands.Translator,
            *,
            _original: Any = original,
        ) -> dict[str, Any]:
            languages = available_languages()
            if languages is not loaded[0]:
                memo.clear()
                loaded[0] = languages
            english = json.dumps(self.to_dict(tree), sort_keys=True, default=repr)
            key = (type(self), type(translator), english)
            if key not in memo:
                memo[key] = json.dumps(await _original(self, tree, translator))
            return json.loads(memo[key])  # type: ignore[no-any-return]

        translated.narrator_once = True  # type: ignore[attr-defined]
        kind.get_translated_payload = translated  # type: ignore[method-assign]


_translated_once()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Give every SimCord test the failsafe settle timeout (a test's own simcord options win)."""
    for item in items:
        if "simcord_env" not in getattr(item, "fixturenames", ()):
            continue
        marker = item.get_closest_marker("simcord")
        options = {"settle_timeout": SIMCORD_SETTLE_TIMEOUT, **(marker.kwargs if marker else {})}
        item.add_marker(pytest.mark.simcord(**options))


def sqlite_url(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


@pytest.fixture(scope="session")
def migrated_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One SQLite file migrated to head, copied for each test (migrating is the slow part)."""
    path = tmp_path_factory.mktemp("template") / "template.db"
    upgrade_to_head(sqlite_url(path))
    return path


@pytest.fixture
def database_url(tmp_path: Path, migrated_template: Path) -> str:
    """A fresh, migrated SQLite database for this test."""
    path = tmp_path / "narrator.db"
    shutil.copy(migrated_template, path)
    return sqlite_url(path)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def any_database_url(request: pytest.FixtureRequest, database_url: str) -> Iterator[str]:
    """The SQLite database, and a fresh PostgreSQL database when TEST_DATABASE_URL is set."""
    if request.param == "sqlite":
        yield database_url
        return
    if not POSTGRES_URL:
        pytest.skip("TEST_DATABASE_URL is not set")
    name = f"narrator_{uuid.uuid4().hex[:12]}"
    asyncio.run(_postgres_admin(POSTGRES_URL, f'CREATE DATABASE "{name}"'))
    url = POSTGRES_URL.rsplit("/", 1)[0] + f"/{name}"
    upgrade_to_head(url)
    try:
        yield url
    finally:
        asyncio.run(_postgres_admin(POSTGRES_URL, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@contextlib.asynccontextmanager
async def empty_postgres() -> AsyncIterator[str]:
    """The URL of a new, empty PostgreSQL database (not migrated), dropped afterwards."""
    assert POSTGRES_URL is not None
    name = f"narrator_{uuid.uuid4().hex[:12]}"
    await _postgres_admin(POSTGRES_URL, f'CREATE DATABASE "{name}"')
    try:
        yield POSTGRES_URL.rsplit("/", 1)[0] + f"/{name}"
    finally:
        await _postgres_admin(POSTGRES_URL, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


async def _postgres_admin(url: str, statement: str) -> None:
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    engine = create_async_engine(url, isolation_level="AUTOCOMMIT")
    try:
        async with engine.connect() as connection:
            await connection.execute(text(statement))
    finally:
        await engine.dispose()


@pytest.fixture(scope="session", autouse=True)
def worker_processes() -> Iterator[None]:
    """The bot's worker processes live for the whole session (tests' bots leave them
    running: ``end_workers=False``), and end with it."""
    yield
    asyncio.run(workers.shutdown())


@pytest.fixture(scope="session")
def warm_charts(worker_processes: None) -> None:
    """Draw one chart in a worker before SimCord starts: a worker's start and matplotlib's
    first import (seconds on a loaded machine, once per worker) would otherwise count against
    its 5 s settle timeout."""
    chart = Chart("warm-up", (Panel("", ("1",), (Series("", (1.0,)),)),))
    asyncio.run(workers.run(draw, {"chart": chart}, budget=120))


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[Database]:
    database = Database(database_url)
    try:
        yield database
    finally:
        await database.dispose()


@pytest.fixture
async def any_db(any_database_url: str) -> AsyncIterator[Database]:
    """A :class:`Database` on ``any_database_url`` (SQLite, and PostgreSQL when configured)."""
    database = Database(any_database_url)
    try:
        yield database
    finally:
        await database.dispose()


@pytest.fixture
def settings(database_url: str) -> Settings:
    # No rate limits: a test plays a whole session in a second (tests/bot/cogs/test_fair_use.py
    # turns them on, with a clock it controls).
    return Settings(  # type: ignore[call-arg]
        _env_file=None,
        DATABASE_URL=database_url,
        RATE_USER_BURST=0,
        RATE_CHANNEL_BURST=0,
        RATE_AUTOCOMPLETE_BURST=0,
    )


@pytest.fixture
def dice() -> Dice:
    """Seeded by default; a test pins faces with ``simcord_env.bot.dice = ScriptedDice([...])``."""
    return SeededDice(20261121)


@pytest.fixture
async def simcord_bot(settings: Settings, dice: Dice) -> AsyncIterator[NarratorBot]:
    bot = create_bot(settings, dice=dice, sync_globally=True, end_workers=False)
    yield bot
    # Close the pool on this test's loop: a connection left to the garbage collector would
    # answer from aiosqlite's thread after the loop has closed.
    await bot.db.dispose()


@dataclass
class Table:
    """A guild with a #table channel, a GM (by role) and three players."""

    env: Any
    guild: Any
    channel: Any
    gm: Any
    alice: Any
    bob: Any
    carol: Any
    gm_role: Any
    bug_cursor: int = 0

    @property
    def bot(self) -> NarratorBot:
        return self.env.bot

    def acknowledge_bugs(self) -> list[BaseException]:
        """The errors so far, accepted: for tests that provoke a bug on purpose."""
        errors = list(self.env.errors_since(self.bug_cursor))
        self.bug_cursor = self.env.error_cursor
        return errors


@pytest.fixture
async def table(simcord_env: Any) -> AsyncIterator[Table]:
    guild = simcord_env.create_guild("Campaign")
    channel = guild.create_text_channel("table")
    gm_role = guild.create_role("GM")
    gm = guild.add_member(simcord_env.create_user("gm"), roles=[gm_role])
    alice = guild.add_member(simcord_env.create_user("alice"))
    bob = guild.add_member(simcord_env.create_user("bob"))
    carol = guild.add_member(simcord_env.create_user("carol"))
    table = Table(simcord_env, guild, channel, gm, alice, bob, carol, gm_role)
    first = simcord_env.bot
    yield table
    if simcord_env.bot is not first:  # a test restarted the bot: the new one's pool too
        await simcord_env.bot.db.dispose()
    # SimCord fails a test for every error that reached the tree's on_error. Errors meant for
    # the user (UserError, InputError...) are answered there by design; only bugs fail a test.
    errors = simcord_env.errors_since(table.bug_cursor)
    simcord_env.errors  # noqa: B018 - reading acknowledges them for SimCord's own check
    bugs = [error for error in errors if user_message(error) is None]
    if bugs:
        raise bugs[0]


def embed_of(result: Any, index: int = 0) -> discord.Embed:
    """The ``index``-th embed of an interaction's first reply (response or follow-up)."""
    message = result.response or result.followups[0]
    return message.embeds[index]


def text_of(result: Any) -> str:
    """Every piece of text of an interaction's replies, for ``in`` assertions."""
    parts = []
    for message in [result.response, *result.followups]:
        if message is None:
            continue
        parts.append(message.content or "")
        for embed in message.embeds:
            data = embed.to_dict()
            parts.extend(str(data.get(key, "")) for key in ("title", "description"))
            parts.extend(f"{f['name']} {f['value']}" for f in data.get("fields", []))
            parts.append(str(data.get("footer", {}).get("text", "")))
    return "\n".join(parts)


@pytest.fixture
def as_spanish(monkeypatch: pytest.MonkeyPatch) -> Any:
    """``as_spanish(user)``: every later interaction of that SimCord user carries locale es-ES.

    SimCord writes ``"locale": "en-US"`` into every INTERACTION_CREATE payload (slash
    commands, autocomplete, buttons, selects, modals); this wraps its payload builder so the
    chosen users' interactions carry a Spanish Discord client instead, as a real Spanish
    client sends. ``as_spanish(user, locale="es-419")`` picks another locale. Returns the
    user, so ``alice = as_spanish(table.alice)`` reads naturally.
    """
    from simcord import interactions

    locales: dict[int, str] = {}
    original = interactions.base_payload

    def base_payload(*args: Any, **kwargs: Any) -> Any:
        record, payload = original(*args, **kwargs)
        locale = locales.get(int(kwargs["user_id"]))
        if locale is not None:
            payload["locale"] = locale
        return record, payload

    monkeypatch.setattr(interactions, "base_payload", base_payload)

    def choose(user: Any, locale: str = "es-ES") -> Any:
        locales[int(user.id)] = locale
        return user

    return choose


@pytest.fixture
async def hanging_workers() -> AsyncIterator[workers.WorkerPool]:
    """Worker processes whose every job hangs: any budget is overrun, however fast the
    machine (the ``NARRATOR_WORKER_TEST_HANG`` hook)."""
    pool = workers.WorkerPool(1, env={**os.environ, "NARRATOR_WORKER_TEST_HANG": "1"})
    previous = workers.install(pool)
    try:
        yield pool
    finally:
        workers.install(previous)
        await pool.shutdown()
