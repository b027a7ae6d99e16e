"""The callbacks' HTTP/1.1 client on the wire: against a raw server that answers as scripted
(kept alive, chunked, closed, garbage, silent), and over TLS."""

from __future__ import annotations

import asyncio
import contextlib
import re
import socket
import ssl
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from types import EllipsisType

import aiohttp
import pytest
import trustme
import yarl

from bot import keepalive
from bot.keepalive import Answer, KeepAlivePool

NO_CONTENT = b"HTTP/1.1 204 No Content\r\n\r\n"
#: What a scripted server answers to one request: bytes, or None to close the connection
#: without answering, or ... to never answer.
Script = Callable[[int, int], bytes | EllipsisType | None]


@dataclass
class Server:
    """Reads requests (head and ``Content-Length`` body) and answers each with
    ``script(connection number, request number on it)``."""

    script: Script
    hold: Callable[[int, int], Awaitable[None]] | None = None
    requests: list[tuple[int, bytes, bytes]] = field(default_factory=list)
    connections: int = 0
    open: int = 0
    #: Set at each request read; at each connection closed that leaves none open.
    got_request: asyncio.Event = field(default_factory=asyncio.Event)
    none_open: asyncio.Event = field(default_factory=asyncio.Event)

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        self.open += 1
        number, on_it = self.connections, 0
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = next(
                    int(line.split(b":")[1])
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length:")
                )
                body = await reader.readexactly(length)
                on_it += 1
                self.requests.append((number, head, body))
                self.got_request.set()
                if self.hold is not None:
                    await self.hold(number, on_it)
                answer = self.script(number, on_it)
                if answer is None:
                    break
                if answer is ...:
                    await reader.read()  # never answers: until the client hangs up
                    break
                assert isinstance(answer, bytes)
                writer.write(answer)
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            self.open -= 1
            if not self.open:
                self.none_open.set()
            writer.close()


@contextlib.asynccontextmanager
async def serving(
    script: Script,
    tls: ssl.SSLContext | None = None,
    hold: Callable[[int, int], Awaitable[None]] | None = None,
) -> AsyncIterator[tuple[Server, yarl.URL]]:
    server = Server(script, hold)
    listening = await asyncio.start_server(server.serve, "127.0.0.1", 0, ssl=tls)
    port = listening.sockets[0].getsockname()[1]
    scheme = "https" if tls else "http"
    async with listening:
        yield server, yarl.URL(f"{scheme}://localhost:{port}/api/v10/interactions/1/tok/callback")


async def post(client: KeepAlivePool, url: yarl.URL, body: bytes, content_type: str) -> Answer:
    return await client.post(str(url.origin()), url.raw_path, body, content_type)


def pool(**options: object) -> KeepAlivePool:
    return KeepAlivePool(user_agent="NarratorTest", timeout=5.0, **options)  # type: ignore[arg-type]


async def test_requests_share_one_kept_alive_connection_and_carry_the_body() -> None:
    async with serving(lambda _c, _r: NO_CONTENT) as (server, url):
        client = pool()
        for body in (b'{"type":4}', b'{"type":5}'):
            answer = await post(client, url, body, "application/json")
            assert (answer.status, answer.reason, answer.body) == (204, "No Content", b"")
        client.close()
    assert server.connections == 1
    (_, head, first), (_, _, second) = server.requests
    assert (first, second) == (b'{"type":4}', b'{"type":5}')
    lines = head.decode().split("\r\n")
    assert lines[0] == "POST /api/v10/interactions/1/tok/callback HTTP/1.1"
    assert f"Host: localhost:{url.port}" in lines
    assert "User-Agent: NarratorTest" in lines
    assert "Content-Type: application/json" in lines
    assert "Content-Length: 10" in lines


async def test_requests_at_once_each_get_their_own_connection_then_reuse_them() -> None:
    async with serving(lambda _c, _r: NO_CONTENT) as (server, url):
        client = pool()
        await asyncio.gather(*(post(client, url, b"{}", "application/json") for _ in range(3)))
        opened = server.connections
        await asyncio.gather(*(post(client, url, b"{}", "application/json") for _ in range(3)))
        client.close()
    assert 1 <= opened == server.connections <= 3
    assert len(server.requests) == 6


async def test_an_answer_with_a_body_by_length_or_in_chunks_is_read_whole() -> None:
    error = b'{"message": "Unknown interaction", "code": 10062}'
    answers = [
        b"HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n%s" % (len(error), error),
        b"HTTP/1.1 400 Bad Request\r\nTransfer-Encoding: chunked\r\n"
        b"Content-Type: text/plain\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n",
        NO_CONTENT,
    ]
    async with serving(lambda _c, r: answers[r - 1]) as (server, url):
        client = pool()
        found = await post(client, url, b"{}", "application/json")
        chunked = await post(client, url, b"{}", "application/json")
        after = await post(client, url, b"{}", "application/json")
        client.close()
    assert (found.status, found.content_type, found.body) == (404, "application/json", error)
    assert (chunked.status, chunked.content_type, chunked.body) == (
        400,
        "text/plain",
        b"hello world",
    )
    assert after.status == 204
    assert server.connections == 1  # the connection stayed in step through both bodies


async def test_connection_close_is_obeyed() -> None:
    closing = b"HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n"
    async with serving(lambda _c, _r: closing) as (server, url):
        client = pool()
        for _ in range(2):
            assert (await post(client, url, b"{}", "application/json")).status == 204
        client.close()
    assert server.connections == 2


