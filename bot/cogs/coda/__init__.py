"""``/coda``: CODA (Harry Potter RPG) tests, damage, opposed, combined and extended tests,
attacks with the defender's Dodge / Parry buttons, and the CODA tracker's action buttons."""

from discord.ext import commands

from bot.cogs._side_request import RollSideButton
from bot.cogs.coda._actions import ActionButton, RollTestButton
from bot.cogs.coda._actions import add_action_buttons as add_action_buttons
from bot.cogs.coda._actions import run_action as run_action
from bot.cogs.coda._attack import DefendButton
from bot.cogs.coda._coda_options import TN as TN
from bot.cogs.coda._coda_options import Modifier as Modifier
from bot.cogs.coda._coda_options import Penalty as Penalty
from bot.cogs.coda._cog import CodaCog


async def setup(bot: commands.Bot) -> None:
    # A dynamic item answers its buttons by custom id, so an exchange resumes after a restart.
    bot.add_dynamic_items(DefendButton, ActionButton, RollTestButton)
    await bot.add_cog(CodaCog(bot))
    bot.add_dynamic_items(RollSideButton)  # the same item for every system: added once


async def teardown(bot: commands.Bot) -> None:
    bot.remove_dynamic_items(DefendButton, ActionButton, RollTestButton, RollSideButton)
