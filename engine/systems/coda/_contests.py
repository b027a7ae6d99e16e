"""CODA tests with more than one roll: opposed tests (side A against side B), combined
tests (helpers, then the leader) and the next roll of an extended test, with their exact
chances.

It exists as the top of the rolling modules: each contest is built from single tests
(:mod:`engine.systems.coda._single`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.dice import Dice
from engine.errors import N_
from engine.systems.coda._degrees import (
    MODIFIER_MAX,
    MODIFIER_MIN,
    PENALTY_MAX,
    PENALTY_MIN,
    TEST_DICE,
    TN_MAX,
    TN_MIN,
    CodaError,
    Degree,
    Ones,
)
from engine.systems.coda._degrees import whole as _int
from engine.systems.coda._extended import ExtendedRoll, ExtendedTask, extended_apply
from engine.systems.coda._odds import combined_probability, opposed_probabilities
from engine.systems.coda._odds import success_probability as _success_probability
from engine.systems.coda._result import TestResult
from engine.systems.coda._single import (
    check_conditions,
    judge,
    need_total,
    roll_faces,
    test,
)
from engine.systems.coda._tables import AppliedCondition

COMBINED_HELPER_TN_SHIFT = 5
MAX_HELPERS = 20


# --------------------------------------------------------------------------- opposed tests


@dataclass(frozen=True, slots=True)
class Side:
    """One roller of an opposed or combined test: their modifier and penalty."""

    modifier: int = 0
    penalty: int = 0

    def checked(self, who: str) -> Side:
        _int(self.modifier, f"{who}'s modifier", MODIFIER_MIN, MODIFIER_MAX)
        _int(self.penalty, f"{who}'s penalty", PENALTY_MIN, PENALTY_MAX)
        return self


def _side(value: int | Side, who: str) -> Side:
    if isinstance(value, Side):
        return value.checked(who)
    return Side(modifier=value).checked(who)


@dataclass(frozen=True, slots=True)
class OpposedResult:
    """Both sides' tests, each read against the other's result.

    ``winner`` is "a", "b" or None for a tie (equal results: the Narrator decides).
    ``degree`` is the winner's degree with the loser's result as TN (the rolling-1s rule
    still caps it), ``margin`` the difference of the results.
    """

    a: TestResult
    b: TestResult
    winner: str | None

    @property
    def tie(self) -> bool:
        return self.winner is None

    @property
    def winning(self) -> TestResult | None:
        return {"a": self.a, "b": self.b}.get(self.winner or "")

    @property
    def degree(self) -> Degree | None:
        winning = self.winning
        return None if winning is None else winning.degree

    @property
    def margin(self) -> int:
        return abs(self.a.total - self.b.total)


def opposed(
    dice: Dice,
    *,
    a_modifier: int = 0,
    a_penalty: int = 0,
    b_modifier: int = 0,
    b_penalty: int = 0,
    ones: str | Ones = "off",
) -> OpposedResult:
    """Each side tests; the higher result wins. Order: side A's dice, then side B's."""
    a = Side(a_modifier, a_penalty).checked("Side A")
    b = Side(b_modifier, b_penalty).checked("Side B")
    setting = Ones.parse(ones)
    a_faces = roll_faces(dice, TEST_DICE)
    b_faces = roll_faces(dice, TEST_DICE)
    a_total = sum(a_faces) + a.modifier - a.penalty
    b_total = sum(b_faces) + b.modifier - b.penalty
    a_result = judge(a_faces, modifier=a.modifier, penalty=a.penalty, tn=b_total, ones=setting)
    b_result = judge(b_faces, modifier=b.modifier, penalty=b.penalty, tn=a_total, ones=setting)
    winner = "a" if a_total > b_total else "b" if b_total > a_total else None
    return OpposedResult(a=a_result, b=b_result, winner=winner)


def side_faces(dice: Dice) -> tuple[int, ...]:
    """One side's dice of an opposed test, drawn alone (2d6 with rolling 6s).

    :func:`opposed` draws side A's dice exactly so before side B's: replayed first (see
    :class:`engine.dice.ReplayDice`), they give the result of that side rolled earlier.
    """
    return roll_faces(dice, TEST_DICE)


def opposed_chances(
    *, a_modifier: int = 0, a_penalty: int = 0, b_modifier: int = 0, b_penalty: int = 0
) -> tuple[float, float, float]:
    """The exact chances (A wins, B wins, tie) of an opposed test."""
    a = Side(a_modifier, a_penalty).checked("Side A")
    b = Side(b_modifier, b_penalty).checked("Side B")
    return opposed_probabilities((a.modifier - a.penalty) - (b.modifier - b.penalty))


# --------------------------------------------------------------------------- combined tests


@dataclass(frozen=True, slots=True)
class CombinedResult:
    """A combined test: each helper's test at TN − 5 and contribution, then the leader's."""

    helpers: tuple[TestResult, ...]
    leader: TestResult
    leader_modifier: int

    @property
    def contributions(self) -> tuple[int, ...]:
        return tuple(h.degree.contribution for h in self.helpers)

    @property
    def bonus(self) -> int:
        """The sum of the helpers' contributions, added to the leader's test."""
        return sum(self.contributions)

    @property
    def degree(self) -> Degree:
        return self.leader.degree

    @property
    def success(self) -> bool:
        return self.leader.success


def _check_combined(
    tn: int, leader: Side, helpers: Sequence[int | Side], conditions: Sequence[AppliedCondition]
) -> tuple[tuple[Side, ...], int]:
    _int(tn, N_("The TN"), TN_MIN, TN_MAX)
    leader.checked("The leader")
    if not 1 <= len(helpers) <= MAX_HELPERS:
        raise CodaError(
            N_("A combined test needs 1 to {most} helpers (got {count})."),
            most=MAX_HELPERS,
            count=len(helpers),
        )
    sides = tuple(_side(h, f"Helper {i}") for i, h in enumerate(helpers, start=1))
    return sides, check_conditions(conditions)


def combined(
    dice: Dice,
    *,
    tn: int,
    helpers: Sequence[int | Side],
    leader_modifier: int = 0,
    leader_penalty: int = 0,
    ones: str | Ones = "off",
    conditions: Sequence[AppliedCondition] = (),
) -> CombinedResult:
    """Helpers test at TN − 5 in the order given; the leader then tests at TN with their sum.

    ``helpers`` are modifiers or :class:`Side` values. Conditions apply to every test.
    """
    leader = Side(leader_modifier, leader_penalty)
    sides, shift = _check_combined(tn, leader, helpers, conditions)
    setting = Ones.parse(ones)
    kept = tuple(conditions)
    helper_tn = tn - COMBINED_HELPER_TN_SHIFT
    results = tuple(
        judge(
            roll_faces(dice, TEST_DICE),
            modifier=side.modifier,
            penalty=side.penalty,
            tn=helper_tn + shift,
            ones=setting,
            base_tn=helper_tn,
            conditions=kept,
        )
        for side in sides
    )
    bonus = sum(r.degree.contribution for r in results)
    leader_result = judge(
        roll_faces(dice, TEST_DICE),
        modifier=leader.modifier + bonus,
        penalty=leader.penalty,
        tn=tn + shift,
        ones=setting,
        base_tn=tn,
        conditions=kept,
    )
    return CombinedResult(helpers=results, leader=leader_result, leader_modifier=leader.modifier)


def combined_chance(
    *,
    tn: int,
    helpers: Sequence[int | Side],
    leader_modifier: int = 0,
    leader_penalty: int = 0,
    ones: str | Ones = "off",
    conditions: Sequence[AppliedCondition] = (),
) -> float:
    """The exact chance, before any die is rolled, that the leader of a combined test succeeds.

    The helpers' contributions are independent, so their distribution is the convolution
    of each helper's degree chances at TN − 5.
    """
    leader = Side(leader_modifier, leader_penalty)
    sides, shift = _check_combined(tn, leader, helpers, conditions)
    helper_tn = tn - COMBINED_HELPER_TN_SHIFT + shift
    return combined_probability(
        (need_total(side.modifier, helper_tn, side.penalty) for side in sides),
        need_total(leader.modifier, tn + shift, leader.penalty),
        Ones.parse(ones),
    )


def helper_chances(
    *,
    tn: int,
    helpers: Sequence[int | Side],
    ones: str | Ones = "off",
    conditions: Sequence[AppliedCondition] = (),
) -> tuple[float, ...]:
    """The exact chance that each helper of a combined test succeeds at TN − 5."""
    sides, shift = _check_combined(tn, Side(), helpers, conditions)
    setting = Ones.parse(ones)
    helper_tn = tn - COMBINED_HELPER_TN_SHIFT + shift
    return tuple(
        _success_probability(need_total(side.modifier, helper_tn, side.penalty), setting)
        for side in sides
    )


# --------------------------------------------------------------------------- extended tests


def extended_roll(
    dice: Dice,
    task: ExtendedTask,
    *,
    modifier: int = 0,
    penalty: int = 0,
    ones: str | Ones = "off",
    conditions: Sequence[AppliedCondition] = (),
) -> ExtendedRoll:
    """Roll the next test of an extended test against its current stage's TN and apply it."""
    stage = task.current
    if stage is None:
        raise CodaError(N_("The extended test {name} is already complete."), name=repr(task.name))
    result = test(
        dice, modifier=modifier, tn=stage.tn, penalty=penalty, ones=ones, conditions=conditions
    )
    return extended_apply(task, result)
