"""What a quidditch turn reports: each shot, bludger, penalty shot and seeker's roll, the
snitch phase, the match's result, and the next state with its report (:class:`Turn`).

It exists as the bottom of the turn modules: the beater targets, the penalty shots and the
turn's phases all build these records, and the renderer reads them.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.quidditch._roster import (
    Foul,
    MatchState,
    Position,
    Side,
)
from engine.systems.hogwarts1990 import Roll


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
