"""Whole simulated quidditch matches, for the GM's roster odds (``/quidditch odds``).

Kept apart from the turn machine because it is a lean re-implementation of it on plain
integers (thousands of matches per request), pinned match for match to that machine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from engine.dice import Dice
from engine.errors import N_
from engine.quidditch._penalty_shots import require_playable
from engine.quidditch._roster import (
    AWAY,
    CATCH_MARGIN,
    DEFAULT_MAX_TURNS,
    GOAL_POINTS,
    HOME,
    LONE_SEEKER_DIFFICULTY,
    SNITCH_POINTS,
    MatchState,
    QuidditchError,
    Side,
    check_stat,
    is_snitch_turn,
)
from engine.quidditch._turn_phases import play_turn


@dataclass(frozen=True, slots=True)
class SimulatedMatch:
    home_score: int
    away_score: int
    winner: Side | None
    turns: int
    capped: bool
    """The turn cap ended the match before the snitch was caught (no winner is declared)."""


@dataclass(frozen=True, slots=True)
class SimulationSummary:
    matches: int
    home_wins: int
    away_wins: int
    draws: int
    capped: int
    mean_home_score: float
    mean_away_score: float
    mean_turns: float
    longest: int
    max_turns: int
    outcomes: tuple[SimulatedMatch, ...] = field(default=(), repr=False)

    @property
    def home_win_rate(self) -> float:
        return self.home_wins / self.matches

    @property
    def away_win_rate(self) -> float:
        return self.away_wins / self.matches

    @property
    def draw_rate(self) -> float:
        return self.draws / self.matches


def simulate(
    dice: Dice,
    state: MatchState,
    /,
    *,
    max_turns: int = DEFAULT_MAX_TURNS,
    penalties: Literal["all", "none"] = "all",
) -> SimulatedMatch:
    """Play a match out from ``state`` with the default decisions (no GM targets).

    Interference already set applies to the next snitch phase, as in play. This is a lean
    replay of :func:`play_turn` on plain integers (the GM's ``/quidditch odds`` plays 2,000
    matches at once); it draws the same dice in the same order, which the tests check match
    for match against :func:`play_out`, the same loop over :func:`play_turn`.

    Default targets are always scoring chasers (a beater with none holds back), so they
    never foul and ``penalties`` has nothing to award; it stays for callers (and for
    :func:`play_out`, which must draw the same dice).
    """
    require_playable(state)
    check_stat(max_turns, "max_turns", 1, 10_000)
    if penalties not in ("all", "none"):
        raise QuidditchError(
            N_("A simulation takes penalties all or none (got {penalties})."),
            penalties=repr(penalties),
        )
    if state.snitch_pending:
        state = play_turn(dice, state).state
    roll = dice.roll
    teams = (state.home, state.away)
    ch_str = [[c.strength for c in t.chasers] for t in teams]
    ch_hp = [[c.health for c in t.chasers] for t in teams]
    be_str = [[b.strength for b in t.beaters if b.active] for t in teams]
    keepers = [t.keeper for t in teams]
    kp_tough = [k.toughness if k else 0 for k in keepers]
    kp_def = [k.toughness + k.dexterity if k else 0 for k in keepers]
    kp_up = [bool(k and k.active) for k in keepers]
    seekers = [t.seeker for t in teams]
    sk_dex = [s.dexterity if s and s.active else None for s in seekers]
    interfere = [state.home_interferes, state.away_interferes]
    score = [state.home_score, state.away_score]
    turn = state.turn
    caught = False
    while not caught and turn < max_turns:
        turn += 1
        # Scoring: margins[side][chaser] is the margin of a successful shot, else None.
        margins: list[list[int | None]] = [[], []]
        for side in (0, 1):
            difficulty = kp_def[1 - side] if kp_up[1 - side] else 0
            row = margins[side]
            for strength, health in zip(ch_str[side], ch_hp[side], strict=True):
                if health > 0:
                    a = roll(20)
                    b = roll(20)
                    total = (a if a > b else b) + strength
                    row.append(total - difficulty if total >= difficulty else None)
                else:
                    row.append(None)
        # Default targets, fixed before any bludger: best margin, else none (hold back).
        targets: list[int | None] = [None, None]
        for side in (0, 1):
            opp = margins[1 - side]
            best = None
            for index, margin in enumerate(opp):
                if margin is not None and (best is None or margin > opp[best]):  # type: ignore[operator]
                    best = index
            targets[side] = best
        blocked = [[False] * len(ch_str[0]), [False] * len(ch_str[1])]
        # A default target always scored, so no bludger here is a foul (nothing to award).
        for side in (0, 1):
            target = targets[side]
            if target is None:
                continue
            victim = 1 - side
            difficulty = kp_tough[victim] if kp_up[victim] else 0
            scored = margins[victim][target]
            for strength in be_str[side]:
                a = roll(20)
                b = roll(20)
                total = (a if a > b else b) + strength
                if total >= difficulty:
                    if total - difficulty > scored:  # type: ignore[operator]
                        blocked[victim][target] = True
                    if ch_hp[victim][target] > 0:
                        ch_hp[victim][target] -= 1
        for side in (0, 1):
            for margin, stopped in zip(margins[side], blocked[side], strict=True):
                if margin is not None and not stopped:
                    score[side] += GOAL_POINTS
        if is_snitch_turn(turn):
            totals: list[int | None] = [None, None]
            for side in (0, 1):
                dexterity = sk_dex[side]
                if dexterity is not None:
                    a = roll(20)
                    b = roll(20)
                    totals[side] = (a if a > b else b) + dexterity * (2 if interfere[side] else 1)
            for side in (0, 1):
                mine, theirs = totals[side], totals[1 - side]
                if mine is None or interfere[side]:
                    continue
                needed = LONE_SEEKER_DIFFICULTY if theirs is None else theirs + CATCH_MARGIN
                if mine >= needed:
                    score[side] += SNITCH_POINTS
                    caught = True
            interfere = [False, False]
    winner: Side | None = None
    if caught and score[0] != score[1]:
        winner = HOME if score[0] > score[1] else AWAY
    return SimulatedMatch(score[0], score[1], winner, turn, capped=not caught)


def play_out(
    dice: Dice,
    state: MatchState,
    /,
    *,
    max_turns: int = DEFAULT_MAX_TURNS,
    penalties: Literal["all", "none"] = "all",
) -> SimulatedMatch:
    """The reference for :func:`simulate`: the same match, one :func:`play_turn` at a time."""
    require_playable(state)
    if state.snitch_pending:
        state = play_turn(dice, state).state
    while not state.finished and state.turn < max_turns:
        state = play_turn(dice, state, penalties=penalties).state
    winner: Side | None = None
    if state.finished and state.home_score != state.away_score:
        winner = HOME if state.home_score > state.away_score else AWAY
    return SimulatedMatch(
        state.home_score, state.away_score, winner, state.turn, capped=not state.finished
    )


def check_simulable(state: MatchState) -> None:
    """Refuse a match that cannot be simulated: incomplete, over, or with no seeker in play
    (no match could ever end, and playing each to the turn cap would only burn time)."""
    require_playable(state)
    if not any(s is not None and s.active for s in (state.home.seeker, state.away.seeker)):
        raise QuidditchError(
            N_(
                "Neither seeker is in play, so the snitch can never be caught and the match "
                "cannot end."
            )
        )


def simulate_many(
    dice: Dice,
    state: MatchState,
    /,
    *,
    matches: int,
    max_turns: int = DEFAULT_MAX_TURNS,
    penalties: Literal["all", "none"] = "all",
    keep_outcomes: bool = False,
) -> SimulationSummary:
    """Play ``matches`` matches from ``state`` and summarise them (the GM's roster odds).

    Refuses what :func:`check_simulable` refuses.
    """
    check_stat(matches, "matches", 1, 1_000_000)
    check_simulable(state)
    results = [
        simulate(dice, state, max_turns=max_turns, penalties=penalties) for _ in range(matches)
    ]
    return summarise(results, max_turns=max_turns, keep_outcomes=keep_outcomes)


def simulate_batch(
    *, dice: Dice, state: MatchState, matches: int
) -> tuple[tuple[SimulatedMatch, ...], Dice]:
    """Play ``matches`` matches from ``state``: them, and ``dice`` as it stands after.

    The bot plays its batches in a worker process, which rolls a copy of the dice: handing
    the copy back lets the next batch go on with the same sequence, so the same seed gives
    the same answer however the matches were split into batches."""
    return tuple(simulate(dice, state) for _ in range(matches)), dice


def summarise(
    results: Sequence[SimulatedMatch],
    *,
    max_turns: int = DEFAULT_MAX_TURNS,
    keep_outcomes: bool = False,
) -> SimulationSummary:
    """Win rates, mean scores and lengths of simulated matches (played in one go or in
    batches, as the bot does to answer within its time budget)."""
    matches = len(results)
    if not matches:
        raise QuidditchError(N_("No match was simulated."))
    return SimulationSummary(
        matches=matches,
        home_wins=sum(r.winner == HOME for r in results),
        away_wins=sum(r.winner == AWAY for r in results),
        draws=sum(r.winner is None and not r.capped for r in results),
        capped=sum(r.capped for r in results),
        mean_home_score=sum(r.home_score for r in results) / matches,
        mean_away_score=sum(r.away_score for r in results) / matches,
        mean_turns=sum(r.turns for r in results) / matches,
        longest=max(r.turns for r in results),
        max_turns=max_turns,
        outcomes=tuple(results) if keep_outcomes else (),
    )
