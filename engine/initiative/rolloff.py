"""Ties roll off with the system's own dice (RULES.md §1, §2).

CODA rolls 2d6 (RULES.md §1: "Ties roll off with 2d6"); Hogwarts 1990's tied participants
"roll again", a standard roll (two d20, keep the higher) with no bonus; any other system
rolls a d20. A roll-off result only orders the tied among themselves.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.dice import Dice
from engine.errors import N_
from engine.initiative.errors import NotAllowedNow
from engine.systems import coda, hogwarts1990

__all__ = ["MAX_ROLL_OFF_ROUNDS", "ROLL_OFF_SIDES", "roll_off", "roll_off_value"]

ROLL_OFF_SIDES = 20
#: A fair die settles a roll-off in about one round; this only stops a broken Dice source.
MAX_ROLL_OFF_ROUNDS = 100


def roll_off_value(system: str, dice: Dice) -> int:
    """One roll-off result. Order: CODA die 1, die 2; H90 die 1, die 2; else one d20."""
    if system == "coda":
        return dice.roll(coda.DIE_SIDES) + dice.roll(coda.DIE_SIDES)
    if system == "h90":
        return hogwarts1990.roll(dice).total
    return dice.roll(ROLL_OFF_SIDES)


def roll_off(
    tied: Sequence[tuple[str, tuple[int, ...]]], name: str, system: str, dice: Dice | None
) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Roll off the newcomer ``name`` against ``tied`` (name, tie-break) with its total.

    Invariant: among combatants with equal totals no tie-break tuple equals or prefixes
    another, so they are strictly ordered, and a tuple only ever grows, which never changes
    an order already decided. The newcomer rolls once per level until no tied tuple shares
    its prefix; a tied combatant whose tuple *is* that prefix (at most one, by the
    invariant) rolls alongside it, first. Returns the newcomer's tuple, then every tuple
    that grew. Order of draws: that combatant, then the newcomer.
    """
    if not tied:
        return ()
    if dice is None:
        raise TypeError(f"{name} ties: a roll-off needs dice")
    mine: tuple[int, ...] = ()
    theirs: dict[str, tuple[int, ...]] = {}
    for _ in range(MAX_ROLL_OFF_ROUNDS):
        level = len(mine)
        contenders = [n for n, t in tied if theirs.get(n, t)[:level] == mine]
        if not contenders:
            break
        current = dict(tied)
        for contender in contenders:
            now = theirs.get(contender, current[contender])
            if len(now) == level:
                theirs[contender] = (*now, roll_off_value(system, dice))
        mine = (*mine, roll_off_value(system, dice))
    else:
        raise NotAllowedNow(N_("The roll-off did not settle; the dice source looks broken."))
    return ((name, mine), *theirs.items())
