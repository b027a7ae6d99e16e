"""``/infinity``: Infinity CodeOne normal, face to face and saving rolls."""

from discord.ext import commands

from bot.cogs._side_request import RollSideButton
from bot.cogs.infinity._cog import InfinityCog
from bot.cogs.infinity._cog import Mods as Mods


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(InfinityCog(bot))
    bot.add_dynamic_items(RollSideButton)  # the same item for every system: added once
