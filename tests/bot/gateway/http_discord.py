"""An in-process HTTP server standing in for Discord's REST API, for the tests that check
the exact requests discord.py's own HTTP session sends (the "very busy" answer, the bare
reply): it records every request and answers each interaction callback as scripted."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import discord
import orjson
import pytest
from aiohttp import web

USER = {"id": "1", "username": "narrator", "discriminator": "0", "avatar": None}
CALLBACK_ERRORS = {
    400: (50035, "Invalid Form Body"),
    404: (10062, "Unknown interaction"),
    429: (0, "You are being rate limited."),
    500: (0, "500: Internal Server Error"),
}


class Discord:
    """Records every request. Answers a callback with the next of ``statuses`` (then
    ``status``), or never (``hang``). A 204 is Discord's success: with ``with_response`` it
    becomes a 200 with the callback response, as Discord sends it."""

    def __init__(self) -> None:
        self.requests: list[tuple[web.Request, bytes]] = []
        self.status = 204
        self.statuses: list[int] = []
        self.hang = False

    async def handle(self, request: web.Request) -> web.StreamResponse:
        body = await request.read()
        self.requests.append((request, body))
        if request.path.endswith("/users/@me"):
            return web.json_response(USER)
        if self.hang:
            await asyncio.sleep(30)
        status = self.statuses.pop(0) if self.statuses else self.status
        if status == 204 and request.query.get("with_response") == "1":
            answer = orjson.dumps(callback_response(request, orjson.loads(body)))
            # Discord's exact header: discord.py parses JSON only for "application/json".
            return web.Response(body=answer, content_type="application/json")
        if status == 204:
            return web.Response(status=204)
        code, message = CALLBACK_ERRORS.get(status, (0, "error"))
        error: dict[str, Any] = {"message": message, "code": code}
        if status == 429:
            error["retry_after"] = 0.01
        return web.Response(
            body=orjson.dumps(error), status=status, content_type="application/json"
        )

    def callbacks(self) -> list[tuple[web.Request, bytes]]:
        return [(r, b) for r, b in self.requests if r.path.endswith("/callback")]


def callback_response(request: web.Request, body: dict[str, Any]) -> dict[str, Any]:
    """What Discord answers a message callback sent ``with_response``: the new message."""
    interaction_id = request.path.split("/")[-3]
    data = body.get("data") or {}
    message = {
        "id": "4242",
        "channel_id": "5",
        "type": 20,
        "content": data.get("content") or "",
        "embeds": data.get("embeds") or [],
        "author": USER,
        "attachments": [],
        "mentions": [],
        "mention_roles": [],
        "mention_everyone": False,
        "pinned": False,
        "tts": False,
        "timestamp": "2026-11-28T00:00:00+00:00",
        "edited_timestamp": None,
        "flags": data.get("flags") or 0,
    }
    return {
        "interaction": {
            "id": interaction_id,
            "type": 2,
            "response_message_id": "4242",
            "response_message_loading": False,
            "response_message_ephemeral": bool((data.get("flags") or 0) & 64),
        },
        "resource": {"type": body.get("type"), "message": message},
    }


@contextlib.asynccontextmanager
async def logged_in_client(
    monkeypatch: pytest.MonkeyPatch, base: str, **client_options: Any
) -> AsyncIterator[discord.Client]:
    """A discord.py client logged in (its HTTP session made) against ``base``; closed when
    the block ends."""
    monkeypatch.setattr(discord.http.Route, "BASE", base)
    client = discord.Client(intents=discord.Intents.none(), **client_options)
    try:
        await client.http.static_login("token")
        yield client
    finally:
        await client.close()
