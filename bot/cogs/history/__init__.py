"""``/history``: the channel's latest rolls."""

from discord.ext import commands

from bot.cogs.history._cog import HistoryCog


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(HistoryCog(bot))
