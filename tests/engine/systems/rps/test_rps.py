"""RPS (RULES.md §4): every rule pinned with ScriptedDice, chances against a full count."""

from __future__ import annotations

import math
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dice import ScriptedDice, SeededDice
from engine.errors import InputError
from engine.systems import rps
from engine.systems.rps import FailureReason, Reading, Special, TaskStatus
from tests.hypothesis_profiles import examples


def roll(base: int, first: int, second: int) -> rps.CheckResult:
    dice = ScriptedDice([first, second])
    result = rps.check(dice, base=base)
    assert dice.remaining == 0
    return result


# --- Stat checks ---------------------------------------------------------------------


def test_daniela_tracking_examples_from_the_seed() -> None:
    base = rps.skill_base(4, 6, difficulty="Moderately hard")
    assert base == 12
    first = roll(base, 1, 7)
    assert (first.faces, first.success_level, first.success, first.label) == (
        (1, 7),
        4,
        True,
        "acceptable",
    )
    second = roll(base, 4, 9)
    assert (second.success_level, second.success, second.label) == (-1, False, "failure")
    assert second.special is None and not second.automatic and not second.critical


def test_sl_zero_barely_fails() -> None:
    result = roll(10, 4, 6)
    assert result.success_level == 0
    assert not result.success
    assert result.reading is Reading.BARE_FAILURE


@pytest.mark.parametrize("base", [2, 1, 0, -7])
def test_double_ones_at_base_two_or_less_is_an_automatic_success(base: int) -> None:
    result = roll(base, 1, 1)
    assert result.success_level == 1
    assert result.success
    assert result.automatic and not result.critical
    assert result.special is Special.AUTOMATIC_SUCCESS


@pytest.mark.parametrize(("base", "sl"), [(3, 6), (12, 15), (20, 23)])
def test_double_ones_above_base_two_is_a_critical_success_plus_five(base: int, sl: int) -> None:
    result = roll(base, 1, 1)
    assert result.success_level == sl == base - 2 + 5
    assert result.critical and not result.automatic
    assert result.special is Special.CRITICAL_SUCCESS


@pytest.mark.parametrize("base", [21, 25, 200])
def test_double_tens_that_would_succeed_are_an_automatic_failure_at_zero(base: int) -> None:
    result = roll(base, 10, 10)
    assert result.success_level == 0
    assert not result.success
    assert result.automatic and not result.critical
    assert result.special is Special.AUTOMATIC_FAILURE
    assert not result.fumble


@pytest.mark.parametrize(("base", "sl"), [(20, 0), (19, -1), (5, -15)])
def test_double_tens_that_would_fail_are_a_critical_failure_sl_unchanged(
    base: int, sl: int
) -> None:
    result = roll(base, 10, 10)
    assert result.success_level == sl
    assert result.critical and not result.automatic
    assert result.special is Special.CRITICAL_FAILURE
    assert result.fumble


def test_forgo_at_sixteen_is_sl_one_without_dice() -> None:
    dice = ScriptedDice([])
    result = rps.check(dice, base=16, forgo=True)
    assert dice.used == 0
    assert result.faces == ()
    assert result.forgone
    assert (result.success_level, result.success, result.critical, result.automatic) == (
        1,
        True,
        False,
        False,
    )
    assert result.label == "acceptable"
    assert rps.chance(base=16, forgo=True) == 1.0


@pytest.mark.parametrize("base", [-100, 2, 9, 200])
def test_the_gms_automatic_success_is_sl_one_without_dice_at_any_base(base: int) -> None:
    dice = ScriptedDice([])
    result = rps.check(dice, base=base, automatic=True)
    assert dice.used == 0 and result.faces == ()
    assert (result.success_level, result.success, result.granted) == (1, True, True)
    assert not result.critical and not result.automatic and not result.forgone
    assert rps.chance(base=base, automatic=True) == 1.0
    with pytest.raises(rps.RpsError, match="choose one"):
        rps.check(ScriptedDice([]), base=16, automatic=True, forgo=True)


