"""``/quidditch``: matches under the Hogwarts 1990 optional rules, house points per server."""

from discord.ext import commands

from bot.cogs.quidditch._cog import QuidditchCog


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(QuidditchCog(bot))
