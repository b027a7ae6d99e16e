"""Infinity CodeOne normal and face-to-face rolls with Burst (RULES.md section 3): each die
judged against the SV, the rolled results, and how two sides cancel each other.

Dice are drawn in the order the rules give (a face to face draws all of side A's dice,
then all of side B's), so a ScriptedDice sequence pins one exact result.

It exists to keep rolling and reading dice apart from the chances
(:mod:`engine.systems.infinity._odds`), which only reuse how one face is judged.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from typing import Generic, Protocol, TypeVar

from engine.dice import Dice
from engine.systems.infinity._sv import (
    D20,
    Translate,
    clamp_mods,
    crit_from,
    describe_sv,
    plain,
    rolling_sv,
)


class DieStatus(Enum):
    """What one die ended up as; CANCELLED only happens in a face to face."""

    CRITICAL = "critical"
    SUCCESS = "success"
    FAILURE = "failure"
    CANCELLED = "cancelled"

    @property
    def label(self) -> str:
        return self.value.capitalize()


@dataclass(frozen=True, slots=True)
class Die:
    """One d20: the face shown, the value compared (face + excess above SV 20), and its fate.

    ``critical`` and ``success`` judge the die on its own; ``status`` is its final fate, which
    in a face to face may be CANCELLED even though ``success`` is True.
    """

    face: int
    value: int
    critical: bool
    success: bool
    status: DieStatus

    @property
    def cancelled(self) -> bool:
        return self.status is DieStatus.CANCELLED

    @property
    def hit(self) -> bool:
        """A success still standing (every success in a normal roll; survivors in a FtF)."""
        return self.status in (DieStatus.CRITICAL, DieStatus.SUCCESS)


def judge_die(face: int, sv: int) -> Die:
    if sv > D20:
        value = face + sv - D20
        critical = value >= D20
        return Die(face, value, critical, True, _status(critical, True))
    critical = face == sv
    success = face <= sv
    return Die(face, face, critical, success, _status(critical, success))


def _status(critical: bool, success: bool) -> DieStatus:
    if critical:
        return DieStatus.CRITICAL
    return DieStatus.SUCCESS if success else DieStatus.FAILURE


class _Face(Protocol):
    @property
    def face(self) -> int: ...


D = TypeVar("D", bound=_Face)


@dataclass(frozen=True, slots=True)
class Rolled(Generic[D]):
    """What every Infinity roll keeps: the MODs asked for, what the ±12 cap let through, and
    its dice in draw order (a normal roll's judged dice, or a save's)."""

    mods: int
    applied_mods: int
    dice: tuple[D, ...]

    @property
    def faces(self) -> tuple[int, ...]:
        return tuple(d.face for d in self.dice)


@dataclass(frozen=True, slots=True)
class NormalResult(Rolled[Die]):
    """A normal roll: every die judged on its own against the SV."""

    attribute: int
    sv: int
    burst: int

    @property
    def auto_fail(self) -> bool:
        """Below SV 1 the player does not roll at all (seed 002), so ``dice`` is empty."""
        return self.sv < 1

    @property
    def mods_clamped(self) -> bool:
        return self.mods != self.applied_mods

    @property
    def excess(self) -> int:
        """Added to every face when SV > 20."""
        return max(0, self.sv - D20)

    @property
    def crit_from(self) -> int | None:
        return crit_from(self.sv)

    @property
    def hits(self) -> tuple[Die, ...]:
        """Dice still standing (all successes in a normal roll, survivors in a face to face)."""
        return tuple(d for d in self.dice if d.hit)

    @property
    def successes(self) -> int:
        """Dice that succeeded on their own, criticals included."""
        return sum(d.success for d in self.dice)

    @property
    def criticals(self) -> int:
        return sum(d.critical for d in self.dice)

    @property
    def success(self) -> bool:
        return self.successes > 0

    @property
    def critical(self) -> bool:
        return self.criticals > 0

    @property
    def arithmetic(self) -> str:
        return self.describe()

    def describe(self, name: str = "", tr: Translate = plain) -> str:
        """The SV arithmetic with the attribute's name (``BS 12 + MOD −3 = SV 9``)."""
        return describe_sv(self.attribute, self.mods, name, tr)


def roll_side(dice: Dice, attribute: int, mods: int, burst: int) -> NormalResult:
    """Roll one side without checking its inputs (callers check them with :func:`check_side`)."""
    return _roll(dice, attribute, mods, burst)


