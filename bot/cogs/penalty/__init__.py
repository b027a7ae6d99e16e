"""``/penalty add|recover|rest|show``: Drama in History penalty pools."""

from discord.ext import commands

from bot.cogs.penalty._cog import PenaltyCog


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(PenaltyCog(bot))
