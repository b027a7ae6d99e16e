"""Playing a quidditch match turn by turn: what the GM decides, what the dice say.

:func:`play_turn` and :func:`penalty_shot` take a :class:`MatchState` and return the next
one with a report of every roll, in the Order of RULES.md §2 (see :mod:`engine.quidditch`).

This module is the public face: it re-exports (``X as X``) what lives in the modules below
it, one job each:

- :mod:`engine.quidditch_rules.turn_reports`: what a turn reports, and the match's result;
- :mod:`engine.quidditch_rules.beater_targets`: the GM's beater targets and the default;
- :mod:`engine.quidditch_rules.penalty_shots`: penalty shots for fouls;
- :mod:`engine.quidditch_rules.turn_phases`: one turn's phases in order.
"""

from __future__ import annotations

from engine.quidditch_rules.beater_targets import parse_targets as parse_targets

# The simulation checks a match is playable the way a turn does.
from engine.quidditch_rules.penalty_shots import _require_playable as _require_playable
from engine.quidditch_rules.penalty_shots import penalty_shot as penalty_shot
from engine.quidditch_rules.turn_phases import match_result as match_result
from engine.quidditch_rules.turn_phases import play_turn as play_turn
from engine.quidditch_rules.turn_reports import BeaterReport as BeaterReport
from engine.quidditch_rules.turn_reports import MatchResult as MatchResult
from engine.quidditch_rules.turn_reports import PenaltyReport as PenaltyReport
from engine.quidditch_rules.turn_reports import SeekerReport as SeekerReport
from engine.quidditch_rules.turn_reports import ShotReport as ShotReport
from engine.quidditch_rules.turn_reports import SnitchReport as SnitchReport
from engine.quidditch_rules.turn_reports import Turn as Turn
from engine.quidditch_rules.turn_reports import TurnReport as TurnReport
