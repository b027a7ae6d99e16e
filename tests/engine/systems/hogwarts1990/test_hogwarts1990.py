"""Hogwarts 1990 rolls (RULES.md §2), each rule pinned with scripted dice."""

from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction

import pytest

from engine.dice import DiceError, ScriptedDice, SeededDice
from engine.systems import hogwarts1990 as h90
from engine.systems.hogwarts1990 import H90Error, Outcome


def roll(faces, **kwargs):
    dice = ScriptedDice(faces)
    result = h90.roll(dice, **kwargs)
    assert dice.remaining == 0, "the roll drew fewer dice than scripted"
    return result


# --- standard and stress ----------------------------------------------------------------------


def test_standard_keeps_the_higher_die():
    result = roll([4, 15], bonus=3, difficulty=18)
    assert result.faces == (4, 15)
    assert result.kept == 15
    assert result.total == 18
    assert result.success is True
    assert result.margin == 0
    assert result.outcome is Outcome.SUCCESS


def test_stress_keeps_the_lower_die():
    result = roll([4, 15], bonus=3, difficulty=18, stress=True)
    assert result.kept == 4
    assert result.total == 7
    assert result.success is False
    assert result.margin == -11
    assert result.outcome is Outcome.FAILURE


def test_total_one_short_of_difficulty_fails():
    assert roll([17, 2], bonus=0, difficulty=18).success is False


def test_no_difficulty_means_no_success_and_doubles_mean_nothing():
    result = roll([9, 9], bonus=2)
    assert result.total == 11
    assert result.doubles is True
    assert result.success is None
    assert not result.exceptional and not result.critical_failure
    assert result.margin is None
    assert result.outcome is Outcome.ROLLED


def test_negative_bonus_is_allowed_within_bounds():
    assert roll([10, 3], bonus=-5).total == 5


# --- doubles ----------------------------------------------------------------------------------


def test_doubles_on_a_success_are_exceptional():
    result = roll([12, 12], bonus=2, difficulty=14)
    assert result.success and result.exceptional and not result.critical_failure
    assert result.outcome is Outcome.EXCEPTIONAL
    assert result.outcome.label == "Exceptional success"


def test_doubles_on_a_failure_are_a_critical_failure():
    result = roll([3, 3], bonus=2, difficulty=14)
    assert result.success is False and result.critical_failure and not result.exceptional
    assert result.outcome is Outcome.CRITICAL_FAILURE


def test_doubles_on_a_stress_roll_count_too():
    result = roll([8, 8], bonus=0, difficulty=8, stress=True)
    assert result.exceptional


# --- advantage --------------------------------------------------------------------------------


def test_advantage_rerolls_the_lower_die():
    result = roll([3, 11, 17], bonus=1, difficulty=15, advantage=True)
    assert result.faces == (3, 11, 17)
    assert result.rerolled == 0
    assert result.dice == (17, 11)
    assert result.kept == 17
    assert result.total == 18
    assert result.advantage_used and not result.advantage_refused
    assert result.success


def test_advantage_rerolls_the_second_die_when_it_is_lower():
    result = roll([14, 2, 5], difficulty=15, advantage=True)
    assert result.rerolled == 1
    assert result.dice == (14, 5)
    assert result.kept == 14


def test_advantage_on_a_stress_roll_replaces_the_kept_die():
    result = roll([3, 11, 17], difficulty=10, stress=True, advantage=True)
    assert result.dice == (17, 11)
    assert result.kept == 11
    assert result.success


def test_advantage_reroll_can_be_worse_on_a_stress_roll():
    # The reroll replaces the lower die even when it comes up lower still.
    result = roll([6, 11, 2], difficulty=7, stress=True, advantage=True)
    assert result.kept == 2
    assert result.success is False


def test_advantage_is_refused_on_first_doubles_that_would_fail():
    result = roll([4, 4], bonus=2, difficulty=10, advantage=True)
    assert result.faces == (4, 4)
    assert result.advantage and result.advantage_refused and not result.advantage_used
    assert result.rerolled is None
    assert result.critical_failure


