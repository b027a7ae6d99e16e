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

from bot.hosting.backup import pg_dump_command, pg_restore_command
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
