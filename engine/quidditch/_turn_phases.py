"""Playing one quidditch turn (:func:`play_turn`): its phases in the Order of RULES.md §2
(scoring, bludgers, penalty shots, the snitch), each drawing its own dice, and the match's
result once the snitch is caught.

It exists as the top of the turn modules: it sequences the phases and leaves the GM's
targets (:mod:`engine.quidditch._beaters`) and the penalty shots
(:mod:`engine.quidditch._penalty_shots`) to the modules below it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from engine.dice import Dice
from engine.errors import N_
from engine.quidditch._beaters import default_target, resolve_targets
from engine.quidditch._penalty_shots import (
    award_penalties,
    chaser_roll,
    keeper_stats,
    require_playable,
)
from engine.quidditch._roster import (
    AWAY,
    CATCH_MARGIN,
    GOAL_POINTS,
    HOME,
    LONE_SEEKER_DIFFICULTY,
    PENALTY_POINTS,
    SIDES,
    SNITCH_POINTS,
    Foul,
    MatchState,
    Penalties,
    Player,
    Position,
    QuidditchError,
    Side,
    is_snitch_turn,
    other,
    with_points,
    with_team,
)
from engine.quidditch._turn_reports import (
    BeaterReport,
    MatchResult,
    SeekerReport,
    ShotReport,
    SnitchReport,
    Turn,
    TurnReport,
)
from engine.systems import hogwarts1990 as h90
from engine.systems.hogwarts1990 import Roll

_Plan = tuple[Side, Player, str, bool]  # (beater's side, beater, target, chosen by the GM)
_Who = tuple[Side, str]  # a player by team and name


def play_turn(
    dice: Dice,
    state: MatchState,
    /,
    *,
    targets: Mapping[str, str] | None = None,
    penalties: Penalties = "ask",
    scoring_zone: Side | None = None,
) -> Turn:
    """Play one turn (or, if one waits, the last turn's snitch phase) and report every roll.

    The phases below run in RULES.md's order, each drawing its own dice, so the order of
    the calls is the order of the draws. ``scoring_zone`` is the GM's word that the quaffle
    is in the scoring zone at that team's hoops: a bludger at its keeper is then no foul.
    """
    require_playable(state)
    if scoring_zone is not None and scoring_zone not in SIDES:
        raise QuidditchError(
            N_("The scoring zone is home or away (got {zone})."), zone=repr(scoring_zone)
        )
    if penalties not in ("ask", "all", "none"):
        raise QuidditchError(
            N_("Penalties must be ask, all or none (got {penalties})."), penalties=repr(penalties)
        )
    if state.snitch_pending:
        if targets:
            raise QuidditchError(
                N_("Turn {turn}'s snitch phase comes first; give targets with the next turn."),
                turn=state.turn,
            )
        report = TurnReport(state.turn, snitch_only=True)
        return _finish_turn(dice, replace(state, snitch_pending=False), report)
    resolved = resolve_targets(state, targets)
    number = state.turn + 1
    state = replace(state, turn=number, fouls=())

    shots = _scoring(dice, state)
    plan, held = _plan_bludgers(state, shots, resolved)
    state, blocks, blocked, knocked_out = _bludgers(dice, state, shots, plan, scoring_zone)
    shots = [
        replace(s, blocked_by=tuple(blocked[(s.team, s.chaser)]))
        if (s.team, s.chaser) in blocked
        else s
        for s in shots
    ]
    fouls = tuple(
        Foul(number, b.team, b.beater, b.target, b.target_position) for b in blocks if b.foul
    )
    points = {HOME: 0, AWAY: 0}
    for shot in shots:
        if shot.scored:
            points[shot.team] += GOAL_POINTS
    state = replace(
        state,
        home_score=state.home_score + points[HOME],
        away_score=state.away_score + points[AWAY],
        fouls=fouls,
    )
    state, penalty_reports = award_penalties(dice, state, penalties)

    report = TurnReport(
        turn=number,
        shots=tuple(shots),
        blocks=tuple(blocks),
        held=tuple(held),
        penalties=tuple(penalty_reports),
        fouls=fouls,
        knocked_out=tuple(knocked_out),
    )
    if not is_snitch_turn(number):
        return Turn(state, _close(report, state, start=_start_score(state, report)))
    if state.open_fouls:
        state = replace(state, snitch_pending=True)
        report = replace(report, snitch_deferred=True)
        return Turn(state, _close(report, state, start=_start_score(state, report)))
    return _finish_turn(dice, state, report)


def _scoring(dice: Dice, state: MatchState) -> list[ShotReport]:
    """1. Scoring: every active chaser shoots, home first, in roster order."""
    shots: list[ShotReport] = []
    for side in SIDES:
        defenders = state.team(other(side))
        for chaser in state.team(side).chasers:
            if chaser.active:
                shots.append(ShotReport(side, chaser.name, chaser_roll(dice, chaser, defenders)))
    return shots


def _plan_bludgers(
    state: MatchState, shots: Sequence[ShotReport], resolved: Mapping[tuple[Side, int], str]
) -> tuple[list[_Plan], list[_Who]]:
    """2a. Every active beater's target, fixed before any bludger flies (and who holds back)."""
    plan: list[_Plan] = []
    held: list[_Who] = []
    for side in SIDES:
        their_shots = [s for s in shots if s.team != side]
        for index, beater in enumerate(state.team(side).beaters):
            if not beater.active:
                continue
            chosen = resolved.get((side, index))
            target = chosen if chosen is not None else default_target(their_shots)
            if target is None:
                held.append((side, beater.name))
            else:
                plan.append((side, beater, target, chosen is not None))
    return plan, held


def _bludgers(
    dice: Dice,
    state: MatchState,
    shots: Sequence[ShotReport],
    plan: Sequence[_Plan],
    scoring_zone: Side | None = None,
) -> tuple[MatchState, list[BeaterReport], dict[_Who, list[str]], list[_Who]]:
    """2b. Each planned bludger in turn: hits cost health, may stop a goal or be a foul
    (targeting the keeper is one unless the quaffle is in the scoring zone at its hoops).

    Returns the state with the chasers' health, the reports, the goals stopped (by whom)
    and who was knocked out.
    """
    blocked: dict[_Who, list[str]] = {}
    blocks: list[BeaterReport] = []
    knocked_out: list[_Who] = []
    for side, beater, target_name, by_gm in plan:
        victim_side = other(side)
        opponents = state.team(victim_side)
        target = opponents.find(target_name)
        assert target is not None
        toughness, _ = keeper_stats(opponents)
        bludger = h90.roll(dice, bonus=beater.strength, difficulty=toughness)
        hit = bool(bludger.success)
        shot = next((s for s in shots if s.team == victim_side and s.chaser == target.name), None)
        scored = shot is not None and shot.margin is not None
        stops_goal = (
            hit and scored and bludger.margin > shot.margin  # type: ignore[operator,union-attr]
        )
        if stops_goal:
            blocked.setdefault((victim_side, target.name), []).append(beater.name)
        health = target.health
        out = False
        if hit and health > 0:
            health -= 1
            updated = opponents.with_player(replace(target, health=health))
            state = with_team(state, victim_side, updated)
            if health == 0:
                out = True
                knocked_out.append((victim_side, target.name))
        blocks.append(
            BeaterReport(
                team=side,
                beater=beater.name,
                target=target.name,
                target_position=target.position,
                chosen_by_gm=by_gm,
                roll=bludger,
                blocked=stops_goal,
                foul=victim_side != scoring_zone
                if target.position is Position.KEEPER
                else hit and not scored,
                target_health=health,
                knocked_out=out,
            )
        )
    return state, blocks, blocked, knocked_out


def _start_score(state: MatchState, report: TurnReport) -> tuple[int, int]:
    """The score before ``report``'s points (goals and penalty shots)."""
    home = sum(GOAL_POINTS for s in report.goals if s.team == HOME) + sum(
        PENALTY_POINTS for p in report.penalties if p.scored and p.team == HOME
    )
    away = sum(GOAL_POINTS for s in report.goals if s.team == AWAY) + sum(
        PENALTY_POINTS for p in report.penalties if p.scored and p.team == AWAY
    )
    return state.home_score - home, state.away_score - away


def _close(report: TurnReport, state: MatchState, *, start: tuple[int, int]) -> TurnReport:
    return replace(
        report,
        points=(state.home_score - start[0], state.away_score - start[1]),
        score=(state.home_score, state.away_score),
        result=match_result(state) if state.finished else None,
    )


def _finish_turn(dice: Dice, state: MatchState, report: TurnReport) -> Turn:
    """The snitch phase, then the turn's report closes."""
    start = _start_score(state, report)
    seekers: list[SeekerReport] = []
    rolls: dict[Side, tuple[Player, bool, Roll]] = {}
    for side in SIDES:
        seeker = state.team(side).seeker
        if seeker is not None and seeker.active:
            interfering = state.interferes(side)
            bonus = seeker.dexterity * (2 if interfering else 1)
            rolls[side] = (seeker, interfering, h90.roll(dice, bonus=bonus))
    caught_by: Side | None = None
    for side, (seeker, interfering, roll) in rolls.items():
        rival = rolls.get(other(side))
        needed = LONE_SEEKER_DIFFICULTY if rival is None else rival[2].total + CATCH_MARGIN
        caught = not interfering and roll.total >= needed
        if caught:
            caught_by = side
        seekers.append(SeekerReport(side, seeker.name, interfering, roll, caught))
    state = replace(
        state,
        home_interferes=False,
        away_interferes=False,
        fouls=tuple(replace(f, taken=True) for f in state.fouls),
    )
    if caught_by is not None:
        state = replace(
            with_points(state, caught_by, SNITCH_POINTS), finished=True, caught_by=caught_by
        )
    report = replace(report, snitch=SnitchReport(tuple(seekers), caught_by))
    return Turn(state, _close(report, state, start=start))


def match_result(state: MatchState) -> MatchResult:
    """Final score, winner and the house points the winner's house earns (the difference)."""
    difference = abs(state.home_score - state.away_score)
    winner: Side | None = None
    if state.home_score != state.away_score:
        winner = HOME if state.home_score > state.away_score else AWAY
    house = state.team(winner).house if winner is not None else None
    return MatchResult(
        home_score=state.home_score,
        away_score=state.away_score,
        winner=winner,
        difference=difference,
        house=house,
        house_points=difference if house else 0,
        caught_by=state.caught_by,
        turns=state.turn,
    )
