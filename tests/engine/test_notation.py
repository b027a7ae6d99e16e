"""Generic notation through d20, drawn from our Dice, within the limits."""

from __future__ import annotations

import random

import d20
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dice import ScriptedDice, SeededDice
from engine.notation import (
    MAX_DICE,
    MAX_EXPRESSION_LENGTH,
    MAX_SIDES,
    RollError,
    parse,
    roll_expression,
)


def test_draws_come_from_our_dice_source() -> None:
    roll = roll_expression(ScriptedDice([6, 2, 5, 1]), "4d6kh3 + 2")
    assert roll.total == 6 + 5 + 2 + 2
    assert roll.faces == (6, 2, 5, 1)
    assert "~~**1**~~" in roll.breakdown  # the dropped lowest die


@pytest.mark.parametrize(
    ("expression", "faces", "total"),
    [
        ("1d20", [17], 17),
        ("2d6+3", [1, 6], 10),
        ("4d6kl1", [5, 2, 6, 3], 2),
        ("3d6e6", [6, 6, 2, 3, 4], 21),  # the two 6s explode into 2 and... then 3, 4
        ("2d6ro1", [1, 4, 6], 10),  # the 1 is rerolled once into a 6
        ("2d6rr1", [1, 1, 1, 5, 3], 8),  # rerolled until it is not a 1
        ("2d6mi3", [1, 5], 8),  # minimum 3
        ("2d6ma4", [6, 2], 6),  # maximum 4
        ("1d20 + 1d4 ambush", [12, 4], 16),
    ],
)
def test_notation_features_with_scripted_faces(
    expression: str, faces: list[int], total: int
) -> None:
    dice = ScriptedDice(faces)
    assert roll_expression(dice, expression).total == total
    assert dice.remaining == 0  # exactly the scripted faces were drawn


def test_comments_are_kept() -> None:
    assert roll_expression(ScriptedDice([3]), "1d20 sneak attack").comment == "sneak attack"


def test_percentile_dice_use_the_source() -> None:
    assert roll_expression(ScriptedDice([10]), "1d%").total == 90


def test_outside_our_rolls_d20_keeps_its_own_randomness() -> None:
    random.seed(5)
    expected = d20.roll("10d20").total
    random.seed(5)
    assert d20.roll("10d20").total == expected


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("1000001d6", "1000001d6: at most 1000 dice per roll"),
        ("1001d6", "1001d6: at most 1000 dice per roll"),
        ("600d6 + 600d6", "at most 1000 dice per roll"),
        ("1d1001", "1d1001: dice have 1 to 1000 sides"),
        ("2d0", "dice have 1 to 1000 sides"),
        ("1d1e1", "at most 1000 dice per roll, rerolls and explosions included"),
        ("", "The expression is empty"),
        ("x" * 301, "at most 300 are allowed"),
        ("two dice", "is not dice notation"),
        ("1d6 / 0", "divide by zero"),
    ],
)
def test_limits_and_bad_input_give_clear_messages(expression: str, message: str) -> None:
    with pytest.raises(RollError, match=message):
        roll_expression(SeededDice(1), expression)


def test_limits_are_inclusive() -> None:
    assert len(roll_expression(SeededDice(1), f"{MAX_DICE}d{MAX_SIDES}").faces) == MAX_DICE
    assert parse("1" + "+1" * ((MAX_EXPRESSION_LENGTH - 1) // 2))


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_any_text_rolls_within_limits_or_raises_roll_error(text: str) -> None:
    try:
        roll = roll_expression(SeededDice(3), text)
    except RollError:
        return
    assert len(roll.faces) <= MAX_DICE
    assert all(0 <= face <= MAX_SIDES for face in roll.faces)


_atoms = st.one_of(
    st.integers(0, 2000).map(str),
    st.builds(lambda n, s: f"{n}d{s}", st.integers(0, 1500), st.integers(0, 1200)),
    st.builds(
        lambda n, s, op, k: f"{n}d{s}{op}{k}",
        st.integers(1, 40),
        st.integers(1, 20),
        st.sampled_from(["kh", "kl", "ph", "pl", "e", "ro", "rr", "ra", "mi", "ma"]),
        st.integers(0, 25),
    ),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_atoms, min_size=1, max_size=6), st.lists(st.sampled_from("+-*/"), max_size=5))
def test_any_dice_expression_rolls_within_limits_or_raises_roll_error(
    atoms: list[str], operators: list[str]
) -> None:
    expression = atoms[0]
    for operator, atom in zip(operators, atoms[1:], strict=False):
        expression += f" {operator} {atom}"
    try:
        roll = roll_expression(SeededDice(11), expression)
    except RollError:
        return
    assert len(roll.faces) <= MAX_DICE
    assert isinstance(roll.total, int)
