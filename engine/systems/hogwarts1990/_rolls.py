"""Hogwarts 1990 rolls (RULES.md §2): two d20, keep one, add a bonus, meet a difficulty.

A standard roll keeps the higher die and a stress roll the lower; bad circumstances never
subtract, they turn the roll into a stress roll. Doubles on the final two dice make a
success Exceptional and a failure a Critical failure, but only when there is a difficulty
(initiative and opposed rolls have none, so doubles mean nothing there).

Roll Advantage rerolls the lower die once, and it is the player's choice. By the project's
decision (RULES.md §2) it is used only when the first roll fails: a player keeps a success,
and failing doubles are not rerolled (the critical failure stands); doubles are judged on
the final two dice. When the dice tie, the second die is the one rerolled. Without a
difficulty (opposed rolls, initiative) nothing fails, so advantage always rerolls.

Order: die 1, die 2, then the reroll. Opposed rolls draw side A's dice, then side B's.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from itertools import product
from typing import Literal

from engine.dice import Dice
from engine.errors import N_, InputError

__all__ = [
    "BONUS_MAX",
    "BONUS_MIN",
    "DIFFICULTY_MAX",
    "DIFFICULTY_MIN",
    "H90Error",
    "Odds",
    "Opposed",
    "OpposedOdds",
    "Outcome",
    "Roll",
    "chance",
    "clear_caches",
    "defended",
    "defended_difficulty",
    "odds",
    "opposed",
    "opposed_odds",
    "roll",
]

SIDES = 20
BONUS_MIN, BONUS_MAX = -50, 100
DIFFICULTY_MIN, DIFFICULTY_MAX = 0, 200


class H90Error(InputError):
    """An input outside the rules' bounds; the message is written to be shown to a player."""


class Outcome(enum.Enum):
    """What a roll means; ``.label`` is the name RULES.md uses."""

    EXCEPTIONAL = "exceptional"
    SUCCESS = "success"
    FAILURE = "failure"
    CRITICAL_FAILURE = "critical_failure"
    ROLLED = "rolled"  # no difficulty: the total is all there is (initiative, opposed)

    @property
    def label(self) -> str:
        return _LABELS[self]


_LABELS = {
    Outcome.EXCEPTIONAL: N_("Exceptional success"),
    Outcome.SUCCESS: N_("Success"),
    Outcome.FAILURE: N_("Failure"),
    Outcome.CRITICAL_FAILURE: N_("Critical failure"),
    Outcome.ROLLED: N_("Rolled"),
}


@dataclass(frozen=True, slots=True)
class Roll:
    """One Hogwarts 1990 roll with every die drawn and what it means."""

    faces: tuple[int, ...]
    """Every die drawn, in draw order: die 1, die 2 and, if advantage was used, the reroll."""
    dice: tuple[int, int]
    """The final two dice (the reroll in place of the die it replaced)."""
    kept: int
    bonus: int
    total: int
    difficulty: int | None
    stress: bool
    advantage: bool
    """Advantage was asked for."""
    advantage_used: bool
    advantage_refused: bool
    """Asked for but not allowed: the first two dice were doubles that would fail."""
    advantage_kept: bool
    """Asked for but not needed: the first roll already succeeded, so the player kept it."""
    rerolled: int | None
    """Index (0 or 1) of the die the reroll replaced, or None."""
    doubles: bool
    success: bool | None
    exceptional: bool
    critical_failure: bool

    @property
    def margin(self) -> int | None:
        """Total minus difficulty (what quidditch compares), or None without a difficulty."""
        return None if self.difficulty is None else self.total - self.difficulty

    @property
    def outcome(self) -> Outcome:
        if self.success is None:
            return Outcome.ROLLED
        if self.success:
            return Outcome.EXCEPTIONAL if self.exceptional else Outcome.SUCCESS
        return Outcome.CRITICAL_FAILURE if self.critical_failure else Outcome.FAILURE


@dataclass(frozen=True, slots=True)
class Opposed:
    """Both sides roll; the higher total wins and equal totals are a tie (a Decision)."""

    a: Roll
    b: Roll
    winner: Literal["a", "b"] | None
    margin: int
    """Side A's total minus side B's."""


@dataclass(frozen=True, slots=True)
class Odds:
    """Exact chances of a roll against a difficulty (each a float in [0, 1])."""

    success: float
    exceptional: float
    critical_failure: float

    @property
    def failure(self) -> float:
        return 1.0 - self.success


@dataclass(frozen=True, slots=True)
class OpposedOdds:
    """Exact chances of each result of an opposed roll."""

    a: float
    b: float
    tie: float


