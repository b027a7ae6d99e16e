"""``/drama test|opposed`` and the "Pay the price" button: Drama in History dice pools."""

from discord.ext import commands

from bot.cogs._side_request import RollSideButton
from bot.cogs.drama._cog import Dice as Dice
from bot.cogs.drama._cog import DramaCog, PayPriceButton


async def setup(bot: commands.Bot) -> None:
    # A dynamic item answers its buttons by custom id, so they work after a restart too.
    bot.add_dynamic_items(PayPriceButton, RollSideButton)  # RollSideButton: shared, kept
    await bot.add_cog(DramaCog(bot))


async def teardown(bot: commands.Bot) -> None:
    bot.remove_dynamic_items(PayPriceButton)
