"""CODA (RULES.md §1): every rule and degree boundary pinned with scripted dice, and the exact
chances checked against an independent enumeration and a seeded sample."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.dice import DiceError, ReplayDice, ScriptedDice, SeededDice
from engine.errors import InputError
from engine.systems import coda
from engine.systems.coda import (
    CodaError,
    Degree,
    Difficulty,
    Ones,
    Part,
    Side,
    Stage,
    parse_conditions,
)


def roll(faces, **kwargs):
    """A test with scripted faces, checking that every scripted face was drawn."""
    dice = ScriptedDice(faces)
    result = coda.test(dice, **kwargs)
    assert dice.remaining == 0, "the test drew fewer dice than scripted"
    return result


# --------------------------------------------------------------------------- the test roll


def test_rolling_sixes_example_from_rules():
    result = roll([6, 6, 6, 3], tn=15)
    assert result.faces == (6, 6, 6, 3)
    assert result.base_faces == (6, 6)
    assert result.extra_faces == (6, 3)
    assert result.dice_total == 21
    assert result.total == 21
    assert result.exploded
    assert result.margin == 6
    assert result.degree is Degree.SUPERIOR_SUCCESS


def test_single_six_does_not_explode():
    result = roll([6, 5], tn=10, modifier=2)
    assert result.faces == (6, 5)
    assert not result.exploded
    assert result.total == 13


def test_explosion_stops_at_first_non_six():
    result = roll([6, 6, 1], tn=10)
    assert result.faces == (6, 6, 1)
    assert result.total == 13


def test_explosion_keeps_going_while_sixes():
    result = roll([6, 6, 6, 6, 6, 2], tn=10)
    assert result.total == 32
    assert len(result.extra_faces) == 4


def test_arithmetic_modifier_minus_penalty():
    result = roll([4, 3], modifier=5, penalty=3, tn=10)
    assert result.total == 4 + 3 + 5 - 3
    assert result.margin == -1
    assert result.degree is Degree.FAILURE
    assert not result.success


@pytest.mark.parametrize(
    ("margin", "degree", "time_factor"),
    [
        (-11, Degree.DISASTROUS_FAILURE, 1.5),
        (-10, Degree.COMPLETE_FAILURE, 1),
        (-6, Degree.COMPLETE_FAILURE, 1),
        (-5, Degree.FAILURE, 1),
        (-1, Degree.FAILURE, 1),
        (0, Degree.MARGINAL_SUCCESS, 1),
        (1, Degree.COMPLETE_SUCCESS, 0.75),
        (5, Degree.COMPLETE_SUCCESS, 0.75),
        (6, Degree.SUPERIOR_SUCCESS, 0.5),
        (10, Degree.SUPERIOR_SUCCESS, 0.5),
        (11, Degree.EXTRAORDINARY_SUCCESS, 0.25),
    ],
)
def test_degree_boundaries(margin, degree, time_factor):
    # Dice 3+4 = 7 against TN 20: the modifier sets the margin.
    result = roll([3, 4], modifier=13 + margin, tn=20)
    assert result.margin == margin
    assert result.degree is degree
    assert result.time_factor == time_factor
    assert result.success is (margin >= 0)
    assert Degree.of(margin) is degree


def test_degree_labels_are_the_rules_names():
    assert [d.label for d in Degree] == [
        "Disastrous Failure",
        "Complete Failure",
        "Failure",
        "Marginal Success",
        "Complete Success",
        "Superior Success",
        "Extraordinary Success",
    ]
    assert Degree.DISASTROUS_FAILURE < Degree.FAILURE < Degree.EXTRAORDINARY_SUCCESS


def test_degree_margin_ranges_cover_every_margin_once():
    for margin in range(-40, 41):
        owners = [
            d
            for d in Degree
            if (d.margins[0] is None or d.margins[0] <= margin)
            and (d.margins[1] is None or margin <= d.margins[1])
        ]
        assert owners == [Degree.of(margin)]


# --------------------------------------------------------------------------- rolling 1s


@pytest.mark.parametrize(
    ("ones", "degree", "fumble"),
    [
        ("off", Degree.EXTRAORDINARY_SUCCESS, False),
        ("fumble", Degree.EXTRAORDINARY_SUCCESS, True),
        ("failure", Degree.FAILURE, False),
        ("complete-failure", Degree.COMPLETE_FAILURE, False),
    ],
)
def test_double_ones_with_each_setting_on_a_sure_success(ones, degree, fumble):
    result = roll([1, 1], modifier=20, tn=10, ones=ones)
    assert result.all_ones
    assert result.total == 22
    assert result.natural_degree is Degree.EXTRAORDINARY_SUCCESS
    assert result.degree is degree
    assert result.fumble is fumble
    assert result.capped is (ones in ("failure", "complete-failure"))
    assert result.success is (ones in ("off", "fumble"))
    assert result.time_factor == degree.time_factor


@pytest.mark.parametrize("ones", coda.ONES_SETTINGS)
def test_double_ones_never_raise_a_worse_degree(ones):
    # Margin −11: already worse than every cap, so nothing changes.
    result = roll([1, 1], tn=13, ones=ones)
    assert result.degree is Degree.DISASTROUS_FAILURE
    assert not result.capped


def test_double_ones_failure_cap_keeps_a_complete_failure():
    result = roll([1, 1], tn=10, ones="failure")  # margin −8
    assert result.degree is Degree.COMPLETE_FAILURE
    assert not result.capped


def test_ones_rule_needs_every_die_to_be_one():
    result = roll([1, 2], modifier=20, tn=10, ones="complete-failure")
    assert not result.all_ones
    assert result.degree is Degree.EXTRAORDINARY_SUCCESS


def test_ones_setting_is_validated():
    with pytest.raises(CodaError, match="rolling-1s"):
        coda.test(ScriptedDice([1, 1]), tn=10, ones="sometimes")
    assert Ones.parse(" Complete-Failure ") is Ones.COMPLETE_FAILURE
    assert coda.ONES_SETTINGS == ("off", "fumble", "failure", "complete-failure")


# --------------------------------------------------------------------------- damage


def test_damage_adds_dice_and_modifier():
    dice = ScriptedDice([3, 5, 2])
    result = coda.damage(dice, count=3, modifier=2)
    assert result.faces == (3, 5, 2)
    assert result.total == 12
    assert not result.exploded
    assert dice.remaining == 0


def test_damage_explodes_only_when_all_dice_show_six():
    result = coda.damage(ScriptedDice([6, 6, 6, 6, 4]), count=3)
    assert result.base_faces == (6, 6, 6)
    assert result.extra_faces == (6, 4)
    assert result.total == 28
    assert result.exploded
    # Two sixes out of three do not explode.
    assert not coda.damage(ScriptedDice([6, 6, 5]), count=3).exploded


def test_single_die_damage_explodes_on_a_six():
    result = coda.damage(ScriptedDice([6, 2]), count=1, modifier=-1)
    assert result.faces == (6, 2)
    assert result.total == 7


def test_damage_ignores_the_ones_rule():
    # damage() has no ones setting at all: all 1s is just a low roll.
    result = coda.damage(ScriptedDice([1, 1]), count=2)
    assert result.total == 2


@pytest.mark.parametrize("count", [0, 51, -1])
def test_damage_dice_bounds(count):
    with pytest.raises(CodaError, match="damage dice"):
        coda.damage(ScriptedDice([]), count=count)


# --------------------------------------------------------------------------- bounds


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"tn": 0}, "TN"),
        ({"tn": 1000}, "TN"),
        ({"tn": 10, "modifier": 101}, "modifier"),
        ({"tn": 10, "modifier": -101}, "modifier"),
        ({"tn": 10, "penalty": -1}, "penalty"),
        ({"tn": 10, "penalty": 101}, "penalty"),
        ({"tn": 10.5}, "whole number"),
        ({"tn": True}, "whole number"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message(kwargs, message):
    with pytest.raises(CodaError, match=message):
        coda.test(ScriptedDice([3, 3]), **kwargs)
    with pytest.raises(CodaError, match=message):
        coda.chance(**kwargs)


def test_errors_are_input_errors_and_value_errors():
    assert issubclass(CodaError, InputError)
    assert issubclass(CodaError, ValueError)


def test_bounds_are_accepted_at_their_edges():
    assert roll([2, 2], tn=100, modifier=100, penalty=0).total == 104
    assert roll([2, 2], tn=1, modifier=-100, penalty=100).total == -196


def test_a_broken_dice_source_cannot_hang_the_roll():
    class AlwaysSix:
        def roll(self, sides):
            return 6

    with pytest.raises(CodaError, match="sixes in a row"):
        coda.test(AlwaysSix(), tn=10)


def test_scripted_dice_that_run_out_are_reported():
    with pytest.raises(DiceError):
        coda.test(ScriptedDice([6, 6]), tn=10)


# --------------------------------------------------------------------------- difficulty names


def test_named_difficulties():
    assert [(d.label, d.tn) for d in Difficulty] == [
        ("Routine", 5),
        ("Standard", 10),
        ("Challenging", 15),
        ("Difficult", 20),
        ("Virtually Impossible", 25),
        ("Nearly Impossible", 30),
    ]
    assert Difficulty.parse("virtually impossible") is Difficulty.VIRTUALLY_IMPOSSIBLE
    with pytest.raises(CodaError, match="Routine 5"):
        Difficulty.parse("trivial")


# --------------------------------------------------------------------------- kinds of test


def total(parts):
    return sum(p.value for p in parts)


def test_attribute_and_reaction_tests():
    assert coda.attribute_parts(attribute=2, misc=1) == (Part("attribute", 2), Part("modifier", 1))
    assert coda.reaction_parts(reaction=3) == (Part("reaction", 3),)


def test_skill_test_adds_ranks_specialty_and_affinity():
    parts = coda.skill_parts(attribute=1, ranks=4, specialty=True, affinity=1, misc=-1)
    assert [p.label for p in parts] == ["attribute", "ranks", "specialty", "affinity", "modifier"]
    assert total(parts) == 1 + 4 + 2 + 1 - 1
    result = roll([3, 4], modifier=total(parts), tn=15)
    assert result.total == 14


@pytest.mark.parametrize("ranks", [None, 0])
def test_untrained_skill_takes_minus_two(ranks):
    parts = coda.skill_parts(attribute=2, ranks=ranks)
    assert parts == (Part("attribute", 2), Part("untrained", -2))
    assert total(parts) == 0


def test_untrained_attempt_cannot_use_a_specialty():
    with pytest.raises(CodaError, match="specialty"):
        coda.skill_parts(attribute=2, ranks=None, specialty=True)


def test_affinity_bounds():
    with pytest.raises(CodaError, match="affinity"):
        coda.skill_parts(attribute=0, ranks=1, affinity=-1)
    with pytest.raises(CodaError, match="affinity"):
        coda.skill_parts(attribute=0, ranks=1, affinity=11)


@pytest.mark.parametrize(("attempt", "penalty"), [(1, 0), (2, 2), (3, 4), (5, 8)])
def test_repeated_attempts_cost_two_per_earlier_failure(attempt, penalty):
    assert coda.repeat_penalty(attempt) == penalty


def test_repeat_bounds():
    with pytest.raises(CodaError, match="attempt"):
        coda.repeat_penalty(0)


@pytest.mark.parametrize(
    ("action", "cost", "penalty"),
    [(1, 1, 0), (2, 1, 0), (3, 1, 5), (4, 1, 10), (5, 1, 15), (1, 2, 0), (2, 2, 5), (3, 2, 10)],
)
def test_extra_actions_and_multi_slot_actions(action, cost, penalty):
    assert coda.action_penalty(action=action, cost=cost) == penalty


def test_extra_action_penalty_counts_actions_beyond_the_second():
    assert [coda.extra_action_penalty(n) for n in range(4)] == [0, 5, 10, 15]


def test_penalty_parts_name_each_subtracted_term():
    assert coda.penalty_parts() == ()
    parts = coda.penalty_parts(penalty=1, attempt=3, extra_actions=2)
    assert parts == (Part("penalty", 1), Part("attempt 3", 4), Part("action 4", 10))
    result = roll([5, 5], modifier=10, tn=10, penalty=total(parts))
    assert result.total == 5
    with pytest.raises(CodaError, match="extra actions"):
        coda.penalty_parts(extra_actions=11)


def test_surprise_loses_one_action_in_round_one_only():
    assert coda.actions_in_round(round_number=1, surprised=True) == 1
    assert coda.actions_in_round(round_number=2, surprised=True) == 2
    assert coda.actions_in_round(round_number=1, surprised=False) == 2


def test_surprise_test_is_tn_ten():
    result = coda.surprise_test(ScriptedDice([4, 5]))
    assert result.tn == 10
    assert result.degree is Degree.FAILURE  # surprised
    assert coda.SURPRISE_SKILL == "Observe (Spot)"


# --------------------------------------------------------------------------- conditions


def test_conditions_change_the_tn():
    conditions = parse_conditions("Darkness +5, Well-equipped/using superior tools")
    result = roll([5, 5], tn=10, conditions=conditions)
    assert result.base_tn == 10
    assert result.tn == 10
    assert result.margin == 0
    hindered = roll([5, 5], tn=10, conditions=parse_conditions("Darkness +5"))
    assert hindered.tn == 15
    assert hindered.degree is Degree.FAILURE
    assert coda.chance(tn=10, conditions=parse_conditions("Darkness +5")) == coda.chance(tn=15)


# --------------------------------------------------------------------------- opposed tests


def test_opposed_higher_result_wins_and_degree_uses_losers_result():
    dice = ScriptedDice([5, 5, 3, 2])
    result = coda.opposed(dice, a_modifier=4, b_modifier=2)
    assert dice.remaining == 0
    assert (result.a.total, result.b.total) == (14, 7)
    assert result.winner == "a"
    assert result.a.tn == 7
    assert result.degree is Degree.SUPERIOR_SUCCESS  # 14 against TN 7: margin 7
    assert result.margin == 7
    assert result.b.degree is Degree.COMPLETE_FAILURE


def test_a_side_rolled_alone_then_replayed_gives_the_opposed_result():
    """The "roll your side" button: side A's dice drawn first, alone (rolling 6s too), then
    replayed into opposed() with side B's dice drawn fresh: as if both had rolled at once."""
    early = ScriptedDice([6, 6, 6, 2])
    a_faces = coda.side_faces(early)
    assert a_faces == (6, 6, 6, 2) and early.remaining == 0
    replayed = coda.opposed(ReplayDice(a_faces, then=ScriptedDice([3, 4])), a_modifier=1)
    at_once = coda.opposed(ScriptedDice([6, 6, 6, 2, 3, 4]), a_modifier=1)
    assert replayed == at_once
    assert (replayed.a.total, replayed.b.total, replayed.winner) == (21, 7, "a")