def test_forgo_at_fifteen_is_refused() -> None:
    with pytest.raises(rps.RpsError, match="above 15"):
        rps.check(ScriptedDice([]), base=15, forgo=True)
    with pytest.raises(InputError):
        rps.chance(base=15, forgo=True)


@pytest.mark.parametrize(
    ("sl", "label"),
    [
        (-3, "failure"),
        (0, "bare failure"),
        (1, "acceptable"),
        (4, "acceptable"),
        (5, "good"),
        (9, "good"),
        (10, "impressive"),
        (14, "impressive"),
        (15, "spectacular"),
        (16, "miraculous"),
        (40, "miraculous"),
    ],
)
def test_reading_sl(sl: int, label: str) -> None:
    assert Reading.of(sl).label == label
    # And through a real roll (faces 5 + 5 take 10 off Base).
    assert roll(sl + 10, 5, 5).label == label


def test_the_order_is_die_one_then_die_two() -> None:
    result = roll(12, 2, 9)
    assert result.faces == (2, 9)
    assert result.roll == 11


# --- Bases and difficulties ---------------------------------------------------------


def test_attribute_and_skill_bases() -> None:
    assert rps.attribute_base(5) == 10
    assert rps.attribute_base(5, modifier=-2) == 8
    assert rps.attribute_base(5, difficulty="simple", modifier=3) == 23
    assert rps.skill_base(4, 6) == 10
    assert rps.skill_base(4, 6, difficulty="Beyond impossible") == -10


def test_difficulty_table_is_the_seed_table() -> None:
    table = {d.name: d.modifier for d in rps.DIFFICULTIES}
    assert len(table) == 18
    assert table["No way to fail"] == 20
    assert table["Difficult"] == 0
    assert table["Nearly impossible"] == -15
    assert table["Beyond impossible"] == -20
    modifiers = [d.modifier for d in rps.DIFFICULTIES]
    assert modifiers == sorted(modifiers, reverse=True)
    assert rps.difficulty("  tricky ").modifier == -2


def test_unknown_difficulty_names_the_choices() -> None:
    with pytest.raises(rps.RpsError, match="Rather tricky"):
        rps.difficulty("hard-ish")


@pytest.mark.parametrize(
    "call",
    [
        lambda: rps.check(ScriptedDice([1, 1]), base=201),
        lambda: rps.check(ScriptedDice([1, 1]), base=-101),
        lambda: rps.check(ScriptedDice([1, 1]), base=True),
        lambda: rps.check(ScriptedDice([1, 1]), base=3.5),
        lambda: rps.attribute_base(101),
        lambda: rps.skill_base(3, 4, modifier=500),
        lambda: rps.attribute_base(100, modifier=100),
        lambda: rps.chance(base=300),
    ],
)
def test_bounds_are_clear_value_errors(call) -> None:
    with pytest.raises(ValueError, match="must be"):
        call()


# --- Chance ---------------------------------------------------------------------------


def _counted(base: int) -> int:
    """Independent count straight from the rule text."""
    wins = 0
    for a in range(1, 11):
        for b in range(1, 11):
            if a == 1 and b == 1:
                wins += 1  # automatic or critical success, always SL >= 1
            elif a == 10 and b == 10:
                continue  # automatic or critical failure, never SL >= 1
            elif base - (a + b) >= 1:
                wins += 1
    return wins


@pytest.mark.parametrize("base", [-100, -5, 0, 2, 3, 4, 11, 12, 15, 19, 20, 21, 22, 50, 200])
def test_chance_matches_a_count_of_all_hundred_pairs(base: int) -> None:
    assert rps.chance(base=base) == pytest.approx(_counted(base) / 100, abs=1e-12)


def test_chance_matches_check_over_every_face_pair() -> None:
    for base in range(-2, 24):
        successes = sum(
            rps.check(ScriptedDice([a, b]), base=base).success
            for a in range(1, 11)
            for b in range(1, 11)
        )
        assert rps.chance(base=base) == successes / 100


