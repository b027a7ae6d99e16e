"""One cog per feature, each in its own package (``_cog.py`` holds the commands).

``EXTENSIONS`` is the list the bot loads, in order; a feature adds its package here.
"""

EXTENSIONS: tuple[str, ...] = (
    "bot.cogs.rolls",
    "bot.cogs.history",
    "bot.cogs.settings",
    "bot.cogs.help",
)
