"""The chi-square test of dice faces, against hand-computed cases and printed tables."""

from __future__ import annotations

import math

import pytest

from engine.dice import SeededDice
from engine.fairness import (
    check_counts,
    check_faces,
    chi_square_p,
    roll_and_check,
    upper_gamma_regularized,
    verdict,
)


def test_a_d3_by_hand() -> None:
    # 5, 10 and 15 of 30 rolls: expected 10 each, chi² = (25 + 0 + 25) / 10 = 5 with two
    # degrees of freedom, whose upper tail is e^(−x/2) = e^(−2.5).
    result = check_counts([5, 10, 15])
    assert result.statistic == pytest.approx(5.0)
    assert result.dof == 2
    assert result.p_value == pytest.approx(math.exp(-2.5), rel=1e-12)


def test_a_coin_by_hand() -> None:
    # 40 heads, 60 tails: chi² = (100 + 100) / 50 = 4, one degree of freedom:
    # P(Z² ≥ 4) = P(|Z| ≥ 2) = erfc(2 / √2).
    result = check_counts([40, 60])
    assert result.statistic == pytest.approx(4.0)
    assert result.p_value == pytest.approx(math.erfc(math.sqrt(2)), rel=1e-12)
    assert result.p_value == pytest.approx(0.0455003, abs=1e-7)


def test_a_d6_by_hand() -> None:
    # 70 rolls, a six 20 times: expected 70/6; chi² = (5·(10 − 70/6)² + (20 − 70/6)²) / (70/6)
    # = 50/7; Q(5/2, 25/7) = erfc(√y) + (√y + y^(3/2)·2/3)·e^(−y)·2/√π with y = 25/7.
    result = check_counts([10, 10, 10, 10, 10, 20])
    assert result.statistic == pytest.approx(50 / 7)
    y = 25 / 7
    by_hand = math.erfc(math.sqrt(y)) + (math.sqrt(y) + 2 / 3 * y**1.5) * math.exp(-y) * 2 / (
        math.sqrt(math.pi)
    )
    assert result.p_value == pytest.approx(by_hand, rel=1e-12)


@pytest.mark.parametrize(
    ("statistic", "dof", "p"),
    [  # critical values from the standard chi-square table
        (3.841459, 1, 0.05),
        (6.634897, 1, 0.01),
        (11.070498, 5, 0.05),
        (15.086272, 5, 0.01),
        (21.665994, 9, 0.01),
        (30.143527, 19, 0.05),
        (43.820196, 19, 0.001),
    ],
)
def test_table_values(statistic: float, dof: int, p: float) -> None:
    assert chi_square_p(statistic, dof) == pytest.approx(p, rel=1e-5)


def test_the_gamma_function_at_its_edges() -> None:
    assert upper_gamma_regularized(3, 0) == 1.0
    assert upper_gamma_regularized(0.5, 1e6) == 0.0
    assert upper_gamma_regularized(50, 1e-3) == pytest.approx(1.0)
    with pytest.raises(ValueError):
        upper_gamma_regularized(1.3, 1)
    with pytest.raises(ValueError):
        chi_square_p(1, 0)


def test_fair_dice_look_fair_and_loaded_dice_do_not() -> None:
    dice = SeededDice(19)
    fair = check_faces(6, [dice.roll(6) for _ in range(6000)])
    assert fair.p_value > 0.01
    loaded = check_faces(6, [6 if i % 4 == 0 else dice.roll(6) for i in range(6000)])
    assert loaded.p_value < 1e-6
    assert verdict(loaded).startswith("unusual: p = ")


def test_verdict_words() -> None:
    assert verdict(check_counts([10, 10, 10, 10, 10, 10])) == "as fair as dice get (p = 1.00)"
    assert verdict(check_counts([40, 60])) == (
        "a streak, but fair dice do this 1 time in 22 (p = 0.046)"
    )
    assert verdict(check_counts([1, 2])).startswith("too few rolls to judge")
    assert verdict(check_counts([0, 0])) == "no rolls yet"
    assert verdict(check_counts([130, 200])) == "unusual: p = 1.2e-04"
    with pytest.raises(ValueError):
        check_faces(6, [7])


def test_roll_and_check_counts_every_die_from_the_source() -> None:
    test = roll_and_check(dice=SeededDice(3), sides=6, count=600)
    assert test.rolls == 600 and test.sides == 6
    dice = SeededDice(3)
    assert test.counts == check_faces(6, [dice.roll(6) for _ in range(600)]).counts
