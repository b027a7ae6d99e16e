"""``narrator backup`` / ``narrator restore``, and the lock that keeps a restore off a live bot.

SQLite: a backup is made with SQLite's online backup API, which copies a consistent
snapshot page by page while the bot keeps writing (WAL mode). ``narrator run`` holds a shared
``flock`` on ``<database>.lock`` for as long as it runs; a restore takes the same lock
exclusively and refuses when it cannot, so it never overwrites a database a bot is using.
The kernel drops the lock when the process dies, even by ``kill -9``: no stale lock files.

PostgreSQL: ``pg_dump`` / ``pg_restore`` do this job better than we could; the commands are
printed with the connection details filled in.
"""

from __future__ import annotations

import fcntl
import shlex
import sqlite3
from pathlib import Path
from typing import IO

from sqlalchemy.engine import URL, make_url

from bot.hosting.config import ConfigError
from bot.hosting.errors import ServiceUnavailable


class RunLockError(ServiceUnavailable):
    """Another process holds the database's lock (it will let go: exit status 1)."""


def sqlite_path(database_url: str) -> Path | None:
    """The file behind an SQLite URL (None for PostgreSQL and in-memory databases)."""
    url = make_url(database_url)
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return None
    return Path(url.database).expanduser()


def lock_path(database: Path) -> Path:
    return database.with_name(database.name + ".lock")


def hold_run_lock(database_url: str) -> IO[bytes] | None:
    """For ``narrator run``: a shared lock held until the process ends (keep the handle).

    Several bot processes may share a database; a restore may not run beside any of them.
    """
    path = sqlite_path(database_url)
    if path is None:
        return None
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = open(lock_path(path), "ab")  # noqa: SIM115 (held for the process's life)
    try:
        fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise RunLockError(
            f"DATABASE_URL: {path} is being restored (narrator restore holds its lock)"
        ) from None
    return handle


def _pg_parts(url: URL) -> list[str]:
    parts = ["--host", url.host or "localhost", "--port", str(url.port or 5432)]
    if url.username:
        parts += ["--username", url.username]
    return parts


def pg_dump_command(database_url: str, target: Path) -> str:
    url = make_url(database_url)
    return shlex.join(
        ["pg_dump", "--format=custom", *_pg_parts(url), "--file", str(target), url.database or ""]
    )


def pg_restore_command(database_url: str, source: Path) -> str:
    url = make_url(database_url)
    return shlex.join(
        [
            "pg_restore",
            "--clean",
            "--if-exists",
            "--no-owner",
            *_pg_parts(url),
            "--dbname",
            url.database or "",
            str(source),
        ]
    )


def _copy(source: sqlite3.Connection, target: sqlite3.Connection) -> None:
    # 256 pages per step: the bot's writers get the database between steps (a write
    # between steps makes SQLite restart the copy, so the result is always one snapshot).
    source.backup(target, pages=256)


def backup(database_url: str, target: Path) -> str:
    """Copy the live SQLite database to ``target`` (which must not exist yet)."""
    source_path = sqlite_path(database_url)
    if source_path is None:
        raise ConfigError(
            "DATABASE_URL is PostgreSQL: back it up with pg_dump (set PGPASSWORD or use "
            f"~/.pgpass for the password):\n  {pg_dump_command(database_url, target)}"
        )
    if not source_path.exists():
        raise ConfigError(f"DATABASE_URL: {source_path} does not exist: nothing to back up")
    if target.exists():
        raise ConfigError(f"{target} exists already: choose a new file name")
    source = sqlite3.connect(f"file:{source_path}?mode=ro", uri=True)
    destination = sqlite3.connect(target)
    try:
        _copy(source, destination)
        destination.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
    finally:
        destination.close()
        source.close()
    return f"backed up {source_path} to {target} ({target.stat().st_size:,} bytes)"


def _check_backup(path: Path) -> None:
    if not path.is_file():
        raise ConfigError(f"{path} is not a file")
    try:
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            ok = connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            versioned = connection.execute(
                "SELECT count(*) FROM sqlite_master WHERE name = 'alembic_version'"
            ).fetchone()[0]
        finally:
            connection.close()
    except sqlite3.DatabaseError as error:
        raise ConfigError(f"{path} is not an SQLite database ({error})") from None
    if not ok:
        raise ConfigError(f"{path} fails SQLite's integrity check: not restoring it")
    if not versioned:
        raise ConfigError(f"{path} is not a Narrator database (no alembic_version table)")


def restore(database_url: str, source: Path) -> str:
    """Replace the SQLite database with ``source``, unless a running bot holds it."""
    target_path = sqlite_path(database_url)
    if target_path is None:
        raise ConfigError(
            "DATABASE_URL is PostgreSQL: stop the bot, then restore a pg_dump file with:\n  "
            + pg_restore_command(database_url, source)
        )
    _check_backup(source)
    target_path.parent.mkdir(parents=True, exist_ok=True)
    with open(lock_path(target_path), "ab") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RunLockError(
                f"a running narrator uses {target_path}: stop it first, then restore"
            ) from None
        backup_connection = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
        destination = sqlite3.connect(target_path)
        try:
            _copy(backup_connection, destination)
        finally:
            destination.close()
            backup_connection.close()
    return f"restored {target_path} from {source}"
