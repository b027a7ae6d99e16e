"""Fixtures for the end-to-end tests: the Discord stand-in and ``narrator run`` against it.

Every test here is marked ``e2e`` (deselect with ``-m "not e2e"``); each bot process is
killed in a ``finally`` block, and every wait has a timeout.
"""

from __future__ import annotations

import shutil
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_discord.oauth import CLIENT_SECRET
from tests.e2e.process import BotProcess, narrator_script


@pytest.fixture(autouse=True, scope="module")
def _narrator_installed() -> None:
    if not narrator_script().exists():
        pytest.skip(f"the narrator console script is not installed next to {narrator_script()}")


@pytest.fixture(scope="module")
def e2e_workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("e2e")


def migrated_copy(template: Path, workdir: Path, name: str = "narrator.db") -> str:
    """A migrated SQLite file for a bot process (migrating from scratch is the slow part)."""
    path = workdir / name
    shutil.copy(template, path)
    return f"sqlite+aiosqlite:///{path}"


def web_bot(fake: FakeDiscord, template: Path, workdir: Path) -> tuple[BotProcess, str]:
    """``narrator run --web`` on a free port of 127.0.0.1, logging in with the stand-in's
    OAuth2 (its client id and secret), and the web's address."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    env = {
        "WEB_BIND": f"127.0.0.1:{port}",
        "WEB_BASE_URL": base,
        "DISCORD_CLIENT_ID": str(fake.application_id),
        "DISCORD_CLIENT_SECRET": CLIENT_SECRET,
        "WEB_SECRET_KEY": "e2e-secret",
    }
    url = migrated_copy(template, workdir)
    return BotProcess(fake, url, workdir, env=env, run_args=("--web",)), base


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def running(
    e2e_workdir: Path, migrated_template: Path
) -> AsyncIterator[tuple[FakeDiscord, BotProcess]]:
    """One stand-in and one bot process shared by a module's tests (started once: ~1 s)."""
    async with FakeDiscord(channels=20) as fake:
        bot = BotProcess(fake, migrated_copy(migrated_template, e2e_workdir), e2e_workdir)
        try:
            await bot.start()
            yield fake, bot
        finally:
            await bot.stop()
