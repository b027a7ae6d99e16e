"""Playing a quidditch match turn by turn: what the GM decides, what the dice say.

:func:`play_turn` and :func:`penalty_shot` take a :class:`MatchState` and return the next
one with a report of every roll, in the Order of RULES.md §2 (see :mod:`engine.quidditch`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from engine.dice import Dice
from engine.errors import N_
from engine.quidditch_rules.roster import (
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
    Team,
    _check_side,
    _with_points,
    _with_team,
    is_snitch_turn,
    missing,
    other,
)
from engine.systems import hogwarts1990 as h90
from engine.systems.hogwarts1990 import Roll

# --- reports ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ShotReport:
    """A chaser's scoring roll (Strength vs the opposing keeper's Toughness + Dexterity)."""

    team: Side
    chaser: str
    roll: Roll
    blocked_by: tuple[str, ...] = ()

    @property
    def margin(self) -> int | None:
        """Total − difficulty on a success, else None."""
        return self.roll.margin if self.roll.success else None

    @property
    def scored(self) -> bool:
        """An unblocked goal."""
        return bool(self.roll.success) and not self.blocked_by


@dataclass(frozen=True, slots=True)
class BeaterReport:
    """A beater's bludger (Strength vs the opposing keeper's Toughness)."""

    team: Side
    beater: str
    target: str
    target_position: Position
    chosen_by_gm: bool
    roll: Roll
    blocked: bool
    """This hit blocked the target's goal (margin > the chaser's scoring margin)."""
    foul: bool
    target_health: int
    """The target's Health after this roll."""
    knocked_out: bool = False
    """This hit took the target's last Health point."""

    @property
    def hit(self) -> bool:
        return bool(self.roll.success)


@dataclass(frozen=True, slots=True)
class PenaltyReport:
    team: Side
    chaser: str
    foul: Foul
    roll: Roll

    @property
    def scored(self) -> bool:
        return bool(self.roll.success)


@dataclass(frozen=True, slots=True)
class SeekerReport:
    team: Side
    seeker: str
    interfering: bool
    roll: Roll
    caught: bool


@dataclass(frozen=True, slots=True)
class SnitchReport:
    seekers: tuple[SeekerReport, ...]
    """The seekers who rolled, home first (an out seeker does not roll)."""
    caught_by: Side | None


@dataclass(frozen=True, slots=True)
class MatchResult:
    home_score: int
    away_score: int
    winner: Side | None
    """None on a draw."""
    difference: int
    house: str | None
    """The winning team's house, which earns the difference in house points."""
    house_points: int
    caught_by: Side | None
    turns: int


@dataclass(frozen=True, slots=True)
class TurnReport:
    turn: int
    shots: tuple[ShotReport, ...] = ()
    blocks: tuple[BeaterReport, ...] = ()
    held: tuple[tuple[Side, str], ...] = ()
    """Beaters who had no one to target and did not roll."""
    penalties: tuple[PenaltyReport, ...] = ()
    fouls: tuple[Foul, ...] = ()
    snitch: SnitchReport | None = None
    snitch_deferred: bool = False
    """A snitch turn with open fouls: penalty shots first, the next play_turn chases."""
    snitch_only: bool = False
    """This report is only the snitch phase a previous turn deferred."""
    points: tuple[int, int] = (0, 0)
    """Points this report added (home, away)."""
    score: tuple[int, int] = (0, 0)
    """The score after it (home, away)."""
    knocked_out: tuple[tuple[Side, str], ...] = ()
    result: MatchResult | None = None
    """Set when the snitch was caught and the match ended."""

    @property
    def goals(self) -> tuple[ShotReport, ...]:
        return tuple(s for s in self.shots if s.scored)


@dataclass(frozen=True, slots=True)
class Turn:
    state: MatchState
    report: TurnReport


# --- targets ----------------------------------------------------------------------------------


def parse_targets(text: str | None) -> dict[str, str]:
    """``"home1:Weasley, home2:keeper"`` -> ``{"home1": "Weasley", "home2": "keeper"}``."""
    targets: dict[str, str] = {}
    if not text:
        return targets
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        beater, sep, target = part.partition(":")
        if not sep or not beater.strip() or not target.strip():
            raise QuidditchError(
                N_(
                    "Targets are 'beater:target' pairs such as 'home1:Weasley, away2:keeper' "
                    "(got {part})."
                ),
                part=repr(part),
            )
        key = beater.strip()
        if key.casefold() in (k.casefold() for k in targets):
            raise QuidditchError(N_("Beater {key} is given two targets."), key=repr(key))
        targets[key] = target.strip()
    return targets


