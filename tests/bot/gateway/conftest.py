"""The stand-in for Discord's REST API that the wire-level tests of this package share."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from tests.bot.gateway.http_discord import Discord


@pytest.fixture
async def discord_server() -> AsyncIterator[tuple[Discord, str]]:
    """The stand-in and the API base URL it serves."""
    fake = Discord()
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", fake.handle)
    server = TestServer(app)
    await server.start_server()
    try:
        yield fake, str(server.make_url("/api/v10"))
    finally:
        await server.close()
