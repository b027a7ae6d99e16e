"""A local Discord: REST and gateway on 127.0.0.1, speaking the real protocol to the real bot.

The bot process (``narrator run``) reaches it through ``DISCORD_API_BASE`` and
``DISCORD_GATEWAY_URL``. Every HTTP request is recorded; a route the stand-in does not know
is logged loudly and answered 404, so a test notices when the bot calls something new.
This module holds the state and the driver API tests use; ``gateway.py`` and ``rest.py``
hold the two halves of the protocol.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tests.e2e.fake_discord import payloads as p
from tests.e2e.fake_discord.gateway import GatewayMixin, Session
from tests.e2e.fake_discord.oauth import OAuthMixin
from tests.e2e.fake_discord.rest import RestMixin
from tests.e2e.fake_discord.results import TOKEN, InteractionResult, Request


@dataclass
class Table:
    """A guild the bot lives in: channels, a GM role, a GM and three players."""

    guild_id: int
    channel_ids: list[int]
    gm_role_id: int
    users: dict[str, dict[str, Any]] = field(default_factory=dict)  # the gm holds the role


class FakeDiscord(GatewayMixin, RestMixin, OAuthMixin):
    """The stand-in's state, its HTTP app and the driver API tests use."""

    def __init__(
        self,
        *,
        channels: int = 20,
        players: tuple[str, ...] = ("alice", "bob", "carol"),
        guilds: int = 1,
        shards: int = 1,
    ):
        self.application_id = p.snowflake()
        self.bot_user = p.user(self.application_id, "narrator", bot=True)
        self.owner = p.user(p.snowflake(), "owner")
        self.shard_count = shards
        # The same people in every guild; guild i lands on shard i % shards (guild 0 on 0).
        users = {"gm": p.user(p.snowflake(), "gm")}
        for name in players:
            users[name] = p.user(p.snowflake(), name)
        self.tables = [self._new_table(channels, users, shard=i % shards) for i in range(guilds)]
        self.table = self.tables[0]
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
        self.attachments: dict[int, tuple[str, bytes]] = {}  # served at /attachments/...
        self.max_results = 100_000
        self.on_callback: Callable[[InteractionResult], None] | None = None
        # Gateway sessions, one per shard.
        self.sessions: dict[int, Session] = {}
        self.dispatched_on: dict[str, int] = {}
        self.identifies = 0
        self.resumes = 0
        self.heartbeats = 0
        self._connected = asyncio.Event()
        self._state_changed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port: int = 0
        self._init_oauth()
        self._routes = self._build_routes()

    async def start(self) -> None:
        app = web.Application(client_max_size=16 * 1024 * 1024)
        app.router.add_route("GET", "/gateway", self._gateway)
        app.router.add_route("GET", "/oauth2/authorize", self._authorize)
        app.router.add_route("GET", "/attachments/{id}/{filename}", self._attachment)
        app.router.add_route("*", "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        await self.disconnect(1001)
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

    def _new_table(self, channels: int, users: dict[str, dict[str, Any]], *, shard: int) -> Table:
        # A guild's shard is (guild_id >> 22) % shard_count: move the id's millisecond part on
        # until it lands on ``shard``.
        snowflake = p.snowflake()
        ms = snowflake >> 22
        ms += (shard - ms) % self.shard_count
        return Table(
            guild_id=(ms << 22) | (snowflake & 0x3FFFFF),
            channel_ids=[p.snowflake() for _ in range(channels)],
            gm_role_id=p.snowflake(),
            users=users,
        )

    def table_of_guild(self, guild_id: int) -> Table | None:
        return next((t for t in self.tables if t.guild_id == guild_id), None)

    def table_of_channel(self, channel_id: int) -> Table | None:
        return next((t for t in self.tables if channel_id in t.channel_ids), None)

    def channel(self, index: int = 0, *, guild: int = 0) -> int:
        return self.tables[guild].channel_ids[index]

    def user_id(self, who: str) -> int:
        return int(self.table.users[who]["id"])

    def _member(self, who: str, table: Table | None = None) -> dict[str, Any]:
        table = table or self.table
        roles = [table.gm_role_id] if who == "gm" else []
        return p.member(table.users[who], roles, permissions=p.EVERYONE_PERMISSIONS)

    def _interaction(
        self, kind: int, data: dict[str, Any], *, channel_id: int, who: str
    ) -> dict[str, Any]:
        interaction_id = p.snowflake()
        table = self.table_of_channel(channel_id) or self.table
        guild_id = table.guild_id
        return {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "guild_id": str(guild_id),
            "guild": {"id": str(guild_id), "locale": "en-US", "features": []},
            "channel_id": str(channel_id),
            "channel": p.text_channel(channel_id, guild_id, f"table-{channel_id}", 0),
            "member": self._member(who, table),
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

    def attach(self, filename: str, content: bytes) -> int:
        """Upload a file as a user would; pass the returned id as an attachment option."""
        attachment_id = p.snowflake()
        self.attachments[attachment_id] = (filename, content)
        return attachment_id

    def _attachment_payload(self, attachment_id: int) -> dict[str, Any]:
        filename, content = self.attachments[attachment_id]
        # The URL points here, not at Discord's CDN: the bot downloads from the stand-in.
        url = f"http://127.0.0.1:{self.port}/attachments/{attachment_id}/{filename}"
        return {
            "id": str(attachment_id),
            "filename": filename,
            "size": len(content),
            "url": url,
            "proxy_url": url,
            "content_type": "application/json",
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
        attached = [
            int(option["value"])
            for option in p.leaf_options(data["options"])
            if option["type"] == p.ATTACHMENT
        ]
        if attached:
            data["resolved"] = {
                "attachments": {str(a): self._attachment_payload(a) for a in attached}
            }
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
        within: float = 30.0,
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
        within: float = 30.0,
        followups: int = 0,
    ) -> InteractionResult:
        """Press a button on ``message`` and wait for the callback."""
        payload = self.button_payload(message, user=user, custom_id=custom_id, label=label)
        result = self.send(payload, f"button {payload['data']['custom_id']}")
        await result.wait(within, followups=followups)
        return result
