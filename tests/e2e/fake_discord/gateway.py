"""The gateway half of the stand-in: one session, zlib-stream frames, IDENTIFY and RESUME.

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
from typing import Any

from aiohttp import WSMsgType, web

from tests.e2e.fake_discord import payloads as p
from tests.e2e.fake_discord.results import TOKEN, InteractionResult

log = logging.getLogger("fake_discord")

# Gateway opcodes.
DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE_STATE = 0, 1, 2, 3, 4
RESUME, RECONNECT, REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 6, 7, 8, 9, 10, 11


class GatewayMixin:
    """The session: sequence numbers, a replay buffer, the current connection."""

    # State kept by FakeDiscord.__init__, declared for readers.
    session_id: str | None
    seq: int
    buffer: collections.deque[tuple[int, str, InteractionResult | None]]
    identifies: int
    resumes: int
    heartbeats: int
    _socket: GatewaySocket | None

    @property
    def live(self) -> bool:
        return self._socket is not None and self._socket.live

    async def disconnect(self, code: int = 4000) -> None:
        """Close the gateway connection; a 4000-range code makes the client RESUME."""
        socket = self._socket
        if socket is not None:
            await socket.close(code)

    async def wait_ready(self, within: float = 30.0, *, identifies: int = 1) -> None:
        """Until the bot identified (``identifies`` times in all) and got READY + GUILD_CREATE."""
        await self._wait_state(lambda: self.identifies >= identifies and self.live, within, "READY")

    async def wait_resumed(self, within: float = 15.0, *, resumes: int = 1) -> None:
        await self._wait_state(lambda: self.resumes >= resumes and self.live, within, "RESUMED")

    def dispatch(
        self, event: str, data: dict[str, Any], *, on_sent: InteractionResult | None = None
    ) -> None:
        """Queue a DISPATCH in the session; it is sent now if connected, else on RESUME."""
        self.seq += 1
        text = json.dumps({"op": DISPATCH, "t": event, "s": self.seq, "d": data})
        self.buffer.append((self.seq, text, on_sent))
        socket = self._socket
        if socket is not None and socket.live:
            socket.send_soon(text, on_sent)

    def _ready_payload(self) -> dict[str, Any]:
        return {
            "v": 10,
            "user": self.bot_user,
            "guilds": [{"id": str(self.table.guild_id), "unavailable": True}],
            "session_id": self.session_id,
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

    def _guild_payload(self) -> dict[str, Any]:
        table = self.table
        guild_id = table.guild_id
        everyone = p.role(guild_id, "@everyone", permissions=p.EVERYONE_PERMISSIONS, position=0)
        gm_role = p.role(table.gm_role_id, "GM", permissions=p.EVERYONE_PERMISSIONS, position=1)
        bot_member = p.member(self.bot_user, [], permissions=p.EVERYONE_PERMISSIONS)
        members = [self._member(who) for who in table.users] + [bot_member]
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
        previous, self._socket = self._socket, socket
        if previous is not None:
            await previous.close(4000)
        try:
            await socket.run()
        finally:
            if self._socket is socket:
                self._socket = None
            self._changed()
        return ws

    async def _identify(self, socket: GatewaySocket, data: dict[str, Any]) -> None:
        if data.get("token") != TOKEN:
            await socket.close(4004)  # authentication failed
            return
        shard = data.get("shard")  # [id, count]: sent by discord.py's AutoShardedClient
        if shard is not None and list(shard) != [0, 1]:
            await socket.close(4010)  # invalid shard: this stand-in serves one shard
            return
        self.identifies += 1
        self.session_id = secrets.token_hex(16)
        self.seq = 0
        self.buffer.clear()
        ready = self._ready_payload()
        if shard is not None:
            ready["shard"] = list(shard)
        self.dispatch("READY", ready)  # buffered: the socket is not live yet
        socket.enqueue_from(0)
        socket.live = True
        self.dispatch("GUILD_CREATE", self._guild_payload())
        self._changed()

    async def _resume(self, socket: GatewaySocket, data: dict[str, Any]) -> None:
        oldest = self.buffer[0][0] if self.buffer else self.seq + 1
        seq = int(data.get("seq") or 0)
        if (
            data.get("token") != TOKEN
            or data.get("session_id") != self.session_id
            or seq + 1 < oldest
        ):
            await socket.send_json({"op": INVALID_SESSION, "d": False})
            return
        self.resumes += 1
        self.dispatch("RESUMED", {"_trace": ["fake-discord"]})  # after the replayed events
        socket.enqueue_from(seq)
        socket.live = True
        self._changed()

    def _members_chunk(self, data: dict[str, Any]) -> dict[str, Any]:
        members = self._guild_payload()["members"]
        return {
            "guild_id": str(self.table.guild_id),
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
        for event_seq, text, result in self.fake.buffer:
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
                    await self.send_json({"op": HEARTBEAT_ACK})
                elif op == IDENTIFY:
                    await fake._identify(self, data or {})
                elif op == RESUME:
                    await fake._resume(self, data or {})
                elif op == REQUEST_MEMBERS:
                    fake.dispatch("GUILD_MEMBERS_CHUNK", fake._members_chunk(data or {}))
                elif op in (PRESENCE, VOICE_STATE):
                    pass
                else:
                    log.error("fake Discord: unknown gateway op %s: %s", op, frame)
        finally:
            self.live = False
            self._queue.put_nowait(None)
            await asyncio.gather(self._writer, return_exceptions=True)