def test_opposed_side_b_can_win():
    result = coda.opposed(ScriptedDice([2, 2, 6, 6, 6, 1]), a_modifier=3)
    assert result.b.faces == (6, 6, 6, 1)
    assert result.winner == "b"
    assert result.degree is Degree.EXTRAORDINARY_SUCCESS  # 19 against 7


def test_opposed_equal_results_are_a_tie():
    result = coda.opposed(ScriptedDice([4, 4, 5, 2]), a_modifier=1, b_modifier=2)
    assert result.tie
    assert result.winner is None
    assert result.degree is None
    assert result.margin == 0


def test_opposed_ones_rule_caps_the_winners_degree():
    result = coda.opposed(ScriptedDice([1, 1, 2, 3]), a_modifier=20, ones="failure")
    assert result.winner == "a"
    assert result.a.all_ones
    assert result.degree is Degree.FAILURE


def test_opposed_bounds():
    with pytest.raises(CodaError, match="Side B"):
        coda.opposed(ScriptedDice([]), b_modifier=500)


# --------------------------------------------------------------------------- combined tests


@pytest.mark.parametrize(
    ("faces", "degree", "contribution"),
    [
        # Helper tests at TN 15 − 5 = 10 with modifier 0.
        ([5, 5], Degree.MARGINAL_SUCCESS, 1),
        ([6, 5], Degree.COMPLETE_SUCCESS, 1),
        ([6, 6, 4], Degree.SUPERIOR_SUCCESS, 2),
        ([6, 6, 6, 5], Degree.EXTRAORDINARY_SUCCESS, 3),
        ([4, 5], Degree.FAILURE, 0),
        ([2, 2], Degree.COMPLETE_FAILURE, -1),
        ([1, 3], Degree.COMPLETE_FAILURE, -1),
    ],
)
def test_combined_contribution_per_helper_degree(faces, degree, contribution):
    dice = ScriptedDice([*faces, 4, 4])
    result = coda.combined(dice, tn=15, helpers=[0], leader_modifier=3)
    assert dice.remaining == 0
    (helper,) = result.helpers
    assert helper.tn == 10
    assert helper.degree is degree
    assert result.contributions == (contribution,)
    assert result.leader.modifier == 3 + contribution
    assert result.leader.total == 8 + 3 + contribution
    assert result.leader.tn == 15