def test_advantage_keeps_first_doubles_that_succeed():
    # A player keeps a success: an Exceptional first roll is not thrown away.
    dice = ScriptedDice([12, 12, 5])
    result = h90.roll(dice, bonus=0, difficulty=10, advantage=True)
    assert dice.used == 2
    assert result.advantage_kept and not result.advantage_used
    assert result.dice == (12, 12)
    assert result.exceptional


def test_advantage_keeps_a_successful_stress_roll():
    # The case: stress 15/13 vs 12 succeeds (13); rerolling could only lose it.
    dice = ScriptedDice([15, 13, 1])
    result = h90.roll(dice, difficulty=12, stress=True, advantage=True)
    assert dice.used == 2 and result.faces == (15, 13)
    assert result.advantage_kept and not result.advantage_used and result.rerolled is None
    assert result.kept == 13 and result.success


def test_advantage_rerolls_a_failing_first_roll_only():
    failing = roll([15, 11, 18], difficulty=12, stress=True, advantage=True)
    assert failing.advantage_used and not failing.advantage_kept
    assert failing.dice == (15, 18) and failing.kept == 15 and failing.success


def test_advantage_is_used_on_doubles_without_difficulty():
    result = roll([4, 4, 9], advantage=True)
    assert result.advantage_used and result.kept == 9


def test_doubles_are_judged_on_the_final_two_dice():
    result = roll([3, 9, 9], bonus=0, difficulty=5, stress=True, advantage=True)
    assert result.dice == (9, 9)
    assert result.doubles and result.exceptional


def test_doubles_made_by_the_reroll_can_be_a_critical_failure():
    result = roll([3, 9, 9], bonus=0, difficulty=15, advantage=True)
    assert result.critical_failure


def test_advantage_that_is_not_asked_for_draws_no_third_die():
    dice = ScriptedDice([3, 9, 20])
    result = h90.roll(dice, difficulty=15)
    assert dice.used == 2
    assert not result.advantage_used and not result.advantage_refused
    assert not result.advantage_kept


# --- defended and opposed ---------------------------------------------------------------------


def test_defended_roll_takes_its_difficulty_from_the_defender():
    result = h90.defended(ScriptedDice([13, 7]), bonus=4, defender=(8, 9))
    assert result.difficulty == 17
    assert result.total == 17
    assert result.success


def test_defended_difficulty_is_bounded():
    with pytest.raises(H90Error, match="difficulty"):
        h90.defended_difficulty(100, 100, 100)


def test_opposed_higher_total_wins_and_draws_side_a_first():
    result = h90.opposed(ScriptedDice([5, 14, 10, 2]), a_bonus=2, b_bonus=3)
    assert result.a.faces == (5, 14) and result.b.faces == (10, 2)
    assert (result.a.total, result.b.total) == (16, 13)
    assert result.winner == "a"
    assert result.margin == 3


def test_opposed_side_b_wins():
    result = h90.opposed(ScriptedDice([5, 6, 10, 2]), b_stress=True, b_bonus=10)
    assert result.b.kept == 2
    assert result.b.total == 12
    assert result.winner == "b"
    assert result.margin == -6


def test_opposed_equal_totals_tie():
    result = h90.opposed(ScriptedDice([5, 14, 10, 2]), a_bonus=0, b_bonus=4)
    assert result.winner is None
    assert result.margin == 0


def test_opposed_with_advantage_draws_the_reroll_before_the_other_side():
    result = h90.opposed(ScriptedDice([5, 6, 20, 10, 2]), a_advantage=True)
    assert result.a.faces == (5, 6, 20)
    assert result.b.faces == (10, 2)
    assert result.winner == "a"


def test_opposed_doubles_mean_nothing():
    result = h90.opposed(ScriptedDice([7, 7, 1, 1]))
    assert not result.a.exceptional and not result.b.critical_failure


# --- bounds -----------------------------------------------------------------------------------


@pytest.mark.parametrize("bonus", [-51, 101, 10**9])
def test_bonus_out_of_bounds(bonus):
    with pytest.raises(H90Error, match="bonus must be between -50 and 100"):
        h90.roll(ScriptedDice([1, 1]), bonus=bonus)


@pytest.mark.parametrize("difficulty", [-1, 201])
def test_difficulty_out_of_bounds(difficulty):
    with pytest.raises(H90Error, match="difficulty must be between 0 and 200"):
        h90.roll(ScriptedDice([1, 1]), difficulty=difficulty)
    with pytest.raises(H90Error):
        h90.chance(difficulty=difficulty)


