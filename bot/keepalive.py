"""HTTP/1.1 POSTs on kept-alive connections: the interaction callbacks' transport.

Every command answers with one POST of a small JSON body to Discord's callback URL, and
Discord answers 204 with no body. Through aiohttp that POST cost the loop ~125 µs of the
~800 µs a command took near saturation (py-spy, 2026-11-28): a request object, its URL, a
header multidict, a writer, a response object and a connection-pool lease, each built and
torn down per call. Here a request is one ``bytes`` written on a connection that stays open,
and its answer is read by httptools (the C parser, llhttp, that uvicorn uses): what is left
is the write, the parse and the wake-up of the waiting command. docs/decisions/hot-path.md
gives the measurements.

What it does not do, and leaves to aiohttp (``bot.internals.post_interaction_callback``
sends those requests there): proxies, redirects, cookies, compression, anything but POST.
What it keeps of aiohttp's behaviour: a response delimited by ``Content-Length``, chunks or
none (204); the connection closed when the server says ``Connection: close`` or on any
doubt (a parse error, a timeout, a cancelled caller); errors raised as aiohttp's own
(:class:`aiohttp.ClientOSError`, :class:`aiohttp.ServerDisconnectedError`), so callers catch
what they caught. A request that finds its reused connection closed by the server before any
byte of an answer is sent again once, on a new connection, as urllib3 and aiohttp do for a
kept-alive connection that went stale.
"""

from __future__ import annotations

import asyncio
import ssl
from collections import deque
from dataclasses import dataclass
from typing import cast

import aiohttp
import httptools
import yarl

#: The longest an idle connection is kept (seconds): Discord's edge closes idle keep-alive
#: connections after about a minute; one unused this long is closed here first, so a request
#: rarely meets a connection the server is closing.
IDLE_LIMIT = 30.0
#: How often the requests in flight are checked against the timeout (seconds, at most): one
#: timer for all of them (a timer per request was a fifth of a request's cost, 2026-11-28).
SWEEP_EVERY = 1.0


@dataclass(frozen=True)
class Answer:
    """A server's answer: its status, reason phrase, ``Content-Type`` and body (empty for a
    204). ``status`` and ``reason`` are what :class:`discord.HTTPException` reads of a
    response."""

    status: int
    reason: str
    content_type: str
    body: bytes