def test_combined_disastrous_helper_takes_two():
    result = coda.combined(ScriptedDice([1, 2, 4, 4]), tn=20, helpers=[-1], leader_modifier=7)
    assert result.helpers[0].margin == -13
    assert result.helpers[0].degree is Degree.DISASTROUS_FAILURE
    assert result.bonus == -2
    assert result.leader.total == 8 + 7 - 2
    assert result.degree is Degree.COMPLETE_FAILURE


def test_combined_order_is_helpers_then_leader_and_sums_contributions():
    helpers = [Side(modifier=2), Side(modifier=0, penalty=1), 5]
    dice = ScriptedDice([6, 6, 1, 3, 3, 4, 4, 5, 5])
    result = coda.combined(dice, tn=12, helpers=helpers, leader_modifier=1)
    assert [h.faces for h in result.helpers] == [(6, 6, 1), (3, 3), (4, 4)]
    assert [h.total for h in result.helpers] == [15, 5, 13]
    # TN 7: 15 → Superior (+2), 5 → Failure (0), 13 → Superior (+2).
    assert result.contributions == (2, 0, 2)
    assert result.bonus == 4
    assert result.leader.faces == (5, 5)
    assert result.leader.total == 15
    assert result.degree is Degree.COMPLETE_SUCCESS
    assert result.success


