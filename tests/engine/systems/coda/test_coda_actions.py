"""CODA's actions per round (RULES.md §1, Tables 9-9 to 9-11): costs, penalties, tests."""

from __future__ import annotations

import pytest

from engine.systems.coda import ACTIONS, CUSTOM, TEST_ACTIONS, CodaError, Kind, find_action, spend


def test_the_tables_costs_are_rules_md_s() -> None:
    costs = {a.name: (a.kind, a.cost) for a in ACTIONS}
    assert costs["Walk"] == (Kind.MOVEMENT, 1)
    assert costs["Run"] == (Kind.MOVEMENT, 2)
    assert costs["Sprint"][0] is Kind.FULL_ROUND
    for free in ("Command", "Drop Object", "Target", "Warn/Alert"):
        assert costs[free] == (Kind.FREE, 0)
    for full in ("Hide", "Inspirational Speech", "Perform Healing", "Repair Weapon", "Search"):
        assert costs[full][0] is Kind.FULL_ROUND
    assert find_action("  drop   PRONE ") is not None
    assert find_action("juggle") is None


@pytest.mark.parametrize(
    ("spent", "action", "penalty", "test"),
    [
        (0, "Walk", 0, None),
        (1, "Walk", 0, None),
        (2, "Walk", 5, "Nimbleness"),  # a 3rd Walk: TN 5 Nimbleness (RULES.md's example)
        (3, "Climb", 10, "Nimbleness"),
        (1, "Run", 5, "Nimbleness"),  # the 2nd and 3rd: the larger penalty
        (0, "Run", 0, None),
    ],
)
def test_penalties_beyond_the_allowance(spent, action, penalty, test) -> None:
    cost = spend(spent=spent, allowance=2, action=action)
    assert cost.penalty == penalty
    assert cost.attribute_test == test


def test_a_surprised_combatant_has_one_action_in_round_1() -> None:
    cost = spend(spent=1, allowance=1, action="Walk")
    assert (cost.penalty, cost.left, cost.next_penalty) == (5, 0, 10)


def test_free_actions_cost_nothing_even_beyond_the_allowance() -> None:
    cost = spend(spent=4, allowance=2, action="Command")
    assert (cost.slots, cost.penalty, cost.spent_after) == (0, 0, 4)


def test_full_round_actions_take_the_round_and_are_never_further_actions() -> None:
    hide = spend(spent=0, allowance=2, action="Hide")
    assert hide.full_round and hide.slots == 2 and hide.own_test == "Stealth"
    assert (hide.left, hide.next_penalty) == (0, 5)
    with pytest.raises(CodaError, match="full-round action"):
        spend(spent=1, allowance=2, action="Sprint")


def test_custom_actions_and_cost_overrides() -> None:
    custom = spend(spent=2, allowance=2, action="juggle", cost=2)
    assert (custom.action, custom.penalty, custom.attribute_test) == ("juggle", 10, CUSTOM)
    assert spend(spent=0, allowance=2, action=CUSTOM).slots == 1
    with pytest.raises(CodaError, match="At most 10"):
        spend(spent=9, allowance=2, action="Run")
    with pytest.raises(CodaError, match="costs 0 to 10"):
        spend(spent=0, allowance=2, action="Walk", cost=11)


def test_attacks_defences_and_tests_are_one_action_with_their_own_test() -> None:
    """RULES.md §1: each is an action; beyond the allowance its own test takes the penalty
    (no attribute test is asked for)."""
    for name in TEST_ACTIONS:
        assert find_action(name.upper()).kind is Kind.TEST
        first = spend(spent=0, allowance=2, action=name)
        assert (first.slots, first.penalty, first.attribute_test) == (1, 0, None)
        third = spend(spent=2, allowance=2, action=name)
        assert (third.first, third.penalty, third.attribute_test) == (3, 5, None)
        assert third.own_test
    surprised = spend(spent=1, allowance=1, action="Dodge")
    assert (surprised.penalty, surprised.left, surprised.next_penalty) == (5, 0, 10)
