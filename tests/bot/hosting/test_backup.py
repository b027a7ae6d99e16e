"""``narrator backup`` / ``restore``: a consistent copy of a live database, and no restore
under a running bot."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from alembic import command

from bot.cli import main
from bot.hosting.backup import (
    RunLockError,
    backup,
    hold_run_lock,
    restore,
    sqlite_path,
)
from bot.hosting.config import ConfigError
from bot.hosting.pg_dumps import pg_dump_command
from bot.storage.migrate import alembic_config


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
    (tmp_path / "n.dump").write_bytes(b"not a dump")
    assert main(["restore", "n.dump"]) == 2
    err = capsys.readouterr().err
    # Not a dump: said in one line (or, without pg_restore here, the steps are given).
    assert "n.dump is not a dump pg_restore can read" in err or "not inspected" in err
    assert main(["restore", "missing.dump"]) == 2
    assert "missing.dump is not a file" in capsys.readouterr().err


def test_an_sqlite_backup_onto_postgres_points_at_copy_db(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    backup = tmp_path / "narrator-backup.db"
    sqlite3.connect(backup).execute("CREATE TABLE t (x)").connection.close()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_URL", "postgresql+asyncpg://narrator:secret@db.example/narrator")
    assert main(["restore", str(backup)]) == 2
    err = capsys.readouterr().err
    assert "is an SQLite backup: it cannot be restored onto PostgreSQL" in err
    assert f"DATABASE_URL=sqlite+aiosqlite:///{backup} narrator copy-db --to" in err
    assert "pg_restore" not in err and "secret" not in err


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


def test_backup_finishes_on_a_busy_database(database_url: str, tmp_path: Path) -> None:
    """50 MB while another connection writes about 50 times a second: the copy is one step
    under one read transaction, so writes do not restart it."""
    live = sqlite3.connect(path_of(database_url), check_same_thread=False)
    live.execute("PRAGMA journal_mode=WAL")
    live.execute("CREATE TABLE blobs (id INTEGER PRIMARY KEY, data BLOB)")
    live.execute("CREATE TABLE filler (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER)")
    live.execute(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50) "
        "INSERT INTO blobs (data) SELECT randomblob(1024 * 1024) FROM n"
    )
    live.commit()
    stop = threading.Event()
    writes = 0

    def write() -> None:
        nonlocal writes
        while not stop.wait(0.02):
            writes += 1
            with live:
                live.executemany("INSERT INTO filler (a, b) VALUES (?, ?)", [(writes, writes)] * 2)
                live.execute(
                    "UPDATE blobs SET data = randomblob(4096) WHERE id = ?", (writes % 50 + 1,)
                )

    copy = tmp_path / "busy.db"
    outcome: list[BaseException | str] = []

    def run_backup() -> None:
        try:
            outcome.append(backup(database_url, copy))
        except BaseException as error:  # reported by the assertion below
            outcome.append(error)

    writer = threading.Thread(target=write)
    writer.start()
    try:
        worker = threading.Thread(target=run_backup, daemon=True)
        worker.start()
        worker.join(timeout=300)  # a failsafe only: the old paged copy never finished
    finally:
        stop.set()
        writer.join()
        live.close()
    assert outcome and isinstance(outcome[0], str), outcome or "backup still running"
    assert writes > 0
    connection = sqlite3.connect(copy)
    try:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert connection.execute("SELECT count(*) FROM blobs").fetchone()[0] == 50
        rows = connection.execute("SELECT a, count(*) FROM filler GROUP BY a").fetchall()
        assert all(count == 2 for _a, count in rows)
    finally:
        connection.close()


def _run(path: Path, *statements: str) -> None:
    connection = sqlite3.connect(path)
    try:
        for statement in statements:
            connection.execute(statement)
        connection.commit()
    finally:
        connection.close()


def _saved(database_url: str, tmp_path: Path, *statements: str) -> Path:
    """A backup of the test database, then changed by ``statements``."""
    saved = tmp_path / "saved.db"
    backup(database_url, saved)
    _run(saved, *statements)
    return saved


def _only_alembic_version(database_url: str, tmp_path: Path) -> Path:
    heads = sqlite3.connect(path_of(database_url)).execute(
        "SELECT version_num FROM alembic_version"
    )
    path = tmp_path / "only-version.db"
    _run(
        path,
        "CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL, "
        "CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num))",
        *(f"INSERT INTO alembic_version VALUES ('{row[0]}')" for row in heads),
    )
    return path


def _corrupt(database_url: str, tmp_path: Path) -> Path:
    """A backup whose index on roll_log has a broken page."""
    saved = _saved(database_url, tmp_path)
    connection = sqlite3.connect(saved)
    page_size = connection.execute("PRAGMA page_size").fetchone()[0]
    root = connection.execute(
        "SELECT rootpage FROM sqlite_master WHERE name = 'ix_roll_log_channel_id_id'"
    ).fetchone()[0]
    connection.close()
    with open(saved, "r+b") as file:
        file.seek((root - 1) * page_size)
        file.write(b"\x07" * 64)  # not a b-tree page type
    return saved


def _rewritten(database_url: str, tmp_path: Path, table: str, old: str, new: str) -> Path:
    """A backup with ``old`` replaced by ``new`` in ``table``'s CREATE TABLE, as an editor
    with ``writable_schema`` could (the rows stay valid, so the integrity check passes)."""
    return _saved(
        database_url,
        tmp_path,
        "PRAGMA writable_schema=ON",
        f"UPDATE sqlite_master SET sql = replace(sql, '{old}', '{new}') WHERE name = '{table}'",
    )


REFUSED: dict[str, tuple[Callable[[str, Path], Path], str]] = {
    "only alembic_version": (_only_alembic_version, "missing tables .*characters.*roll_log"),
    "a trigger": (
        lambda url, tmp: _saved(
            url,
            tmp,
            "CREATE TRIGGER wipe AFTER INSERT ON roll_log BEGIN DELETE FROM characters; END",
        ),
        "unexpected trigger wipe on roll_log",
    ),
    "a view": (
        lambda url, tmp: _saved(url, tmp, "CREATE VIEW everyone AS SELECT * FROM characters"),
        "unexpected view everyone",
    ),
    "an extra table": (
        lambda url, tmp: _saved(url, tmp, "CREATE TABLE extra (x)"),
        "unexpected table extra",
    ),
    "an extra column": (
        lambda url, tmp: _saved(url, tmp, "ALTER TABLE characters ADD COLUMN evil TEXT"),
        "table characters: unexpected column evil",
    ),
    "an extra index": (
        lambda url, tmp: _saved(url, tmp, "CREATE UNIQUE INDEX one_log ON roll_log (channel_id)"),
        "table roll_log: unexpected index one_log",
    ),
    "a missing index": (
        lambda url, tmp: _saved(url, tmp, "DROP INDEX ix_roll_log_channel_id_id"),
        "table roll_log: missing index ix_roll_log_channel_id_id",
    ),
    "a cascade": (
        lambda url, tmp: _rewritten(
            url, tmp, "coda_attacks", "ON DELETE SET NULL", "ON DELETE CASCADE"
        ),
        "table coda_attacks: foreign key .target_character_id. → characters .id. is ON UPDATE "
        "NO ACTION ON DELETE CASCADE MATCH NONE, expected .*ON DELETE SET NULL",
    ),
    "a dropped check": (
        lambda url, tmp: _rewritten(
            url, tmp, "macros", "CHECK (slot >= 0 AND slot < 100)", "CHECK (1)"
        ),
        r"table macros: missing CHECK \(slot >= 0 AND slot < 100\)",
    ),
    "a future revision": (
        lambda url, tmp: _saved(
            url,
            tmp,
            "UPDATE alembic_version SET version_num = '9999_future' "
            "WHERE version_num = '0240_roll_tallies'",
        ),
        "9999_future, which this Narrator does not know.*Upgrade Narrator first",
    ),
    "no revision": (
        lambda url, tmp: _saved(url, tmp, "DELETE FROM alembic_version"),
        "no schema revision",
    ),
    "a corrupt file": (_corrupt, "fails SQLite's integrity check"),
}


@pytest.mark.parametrize("case", REFUSED)
def test_restore_refuses_what_narrator_did_not_make(
    case: str, database_url: str, tmp_path: Path
) -> None:
    make, message = REFUSED[case]
    bad = make(database_url, tmp_path)
    _mark(database_url)
    with pytest.raises(ConfigError, match=message):
        restore(database_url, bad)
    assert _marked(database_url)  # untouched
    assert sorted(p.name for p in path_of(database_url).parent.glob("narrator.db*")) == [
        "narrator.db",
        "narrator.db.lock",
    ]  # no copy kept, nothing staged left behind


def test_the_refusal_is_one_line_naming_what_differs(
    database_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    bad = _saved(
        database_url,
        tmp_path,
        "CREATE TRIGGER wipe AFTER INSERT ON roll_log BEGIN DELETE FROM characters; END",
    )
    monkeypatch.setenv("DATABASE_URL", database_url)
    assert main(["restore", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "not exactly the schema" in err and "unexpected trigger wipe on roll_log" in err


def test_restore_keeps_the_database_it_replaces(database_url: str, tmp_path: Path) -> None:
    saved = tmp_path / "saved.db"
    backup(database_url, saved)
    database = path_of(database_url)
    _run(
        database,
        "PRAGMA journal_mode=WAL",
        "INSERT INTO guild_gm_roles VALUES (1, 2, 3, '2026-11-27 12:00:00')",
    )
    # A process killed with a commit still in its -wal, as a bot killed mid-session leaves it:
    # the kept copy must hold that row, and the restored file must not read that log.
    subprocess.run(
        [
            sys.executable,
            "-c",
            "import os, sqlite3, sys\n"
            "c = sqlite3.connect(sys.argv[1])\n"
            "c.execute('PRAGMA wal_autocheckpoint=0')\n"
            "c.execute(\"INSERT INTO guild_gm_roles VALUES (1, 5, 3, '2026-11-27 12:00:00')\")\n"
            "c.commit()\n"
            "os._exit(0)\n",
            str(database),
        ],
        check=True,
    )
    assert database.with_name("narrator.db-wal").stat().st_size > 0
    out = restore(database_url, saved)
    (kept,) = database.parent.glob("narrator.db.before-restore-*")
    assert f"kept as {kept}" in out
    assert kept.name.startswith("narrator.db.before-restore-20") and kept.name.endswith("Z")
    assert _rows(database) == 0  # the backup's
    assert _rows(kept) == 2  # the replaced database's, its log folded in
    assert sorted(p.name for p in database.parent.glob("*before-restore*")) == [kept.name]


def _rows(path: Path) -> int:
    connection = sqlite3.connect(path)
    try:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return int(connection.execute("SELECT count(*) FROM guild_gm_roles").fetchone()[0])
    finally:
        connection.close()


def test_a_good_backup_round_trips(
    database_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    database = path_of(database_url)
    _run(database, "INSERT INTO guild_gm_roles VALUES (1, 2, 3, '2026-11-27 12:00:00')")
    monkeypatch.setenv("DATABASE_URL", database_url)
    saved = tmp_path / "saved.db"
    assert main(["backup", str(saved)]) == 0
    _run(database, "DELETE FROM guild_gm_roles")
    assert main(["restore", str(saved)]) == 0
    out = capsys.readouterr().out
    assert f"restored {database} from {saved}" in out and "kept as" in out
    assert "older schema" not in out
    assert _rows(database) == 1
    assert main(["doctor"]) in (0, 1)  # the database line: at the newest schema
    assert "at the newest schema" in capsys.readouterr().out


def test_restore_onto_no_database_keeps_nothing(database_url: str, tmp_path: Path) -> None:
    saved = tmp_path / "saved.db"
    backup(database_url, saved)
    path_of(database_url).unlink()
    assert "there was no database to replace" in restore(database_url, saved)
    assert _rows(path_of(database_url)) == 0


def test_an_older_known_revision_is_restored(database_url: str, tmp_path: Path) -> None:
    old = tmp_path / "old.db"
    command.upgrade(alembic_config(f"sqlite+aiosqlite:///{old}"), "0002_characters")
    out = restore(database_url, old)
    assert "older schema (0002_characters)" in out and "narrator run upgrades it" in out
