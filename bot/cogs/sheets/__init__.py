"""``/sheet``: player character sheets."""

from discord.ext import commands

from bot.cogs.sheets._cog import SheetsCog


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SheetsCog(bot))
