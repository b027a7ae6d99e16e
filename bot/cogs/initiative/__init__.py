"""``/init``: a GM-managed, persistent turn order per channel."""

from discord.ext import commands

from bot.cogs.initiative._cog import InitiativeCog
from bot.cogs.initiative._edit import edit_tracker as edit_tracker


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(InitiativeCog(bot))
