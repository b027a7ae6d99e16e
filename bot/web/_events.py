"""Live pages across processes: the bot (``narrator run``) and the web (``narrator web``) are
separate processes on one database, so a change made in Discord reaches an open page by a
poll, kept cheap by sharing it.

One :class:`ChannelWatch` per web process reads a *mark* per watched channel (see
:func:`bot.services.campaign.marks`: it moves with every change of the channel's turn order
or roll log) for **all** watched channels in one read every :data:`POLL_SECONDS`, whatever the
number of open pages; each page's stream (:class:`Subscription`) wakes when its channel's mark
differs from the one it last saw. The poll runs only while some stream is open. Streams are
bounded per viewer and per address (:class:`StreamLimits`), and each ends after
:data:`STREAM_SECONDS` (the browser reconnects), so a forgotten tab holds nothing for long.

PostgreSQL's LISTEN/NOTIFY could replace the poll there; the poll works on SQLite too and
costs one indexed read per interval, so it is the one mechanism for now.

``/channels/{id}/events`` is the stream (``text/event-stream``): an event named ``change``
whose data is the channel's new mark, nothing else (the page then fetches what this viewer
may see). :func:`add_channel_pages` puts the campaign pages, this stream and its watch on
the application.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Iterator
from dataclasses import dataclass, field
from functools import partial

from aiohttp import web

from bot.i18n import _
from bot.services import campaign
from bot.web._channel import routes as channel_routes
from bot.web._channel import viewer_actor
from bot.web._channel_odds import routes as odds_routes
from bot.web._context import DATABASE
from bot.web._session import require_viewer

log = logging.getLogger(__name__)

#: How often the watched channels' marks are read: a change in Discord shows within ~0.5 s.
POLL_SECONDS = 0.4
#: A stream ends after this long (the browser's EventSource reconnects by itself).
STREAM_SECONDS = 15 * 60
#: A comment line keeps proxies from closing an idle stream.
KEEPALIVE_SECONDS = 20.0
#: Open streams at most per viewer, per address, and in the whole process.
PER_VIEWER = 6
PER_ADDRESS = 12
TOTAL = 2000

MarkReader = Callable[[Collection[int]], Awaitable[dict[int, str]]]
Sleep = Callable[[float], Awaitable[None]]


class TooManyStreams(Exception):
    """This viewer or address already holds as many live streams as allowed."""


@dataclass(eq=False)
class Subscription:
    """One open page's wait for its channel to change."""

    channel_id: int
    #: The mark the page shows (from the page itself, or the last change delivered).
    seen: str | None = None
    _pending: str | None = None
    _changed: asyncio.Event = field(default_factory=asyncio.Event)
    _ended: bool = False

    def end(self) -> None:
        """The server is shutting down: the stream ends (the browser reconnects later)."""
        self._ended = True
        self._changed.set()

    def offer(self, mark: str) -> None:
        """The channel's current mark: wakes the page when it is not the one it shows."""
        if mark != self.seen:
            self._pending = mark
            self._changed.set()

    async def changed(self) -> str | None:
        """The channel's new mark, once it differs from the one this page shows, or None
        when the stream is to end (the caller bounds the wait with ``asyncio.timeout`` to
        send keep-alives)."""
        await self._changed.wait()
        if self._ended:
            return None
        self._changed.clear()
        self.seen = self._pending
        return self.seen or ""


class ChannelWatch:
    """Shared polling of channel marks for every open stream of this process."""

    def __init__(
        self, read: MarkReader, *, interval: float = POLL_SECONDS, sleep: Sleep = asyncio.sleep
    ) -> None:
        self._read = read
        self._interval = interval
        self._sleep = sleep
        self._streams: dict[int, set[Subscription]] = {}
        self._marks: dict[int, str] = {}
        self._task: asyncio.Task[None] | None = None

    @property
    def channels(self) -> frozenset[int]:
        return frozenset(self._streams)

    @contextlib.asynccontextmanager
    async def subscribe(
        self, channel_id: int, seen: str | None = None
    ) -> AsyncIterator[Subscription]:
        """Watch ``channel_id`` while the block runs; ``seen``: the mark the page was drawn
        at, so a change between drawing it and opening the stream is not missed."""
        subscription = Subscription(channel_id, seen=seen)
        self._streams.setdefault(channel_id, set()).add(subscription)
        known = self._marks.get(channel_id)
        if known is not None and seen is not None:
            subscription.offer(known)
        self._start()
        try:
            yield subscription
        finally:
            streams = self._streams.get(channel_id, set())
            streams.discard(subscription)
            if not streams:
                self._streams.pop(channel_id, None)
                self._marks.pop(channel_id, None)

    async def poll_once(self) -> None:
        """Read every watched channel's mark in one read and wake the streams it moved."""
        channels = list(self._streams)
        if not channels:
            return
        try:
            marks = await self._read(channels)
        except Exception:  # the database may be restarting: try again next interval
            log.exception("could not read channel marks")
            return
        for channel_id, mark in marks.items():
            if channel_id not in self._streams:
                continue  # its last page closed during the read
            self._marks[channel_id] = mark
            for subscription in list(self._streams[channel_id]):
                subscription.offer(mark)

    def _start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while self._streams:
            await self.poll_once()
            await self._sleep(self._interval)

    async def close(self) -> None:
        """Stop polling and end every open stream (the web app's shutdown, which otherwise
        waits for them)."""
        for streams in self._streams.values():
            for subscription in streams:
                subscription.end()
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