class _Connection(asyncio.Protocol):
    """One connection: one request at a time, its answer parsed as it arrives."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._parser = httptools.HttpResponseParser(self)
        self._transport: asyncio.Transport | None = None
        self._waiter: asyncio.Future[Answer] | None = None
        self._body: list[bytes] = []
        self._reason = b""
        self._content_type = b""
        self._got_bytes = False
        self.closed = False
        self.used = 0
        self.idle_since = 0.0

    # asyncio.Protocol

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvloop's transports are not asyncio.Transport subclasses, but write like one.
        self._transport = cast(asyncio.Transport, transport)

    def data_received(self, data: bytes) -> None:
        if self._waiter is None:  # bytes nobody asked for: the connection can't be trusted
            self.close()
            return
        self._got_bytes = True
        try:
            self._parser.feed_data(data)
        except httptools.HttpParserError as error:
            self._fail(aiohttp.ClientConnectionError(f"not an HTTP/1.1 answer: {error}"))
            self.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self._fail(aiohttp.ServerDisconnectedError())

    # httptools' callbacks

    def on_status(self, reason: bytes) -> None:
        self._reason += reason  # in pieces when it spans two reads

    def on_header(self, name: bytes, value: bytes) -> None:
        if name.lower() == b"content-type":
            self._content_type = value

    def on_body(self, body: bytes) -> None:
        self._body.append(body)

    def on_message_complete(self) -> None:
        answer = Answer(
            self._parser.get_status_code(),
            self._reason.decode("latin-1"),
            self._content_type.decode("latin-1"),
            b"".join(self._body),
        )
        self._body = []
        self._reason = self._content_type = b""
        if not self._parser.should_keep_alive():
            self.close()
        waiter, self._waiter = self._waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_result(answer)

    # the pool's side

    async def exchange(self, request: bytes) -> Answer:
        """Send ``request`` and wait for its whole answer."""
        assert self._transport is not None and self._waiter is None
        self._got_bytes = False
        self._waiter = self._loop.create_future()
        self.used += 1
        self._transport.write(request)
        return await self._waiter

    def usable(self, now: float) -> bool:
        """Whether this idle connection may carry the next request: still open, and idle for
        less than :data:`IDLE_LIMIT` at loop time ``now``."""
        return not self.closed and now - self.idle_since < IDLE_LIMIT

    def stale(self) -> bool:
        """Whether the last exchange failed because the server had closed this reused
        connection before answering a byte (the request may be sent again)."""
        return self.closed and self.used > 1 and not self._got_bytes

    def close(self) -> None:
        self.closed = True
        if self._transport is not None:
            self._transport.close()

    def time_out(self) -> None:
        """The answer is too late: the caller gets :class:`TimeoutError`, the connection
        (whose next bytes would be that answer) is closed."""
        self._fail(TimeoutError())
        self.close()

    def _fail(self, error: Exception) -> None:
        waiter, self._waiter = self._waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_exception(error)


@dataclass(frozen=True)
class _Origin:
    """Where requests go: what a connection needs, and the ``Host`` header (port only when
    not the scheme's default, IPv6 in brackets: aiohttp's own)."""

    scheme: str
    host: str
    port: int
    host_header: str

    @classmethod
    def parse(cls, origin: str) -> _Origin:
        url = yarl.URL(origin)
        if url.scheme not in ("http", "https") or url.host is None or url.port is None:
            raise ValueError(f"not an http(s) origin: {origin!r}")
        return cls(url.scheme, url.host, url.port, url.host_port_subcomponent or url.host)


class KeepAlivePool:
    """Kept-alive connections per origin, each used by one request at a time; as many as
    there are requests in flight (as discord.py's aiohttp connector)."""

    def __init__(
        self,
        *,
        user_agent: str,
        timeout: float | None,
        ssl_context: ssl.SSLContext | None = None,
    ) -> None:
        """``timeout``: seconds a request may take in all (None: no limit); ``ssl_context``
        for https (default: the system's certificate authorities, as aiohttp's)."""
        self._user_agent = user_agent
        self._timeout = timeout
        self._ssl = ssl_context
        self._origins: dict[str, _Origin] = {}
        self._idle: dict[_Origin, deque[_Connection]] = {}
        #: The connections waiting for an answer, with the loop time each request began.
        self._busy: dict[_Connection, float] = {}
        self._sweep: asyncio.TimerHandle | None = None

    async def post(self, origin: str, path: str, body: bytes, content_type: str) -> Answer:
        """POST ``body`` to ``path`` (already quoted, e.g. ``/api/v10/…``) at ``origin``
        (``https://host[:port]`` or ``http://…``); its answer, whatever the status.

        Raises :class:`aiohttp.ClientOSError` when no connection can be made,
        :class:`aiohttp.ServerDisconnectedError` when the server closes it before
        answering, :class:`TimeoutError` past the timeout (the connection is then closed)."""
        where = self._origins.get(origin)
        if where is None:
            where = self._origins[origin] = _Origin.parse(origin)
        request = (
            f"POST {path} HTTP/1.1\r\n"
            f"Host: {where.host_header}\r\n"
            f"User-Agent: {self._user_agent}\r\n"
            f"Content-Type: {content_type}\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        ).encode("latin-1") + body
        loop = asyncio.get_running_loop()
        while True:
            connection = self._kept(where, loop.time())
            if connection is None:
                async with asyncio.timeout(self._timeout):  # the connection and its handshake
                    connection = await self._connect(where, loop)
            self._busy[connection] = loop.time()
            if self._timeout is not None and self._sweep is None:
                self._sweep = loop.call_later(self._sweep_every(), self._time_out, loop)
            try:
                answer = await connection.exchange(request)
            except aiohttp.ServerDisconnectedError:
                if connection.stale():
                    continue  # a kept-alive connection the server had closed: once more
                raise
            except BaseException:
                connection.close()  # cancelled or timed out mid-exchange: never reused
                raise
            finally:
                del self._busy[connection]
            if not connection.closed:
                connection.idle_since = loop.time()
                self._idle[where].append(connection)
            return answer

    def close(self) -> None:
        """Close every connection, idle or in use."""
        for idle in self._idle.values():
            for connection in idle:
                connection.close()
            idle.clear()
        for connection in list(self._busy):
            connection.close()
        if self._sweep is not None:
            self._sweep.cancel()
            self._sweep = None

    def _sweep_every(self) -> float:
        """How often the requests in flight are checked (:data:`SWEEP_EVERY`, or half the
        timeout when shorter): a request times out at most that long after its timeout."""
        assert self._timeout is not None
        return min(SWEEP_EVERY, self._timeout / 2)

    def _time_out(self, loop: asyncio.AbstractEventLoop) -> None:
        assert self._timeout is not None
        self._sweep = None
        too_old = loop.time() - self._timeout
        for connection, began in list(self._busy.items()):
            if began <= too_old:
                connection.time_out()
        if self._busy:
            self._sweep = loop.call_later(self._sweep_every(), self._time_out, loop)

    def _kept(self, where: _Origin, now: float) -> _Connection | None:
        """An idle connection to ``where`` still open and not idle too long, if any."""
        idle = self._idle.get(where)
        if idle is None:
            idle = self._idle[where] = deque()
        while idle and not idle[0].usable(now):
            idle.popleft().close()  # the oldest, closed by the server or idle too long
        while idle:
            connection = idle.pop()  # the most recently used: the least likely to be stale
            if connection.usable(now):
                return connection
            connection.close()
        return None

    async def _connect(self, where: _Origin, loop: asyncio.AbstractEventLoop) -> _Connection:
        try:
            _transport, connection = await loop.create_connection(
                lambda: _Connection(loop),
                where.host,
                where.port,
                ssl=self._ssl_context() if where.scheme == "https" else None,
            )
        except OSError as error:
            raise aiohttp.ClientOSError(*error.args) from error
        return connection

    def _ssl_context(self) -> ssl.SSLContext:
        if self._ssl is None:
            self._ssl = ssl.create_default_context()
        return self._ssl
