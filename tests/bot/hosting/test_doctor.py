"""``narrator doctor``: one line per check, bounded in time, non-zero on a failure."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from aiohttp import web

from bot.cli import main
from bot.hosting import doctor
from bot.hosting.config import Settings
from bot.hosting.doctor import (
    FAIL,
    GATEWAY_GUILD_MEMBERS,
    OK,
    WARN,
    check_database,
    check_discord,
    check_token,
)
from tests.bot.hosting.test_invite import fake_token

#: Seconds a test waits before it gives up on a check that should have ended long before.
FAILSAFE = 60.0


def make(**values: str) -> Settings:
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


@pytest.mark.parametrize(
    ("token", "status", "words"),
    [
        ("", FAIL, "not set"),
        ("Bot " + fake_token(), FAIL, '"Bot "'),
        ("abc.def", FAIL, "does not look like"),
        (fake_token(), OK, "application 1234567890123456789"),
    ],
)
def test_token_shape(token: str, status: str, words: str) -> None:
    check = check_token(make(DISCORD_TOKEN=token))
    assert check.status == status and words in check.detail
    assert token.removeprefix("Bot ") not in check.line() or not token


async def test_database_checks(database_url: str, tmp_path: Path) -> None:
    checks = await check_database(make(DATABASE_URL=database_url))
    assert [c.status for c in checks] == [OK, OK]
    assert "newest schema" in checks[1].detail

    missing = tmp_path / "nowhere" / "none.db"
    (check,) = await check_database(make(DATABASE_URL=f"sqlite+aiosqlite:///{missing}"))
    assert check.status == WARN and "does not exist yet" in check.detail
    assert not missing.parent.exists()  # the doctor creates nothing

    empty = tmp_path / "empty.db"
    empty.touch()
    checks = await check_database(make(DATABASE_URL=f"sqlite+aiosqlite:///{empty}"))
    assert checks[1].status == WARN and "narrator migrate" in checks[1].detail


@pytest_asyncio.fixture
async def silent_port() -> AsyncIterator[int]:
    """A local port that accepts connections and never says a word (a hung server)."""
    held: list[asyncio.StreamWriter] = []

    async def accept(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        held.append(writer)

    server = await asyncio.start_server(accept, "127.0.0.1", 0)
    try:
        yield server.sockets[0].getsockname()[1]
    finally:
        for writer in held:
            writer.close()
        server.close()


async def test_unreachable_postgres_fails() -> None:
    async with asyncio.timeout(FAILSAFE):
        (check,) = await check_database(
            make(DATABASE_URL="postgresql+asyncpg://narrator:secret@127.0.0.1:1/narrator")
        )
    assert check.status == FAIL and "DATABASE_URL" in check.detail
    assert "secret" not in check.detail


async def test_a_hung_postgres_fails_after_the_doctors_timeout(
    silent_port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bounded by the doctor's own timeout, not by the server: this one never answers."""
    monkeypatch.setattr(doctor, "TIMEOUT", 0.1)
    async with asyncio.timeout(FAILSAFE):
        (check,) = await check_database(
            make(DATABASE_URL=f"postgresql+asyncpg://narrator:secret@127.0.0.1:{silent_port}/n")
        )
    assert check.status == FAIL and "DATABASE_URL" in check.detail
    assert "secret" not in check.detail


@pytest_asyncio.fixture
async def fake_application() -> AsyncIterator[tuple[str, dict]]:
    """A stand-in for Discord's /applications/@me whose answer the test sets."""
    answer: dict = {"status": 200, "flags": GATEWAY_GUILD_MEMBERS}

    async def application(request: web.Request) -> web.Response:
        if answer["status"] != 200:
            return web.Response(status=answer["status"])
        return web.json_response({"name": "Narrator", "flags": answer["flags"]})

    app = web.Application()
    app.router.add_get("/api/v10/applications/@me", application)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        yield f"http://127.0.0.1:{port}/api/v10", answer
    finally:
        await runner.cleanup()


