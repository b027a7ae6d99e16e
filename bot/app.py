"""The bot factory: the one place a bot is built, for ``narrator run``, the console and tests."""

from __future__ import annotations

import gc
import logging
from typing import Any

import discord
from discord.ext import commands

from bot import gateway, workers
from bot.cogs import EXTENSIONS, CallerFacts
from bot.gateway import (
    Admission,
    NarratorTree,
    Rate,
    RateLimiter,
    Standings,
    install_interaction_hook,
    on_guild_state_change,
)
from bot.hosting.config import Settings
from bot.hosting.errors import DATABASE_ERRORS, DatabaseUnavailable, database_error_line
from bot.hosting.metrics import BotMetrics
from bot.i18n.commands import CatalogTranslator
from bot.internals import close_callback_connections
from bot.services.languages import LanguageChoices
from bot.services.members import MemberRecords
from bot.storage import Database
from engine.dice import Dice, SecureDice

log = logging.getLogger(__name__)


class NarratorBot(commands.Bot):
    """A ``commands.Bot`` that owns its settings, database and dice source."""

    def __init__(
        self,
        settings: Settings,
        *,
        dice: Dice,
        database: Database,
        sync_globally: bool = False,
        serve_metrics: bool = False,
        admit: bool = False,
        end_workers: bool = True,
        **kwargs: Any,
    ) -> None:
        intents = discord.Intents.default()
        # Members let the bot find a guild's GMs to send them secret rolls.
        intents.members = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            tree_cls=NarratorTree,
            help_command=None,
            # Nobody is pinged unless a message names whom (the player whose turn starts).
            allowed_mentions=discord.AllowedMentions.none(),
            **kwargs,
        )
        self.settings = settings
        self.rate_limiter = RateLimiter(
            Rate(settings.rate_user_burst, settings.rate_user_per_second),
            Rate(settings.rate_channel_burst, settings.rate_channel_per_second),
            autocomplete=Rate(
                settings.rate_autocomplete_burst, settings.rate_autocomplete_per_second
            ),
        )
        # Who is a GM, or up, in a crowded channel: read then, and kept a few seconds.
        self.standings = Standings(database)
        self.dice = dice
        self.db = database
        # Heavy odds and charts: worker processes, started by the first job that needs one
        # and ended with the bot (tests keep them for the session: ``end_workers=False``).
        workers.configure(settings.worker_processes)
        self.end_workers = end_workers
        self.sync_globally = sync_globally
        self.serve_metrics = serve_metrics
        self.metrics = BotMetrics(self)
        # Every interaction's language (docs/decisions/languages.md): choices cached per process.
        self.languages = LanguageChoices(database)
        # Who plays where and is a GM there, written on a change, for the web companion.
        self.member_records = MemberRecords(database)
        # Each caller's GM role and Manage Server, kept per channel and roles until a gateway
        # event changes the guild's roles, owner or channels (read by every command).
        self.caller_facts = CallerFacts()
        on_guild_state_change(self, self.caller_facts.forget)
        # Completed commands are counted by the tree (bot.gateway._tree), not by a listener of
        # app_command_completion: discord.py runs each listener as a task of its own.
        # Past capacity, "very busy" at once rather than silence after 3 s (bot.gateway._admission).
        self.admission: Admission | None = None
        if admit:
            self.admission = Admission(
                busy_age=settings.busy_after, max_in_flight=settings.max_in_flight
            )
        install_interaction_hook(
            self, self.languages, admission=self.admission, metrics=self.metrics
        )

    async def setup_hook(self) -> None:
        # Descriptions and choices in every catalog language, uploaded by each sync.
        await self.tree.set_translator(CatalogTranslator())
        try:
            await self.db.upgrade_async()  # off the event loop: Alembic is synchronous
        except DATABASE_ERRORS as error:  # a wrong DATABASE_URL: one line, not a traceback
            raise DatabaseUnavailable(database_error_line(error, self.db.url)) from error
        for extension in EXTENSIONS:
            if extension not in self.extensions:  # a restarted bot keeps its cogs
                await self.load_extension(extension)
        if not self.holds_shard_zero:
            return  # the process with shard 0 syncs; the others would only repeat it
        if self.settings.dev_guild_id is not None:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to guild %s", len(synced), self.settings.dev_guild_id)
        elif self.sync_globally:
            await self.tree.sync()
        if self.serve_metrics and self.settings.metrics_port is not None:
            await self.metrics.serve(
                self.db, self.settings.metrics_host, self.settings.metrics_port
            )

    @property
    def holds_shard_zero(self) -> bool:
        """Whether this process runs shard 0 (every unsharded bot does)."""
        shard_ids = getattr(self, "shard_ids", None)
        return shard_ids is None or 0 in shard_ids

    async def close(self) -> None:
        try:
            await self.metrics.stop()
            await super().close()
            close_callback_connections(self)
            await self.member_records.settle()
        finally:
            try:
                if self.end_workers:
                    await workers.shutdown()
            finally:
                await self.db.dispose()


