"""``/history [count] [reveal]``: newest first, in pages; secret rolls only for GMs.
``reveal:<id>`` lays a secret roll open to the table instead (its roller or a GM)."""

from __future__ import annotations

import io

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.cogs._commitment import RevealView
from bot.cogs._common import NarratorCog, actor_from, send_pages
from bot.render.commitments import reveal_embed, reveal_file_text, reveal_fits
from bot.render.rolls import history_pages
from bot.services import commitments, rolls

#: Roll ids are positive and fit PostgreSQL's integer.
MAX_ROLL_ID = 2**31 - 1


class HistoryCog(NarratorCog):
    @app_commands.command(
        name="history", description=locale_str("The channel's latest rolls, newest first")
    )
    @app_commands.describe(
        count=locale_str("How many rolls to show (1–100, default 10)"),
        reveal=locale_str(
            "Reveal your secret roll with this id (GMs: any): its record, salt and commitment"
        ),
    )
    async def history(
        self,
        interaction: discord.Interaction,
        count: app_commands.Range[int, 1, 100] = 10,
        reveal: app_commands.Range[int, 1, MAX_ROLL_ID] | None = None,
    ) -> None:
        if reveal is not None:
            await self._reveal(interaction, reveal)
            return
        result = await rolls.history(
            self.db,
            actor_from(interaction),
            count=count,
        )
        await send_pages(interaction, history_pages(result))

    async def _reveal(self, interaction: discord.Interaction, roll_id: int) -> None:
        opened = await commitments.reveal(self.db, actor_from(interaction), roll_id=roll_id)
        kwargs = {}
        if not reveal_fits(opened):
            data = io.BytesIO(reveal_file_text(opened).encode())
            kwargs["file"] = discord.File(data, filename=f"roll-{opened.roll_id}.txt")
        await interaction.response.send_message(  # type: ignore[call-overload]
            embed=reveal_embed(opened),
            view=RevealView(opened),
            allowed_mentions=discord.AllowedMentions.none(),
            **kwargs,
        )
