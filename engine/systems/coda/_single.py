"""One CODA test (2d6 + modifiers − penalties against a TN, with rolling 6s) and a damage
roll: the input checks, the dice drawn in order, the degree judged, and the exact chance of
each degree.

It exists as the bottom of the rolling modules: the modifier builders, the opposed,
combined and extended tests all roll and check through it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from engine.dice import Dice
from engine.errors import N_
from engine.systems.coda._degrees import (
    DIE_SIDES,
    MODIFIER_MAX,
    MODIFIER_MIN,
    ONES_CAP,
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
from engine.systems.coda._odds import degree_probabilities as _degree_probabilities
from engine.systems.coda._odds import success_probability as _success_probability
from engine.systems.coda._result import TestResult
from engine.systems.coda._tables import MAX_CONDITIONS, AppliedCondition, tn_change

DAMAGE_DICE_MIN, DAMAGE_DICE_MAX = 1, 50
# A fair die shows 6 a thousand times in a row with probability 6**-1000: a source that
# does is broken, and stopping keeps a bad source from hanging the bot.
MAX_EXTRA_DICE = 1000


# --------------------------------------------------------------------------- validation


def _check_test(modifier: int, tn: int, penalty: int) -> None:
    if (
        modifier.__class__ is int
        and tn.__class__ is int
        and penalty.__class__ is int
        and MODIFIER_MIN <= modifier <= MODIFIER_MAX
        and TN_MIN <= tn <= TN_MAX
        and PENALTY_MIN <= penalty <= PENALTY_MAX
    ):
        return  # the common case, checked at once
    _int(modifier, N_("The modifier"), MODIFIER_MIN, MODIFIER_MAX)
    _int(tn, N_("The TN"), TN_MIN, TN_MAX)
    _int(penalty, N_("The penalty"), PENALTY_MIN, PENALTY_MAX)


def check_conditions(conditions: Sequence[AppliedCondition]) -> int:
    if len(conditions) > MAX_CONDITIONS:
        raise CodaError(
            N_("At most {most} conditions per test (got {count})."),
            most=MAX_CONDITIONS,
            count=len(conditions),
        )
    for condition in conditions:
        if not isinstance(condition, AppliedCondition):
            raise CodaError(
                N_("{condition} is not a condition of tables 9-2 … 9-13."),
                condition=repr(condition),
            )
    return tn_change(conditions)


# --------------------------------------------------------------------------- rolling


def roll_faces(dice: Dice, count: int) -> tuple[int, ...]:
    """``count`` d6; if all show 6, one more d6 while the last one shows 6 (rolling 6s)."""
    roll = dice.roll
    if count == TEST_DICE:  # the hot path: every test
        a = roll(DIE_SIDES)
        b = roll(DIE_SIDES)
        if a != DIE_SIDES or b != DIE_SIDES:
            return (a, b)
        faces = [a, b]
    else:
        faces = [roll(DIE_SIDES) for _ in range(count)]
        if faces.count(DIE_SIDES) != count:
            return tuple(faces)
    extra = roll(DIE_SIDES)
    faces.append(extra)
    while extra == DIE_SIDES:
        if len(faces) - count >= MAX_EXTRA_DICE:
            raise CodaError(
                N_("The dice showed {count} sixes in a row; the dice source is broken."),
                count=MAX_EXTRA_DICE,
            )
        extra = roll(DIE_SIDES)
        faces.append(extra)
    return tuple(faces)


def judge(
    faces: tuple[int, ...],
    modifier: int,
    penalty: int,
    tn: int,
    ones: Ones,
    base_tn: int | None = None,
    conditions: tuple[AppliedCondition, ...] = (),
) -> TestResult:
    """Read rolled faces as a test: the one place where margins become degrees."""
    degree = Degree.of(sum(faces) + modifier - penalty - tn)
    cap = ONES_CAP.get(ones)
    if cap is not None and degree > cap and faces.count(1) == len(faces):
        degree = cap
    return TestResult(
        faces, modifier, penalty, tn, degree, ones, tn if base_tn is None else base_tn, conditions
    )


def test(
    dice: Dice,
    *,
    modifier: int = 0,
    tn: int,
    penalty: int = 0,
    ones: str | Ones = "off",
    conditions: Sequence[AppliedCondition] = (),
) -> TestResult:
    """A test: 2d6 (rolling 6s) + modifier − penalty against ``tn`` plus the conditions."""
    _check_test(modifier, tn, penalty)
    setting = Ones.parse(ones)
    shift = check_conditions(conditions) if conditions else 0
    return judge(
        roll_faces(dice, TEST_DICE),
        modifier,
        penalty,
        tn + shift,
        setting,
        tn,
        conditions if conditions.__class__ is tuple else tuple(conditions),
    )


test.__test__ = False  # type: ignore[attr-defined]  # not a pytest test when imported


@dataclass(frozen=True, slots=True)
class DamageResult:
    """A damage roll: the weapon's dice (rolling 6s when all show 6) + modifier."""

    faces: tuple[int, ...]
    count: int
    modifier: int
    total: int

    @property
    def exploded(self) -> bool:
        return len(self.faces) > self.count

    @property
    def base_faces(self) -> tuple[int, ...]:
        return self.faces[: self.count]

    @property
    def extra_faces(self) -> tuple[int, ...]:
        return self.faces[self.count :]


def damage(dice: Dice, *, count: int, modifier: int = 0) -> DamageResult:
    """Roll ``count``d6 + ``modifier`` damage; the rolling-1s rule does not apply."""
    _int(count, N_("The number of damage dice"), DAMAGE_DICE_MIN, DAMAGE_DICE_MAX)
    _int(modifier, N_("The damage modifier"), MODIFIER_MIN, MODIFIER_MAX)
    faces = roll_faces(dice, count)
    return DamageResult(faces=faces, count=count, modifier=modifier, total=sum(faces) + modifier)


# --------------------------------------------------------------------------- exact chances


def need_total(modifier: int, tn: int, penalty: int) -> int:
    """What the dice must total for margin 0: every chance is a function of this alone."""
    return tn - modifier + penalty


def _checked_need(
    modifier: int, tn: int, penalty: int, conditions: Sequence[AppliedCondition]
) -> int:
    _check_test(modifier, tn, penalty)
    return need_total(modifier, tn + check_conditions(conditions), penalty)


def chance(
    *,
    modifier: int = 0,
    tn: int,
    penalty: int = 0,
    ones: str | Ones = "off",
    conditions: Sequence[AppliedCondition] = (),
) -> float:
    """The exact chance that a test succeeds (result ≥ TN, and not capped by all 1s)."""
    return _success_probability(_checked_need(modifier, tn, penalty, conditions), Ones.parse(ones))


def degree_chances(
    *,
    modifier: int = 0,
    tn: int,
    penalty: int = 0,
    ones: str | Ones = "off",
    conditions: Sequence[AppliedCondition] = (),
) -> Mapping[Degree, float]:
    """The exact chance of each degree (read-only mapping, worst degree first)."""
    need = _checked_need(modifier, tn, penalty, conditions)
    probs = _degree_probabilities(need, Ones.parse(ones))
    return MappingProxyType(dict(zip(Degree, probs, strict=True)))
