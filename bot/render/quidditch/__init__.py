"""Quidditch embeds: one per turn with every roll, the rosters, the status and the tables.

A turn embed lists the phases in RULES.md's order (scoring, blocking, penalty shots, the
snitch), each roll as ``[12] [3] +5 = 17 vs 11``. Names are at most 64 characters and a
team has 7 players, so a full turn stays far inside Discord's limits; fit_embed still
guards every embed.

This module is the public face (``render.X`` is what the cogs call): it re-exports
(``X as X``) what lives in the modules below it, one job each:

- :mod:`bot.render.quidditch._text`: positions, sides, rolls, score lines, shared wording;
- :mod:`bot.render.quidditch._turns`: a turn, a run of turns, a penalty shot, an undo;
- :mod:`bot.render.quidditch._match`: rosters, status, a new or abandoned match, the snitch;
- :mod:`bot.render.quidditch._tables`: house points and simulated odds.
"""

from __future__ import annotations

from bot.render.quidditch._match import end_embed as end_embed
from bot.render.quidditch._match import interference_embed as interference_embed
from bot.render.quidditch._match import new_match_embed as new_match_embed
from bot.render.quidditch._match import roster_embed as roster_embed
from bot.render.quidditch._match import status_embed as status_embed
from bot.render.quidditch._tables import houses_embed as houses_embed
from bot.render.quidditch._tables import odds_embed as odds_embed
from bot.render.quidditch._text import BROOM as BROOM
from bot.render.quidditch._text import POSITION_NAMES as POSITION_NAMES
from bot.render.quidditch._text import POSITION_WORDS as POSITION_WORDS
from bot.render.quidditch._text import SIDE_NAMES as SIDE_NAMES
from bot.render.quidditch._text import position_name as position_name
from bot.render.quidditch._text import position_word as position_word
from bot.render.quidditch._turns import penalty_embed as penalty_embed
from bot.render.quidditch._turns import turn_embed as turn_embed
from bot.render.quidditch._turns import turns_summary_embed as turns_summary_embed
from bot.render.quidditch._turns import undo_embed as undo_embed

__all__ = [
    "end_embed",
    "houses_embed",
    "interference_embed",
    "new_match_embed",
    "odds_embed",
    "penalty_embed",
    "roster_embed",
    "status_embed",
    "turn_embed",
    "turns_summary_embed",
    "undo_embed",
]
