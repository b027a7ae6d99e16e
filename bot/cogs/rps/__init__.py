"""``/rps check|resisted|sustained …``: RPS stat checks."""

from discord.ext import commands

from bot.cogs.rps._cog import RpsCog


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(RpsCog(bot))