def test_combined_needs_helpers():
    with pytest.raises(CodaError, match="helpers"):
        coda.combined(ScriptedDice([]), tn=10, helpers=[])
    with pytest.raises(CodaError, match="Helper 2"):
        coda.combined(ScriptedDice([]), tn=10, helpers=[0, 200])


def test_combined_helper_at_tn_five_tests_against_zero():
    result = coda.combined(ScriptedDice([1, 1, 2, 3]), tn=5, helpers=[0])
    assert result.helpers[0].tn == 0
    assert result.helpers[0].degree is Degree.COMPLETE_SUCCESS


# --------------------------------------------------------------------------- extended tests


def test_extended_test_completes():
    task = coda.extended_start(name="Brew Draught", stages=[10, 10, 15], interval=2, unit="hours")
    assert task.aggregate_tn == 35
    assert task.current == Stage(10)
    step = coda.extended_roll(ScriptedDice([5, 5]), task, modifier=2)
    assert step.passed and step.added == 12
    assert step.after.total == 12 and step.after.stage == 1 and step.after.tests == 1
    assert step.before == task  # pure: the old state is untouched
    step = coda.extended_roll(ScriptedDice([6, 6, 6, 2]), step.after, modifier=2)
    assert step.added == 22
    assert step.after.total == 34
    assert not step.completed
    assert step.after.current == Stage(15)
    step = coda.extended_roll(ScriptedDice([6, 6, 1]), step.after, modifier=2)
    assert step.test.tn == 15
    assert step.completed
    assert step.after.total == 49
    assert step.after.tests == 3
    assert step.after.elapsed == 6
    assert (step.after.elapsed, step.after.unit) == (6, "hours")
    assert step.after.current is None
    with pytest.raises(CodaError, match="already complete"):
        coda.extended_roll(ScriptedDice([3, 3]), step.after)


