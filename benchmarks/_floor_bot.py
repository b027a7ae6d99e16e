"""The floor Narrator is measured against: a minimal discord.py bot with no Narrator code.

Not a test, and not imported by anything: ``benchmarks/e2e_load.py`` runs it as its own
process (``python benchmarks/_floor_bot.py``; private, so ``make bench`` does not start it),
behind the same Discord stand-in and load generator as ``narrator run``, so the two are
compared in one run on one machine (issue 31).
It answers the commands of the load mix (``benchmarks/_mix.py``) the way the cheapest
competent bot would, with none of Narrator's work:

- ``/roll``: 4d6, keep 3, + 2, answered with one embed;
- ``/sheet show``: a canned sheet embed;
- ``/init next``: a canned turn embed as the answer, and the channel's tracker message (posted
  once by ``/init start``) edited with a canned embed and its buttons, as Narrator's tracker.

With ``FLOOR_STORAGE`` unset (or ``none``) it touches no database: the **bare floor**. With a
``sqlite:///path`` or ``postgresql://...`` URL, each command first writes one row (one
INSERT, committed before the answer, as Narrator's "what a user saw acknowledged is on
disk"): the **storage floor**. SQLite runs as Narrator's does (WAL, ``synchronous=FULL``)
through aiosqlite; PostgreSQL through an asyncpg pool.

It runs with the discord.py setup ``narrator run`` has, so the comparison is of the work and
not of the setup: uvloop, orjson installed (discord.py then parses the gateway's JSON with
it), the same intents (members, for the chunked guild), logging at INFO, and the heap frozen
at READY (``bot.app.freeze_long_lived_objects``: long-lived objects out of the collector's
walk, and the young generation collected less often). Its own code stays as small as a
competent hand would write it: no per-command allocation it does not need, the embeds built
once.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import random
import sys
import time
from typing import Any

import aiosqlite
import asyncpg
import discord
import uvloop
import yarl
from discord import app_commands
from discord.gateway import DiscordWebSocket
from discord.http import Route, handle_message_parameters

log = logging.getLogger("floor")

SHEET = discord.Embed(title="Hero", description="A canned character sheet.", colour=0x5865F2)
SHEET.add_field(name="Might", value="3").add_field(name="Grace", value="2")
SHEET.add_field(name="Wits", value="4").add_field(name="Health", value="10 / 10")
TURN = discord.Embed(title="Round 2", description="Goblin's turn.")
TRACKER = discord.Embed(title="Initiative", description="1. Goblin 12\n2. Goblin 12\n3. Goblin 12")

CREATE_TABLE = (
    "CREATE TABLE IF NOT EXISTS floor_log (id {key}, channel_id BIGINT NOT NULL, "
    "user_id BIGINT NOT NULL, kind TEXT NOT NULL, total INTEGER NOT NULL, "
    "created_at DOUBLE PRECISION NOT NULL)"
)


class Storage:
    """No database: the bare floor."""

    async def open(self) -> None:
        return None

    async def write(self, channel_id: int, user_id: int, kind: str, total: int) -> None:
        return None


class SQLiteStorage(Storage):
    """One aiosqlite connection; each write an INSERT and a COMMIT (WAL, synchronous=FULL)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.connection: Any = None

    async def open(self) -> None:
        self.connection = await aiosqlite.connect(self.path, isolation_level=None)
        for pragma in ("journal_mode=WAL", "synchronous=FULL", "busy_timeout=5000"):
            await self.connection.execute(f"PRAGMA {pragma}")
        await self.connection.execute(CREATE_TABLE.format(key="INTEGER PRIMARY KEY"))

    async def write(self, channel_id: int, user_id: int, kind: str, total: int) -> None:
        # Autocommit: the INSERT is its own transaction, durable when it returns.
        await self.connection.execute(
            "INSERT INTO floor_log (channel_id, user_id, kind, total, created_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (channel_id, user_id, kind, total, time.time()),
        )


class PostgresStorage(Storage):
    """An asyncpg pool; each write one INSERT (its own transaction)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.pool: Any = None

    async def open(self) -> None:
        self.pool = await asyncpg.create_pool(self.url, min_size=2, max_size=10)
        await self.pool.execute(CREATE_TABLE.format(key="BIGSERIAL PRIMARY KEY"))

    async def write(self, channel_id: int, user_id: int, kind: str, total: int) -> None:
        await self.pool.execute(
            "INSERT INTO floor_log (channel_id, user_id, kind, total, created_at) "
            "VALUES ($1, $2, $3, $4, $5)",
            channel_id,
            user_id,
            kind,
            total,
            time.time(),
        )


def storage_from(url: str) -> Storage:
    """``FLOOR_STORAGE``: empty or ``none``, ``sqlite:///path`` or ``postgresql://...``."""
    if not url or url == "none":
        return Storage()
    if url.startswith("sqlite:///"):
        return SQLiteStorage(url.removeprefix("sqlite:///"))
    if url.startswith(("postgresql://", "postgres://")):
        return PostgresStorage(url)
    raise SystemExit(f"FLOOR_STORAGE: unknown URL {url!r}")


