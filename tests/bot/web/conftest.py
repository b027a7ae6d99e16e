"""The web companion in process: aiohttp's TestServer over a migrated SQLite database."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.hosting.config import Settings
from bot.storage import Database
from bot.web import create_app
from bot.web._session import COOKIE, Sessions

TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')
SECRET = "test-web-secret"


@pytest.fixture
def web_settings(database_url: str) -> Settings:
    return Settings(  # type: ignore[call-arg]
        _env_file=None,
        DATABASE_URL=database_url,
        WEB_RATE_BURST=0,
        WEB_SECRET_KEY=SECRET,  # so a test can log in as anyone (``Browser.log_in_as``)
    )


class Browser:
    """A test client that keeps its cookies, with a person's habits: reading a page's
    form token, logging in by name (``--local-login``)."""

    def __init__(self, client: TestClient[Any, Any]) -> None:
        self.client = client

    async def token(self, path: str = "/") -> str:
        response = await self.client.get(path)
        found = TOKEN.search(await response.text())
        assert found, f"{path} shows no form token"
        return found.group(1)

    async def log_in(self, name: str) -> None:
        token = await self.token("/login")
        response = await self.client.post(
            "/login", data={"name": name, "csrf_token": token}, allow_redirects=False
        )
        assert response.status == 303, await response.text()

    def log_in_as(self, user_id: int, name: str, guild_ids: frozenset[int]) -> None:
        """A session for this Discord user, as Log in with Discord would leave it."""
        sessions = Sessions(SECRET.encode(), max_age=3600, secure=False)
        data = {"uid": user_id, "name": name, "guilds": sorted(guild_ids), "csrf": "t" * 43}
        cookie = sessions.dumps(data)
        self.client.session.cookie_jar.update_cookies({COOKIE: cookie}, self.client.make_url("/"))

    async def post(self, path: str, data: dict[str, Any], **kwargs: Any) -> Any:
        """POST a form with this session's token, as a page's form would."""
        return await self.client.post(
            path, data={"csrf_token": await self.token(), **data}, **kwargs
        )


@pytest.fixture
async def browser_for(web_settings: Settings, db: Database) -> AsyncIterator[Callable[..., Any]]:
    """Make browsers (each its own cookies) on one app; ``local_login`` on by default."""
    clients: list[TestClient[Any, Any]] = []

    async def make(*, settings: Settings | None = None, local_login: bool = True) -> Browser:
        app = create_app(settings or web_settings, db, local_login=local_login)
        client: TestClient[Any, Any] = TestClient(TestServer(app))
        await client.start_server()
        clients.append(client)
        return Browser(client)

    yield make
    for client in clients:
        await client.close()


@pytest.fixture
async def browser(browser_for: Callable[..., Any]) -> Browser:
    return await browser_for()
