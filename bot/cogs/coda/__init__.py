"""``/coda``: CODA (Harry Potter RPG) tests, damage, opposed, combined and extended tests."""

from discord.ext import commands

from bot.cogs._side_request import RollSideButton
from bot.cogs.coda._cog import CodaCog


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(CodaCog(bot))
    bot.add_dynamic_items(RollSideButton)  # the same item for every system: added once
