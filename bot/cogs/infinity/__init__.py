"""``/infinity``: Infinity CodeOne normal, face to face and saving rolls."""

from discord.ext import commands

from bot.cogs.infinity._cog import InfinityCog


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(InfinityCog(bot))
