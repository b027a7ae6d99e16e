"""``narrator backup`` / ``narrator restore``, and the lock that keeps a restore off a live bot.

SQLite: a backup is made with SQLite's online backup API, every page in one step, so the
copy is one consistent snapshot while the bot keeps writing (WAL mode). A restore puts back
only a file that is exactly a database this Narrator made (:mod:`bot.hosting.restorable`)
and keeps the database it replaces beside it. ``narrator run`` holds a shared
``flock`` on ``<database>.lock`` for as long as it runs; a restore takes the same lock
exclusively and refuses when it cannot, so it never overwrites a database a bot is using.
The kernel drops the lock when the process dies, even by ``kill -9``: no stale lock files.

PostgreSQL: ``pg_dump`` / ``pg_restore`` do this job; the commands are printed with the
connection details filled in, and a restore is refused with the steps after what can be
told from the dump file (:mod:`bot.hosting.pg_dumps`).
"""

from __future__ import annotations

import fcntl
import os
import shlex
import shutil
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import IO
from urllib.parse import quote

from sqlalchemy.engine import make_url

from bot.hosting.config import ConfigError
from bot.hosting.errors import ServiceUnavailable, safe_url
from bot.hosting.pg_dumps import pg_dump_command, refusal
from bot.hosting.restorable import check_restorable


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


def _is_sqlite_file(path: Path) -> bool:
    """Whether ``path`` starts as every SQLite database file does."""
    try:
        with path.open("rb") as file:
            return file.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


def _read_only(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True)


def _copy(source: sqlite3.Connection, target: sqlite3.Connection) -> None:
    # Every page in one step, under one read transaction: in WAL mode the bot keeps writing
    # meanwhile (only checkpoints wait). Copying in several steps let each write between
    # two steps restart the copy, so a busy bot's backup never finished.
    source.backup(target, pages=-1)


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
    source = _read_only(source_path)
    try:
        destination = sqlite3.connect(target)
        try:
            _copy(source, destination)
            destination.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
        finally:
            destination.close()
    except BaseException:
        target.unlink(missing_ok=True)  # never leave half a backup behind
        raise
    finally:
        source.close()
    return f"backed up {source_path} to {target} ({target.stat().st_size:,} bytes)"


def restore(database_url: str, source: Path) -> str:
    """Replace the SQLite database with ``source`` if it is exactly a Narrator database.

    The file is copied beside the database first and the copy is checked
    (:mod:`bot.hosting.restorable`), so what was checked is what is put in place; the
    database it replaces is kept beside it under a timestamped name.
    """
    target = sqlite_path(database_url)
    if target is None and _is_sqlite_file(source):
        raise ConfigError(
            f"{source} is an SQLite backup: it cannot be restored onto PostgreSQL "
            "(DATABASE_URL). To move its data into an empty PostgreSQL database, copy it:\n  "
            + shlex.join(
                [f"DATABASE_URL=sqlite+aiosqlite:///{source.resolve()}", "narrator", "copy-db"]
            )
            + " --to "
            + shlex.quote(safe_url(database_url))
            + "\n(with the password in place of ***; see docs/hosting.md, copy-db)"
        )
    if target is None:
        raise ConfigError(refusal(database_url, source))
    if not source.is_file():
        raise ConfigError(f"{source} is not a file")
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(lock_path(target), "ab") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RunLockError(
                f"a running narrator uses {target}: stop it first, then restore"
            ) from None
        staged = target.with_name(target.name + ".restoring")
        try:
            _stage(source, staged)
            checked = check_restorable(staged, source)
            kept = _keep(target)
            os.replace(staged, target)
            _sync_directory(target.parent)
        finally:
            staged.unlink(missing_ok=True)
    lines = [f"restored {target} from {source}"]
    lines.append(
        f"the database it replaced is kept as {kept}"
        if kept
        else "there was no database to replace"
    )
    if not checked.at_head:
        lines.append(
            f"{source} is at an older schema ({', '.join(sorted(checked.revisions))}): "
            "narrator run upgrades it at start (or narrator migrate now)"
        )
    return "\n".join(lines)


def _stage(source: Path, staged: Path) -> None:
    """Copy ``source`` to ``staged`` as one self-contained file (no -wal beside it)."""
    staged.unlink(missing_ok=True)
    try:
        reader = _read_only(source)
        try:
            writer = sqlite3.connect(staged)
            try:
                _copy(reader, writer)
                writer.execute("PRAGMA journal_mode=DELETE")
            finally:
                writer.close()
        finally:
            reader.close()
    except sqlite3.DatabaseError as error:
        if error.sqlite_errorcode == sqlite3.SQLITE_NOTADB:
            raise ConfigError(f"{source} is not an SQLite database ({error})") from None
        raise ConfigError(
            f"{source} fails SQLite's integrity check ({error}): not restoring it"
        ) from None


def _keep(database: Path) -> Path | None:
    """Keep the database about to be replaced as ``<name>.before-restore-<UTC time>``.

    Its write-ahead log is folded in first, so the kept copy is one file and no old -wal is
    left to be read with the restored database. A hard link keeps it without copying; the
    restored file then takes the name by one atomic rename.
    """
    if not database.exists():
        return None
    try:
        connection = sqlite3.connect(database)
        try:
            connection.execute("PRAGMA journal_mode=DELETE")  # checkpoints and drops the -wal
        finally:
            connection.close()
    except sqlite3.Error:
        pass  # not readable as SQLite: its side files go with it below, as they are
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    kept = database.with_name(f"{database.name}.before-restore-{stamp}")
    number = 1
    while kept.exists():
        number += 1
        kept = database.with_name(f"{database.name}.before-restore-{stamp}-{number}")
    for suffix in ("-wal", "-journal"):
        side = database.with_name(database.name + suffix)
        if side.exists():
            os.replace(side, kept.with_name(kept.name + suffix))
    database.with_name(database.name + "-shm").unlink(missing_ok=True)
    try:
        os.link(database, kept)
    except OSError:  # a file system without hard links
        shutil.copy2(database, kept)
    return kept


def _sync_directory(directory: Path) -> None:
    """Make the renames in ``directory`` durable."""
    descriptor = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
