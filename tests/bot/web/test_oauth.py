"""Log in with Discord against the stand-in's OAuth2 endpoints (tests/e2e/fake_discord):
PKCE and ``state`` checked, a forged or replayed callback refused."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest

from bot.hosting.config import Settings
from bot.storage import Database
from bot.storage.repositories import members
from bot.web import _oauth
from bot.web._context import SETTINGS
from tests.bot.web.conftest import Browser
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_discord.oauth import CLIENT_SECRET


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(channels=1) as fake:
        yield fake


@pytest.fixture
async def discord_browser(
    fake: FakeDiscord, web_settings: Settings, browser_for: Callable[..., Any], db: Database
) -> Browser:
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None,
        DATABASE_URL=web_settings.database_url,
        WEB_RATE_BURST=0,
        DISCORD_API_BASE=fake.api_base,
        DISCORD_GATEWAY_URL=fake.gateway_url,
        DISCORD_CLIENT_ID=str(fake.application_id),
        DISCORD_CLIENT_SECRET=CLIENT_SECRET,
        WEB_BASE_URL="http://narrator.example.org",  # the test client keeps Secure cookies off http
    )
    # The bot has seen alice in the stand-in's guild (and in guild 42, which she has left:
    # Discord no longer lists it, so the web shows nothing of it).
    async with db.unit_of_work() as session:
        for guild_id in (fake.table.guild_id, 42):
            await members.record(
                session,
                guild_id,
                fake.user_id("alice"),
                display_name="alice",
                guild_name="Campaign",
                gm_role=False,
                role_ids=[],
            )
    return await browser_for(settings=settings, local_login=True)  # refused: a secret is set


async def to_discord(browser: Browser, next_path: str = "/") -> str:
    """Press "Log in with Discord": where the browser is sent (Discord's authorize page)."""
    response = await browser.client.get(
        "/auth/discord", params={"next": next_path}, allow_redirects=False
    )
    assert response.status == 302
    return response.headers["Location"]


async def approve(authorize: str) -> str:
    """Discord's side: the authorize page approves and sends the browser back."""
    async with (
        aiohttp.ClientSession() as client,
        client.get(authorize, allow_redirects=False) as response,
    ):
        assert response.status == 302, await response.text()
        return response.headers["Location"]


def back_here(location: str) -> str:
    """The callback URL (on WEB_BASE_URL) as a path of the test server."""
    parts = urlsplit(location)
    assert parts.netloc == "narrator.example.org" and parts.path == "/auth/callback"
    return f"{parts.path}?{parts.query}"


async def test_login_with_discord_uses_pkce_and_keeps_only_shared_guilds(
    fake: FakeDiscord, discord_browser: Browser
) -> None:
    authorize = await to_discord(discord_browser, "/characters")
    query = parse_qs(urlsplit(authorize).query)
    assert query["code_challenge_method"] == ["S256"] and query["scope"] == ["identify guilds"]
    assert query["redirect_uri"] == ["http://narrator.example.org/auth/callback"]
    response = await discord_browser.client.get(
        back_here(await approve(authorize)), allow_redirects=False
    )
    assert response.status == 303 and response.headers["Location"] == "/characters"
    cookie = response.cookies["narrator_session"]
    assert cookie["httponly"] and cookie["samesite"] == "Lax"
    page = await (await discord_browser.client.get("/")).text()
    assert "Alice" in page and "Log out" in page  # Discord's global name
    assert page.count("<h2>Campaign") == 1  # the stand-in's guild; not guild 42
    assert fake.oauth_refused == []


async def test_a_callback_with_another_state_is_refused(
    fake: FakeDiscord, discord_browser: Browser
) -> None:
    authorize = await to_discord(discord_browser)
    callback = back_here(await approve(authorize))
    forged = callback.replace("state=", "state=x")
    response = await discord_browser.client.get(forged, allow_redirects=False)
    assert response.status == 400
    assert "did not confirm this login" in await response.text()
    assert "Log out" not in await (await discord_browser.client.get("/")).text()


async def test_a_callback_in_another_browser_is_refused(
    discord_browser: Browser, browser_for: Callable[..., Any]
) -> None:
    """Login CSRF: an attacker's own code, planted in the victim's browser, logs nobody in."""
    callback = back_here(await approve(await to_discord(discord_browser)))
    victim = await browser_for(settings=discord_browser.client.app[SETTINGS])
    response = await victim.client.get(callback, allow_redirects=False)
    assert response.status == 400


async def test_a_wrong_code_verifier_is_refused_by_discord(
    fake: FakeDiscord, discord_browser: Browser, monkeypatch: pytest.MonkeyPatch
) -> None:
    authorize = await to_discord(discord_browser)
    callback = back_here(await approve(authorize))
    real = _oauth._identify

    async def wrong_verifier(settings: Settings, code: str, _verifier: str) -> Any:
        return await real(settings, code, "not-the-verifier")

    monkeypatch.setattr(_oauth, "_identify", wrong_verifier)
    response = await discord_browser.client.get(callback, allow_redirects=False)
    assert response.status == 400
    assert fake.oauth_refused == ["code_verifier does not match the challenge"]


async def test_the_session_cookie_is_secure_when_served_over_https(
    discord_browser: Browser, browser_for: Callable[..., Any]
) -> None:
    settings = discord_browser.client.app[SETTINGS]
    https = await browser_for(
        settings=settings.model_copy(update={"web_base_url": "https://narrator.example.org"})
    )
    response = await https.client.get("/auth/discord", allow_redirects=False)
    assert response.cookies["narrator_session"]["secure"]
    location = parse_qs(urlsplit(response.headers["Location"]).query)
    assert location["redirect_uri"] == ["https://narrator.example.org/auth/callback"]


async def test_local_login_is_off_when_discord_login_is_configured(
    discord_browser: Browser,
) -> None:
    page = await (await discord_browser.client.get("/login")).text()
    assert "Log in with Discord" in page and 'name="name"' not in page
