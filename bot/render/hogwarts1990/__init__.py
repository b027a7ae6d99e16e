"""Hogwarts 1990 embeds: rolls, defended and opposed rolls (``_rolls``) and attacks in a
skirmish (``_attack``).

This face is the package's API; its modules are private.
"""

from __future__ import annotations

from bot.render.hogwarts1990._attack import exchange_embed as exchange_embed
from bot.render.hogwarts1990._rolls import OUTCOME_COLOURS as OUTCOME_COLOURS
from bot.render.hogwarts1990._rolls import OUTCOME_ICONS as OUTCOME_ICONS
from bot.render.hogwarts1990._rolls import arithmetic as arithmetic
from bot.render.hogwarts1990._rolls import dice_text as dice_text
from bot.render.hogwarts1990._rolls import doubles_note as doubles_note
from bot.render.hogwarts1990._rolls import kind_text as kind_text
from bot.render.hogwarts1990._rolls import opposed_embed as opposed_embed
from bot.render.hogwarts1990._rolls import roll_embed as roll_embed
