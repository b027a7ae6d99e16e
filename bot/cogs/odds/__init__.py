"""``/odds coda|h90|infinity|rps|drama``: a roll's distribution before it is made."""

from discord.ext import commands

from bot.cogs.odds._cog import OddsCog


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(OddsCog(bot))