class TrackerButtons(discord.ui.View):
    """The tracker's buttons (a persistent view, as Narrator's), never pressed in the mix."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Next", custom_id="floor:next")
    async def next_button(self, interaction: discord.Interaction, _b: discord.ui.Button) -> None:
        await interaction.response.defer()


class FloorBot(discord.Client):
    """The commands of the load mix, each answered with canned work."""

    def __init__(self, storage: Storage, guild_id: int | None) -> None:
        intents = discord.Intents.default()
        intents.members = True  # as Narrator: the guild's members are chunked at start
        super().__init__(intents=intents, allowed_mentions=discord.AllowedMentions.none())
        self.storage = storage
        self.guild_id = guild_id
        self.tree = app_commands.CommandTree(self)
        self.buttons = TrackerButtons()
        self.trackers: dict[int, int] = {}  # channel id -> tracker message id
        self._add_commands()

    def _add_commands(self) -> None:
        tree = self.tree

        @tree.command(name="roll", description="Roll dice")
        async def roll(interaction: discord.Interaction, expression: str, label: str = "") -> None:
            kept = sorted(random.randint(1, 6) for _ in range(4))[1:]
            total = sum(kept) + 2
            await self.storage.write(
                interaction.channel_id or 0, interaction.user.id, "roll", total
            )
            embed = discord.Embed(
                title=label or expression, description=f"{kept} + 2 = **{total}**"
            )
            await interaction.response.send_message(embed=embed)

        sheet = app_commands.Group(name="sheet", description="Character sheets")

        @sheet.command(name="show", description="Show your character")
        async def show(interaction: discord.Interaction) -> None:
            await self.storage.write(interaction.channel_id or 0, interaction.user.id, "sheet", 0)
            await interaction.response.send_message(embed=SHEET)

        init = app_commands.Group(name="init", description="Initiative")

        @init.command(name="start", description="Start an encounter")
        async def start(interaction: discord.Interaction, system: str = "coda") -> None:
            channel = interaction.channel
            assert isinstance(channel, discord.abc.Messageable)
            message = await channel.send(embed=TRACKER, view=self.buttons)
            self.trackers[interaction.channel_id or 0] = message.id
            await interaction.response.send_message("Encounter started.")

        @init.command(name="next", description="The next combatant's turn")
        async def next_(interaction: discord.Interaction) -> None:
            channel_id = interaction.channel_id or 0
            await self.storage.write(channel_id, interaction.user.id, "init", 0)
            await interaction.response.send_message(embed=TURN)
            tracker = self.trackers.get(channel_id)
            if tracker is not None:
                # PartialMessage.edit's request, without parsing the answer into a Message
                # nobody reads (the cheapest way a bot edits a message it does not read back).
                with handle_message_parameters(
                    content=None, embed=TRACKER, view=self.buttons
                ) as params:
                    await self.http.edit_message(channel_id, tracker, params=params)

        tree.add_command(sheet)
        tree.add_command(init)

    async def setup_hook(self) -> None:
        await self.storage.open()
        self.add_view(self.buttons)
        if self.guild_id is not None:
            guild = discord.Object(id=self.guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)

    async def on_ready(self) -> None:
        # As narrator run (bot.app.freeze_long_lived_objects): the start-up garbage
        # collected, the long-lived heap frozen, the young generation collected every
        # 10,000 net new objects (bot.app.GC_GEN0_THRESHOLD) instead of 700.
        gc.collect()
        gc.freeze()
        gc.set_threshold(10_000, *gc.get_threshold()[1:])


def main() -> int:
    logging.basicConfig(
        level=logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stdout,
    )
    api_base = os.environ.get("DISCORD_API_BASE")
    gateway_url = os.environ.get("DISCORD_GATEWAY_URL")
    if api_base and gateway_url:  # the stand-in, as narrator run's DISCORD_API_BASE does
        Route.BASE = api_base.rstrip("/")
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    guild = os.environ.get("DEV_GUILD_ID")
    bot = FloorBot(storage_from(os.environ.get("FLOOR_STORAGE", "")), int(guild) if guild else None)
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    bot.run(os.environ["DISCORD_TOKEN"], log_handler=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
