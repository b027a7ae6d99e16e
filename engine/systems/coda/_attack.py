"""CODA combat exchanges (RULES.md §1 "Combat", seed 000 ch. 9): attack, defence, damage.

An attack is a combat skill test against the defender's Defence; Marginal Success or better
hits. The defender may then make an opposed Dodge test (or Parry/Block, against melee only)
with TN = the attack's result: Marginal Success or better avoids the damage. Otherwise the
weapon's damage (Nd6 + modifier, rolling 6s) is dealt. Order: the attack's dice, then the
defence's, then the damage's, so a :class:`~engine.dice.ScriptedDice` pins an exchange.
The attack itself is an ordinary :func:`engine.systems.coda.test` (TN = Defence; it hits
when it succeeds); this module adds what follows it.
"""

from __future__ import annotations

import enum

from engine.dice import Dice
from engine.systems.coda._degrees import TN_MAX, TN_MIN
from engine.systems.coda._result import TestResult
from engine.systems.coda._single import chance, test


class Defence(enum.Enum):
    """What the defender does once hit."""

    DODGE = "dodge"
    PARRY = "parry"
    TAKE = "take"

    @property
    def label(self) -> str:
        return {"dodge": "Dodge", "parry": "Parry", "take": "Take it"}[self.value]


def allowed(*, ranged: bool) -> tuple[Defence, ...]:
    """The defences open against an attack: only Dodge (or none) against a ranged one."""
    if ranged:
        return (Defence.DODGE, Defence.TAKE)
    return (Defence.DODGE, Defence.PARRY, Defence.TAKE)


def defence_tn(attack_result: TestResult) -> int:
    """The TN of the opposed Dodge/Parry: the attack's result, kept within CODA's TN bounds
    (a result above 100 needs modifiers no sheet reaches; below 1 it cannot have hit)."""
    return min(max(attack_result.total, TN_MIN), TN_MAX)


def defend(
    dice: Dice,
    attack_result: TestResult,
    *,
    modifier: int,
    ones: str = "off",
    penalty: int = 0,
) -> TestResult:
    """The defender's opposed test: success avoids the damage. ``penalty``: a defence taken
    beyond the defender's allowance of actions takes the extra action's −5 (RULES.md §1)."""
    tn = defence_tn(attack_result)
    return test(dice, modifier=modifier, tn=tn, ones=ones, penalty=penalty)


def defend_chance(
    attack_result: TestResult, *, modifier: int, ones: str = "off", penalty: int = 0
) -> float:
    """The exact chance that :func:`defend` avoids the damage."""
    tn = defence_tn(attack_result)
    return chance(modifier=modifier, tn=tn, ones=ones, penalty=penalty)
