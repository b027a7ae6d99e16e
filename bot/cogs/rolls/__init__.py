"""``/roll``: generic dice notation."""

from discord.ext import commands

from bot.cogs.rolls._cog import RollsCog


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(RollsCog(bot))
