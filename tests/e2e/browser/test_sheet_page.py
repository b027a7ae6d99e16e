"""A sheet edited in a real browser shows in Discord: Alice edits her CODA sheet's skills on
its page, then ``/sheet show`` in the bot (SimCord, the console's world) shows the change;
Bob, another player, is refused her sheet. Screenshots of both."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.e2e.browser.conftest import WAIT_MS, bot_console, log_in, screenshot, type_lines

pytestmark = pytest.mark.e2e


def shown(printed: list[dict[str, Any]]) -> str:
    """Everything the console printed, as one text to search."""
    return json.dumps(printed, ensure_ascii=False)


async def test_skills_edited_on_the_web_show_in_sheet_show(
    database_url: str, web_url: str, page: Any, browser: Any
) -> None:
    printed: list[dict[str, Any]] = []
    async with bot_console(database_url, printed) as console:
        await type_lines(
            console,
            "/as alice\n/sheet create name:Hermione system:coda\n/sheet set attribute:Wits value:3",
        )
        await log_in(page, web_url, "alice")
        await page.goto(f"{web_url}/characters")
        await page.get_by_role("link", name="Hermione").click()
        await page.wait_for_url(re.compile(r"/characters/\d+$"))
        sheet_url = page.url
        skills = page.locator("#skills")
        await skills.locator("textarea").first.fill("Stealth 2 Wits Shadows\nPotions 1 Wits")
        await skills.get_by_role("button", name="Save").click()
        await page.get_by_role("status").get_by_text("Saved.").wait_for(timeout=WAIT_MS)
        await screenshot(page, "web-sheet-skills", docs=True)
        printed.clear()
        await type_lines(console, "/as alice\n/sheet show")
        text = shown(printed)
        assert "Stealth" in text and "Shadows" in text and "Potions" in text

    other = await browser.new_context(locale="en-US")
    try:
        bob = await other.new_page()
        await log_in(bob, web_url, "bob")
        response = await bob.goto(sheet_url)
        assert response is not None and response.status == 404
        assert "Stealth" not in await bob.content()
        await screenshot(bob, "web-sheet-refused")
    finally:
        await other.close()
