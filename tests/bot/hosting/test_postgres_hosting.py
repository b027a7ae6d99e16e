"""docs/hosting.md's PostgreSQL steps, run as written: a user and a database, migrate, doctor, and
the printed pg_dump / pg_restore commands."""

from __future__ import annotations

import asyncio
import os
import shlex
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from bot.hosting.pg_dumps import pg_dump_command, pg_restore_command
from tests.conftest import POSTGRES_URL, _postgres_admin

pytestmark = pytest.mark.postgres
NARRATOR = Path(sys.executable).with_name("narrator")


@pytest.fixture
def readme_database() -> Iterator[str]:
    """`CREATE USER … WITH PASSWORD …; CREATE DATABASE … OWNER …` as docs/hosting.md says."""
    if not POSTGRES_URL:
        pytest.skip("TEST_DATABASE_URL is not set")
    name = f"narrator_host_{uuid.uuid4().hex[:8]}"
    admin = POSTGRES_URL
    asyncio.run(_postgres_admin(admin, f"CREATE USER {name} WITH PASSWORD 'choose-one'"))
    asyncio.run(_postgres_admin(admin, f"CREATE DATABASE {name} OWNER {name}"))
    server = make_url(admin)
    try:
        yield f"postgresql+asyncpg://{name}:choose-one@{server.host}:{server.port or 5432}/{name}"
    finally:
        asyncio.run(_postgres_admin(admin, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        asyncio.run(_postgres_admin(admin, f'DROP USER IF EXISTS "{name}"'))


def narrator(*args: str, url: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    return subprocess.run(
        [str(NARRATOR), *args],
        env=env | {"DATABASE_URL": url},
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_readme_postgres_steps(readme_database: str, tmp_path: Path) -> None:
    migrated = narrator("migrate", url=readme_database, cwd=tmp_path)
    assert migrated.returncode == 0 and migrated.stderr == "", migrated.stderr
    assert "choose-one" not in migrated.stdout
    doctor = narrator("doctor", url=readme_database, cwd=tmp_path)
    assert "ok    database: answers" in doctor.stdout
    assert "ok    schema: up to date: at the newest schema" in doctor.stdout


@pytest.mark.skipif(shutil.which("pg_dump") is None, reason="no pg_dump here")
def test_the_printed_pg_dump_and_pg_restore_commands_work(
    readme_database: str, tmp_path: Path
) -> None:
    assert narrator("migrate", url=readme_database, cwd=tmp_path).returncode == 0
    dump = tmp_path / "narrator.dump"
    env = os.environ | {"PGPASSWORD": "choose-one"}
    for command in (
        pg_dump_command(readme_database, dump),
        pg_restore_command(readme_database, dump),
    ):
        result = subprocess.run(
            shlex.split(command), env=env, capture_output=True, text=True, timeout=120, check=False
        )
        assert result.returncode == 0, (command, result.stderr)
    assert dump.stat().st_size > 0
    doctor = narrator("doctor", url=readme_database, cwd=tmp_path)
    assert "ok    schema: up to date: at the newest schema" in doctor.stdout


@pytest.mark.skipif(shutil.which("pg_dump") is None, reason="no pg_dump here")
def test_restore_on_postgres_refuses_with_the_steps_and_names_what_a_dump_should_not_hold(
    readme_database: str, tmp_path: Path
) -> None:
    """narrator restore never replaces a PostgreSQL database: it says what the dump holds (read
    from the file alone) and gives the steps; the database is left as it was."""
    assert narrator("migrate", url=readme_database, cwd=tmp_path).returncode == 0
    env = os.environ | {"PGPASSWORD": "choose-one"}

    def dump(name: str) -> Path:
        path = tmp_path / name
        command = shlex.split(pg_dump_command(readme_database, path))
        subprocess.run(command, env=env, check=True, capture_output=True, timeout=120)
        return path

    clean = dump("clean.dump")
    answer = narrator("restore", str(clean), url=readme_database, cwd=tmp_path)
    assert answer.returncode == 2
    err = answer.stderr
    assert "narrator restore does not replace a PostgreSQL database" in err
    assert "clean.dump holds only tables, their data, sequences, keys and indexes" in err
    assert "1. keep the database it replaces: pg_dump --format=custom" in err
    assert "2. restore the dump: pg_restore --clean --if-exists --no-owner" in err
    assert "3. bring its schema up to this Narrator's: narrator migrate" in err
    assert "choose-one" not in err
    # A dump with a trigger (the one that deleted every character on the next /roll) and a
    # revision from a newer Narrator: both named, nothing restored.
    name = make_url(readme_database).database
    admin = make_url(POSTGRES_URL).set(database=name).render_as_string(hide_password=False)
    for statement in (
        "CREATE FUNCTION wipe() RETURNS trigger AS $$ BEGIN DELETE FROM characters; "
        "RETURN NULL; END $$ LANGUAGE plpgsql",
        "CREATE TRIGGER wipe AFTER INSERT ON roll_log FOR EACH ROW EXECUTE FUNCTION wipe()",
        "DELETE FROM alembic_version",
        "INSERT INTO alembic_version VALUES ('ffffffffffff')",
    ):
        asyncio.run(_postgres_admin(admin, statement))
    hostile = dump("hostile.dump")
    err = narrator("restore", str(hostile), url=readme_database, cwd=tmp_path).stderr
    assert "hostile.dump holds what Narrator never creates" in err
    assert "FUNCTION public wipe()" in err and "TRIGGER public roll_log wipe" in err
    assert "at schema revision ffffffffffff, which this Narrator does not know" in err