def _find_beater(state: MatchState, key: str) -> tuple[Side, int]:
    folded = key.strip().casefold()
    for side in SIDES:
        beaters = state.team(side).beaters
        for index in range(len(beaters)):
            if folded == f"{side}{index + 1}":
                return side, index
    found = [
        (side, index)
        for side in SIDES
        for index, beater in enumerate(state.team(side).beaters)
        if beater.name.casefold() == folded
    ]
    if len(found) > 1:
        raise QuidditchError(
            N_("Both teams have a beater named {key}: use home1/away1 instead."), key=repr(key)
        )
    if not found:
        raise QuidditchError(
            N_("{key} is not a beater (name one, or use home1, home2, away1, away2)."),
            key=repr(key),
        )
    return found[0]


def _resolve_targets(
    state: MatchState, targets: Mapping[str, str] | None
) -> dict[tuple[Side, int], str]:
    """GM targets as {(beater side, beater index): target name}, checked against the rules."""
    resolved: dict[tuple[Side, int], str] = {}
    for key, target in (targets or {}).items():
        side, index = _find_beater(state, key)
        beater = state.team(side).beaters[index]
        if (side, index) in resolved:
            raise QuidditchError(N_("{name} is given two targets."), name=beater.name)
        if not beater.active:
            raise QuidditchError(N_("{name} is knocked out and cannot play."), name=beater.name)
        opponents = state.team(other(side))
        if target.strip().casefold() == "keeper":
            victim = opponents.keeper
        else:
            victim = opponents.find(target)
        if victim is None:
            raise QuidditchError(
                N_("{team} has no player named {name}."), team=opponents.name, name=repr(target)
            )
        if victim.position not in (Position.CHASER, Position.KEEPER):
            if victim.position is Position.BEATER:
                raise QuidditchError(
                    N_("A beater targets an opposing chaser or the keeper, not the beater {name}."),
                    name=victim.name,
                )
            raise QuidditchError(
                N_("A beater targets an opposing chaser or the keeper, not the seeker {name}."),
                name=victim.name,
            )
        if not victim.active:
            raise QuidditchError(
                N_("{name} is knocked out and takes no further part."), name=victim.name
            )
        resolved[(side, index)] = victim.name
    return resolved


def _default_target(shots: Iterable[ShotReport]) -> str | None:
    """RULES.md's Decision: the opposing chaser with the largest scoring margin (ties: first
    listed); if no opposing chaser scored, None: the beater holds back (no roll, no foul)."""
    best: ShotReport | None = None
    for shot in shots:
        margin = shot.margin
        if margin is not None and (best is None or margin > best.margin):  # type: ignore[operator]
            best = shot
    return None if best is None else best.chaser


# --- playing ----------------------------------------------------------------------------------


def _require_playable(state: MatchState) -> None:
    if state.finished:
        raise QuidditchError(N_("The match is over."))
    lacking = missing(state)
    if lacking:
        raise QuidditchError(
            N_("The rosters are incomplete: {lacking}."), lacking="; ".join(lacking)
        )


def _keeper_stats(team: Team) -> tuple[int, int]:
    """(Toughness, Dexterity) of a team's keeper; an absent or knocked-out one counts 0."""
    keeper = team.keeper
    if keeper is None or not keeper.active:
        return 0, 0
    return keeper.toughness, keeper.dexterity


def _chaser_roll(dice: Dice, chaser: Player, defenders: Team) -> Roll:
    toughness, dexterity = _keeper_stats(defenders)
    return h90.roll(dice, bonus=chaser.strength, difficulty=toughness + dexterity)


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
    _require_playable(state)
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
    resolved = _resolve_targets(state, targets)
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
    state, penalty_reports = _award_penalties(dice, state, penalties)

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
                shots.append(ShotReport(side, chaser.name, _chaser_roll(dice, chaser, defenders)))
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
            target = chosen if chosen is not None else _default_target(their_shots)
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
        toughness, _ = _keeper_stats(opponents)
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
            state = _with_team(state, victim_side, updated)
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


def _award_penalties(
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
            _with_points(state, caught_by, SNITCH_POINTS), finished=True, caught_by=caught_by
        )
    report = replace(report, snitch=SnitchReport(tuple(seekers), caught_by))
    return Turn(state, _close(report, state, start=start))


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
    roll = _chaser_roll(dice, chaser, state.team(other(side)))
    fouls = tuple(replace(f, taken=True) if f is foul else f for f in state.fouls)
    state = replace(state, fouls=fouls)
    if roll.success:
        state = _with_points(state, side, PENALTY_POINTS)
    return state, PenaltyReport(side, chaser.name, foul, roll)


def penalty_shot(dice: Dice, state: MatchState, /, *, team: Side, chaser: str) -> Turn:
    """The GM awards a penalty shot for one of the last turn's fouls against ``team``.

    The report carries only the shot (and, if it was the last open foul on a snitch turn,
    the score is what the snitch phase will start from).
    """
    _check_side(team)
    _require_playable(state)
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