# --- Resisted actions ------------------------------------------------------------------


def test_poker_example_highest_minus_second_highest() -> None:
    # Johnny -3, Franky 1, Richard -2 (seed 2.2.3).
    dice = ScriptedDice([6, 7, 4, 4, 5, 5])
    result = rps.resisted(dice, parties=[("Johnny", 10), ("Franky", 9), ("Richard", 8)])
    assert dice.remaining == 0
    assert [p.check.success_level for p in result.rounds[0]] == [-3, 1, -2]
    assert result.winner == "Franky"
    assert result.success_level == 3
    assert result.roll_offs == 0


def test_beer_example_negative_levels_can_still_win() -> None:
    dice = ScriptedDice([5, 5, 3, 3])
    result = rps.resisted(dice, parties=[("Franky", 5), ("Johnny", 5)])
    assert [p.check.success_level for p in result.rounds[0]] == [-5, -1]
    assert (result.winner, result.success_level) == ("Johnny", 4)


def test_ties_for_highest_roll_off_among_themselves_only() -> None:
    # Round 1: A 2, B 2, C -4. Round 2: only A and B roll: A -1, B 3.
    faces = [4, 4, 3, 5, 6, 8, 6, 5, 2, 5]
    dice = ScriptedDice(faces)
    result = rps.resisted(dice, parties=[("A", 10), ("B", 10), ("C", 10)])
    assert dice.remaining == 0
    assert len(result.rounds) == 2
    assert [p.name for p in result.rounds[1]] == ["A", "B"]
    assert [p.check.success_level for p in result.rounds[1]] == [-1, 3]
    assert result.winner == "B"
    assert result.success_level == 4  # decided in the roll-off round
    assert result.roll_offs == 1


def test_a_three_way_tie_can_narrow_to_two() -> None:
    # Round 1 all 5; round 2: A 5, B 5, C 1; round 3: B wins 6 vs 2.
    faces = [2, 3] * 3 + [2, 3, 2, 3, 4, 5] + [7, 1, 1, 3]
    dice = ScriptedDice(faces)
    result = rps.resisted(dice, parties=[("A", 10), ("B", 10), ("C", 10)])
    assert dice.remaining == 0
    assert [len(r) for r in result.rounds] == [3, 3, 2]
    assert (result.winner, result.success_level) == ("B", 4)


def test_a_tie_that_never_breaks_gives_up_after_twenty_rounds() -> None:
    dice = ScriptedDice([5, 5] * 3 * 20)  # all three tie in every round
    result = rps.resisted(dice, parties=[("A", 12), ("B", 12), ("C", 12)])
    assert dice.remaining == 0
    assert len(result.rounds) == rps.MAX_ROUNDS == 20
    assert result.winner is None
    assert result.success_level is None
    assert result.tied == ("A", "B", "C")


def test_resisted_uses_the_special_results() -> None:
    # A critical success (base 10: 8 + 5 = 13) beats a plain 7.
    dice = ScriptedDice([1, 1, 1, 2])
    result = rps.resisted(dice, parties=[("A", 10), ("B", 10)])
    assert result.rounds[0][0].check.special is Special.CRITICAL_SUCCESS
    assert (result.winner, result.success_level) == ("A", 6)


@pytest.mark.parametrize(
    ("parties", "message"),
    [
        ([("A", 10)], "2 to 25"),
        ([], "2 to 25"),
        ([("A", 10), ("a", 8)], "named twice"),
        ([("A", 10), (" ", 8)], "needs a name"),
        ([("A", 10), ("B", 500)], "between"),
        ([(f"P{i}", 10) for i in range(26)], "2 to 25"),
    ],
)
def test_resisted_refuses_bad_parties(parties, message: str) -> None:
    with pytest.raises(rps.RpsError, match=message):
        rps.resisted(ScriptedDice([5] * 100), parties=parties)


# --- Sustained actions ------------------------------------------------------------------


