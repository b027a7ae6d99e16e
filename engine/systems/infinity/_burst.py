"""Infinity CodeOne: a Burst split among several targets (RULES.md §3, Burst).

The attacker's dice are drawn once, in the order the targets are given, and each target's
reaction faces only the dice aimed at it: one face to face per target. Then each target's
own dice are drawn, target by target. Because the shares are disjoint sets of independent
dice, each face to face's exact odds are those of an ordinary face to face of that share
against that target.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.dice import Dice
from engine.errors import N_
from engine.systems.infinity._odds import FaceToFaceOdds, ftf_odds
from engine.systems.infinity._rolls import (
    FaceToFaceResult,
    NormalResult,
    check_side,
    resolve,
    roll_side,
)
from engine.systems.infinity._sv import BURST_RANGE, InfinityError


@dataclass(frozen=True, slots=True)
class Target:
    """One target: its reaction (attribute, MODs, Burst) and how many attacking dice it draws."""

    attribute: int
    mods: int = 0
    burst: int = 1
    aimed: int = 1
    name: str = ""


@dataclass(frozen=True, slots=True)
class SplitResult:
    """Every attacking die in draw order, and one face to face per target (its share as A)."""

    attack: NormalResult
    duels: tuple[FaceToFaceResult, ...]
    targets: tuple[Target, ...]


def _check(a_attribute: int, a_mods: int, targets: Sequence[Target]) -> int:
    if not 1 <= len(targets) <= BURST_RANGE[1]:
        raise InfinityError(
            N_("A Burst is split among 1 to {high} targets."),
            field="targets",
            value=len(targets),
            high=BURST_RANGE[1],
        )
    for target in targets:
        if isinstance(target.aimed, bool) or not isinstance(target.aimed, int) or target.aimed < 1:
            raise InfinityError(
                N_("Each target needs at least one die aimed at it."),
                field="aimed",
                value=target.aimed,
            )
        check_side(target.attribute, target.mods, target.burst, "b_")
    total = sum(target.aimed for target in targets)
    check_side(a_attribute, a_mods, total, "a_")
    return total


def split_face_to_face(
    dice: Dice, *, a_attribute: int, a_mods: int = 0, targets: Sequence[Target]
) -> SplitResult:
    """The attacker's dice (all of them, once), then each target's, each share judged alone."""
    targets = tuple(targets)
    total = _check(a_attribute, a_mods, targets)
    attack = roll_side(dice, a_attribute, a_mods, total)
    reactions = [roll_side(dice, t.attribute, t.mods, t.burst) for t in targets]
    duels = []
    start = 0
    for target, reaction in zip(targets, reactions, strict=True):
        # Below SV 1 nothing is rolled: every share is empty.
        share = attack.dice[start : start + target.aimed]
        start += target.aimed
        duels.append(resolve(replace(attack, dice=share, burst=target.aimed), reaction))
    return SplitResult(attack, tuple(duels), targets)


def split_odds(
    *, a_attribute: int, a_mods: int = 0, targets: Sequence[Target]
) -> tuple[FaceToFaceOdds, ...]:
    """Exact odds of each target's face to face (its share of the Burst against it)."""
    targets = tuple(targets)
    _check(a_attribute, a_mods, targets)
    return tuple(
        ftf_odds(
            a_attribute=a_attribute,
            a_mods=a_mods,
            a_burst=t.aimed,
            b_attribute=t.attribute,
            b_mods=t.mods,
            b_burst=t.burst,
        )
        for t in targets
    )
