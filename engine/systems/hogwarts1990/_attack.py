"""Hogwarts 1990 attacks in a skirmish (RULES.md §2 "Defensive roll", seed 001 ch. 7).

An attack is the attacker's roll (standard or stress, + bonus) against the difficulty the
Storyguide sets; reaching it hits. A participant who has not yet acted this round, or a
delayer, may dodge: that turns the attacker's roll into a defended roll, whose difficulty is
raised by the dodger's attribute(s) the Storyguide names (RULES.md: "the defender's attribute
that raises the attacker's difficulty"). Only a delayer may dodge on behalf of another; the
effect is the same. The turn it uses up is the tracker's business
(:class:`engine.initiative.Defend`), not this module's.

The defended roll is the same roll judged again: the attack's dice are replayed against the
raised difficulty. Roll Advantage follows its own rule (RULES.md §2): a first roll that
succeeded kept its two dice, but if it now fails (and is not doubles) the lower die is
rerolled, drawing one fresh die. Doubles and the outcome are judged on the final dice.

A hit costs the target Health: ``damage`` points (1 by default, as a bludger's hit costs a
quidditch player one, RULES.md §2 "Quidditch"); a participant at 0 Health is knocked out.
Order: the attack's two dice (and its reroll), then the defended roll's reroll if drawn.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from engine.dice import Dice, ReplayDice, ScriptedDice
from engine.errors import N_
from engine.systems.hogwarts1990 import _rolls as h90

__all__ = [
    "DAMAGE_DEFAULT",
    "DAMAGE_MAX",
    "DAMAGE_MIN",
    "MAX_DODGE_TERMS",
    "Answer",
    "attack",
    "check_damage",
    "defend",
    "defend_chance",
    "dodged_difficulty",
    "health_after",
    "knocked_out",
]

DAMAGE_MIN, DAMAGE_MAX, DAMAGE_DEFAULT = 1, 20, 1
#: A dodge adds a few of the dodger's attributes (the Storyguide names them).
MAX_DODGE_TERMS = 4


class Answer(enum.Enum):
    """What is done about a hit: the target dodges, a delayer dodges for it, or it is taken."""

    DODGE = "dodge"
    COVER = "cover"
    TAKE = "take"

    @property
    def label(self) -> str:
        # Marked for translation; the bot shows them through ``_()``.
        return {"dodge": N_("Dodge"), "cover": N_("Dodges for them"), "take": N_("Take it")}[
            self.value
        ]


def check_damage(damage: int) -> int:
    if isinstance(damage, bool) or not isinstance(damage, int):
        raise h90.H90Error(N_("damage must be a whole number (got {value})"), value=repr(damage))
    if not DAMAGE_MIN <= damage <= DAMAGE_MAX:
        raise h90.H90Error(
            N_("damage must be between {low} and {high} Health"), low=DAMAGE_MIN, high=DAMAGE_MAX
        )
    return damage


def attack(
    dice: Dice,
    /,
    *,
    bonus: int,
    difficulty: int,
    stress: bool = False,
    advantage: bool = False,
) -> h90.Roll:
    """The attacker's roll: a hit when it reaches the difficulty (``success``)."""
    return h90.roll(dice, bonus=bonus, difficulty=difficulty, stress=stress, advantage=advantage)


def dodged_difficulty(difficulty: int, raise_by: Sequence[int]) -> int:
    """The defended roll's difficulty: the attack's, raised by the dodger's attribute(s)."""
    if not 1 <= len(raise_by) <= MAX_DODGE_TERMS:
        raise h90.H90Error(N_("a dodge adds 1 to {count} attributes"), count=MAX_DODGE_TERMS)
    return h90.defended_difficulty(difficulty, *raise_by)


def defend(dice: Dice, attack_roll: h90.Roll, raise_by: Sequence[int]) -> h90.Roll:
    """The attack judged again as a defended roll: its dice replayed, any new reroll drawn."""
    if attack_roll.difficulty is None:
        raise h90.H90Error(N_("only an attack against a difficulty can be dodged"))
    difficulty = dodged_difficulty(attack_roll.difficulty, raise_by)
    return h90.roll(
        ReplayDice(attack_roll.faces, then=dice),
        bonus=attack_roll.bonus,
        difficulty=difficulty,
        stress=attack_roll.stress,
        advantage=attack_roll.advantage,
    )


def defend_chance(attack_roll: h90.Roll, raise_by: Sequence[int]) -> float:
    """The exact chance that a dodge turns this (already rolled) hit into a miss.

    The first two dice are known: only a reroll the defended roll would newly draw is
    uncertain (advantage asked for, not used, the first roll now failing, not doubles).
    """
    if attack_roll.difficulty is None:
        raise h90.H90Error(N_("only an attack against a difficulty can be dodged"))
    difficulty = dodged_difficulty(attack_roll.difficulty, raise_by)
    first, second = attack_roll.faces[0], attack_roll.faces[1]
    keep = min if attack_roll.stress else max
    fresh = (
        attack_roll.advantage
        and not attack_roll.advantage_used
        and first != second
        and keep(first, second) + attack_roll.bonus < difficulty
    )
    if not fresh:
        # Every die the defended roll uses is known already: it misses or it does not.
        judged = defend(ScriptedDice(()), attack_roll, raise_by)
        return 0.0 if judged.success else 1.0
    # The lower die is rerolled (the second when they tie): the other stays, any face comes.
    stays = second if first < second else first
    bonus = attack_roll.bonus
    misses = sum(1 for new in range(1, h90.SIDES + 1) if keep(stays, new) + bonus < difficulty)
    return misses / h90.SIDES


def health_after(current: int, damage: int) -> int:
    """Health after a hit: it stops at 0 (knocked out), and never rises."""
    return min(current, max(current - damage, 0))


def knocked_out(current: int) -> bool:
    """A participant at 0 Health is knocked out and takes no further part (RULES.md §2)."""
    return current <= 0