@pytest.mark.parametrize("bad", [1.5, "3", True])
def test_non_integers_are_refused(bad):
    with pytest.raises(H90Error, match="whole number"):
        h90.roll(ScriptedDice([1, 1]), bonus=bad)


def test_bounds_are_value_errors_and_checked_before_rolling():
    dice = ScriptedDice([])
    with pytest.raises(ValueError):
        h90.roll(dice, bonus=500)
    with pytest.raises(H90Error, match="side B"):
        h90.opposed(dice, b_bonus=-60)
    assert dice.used == 0


def test_extreme_bounds_are_accepted():
    assert h90.roll(ScriptedDice([1, 2]), bonus=100, difficulty=200).success is False
    assert h90.roll(ScriptedDice([1, 2]), bonus=-50, difficulty=0).success is False
    assert h90.roll(ScriptedDice([1, 2]), bonus=0, difficulty=0).success is True


def test_results_are_frozen():
    result = roll([1, 2])
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.total = 5  # type: ignore[misc]


def test_a_script_that_runs_out_is_reported():
    with pytest.raises(DiceError):
        h90.roll(ScriptedDice([3, 4]), advantage=True)


# --- exact chances ----------------------------------------------------------------------------


def brute_force(bonus, difficulty, stress, advantage):
    """Count every scripted sequence through ``roll`` itself (independent of ``_counts``)."""
    length = 3 if advantage else 2
    success = exceptional = critical = 0
    for faces in itertools.product(range(1, 21), repeat=length):
        result = h90.roll(ScriptedDice(faces), bonus=bonus, difficulty=difficulty,
                          stress=stress, advantage=advantage)  # fmt: skip
        success += result.success
        exceptional += result.exceptional
        critical += result.critical_failure
    cases = 20**length
    return Fraction(success, cases), Fraction(exceptional, cases), Fraction(critical, cases)


@pytest.mark.parametrize(
    ("bonus", "difficulty", "stress", "advantage"),
    [
        (0, 11, False, False),
        (3, 15, True, False),
        (3, 15, False, True),
        (5, 14, True, True),
        (0, 1, True, True),
        (-4, 16, False, True),
        (10, 31, True, True),
        (0, 0, False, False),
        (0, 21, False, True),
    ],
)
def test_odds_match_every_scripted_case(bonus, difficulty, stress, advantage):
    got = h90.odds(bonus=bonus, difficulty=difficulty, stress=stress, advantage=advantage)
    success, exceptional, critical = brute_force(bonus, difficulty, stress, advantage)
    assert got.success == pytest.approx(float(success), abs=1e-12)
    assert got.exceptional == pytest.approx(float(exceptional), abs=1e-12)
    assert got.critical_failure == pytest.approx(float(critical), abs=1e-12)
    assert h90.chance(bonus=bonus, difficulty=difficulty, stress=stress, advantage=advantage) == (
        got.success
    )


def test_closed_forms_for_plain_rolls():
    # Standard: P(max >= n) = 1 - ((n-1)/20)^2; stress: P(min >= n) = ((21-n)/20)^2.
    for need in range(1, 21):
        assert h90.chance(difficulty=need) == pytest.approx(1 - ((need - 1) / 20) ** 2)
        assert h90.chance(difficulty=need, stress=True) == pytest.approx(((21 - need) / 20) ** 2)


def test_chance_edges():
    assert h90.chance(bonus=5, difficulty=3) == 1.0
    assert h90.chance(bonus=0, difficulty=21, advantage=True) == 0.0
    # Doubles always exist on 20 of 400 first rolls: a sure success is exceptional 1/20.
    assert h90.odds(difficulty=0).exceptional == pytest.approx(1 / 20)
    assert h90.odds(difficulty=0).critical_failure == 0.0


