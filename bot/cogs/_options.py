"""Option types and descriptions that many commands share, declared once.

Discord enforces a ``Range`` before the bot is called, so these are also the first line of
input validation; services and the engine check again with messages of their own.
"""

from __future__ import annotations

from discord import app_commands
from discord.app_commands import locale_str

from bot.services.participants import PARTICIPANTS_LENGTH
from bot.services.sheets import NAME_LENGTH
from engine.systems import SYSTEMS

LABEL_LENGTH = 100

#: What a roll is for, shown in its title.
Label = app_commands.Range[str, 1, LABEL_LENGTH]
#: A character, attribute, skill or resource name on a sheet.
SheetName = app_commands.Range[str, 1, NAME_LENGTH]

#: Descriptions of the options every rolling command shares.
ROLL_HELP = {
    "label": locale_str("What the roll is for (shown in the title)"),
    "secret": locale_str("Show the result only to you and the GM"),
}
#: The description of an optional ``character`` option.
CHARACTER_HELP = locale_str(
    "Whose sheet (default: your active character here; GMs may name any here)"
)

#: The players who may roll a shared task besides its starter and the GM (mentions).
Participants = app_commands.Range[str, 1, PARTICIPANTS_LENGTH]
PARTICIPANTS_HELP = locale_str("Who else may roll it, e.g. '@alice @bob' (besides you and the GM)")

#: The five systems as choices, e.g. for ``/sheet create`` and ``/settings system``.
SYSTEM_CHOICES = [
    app_commands.Choice(name=locale_str(title), value=key) for key, title in SYSTEMS.items()
]
