"""Penalty pools (RULES.md §5): levels, gains, recoveries that stop at 0, rest."""

from __future__ import annotations

import pytest

from engine import penalty
from engine.errors import InputError
from engine.penalty import PenaltyLevel


@pytest.mark.parametrize(
    ("count", "level"),
    [
        (0, PenaltyLevel.NONE),
        (1, PenaltyLevel.DISTRACTED),
        (3, PenaltyLevel.DISTRACTED),
        (4, PenaltyLevel.SHAKEN),
        (6, PenaltyLevel.SHAKEN),
        (7, PenaltyLevel.STRESSED),
        (9, PenaltyLevel.STRESSED),
        (10, PenaltyLevel.BROKEN),
        (999, PenaltyLevel.BROKEN),
    ],
)
def test_levels(count: int, level: PenaltyLevel) -> None:
    assert penalty.level_of(count) is level


def test_level_labels_in_order() -> None:
    assert [level.label for level in PenaltyLevel] == [
        "none",
        "distracted",
        "shaken",
        "stressed",
        "broken",
    ]
    assert [level.rank for level in PenaltyLevel] == [0, 1, 2, 3, 4]


def test_add_reports_a_level_change() -> None:
    change = penalty.add(3, 1)
    assert (change.before, change.after, change.delta, change.requested) == (3, 4, 1, 1)
    assert change.level_changed and change.worse
    assert (change.level_before, change.level_after) == (
        PenaltyLevel.DISTRACTED,
        PenaltyLevel.SHAKEN,
    )
    same = penalty.add(4, 2)
    assert not same.level_changed


def test_recover_never_goes_below_zero() -> None:
    change = penalty.recover(2, 5)
    assert (change.after, change.delta, change.requested) == (0, -2, -5)
    assert change.level_changed and not change.worse
    assert penalty.recover(0, 1).after == 0
    assert not penalty.recover(0, 1).level_changed


@pytest.mark.parametrize(
    ("hours", "recovered"),
    [(0, 0), (2, 0), (2.99, 0), (3, 1), (5.5, 1), (8, 2), (9, 3), (24, 8)],
)
def test_rest_recovers_one_per_three_full_hours(hours: float, recovered: int) -> None:
    assert penalty.rest_recovery(hours) == recovered
    assert penalty.rest(20, hours).after == 20 - recovered


def test_rest_stops_at_zero() -> None:
    change = penalty.rest(2, 24)
    assert (change.after, change.delta, change.requested) == (0, -2, -8)


@pytest.mark.parametrize(
    "call",
    [
        lambda: penalty.add(0, 0),
        lambda: penalty.add(0, -1),
        lambda: penalty.add(0, True),
        lambda: penalty.add(0, 101),
        lambda: penalty.add(-1, 1),
        lambda: penalty.recover(3, 0),
        lambda: penalty.rest(3, -1),
        lambda: penalty.rest(3, float("nan")),
        lambda: penalty.rest(3, 10**9),
        lambda: penalty.rest(3, "8"),
    ],
)
def test_bad_changes_are_refused_with_a_message(call) -> None:
    with pytest.raises(InputError, match="must be"):
        call()


def test_the_pool_has_a_ceiling() -> None:
    with pytest.raises(penalty.PenaltyError, match="at most 999"):
        penalty.add(950, 50)
