"""``/help``, built from the command tree itself so it can never fall out of date."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.cogs._common import NarratorCog
from bot.render.help import help_embed
from bot.services import channel_settings


class HelpCog(NarratorCog):
    @app_commands.command(name="help", description="Every command, one line each")
    async def help(self, interaction: discord.Interaction) -> None:
        view = await channel_settings.show(self.db, interaction.channel_id or 0)
        embed = help_embed(self.bot.tree.get_commands(), default_system=view.default_system)
        await interaction.response.send_message(embed=embed, ephemeral=True)
