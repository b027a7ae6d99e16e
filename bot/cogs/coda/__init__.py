"""``/coda``: CODA (Harry Potter RPG) tests, damage, opposed, combined and extended tests."""

from discord.ext import commands

from bot.cogs.coda._cog import CodaCog


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(CodaCog(bot))
