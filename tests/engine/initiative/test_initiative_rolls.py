"""Initiative rolls per system, each pinned with ScriptedDice in its system's draw order."""

from __future__ import annotations

import pytest

from engine.dice import ScriptedDice
from engine.errors import InputError
from engine.initiative import InitiativeError
from engine.initiative.rolls import (
    canonical_system,
    coda_initiative,
    d20_initiative,
    hogwarts1990_initiative,
    roll_initiative,
)


def test_hogwarts_standard_roll_keeps_the_higher_die_plus_finesse():
    rolled = hogwarts1990_initiative(ScriptedDice([7, 14]), finesse=3)
    assert (rolled.total, rolled.faces, rolled.stress) == (17, (7, 14), False)
    assert rolled.detail == "2d20 (7, 14) keep higher 14 + 3"


def test_hogwarts_stress_roll_for_the_surprised_keeps_the_lower():
    rolled = roll_initiative(ScriptedDice([7, 14]), system="hogwarts1990", modifier=3, stress=True)
    assert (rolled.total, rolled.method, rolled.stress) == (10, "h90", True)


def test_hogwarts_doubles_mean_nothing_for_initiative():
    rolled = hogwarts1990_initiative(ScriptedDice([1, 1]), finesse=-2)
    assert rolled.total == -1
    assert rolled.detail == "2d20 (1, 1) keep higher 1 − 2"


def test_coda_2d6_plus_modifier():
    rolled = coda_initiative(ScriptedDice([4, 3]), modifier=2)
    assert (rolled.total, rolled.faces) == (9, (4, 3))
    assert rolled.detail == "2d6 (4, 3) + 2"


def test_coda_rolling_sixes_add_every_extra_die():
    dice = ScriptedDice([6, 6, 6, 3])
    rolled = roll_initiative(dice, system="coda", modifier=-1)
    assert (rolled.total, rolled.faces) == (20, (6, 6, 6, 3))
    assert "rolling 6s" in rolled.detail
    assert dice.remaining == 0


def test_coda_one_six_does_not_roll_on():
    dice = ScriptedDice([6, 5])
    rolled = coda_initiative(dice)
    assert rolled.total == 11
    assert rolled.detail == "2d6 (6, 5)"  # no "+ 0" for a zero modifier
    assert dice.remaining == 0


@pytest.mark.parametrize("system", ["infinity", "rps", "drama", None, "generic"])
def test_other_systems_roll_1d20_plus_modifier(system):
    rolled = roll_initiative(ScriptedDice([13]), system=system, modifier=4)
    assert (rolled.total, rolled.method, rolled.detail) == (17, "d20", "1d20 (13) + 4")


def test_notation_overrides_the_system_and_adds_the_modifier():
    rolled = roll_initiative(ScriptedDice([2, 5]), system="coda", expression="2d8", modifier=1)
    assert (rolled.total, rolled.faces, rolled.method) == (8, (2, 5), "notation")
    # d20's own "= `7`" is dropped: the tracker shows the total once ("… = **8**").
    assert rolled.detail == "2d8 (2, 5) + 1"
    single = roll_initiative(ScriptedDice([48]), system=None, expression="1d100")
    assert single.detail == "1d100 (48)"


def test_bad_notation_is_an_input_error():
    with pytest.raises(InputError):
        roll_initiative(ScriptedDice([]), system="coda", expression="2d")


def test_stress_is_a_hogwarts_rule_only():
    with pytest.raises(InitiativeError, match="Hogwarts"):
        roll_initiative(ScriptedDice([3]), system="coda", stress=True)


@pytest.mark.parametrize("modifier", [101, -101, True])
def test_modifier_bounds(modifier):
    with pytest.raises(InitiativeError):
        d20_initiative(ScriptedDice([1]), modifier=modifier)


def test_system_aliases():
    assert canonical_system("H90") == canonical_system("Hogwarts1990") == "h90"
    assert canonical_system(" CODA ") == "coda"
    assert canonical_system(None) == ""


def test_hogwarts_bonus_bounds_are_an_initiative_error():
    with pytest.raises(InitiativeError, match="Finesse bonus must be between -50 and 100"):
        roll_initiative(ScriptedDice([1, 2]), system="h90", modifier=-60)