def test_extended_test_failed_stage_adds_nothing_but_costs_time():
    task = coda.extended_start(name="Repair", stages=[15, 20], interval=10, unit="minutes")
    step = coda.extended_roll(ScriptedDice([3, 4]), task, modifier=5)  # 12 < 15
    assert not step.passed
    assert step.added == 0
    assert step.after.total == 0
    assert step.after.stage == 0
    assert step.after.tests == 1
    assert step.after.elapsed == 10
    assert step.after.log[-1].result == 12
    assert step.after.log[-1].added == 0
    step = coda.extended_roll(ScriptedDice([5, 5]), step.after, modifier=5)  # 15: passes
    assert step.passed and step.after.stage == 1 and step.after.total == 15


def test_extended_completes_early_when_total_reaches_aggregate():
    task = coda.extended_start(name="Quick", stages=[5, 5, 5])
    step = coda.extended_roll(ScriptedDice([6, 6, 3]), task, modifier=2)
    assert step.after.total == 17 >= 15
    assert step.completed


def test_extended_capped_ones_add_nothing():
    task = coda.extended_start(name="x", stages=[5])
    step = coda.extended_roll(ScriptedDice([1, 1]), task, modifier=10, ones="failure")
    assert step.added == 0 and not step.passed


def test_extended_apply_checks_the_stage_tn():
    task = coda.extended_start(name="x", stages=[10, 20])
    wrong = coda.test(ScriptedDice([5, 5]), tn=20)
    with pytest.raises(CodaError, match="needs TN 10"):
        coda.extended_apply(task, wrong)


