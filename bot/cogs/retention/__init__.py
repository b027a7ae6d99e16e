"""The hourly pruning of old rows (no commands)."""

from discord.ext import commands

from bot.cogs.retention._cog import RetentionCog


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(RetentionCog(bot))
