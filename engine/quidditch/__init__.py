"""Quidditch under the Hogwarts 1990 optional rules (RULES.md §2) as a pure state machine.

A :class:`MatchState` goes in with the GM's decisions and a dice source; a new state and a
report of everything rolled come out. Nothing here does I/O: the bot stores the state as
the plain dict of :meth:`MatchState.to_dict` and renders the reports.

Dice are drawn in the order RULES.md gives: home chasers in roster order, away chasers,
home beaters, away beaters, penalty shots, then the snitch (home seeker first). The home
team is RULES.md's "team A".

Decisions beyond RULES.md, all taken so the machine never stalls or guesses:

* A knocked-out keeper defends with Toughness and Dexterity 0, as a missing seeker is
  chased "against 10 + 0".
* Beater targets are fixed at the start of the blocking phase (so both beaters of a team
  may hit the same chaser, as the source allows). With no active opposing chaser, a beater
  without a GM target holds back and does not roll, rather than commit a foul by default.
* Penalty shots ("the GM may award"): with ``penalties="ask"`` fouls stay open until the
  next turn for :func:`penalty_shot`; on a snitch turn the snitch phase then waits, so the
  shots come before the snitch as the Order says, and the next :func:`play_turn` plays it.
  ``"all"`` takes one shot per foul at once (by the fouled chaser, or the first active
  chaser of the fouled team), ``"none"`` waives them all.
* A seeker's interference is set before a snitch phase and applies to that phase only.

The package's private modules, one job each: the match state and roster (``_roster``), a
turn's phases in order (``_turn_phases``) and what it reports (``_turn_reports``), the GM's
beater targets (``_beaters``), penalty shots (``_penalty_shots``) and whole simulated matches
(``_simulation``). This face is the API: import from ``engine.quidditch``.
"""

from __future__ import annotations

from engine.quidditch._beaters import parse_targets
from engine.quidditch._penalty_shots import penalty_shot
from engine.quidditch._roster import (
    AWAY,
    CATCH_MARGIN,
    DEFAULT_MAX_TURNS,
    FIRST_SNITCH_TURN,
    GOAL_POINTS,
    HEALTH_MAX,
    HOME,
    LONE_SEEKER_DIFFICULTY,
    NAME_MAX,
    PENALTY_POINTS,
    SIDES,
    SNITCH_EVERY,
    SNITCH_POINTS,
    STAT_MAX,
    STATE_VERSION,
    Foul,
    MatchState,
    Penalties,
    Player,
    Position,
    QuidditchError,
    Side,
    Team,
    add_player,
    add_players,
    is_snitch_turn,
    make_player,
    missing,
    new_match,
    next_snitch_turn,
    other,
    remove_player,
    set_health,
    set_interference,
)
from engine.quidditch._simulation import (
    SimulatedMatch,
    SimulationSummary,
    check_simulable,
    simulate,
    simulate_batch,
    simulate_many,
    summarise,
)

# The reference loop that the tests compare :func:`simulate` with, match for match.
from engine.quidditch._simulation import play_out as play_out
from engine.quidditch._turn_phases import match_result, play_turn
from engine.quidditch._turn_reports import (
    BeaterReport,
    MatchResult,
    PenaltyReport,
    SeekerReport,
    ShotReport,
    SnitchReport,
    Turn,
    TurnReport,
)

__all__ = [
    "AWAY",
    "CATCH_MARGIN",
    "DEFAULT_MAX_TURNS",
    "FIRST_SNITCH_TURN",
    "GOAL_POINTS",
    "HEALTH_MAX",
    "HOME",
    "LONE_SEEKER_DIFFICULTY",
    "NAME_MAX",
    "PENALTY_POINTS",
    "SIDES",
    "SNITCH_EVERY",
    "SNITCH_POINTS",
    "STATE_VERSION",
    "STAT_MAX",
    "BeaterReport",
    "Foul",
    "MatchResult",
    "MatchState",
    "Penalties",
    "PenaltyReport",
    "Player",
    "Position",
    "QuidditchError",
    "SeekerReport",
    "ShotReport",
    "Side",
    "SimulatedMatch",
    "SimulationSummary",
    "SnitchReport",
    "Team",
    "Turn",
    "TurnReport",
    "add_player",
    "add_players",
    "check_simulable",
    "is_snitch_turn",
    "make_player",
    "match_result",
    "missing",
    "new_match",
    "next_snitch_turn",
    "other",
    "parse_targets",
    "penalty_shot",
    "play_turn",
    "remove_player",
    "set_health",
    "set_interference",
    "simulate",
    "simulate_batch",
    "simulate_many",
    "summarise",
]