def _check_bonus(bonus: int, name: str = N_("bonus")) -> None:
    if isinstance(bonus, bool) or not isinstance(bonus, int):
        raise H90Error(
            N_("{name} must be a whole number (got {value})"), name=name, value=repr(bonus)
        )
    if not BONUS_MIN <= bonus <= BONUS_MAX:
        raise H90Error(
            N_("{name} must be between {low} and {high} (got {value})"),
            name=name,
            low=BONUS_MIN,
            high=BONUS_MAX,
            value=bonus,
        )


def _check_sides(a_bonus: int, b_bonus: int) -> None:
    _check_bonus(a_bonus, N_("side A's bonus"))
    _check_bonus(b_bonus, N_("side B's bonus"))


def _check_difficulty(difficulty: int) -> None:
    if isinstance(difficulty, bool) or not isinstance(difficulty, int):
        raise H90Error(
            N_("{name} must be a whole number (got {value})"),
            name=N_("difficulty"),
            value=repr(difficulty),
        )
    if not DIFFICULTY_MIN <= difficulty <= DIFFICULTY_MAX:
        raise H90Error(
            N_("{name} must be between {low} and {high} (got {value})"),
            name=N_("difficulty"),
            low=DIFFICULTY_MIN,
            high=DIFFICULTY_MAX,
            value=difficulty,
        )


def roll(
    dice: Dice,
    /,
    *,
    bonus: int = 0,
    difficulty: int | None = None,
    stress: bool = False,
    advantage: bool = False,
) -> Roll:
    """Roll two d20 (standard keeps the higher, stress the lower) + bonus vs difficulty."""
    _check_bonus(bonus)
    if difficulty is not None:
        _check_difficulty(difficulty)
    return _roll(dice, bonus, difficulty, stress, advantage)


def _roll(dice: Dice, bonus: int, difficulty: int | None, stress: bool, advantage: bool) -> Roll:
    """The roll without input checks, for callers (quidditch) whose inputs are already bounded."""
    first = dice.roll(SIDES)
    second = dice.roll(SIDES)
    faces: tuple[int, ...] = (first, second)
    final = (first, second)
    used = refused = kept_success = False
    rerolled: int | None = None
    if advantage:
        kept_before = min(first, second) if stress else max(first, second)
        first_fails = difficulty is not None and kept_before + bonus < difficulty
        if difficulty is not None and not first_fails:
            kept_success = True
        elif first_fails and first == second:
            refused = True
        else:
            used = True
            rerolled = 0 if first < second else 1
            new = dice.roll(SIDES)
            faces = (first, second, new)
            final = (new, second) if rerolled == 0 else (first, new)
    kept = min(final) if stress else max(final)
    total = kept + bonus
    doubles = final[0] == final[1]
    success = None if difficulty is None else total >= difficulty
    return Roll(
        faces=faces,
        dice=final,
        kept=kept,
        bonus=bonus,
        total=total,
        difficulty=difficulty,
        stress=stress,
        advantage=advantage,
        advantage_used=used,
        advantage_refused=refused,
        advantage_kept=kept_success,
        rerolled=rerolled,
        doubles=doubles,
        success=success,
        exceptional=doubles and success is True,
        critical_failure=doubles and success is False,
    )


def defended_difficulty(*attributes: int) -> int:
    """A defended roll's difficulty: the sum of the defender's attributes (e.g. T + D)."""
    for value in attributes:
        _check_bonus(value, "a defending attribute")
    difficulty = sum(attributes)
    _check_difficulty(difficulty)
    return difficulty


def defended(
    dice: Dice,
    /,
    *,
    bonus: int = 0,
    defender: tuple[int, ...] | list[int],
    stress: bool = False,
    advantage: bool = False,
) -> Roll:
    """A roll whose difficulty is set by the defender's attributes (e.g. a keeper's T + D)."""
    return roll(
        dice,
        bonus=bonus,
        difficulty=defended_difficulty(*defender),
        stress=stress,
        advantage=advantage,
    )


def opposed(
    dice: Dice,
    /,
    *,
    a_bonus: int = 0,
    a_stress: bool = False,
    a_advantage: bool = False,
    b_bonus: int = 0,
    b_stress: bool = False,
    b_advantage: bool = False,
) -> Opposed:
    """Both sides roll (A's dice first); the higher total wins, equal totals tie."""
    _check_sides(a_bonus, b_bonus)
    a = _roll(dice, a_bonus, None, a_stress, a_advantage)
    b = _roll(dice, b_bonus, None, b_stress, b_advantage)
    margin = a.total - b.total
    winner: Literal["a", "b"] | None = "a" if margin > 0 else "b" if margin < 0 else None
    return Opposed(a=a, b=b, winner=winner, margin=margin)


