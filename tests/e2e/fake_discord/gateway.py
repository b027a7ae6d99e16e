"""The gateway half of the stand-in: a session per shard, zlib-stream frames, IDENTIFY, RESUME.

``GatewayMixin`` is mixed into :class:`~tests.e2e.fake_discord.server.FakeDiscord` and works
on its state (the table, the bot user, the recorded requests).
"""

from __future__ import annotations

import asyncio
import collections
import json
import logging
import secrets
import time
import zlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from tests.e2e.fake_discord import payloads as p
from tests.e2e.fake_discord.results import TOKEN, InteractionResult

if TYPE_CHECKING:
    from tests.e2e.fake_discord.server import Table

log = logging.getLogger("fake_discord")

# Gateway opcodes.
DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE_STATE = 0, 1, 2, 3, 4
RESUME, RECONNECT, REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 6, 7, 8, 9, 10, 11
#: Seconds before a heartbeat is acknowledged: the network's round trip to Discord, never zero.
#: discord.py's heartbeat thread notes the send time only once it has the GIL back after the
#: send, so on a loopback socket, with the bot's loop busy, the acknowledgement can be read
#: first and is timed against the previous beat: the bot's latency then reads the heartbeat
#: interval, and it logs "Can't keep up, websocket is 41.3s behind" (seen under load runs).
HEARTBEAT_RTT = 0.02


@dataclass
class Session:
    """One shard's gateway session: sequence numbers, a replay buffer, its connection."""

    shard: int
    session_id: str | None = None
    seq: int = 0
    buffer: collections.deque[tuple[int, str, InteractionResult | None]] = field(
        default_factory=lambda: collections.deque(maxlen=50_000)
    )
    socket: GatewaySocket | None = None

    @property
    def live(self) -> bool:
        return self.socket is not None and self.socket.live


