"""Hogwarts 1990 attacks (RULES.md §2): the attack roll, the dodge's defended roll, damage."""

from __future__ import annotations

from itertools import product

import pytest

from engine.dice import ScriptedDice
from engine.systems import hogwarts1990 as h90


def test_an_attack_hits_when_it_reaches_the_difficulty() -> None:
    hit = h90.attack(ScriptedDice([4, 11]), bonus=2, difficulty=13)
    assert (hit.kept, hit.total, hit.success) == (11, 13, True)
    miss = h90.attack(ScriptedDice([4, 10]), bonus=2, difficulty=13)
    assert miss.success is False
    stress = h90.attack(ScriptedDice([4, 11]), bonus=2, difficulty=13, stress=True)
    assert (stress.kept, stress.success) == (4, False)  # a stress roll keeps the lower die


def test_a_dodge_raises_the_difficulty_by_the_dodgers_attributes() -> None:
    hit = h90.attack(ScriptedDice([4, 11]), bonus=2, difficulty=10)
    assert hit.success
    assert h90.dodged_difficulty(10, [3]) == 13
    assert h90.dodged_difficulty(10, [3, 2]) == 15
    judged = h90.defend(ScriptedDice([]), hit, [3])  # 13 vs 13: still a hit
    assert (judged.difficulty, judged.success, judged.faces) == (13, True, (4, 11))
    avoided = h90.defend(ScriptedDice([]), hit, [4])  # 13 vs 14: the dodge works
    assert avoided.success is False


def test_doubles_are_judged_again_against_the_defended_difficulty() -> None:
    hit = h90.attack(ScriptedDice([9, 9]), bonus=3, difficulty=10)
    assert hit.exceptional  # doubles on a success
    judged = h90.defend(ScriptedDice([]), hit, [5])  # 12 vs 15
    assert judged.success is False and judged.critical_failure


def test_advantage_kept_on_the_attack_is_used_when_the_dodge_makes_it_fail() -> None:
    # 15 + 0 vs 12 succeeds: the player keeps it (no reroll drawn).
    hit = h90.attack(ScriptedDice([3, 15]), bonus=0, difficulty=12, advantage=True)
    assert hit.advantage_kept and hit.faces == (3, 15)
    # Raised to 17 it fails: the lower die (3) is rerolled now, drawing one die: 18.
    dice = ScriptedDice([18])
    judged = h90.defend(dice, hit, [5])
    assert dice.used == 1
    assert judged.advantage_used and judged.dice == (18, 15) and judged.success
    # A reroll that does not help: still a miss.
    assert h90.defend(ScriptedDice([2]), hit, [5]).success is False


def test_an_advantage_already_used_is_replayed_not_drawn_again() -> None:
    hit = h90.attack(ScriptedDice([3, 5, 16]), bonus=0, difficulty=12, advantage=True)
    assert hit.advantage_used and hit.total == 16
    judged = h90.defend(ScriptedDice([]), hit, [4])  # 16 vs 16: the same reroll stands
    assert judged.faces == (3, 5, 16) and judged.success
    assert h90.defend(ScriptedDice([]), hit, [5]).success is False


def test_defend_chance_is_exact() -> None:
    """Count every fresh reroll independently and compare with the module's figure."""
    for faces, bonus, difficulty, raise_by, stress in [
        ((3, 15), 0, 12, 5, False),
        ((3, 15), 2, 12, 1, False),
        ((15, 15), 0, 12, 5, False),
        ((17, 14), 1, 5, 2, True),
        ((6, 19), 0, 5, 9, True),
    ]:
        hit = h90.attack(
            ScriptedDice(faces), bonus=bonus, difficulty=difficulty, stress=stress, advantage=True
        )
        if not hit.success:
            continue
        misses = 0
        for new in range(1, 21):
            judged = h90.defend(ScriptedDice([new]), hit, [raise_by])
            misses += judged.success is False
        assert h90.defend_chance(hit, [raise_by]) == pytest.approx(misses / 20)
    plain = h90.attack(ScriptedDice([4, 11]), bonus=2, difficulty=10)
    assert h90.defend_chance(plain, [3]) == 0.0
    assert h90.defend_chance(plain, [4]) == 1.0


def test_defend_chance_averaged_over_every_attack_is_the_defended_rolls_miss_chance() -> None:
    """Over all first dice, P(a hit becomes a miss) = P(hit) − P(defended hit)."""
    bonus, difficulty, raise_by = 1, 11, 4
    for advantage in (False, True):
        total = 0.0
        for first, second in product(range(1, 21), repeat=2):
            roll = h90.attack(
                ScriptedDice([first, second, 1]),
                bonus=bonus,
                difficulty=difficulty,
                advantage=advantage,
            )
            weight = 1 / 400
            if roll.advantage_used:  # the reroll that made it a hit has its own 1/20
                for new in range(1, 21):
                    again = h90.attack(
                        ScriptedDice([first, second, new]),
                        bonus=bonus,
                        difficulty=difficulty,
                        advantage=True,
                    )
                    if again.success:
                        total += weight / 20 * h90.defend_chance(again, [raise_by])
                continue
            if roll.success:
                total += weight * h90.defend_chance(roll, [raise_by])
        expected = h90.chance(bonus=bonus, difficulty=difficulty, advantage=advantage) - h90.chance(
            bonus=bonus, difficulty=difficulty + raise_by, advantage=advantage
        )
        assert total == pytest.approx(expected)


def test_bounds() -> None:
    with pytest.raises(h90.H90Error):
        h90.dodged_difficulty(10, [])
    with pytest.raises(h90.H90Error):
        h90.dodged_difficulty(10, [1, 1, 1, 1, 1])
    with pytest.raises(h90.H90Error):
        h90.dodged_difficulty(190, [20])  # above the difficulty's bound
    with pytest.raises(h90.H90Error):
        h90.check_damage(0)
    with pytest.raises(h90.H90Error):
        h90.check_damage(True)  # type: ignore[arg-type]
    assert h90.check_damage(h90.DAMAGE_MAX) == h90.DAMAGE_MAX
    no_difficulty = h90.roll(ScriptedDice([3, 4]))
    with pytest.raises(h90.H90Error):
        h90.defend(ScriptedDice([]), no_difficulty, [1])


def test_health_stops_at_zero_and_zero_is_knocked_out() -> None:
    assert h90.health_after(5, 1) == 4
    assert h90.health_after(1, 3) == 0
    assert h90.health_after(-2, 1) == -2  # never raised by a hit
    assert h90.knocked_out(0) and not h90.knocked_out(1)


def test_answers_have_labels() -> None:
    assert [a.label for a in h90.Answer] == ["Dodge", "Dodges for them", "Take it"]