# --- exact chances ---------------------------------------------------------------------------
#
# Only the die kept matters against a difficulty, so a roll reduces to the kept value needed:
# need = difficulty - bonus, clamped to 1..21 (1: always succeeds; 21: never). That leaves
# 21 x 2 x 2 small enumerations (400 cases, or 8000 with advantage), each cached.


def _need(bonus: int, difficulty: int) -> int:
    return min(max(difficulty - bonus, 1), SIDES + 1)


@cache
def _counts(need: int, stress: bool, advantage: bool) -> tuple[Fraction, Fraction, Fraction]:
    """(success, exceptional, critical failure) as exact fractions, by enumerating every case.

    With advantage each of the 8000 (die 1, die 2, reroll) cases weighs one; a first roll
    that is not rerolled (a success kept, or failing doubles) stands for all 20 rerolls it
    never draws. Only a failing first roll of two different dice is rerolled.
    """
    keep = min if stress else max
    success = exceptional = critical = 0
    cases = SIDES**3 if advantage else SIDES**2
    for first, second in product(range(1, SIDES + 1), repeat=2):
        if advantage and first != second and keep(first, second) < need:
            finals = [
                ((new, second) if first < second else (first, new), 1)
                for new in range(1, SIDES + 1)
            ]
        else:
            finals = [((first, second), SIDES if advantage else 1)]
        for (x, y), weight in finals:
            if keep(x, y) >= need:
                success += weight
                if x == y:
                    exceptional += weight
            elif x == y:
                critical += weight
    return Fraction(success, cases), Fraction(exceptional, cases), Fraction(critical, cases)


def odds(*, bonus: int = 0, difficulty: int, stress: bool = False, advantage: bool = False) -> Odds:
    """Exact chances of success, exceptional success and critical failure."""
    _check_bonus(bonus)
    _check_difficulty(difficulty)
    success, exceptional, critical = _counts(_need(bonus, difficulty), stress, advantage)
    return Odds(float(success), float(exceptional), float(critical))


def chance(
    *, bonus: int = 0, difficulty: int, stress: bool = False, advantage: bool = False
) -> float:
    """Exact chance that the total reaches the difficulty (the engine contract's chance)."""
    return odds(bonus=bonus, difficulty=difficulty, stress=stress, advantage=advantage).success


@cache
def _kept_distribution(stress: bool, advantage: bool) -> tuple[Fraction, ...]:
    """P(kept == v) for v = 1..20 with no difficulty (advantage is then always allowed)."""
    keep = min if stress else max
    counts = [0] * (SIDES + 1)
    for first, second in product(range(1, SIDES + 1), repeat=2):
        if advantage:
            for new in range(1, SIDES + 1):
                x, y = (new, second) if first < second else (first, new)
                counts[keep(x, y)] += 1
        else:
            counts[keep(first, second)] += 1
    cases = SIDES**3 if advantage else SIDES**2
    return tuple(Fraction(n, cases) for n in counts[1:])


@lru_cache(maxsize=4096)
def _opposed_fractions(
    margin: int, a_stress: bool, a_advantage: bool, b_stress: bool, b_advantage: bool
) -> tuple[Fraction, Fraction, Fraction]:
    a_dist = _kept_distribution(a_stress, a_advantage)
    b_dist = _kept_distribution(b_stress, b_advantage)
    a_wins = b_wins = tie = Fraction(0)
    for i, pa in enumerate(a_dist):
        for j, pb in enumerate(b_dist):
            diff = i - j + margin
            if diff > 0:
                a_wins += pa * pb
            elif diff < 0:
                b_wins += pa * pb
            else:
                tie += pa * pb
    return a_wins, b_wins, tie


def opposed_odds(
    *,
    a_bonus: int = 0,
    a_stress: bool = False,
    a_advantage: bool = False,
    b_bonus: int = 0,
    b_stress: bool = False,
    b_advantage: bool = False,
) -> OpposedOdds:
    """Exact chances that side A wins, side B wins, or they tie."""
    _check_sides(a_bonus, b_bonus)
    # Only the bonus difference matters, and beyond ±20 the result is certain.
    margin = min(max(a_bonus - b_bonus, -SIDES), SIDES)
    a_wins, b_wins, tie = _opposed_fractions(margin, a_stress, a_advantage, b_stress, b_advantage)
    return OpposedOdds(float(a_wins), float(b_wins), float(tie))


def clear_caches() -> None:
    """Forget every cached enumeration (the benchmark measures the counting itself)."""
    _counts.cache_clear()
    _kept_distribution.cache_clear()
    _opposed_fractions.cache_clear()
