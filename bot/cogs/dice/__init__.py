"""``/dice verify|stats|test``: fair dice you can check."""

from discord.ext import commands

from bot.cogs.dice._cog import SINCE_CHOICES as SINCE_CHOICES
from bot.cogs.dice._cog import DiceCog


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(DiceCog(bot))
