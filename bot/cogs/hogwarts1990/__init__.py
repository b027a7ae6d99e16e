"""``/h90``: Hogwarts 1990 rolls (standard, stress, advantage) and opposed rolls."""

from discord.ext import commands

from bot.cogs._side_request import RollSideButton
from bot.cogs.hogwarts1990._cog import Hogwarts1990Cog


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Hogwarts1990Cog(bot))
    bot.add_dynamic_items(RollSideButton)  # the same item for every system: added once