def test_parse_stages():
    assert coda.parse_stages("15,15,20") == (Stage(15), Stage(15), Stage(20))
    assert coda.parse_stages("15:Potions, 20") == (Stage(15, "Potions"), Stage(20))
    with pytest.raises(CodaError, match="not a TN"):
        coda.parse_stages("fifteen")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"name": "", "stages": [10]}, "name"),
        ({"name": "x", "stages": []}, "stages"),
        ({"name": "x", "stages": [10] * 21}, "stages"),
        ({"name": "x", "stages": [1000]}, "stage 1"),
        ({"name": "x", "stages": [10], "interval": 0}, "interval"),
        ({"name": "x", "stages": [10], "unit": "u" * 21}, "unit"),
    ],
)
def test_extended_start_bounds(kwargs, message):
    with pytest.raises(CodaError, match=message):
        coda.extended_start(**kwargs)


# --------------------------------------------------------------------------- exact chances


def _explosion_sums(depth: int) -> tuple[dict[int, Fraction], Fraction]:
    """Independent: every sequence of extra dice up to ``depth`` dice, with exact fractions."""
    sums: dict[int, Fraction] = {}
    unresolved = Fraction(0)
    frontier = {0: Fraction(1)}  # running extra-dice sum -> probability, still exploding
    for _ in range(depth):
        nxt: dict[int, Fraction] = {}
        for running, p in frontier.items():
            for face in range(1, 7):
                q = p / 6
                if face == 6:
                    nxt[running + 6] = nxt.get(running + 6, 0) + q
                else:
                    sums[running + face] = sums.get(running + face, 0) + q
        frontier = nxt
    unresolved = sum(frontier.values(), Fraction(0))
    return sums, unresolved


_EXTRA, _UNRESOLVED = _explosion_sums(20)


def enumerated_tail(need: int) -> Fraction:
    """P(2d6 with rolling 6s >= need), by enumerating both base dice and the extra dice."""
    p = Fraction(0)
    for a, b in product(range(1, 7), repeat=2):
        if (a, b) == (6, 6):
            p += Fraction(1, 36) * sum((q for e, q in _EXTRA.items() if 12 + e >= need), 0)
        elif a + b >= need:
            p += Fraction(1, 36)
    return p


def closed_form_tail(need: int) -> float:
    """P(dice >= need) from the geometric closed form P(extra > x) = 6^-(q+1) (6 − t)."""
    if need <= 2:
        return 1.0
    base = sum(1 for a, b in product(range(1, 7), repeat=2) if (a, b) != (6, 6) and a + b >= need)
    x = max(0, need - 13)  # the extra dice must total more than x
    q, t = divmod(x, 6)
    return base / 36 + (1 / 36) * 6.0 ** -(q + 1) * (6 - t)


def test_unresolved_mass_of_the_enumeration_is_negligible():
    assert Fraction(1, 10**15) > _UNRESOLVED


@pytest.mark.parametrize("need", [-5, 0, 1, 2, 3, 7, 11, 12, 13, 17, 18, 19, 24, 25, 40, 80, 95])
def test_chance_matches_enumeration_and_closed_form(need):
    expected = enumerated_tail(need)
    # chance() takes TN, modifier and penalty; any split giving the same need agrees.
    tn, modifier = (need, 0) if 1 <= need <= 100 else (50, 50 - need)
    got = coda.chance(tn=tn, modifier=modifier)
    assert abs(got - float(expected)) < 1e-12
    assert abs(got - closed_form_tail(need)) < 1e-12
    assert coda.chance(tn=tn, modifier=modifier - 3, penalty=0) == pytest.approx(
        float(enumerated_tail(need + 3)), abs=1e-12
    )


def test_chance_known_values():
    assert coda.chance(tn=7) == pytest.approx(21 / 36, abs=1e-15)
    assert coda.chance(tn=12) == pytest.approx(1 / 36, abs=1e-15)
    assert coda.chance(tn=13) == pytest.approx(1 / 36, abs=1e-15)  # any explosion reaches 13
    assert coda.chance(tn=18) == pytest.approx(1 / 36 * 1 / 6, abs=1e-15)
    assert coda.chance(tn=1) == 1.0
    assert coda.chance(tn=100, modifier=-100, penalty=100) == 0.0