def independent_counts(need, stress, advantage):
    """The advantage rule counted from its statement, without ``roll`` or ``_counts``."""
    keep = min if stress else max
    success = exceptional = critical = Fraction(0)
    for a, b in itertools.product(range(1, 21), repeat=2):
        first_fails = keep(a, b) < need
        if not advantage or not first_fails or a == b:
            outcomes = [((a, b), Fraction(1, 400))]
        else:  # a failing first roll of two different dice: the lower one is rerolled
            outcomes = [
                ((new, b) if a < b else (a, new), Fraction(1, 8000)) for new in range(1, 21)
            ]
        for (x, y), p in outcomes:
            ok = keep(x, y) >= need
            success += p if ok else 0
            exceptional += p if ok and x == y else 0
            critical += p if not ok and x == y else 0
    return success, exceptional, critical


@pytest.mark.parametrize("stress", [False, True])
@pytest.mark.parametrize("need", [1, 2, 7, 12, 16, 20, 21])
def test_odds_match_an_independent_count_of_the_rule(need, stress):
    got = h90.odds(difficulty=need, stress=stress, advantage=True)
    success, exceptional, critical = independent_counts(need, stress, True)
    assert got.success == pytest.approx(float(success), abs=1e-12)
    assert got.exceptional == pytest.approx(float(exceptional), abs=1e-12)
    assert got.critical_failure == pytest.approx(float(critical), abs=1e-12)


def test_advantage_never_lowers_the_chance_of_success_or_of_an_exceptional_success():
    for stress in (False, True):
        for difficulty in range(0, 22):
            plain = h90.odds(difficulty=difficulty, stress=stress)
            helped = h90.odds(difficulty=difficulty, stress=stress, advantage=True)
            assert helped.success >= plain.success
            assert helped.exceptional >= plain.exceptional


def test_advantage_helps_a_standard_roll():
    # At difficulty 2 only a first 1-1 fails, and that is exactly the refused case.
    assert h90.chance(difficulty=2, advantage=True) == h90.chance(difficulty=2)
    for difficulty in range(3, 21):
        assert h90.chance(difficulty=difficulty, advantage=True) > h90.chance(difficulty=difficulty)


def test_chance_agrees_with_a_seeded_sample():
    dice = SeededDice(1990)
    n = 20_000
    hits = sum(
        bool(h90.roll(dice, bonus=2, difficulty=16, stress=True, advantage=True).success)
        for _ in range(n)
    )
    p = h90.chance(bonus=2, difficulty=16, stress=True, advantage=True)
    sigma = (p * (1 - p) / n) ** 0.5
    assert abs(hits / n - p) < 5 * sigma


def side_totals(bonus, stress, advantage):
    """Every total one side can roll, counted through ``roll`` with scripted dice."""
    counts: dict[int, int] = {}
    for faces in itertools.product(range(1, 21), repeat=2 + advantage):
        total = h90.roll(ScriptedDice(faces), bonus=bonus, stress=stress, advantage=advantage).total
        counts[total] = counts.get(total, 0) + 1
    return {total: Fraction(n, 20 ** (2 + advantage)) for total, n in counts.items()}


@pytest.mark.parametrize(
    ("a_bonus", "b_bonus", "a_stress", "a_adv", "b_stress", "b_adv"),
    [
        (0, 0, False, False, False, False),
        (3, 1, True, False, False, True),
        (-2, 4, False, True, True, True),
        (25, 0, *[False] * 4),
    ],
)
def test_opposed_odds_match_enumeration(a_bonus, b_bonus, a_stress, a_adv, b_stress, b_adv):
    a_side = side_totals(a_bonus, a_stress, a_adv)
    b_side = side_totals(b_bonus, b_stress, b_adv)
    wins = {"a": Fraction(0), "b": Fraction(0), None: Fraction(0)}
    for (a_total, pa), (b_total, pb) in itertools.product(a_side.items(), b_side.items()):
        winner = "a" if a_total > b_total else "b" if b_total > a_total else None
        wins[winner] += pa * pb
    got = h90.opposed_odds(a_bonus=a_bonus, b_bonus=b_bonus, a_stress=a_stress,
                           a_advantage=a_adv, b_stress=b_stress, b_advantage=b_adv)  # fmt: skip
    assert got.a == pytest.approx(float(wins["a"]), abs=1e-12)
    assert got.b == pytest.approx(float(wins["b"]), abs=1e-12)
    assert got.tie == pytest.approx(float(wins[None]), abs=1e-12)
    assert got.a + got.b + got.tie == pytest.approx(1.0)
