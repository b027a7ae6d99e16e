"""Run Alembic migrations from code: at bot start-up, by ``narrator migrate`` and in tests."""

from __future__ import annotations

import asyncio
import fcntl
from collections.abc import Iterator
from contextlib import contextmanager
from importlib.resources import files
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool

# The migrations ship inside the package (package data), so an installed wheel finds them
# wherever it lives; no alembic.ini is needed at run time.
MIGRATIONS = Path(str(files("bot.storage") / "migrations"))

#: The PostgreSQL advisory lock every migrating process takes (any constant of our own).
MIGRATION_LOCK_KEY = 0x6E61_7272_6174_6F72  # "narrator"


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    # Percent signs in passwords would otherwise be read as interpolation.
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    config.attributes["configure_logger"] = False
    return config


def upgrade_to_head(url: str) -> None:
    """Upgrade to every head: features add migrations on branches of their own.

    Any number of processes may call this at once on one database (several bot processes
    starting together): they take turns under a lock, and each one after the first finds
    the schema at head and changes nothing.
    """
    with migration_lock(url):
        command.upgrade(alembic_config(url), "heads")


@contextmanager
def migration_lock(url: str) -> Iterator[None]:
    """Hold the database's migration lock: an advisory lock on PostgreSQL, a file lock next
    to a SQLite file (a SQLite write lock would also block Alembic's own connection)."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "postgresql":
        with _advisory_lock(url):
            yield
        return
    database = parsed.database
    if not database or database == ":memory:" or database.startswith("file:"):
        yield  # nobody else can see this database
        return
    path = Path(database).expanduser().resolve()
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".migrate-lock"), "a") as lock_file:
        fcntl.flock(lock_file, fcntl.LOCK_EX)  # released when the file closes
        yield


@contextmanager
def _advisory_lock(url: str) -> Iterator[None]:
    # Alembic runs its own event loop (migrations/env.py) in this thread, so the lock's
    # connection lives on a loop of its own, idle while the upgrade runs.
    loop = asyncio.new_event_loop()
    engine = create_async_engine(url, poolclass=NullPool, isolation_level="AUTOCOMMIT")
    try:
        connection = loop.run_until_complete(engine.connect())
        try:
            lock = text("SELECT pg_advisory_lock(:key)")
            loop.run_until_complete(connection.execute(lock, {"key": MIGRATION_LOCK_KEY}))
            yield
        finally:
            # Closing the session releases the lock, even if the unlock is never sent.
            loop.run_until_complete(connection.close())
    finally:
        loop.run_until_complete(engine.dispose())
        loop.close()
