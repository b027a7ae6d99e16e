"""A local Discord: REST and gateway on 127.0.0.1, speaking the real protocol to the real bot.

The bot process (``narrator run``) reaches it through ``DISCORD_API_BASE`` and
``DISCORD_GATEWAY_URL``. Every HTTP request is recorded; a route the stand-in does not know
is logged loudly and answered 404, so a test notices when the bot calls something new.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import re
import secrets
import time
import zlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from tests.e2e.fake_discord import payloads as p
from tests.e2e.fake_discord.validation import message_errors

log = logging.getLogger("fake_discord")

TOKEN = "dummy"
INTERACTION_DEADLINE = 3.0  # seconds Discord waits for the first callback
EPHEMERAL = 1 << 6

# Gateway opcodes.
DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE_STATE = 0, 1, 2, 3, 4
RESUME, RECONNECT, REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 6, 7, 8, 9, 10, 11


@dataclass
class Request:
    """One HTTP request or websocket connection the stand-in received."""

    at: float
    method: str
    path: str
    query: dict[str, str]
    host: str
    body: Any = None
    status: int = 0


class InteractionResult:
    """What the bot did with one interaction: its callback, follow-ups and edits."""

    def __init__(self, payload: dict[str, Any], name: str) -> None:
        self.payload = payload
        self.name = name
        self.id = int(payload["id"])
        self.token: str = payload["token"]
        self.created_at = time.perf_counter()
        self.sent_at: float | None = None
        self.callback: dict[str, Any] | None = None
        self.callback_at: float | None = None
        self.callback_status: int | None = None
        self.message: dict[str, Any] | None = None
        self.followups: list[dict[str, Any]] = []
        self.edits: list[dict[str, Any]] = []
        self._waiters: list[asyncio.Future[None]] = []

    # -- what the bot answered --------------------------------------------------------------
    @property
    def callback_type(self) -> int | None:
        return None if self.callback is None else self.callback.get("type")

    @property
    def data(self) -> dict[str, Any]:
        return (self.callback or {}).get("data") or {}

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return list(self.data.get("embeds") or [])

    @property
    def content(self) -> str:
        return self.data.get("content") or ""

    @property
    def ephemeral(self) -> bool:
        return bool(int(self.data.get("flags") or 0) & EPHEMERAL)

    @property
    def latency(self) -> float | None:
        """Seconds from dispatching INTERACTION_CREATE to receiving the callback."""
        if self.callback_at is None:
            return None
        return self.callback_at - (self.sent_at or self.created_at)

    def all_embeds(self) -> list[dict[str, Any]]:
        """Embeds of the callback, then of every follow-up and edit, in order."""
        found = self.embeds
        for body in [*self.followups, *self.edits]:
            found.extend(body.get("embeds") or [])
        return found

    # -- waiting ----------------------------------------------------------------------------
    def _notify(self) -> None:
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_result(None)
        self._waiters.clear()

    async def wait_until(self, predicate: Callable[[], bool], within: float) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within
        while not predicate():
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(
                    f"/{self.name}: timed out; callback={self.callback!r} "
                    f"followups={len(self.followups)} edits={len(self.edits)}"
                )
            waiter = loop.create_future()
            self._waiters.append(waiter)
            try:
                await asyncio.wait_for(waiter, remaining)
            except TimeoutError:
                continue

    async def wait(self, within: float = 10.0, *, followups: int = 0, edits: int = 0) -> None:
        await self.wait_until(
            lambda: (
                self.callback_status not in (None, 200)  # refused: late or invalid
                or (
                    self.callback is not None
                    and len(self.followups) >= followups
                    and len(self.edits) >= edits
                )
            ),
            within,
        )

    def __repr__(self) -> str:
        return f"<InteractionResult /{self.name} callback_type={self.callback_type}>"


@dataclass
class Table:
    """The guild the bot lives in: channels, a GM role, a GM and three players."""

    guild_id: int
    channel_ids: list[int]
    gm_role_id: int
    users: dict[str, dict[str, Any]] = field(default_factory=dict)
    role_ids: dict[str, list[int]] = field(default_factory=dict)


class FakeDiscord:
    """The stand-in's state, its HTTP app and the driver API tests use."""

    def __init__(self, *, channels: int = 20, players: tuple[str, ...] = ("alice", "bob", "carol")):
        self.application_id = p.snowflake()
        self.bot_user = p.user(self.application_id, "narrator", bot=True)
        self.owner = p.user(p.snowflake(), "owner")
        guild_id = p.snowflake()
        self.table = Table(
            guild_id=guild_id,
            channel_ids=[p.snowflake() for _ in range(channels)],
            gm_role_id=p.snowflake(),
        )
        self.table.users["gm"] = p.user(p.snowflake(), "gm")
        self.table.role_ids["gm"] = [self.table.gm_role_id]
        for name in players:
            self.table.users[name] = p.user(p.snowflake(), name)
            self.table.role_ids[name] = []
        self.requests: list[Request] = []
        self.unknown: list[Request] = []
        self.rejected: list[tuple[Request, list[str]]] = []
        self.late_callbacks: list[InteractionResult] = []
        self.global_commands: dict[str, dict[str, Any]] = {}
        self.guild_commands: dict[int, dict[str, dict[str, Any]]] = {}
        self.command_syncs = 0
        self.messages: dict[int, dict[str, Any]] = {}
        self.channel_messages: dict[int, list[dict[str, Any]]] = collections.defaultdict(list)
        self.dm_channels: dict[int, dict[str, Any]] = {}
        self.results: dict[str, InteractionResult] = {}  # by token
        self.max_results = 100_000
        self.on_callback: Callable[[InteractionResult], None] | None = None
        # Gateway session.
        self.session_id: str | None = None
        self.seq = 0
        self.buffer: collections.deque[tuple[int, str, InteractionResult | None]] = (
            collections.deque(maxlen=50_000)
        )
        self.identifies = 0
        self.resumes = 0
        self.heartbeats = 0
        self._socket: _GatewaySocket | None = None
        self._connected = asyncio.Event()
        self._state_changed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port: int = 0
        self._routes = self._build_routes()

    # -- lifecycle --------------------------------------------------------------------------
    async def start(self) -> None:
        app = web.Application(client_max_size=16 * 1024 * 1024)
        app.router.add_route("GET", "/gateway", self._gateway)
        app.router.add_route("*", "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        if self._socket is not None:
            await self._socket.close(1001)
        if self._runner is not None:
            await self._runner.cleanup()

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.stop()

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    def bot_env(self) -> dict[str, str]:
        """The environment that points ``narrator run`` here."""
        return {
            "DISCORD_TOKEN": TOKEN,
            "DISCORD_API_BASE": self.api_base,
            "DISCORD_GATEWAY_URL": self.gateway_url,
            "DEV_GUILD_ID": str(self.table.guild_id),
        }

    # -- driver API -------------------------------------------------------------------------
    async def _wait_state(self, predicate: Callable[[], bool], within: float, what: str) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within
        while not predicate():
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"fake Discord: timed out waiting for {what}")
            self._state_changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._state_changed.wait(), min(remaining, 0.5))

    def _changed(self) -> None:
        self._state_changed.set()

    async def wait_ready(self, within: float = 30.0, *, identifies: int = 1) -> None:
        """Until the bot identified (``identifies`` times in all) and got READY + GUILD_CREATE."""
        await self._wait_state(lambda: self.identifies >= identifies and self.live, within, "READY")

    async def wait_resumed(self, within: float = 15.0, *, resumes: int = 1) -> None:
        await self._wait_state(lambda: self.resumes >= resumes and self.live, within, "RESUMED")

    @property
    def live(self) -> bool:
        return self._socket is not None and self._socket.live

    async def disconnect(self, code: int = 4000) -> None:
        """Close the gateway connection; a 4000-range code makes the client RESUME."""
        socket = self._socket
        if socket is not None:
            await socket.close(code)

    def commands(self) -> dict[str, dict[str, Any]]:
        """The synced commands the bot can be sent: guild ones, else global ones."""
        return self.guild_commands.get(self.table.guild_id) or self.global_commands

    def has_command(self, qualified_name: str) -> bool:
        head, *path = qualified_name.split()
        definition = self.commands().get(head)
        for name in path:
            if definition is None:
                return False
            definition = next(
                (
                    o
                    for o in definition.get("options") or []
                    if o["name"] == name and o["type"] in (p.SUB_COMMAND, p.SUB_COMMAND_GROUP)
                ),
                None,
            )
        return definition is not None

    def channel(self, index: int = 0) -> int:
        return self.table.channel_ids[index]

    def user_id(self, who: str) -> int:
        return int(self.table.users[who]["id"])

    def _member(self, who: str) -> dict[str, Any]:
        return p.member(
            self.table.users[who], self.table.role_ids[who], permissions=p.EVERYONE_PERMISSIONS
        )

    def _interaction(
        self, kind: int, data: dict[str, Any], *, channel_id: int, who: str
    ) -> dict[str, Any]:
        interaction_id = p.snowflake()
        guild_id = self.table.guild_id
        return {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "guild_id": str(guild_id),
            "guild": {"id": str(guild_id), "locale": "en-US", "features": []},
            "channel_id": str(channel_id),
            "channel": p.text_channel(channel_id, guild_id, f"table-{channel_id}", 0),
            "member": self._member(who),
            "token": f"{interaction_id}.{secrets.token_urlsafe(24)}",
            "version": 1,
            "app_permissions": str(p.EVERYONE_PERMISSIONS),
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild_id)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }

    def command_payload(
        self,
        qualified_name: str,
        *,
        channel: int | None = None,
        user: str = "alice",
        **options: Any,
    ) -> dict[str, Any]:
        """The INTERACTION_CREATE of a slash command, typed after the synced definition."""
        head, *path = qualified_name.split()
        definition = self.commands().get(head)
        if definition is None:
            raise KeyError(f"/{head} is not synced (synced: {sorted(self.commands())})")
        data: dict[str, Any] = {
            "id": definition["id"],
            "name": head,
            "type": 1,
            "options": p.command_options(definition, path, options),
        }
        if "guild_id" in definition:
            data["guild_id"] = definition["guild_id"]
        return self._interaction(
            p.APPLICATION_COMMAND,
            data,
            channel_id=channel if channel is not None else self.channel(0),
            who=user,
        )

    def button_payload(
        self,
        message: dict[str, Any],
        *,
        user: str = "alice",
        custom_id: str | None = None,
        label: str | None = None,
    ) -> dict[str, Any]:
        """The INTERACTION_CREATE of pressing a button on ``message`` (its current version)."""
        current = self.messages.get(int(message["id"]), message)
        component = p.find_component(current, custom_id=custom_id, label=label)
        payload = self._interaction(
            p.MESSAGE_COMPONENT,
            {"custom_id": component["custom_id"], "component_type": component["type"]},
            channel_id=int(current["channel_id"]),
            who=user,
        )
        payload["message"] = current
        return payload

    def send(self, payload: dict[str, Any], name: str) -> InteractionResult:
        """Dispatch an interaction now; returns at once (await ``result.wait()``)."""
        result = InteractionResult(payload, name)
        if len(self.results) >= self.max_results:
            self.results.pop(next(iter(self.results)))
        self.results[result.token] = result
        self.dispatch("INTERACTION_CREATE", payload, on_sent=result)
        return result

    async def interact(
        self,
        qualified_name: str,
        *,
        channel: int | None = None,
        user: str = "alice",
        within: float = 10.0,
        followups: int = 0,
        **options: Any,
    ) -> InteractionResult:
        """Run a slash command and wait for its callback (and ``followups`` follow-ups)."""
        payload = self.command_payload(qualified_name, channel=channel, user=user, **options)
        result = self.send(payload, qualified_name)
        await result.wait(within, followups=followups)
        return result

    async def click(
        self,
        message: dict[str, Any],
        *,
        user: str = "alice",
        custom_id: str | None = None,
        label: str | None = None,
        within: float = 10.0,
        followups: int = 0,
    ) -> InteractionResult:
        """Press a button on ``message`` and wait for the callback."""
        payload = self.button_payload(message, user=user, custom_id=custom_id, label=label)
        result = self.send(payload, f"button {payload['data']['custom_id']}")
        await result.wait(within, followups=followups)
        return result

    # -- gateway ----------------------------------------------------------------------------
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
        socket = _GatewaySocket(self, ws, compress=request.query.get("compress"))
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

    async def _identify(self, socket: _GatewaySocket, data: dict[str, Any]) -> None:
        if data.get("token") != TOKEN:
            await socket.close(4004)  # authentication failed
            return
        self.identifies += 1
        self.session_id = secrets.token_hex(16)
        self.seq = 0
        self.buffer.clear()
        self.dispatch("READY", self._ready_payload())  # buffered: the socket is not live yet
        socket.enqueue_from(0)
        socket.live = True
        self.dispatch("GUILD_CREATE", self._guild_payload())
        self._changed()

    async def _resume(self, socket: _GatewaySocket, data: dict[str, Any]) -> None:
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

    # -- REST -------------------------------------------------------------------------------
    def _record(self, request: web.Request, body: Any, status: int) -> Request:
        entry = Request(
            at=time.time(),
            method=request.method,
            path=request.path,
            query=dict(request.query),
            host=request.host,
            body=body,
            status=status,
        )
        self.requests.append(entry)
        return entry

    def _build_routes(
        self,
    ) -> list[tuple[str, re.Pattern[str], Callable[..., Awaitable[web.StreamResponse]]]]:
        table: list[tuple[str, str, Callable[..., Awaitable[web.StreamResponse]]]] = [
            ("GET", r"/users/@me", self._get_me),
            ("GET", r"/oauth2/applications/@me", self._get_application),
            ("GET", r"/applications/@me", self._get_application),
            ("GET", r"/gateway", self._get_gateway),
            ("GET", r"/gateway/bot", self._get_gateway),
            ("PUT", r"/applications/(?P<app>\d+)/commands", self._put_commands),
            ("GET", r"/applications/(?P<app>\d+)/commands", self._get_commands),
            (
                "PUT",
                r"/applications/(?P<app>\d+)/guilds/(?P<guild>\d+)/commands",
                self._put_commands,
            ),
            (
                "GET",
                r"/applications/(?P<app>\d+)/guilds/(?P<guild>\d+)/commands",
                self._get_commands,
            ),
            ("POST", r"/interactions/(?P<id>\d+)/(?P<token>[^/]+)/callback", self._callback),
            ("POST", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)", self._followup),
            (
                "GET",
                r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)",
                self._get_webhook_message,
            ),
            (
                "PATCH",
                r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)",
                self._edit_webhook_message,
            ),
            (
                "DELETE",
                r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)",
                self._delete_webhook_message,
            ),
            ("GET", r"/channels/(?P<cid>\d+)", self._get_channel),
            ("POST", r"/channels/(?P<cid>\d+)/messages", self._post_channel_message),
            ("GET", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", self._get_channel_message),
            ("PATCH", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", self._edit_channel_message),
            ("DELETE", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", self._delete_message),
            ("POST", r"/users/@me/channels", self._create_dm),
            ("GET", r"/users/(?P<uid>\d+)", self._get_user),
            ("GET", r"/guilds/(?P<guild>\d+)/members/(?P<uid>\d+)", self._get_member),
        ]
        return [
            (method, re.compile(pattern + r"/?$"), handler) for method, pattern, handler in table
        ]

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        match = re.match(r"^/api(?:/v\d+)?(/.*)$", request.path)
        body = await _read_body(request)
        entry = self._record(request, body, 0)
        if match is not None:
            path = match.group(1)
            for method, pattern, handler in self._routes:
                found = pattern.match(path)
                if found and method == request.method:
                    response = await handler(request, body, **found.groupdict())
                    entry.status = response.status
                    return response
        entry.status = 404
        self.unknown.append(entry)
        log.error("fake Discord: UNKNOWN ROUTE %s %s (answered 404)", request.method, request.path)
        return _error(404, 0, f"404: Not Found ({request.method} {request.path})")

    def _reject(self, request: web.Request, problems: list[str]) -> web.Response:
        entry = self.requests[-1] if self.requests else None
        if entry is not None:
            self.rejected.append((entry, problems))
        log.error("fake Discord: rejected %s %s: %s", request.method, request.path, problems)
        return _error(400, 50035, "Invalid Form Body: " + "; ".join(problems))

    async def _get_me(self, _request: web.Request, _body: Any) -> web.Response:
        return _json(self.bot_user)

    async def _get_application(self, _request: web.Request, _body: Any) -> web.Response:
        return _json(
            {
                "id": str(self.application_id),
                "name": "Narrator",
                "icon": None,
                "description": "",
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "bot": self.bot_user,
                "owner": self.owner,
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "summary": "",
                "tags": [],
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "approximate_guild_count": 1,
            }
        )

    async def _get_gateway(self, _request: web.Request, _body: Any) -> web.Response:
        return _json(
            {
                "url": self.gateway_url,
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    def _store_commands(
        self, body: list[dict[str, Any]], guild: str | None
    ) -> list[dict[str, Any]]:
        existing = self.guild_commands.get(int(guild), {}) if guild else self.global_commands
        stored: dict[str, dict[str, Any]] = {}
        for command in body:
            previous = existing.get(command["name"])
            full = {
                "type": 1,
                "default_member_permissions": None,
                "nsfw": False,
                "options": [],
                **command,
                "id": previous["id"] if previous else str(p.snowflake()),
                "application_id": str(self.application_id),
                "version": str(p.snowflake()),
            }
            if guild:
                full["guild_id"] = guild
            stored[command["name"]] = full
        if guild:
            self.guild_commands[int(guild)] = stored
        else:
            self.global_commands = stored
        self.command_syncs += 1
        self._changed()
        return list(stored.values())

    async def _put_commands(
        self, request: web.Request, body: Any, app: str, guild: str | None = None
    ) -> web.Response:
        if int(app) != self.application_id:
            return _error(403, 50001, "Missing Access")
        if not isinstance(body, list):
            return self._reject(request, ["body must be a list of commands"])
        problems = [
            f"/{c.get('name')}: description missing or longer than 100"
            for c in body
            if c.get("type", 1) == 1 and not 1 <= len(c.get("description") or "") <= 100
        ]
        if len(body) > 100:
            problems.append("more than 100 commands")
        if problems:
            return self._reject(request, problems)
        return _json(self._store_commands(body, guild))

    async def _get_commands(
        self, _request: web.Request, _body: Any, app: str, guild: str | None = None
    ) -> web.Response:
        commands = self.guild_commands.get(int(guild), {}) if guild else self.global_commands
        return _json(list(commands.values()))

    def _new_message(
        self, result: InteractionResult | None, channel_id: int, body: dict[str, Any]
    ) -> dict[str, Any]:
        message = p.message(
            message_id=p.snowflake(),
            channel_id=channel_id,
            guild_id=self.table.guild_id if channel_id in self.table.channel_ids else None,
            author=self.bot_user,
            body=body,
            interaction=result.payload if result is not None else None,
            application_id=self.application_id,
        )
        self.messages[int(message["id"])] = message
        if len(self.messages) > 200_000:
            self.messages.pop(next(iter(self.messages)))
        return message

    async def _callback(
        self, request: web.Request, body: Any, id: str, token: str
    ) -> web.StreamResponse:
        result = self.results.get(token)
        if result is None or result.id != int(id):
            return _error(404, 10062, "Unknown interaction")
        if result.callback is not None:
            return _error(400, 40060, "Interaction has already been acknowledged.")
        now = time.perf_counter()
        if now - result.created_at > INTERACTION_DEADLINE:
            self.late_callbacks.append(result)
            result.callback_status = 404
            result._notify()
            return _error(404, 10062, "Unknown interaction")
        kind = body.get("type") if isinstance(body, dict) else None
        data = (body or {}).get("data") or {}
        if kind in (4, 7) and (problems := message_errors(data)):
            result.callback_status = 400
            result._notify()
            return self._reject(request, problems)
        result.callback, result.callback_at, result.callback_status = body, now, 200
        interaction = result.payload
        response: dict[str, Any] = {
            "interaction": {
                "id": interaction["id"],
                "type": interaction["type"],
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(int(data.get("flags") or 0) & EPHEMERAL),
            }
        }
        channel_id = int(interaction["channel_id"])
        if kind in (4, 5):  # a message (or a "thinking…" placeholder) in the channel
            result.message = self._new_message(result, channel_id, data if kind == 4 else {})
            response["interaction"]["response_message_id"] = result.message["id"]
            response["resource"] = {"type": kind, "message": result.message}
        elif kind in (6, 7) and "message" in interaction:  # update the pressed button's message
            target = self.messages.get(int(interaction["message"]["id"]), interaction["message"])
            if kind == 7:
                target = p.edit_message(target, data)
                self.messages[int(target["id"])] = target
            result.message = target
            response["interaction"]["response_message_id"] = target["id"]
            response["resource"] = {"type": kind, "message": target}
        else:
            response["resource"] = {"type": kind}
        result._notify()
        if self.on_callback is not None:
            self.on_callback(result)
        return _json(response)

    def _result_for_webhook(self, app: str, token: str) -> InteractionResult | None:
        if int(app) != self.application_id:
            return None
        return self.results.get(token)

    async def _followup(
        self, request: web.Request, body: Any, app: str, token: str
    ) -> web.StreamResponse:
        result = self._result_for_webhook(app, token)
        if result is None or result.callback is None:
            return _error(404, 10015, "Unknown Webhook")
        if problems := message_errors(body or {}):
            return self._reject(request, problems)
        message = self._new_message(result, int(result.payload["channel_id"]), body)
        result.followups.append(body)
        result._notify()
        if request.query.get("wait", "false").lower() in ("true", "1"):
            return _json(message)
        return web.Response(status=204)

    def _webhook_target(self, result: InteractionResult, mid: str) -> dict[str, Any] | None:
        if mid == "@original":
            return None if result.message is None else self.messages.get(int(result.message["id"]))
        return self.messages.get(int(mid))

    async def _get_webhook_message(
        self, _request: web.Request, _body: Any, app: str, token: str, mid: str
    ) -> web.StreamResponse:
        result = self._result_for_webhook(app, token)
        target = None if result is None else self._webhook_target(result, mid)
        if target is None:
            return _error(404, 10008, "Unknown Message")
        return _json(target)

    async def _edit_webhook_message(
        self, request: web.Request, body: Any, app: str, token: str, mid: str
    ) -> web.StreamResponse:
        result = self._result_for_webhook(app, token)
        target = None if result is None else self._webhook_target(result, mid)
        if result is None or target is None:
            return _error(404, 10008, "Unknown Message")
        updated = p.edit_message(target, body or {})
        if problems := message_errors(updated):
            return self._reject(request, problems)
        self.messages[int(updated["id"])] = updated
        if mid == "@original":
            result.message = updated
        result.edits.append(body or {})
        result._notify()
        return _json(updated)

    async def _delete_webhook_message(
        self, _request: web.Request, _body: Any, app: str, token: str, mid: str
    ) -> web.StreamResponse:
        result = self._result_for_webhook(app, token)
        target = None if result is None else self._webhook_target(result, mid)
        if target is None:
            return _error(404, 10008, "Unknown Message")
        self.messages.pop(int(target["id"]), None)
        return web.Response(status=204)

    def _channel_payload(self, channel_id: int) -> dict[str, Any] | None:
        if channel_id in self.table.channel_ids:
            index = self.table.channel_ids.index(channel_id)
            return p.text_channel(channel_id, self.table.guild_id, f"table-{index}", index)
        return self.dm_channels.get(channel_id)

    async def _get_channel(self, _request: web.Request, _body: Any, cid: str) -> web.Response:
        channel = self._channel_payload(int(cid))
        if channel is None:
            return _error(404, 10003, "Unknown Channel")
        return _json(channel)

    async def _post_channel_message(
        self, request: web.Request, body: Any, cid: str
    ) -> web.StreamResponse:
        channel_id = int(cid)
        if self._channel_payload(channel_id) is None:
            return _error(404, 10003, "Unknown Channel")
        if problems := message_errors(body or {}):
            return self._reject(request, problems)
        message = self._new_message(None, channel_id, body)
        self.channel_messages[channel_id].append(message)
        self._changed()
        return _json(message)

    async def _get_channel_message(
        self, _request: web.Request, _body: Any, cid: str, mid: str
    ) -> web.Response:
        message = self.messages.get(int(mid))
        if message is None or message["channel_id"] != cid:
            return _error(404, 10008, "Unknown Message")
        return _json(message)

    async def _edit_channel_message(
        self, request: web.Request, body: Any, cid: str, mid: str
    ) -> web.Response:
        message = self.messages.get(int(mid))
        if message is None or message["channel_id"] != cid:
            return _error(404, 10008, "Unknown Message")
        updated = p.edit_message(message, body or {})
        if problems := message_errors(updated):
            return self._reject(request, problems)
        self.messages[int(mid)] = updated
        self._changed()
        return _json(updated)

    async def _delete_message(
        self, _request: web.Request, _body: Any, cid: str, mid: str
    ) -> web.Response:
        self.messages.pop(int(mid), None)
        return web.Response(status=204)

    async def _create_dm(self, _request: web.Request, body: Any) -> web.Response:
        recipient_id = int((body or {}).get("recipient_id", 0))
        recipient = next(
            (u for u in self.table.users.values() if int(u["id"]) == recipient_id), None
        )
        if recipient is None:
            return _error(400, 50007, "Cannot send messages to this user")
        for channel in self.dm_channels.values():
            if channel["recipients"][0]["id"] == recipient["id"]:
                return _json(channel)
        channel = p.dm_channel(p.snowflake(), recipient)
        self.dm_channels[int(channel["id"])] = channel
        return _json(channel)

    async def _get_user(self, _request: web.Request, _body: Any, uid: str) -> web.Response:
        for candidate in [*self.table.users.values(), self.bot_user]:
            if candidate["id"] == uid:
                return _json(candidate)
        return _error(404, 10013, "Unknown User")

    async def _get_member(
        self, _request: web.Request, _body: Any, guild: str, uid: str
    ) -> web.Response:
        for who, candidate in self.table.users.items():
            if candidate["id"] == uid and int(guild) == self.table.guild_id:
                member = self._member(who)
                member.pop("permissions")
                return _json(member)
        return _error(404, 10007, "Unknown Member")


class _GatewaySocket:
    """One gateway connection: zlib-stream framing, heartbeats, IDENTIFY/RESUME."""

    def __init__(self, fake: FakeDiscord, ws: web.WebSocketResponse, *, compress: str | None):
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


async def _read_body(request: web.Request) -> Any:
    if not request.can_read_body:
        return None
    if request.content_type == "multipart/form-data":
        form = await request.post()
        raw = form.get("payload_json")
        return json.loads(raw) if isinstance(raw, str) else None
    text = await request.text()
    if not text:
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _json(payload: Any, *, status: int = 200) -> web.Response:
    # Discord's exact header: discord.py parses JSON only for "application/json" verbatim.
    return web.Response(
        status=status,
        body=json.dumps(payload).encode(),
        headers={"Content-Type": "application/json"},
    )


def _error(status: int, code: int, message: str) -> web.Response:
    return _json({"message": message, "code": code}, status=status)