async def test_discord_intent_and_token(fake_application: tuple[str, dict]) -> None:
    base, answer = fake_application
    settings = make(
        DISCORD_TOKEN=fake_token(), DISCORD_API_BASE=base, DISCORD_GATEWAY_URL="ws://127.0.0.1:1"
    )
    assert (await check_discord(settings)).status == OK
    answer["flags"] = 0
    check = await check_discord(settings)
    assert check.status == FAIL and "Server Members intent is off" in check.detail
    answer["status"] = 401
    check = await check_discord(settings)
    assert check.status == FAIL and "refused the token" in check.detail


async def test_unreachable_discord_is_a_warning_not_a_hang() -> None:
    settings = make(
        DISCORD_TOKEN=fake_token(),
        DISCORD_API_BASE="http://127.0.0.1:1/api/v10",
        DISCORD_GATEWAY_URL="ws://127.0.0.1:1",
    )
    async with asyncio.timeout(FAILSAFE):
        check = await check_discord(settings)
    assert check.status == WARN and "could not reach Discord" in check.detail


async def test_a_hung_discord_is_a_warning_after_the_doctors_timeout(
    silent_port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bounded by the doctor's own timeout, not by the server: this one never answers."""
    monkeypatch.setattr(doctor, "TIMEOUT", 0.1)
    settings = make(
        DISCORD_TOKEN=fake_token(),
        DISCORD_API_BASE=f"http://127.0.0.1:{silent_port}/api/v10",
        DISCORD_GATEWAY_URL="ws://127.0.0.1:1",
    )
    async with asyncio.timeout(FAILSAFE):
        check = await check_discord(settings)
    assert check.status == WARN and "no answer in time" in check.detail


def test_cli_one_line_per_check_and_exit_status(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    database_url: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.setenv("DISCORD_TOKEN", fake_token())
    monkeypatch.setenv("DISCORD_API_BASE", "http://127.0.0.1:1/api/v10")
    monkeypatch.setenv("DISCORD_GATEWAY_URL", "ws://127.0.0.1:1")
    assert main(["doctor"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == [OK, OK, OK, OK, OK, WARN]
    monkeypatch.setenv("DISCORD_TOKEN", "nonsense")
    assert main(["doctor"]) == 1
    assert "FAIL  DISCORD_TOKEN" in capsys.readouterr().out


def test_cli_bad_url_is_one_line_with_the_fix(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_URL", "postgres://u:p@db/narrator")
    assert main(["doctor"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "use postgresql+asyncpg://" in err


async def test_an_uncreatable_database_path_is_a_failure(tmp_path: Path) -> None:
    """No promise that migrate creates a file where it cannot."""
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    url = f"sqlite+aiosqlite:///{blocker / 'data' / 'narrator.db'}"
    (check,) = await check_database(make(DATABASE_URL=url))
    assert check.status == FAIL and "cannot be created" in check.detail
    assert "narrator migrate" not in check.detail


async def test_the_schema_line_is_one_clear_line(database_url: str, tmp_path: Path) -> None:
    from alembic import command
    from alembic.script import ScriptDirectory

    from bot.storage.migrate import alembic_config

    checks = await check_database(make(DATABASE_URL=database_url))
    assert checks[1].detail.startswith("up to date: at the newest schema (")
    script = ScriptDirectory.from_config(alembic_config(""))
    first = next(r.revision for r in script.walk_revisions() if r.down_revision is None)
    known = len(list(script.walk_revisions()))
    old = f"sqlite+aiosqlite:///{tmp_path / 'old.db'}"
    await asyncio.to_thread(command.upgrade, alembic_config(old), first)  # env.py runs a loop
    (_reached, schema) = await check_database(make(DATABASE_URL=old))
    assert schema.status == WARN
    assert schema.detail == f"{known - 1} migrations behind: run narrator migrate"
