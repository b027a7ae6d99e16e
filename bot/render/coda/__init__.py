"""CODA embeds: tests, damage, opposed, combined and extended tests (``_rolls``), attacks and
their exchanges (``_attack``), and the reference tables (``_reference``).

This face is the package's API; its modules are private.
"""

from __future__ import annotations

from bot.render.coda._attack import defence_label as defence_label
from bot.render.coda._attack import exchange_embed as exchange_embed
from bot.render.coda._extended import extended_roll_embed as extended_roll_embed
from bot.render.coda._extended import status_embed as status_embed
from bot.render.coda._extended import task_embed as task_embed
from bot.render.coda._reference import table_embed as table_embed
from bot.render.coda._rolls import DAMAGE_ICON as DAMAGE_ICON
from bot.render.coda._rolls import DEGREE_COLOURS as DEGREE_COLOURS
from bot.render.coda._rolls import DEGREE_ICONS as DEGREE_ICONS
from bot.render.coda._rolls import DIFFICULTY_NAMES as DIFFICULTY_NAMES
from bot.render.coda._rolls import EXPLOSION as EXPLOSION
from bot.render.coda._rolls import KINDS as KINDS
from bot.render.coda._rolls import arithmetic as arithmetic
from bot.render.coda._rolls import coda_test_embed as coda_test_embed
from bot.render.coda._rolls import combined_embed as combined_embed
from bot.render.coda._rolls import damage_embed as damage_embed
from bot.render.coda._rolls import damage_lines as damage_lines
from bot.render.coda._rolls import degree_line as degree_line
from bot.render.coda._rolls import degree_name as degree_name
from bot.render.coda._rolls import dice_text as dice_text
from bot.render.coda._rolls import difficulty_name as difficulty_name
from bot.render.coda._rolls import ones_note as ones_note
from bot.render.coda._rolls import opposed_embed as opposed_embed
from bot.render.coda._rolls import result_lines as result_lines