def test_chance_with_ones_rule():
    # With modifier +20 against TN 10 every roll succeeds unless the 1,1 is capped.
    assert coda.chance(tn=10, modifier=20) == 1.0
    assert coda.chance(tn=10, modifier=20, ones="fumble") == 1.0
    assert coda.chance(tn=10, modifier=20, ones="failure") == pytest.approx(35 / 36, abs=1e-15)
    assert coda.chance(tn=10, modifier=20, ones="complete-failure") == pytest.approx(35 / 36)
    # When 1,1 fails anyway the setting changes nothing.
    assert coda.chance(tn=10, ones="failure") == coda.chance(tn=10)


def brute_degree_chances(modifier: int, tn: int, penalty: int, ones: str) -> dict[Degree, float]:
    """Independent: judge every enumerated outcome through the scripted-dice test itself."""
    chances = dict.fromkeys(Degree, Fraction(0))
    for a, b in product(range(1, 7), repeat=2):
        branches = (
            [((a, b), Fraction(1, 36))]
            if (a, b) != (6, 6)
            else [((6, 6, e), Fraction(1, 36) * q) for e, q in _EXTRA.items()]
        )
        for faces, p in branches:
            if len(faces) == 3:  # collapse extra dice into one pseudo-face sum
                outcome_total = 12 + faces[2] + modifier - penalty
                degree = Degree.of(outcome_total - tn)
            else:
                degree = roll(
                    list(faces), modifier=modifier, tn=tn, penalty=penalty, ones=ones
                ).degree
            chances[degree] += p
    return {d: float(p) for d, p in chances.items()}


@pytest.mark.parametrize(
    ("modifier", "tn", "penalty"), [(0, 10, 0), (5, 15, 2), (20, 10, 0), (-3, 20, 0), (0, 5, 0)]
)
@pytest.mark.parametrize("ones", ["off", "fumble", "failure", "complete-failure"])
def test_degree_chances_match_brute_force(modifier, tn, penalty, ones):
    got = coda.degree_chances(modifier=modifier, tn=tn, penalty=penalty, ones=ones)
    expected = brute_degree_chances(modifier, tn, penalty, ones)
    assert list(got) == list(Degree)
    for degree in Degree:
        assert got[degree] == pytest.approx(expected[degree], abs=1e-12), degree
    assert sum(got.values()) == pytest.approx(1.0, abs=1e-12)
    success = sum(p for d, p in got.items() if d.success)
    assert success == pytest.approx(
        coda.chance(modifier=modifier, tn=tn, penalty=penalty, ones=ones), abs=1e-12
    )


def test_degree_chances_are_read_only():
    chances = coda.degree_chances(tn=10)
    with pytest.raises(TypeError):
        chances[Degree.FAILURE] = 1.0  # type: ignore[index]


def test_chance_is_cached():
    coda.chance(tn=17, modifier=3)
    before = coda.success_probability.cache_info().hits
    coda.chance(tn=17, modifier=3)
    assert coda.success_probability.cache_info().hits == before + 1


SAMPLE = 1_000_000


def test_chance_against_a_million_seeded_rolls():
    """10⁶ seeded rolls of the test dice; every tail within 5 binomial sigma (+1e-9)."""
    dice = SeededDice(20260101)
    draw = coda.roll_faces  # the very code test() rolls with
    counts = Counter(sum(draw(dice, 2)) for _ in range(SAMPLE))
    assert sum(counts.values()) == SAMPLE
    for need in range(2, 31):
        observed = sum(c for s, c in counts.items() if s >= need) / SAMPLE
        p = coda.chance(tn=need)
        tolerance = 5 * math.sqrt(p * (1 - p) / SAMPLE) + 1e-9
        assert abs(observed - p) <= tolerance, (need, observed, p)


def test_degree_chances_against_seeded_full_tests():
    """The whole test() pipeline (modifier, penalty, ones cap) against degree_chances."""
    n = 30_000
    dice = SeededDice(7)
    kwargs = {"modifier": 6, "tn": 15, "penalty": 1, "ones": "complete-failure"}
    counts = Counter(coda.test(dice, **kwargs).degree for _ in range(n))
    expected = coda.degree_chances(**kwargs)
    for degree in Degree:
        p = expected[degree]
        tolerance = 5 * math.sqrt(p * (1 - p) / n) + 1e-9
        assert abs(counts[degree] / n - p) <= tolerance, degree


