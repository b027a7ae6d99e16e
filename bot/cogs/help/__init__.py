"""``/help``: every command group, one line each."""

from discord.ext import commands

from bot.cogs.help._cog import HelpCog


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(HelpCog(bot))
