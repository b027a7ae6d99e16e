"""One cog per feature, each in its own package (``_cog.py`` holds the commands).

``EXTENSIONS`` is the list the bot loads, in order; a feature adds its package here.
"""

from bot.cogs._common import CallerFacts as CallerFacts
from bot.cogs._confirm import KindView as KindView

EXTENSIONS: tuple[str, ...] = (
    "bot.cogs.rolls",
    "bot.cogs.coda",
    "bot.cogs.hogwarts1990",
    "bot.cogs.infinity",
    "bot.cogs.rps",
    "bot.cogs.drama",
    "bot.cogs.penalty",
    "bot.cogs.quidditch",
    "bot.cogs.initiative",
    "bot.cogs.history",
    "bot.cogs.dice",
    "bot.cogs.odds",
    "bot.cogs.settings",
    "bot.cogs.sheets",
    "bot.cogs.macros",
    "bot.cogs.help",
    "bot.cogs.retention",
)
