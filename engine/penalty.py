"""Penalty pools (Drama in History, RULES.md §5): a count of dice, its level, and changes.

Pure arithmetic on the count, so the service can persist the pool and its log in one
transaction and tell the channel when a change crosses into another level.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from functools import partial

from engine.errors import N_, InputError, whole_number

# One die recovered per this many full hours of sleep or serious rest.
RECOVERY_HOURS = 3
MAX_POOL = 999
MAX_CHANGE = 100
MAX_REST_HOURS = 24 * 365


class PenaltyError(InputError):
    """A penalty change the pool cannot take; the message is shown to the user."""


_int = partial(whole_number, error=PenaltyError)


class PenaltyLevel(enum.Enum):
    """The named levels of a penalty pool, with the lowest count that reaches each."""

    NONE = (N_("none"), 0)
    DISTRACTED = (N_("distracted"), 1)
    SHAKEN = (N_("shaken"), 4)
    STRESSED = (N_("stressed"), 7)
    BROKEN = (N_("broken"), 10)

    @property
    def label(self) -> str:
        """The level's English name (a message id: the bot shows it translated)."""
        return self.value[0]

    @property
    def minimum(self) -> int:
        return self.value[1]

    @property
    def rank(self) -> int:
        return _LEVELS.index(self)

    @classmethod
    def of(cls, count: int) -> PenaltyLevel:
        level = cls.NONE
        for candidate in _LEVELS:
            if count >= candidate.minimum:
                level = candidate
        return level


_LEVELS = tuple(PenaltyLevel)


def level_of(count: int) -> PenaltyLevel:
    """The level of a pool holding ``count`` penalty dice."""
    return PenaltyLevel.of(_count(count))


@dataclass(frozen=True, slots=True)
class PenaltyChange:
    """A change to a pool: what was asked, what was applied, and the levels either side."""

    before: int
    after: int
    requested: int

    @property
    def delta(self) -> int:
        """The change actually applied (a recovery stops at 0)."""
        return self.after - self.before

    @property
    def level_before(self) -> PenaltyLevel:
        return PenaltyLevel.of(self.before)

    @property
    def level_after(self) -> PenaltyLevel:
        return PenaltyLevel.of(self.after)

    @property
    def level_changed(self) -> bool:
        return self.level_before is not self.level_after

    @property
    def worse(self) -> bool:
        """The level rose (only meaningful when :attr:`level_changed`)."""
        return self.level_after.rank > self.level_before.rank


def _count(count: int) -> int:
    return _int(count, N_("A penalty pool"), 0, MAX_POOL)


def add(count: int, amount: int) -> PenaltyChange:
    """Add penalty dice; the pool is capped at :data:`MAX_POOL` so it stays displayable."""
    count = _count(count)
    amount = _int(amount, N_("The number of penalty dice to add"), 1, MAX_CHANGE)
    if count + amount > MAX_POOL:
        raise PenaltyError(N_("A penalty pool holds at most {most} dice."), most=MAX_POOL)
    return PenaltyChange(before=count, after=count + amount, requested=amount)


def recover(count: int, amount: int) -> PenaltyChange:
    """Remove penalty dice; the pool never goes below 0."""
    count = _count(count)
    amount = _int(amount, N_("The number of penalty dice to recover"), 1, MAX_CHANGE)
    return PenaltyChange(before=count, after=max(0, count - amount), requested=-amount)


def rest_recovery(hours: float) -> int:
    """Dice recovered by ``hours`` of sleep or serious rest: 1 per 3 *full* hours."""
    if isinstance(hours, bool) or not isinstance(hours, int | float) or math.isnan(hours):
        raise PenaltyError(N_("Hours of rest must be a number, not {hours}."), hours=repr(hours))
    if not 0 <= hours <= MAX_REST_HOURS:
        raise PenaltyError(
            N_("Hours of rest must be between 0 and {most}, not {hours}."),
            most=MAX_REST_HOURS,
            hours=hours,
        )
    return int(hours // RECOVERY_HOURS)


def rest(count: int, hours: float) -> PenaltyChange:
    """Recover by rest; fewer than 3 hours recovers nothing, and the pool stops at 0."""
    count = _count(count)
    recovered = rest_recovery(hours)
    return PenaltyChange(before=count, after=max(0, count - recovered), requested=-recovered)
