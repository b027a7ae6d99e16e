"""``/macro``: saved command lines; and the quick-roll panel's persistent buttons."""

from discord.ext import commands

from bot.cogs.macros._cog import MacrosCog
from bot.cogs.macros._panel import MacroButton
from bot.cogs.macros._panel import post_panel as post_panel
from bot.cogs.macros._run import PANEL_COMMANDS as PANEL_COMMANDS


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(MacroButton)
    await bot.add_cog(MacrosCog(bot))


async def teardown(bot: commands.Bot) -> None:
    bot.remove_dynamic_items(MacroButton)
