"""Quidditch penalty shots for fouls (RULES.md §2): awarded at once or waived by a turn,
or taken later when the GM awards one (:func:`penalty_shot`); with the checks and the
chaser's roll against the keeper that a turn's scoring shares.

It exists below :mod:`engine.quidditch._turn_phases`, which calls it for the turn's
fouls, so the shared checks and the chaser's roll live here.
"""

from __future__ import annotations

from dataclasses import replace

from engine.dice import Dice
from engine.errors import N_
from engine.quidditch._roster import (
    AWAY,
    HOME,
    PENALTY_POINTS,
    Foul,
    MatchState,
    Penalties,
    Player,
    Position,
    QuidditchError,
    Side,
    Team,
    check_side,
    missing,
    other,
    with_points,
)
from engine.quidditch._turn_reports import PenaltyReport, Turn, TurnReport
from engine.systems import hogwarts1990 as h90
from engine.systems.hogwarts1990 import Roll


def require_playable(state: MatchState) -> None:
    if state.finished:
        raise QuidditchError(N_("The match is over."))
    lacking = missing(state)
    if lacking:
        raise QuidditchError(
            N_("The rosters are incomplete: {lacking}."), lacking="; ".join(lacking)
        )


def keeper_stats(team: Team) -> tuple[int, int]:
    """(Toughness, Dexterity) of a team's keeper; an absent or knocked-out one counts 0."""
    keeper = team.keeper
    if keeper is None or not keeper.active:
        return 0, 0
    return keeper.toughness, keeper.dexterity


def chaser_roll(dice: Dice, chaser: Player, defenders: Team) -> Roll:
    toughness, dexterity = keeper_stats(defenders)
    return h90.roll(dice, bonus=chaser.strength, difficulty=toughness + dexterity)


def award_penalties(
    dice: Dice, state: MatchState, penalties: Penalties
) -> tuple[MatchState, list[PenaltyReport]]:
    """Penalty shots awarded at once (``all``) or waived (``none``); ``ask`` leaves the
    fouls open for :func:`penalty_shot`."""
    reports: list[PenaltyReport] = []
    if not state.fouls or penalties == "ask":
        return state, reports
    if penalties == "all":
        for foul in state.fouls:
            shooter = _default_shooter(state, foul)
            if shooter is not None:
                state, report = _take_penalty(dice, state, foul.victim, shooter, foul)
                reports.append(report)
    return replace(state, fouls=tuple(replace(f, taken=True) for f in state.fouls)), reports


def _default_shooter(state: MatchState, foul: Foul) -> str | None:
    """The fouled chaser if still active, else the fouled team's first active chaser."""
    team = state.team(foul.victim)
    fouled = team.find(foul.target)
    if fouled is not None and fouled.position is Position.CHASER and fouled.active:
        return fouled.name
    return next((c.name for c in team.chasers if c.active), None)


def _take_penalty(
    dice: Dice, state: MatchState, side: Side, chaser_name: str, foul: Foul | None = None
) -> tuple[MatchState, PenaltyReport]:
    team = state.team(side)
    chaser = team.find(chaser_name)
    if chaser is None or chaser.position is not Position.CHASER:
        raise QuidditchError(
            N_("{team} has no chaser named {name}."), team=team.name, name=repr(chaser_name)
        )
    if not chaser.active:
        raise QuidditchError(
            N_("{name} is knocked out and takes no further part."), name=chaser.name
        )
    if foul is None:
        foul = next((f for f in state.fouls if not f.taken and f.victim == side), None)
    if foul is None:
        if not state.open_fouls:
            raise QuidditchError(
                N_(
                    "There is no open foul to award a penalty shot for (a foul's shot is taken "
                    "before the next turn is played)."
                )
            )
        fouled = state.team(other(side)).name
        raise QuidditchError(
            N_(
                "There is no open foul against {team}: the open foul is against {fouled}, "
                "whose chaser shoots."
            ),
            team=team.name,
            fouled=fouled,
        )
    roll = chaser_roll(dice, chaser, state.team(other(side)))
    fouls = tuple(replace(f, taken=True) if f is foul else f for f in state.fouls)
    state = replace(state, fouls=fouls)
    if roll.success:
        state = with_points(state, side, PENALTY_POINTS)
    return state, PenaltyReport(side, chaser.name, foul, roll)


def penalty_shot(dice: Dice, state: MatchState, /, *, team: Side, chaser: str) -> Turn:
    """The GM awards a penalty shot for one of the last turn's fouls against ``team``.

    The report carries only the shot (and, if it was the last open foul on a snitch turn,
    the score is what the snitch phase will start from).
    """
    check_side(team)
    require_playable(state)
    state, shot = _take_penalty(dice, state, team, chaser)
    report = TurnReport(
        turn=state.turn,
        penalties=(shot,),
        points=(
            PENALTY_POINTS if shot.scored and team == HOME else 0,
            PENALTY_POINTS if shot.scored and team == AWAY else 0,
        ),
        score=(state.home_score, state.away_score),
        snitch_deferred=state.snitch_pending,
    )
    return Turn(state, report)
