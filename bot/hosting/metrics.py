"""Health and Prometheus metrics for ``narrator run`` (``METRICS_PORT``, off by default).

Every bot records its commands into its own registry (a few counter increments per
command); only ``narrator run`` with ``METRICS_PORT`` set serves them, on
``METRICS_HOST`` (127.0.0.1 unless told otherwise, so nothing is exposed by accident):

- ``/healthz``: 200 when the gateway is connected and the database answers, else 503;
  the JSON body says which part failed.
- ``/metrics``: Prometheus' text format.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.exposition import generate_latest
from sqlalchemy import text

from bot.hosting.errors import ServiceUnavailable

if TYPE_CHECKING:
    import discord
    from discord.ext import commands

    from bot.storage import Database

log = logging.getLogger(__name__)

STARTED = "narrator_started"  # interaction.extras key: when the tree first saw the command
HEALTH_TIMEOUT = 2.0
# Commands answer in milliseconds; Discord gives up after 3 s.
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0)


class _ShardCollector:
    """``narrator_shard_connected{shard}``, read from the bot at scrape time."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    def collect(self) -> Iterator[GaugeMetricFamily]:
        family = GaugeMetricFamily(
            "narrator_shard_connected", "1 when the shard's gateway is connected", labels=["shard"]
        )
        for shard_id, connected in shard_states(self.bot).items():
            family.add_metric([str(shard_id)], 1.0 if connected else 0.0)
        yield family


def shard_states(bot: commands.Bot) -> dict[int, bool]:
    """Each shard's connection: every shard of a sharded bot, else the one connection."""
    shards = getattr(bot, "shards", None)
    if isinstance(shards, dict) and shards:
        return {shard_id: not shard.is_closed() for shard_id, shard in shards.items()}
    ws = getattr(bot, "ws", None)
    socket = getattr(ws, "socket", None)
    connected = bot.is_ready() and not bot.is_closed() and socket is not None and not socket.closed
    return {bot.shard_id or 0: connected}


class BotMetrics:
    """One bot's metrics, in a registry of its own (tests build many bots in one process)."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.registry = CollectorRegistry()
        self.commands = Counter(
            "narrator_commands",
            "Slash commands handled, by command and outcome (ok, refused, error)",
            ["command", "outcome"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "narrator_command_seconds",
            "Time from receiving a command to finishing it",
            ["command"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.errors = Counter(
            "narrator_errors",
            "Commands that failed with a bug, by exception type",
            ["exception"],
            registry=self.registry,
        )
        self.very_busy = Counter(
            "narrator_very_busy",
            "Interactions answered 'very busy, try again' because the bot was behind",
            registry=self.registry,
        )
        gateway = Gauge(
            "narrator_gateway_latency_seconds",
            "Time between a gateway heartbeat and its acknowledgement",
            registry=self.registry,
        )
        gateway.set_function(self._gateway_latency)
        limit = Gauge(
            "narrator_admission_limit",
            "Commands run at once before new ones are answered 'very busy' (adaptive, at most "
            "MAX_IN_FLIGHT; NaN without admission control)",
            registry=self.registry,
        )
        limit.set_function(self._admission_limit)
        self.registry.register(_ShardCollector(bot))
        # Each (command, outcome)'s counter and latency series, looked up once: ``labels()``
        # validates and locks on every call, and every command is finished here. Nothing
        # removes a labelled series, so a cached one stays the registry's own.
        # Keyed by the command object itself: its name is then read once, not per command.
        # Their bound ``inc`` and ``observe`` are kept, not the series: two attribute lookups
        # less per command.
        self._series: dict[
            tuple[object, str], tuple[Callable[[], None], Callable[[float], None]]
        ] = {}
        self._runner: web.AppRunner | None = None

    def _gateway_latency(self) -> float:
        latency = self.bot.latency
        return latency if math.isfinite(latency) else math.nan

    def _admission_limit(self) -> float:
        # Read at each scrape: the bound moves with the load (bot.gateway._admission), and
        # the bot builds its admission after its metrics.
        admission = getattr(self.bot, "admission", None)
        return math.nan if admission is None else float(admission.limit)

    @staticmethod
    def started(interaction: discord.Interaction) -> None:
        interaction.extras.setdefault(STARTED, time.perf_counter())

    def finished(
        self, interaction: discord.Interaction, outcome: str, error: BaseException | None = None
    ) -> None:
        command = interaction.command
        series = self._series.get((command, outcome))
        if series is None:
            name = command.qualified_name if command else "?"
            series = self._series[(command, outcome)] = (
                self.commands.labels(name, outcome).inc,
                self.latency.labels(name).observe,
            )
        count, observe = series
        count()
        started = interaction.extras.get(STARTED)
        if started is not None:
            observe(time.perf_counter() - started)
        if error is not None:
            self.errors.labels(type(error).__name__).inc()

    def turned_away(self) -> None:
        self.very_busy.inc()

    async def health(self, database: Database) -> tuple[bool, dict[str, str]]:
        states = shard_states(self.bot)
        gateway_ok = bool(states) and all(states.values())
        report = {"gateway": "connected" if gateway_ok else "not connected"}
        try:
            async with asyncio.timeout(HEALTH_TIMEOUT):
                async with database.unit_of_work(read_only=True) as session:
                    await session.execute(text("SELECT 1"))
            report["database"] = "ok"
            database_ok = True
        except Exception as error:  # any failure is "unhealthy", never a crash of /healthz
            report["database"] = f"error: {type(error).__name__}"
            database_ok = False
        return gateway_ok and database_ok, report

    async def serve(self, database: Database, host: str, port: int) -> None:
        """Start the HTTP endpoint on the bot's event loop."""

        async def healthz(_request: web.Request) -> web.Response:
            healthy, report = await self.health(database)
            return web.json_response(report, status=200 if healthy else 503)

        async def metrics(_request: web.Request) -> web.Response:
            body = generate_latest(self.registry)
            return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

        app = web.Application()
        app.router.add_get("/healthz", healthz)
        app.router.add_get("/metrics", metrics)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        try:
            await web.TCPSite(self._runner, host, port).start()
        except OSError as error:  # the port is taken, or the host is not this machine's
            await self.stop()
            raise ServiceUnavailable(
                f"METRICS_PORT/METRICS_HOST: cannot listen on {host}:{port} "
                f"({error.strerror or error})"
            ) from None
        log.info("metrics and health on http://%s:%d/metrics and /healthz", host, port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