def test_opposed_chances_match_enumeration():
    def dist():
        out = {}
        for a, b in product(range(1, 7), repeat=2):
            if (a, b) == (6, 6):
                for e, q in _EXTRA.items():
                    out[12 + e] = out.get(12 + e, 0) + Fraction(1, 36) * q
            else:
                out[a + b] = out.get(a + b, 0) + Fraction(1, 36)
        return out

    d = dist()
    for a_mod, b_mod, b_pen in [(0, 0, 0), (3, 0, 0), (0, 5, 2), (-4, 4, 0)]:
        win = lose = Fraction(0)
        for sa, pa in d.items():
            for sb, pb in d.items():
                ra, rb = sa + a_mod, sb + b_mod - b_pen
                if ra > rb:
                    win += pa * pb
                elif rb > ra:
                    lose += pa * pb
        got = coda.opposed_chances(a_modifier=a_mod, b_modifier=b_mod, b_penalty=b_pen)
        assert got[0] == pytest.approx(float(win), abs=1e-12)
        assert got[1] == pytest.approx(float(lose), abs=1e-12)
        assert sum(got) == pytest.approx(1.0, abs=1e-12)


def test_combined_chance_matches_enumeration_over_helper_degrees():
    tn, helpers, leader = 15, [2, 0], 3
    helper_chances = [coda.degree_chances(tn=tn - 5, modifier=m) for m in helpers]
    expected = 0.0
    for d1, d2 in product(Degree, repeat=2):
        p = helper_chances[0][d1] * helper_chances[1][d2]
        bonus = d1.contribution + d2.contribution
        expected += p * float(enumerated_tail(tn - leader - bonus))
    got = coda.combined_chance(tn=tn, helpers=helpers, leader_modifier=leader)
    assert got == pytest.approx(expected, abs=1e-12)


def test_helper_chances_are_each_helpers_chance_at_tn_minus_five():
    darkness = parse_conditions("Darkness +5")
    got = coda.helper_chances(
        tn=15, helpers=[2, Side(modifier=1, penalty=3), -5], conditions=darkness
    )
    # TN 15 − 5 + 5 (Darkness) = 15: the dice must reach 13, 17 and 20.
    assert got == pytest.approx([float(enumerated_tail(n)) for n in (13, 17, 20)], abs=1e-12)
    # At TN 5 a helper tests against 0: only the rolling-1s rule can fail it.
    assert coda.helper_chances(tn=5, helpers=[0]) == (1.0,)
    assert coda.helper_chances(tn=5, helpers=[0], ones="failure") == pytest.approx((35 / 36,))
    with pytest.raises(CodaError, match="1 to 20 helpers"):
        coda.helper_chances(tn=15, helpers=[])


def test_combined_chance_against_seeded_combined_tests():
    n = 20_000
    dice = SeededDice(99)
    kwargs = {"tn": 15, "helpers": [1, 0, -2], "leader_modifier": 4}
    wins = sum(coda.combined(dice, **kwargs).success for _ in range(n))
    p = coda.combined_chance(**kwargs)
    assert abs(wins / n - p) <= 5 * math.sqrt(p * (1 - p) / n)


# --------------------------------------------------------------------------- properties


@given(
    a=st.integers(1, 6),
    b=st.integers(1, 6),
    sixes=st.integers(0, 3),
    last=st.integers(1, 5),
    modifier=st.integers(-100, 100),
    tn=st.integers(1, 100),
    penalty=st.integers(0, 100),
    ones=st.sampled_from(coda.ONES_SETTINGS),
)
def test_any_roll_reads_as_its_margin_says(a, b, sixes, last, modifier, tn, penalty, ones):
    faces = [a, b]
    if a == b == 6:  # a rolling-6s run: more sixes, then a face that stops it
        faces += [6] * sixes + [last]
    result = coda.test(ScriptedDice(faces), modifier=modifier, tn=tn, penalty=penalty, ones=ones)
    assert result.total == sum(faces) + modifier - penalty
    assert result.margin == result.total - tn
    assert result.natural_degree is Degree.of(result.margin)
    cap = Ones(ones).cap
    if result.all_ones and cap is not None:
        assert result.degree == min(result.natural_degree, cap)
    else:
        assert result.degree is result.natural_degree
    assert result.success is (result.degree >= Degree.MARGINAL_SUCCESS)
    assert 0.0 <= coda.chance(modifier=modifier, tn=tn, penalty=penalty, ones=ones) <= 1.0