def test_sustained_completes_when_the_pool_reaches_the_goal() -> None:
    task = rps.start_sustained(goal=8)
    first = rps.sustained_check(ScriptedDice([3, 4]), task, base=12)  # SL 5
    assert (first.change, first.after.pool, first.after.status) == (5, 5, TaskStatus.IN_PROGRESS)
    assert first.before is task and task.pool == 0  # the old state is untouched
    second = rps.sustained_check(ScriptedDice([5, 6]), first.after, base=12)  # SL 1
    assert second.after.pool == 6
    third = rps.sustained_check(ScriptedDice([2, 8]), second.after, base=12)  # SL 2
    assert third.after.pool == 8
    assert third.after.status is TaskStatus.COMPLETE
    assert third.after.reason is None
    assert third.after.checks == 3
    assert third.after.remaining == 0
    with pytest.raises(rps.RpsError, match="already complete"):
        rps.sustained_check(ScriptedDice([2, 2]), third.after, base=12)


def test_sustained_failure_subtracts_one_or_nothing_with_no_loss() -> None:
    task = rps.start_sustained(goal=5)
    lost = rps.sustained_check(ScriptedDice([6, 6]), task, base=12)  # SL 0
    assert (lost.change, lost.after.pool) == (-1, -1)
    kept = rps.sustained_check(
        ScriptedDice([9, 9]), rps.start_sustained(goal=5, no_loss=True), base=12
    )
    assert (kept.change, kept.after.pool, kept.after.status) == (0, 0, TaskStatus.IN_PROGRESS)


def test_sustained_fails_when_the_pool_falls_below_minus_goal() -> None:
    task = rps.start_sustained(goal=2)
    for expected_pool in (-1, -2):
        task = rps.sustained_check(ScriptedDice([9, 9]), task, base=5).after
        assert (task.pool, task.status) == (expected_pool, TaskStatus.IN_PROGRESS)
    task = rps.sustained_check(ScriptedDice([9, 9]), task, base=5).after
    assert task.pool == -3
    assert task.status is TaskStatus.FAILED
    assert task.reason is FailureReason.POOL_EXHAUSTED


def test_sustained_fails_outright_on_a_critical_failure_even_with_no_loss() -> None:
    task = rps.start_sustained(goal=20, no_loss=True)
    task = rps.sustained_check(ScriptedDice([1, 2]), task, base=12).after  # SL 9
    step = rps.sustained_check(ScriptedDice([10, 10]), task, base=12)  # SL -8, fumble
    assert step.after.status is TaskStatus.FAILED
    assert step.after.reason is FailureReason.CRITICAL_FAILURE
    assert step.after.pool == 9  # no loss still applies to the pool itself


def test_an_automatic_failure_is_an_ordinary_miss_for_a_sustained_action() -> None:
    task = rps.start_sustained(goal=20)
    step = rps.sustained_check(ScriptedDice([10, 10]), task, base=25)
    assert step.check.special is Special.AUTOMATIC_FAILURE
    assert (step.after.pool, step.after.status) == (-1, TaskStatus.IN_PROGRESS)


def test_sustained_forgo_adds_one_per_check() -> None:
    task = rps.start_sustained(goal=2)
    task = rps.sustained_check(ScriptedDice([]), task, base=18, forgo=True).after
    task = rps.sustained_check(ScriptedDice([]), task, base=18, forgo=True).after
    assert (task.pool, task.status) == (2, TaskStatus.COMPLETE)


@pytest.mark.parametrize("goal", [0, -3, 1001, True])
def test_sustained_goal_bounds(goal) -> None:
    with pytest.raises(rps.RpsError, match="Goal Total"):
        rps.start_sustained(goal=goal)


