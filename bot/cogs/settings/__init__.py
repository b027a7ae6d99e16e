"""``/settings``: per-channel settings (GM only to change)."""

from discord.ext import commands

from bot.cogs.settings._cog import SettingsCog
from bot.cogs.settings._cog import language_choices as language_choices


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SettingsCog(bot))
