"""The sheet pages in a real browser (Playwright driving Debian's Chromium): a player edits
a CODA sheet's skills with the keyboard and ``/sheet show`` in SimCord shows them; another
player is refused. Screenshots go to ``build/screenshots`` (for the docs and for looking).

Skipped, with the reason, where Playwright or a Chromium is not installed.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.web._session import COOKIE
from tests.bot.web.conftest import Browser
from tests.bot.web.test_characters import hermione
from tests.conftest import Table, text_of

pytestmark = pytest.mark.slow

playwright_api = pytest.importorskip("playwright.async_api", reason="Playwright is not installed")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SCREENSHOTS = Path(__file__).parents[3] / "build" / "screenshots"


@pytest.fixture
async def chromium() -> Any:
    if CHROMIUM is None:
        pytest.skip("no Chromium here (Debian: apt-get install chromium)")
    async with playwright_api.async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM)
        try:
            yield browser
        finally:
            await browser.close()


async def page_as(chromium: Any, browser: Browser, member: Any, table: Table) -> Any:
    """A browser tab logged in as ``member`` (the session cookie the test client holds)."""
    browser.log_in_as(member.id, member.name, frozenset({table.guild.id}))
    base = str(browser.client.make_url("/"))
    cookie = browser.client.session.cookie_jar.filter_cookies(browser.client.make_url("/"))
    context = await chromium.new_context(viewport={"width": 390, "height": 844})  # a phone
    await context.add_cookies([{"name": COOKIE, "value": cookie[COOKIE].value, "url": base}])
    return await context.new_page()


async def test_a_player_edits_skills_in_a_browser_and_discord_shows_them(
    table: Table, browser_for: Callable[..., Any], chromium: Any
) -> None:
    character_id = await hermione(table)
    browser: Browser = await browser_for()
    page = await page_as(chromium, browser, table.alice, table)
    url = str(browser.client.make_url(f"/characters/{character_id}"))
    response = await page.goto(url)
    assert response.status == 200
    skills = page.get_by_label("Skills", exact=True)
    await skills.fill("Potions 3 Wits Brewing, Poisons\nStealth 2")
    await skills.press("Tab")
    await page.keyboard.press("Enter")  # the form's Save button, reached by keyboard
    await page.wait_for_url(f"{url}?saved=1#skills")
    assert await page.get_by_role("status").inner_text() == "Saved."
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(SCREENSHOTS / "character-sheet.png"), full_page=True)
    shown = text_of(await table.alice.slash(table.channel, "sheet show"))
    assert "Potions" in shown and "Brewing" in shown and "Stealth" in shown


async def test_another_player_is_refused_the_sheet_in_a_browser(
    table: Table, browser_for: Callable[..., Any], chromium: Any
) -> None:
    character_id = await hermione(table)
    browser: Browser = await browser_for()
    page = await page_as(chromium, browser, table.bob, table)
    response = await page.goto(str(browser.client.make_url(f"/characters/{character_id}")))
    assert response.status == 404
    assert "not yours to see" in await page.inner_text("main")
