"""``/history [count]``: newest first, in pages; secret rolls only for GMs."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.cogs._common import NarratorCog, actor_from, send_pages
from bot.render.rolls import history_pages
from bot.services import rolls


class HistoryCog(NarratorCog):
    @app_commands.command(name="history", description="The channel's latest rolls, newest first")
    @app_commands.describe(count="How many rolls to show (1–100, default 10)")
    async def history(
        self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 100] = 10
    ) -> None:
        result = await rolls.history(
            self.db,
            actor_from(interaction),
            count=count,
        )
        await send_pages(interaction, history_pages(result))