class GatewayMixin:
    """The sessions, one per shard: a guild's events go to shard ``(guild_id >> 22) % count``.

    ``/gateway/bot`` recommends :attr:`shard_count` shards; an IDENTIFY names its shard as
    ``[id, count]`` (none means shard 0 of 1, as an unsharded client sends).
    """

    # State kept by FakeDiscord.__init__, declared for readers.
    shard_count: int
    sessions: dict[int, Session]
    identifies: int
    resumes: int
    heartbeats: int
    dispatched_on: dict[str, int]  # interaction token -> the shard it was sent on

    def shard_of(self, guild_id: int) -> int:
        return (guild_id >> 22) % self.shard_count

    def _session(self, shard: int) -> Session:
        if shard not in self.sessions:
            self.sessions[shard] = Session(shard)
        return self.sessions[shard]

    @property
    def live(self) -> bool:
        """Every shard that has identified is connected (shard 0 at least)."""
        return bool(self.sessions) and all(s.live for s in self.sessions.values())

    def shard_live(self, shard: int) -> bool:
        return shard in self.sessions and self.sessions[shard].live

    async def disconnect(self, code: int = 4000) -> None:
        """Close every gateway connection; a 4000-range code makes the client RESUME."""
        for session in list(self.sessions.values()):
            if session.socket is not None:
                await session.socket.close(code)

    async def wait_ready(self, within: float = 120.0, *, identifies: int = 1) -> None:
        """Until the bot identified (``identifies`` times in all) and got READY + GUILD_CREATE."""
        await self._wait_state(lambda: self.identifies >= identifies and self.live, within, "READY")

    async def wait_shards(self, shards: list[int], within: float = 120.0) -> None:
        """Until each of ``shards`` is identified and connected."""
        await self._wait_state(
            lambda: all(self.shard_live(s) for s in shards), within, f"shards {shards}"
        )

    async def wait_resumed(self, within: float = 60.0, *, resumes: int = 1) -> None:
        await self._wait_state(lambda: self.resumes >= resumes and self.live, within, "RESUMED")

    def dispatch(
        self,
        event: str,
        data: dict[str, Any],
        *,
        on_sent: InteractionResult | None = None,
        shard: int | None = None,
    ) -> None:
        """Queue a DISPATCH in the guild's shard session (``data["guild_id"]``; else shard 0);
        it is sent now if that shard is connected, else on its RESUME."""
        if shard is None:
            guild_id = data.get("guild_id") if isinstance(data, dict) else None
            shard = self.shard_of(int(guild_id)) if guild_id else 0
        session = self._session(shard)
        session.seq += 1
        text = json.dumps({"op": DISPATCH, "t": event, "s": session.seq, "d": data})
        session.buffer.append((session.seq, text, on_sent))
        if on_sent is not None:
            self.dispatched_on[on_sent.token] = shard
        socket = session.socket
        if socket is not None and socket.live:
            socket.send_soon(text, on_sent)

    def _ready_payload(self, session: Session) -> dict[str, Any]:
        guilds = [t for t in self.tables if self.shard_of(t.guild_id) == session.shard]
        return {
            "v": 10,
            "user": self.bot_user,
            "guilds": [{"id": str(t.guild_id), "unavailable": True} for t in guilds],
            "session_id": session.session_id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "application": {"id": str(self.application_id), "flags": 0},
            "user_settings": {},
            "geo_ordered_rtc_regions": [],
            "_trace": ["fake-discord"],
        }

    def _guild_payload(self, table: Table) -> dict[str, Any]:
        guild_id = table.guild_id
        everyone = p.role(guild_id, "@everyone", permissions=p.EVERYONE_PERMISSIONS, position=0)
        gm_role = p.role(table.gm_role_id, "GM", permissions=p.EVERYONE_PERMISSIONS, position=1)
        bot_member = p.member(self.bot_user, [], permissions=p.EVERYONE_PERMISSIONS)
        members = [self._member(who, table) for who in table.users] + [bot_member]
        for member in members:
            member.pop("permissions")
        return {
            "id": str(guild_id),
            "name": "The Table",
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": self.owner["id"],
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [everyone, gm_role],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "preferred_locale": "en-US",
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": "2024-01-01T00:00:00+00:00",
            "large": False,
            "unavailable": False,
            "member_count": len(members),
            "voice_states": [],
            "members": members,
            "channels": [
                p.text_channel(cid, guild_id, f"table-{i}", i)
                for i, cid in enumerate(table.channel_ids)
            ],
            "threads": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        self._record(request, None, 101)
        if request.query.get("encoding", "json") != "json":
            raise web.HTTPBadRequest(text="only encoding=json is supported")
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        socket = GatewaySocket(self, ws, compress=request.query.get("compress"))
        try:
            await socket.run()
        finally:
            session = socket.session
            if session is not None and session.socket is socket:
                session.socket = None
            self._changed()
        return ws

    async def _attach(self, socket: GatewaySocket, session: Session) -> None:
        """``socket`` now carries ``session``; a connection it had before is closed."""
        previous, session.socket = session.socket, socket
        socket.session = session
        if previous is not None and previous is not socket:
            await previous.close(4000)

    async def _identify(self, socket: GatewaySocket, data: dict[str, Any]) -> None:
        if data.get("token") != TOKEN:
            await socket.close(4004)  # authentication failed
            return
        shard = data.get("shard")  # [id, count]: sent by discord.py's AutoShardedClient
        shard_id, count = (int(shard[0]), int(shard[1])) if shard is not None else (0, 1)
        if count != self.shard_count or not 0 <= shard_id < count:
            await socket.close(4010 if count == self.shard_count else 4011)  # invalid shard
            return
        self.identifies += 1
        session = Session(shard_id, session_id=secrets.token_hex(16))
        old = self.sessions.get(shard_id)
        self.sessions[shard_id] = session
        if old is not None and old.socket is not None and old.socket is not socket:
            await old.socket.close(4000)
        await self._attach(socket, session)
        ready = self._ready_payload(session)
        if shard is not None:
            ready["shard"] = [shard_id, count]
        self.dispatch("READY", ready, shard=shard_id)  # buffered: the socket is not live yet
        socket.enqueue_from(0)
        socket.live = True
        for table in self.tables:
            if self.shard_of(table.guild_id) == shard_id:
                self.dispatch("GUILD_CREATE", self._guild_payload(table), shard=shard_id)
        self._changed()

    async def _resume(self, socket: GatewaySocket, data: dict[str, Any]) -> None:
        session = next(
            (s for s in self.sessions.values() if s.session_id == data.get("session_id")), None
        )
        seq = int(data.get("seq") or 0)
        if session is None or data.get("token") != TOKEN:
            await socket.send_json({"op": INVALID_SESSION, "d": False})
            return
        oldest = session.buffer[0][0] if session.buffer else session.seq + 1
        if seq + 1 < oldest:
            await socket.send_json({"op": INVALID_SESSION, "d": False})
            return
        self.resumes += 1
        await self._attach(socket, session)
        # After the replayed events.
        self.dispatch("RESUMED", {"_trace": ["fake-discord"]}, shard=session.shard)
        socket.enqueue_from(seq)
        socket.live = True
        self._changed()

    def _members_chunk(self, data: dict[str, Any]) -> dict[str, Any]:
        table = self.table_of_guild(int(data.get("guild_id") or 0)) or self.table
        members = self._guild_payload(table)["members"]
        return {
            "guild_id": str(table.guild_id),
            "members": members,
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
            "nonce": data.get("nonce"),
        }


class GatewaySocket:
    """One gateway connection: zlib-stream framing, heartbeats, IDENTIFY/RESUME."""

    def __init__(self, fake: GatewayMixin, ws: web.WebSocketResponse, *, compress: str | None):
        if compress not in (None, "zlib-stream"):
            raise web.HTTPBadRequest(text=f"unsupported compress={compress}")
        self.fake = fake
        self.ws = ws
        self.live = False  # dispatches flow once READY/RESUMED was sent
        self.session: Session | None = None  # set by IDENTIFY or RESUME
        self._zlib = zlib.compressobj() if compress == "zlib-stream" else None
        self._queue: asyncio.Queue[tuple[str, InteractionResult | None] | None] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None

    async def _send_text(self, text: str) -> None:
        if self._zlib is not None:
            data = self._zlib.compress(text.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
            await self.ws.send_bytes(data)
        else:
            await self.ws.send_str(text)

    async def send_json(self, payload: dict[str, Any]) -> None:
        await self._send_text(json.dumps(payload))

    def send_soon(self, text: str, result: InteractionResult | None) -> None:
        self._queue.put_nowait((text, result))

    def enqueue_from(self, seq: int) -> None:
        """Queue every buffered dispatch after ``seq`` (READY, or what a RESUME missed).

        Synchronous on purpose: nothing can be dispatched in between, so order is kept."""
        assert self.session is not None
        for event_seq, text, result in self.session.buffer:
            if event_seq > seq:
                self._queue.put_nowait((text, result))

    async def _write_loop(self) -> None:
        # One writer keeps dispatches in order and off the REST handlers' path.
        while (item := await self._queue.get()) is not None:
            text, result = item
            try:
                await self._send_text(text)
            except Exception:  # the connection went away: what is unsent waits for a RESUME
                return
            if result is not None and result.sent_at is None:
                result.sent_at = time.perf_counter()

    async def close(self, code: int) -> None:
        self.live = False
        if not self.ws.closed:
            await self.ws.close(code=code, message=b"fake Discord closed the connection")

    async def run(self) -> None:
        fake = self.fake
        await self.send_json({"op": HELLO, "d": {"heartbeat_interval": 41_250}})
        self._writer = asyncio.create_task(self._write_loop())
        try:
            async for msg in self.ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op, data = frame.get("op"), frame.get("d")
                if op == HEARTBEAT:
                    fake.heartbeats += 1
                    asyncio.get_running_loop().call_later(
                        HEARTBEAT_RTT, self.send_soon, json.dumps({"op": HEARTBEAT_ACK}), None
                    )
                elif op == IDENTIFY:
                    await fake._identify(self, data or {})
                elif op == RESUME:
                    await fake._resume(self, data or {})
                elif op == REQUEST_MEMBERS and self.session is not None:
                    chunk = fake._members_chunk(data or {})
                    fake.dispatch("GUILD_MEMBERS_CHUNK", chunk, shard=self.session.shard)
                elif op in (PRESENCE, VOICE_STATE):
                    pass
                else:
                    log.error("fake Discord: unknown gateway op %s: %s", op, frame)
        finally:
            self.live = False
            self._queue.put_nowait(None)
            await asyncio.gather(self._writer, return_exceptions=True)
