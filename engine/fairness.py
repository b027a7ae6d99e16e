"""Are these dice fair? Pearson's chi-square test of face counts against a fair die.

The p-value is exact: for ``k`` degrees of freedom it is the regularised upper incomplete
gamma function ``Q(k/2, x/2)``, and since ``k`` is a whole number its half is a whole or a
half-whole number, for which ``Q`` has a closed form (a finite sum from ``Q(1, y) = e^-y`` or
``Q(1/2, y) = erfc(√y)``, each step adding ``y^a e^-y / Γ(a + 1)``). Nothing is simulated
and no statistics package is needed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from engine.dice import Dice
from engine.errors import N_

#: Below this many rolls expected per face the chi-square approximation is too rough to judge.
MIN_EXPECTED = 5.0


def upper_gamma_regularized(a: float, y: float) -> float:
    """``Q(a, y) = Γ(a, y) / Γ(a)`` for ``a`` a positive whole or half-whole number."""
    if a <= 0 or (2 * a) != int(2 * a):
        raise ValueError(f"a must be a positive multiple of 1/2, not {a}")
    if y < 0:
        raise ValueError(f"y must be at least 0, not {y}")
    if y == 0:
        return 1.0
    if a == int(a):
        start, q = 1.0, math.exp(-y)
    else:
        start, q = 0.5, math.erfc(math.sqrt(y))
    step = start
    log_y = math.log(y)
    while step < a:
        # Q(s + 1, y) = Q(s, y) + y^s e^-y / Γ(s + 1), in logs so that large y cannot overflow.
        q += math.exp(step * log_y - y - math.lgamma(step + 1))
        step += 1
    return min(q, 1.0)


def chi_square_p(statistic: float, dof: int) -> float:
    """The chance that fair dice give a chi-square of at least ``statistic``."""
    if dof < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {dof}")
    return upper_gamma_regularized(dof / 2, statistic / 2)


@dataclass(frozen=True, slots=True)
class FaceTest:
    """One die size's counts tested against a fair die of that size."""

    sides: int
    counts: tuple[int, ...]  # counts[i] = how often face i + 1 came up
    rolls: int
    expected: float  # per face
    statistic: float
    dof: int
    p_value: float

    @property
    def enough(self) -> bool:
        """Whether there are enough rolls for the test to mean something."""
        return self.expected >= MIN_EXPECTED


def check_faces(sides: int, faces: Sequence[int]) -> FaceTest:
    """Count ``faces`` of a d``sides`` and test them (faces outside 1..sides are an error)."""
    counts = [0] * sides
    for face in faces:
        if not 1 <= face <= sides:
            raise ValueError(f"face {face} does not fit a d{sides}")
        counts[face - 1] += 1
    return check_counts(counts)


def roll_and_check(*, dice: Dice, sides: int, count: int) -> FaceTest:
    """Roll ``count`` dice of ``sides`` from ``dice`` and test their faces (``/dice test``).

    Keyword-only and module-level: the bot runs large ones in a worker process, which gets
    a copy of ``dice`` (the production source, the OS's CSPRNG, is the same there)."""
    tally = [0] * sides
    roll = dice.roll
    for _draw in range(count):
        tally[roll(sides) - 1] += 1
    return check_counts(tally)


def check_counts(counts: Sequence[int]) -> FaceTest:
    """Pearson's chi-square of face counts against equal chances for every face."""
    sides = len(counts)
    if sides < 2:
        raise ValueError("a die has at least 2 faces")
    rolls = sum(counts)
    expected = rolls / sides
    if rolls == 0:
        statistic, p_value = 0.0, 1.0
    else:
        statistic = sum((count - expected) ** 2 for count in counts) / expected
        p_value = chi_square_p(statistic, sides - 1)
    return FaceTest(
        sides=sides,
        counts=tuple(counts),
        rolls=rolls,
        expected=expected,
        statistic=statistic,
        dof=sides - 1,
        p_value=p_value,
    )


def verdict_parts(test: FaceTest) -> tuple[str, dict[str, str]]:
    """The verdict as an English template and its parameters (numbers already written)."""
    if test.rolls == 0:
        return N_("no rolls yet"), {}
    if not test.enough:
        return N_("too few rolls to judge (fewer than {minimum} per face)"), {
            "minimum": f"{MIN_EXPECTED:g}"
        }
    p = test.p_value
    if p >= 0.2:
        return N_("as fair as dice get (p = {p})"), {"p": f"{p:.2f}"}
    if p >= 0.05:
        return N_("within ordinary luck (p = {p})"), {"p": f"{p:.2f}"}
    if p >= 0.01:
        return N_("a streak, but fair dice do this 1 time in {times} (p = {p})"), {
            "times": str(round(1 / p)),
            "p": f"{p:.3f}",
        }
    if p >= 0.001:
        return N_("unusual: p = {p}"), {"p": f"{p:.3f}"}
    return N_("unusual: p = {p}"), {"p": f"{p:.1e}"}


def verdict(test: FaceTest) -> str:
    """The p-value in words, from "as fair as dice get" to "unusual: p = 0.003"."""
    template, params = verdict_parts(test)
    return template.format_map(params)
