"""The "very busy" answer on the wire: the exact request a turned-away interaction sends, on
discord.py's own HTTP session (logged in against an in-process server standing in for
Discord, or for a proxy), and its failures logged, never raised."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

import aiohttp
import discord
import orjson
import pytest
import yarl

from bot.gateway import VERY_BUSY, Admission
from bot.gateway._admission import BUSY_REPLY, install_admission
from bot.internals import callback_url, gateway_parsers
from tests.bot.gateway.http_discord import Discord, logged_in_client

ID = 1_234_567_890_123_456_789


@contextlib.asynccontextmanager
async def logged_in(
    monkeypatch: pytest.MonkeyPatch, base: str, **client_options: Any
) -> AsyncIterator[discord.Client]:
    """A discord.py client logged in (its HTTP session made) against ``base``, every
    interaction turned away by its admission; closed when the block ends."""
    async with logged_in_client(monkeypatch, base, **client_options) as client:
        admission = Admission()
        admission.in_flight = admission.max_in_flight  # full: every one is told "very busy"
        install_admission(client, admission)
        yield client


def turn_away(client: discord.Client, kind: int, token: str = "tok.en-1") -> bool:
    handler: Callable[[dict[str, Any]], bool] = gateway_parsers(client)["INTERACTION_CREATE"]
    return handler({"type": kind, "id": str(ID), "token": token, "application_id": "9"})


async def replies_done() -> list[asyncio.Task[Any]]:
    tasks = [t for t in asyncio.all_tasks() if t.get_name() == BUSY_REPLY]
    await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 5)
    return tasks


async def one_answer(client: discord.Client, token: str = "tok.en-1") -> asyncio.Task[Any]:
    """Turn one command away on ``client``: the task that answered it, done."""
    assert turn_away(client, 2, token=token) is False
    (task,) = await replies_done()
    return task


async def test_the_busy_answer_is_one_post_of_the_ephemeral_line(
    monkeypatch: pytest.MonkeyPatch, discord_server: tuple[Discord, str]
) -> None:
    fake, base = discord_server
    async with logged_in(monkeypatch, base) as client:
        task = await one_answer(client, token="tok/en")
    assert task.exception() is None
    ((request, body),) = fake.callbacks()
    assert request.method == "POST"
    # The URL discord.py's own Route builds (the token quoted), without ?with_response.
    route = discord.http.Route(
        "POST",
        "/interactions/{webhook_id}/{webhook_token}/callback",
        webhook_id=ID,
        webhook_token="tok/en",
    )
    assert str(request.url) == route.url
    assert request.raw_path == f"/api/v10/interactions/{ID}/tok%2Fen/callback"
    assert request.headers["Content-Type"] == "application/json"
    assert int(request.headers["Content-Length"]) == len(body)
    assert "Authorization" not in request.headers  # a callback carries no bot token
    assert orjson.loads(body) == {
        "type": 4,
        "data": {"content": VERY_BUSY, "flags": 64, "allowed_mentions": {"parse": []}},
    }


async def test_autocomplete_gets_no_suggestions_and_answers_share_nothing_mutable(
    monkeypatch: pytest.MonkeyPatch, discord_server: tuple[Discord, str]
) -> None:
    fake, base = discord_server
    async with logged_in(monkeypatch, base) as client:
        for kind in (4, 3, 4, 5):  # the same prebuilt bodies, sent again and again
            turn_away(client, kind)
        await replies_done()
    bodies = [orjson.loads(body) for _request, body in fake.callbacks()]
    suggestions = {"type": 8, "data": {"choices": []}}
    assert [b["type"] for b in bodies].count(8) == 2 and bodies.count(suggestions) == 2
    assert [b["data"].get("content") for b in bodies].count(VERY_BUSY) == 2


async def test_a_ping_is_never_turned_away(
    monkeypatch: pytest.MonkeyPatch, discord_server: tuple[Discord, str]
) -> None:
    fake, base = discord_server
    async with logged_in(monkeypatch, base) as client:
        handed: list[dict[str, Any]] = []
        parsers = gateway_parsers(client)
        admission = Admission()
        admission.in_flight = admission.max_in_flight
        parsers["INTERACTION_CREATE"] = handed.append
        install_admission(client, admission)
        assert parsers["INTERACTION_CREATE"]({"type": 1, "id": str(ID), "token": "t"}) is True
        assert len(handed) == 1 and admission.turned_away == 0
    assert fake.callbacks() == []


# aiohttp deprecates proxy_auth (for 4.0); discord.py's Client still takes it, and passes it on.
@pytest.mark.filterwarnings("ignore:.*proxy_auth:DeprecationWarning")
@pytest.mark.filterwarnings("ignore:BasicAuth is deprecated:DeprecationWarning")
async def test_the_proxy_settings_are_respected(
    monkeypatch: pytest.MonkeyPatch, discord_server: tuple[Discord, str]
) -> None:
    """Discord is unreachable but through the proxy (the server here), which gets the
    absolute URL and the proxy's credentials."""
    fake, base = discord_server
    proxy = base.removesuffix("/api/v10")
    auth = aiohttp.BasicAuth("user", "secret")
    async with logged_in(
        monkeypatch, "http://discord.invalid/api/v10", proxy=proxy, proxy_auth=auth
    ) as client:
        assert (await one_answer(client)).exception() is None
    ((request, _body),) = fake.callbacks()
    assert request.host == "discord.invalid"
    assert request.headers["Proxy-Authorization"] == auth.encode()


