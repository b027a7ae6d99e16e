"""``/rps check|resisted|sustained …``: RPS stat checks."""

from discord.ext import commands

from bot.cogs._side_request import RollSideButton
from bot.cogs.rps._cog import BaseValue as BaseValue
from bot.cogs.rps._cog import RpsCog


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(RpsCog(bot))
    bot.add_dynamic_items(RollSideButton)  # Roll my part of a resisted action; idempotent
