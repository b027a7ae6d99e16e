"""Log in with Discord in a real browser, against the real process: ``narrator run --web``
behind the Discord stand-in, whose OAuth2 pages approve at once. Alice follows "Log in with
Discord" (authorization code with PKCE and state, through the browser's redirects), edits a
skill of her sheet, and ``/sheet show`` in Discord shows it; Bob, logged in the same way, is
refused her sheet."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser.conftest import WAIT_MS, screenshot
from tests.e2e.conftest import web_bot
from tests.e2e.fake_discord import FakeDiscord

pytestmark = pytest.mark.e2e


async def log_in_with_discord(page: Any, base: str) -> None:
    """From the login page through the stand-in's authorize page back to the characters."""
    await page.goto(f"{base}/login?next=/characters")
    await page.get_by_role("link", name="Log in with Discord").click()
    await page.wait_for_url(re.compile(r"/characters$"), timeout=WAIT_MS)


async def test_log_in_with_discord_edit_a_skill_and_discord_shows_it(
    tmp_path: Path, migrated_template: Path, browser: Any
) -> None:
    async with FakeDiscord(channels=2) as fake:
        bot, base = web_bot(fake, migrated_template, tmp_path)
        try:
            await bot.start()
            await fake.interact("sheet create", user="alice", name="Hermione", system="coda")
            await fake.interact("sheet set", user="alice", attribute="Wits", value=3)

            alice_context = await browser.new_context(locale="en-US")
            alice = await alice_context.new_page()
            fake.oauth_user = "alice"
            await log_in_with_discord(alice, base)
            await alice.get_by_role("link", name="Hermione").click()
            await alice.wait_for_url(re.compile(r"/characters/\d+$"), timeout=WAIT_MS)
            sheet_url = alice.url
            skills = alice.locator("#skills")
            await skills.locator("textarea").first.fill("Stealth 2 Wits Shadows")
            await skills.get_by_role("button", name="Save").click()
            await alice.get_by_role("status").get_by_text("Saved.").wait_for(timeout=WAIT_MS)
            await screenshot(alice, "web-discord-login-sheet")
            await alice_context.close()

            shown = await fake.interact("sheet show", user="alice")
            text = str(shown.embeds) + shown.content
            assert "Stealth" in text and "Shadows" in text, text

            bob_context = await browser.new_context(locale="en-US")
            bob = await bob_context.new_page()
            fake.oauth_user = "bob"
            await log_in_with_discord(bob, base)
            response = await bob.goto(sheet_url)
            assert response is not None and response.status == 404
            assert "Stealth" not in await bob.content()
            await bob_context.close()
        finally:
            await bot.stop()
        assert fake.oauth_refused == []
