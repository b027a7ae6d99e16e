"""A real browser for the web companion's tests: Playwright driving Debian's Chromium.

``.ci/run`` installs the ``chromium`` package with apt when it is missing; where no browser
can be installed these tests skip, saying why. Every test here is ``e2e`` (it runs after the
rest in ``make check``). Screenshots go to ``tests/e2e/screenshots/`` (git-ignored); the ones
the docs show are copied to ``docs/images/`` when ``UPDATE_DOC_IMAGES=1`` is set (they carry
the run's times and ids, so an ordinary run leaves the committed images alone).
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from aiohttp import web

from bot.app import create_bot
from bot.console import Console, in_simcord, stable_id
from bot.hosting.config import Settings
from bot.storage import Database
from bot.web import create_app
from engine.dice import SeededDice

#: Debian's Chromium (``apt-get install chromium``); ``NARRATOR_CHROMIUM`` names another.
CHROMIUM = Path(os.environ.get("NARRATOR_CHROMIUM", "/usr/bin/chromium"))
ROOT = Path(__file__).resolve().parents[3]
SCREENSHOTS = ROOT / "tests" / "e2e" / "screenshots"
DOCS_IMAGES = ROOT / "docs" / "images"


def _no_browser_reason() -> str | None:
    if importlib.util.find_spec("playwright") is None:
        return "Playwright is not installed (pip install -e '.[test]')"
    if not CHROMIUM.exists():
        return (
            f"no Chromium at {CHROMIUM}: .ci/run installs Debian's `chromium` with apt; "
            "install it (or set NARRATOR_CHROMIUM) to run the browser tests"
        )
    return None


@pytest_asyncio.fixture
async def browser() -> AsyncIterator[object]:
    """A Chromium for one test, on the test's own event loop (beside the bot in SimCord and
    the web app), ``--no-sandbox`` only when running as root, where Chromium refuses its
    sandbox."""
    reason = _no_browser_reason()
    if reason is not None:
        pytest.skip(reason)
    from playwright.async_api import async_playwright

    args = ["--no-sandbox"] if os.geteuid() == 0 else []
    async with async_playwright() as driver:
        launched = await driver.chromium.launch(executable_path=str(CHROMIUM), args=args)
        try:
            yield launched
        finally:
            await launched.close()


@pytest_asyncio.fixture
async def page(browser: object) -> AsyncIterator[object]:
    """A fresh page in its own context (no cookies shared between tests), English, phone-wide
    enough to show the layout."""
    context = await browser.new_context(  # type: ignore[attr-defined]
        locale="en-US", viewport={"width": 1000, "height": 900}
    )
    try:
        yield await context.new_page()
    finally:
        await context.close()


async def screenshot(page: object, name: str, *, docs: bool = False) -> Path:
    """Save ``page`` as ``name``.png among the test screenshots (and in docs/images/ for
    the ones the players' guide shows, with ``UPDATE_DOC_IMAGES=1``)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    await page.screenshot(path=str(path), full_page=True)  # type: ignore[attr-defined]
    if docs and os.environ.get("UPDATE_DOC_IMAGES") == "1":
        DOCS_IMAGES.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, DOCS_IMAGES / f"{name}.png")
    return path


TABLE = stable_id("channel:table")
#: A failsafe for every wait on the page (never reached when the page works): Playwright's
#: waits poll the page until the text is there.
WAIT_MS = 60_000


@pytest_asyncio.fixture
async def web_url(database_url: str) -> AsyncIterator[str]:
    """The web companion on a free port of 127.0.0.1, with the offline login."""
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None, DATABASE_URL=database_url, WEB_RATE_BURST=0
    )
    db = Database(database_url)
    runner = web.AppRunner(create_app(settings, db, local_login=True))
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    host, port = runner.addresses[0][:2]
    try:
        yield f"http://{host}:{port}"
    finally:
        await runner.cleanup()
        await db.dispose()


@contextlib.asynccontextmanager
async def bot_console(
    database_url: str, printed: list[dict[str, Any]] | None = None
) -> AsyncIterator[Console]:
    """The bot in SimCord with the console's guild (#table; gm holds the GM role). Entered in
    the test itself: SimCord's clock is a context variable of the task that started it."""
    settings = Settings(_env_file=None, DATABASE_URL=database_url)  # type: ignore[call-arg]
    bot = create_bot(settings, dice=SeededDice(32), sync_globally=True)
    async with in_simcord(bot) as env:
        sink = printed if printed is not None else []
        typed = Console(env=env, bot=bot, emit=sink.append)
        typed.setup()
        yield typed


async def type_lines(console: Console, script: str) -> None:
    for line in filter(None, (raw.strip() for raw in script.splitlines())):
        await console.run_line(line)


async def log_in(page: Any, web_url: str, name: str) -> None:
    await page.goto(f"{web_url}/login")
    await page.get_by_label("User name").fill(name)
    await page.get_by_role("button", name="Log in").click()
    await page.wait_for_url(f"{web_url}/")