class ShardedNarratorBot(NarratorBot, commands.AutoShardedBot):
    """The bot ``narrator run`` starts: discord.py's ``AutoShardedBot`` over the shards that
    ``SHARD_COUNT`` / ``SHARD_IDS`` give this process (all of Discord's recommended count by
    default). Shards in other processes share nothing with it but the database."""


#: Net new container objects between two young-generation collections (CPython's default:
#: 700). A command allocates hundreds that die by reference counting; at the default the
#: collector ran ~24 times a second at 200 commands/s, each time walking every object still
#: in flight, and under a backlog that walk (and the full collections it triggers) took a
#: large share of the loop: on 2026-11-27, in the same 28 s at 200/s offered on a loaded
#: machine, 4.5 s of collections at 700 against 0.9 s at 10,000 (679 young collections and 6
#: full ones against 22 and none). What waits for a collection is at most this many objects
#: of cyclic garbage (a few MB).
GC_GEN0_THRESHOLD = 10_000


async def freeze_long_lived_objects() -> None:
    """At READY, move everything alive (modules, caches, the guilds) out of the GC's sight,
    and collect the young generation less often (:data:`GC_GEN0_THRESHOLD`).

    The bot's heap is mostly long-lived objects; without this, every full collection walks
    them all and stalls the event loop for 70-230 ms (measured under load), which becomes
    the p99 latency of every command in flight. Frozen objects are never collected, so the
    startup garbage is collected first. ``narrator run`` only: tests build many bots.
    """
    gc.collect()
    gc.freeze()
    _generation0, generation1, generation2 = gc.get_threshold()
    gc.set_threshold(GC_GEN0_THRESHOLD, generation1, generation2)


def create_bot(
    settings: Settings | None = None,
    *,
    dice: Dice | None = None,
    sync_globally: bool = False,
    serve_metrics: bool = False,
    sharded: bool = False,
    admit: bool = False,
    end_workers: bool = True,
) -> NarratorBot:
    """Build the bot. ``sync_globally`` is for in-memory Discords (the console, the tests);
    ``serve_metrics``, ``sharded`` and ``admit`` for ``narrator run`` (the metrics endpoint
    opens when METRICS_PORT is set; the shards are the settings'; ``admit`` answers "very
    busy" past capacity, by the wall clock, which SimCord's tests do not keep)."""
    settings = settings or Settings()
    gateway.install_lazy_callbacks()
    common: dict[str, Any] = {
        "dice": dice if dice is not None else SecureDice(),
        "database": Database(settings.database_url, synchronous=settings.sqlite_synchronous),
        "sync_globally": sync_globally,
        "serve_metrics": serve_metrics,
        "admit": admit,
        "end_workers": end_workers,
    }
    if not sharded:
        return NarratorBot(settings, **common)
    shards: dict[str, Any] = {}
    if settings.shard_count is not None:
        shards["shard_count"] = settings.shard_count
    if settings.shard_ids is not None:
        shards["shard_ids"] = list(settings.shard_ids)
    return ShardedNarratorBot(settings, **common, **shards)
