"""``/h90``: Hogwarts 1990 rolls (standard, stress, advantage) and opposed rolls."""

from discord.ext import commands

from bot.cogs.hogwarts1990._cog import Hogwarts1990Cog


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Hogwarts1990Cog(bot))
