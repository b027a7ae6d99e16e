"""The campaign page in a real browser: Chromium (Playwright) on the web app served on a
port, the bot running the console's world in SimCord on the same database, as a separate
``Database`` (its own connections, as a separate process would have).

Alice logs in by name (``--local-login``: the console's ids), opens #table's page, and
watches the turn order move when the GM types ``/init next`` in the bot; the GM's page shows
the hidden combatant and the roster; a form whose token was removed is refused. Each test
saves screenshots (tests/e2e/screenshots/, and the docs' ones in docs/images/).
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.console import Console
from tests.e2e.browser.conftest import (
    TABLE,
    WAIT_MS,
    bot_console,
    log_in,
    screenshot,
    type_lines,
)

pytestmark = pytest.mark.e2e

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
    await page.locator("#live-status").wait_for(state="visible", timeout=WAIT_MS)  # stream open
    assert await page.get_by_text("Lurker").count() == 0  # hidden from players
    await screenshot(page, "web-campaign-before")
    await type_lines(console, "/as gm\n/init next")  # in the bot: the page was not reloaded
    await turns.get_by_text("Round 1 · Wolf's turn.").wait_for(timeout=WAIT_MS)
    current = turns.locator("li.current")
    assert "Wolf" in await current.inner_text()
    assert "Wolf" in (await page.locator("#turn-announce").text_content() or "")
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
    sealed = page.locator("details.sealed").first  # Alice's secret roll: the GM sees it
    await sealed.locator("summary").click()
    verdict = sealed.locator(".browser-check")
    await verdict.get_by_text("Your browser recomputed it too: it matches.").wait_for(
        timeout=WAIT_MS
    )
    await screenshot(page, "web-campaign-gm", docs=True)
    # The browser really computes it: a record changed by one character no longer matches.
    await sealed.locator(".record").evaluate("pre => { pre.textContent += ' '; }")
    await page.evaluate("checkCommitments(document)")
    await verdict.get_by_text("it does not match").wait_for(timeout=WAIT_MS)
    await page.set_viewport_size({"width": 390, "height": 844})  # a phone
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, "the page scrolls sideways on a phone"
    await screenshot(page, "web-campaign-phone")


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
