"""``narrator run --web``: one process serving the bot and the web companion. A player logs
in with Discord (the stand-in's OAuth2), edits a sheet on the web, and ``/sheet show`` in
Discord shows the change."""

from __future__ import annotations

import re
from pathlib import Path

import aiohttp
import pytest

from tests.e2e.conftest import web_bot
from tests.e2e.fake_discord import FakeDiscord

pytestmark = [pytest.mark.e2e]


async def test_a_web_edit_shows_in_discord(tmp_path: Path, migrated_template: Path) -> None:
    async with FakeDiscord(channels=2) as fake:
        bot, base = web_bot(fake, migrated_template, tmp_path)
        try:
            await bot.start()
            await fake.interact("sheet create", user="alice", name="Hermione", system="coda")
            await fake.interact("sheet set", user="alice", attribute="Wits", value=3)
            jar = aiohttp.CookieJar(unsafe=True)  # cookies for 127.0.0.1
            async with aiohttp.ClientSession(cookie_jar=jar) as browser:
                # Log in with Discord: the web, the stand-in's authorize page, the callback.
                async with browser.get(f"{base}/auth/discord?next=/characters") as page:
                    assert page.status == 200 and page.url.path == "/characters"
                    listing = await page.text()
                found = re.search(r'href="/characters/(\d+)"', listing)
                assert found and "Hermione" in listing, listing
                character = f"{base}/characters/{found.group(1)}"
                async with browser.get(character) as page:
                    token = re.search(r'name="csrf_token" value="([^"]+)"', await page.text())
                assert token
                form = {
                    "csrf_token": token.group(1),
                    "group0": "Wits 4",
                    "group1": "",
                    "attributes": "",
                    "resources": "Health 7/10",
                    "notes": "",
                }
                async with browser.post(f"{character}/edit/attributes", data=form) as page:
                    assert page.status == 200 and "Saved." in await page.text()
            shown = await fake.interact("sheet show", user="alice")
            text = str(shown.embeds) + shown.content
            assert "Wits" in text and "4" in text and "Health" in text, text
        finally:
            await bot.stop()
        assert fake.oauth_refused == []