def check_side(attribute: int, mods: int, burst: int, side: str = "") -> int:
    """Refuse a side the rules (or the bounds) do not allow; its Success Value otherwise."""
    return rolling_sv(attribute, mods, burst, side)


def _roll(dice: Dice, attribute: int, mods: int, burst: int) -> NormalResult:
    applied = clamp_mods(mods)
    sv = attribute + applied
    # Seed 002: below 1 the player does not roll at all.
    rolled = () if sv < 1 else tuple(judge_die(dice.roll(D20), sv) for _ in range(burst))
    return NormalResult(
        mods=mods,
        applied_mods=applied,
        dice=rolled,
        attribute=attribute,
        sv=sv,
        burst=burst,
    )


def normal(dice: Dice, *, attribute: int, mods: int = 0, burst: int = 1) -> NormalResult:
    """A normal roll of ``burst`` d20 against attribute + MODs."""
    rolling_sv(attribute, mods, burst)
    return _roll(dice, attribute, mods, burst)


# --------------------------------------------------------------------------- face to face


class Decision(Enum):
    """Why a face to face ended as it did, so the embed can say it in words."""

    BOTH_FAILED = "both failed"
    BOTH_CRITICAL = "both rolled a Critical: every die is cancelled"
    TIE = "the best successes are equal and cancel each other"
    CRITICAL = "won with a Critical"
    HIGHER = "won with the higher success"
    UNOPPOSED = "won: the other side has no success"


@dataclass(frozen=True, slots=True)
class FaceToFaceResult:
    """Both sides' dice with their final status; the survivors are the hits.

    ``a`` and ``b`` are the two normal rolls, each die's ``status`` updated to CANCELLED where
    the other side cancelled it. At most one side has hits.
    """

    a: NormalResult
    b: NormalResult
    a_hits: tuple[Die, ...]
    b_hits: tuple[Die, ...]
    winner: str | None
    decision: Decision

    @property
    def dice(self) -> tuple[Die, ...]:
        """Every die in draw order (A's, then B's)."""
        return self.a.dice + self.b.dice

    @property
    def hits(self) -> tuple[Die, ...]:
        """The winner's hits (none when nobody wins): at most one side ever has any."""
        return self.a_hits or self.b_hits


def _cancel(mine: tuple[Die, ...], theirs: tuple[Die, ...]) -> tuple[Die, ...]:
    """Mark my successes the other side cancels (RULES.md section 3, face to face)."""
    their_crit = any(d.critical for d in theirs)
    their_best = max((d.value for d in theirs if d.success), default=0)

    def survives(d: Die) -> bool:
        # A Critical survives unless they also crit; a plain success must beat every success
        # of theirs (equal values cancel each other).
        return not their_crit and (d.critical or d.value > their_best)

    return tuple(
        d if not d.success or survives(d) else replace(d, status=DieStatus.CANCELLED) for d in mine
    )


def _decision(a: NormalResult, b: NormalResult, winner: str | None) -> Decision:
    if winner is None:
        if a.critical and b.critical:
            return Decision.BOTH_CRITICAL
        return Decision.TIE if a.success and b.success else Decision.BOTH_FAILED
    won, lost = (a, b) if winner == "a" else (b, a)
    if not lost.success:
        return Decision.UNOPPOSED
    return Decision.CRITICAL if won.critical else Decision.HIGHER


def face_to_face(
    dice: Dice,
    *,
    a_attribute: int,
    a_mods: int = 0,
    a_burst: int = 1,
    b_attribute: int,
    b_mods: int = 0,
    b_burst: int = 1,
) -> FaceToFaceResult:
    """A face to face roll: side A (usually the active trooper) against side B (the ARO)."""
    rolling_sv(a_attribute, a_mods, a_burst, "a_")
    rolling_sv(b_attribute, b_mods, b_burst, "b_")
    a = _roll(dice, a_attribute, a_mods, a_burst)
    b = _roll(dice, b_attribute, b_mods, b_burst)
    return resolve(a, b)


def resolve(a: NormalResult, b: NormalResult) -> FaceToFaceResult:
    """Judge two rolled sides against each other (a burst split judges each target's share)."""
    a_dice = _cancel(a.dice, b.dice)
    b_dice = _cancel(b.dice, a.dice)
    a = replace(a, dice=a_dice)
    b = replace(b, dice=b_dice)
    a_hits = a.hits
    b_hits = b.hits
    winner = "a" if a_hits else "b" if b_hits else None
    return FaceToFaceResult(a, b, a_hits, b_hits, winner, _decision(a, b, winner))
