"""The ``/coda`` command group and its ``/coda extended`` subgroup.

Declared on their own because :class:`~bot.cogs.coda._cog.CodaCog` is assembled from several
classes of commands (single tests, tests made together, extended tests), each in its own
module, and every one of them hangs its commands on these same two groups. A subcommand's
place in ``/help`` is the order in which its module adds it.
"""

from discord import app_commands
from discord.app_commands import locale_str

CODA = app_commands.Group(name="coda", description=locale_str("CODA (Harry Potter RPG) tests"))
EXTENDED = app_commands.Group(
    name="extended",
    description=locale_str("Extended tests: stages, running total, time"),
    parent=CODA,
)
