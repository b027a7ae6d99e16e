"""The campaign page in a real browser: Chromium (Playwright) on the web app served on a
port, the bot running the console's world in SimCord on the same database, as a separate
``Database`` (its own connections, as a separate process would have).

Alice logs in by name (``--local-login``: the console's ids), opens #table's page, and
watches the turn order move when the GM types ``/init next`` in the bot; the GM's page shows
the hidden combatant and the roster; a form whose token was removed is refused. Each test
saves screenshots (tests/e2e/screenshots/, and the docs' ones in docs/images/).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
import simcord
from aiohttp import web

from bot.app import create_bot
from bot.console import Console, stable_id
from bot.hosting.config import Settings
from bot.storage import Database
from bot.web import create_app
from engine.dice import SeededDice
from tests.e2e.browser.conftest import screenshot

pytestmark = pytest.mark.e2e

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
async def bot_console(database_url: str) -> AsyncIterator[Console]:
    """The bot in SimCord with the console's guild (#table; gm holds the GM role). Entered in
    the test itself: SimCord's clock is a context variable of the task that started it."""
    settings = Settings(_env_file=None, DATABASE_URL=database_url)  # type: ignore[call-arg]
    bot = create_bot(settings, dice=SeededDice(32), sync_globally=True)
    async with simcord.run(bot, check_errors=False, settle_timeout=30.0) as env:
        typed = Console(env=env, bot=bot, emit=lambda _payload: None)
        typed.setup()
        yield typed
    await bot.db.dispose()


async def type_lines(console: Console, script: str) -> None:
    for line in filter(None, (raw.strip() for raw in script.splitlines())):
        await console.run_line(line)


async def log_in(page: Any, web_url: str, name: str) -> None:
    await page.goto(f"{web_url}/login")
    await page.get_by_label("User name").fill(name)
    await page.get_by_role("button", name="Log in").click()
    await page.wait_for_url(f"{web_url}/")


FIGHT = """
/as alice
/sheet create name:Hermione system:coda
/roll expression:1d20 label:warm-up
/roll expression:1d6 secret:true
/as gm
/init start system:coda
/init add name:Troll roll:18 health:30
/init add name:Wolf roll:15
/init add name:Lurker roll:12 hidden:true
/init next
"""


async def test_the_turn_order_moves_when_the_gm_runs_init_next(
    database_url: str, web_url: str, page: Any
) -> None:
    async with bot_console(database_url) as console:
        await _watch_the_fight(console, web_url, page)


async def _watch_the_fight(console: Console, web_url: str, page: Any) -> None:
    await type_lines(console, FIGHT)
    await log_in(page, web_url, "alice")
    await page.goto(f"{web_url}/channels/{TABLE}")
    turns = page.locator("#turns")
    await turns.get_by_text("Round 1 · Troll's turn.").wait_for(timeout=WAIT_MS)
    assert await page.locator("#live-status").is_visible()  # the stream is open
    assert await page.get_by_text("Lurker").count() == 0  # hidden from players
    await screenshot(page, "web-campaign-before")
    await type_lines(console, "/as gm\n/init next")  # in the bot: the page was not reloaded
    await turns.get_by_text("Round 1 · Wolf's turn.").wait_for(timeout=WAIT_MS)
    current = turns.locator("li.current")
    assert "Wolf" in await current.inner_text()
    await screenshot(page, "web-campaign-live", docs=True)


async def test_the_gm_sees_the_hidden_combatant_and_every_character(
    database_url: str, web_url: str, page: Any
) -> None:
    async with bot_console(database_url) as console:
        await type_lines(console, FIGHT)
    await log_in(page, web_url, "gm")
    await page.goto(f"{web_url}/channels/{TABLE}")
    await page.locator("#turns").get_by_text("Lurker").wait_for(timeout=WAIT_MS)
    roster = page.locator("#roster")
    assert "Hermione" in await roster.inner_text()
    assert "30/30" in await page.locator("#turns").inner_text()  # the Troll's Health
    await screenshot(page, "web-campaign-gm", docs=True)


async def test_a_form_without_its_token_is_refused(web_url: str, page: Any) -> None:
    await log_in(page, web_url, "alice")
    await page.goto(f"{web_url}/")
    # What a forged form from another site would send: the same form, no token.
    await page.locator('form[action="/logout"] input[name="csrf_token"]').evaluate(
        "input => input.remove()"
    )
    await page.get_by_role("button", name="Log out").click()
    await page.get_by_text("did not come from this site").wait_for(timeout=WAIT_MS)
    await screenshot(page, "web-csrf-refused")
    await page.goto(f"{web_url}/")
    assert await page.get_by_role("button", name="Log out").count() == 1  # still logged in
