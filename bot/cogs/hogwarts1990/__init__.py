"""``/h90``: Hogwarts 1990 rolls (standard, stress, advantage), opposed rolls, and attacks
with the defender's Dodge / a delayer's dodge / Take it buttons."""

from discord.ext import commands

from bot.cogs._side_request import RollSideButton
from bot.cogs.hogwarts1990._attack import AnswerButton
from bot.cogs.hogwarts1990._cog import Bonus as Bonus
from bot.cogs.hogwarts1990._cog import Difficulty as Difficulty
from bot.cogs.hogwarts1990._cog import Hogwarts1990Cog


async def setup(bot: commands.Bot) -> None:
    # A dynamic item answers its buttons by custom id, so an exchange resumes after a restart.
    bot.add_dynamic_items(AnswerButton)
    await bot.add_cog(Hogwarts1990Cog(bot))
    bot.add_dynamic_items(RollSideButton)  # the same item for every system: added once


async def teardown(bot: commands.Bot) -> None:
    bot.remove_dynamic_items(AnswerButton)
