"""``narrator backup`` / ``restore``: a consistent copy of a live database, and no restore
under a running bot."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from bot.cli import main
from bot.hosting.backup import (
    RunLockError,
    backup,
    hold_run_lock,
    pg_dump_command,
    restore,
    sqlite_path,
)
from bot.hosting.config import ConfigError


def path_of(url: str) -> Path:
    path = sqlite_path(url)
    assert path is not None
    return path


def test_backup_of_a_live_database_is_consistent(database_url: str, tmp_path: Path) -> None:
    live = sqlite3.connect(path_of(database_url), check_same_thread=False)
    live.execute("PRAGMA journal_mode=WAL")
    live.execute("CREATE TABLE filler (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER)")
    live.commit()
    stop = threading.Event()

    def write() -> None:
        # Each transaction writes two rows with a == b: a torn copy would break the pairs.
        n = 0
        while not stop.is_set():
            n += 1
            with live:
                live.executemany("INSERT INTO filler (a, b) VALUES (?, ?)", [(n, n), (n, n)])

    writer = threading.Thread(target=write)
    writer.start()
    try:
        copies = [tmp_path / f"copy{i}.db" for i in range(3)]
        for copy in copies:
            backup(database_url, copy)
    finally:
        stop.set()
        writer.join()
        live.close()
    for copy in copies:
        connection = sqlite3.connect(copy)
        try:
            assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
            rows = connection.execute("SELECT a, count(*) FROM filler GROUP BY a").fetchall()
            assert all(count == 2 for _a, count in rows)
            assert connection.execute("SELECT count(*) FROM alembic_version").fetchone()[0] > 0
        finally:
            connection.close()


def test_backup_refuses_to_overwrite(database_url: str, tmp_path: Path) -> None:
    target = tmp_path / "exists.db"
    target.write_text("keep me")
    with pytest.raises(ConfigError, match="exists already"):
        backup(database_url, target)
    assert target.read_text() == "keep me"


def test_postgres_gets_the_pg_dump_command(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    url = "postgresql+asyncpg://narrator:secret@db.example:6543/narrator"
    assert pg_dump_command(url, Path("/backups/n.dump")) == (
        "pg_dump --format=custom --host db.example --port 6543 --username narrator "
        "--file /backups/n.dump narrator"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_URL", url)
    assert main(["backup", "n.dump"]) == 2
    err = capsys.readouterr().err
    assert "pg_dump --format=custom" in err and "secret" not in err
    assert main(["restore", "n.dump"]) == 2
    assert "pg_restore --clean" in capsys.readouterr().err


def _marked(url: str) -> bool:
    """Whether the database has the marker table (made after the backup, gone on restore)."""
    connection = sqlite3.connect(path_of(url))
    try:
        return bool(
            connection.execute(
                "SELECT count(*) FROM sqlite_master WHERE name = 'marker'"
            ).fetchone()[0]
        )
    finally:
        connection.close()


def _mark(url: str) -> None:
    connection = sqlite3.connect(path_of(url))
    try:
        connection.execute("CREATE TABLE marker (x)")
    finally:
        connection.close()


def test_restore_brings_the_backup_back(database_url: str, tmp_path: Path) -> None:
    saved = tmp_path / "saved.db"
    backup(database_url, saved)
    _mark(database_url)
    assert _marked(database_url)
    assert "restored" in restore(database_url, saved)
    assert not _marked(database_url)


def test_restore_refuses_while_a_bot_holds_the_database(database_url: str, tmp_path: Path) -> None:
    saved = tmp_path / "saved.db"
    backup(database_url, saved)
    _mark(database_url)
    lock = hold_run_lock(database_url)  # what `narrator run` holds while it runs
    try:
        with pytest.raises(RunLockError, match="running narrator uses"):
            restore(database_url, saved)
        second = hold_run_lock(database_url)  # another bot process may share the database
        assert second is not None
        second.close()
    finally:
        assert lock is not None
        lock.close()
    assert _marked(database_url)  # untouched
    restore(database_url, saved)
    assert not _marked(database_url)


def test_restore_refuses_what_is_not_a_narrator_backup(database_url: str, tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    with pytest.raises(ConfigError, match="not an SQLite database"):
        restore(database_url, text)
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
    with pytest.raises(ConfigError, match="not a Narrator database"):
        restore(database_url, other)
    with pytest.raises(ConfigError, match="not a file"):
        restore(database_url, tmp_path / "missing.db")