@settings(max_examples=examples(200), deadline=None)
@given(base=st.integers(-100, 200), first=st.integers(1, 10), second=st.integers(1, 10))
def test_sl_is_base_minus_the_dice_unless_a_double_says_otherwise(base, first, second) -> None:
    result = roll(base, first, second)
    assert result.success is (result.success_level >= 1)
    assert result.reading is Reading.of(result.success_level)
    if (first, second) not in ((1, 1), (10, 10)):
        assert result.success_level == base - first - second
        assert result.special is None
    else:
        assert result.special is not None
        assert result.success is (first == 1)


def test_a_numeric_base_takes_difficulty_and_modifier() -> None:
    assert rps.modified_base(12, difficulty="Tricky", modifier=3) == 13
    with pytest.raises(rps.RpsError, match="Base must be between"):
        rps.modified_base(195, modifier=10)


def test_the_contract_names_are_fields() -> None:
    import dataclasses

    names = {f.name for f in dataclasses.fields(rps.CheckResult)}
    assert {"faces", "success_level", "success", "automatic", "critical", "label"} <= names


# --- Resisted chances ------------------------------------------------------------------------


def _sl_counts(base: int) -> dict[int, int]:
    """SL -> number of the 100 face pairs, straight from the rule text."""
    counts: dict[int, int] = {}
    for a in range(1, 11):
        for b in range(1, 11):
            sl = base - a - b
            if a == b == 1:
                sl = 1 if base <= 2 else sl + 5
            elif a == b == 10 and sl >= 1:
                sl = 0
            counts[sl] = counts.get(sl, 0) + 1
    return counts


@pytest.mark.parametrize("base", [-3, 2, 3, 12, 21])
def test_success_levels_match_the_rule_text(base: int) -> None:
    assert dict(rps.success_levels(base)) == {sl: n / 100 for sl, n in _sl_counts(base).items()}
    assert sum(p for sl, p in rps.success_levels(base) if sl >= 1) == pytest.approx(
        rps.chance(base=base), abs=1e-12
    )


@pytest.mark.parametrize(("a", "b"), [(10, 10), (12, 9), (3, 20), (-5, 30)])
def test_two_party_chances_are_a_geometric_series_of_roll_offs(a: int, b: int) -> None:
    ca, cb = _sl_counts(a), _sl_counts(b)
    win_a = sum(na * nb for x, na in ca.items() for y, nb in cb.items() if x > y) / 10_000
    win_b = sum(na * nb for x, na in ca.items() for y, nb in cb.items() if x < y) / 10_000
    tie = 1 - win_a - win_b
    rounds = rps.MAX_ROUNDS
    chances = rps.resisted_chances(parties=[("A", a), ("B", b)])
    assert chances is not None
    assert chances.wins["A"] == pytest.approx(win_a * (1 - tie**rounds) / (1 - tie), abs=1e-12)
    assert chances.wins["B"] == pytest.approx(win_b * (1 - tie**rounds) / (1 - tie), abs=1e-12)
    assert chances.tie == pytest.approx(tie**rounds, abs=1e-15)


def test_many_party_chances_match_a_seeded_sample() -> None:
    parties = [("A", 10), ("B", 12), ("C", 12), ("D", 7)]
    chances = rps.resisted_chances(parties=parties)
    assert chances is not None
    assert math.fsum([*chances.wins.values(), chances.tie]) == pytest.approx(1.0, abs=1e-12)
    dice = SeededDice("resisted")
    n = 3000
    wins = Counter(rps.resisted(dice, parties=parties).winner for _ in range(n))
    for name, p in chances.wins.items():
        sigma = math.sqrt(p * (1 - p) / n)
        assert abs(wins[name] / n - p) <= 5 * sigma + 1 / n


def test_identical_parties_win_equally_often() -> None:
    chances = rps.resisted_chances(parties=[(c, 12) for c in "ABCDE"])
    assert chances is not None
    assert all(p == pytest.approx(0.2, abs=1e-12) for p in chances.wins.values())


def test_no_chance_above_the_party_limit() -> None:
    parties = [(f"P{i}", 10) for i in range(rps.MAX_CHANCE_PARTIES + 1)]
    assert rps.resisted_chances(parties=parties) is None