class StreamLimits:
    """How many live streams one viewer, one address and the process hold at once."""

    def __init__(
        self, *, per_viewer: int = PER_VIEWER, per_address: int = PER_ADDRESS, total: int = TOTAL
    ) -> None:
        self._limits = {"viewer": per_viewer, "address": per_address}
        self._total = total
        self._open: dict[tuple[str, object], int] = {}
        self._count = 0

    @contextlib.contextmanager
    def hold(self, *, viewer: int, address: str) -> Iterator[None]:
        """Count one stream for ``viewer`` and ``address`` while the block runs, or raise
        :class:`TooManyStreams` at once (the page then stays static: it still works)."""
        keys = [("viewer", viewer), ("address", address)]
        if self._count >= self._total or any(
            self._open.get(key, 0) >= self._limits[key[0]] for key in keys
        ):
            raise TooManyStreams
        for key in keys:
            self._open[key] = self._open.get(key, 0) + 1
        self._count += 1
        try:
            yield
        finally:
            self._count -= 1
            for key in keys:
                self._open[key] -= 1
                if not self._open[key]:
                    del self._open[key]


#: A mark as :func:`bot.services.campaign.marks` writes it (anything else is ignored).
_MARK = re.compile(r"^[0-9.]{1,100}$")

WATCH = web.AppKey("channel_watch", ChannelWatch)
LIMITS = web.AppKey("stream_limits", StreamLimits)

routes = web.RouteTableDef()


def add_channel_pages(app: web.Application) -> None:
    """The campaign pages, their live stream, and the watch they share (closed with the app)."""
    app.add_routes(channel_routes)
    app.add_routes(odds_routes)
    app.add_routes(routes)
    app[LIMITS] = StreamLimits()

    async def start(app: web.Application) -> None:
        app[WATCH] = ChannelWatch(partial(campaign.marks, app[DATABASE]))

    async def stop(app: web.Application) -> None:
        await app[WATCH].close()

    app.on_startup.append(start)
    app.on_shutdown.append(stop)  # before open connections are waited for


@routes.get("/channels/{channel_id}/events", name="channel_events")
async def channel_events(request: web.Request) -> web.StreamResponse:
    """The channel's changes as server-sent events, for a member of its guild."""
    viewer = require_viewer(request)
    actor = await viewer_actor(request)
    seen = request.query.get("mark") or request.headers.get("Last-Event-ID")
    try:
        with request.app[LIMITS].hold(viewer=viewer.user_id, address=request.remote or ""):
            return await _stream(request, actor.channel_id, seen if _valid(seen) else None)
    except TooManyStreams:
        raise web.HTTPTooManyRequests(
            text=_("Too many live pages are open: close some, or refresh this one by hand."),
            headers={"Retry-After": "60"},
        ) from None


def _valid(mark: str | None) -> bool:
    return mark is not None and bool(_MARK.match(mark))


async def _stream(request: web.Request, channel_id: int, seen: str | None) -> web.StreamResponse:
    response = web.StreamResponse(
        headers={
            "Content-Type": "text/event-stream",
            "Cache-Control": "no-store",
            "X-Accel-Buffering": "no",  # nginx: pass each event on at once
        }
    )
    await response.prepare(request)
    await response.write(b"retry: 2000\n\n")
    loop = asyncio.get_running_loop()
    ends = loop.time() + STREAM_SECONDS
    async with request.app[WATCH].subscribe(channel_id, seen=seen) as subscription:
        while loop.time() < ends:
            try:
                async with asyncio.timeout(KEEPALIVE_SECONDS):
                    mark = await subscription.changed()
            except TimeoutError:
                mark = ""
            if mark is None:
                break  # the server is shutting down
            text = f"id: {mark}\nevent: change\ndata: {mark}\n\n" if mark else ": keep-alive\n\n"
            try:
                await response.write(text.encode())
            except ConnectionError:  # the page was closed: nothing more to say
                break
    return response
