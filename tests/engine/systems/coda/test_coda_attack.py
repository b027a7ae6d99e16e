"""CODA combat exchanges: the defence after a hit, its TN, and what it may be (ScriptedDice)."""

from __future__ import annotations

from itertools import product

import pytest

from engine.dice import ScriptedDice
from engine.systems import coda
from engine.systems.coda import Defence, allowed, defence_tn, defend, defend_chance


def _attack(faces: list[int], modifier: int, defence: int) -> coda.TestResult:
    return coda.test(ScriptedDice(faces), modifier=modifier, tn=defence)


def test_marginal_success_hits_and_failure_misses() -> None:
    assert _attack([3, 2], 5, 10).success  # 10 vs 10: Marginal Success
    assert not _attack([3, 1], 5, 10).success  # 9 vs 10


def test_the_defence_tests_against_the_attacks_result() -> None:
    hit = _attack([6, 6, 2], 3, 12)  # rolling 6s: 14 + 3 = 17
    assert defence_tn(hit) == 17
    avoided = defend(ScriptedDice([6, 5]), hit, modifier=6)  # 17 vs 17: Marginal Success
    assert avoided.tn == 17 and avoided.success
    failed = defend(ScriptedDice([6, 4]), hit, modifier=6)  # 16
    assert not failed.success


def test_the_defence_tn_stays_within_codas_bounds() -> None:
    assert defence_tn(_attack([6, 5], 100, 50)) == coda.TN_MAX
    assert defence_tn(_attack([1, 1], -100, 1)) == coda.TN_MIN


def test_the_rolling_ones_rule_applies_to_the_defence() -> None:
    hit = _attack([3, 3], 0, 5)
    capped = defend(ScriptedDice([1, 1]), hit, modifier=20, ones="failure")
    assert not capped.success


@pytest.mark.parametrize(("modifier", "attack_total"), [(0, 7), (3, 12), (-2, 4), (5, 17)])
def test_defend_chance_is_exact(modifier: int, attack_total: int) -> None:
    """Against an independent count of two dice (plus the 1/36 rolling-6s tail on 12)."""
    hit = _attack([6, 6, 1], attack_total - 13, 1)
    assert hit.total == attack_total
    need = attack_total - modifier
    counted = sum(1 for a, b in product(range(1, 7), repeat=2) if a + b >= need and a + b != 12)
    # 6+6 rolls on: 12 + at least 1 ≥ need whenever need ≤ 13; beyond, the tail is tiny.
    assert need <= 13
    expected = (counted + 1) / 36
    assert defend_chance(hit, modifier=modifier) == pytest.approx(expected)


def test_only_dodge_against_a_ranged_attack() -> None:
    assert allowed(ranged=True) == (Defence.DODGE, Defence.TAKE)
    assert allowed(ranged=False) == (Defence.DODGE, Defence.PARRY, Defence.TAKE)
    assert [d.label for d in Defence] == ["Dodge", "Parry", "Take it"]
