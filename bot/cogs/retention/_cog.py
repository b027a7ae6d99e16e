"""Runs :func:`bot.services.retention.prune` every :data:`PRUNE_EVERY` seconds (an hour).

The first pass is :data:`FIRST_PASS_AFTER` seconds after start-up, so short-lived bots
(tests, the console) never prune. Several processes on one database may each prune: the
deletes are idempotent.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging

import discord

from bot.cogs._common import NarratorCog
from bot.services import retention

log = logging.getLogger(__name__)

PRUNE_EVERY = 3600.0
FIRST_PASS_AFTER = 300.0


class RetentionCog(NarratorCog):
    _task: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        self._task = asyncio.create_task(self._every_interval(), name="narrator-retention")

    async def cog_unload(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _every_interval(self) -> None:
        await asyncio.sleep(FIRST_PASS_AFTER)
        while True:
            await self.prune_once()
            await asyncio.sleep(PRUNE_EVERY)

    async def prune_once(self) -> retention.Pruned | None:
        """One pass; a failure is logged and the next pass tries again."""
        settings = self.bot.settings  # type: ignore[attr-defined]
        try:
            # Discord's clock, as for interaction.created_at (price offers expire by it).
            pruned = await retention.prune(
                self.db, now=discord.utils.utcnow(), keep_rolls=settings.roll_log_keep
            )
        except Exception:
            log.exception("pruning old rows failed; the next pass retries")
            return None
        if any(dataclasses.astuple(pruned)):
            log.info("pruned %s", pruned)
        return pruned