async def test_a_connection_the_server_closed_while_idle_is_not_used_again() -> None:
    async with serving(lambda _c, _r: NO_CONTENT) as (server, url):
        client = pool()
        await post(client, url, b"{}", "application/json")
        server.script = lambda _c, _r: None  # the next request read, then the connection shut
        with pytest.raises(aiohttp.ServerDisconnectedError):
            # sent on the kept connection, closed unanswered, sent once more on a new one,
            # closed unanswered again: a fresh connection's failure is raised
            await post(client, url, b"{}", "application/json")
        server.script = lambda _c, _r: NO_CONTENT
        assert (await post(client, url, b"{}", "application/json")).status == 204
        client.close()
    assert [number for number, _, _ in server.requests] == [1, 1, 2, 3]


async def test_a_stale_kept_connection_is_retried_once_on_a_new_one() -> None:
    # Connection 1 answers its first request and closes on its second without a byte.
    async with serving(lambda c, r: None if (c, r) == (1, 2) else NO_CONTENT) as (server, url):
        client = pool()
        await post(client, url, b"first", "application/json")
        assert (await post(client, url, b"second", "application/json")).status == 204
        client.close()
    assert [(number, body) for number, _, body in server.requests] == [
        (1, b"first"),
        (1, b"second"),
        (2, b"second"),
    ]


async def test_a_connection_idle_too_long_is_closed_for_a_new_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(keepalive, "IDLE_LIMIT", 0.0)
    async with serving(lambda _c, _r: NO_CONTENT) as (server, url):
        client = pool()
        for _ in range(3):
            await post(client, url, b"{}", "application/json")
        client.close()
    assert server.connections == 3


@pytest.mark.parametrize(
    ("answer", "error", "seconds"),
    [
        (b"SMTP ready\r\n\r\n", r"ClientConnectionError: not an HTTP/1\.1 answer: .+", 5.0),
        (..., "TimeoutError", 0.05),  # never answered
    ],
    ids=["garbage", "silent"],
)
async def test_a_failed_exchange_is_raised_and_its_connection_dropped(
    monkeypatch: pytest.MonkeyPatch, answer: bytes | EllipsisType, error: str, seconds: float
) -> None:
    monkeypatch.setattr(keepalive, "SWEEP_EVERY", 0.01)
    async with serving(lambda _c, _r: answer) as (server, url):
        client = KeepAlivePool(user_agent="NarratorTest", timeout=seconds)
        with pytest.raises(Exception) as raised:
            await post(client, url, b"{}", "application/json")
        assert re.fullmatch(error, f"{type(raised.value).__name__}: {raised.value}".rstrip(": "))
        await server.none_open.wait()  # closed by the client, never kept for the next request
        client.close()
    assert server.connections == 1


async def test_a_request_in_flight_is_not_timed_out_before_its_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The sweeps run many times while the answer is held; the timeout is far."""
    monkeypatch.setattr(keepalive, "SWEEP_EVERY", 0.01)
    release = asyncio.Event()

    async def held(_c: int, _r: int) -> None:
        await release.wait()

    async with serving(lambda _c, _r: NO_CONTENT, hold=held) as (server, url):
        client = pool()  # 5 s
        request = asyncio.ensure_future(post(client, url, b"{}", "application/json"))
        await server.got_request.wait()
        await asyncio.sleep(0.1)  # ~10 sweeps (fewer on a slow machine: still none too late)
        assert not request.done()
        release.set()
        assert (await request).status == 204
        client.close()


async def test_a_cancelled_request_drops_its_connection() -> None:
    async with serving(lambda c, _r: ... if c == 1 else NO_CONTENT) as (server, url):
        client = pool()
        waiting = asyncio.ensure_future(post(client, url, b"{}", "application/json"))
        await server.got_request.wait()
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        assert (await post(client, url, b"{}", "application/json")).status == 204
        client.close()
    assert server.connections == 2


async def test_no_server_is_aiohttps_connection_error() -> None:
    with socket.socket() as unused:  # a port just free: nothing listens on it
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    url = yarl.URL(f"http://127.0.0.1:{port}/api/v10/interactions/1/tok/callback")
    with pytest.raises(aiohttp.ClientOSError):
        await post(pool(), url, b"{}", "application/json")


async def test_close_closes_every_idle_connection() -> None:
    async with serving(lambda _c, _r: NO_CONTENT) as (server, url):
        client = pool()
        await asyncio.gather(*(post(client, url, b"{}", "application/json") for _ in range(2)))
        opened = server.connections
        client.close()
        await post(client, url, b"{}", "application/json")  # works again, on a new one
        client.close()
    assert server.connections == opened + 1


async def test_https_with_the_servers_certificate_checked() -> None:
    authority = trustme.CA()
    server_side = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    authority.issue_cert("localhost").configure_cert(server_side)
    trusting = ssl.create_default_context()
    authority.configure_trust(trusting)
    async with serving(lambda _c, _r: NO_CONTENT, tls=server_side) as (server, url):
        client = pool(ssl_context=trusting)
        for _ in range(2):
            assert (await post(client, url, b"{}", "application/json")).status == 204
        client.close()
        with pytest.raises(aiohttp.ClientOSError):  # the system's authorities: not this one
            await post(pool(), url, b"{}", "application/json")
    assert server.connections == 1  # kept alive; the refused one never passed its handshake
    assert url.scheme == "https"
