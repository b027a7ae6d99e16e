"""The read-only SQLite job (``workers.read_sqlite``): every query's rows from one snapshot,
and a connection that cannot write, whatever SQL it is given."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.storage import Database
from bot.workers import read_sqlite


def _log(path: Path) -> None:
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("CREATE TABLE rolls (sides INTEGER, face INTEGER)")
        connection.executemany("INSERT INTO rolls VALUES (?, ?)", [(6, 1), (6, 6), (20, 3)])
    connection.close()


def test_every_query_answers_in_order(tmp_path: Path) -> None:
    _log(tmp_path / "log.db")
    count, faces = read_sqlite(
        str(tmp_path / "log.db"),
        [
            ("SELECT sides, count(*) FROM rolls GROUP BY sides ORDER BY sides", ()),
            ("SELECT face FROM rolls WHERE sides = ? ORDER BY face", (6,)),
        ],
    )
    assert count == [(6, 2), (20, 1)] and faces == [(1,), (6,)]


def test_it_cannot_write(tmp_path: Path) -> None:
    _log(tmp_path / "log.db")
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        read_sqlite(str(tmp_path / "log.db"), [("DELETE FROM rolls", ())])
    (rows,) = read_sqlite(str(tmp_path / "log.db"), [("SELECT count(*) FROM rolls", ())])
    assert rows == [(3,)]


def test_it_never_creates_a_database(tmp_path: Path) -> None:
    with pytest.raises(sqlite3.OperationalError):
        read_sqlite(str(tmp_path / "missing.db"), [("SELECT 1", ())])
    assert not (tmp_path / "missing.db").exists()


async def test_only_an_sqlite_file_can_be_read_by_another_process(tmp_path: Path) -> None:
    on_file = Database(f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
    in_memory = Database("sqlite+aiosqlite://")
    on_a_server = Database("postgresql+asyncpg://narrator@127.0.0.1/narrator")  # never used
    try:
        assert on_file.sqlite_file == str((tmp_path / "bot.db").resolve())
        assert in_memory.sqlite_file is None
        assert on_a_server.sqlite_file is None
    finally:
        for db in (on_file, in_memory, on_a_server):
            await db.dispose()
