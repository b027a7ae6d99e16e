"""Generic notation through d20, drawn from our Dice, within the limits."""

from __future__ import annotations

import random
import re
from unittest import mock

import d20
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dice import ScriptedDice, SeededDice
from engine.notation import (
    MAX_DICE,
    MAX_EXPRESSION_LENGTH,
    MAX_SIDES,
    MAX_TOKENS,
    RollError,
    parse,
    roll_expression,
)
from engine.notation import _budget as roll_budget
from tests.hypothesis_profiles import examples


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
        ("1000001d6", "1000001d6: at most 250 dice per roll"),
        ("251d6", "251d6: at most 250 dice per roll"),
        ("200d6 + 200d6", "at most 250 dice per roll"),
        ("1d1001", "1d1001: dice have 1 to 1000 sides"),
        ("2d0", "dice have 1 to 1000 sides"),
        ("1d1e1", "`e1` matches every face, so it would reroll or explode forever"),
        ("1d2e>0", "matches every face"),
        ("4d6rrh1", "matches every face"),
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
    assert parse("1" + "+1" * ((MAX_TOKENS - 1) // 2))
    assert parse("1d20 " + "a" * (MAX_EXPRESSION_LENGTH - 5))
    with pytest.raises(RollError, match="at most 100 are allowed"):
        parse("1" + "+1" * (MAX_TOKENS // 2))


@settings(max_examples=examples(300), deadline=None)
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


@settings(max_examples=examples(300), deadline=None)
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


# What players type (docs/decisions/fair-use.md): read as meant or refused; no label hides dice.


@pytest.mark.parametrize(
    ("typed", "understood", "faces", "total"),
    [
        ("1D20+2", "1d20+2", [7], 9),
        ("2D6+3", "2d6+3", [1, 6], 10),
        ("2 d6", "2d6", [2, 3], 5),
        ("2 D 6 + 1", "2d6 + 1", [2, 3], 6),
        ("3d6!", "3d6e6", [6, 2, 3, 4], 15),  # the 6 explodes into a 4
        ("1d6x1000", "1d6*1000", [4], 4000),
        ("2d6 × 3", "2d6 * 3", [1, 2], 9),
        ("1d20 adv", "2d20kh1", [5, 17], 17),
        ("1d20+5 dis to hit", "2d20kl1+5", [5, 17], 10),
        ("d20 advantage", "2d20kh1", [3, 4], 4),
    ],
)
def test_common_spellings_roll_what_they_say(
    typed: str, understood: str, faces: list[int], total: int
) -> None:
    dice = ScriptedDice(faces)
    roll = roll_expression(dice, typed)
    assert (roll.expression, roll.total) == (understood, total)
    assert dice.remaining == 0


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("1d20 x3", "as a label, but it starts like dice.*To multiply, write `\\*`"),
        ("1d20 2nd attack", "I read the dice as `1d20` and the rest, `2nd attack`"),
        ("1d20 d6", "drops the lowest 6 dice .*which leaves none"),
        ("3 2d6", "one total is needed here"),
        ("1d20 +", "is not dice notation"),
        ("2d20 adv", "needs exactly one plain `d20`"),
        ("2d6 adv", "needs exactly one plain `d20`"),
        ("1d20 kh1x", "the rest, `kh1x`"),
    ],
)
def test_dice_like_text_is_never_a_label(typed: str, message: str) -> None:
    with pytest.raises(RollError, match=message):
        roll_expression(SeededDice(1), typed)


def test_annotations_are_plain_words() -> None:
    assert "[fire]" in roll_expression(ScriptedDice([3]), "1d20 [fire] + 2").breakdown
    with pytest.raises(RollError, match="plain words only"):
        roll_expression(ScriptedDice([3]), "1d20 [<@1> **x**] + 2")


def test_words_are_still_labels() -> None:
    roll = roll_expression(ScriptedDice([3]), "1d20 Dagger (sneak) + 2")
    assert roll.comment == "Dagger (sneak) + 2"
    assert roll.total == 3


_DICE_LIKE_START = re.compile(
    r"[\d+\-*/×%!<>=(),.\[\]^]|d\d|d%|x\d|[kp][hl<>]?\d|r[rao][hl<>]?\d|e[hl<>]?\d|m[ai]\d|"
    r"(adv|dis)",
    re.IGNORECASE,
)


@settings(max_examples=examples(400), deadline=None)
@given(
    st.text(alphabet="0123456789dDkKhlpe!xX×+-*/ ()<>adivs%,", max_size=30),
)
def test_any_string_rolls_what_it_says_or_is_refused(text: str) -> None:
    """Built from the characters of dice and operators: a roll's label never starts with one,
    unless the player asked for one: a comment after `` !`` or ``#`` (``2d6 ! 6 tries``) or a
    leading ``(Label)`` is free text."""
    try:
        roll = roll_expression(SeededDice(5), text)
    except RollError:
        return
    asked = re.search(r"(^|\s)[!#]", text) is not None or text.lstrip().startswith("(")
    assert asked or roll.comment is None or not _DICE_LIKE_START.match(roll.comment.strip())
    assert len(roll.faces) <= MAX_DICE


# The work budget (docs/decisions/fair-use.md): at most BUDGET steps a roll, checked before rolling.


@pytest.mark.parametrize(
    "hostile",
    [
        "1000d1000kh999kh999kh999",
        "250d1000kh1kh1",
        "250d1000k>1k>1k>1k>1k>1k>1k>1k>1k>1k>1k>1k>1k>1",
        "200d2e2",
        "100d6e>1",
        "250d2rr1",
        "(" + ",".join(["9d1000"] * 25) + ")kh1kl1kh1kl1kh1kl1kh1kl1",
    ],
)
def test_costly_expressions_are_refused_before_any_die(hostile: str) -> None:
    dice = ScriptedDice([])
    with pytest.raises(RollError, match=r"too much work for one roll|at most 250 dice"):
        roll_expression(dice, hostile)
    assert dice.used == 0


def test_the_refusal_names_what_to_shorten() -> None:
    with pytest.raises(RollError) as refused:
        roll_expression(SeededDice(1), "1d20 + 240d1000kh1kh1 ambush")
    assert "`240d1000kh1kh1` is too much work" in str(refused.value)
    assert "fewer dice" in str(refused.value)


def test_keep_selects_once_and_keeps_d20s_result() -> None:
    # Ties keep the first in order, as d20 does: the second 6 is dropped.
    roll = roll_expression(ScriptedDice([6, 2, 6, 1]), "4d6kh1")
    assert roll.total == 6
    assert roll.breakdown.count("~~") == 6  # three dice struck out


def test_an_unlucky_chain_is_stopped_by_the_meter() -> None:
    # 1d1000e>1 is expected to explode ~1000 times; estimated over budget…
    with pytest.raises(RollError, match="too much work"):
        roll_expression(ScriptedDice([]), "1d1000e>1")
    # …while 1d20e>10 is fine on average, but a long run of high faces is cut short.
    with pytest.raises(RollError, match="stopped before it finished"):
        roll_expression(ScriptedDice([20] * 250), "1d20e>10")


def test_the_dice_count_stops_a_chain_of_explosions() -> None:
    """Past MAX_DICE dice drawn, rerolls and explosions included, the roll stops before the
    next die is drawn (d20's count, kept by our metered context)."""
    dice = ScriptedDice([6] * 300)
    with pytest.raises(RollError, match="at most 250 dice per roll, rerolls and explosions"):
        roll_expression(dice, "200d6e6")
    assert dice.used == MAX_DICE


_selector = st.builds(
    lambda cat, n: f"{cat}{n}", st.sampled_from(["", "h", "l", "<", ">"]), st.integers(0, 30)
)
_operator = st.builds(
    lambda op, sel: f"{op}{sel}",
    st.sampled_from(["k", "p", "rr", "ro", "ra", "e", "mi", "ma"]),
    _selector,
)


def _dice_term() -> st.SearchStrategy[str]:
    return st.builds(
        lambda n, s, ops: f"{n}d{s}{''.join(ops)}",
        st.integers(1, 300),
        st.sampled_from([1, 2, 4, 6, 10, 20, 100, 1000]),
        st.lists(_operator, max_size=4),
    )


_terms = st.recursive(
    st.one_of(_dice_term(), st.integers(0, 100).map(str)),
    lambda inner: st.one_of(
        st.builds(lambda a, op, b: f"{a} {op} {b}", inner, st.sampled_from("+-*/"), inner),
        st.builds(
            lambda items, ops: f"({', '.join(items)}){''.join(ops)}",
            st.lists(inner, min_size=1, max_size=8),
            st.lists(_operator.filter(lambda o: o[0] in "kp"), max_size=4),
        ),
        inner.map(lambda t: f"({t})"),
    ),
    max_leaves=12,
)


@pytest.mark.slow  # seconds; make check runs it
@settings(max_examples=examples(300), deadline=None)
@given(_terms)
def test_the_whole_grammar_rolls_within_budget_or_is_refused(expression: str) -> None:
    """Accepted rolls stay cheap: the work a roll spends, counted in the budget's steps,
    never exceeds BUDGET (benchmarks/abuse.py checks that BUDGET steps take well under 5 ms
    of CPU; a test counts the work instead of timing it, which would depend on the load)."""
    meters: list[roll_budget.Meter] = []

    class RecordedMeter(roll_budget.Meter):
        __slots__ = ()

        def __init__(self) -> None:
            super().__init__()
            meters.append(self)

    with mock.patch.object(roll_budget, "Meter", RecordedMeter):
        try:
            roll = roll_expression(SeededDice(7), expression)
        except RollError:
            return
    assert len(roll.faces) <= MAX_DICE
    (meter,) = meters
    assert meter.spent <= roll_budget.BUDGET
    assert meter.spent >= roll_budget.DIE_STEPS * len(roll.faces)  # every die was charged