async def logged_failure(
    monkeypatch: pytest.MonkeyPatch, base: str, caplog: pytest.LogCaptureFixture
) -> BaseException:
    """Turn one interaction away on a client logged in against ``base``: its answer failed,
    and the failure was logged with its exception, never raised. That exception."""
    with caplog.at_level(logging.INFO, logger="bot.gateway._admission"):
        async with logged_in(monkeypatch, base) as client:
            task = await one_answer(client)
    assert task.exception() is None
    (record,) = [r for r in caplog.records if "very busy" in r.getMessage()]
    assert record.exc_info is not None and record.exc_info[1] is not None
    return record.exc_info[1]


@pytest.mark.parametrize("status", [404, 500])
async def test_an_http_error_is_logged_and_swallowed(
    status: int,
    monkeypatch: pytest.MonkeyPatch,
    discord_server: tuple[Discord, str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake, base = discord_server
    fake.status = status
    error = await logged_failure(monkeypatch, base, caplog)
    assert len(fake.callbacks()) == 1  # once: a late interaction is not retried seconds later
    assert isinstance(error, discord.HTTPException) and error.status == status
    if status == 404:
        assert error.code == 10062  # Discord's JSON error body, read as discord.py reads it


async def test_a_timeout_is_logged_and_swallowed(
    monkeypatch: pytest.MonkeyPatch,
    discord_server: tuple[Discord, str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake, base = discord_server
    fake.hang = True
    # discord.py makes its session at login by this module-level name: a short timeout.
    short = functools.partial(aiohttp.ClientSession, timeout=aiohttp.ClientTimeout(total=0.3))
    monkeypatch.setattr(aiohttp, "ClientSession", short)
    error = await logged_failure(monkeypatch, base, caplog)
    assert isinstance(error, TimeoutError)


@pytest.mark.parametrize(
    "base",
    [
        "https://discord.com/api/v10",
        "http://127.0.0.1:8080/api/v10",
        "http://localhost:9",  # a stand-in with no path
        "http://[::1]:9/proxy/api/",
    ],
)
@pytest.mark.parametrize(
    "token", ["aW50ZXJhY3Rpb246MTIz_-", "".join(chr(c) for c in range(33, 127)) + "é"]
)
def test_the_callback_url_is_the_one_discord_py_sent(
    base: str, token: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Byte for byte what aiohttp sent for discord.py's Route (it requotes the text)."""
    monkeypatch.setattr(discord.http.Route, "BASE", base)
    route = discord.http.Route(
        "POST",
        "/interactions/{webhook_id}/{webhook_token}/callback",
        webhook_id=ID,
        webhook_token=token,
    )
    sent = yarl.URL(route.url)
    assert callback_url(ID, token) == sent
    assert callback_url(ID, token).raw_path == sent.raw_path
