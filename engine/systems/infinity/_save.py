"""Infinity CodeOne saving rolls (RULES.md section 3): the attack damage (damage − ARM, cover
and MODs within the ±12 cap) and one d20 per hit, each face at or below it a Wound.

Dice are drawn one d20 per hit, in order, so a ScriptedDice sequence pins one result. It
exists apart from normal and face-to-face rolls because a save judges its faces its own
way; its chances are in :mod:`engine.systems.infinity._odds`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from engine.dice import Dice
from engine.errors import N_
from engine.systems.infinity._rolls import Rolled
from engine.systems.infinity._sv import (
    ARMOR_RANGE,
    COVER_MOD,
    D20,
    DAMAGE_RANGE,
    HITS_RANGE,
    MODS_RANGE,
    Translate,
    check_range,
    clamp_mods,
    fmt_int,
    fmt_signed,
    plain,
)


@dataclass(frozen=True, slots=True)
class SaveDie:
    """One saving d20: a face at or below the attack damage fails and costs a Wound."""

    face: int
    saved: bool


@dataclass(frozen=True, slots=True)
class SaveResult(Rolled[SaveDie]):
    """A saving roll: one d20 per hit against the attack damage.

    ``applied_mods`` is the cover and the other MODs together, after the ±12 cap.
    """

    damage: int
    armor: int
    cover: bool
    hits: int
    attack_damage: int
    wounds: int

    @property
    def saved(self) -> int:
        return self.hits - self.wounds

    @property
    def mods_clamped(self) -> bool:
        return self.mods + (COVER_MOD if self.cover else 0) != self.applied_mods

    @property
    def arithmetic(self) -> str:
        """``13 − ARM 3 −3 (cover) = 7``, the MOD cap spelled out when it bit."""
        return self.describe()

    def describe(self, armor_name: str = "ARM", tr: Translate = plain) -> str:
        """The attack damage arithmetic, naming the armor as rolled against (ARM or BTS)."""
        text = f"{self.damage} − {armor_name} {self.armor}"
        if self.cover:
            text += f" {fmt_signed(COVER_MOD)} " + tr(N_("(cover: +3 to the save)"))
        if self.mods:
            text += f" {fmt_signed(self.mods)}"
        if self.mods_clamped:
            text += " " + tr(N_("(MODs clamped to {mods})"), mods=fmt_signed(self.applied_mods))
        return text + f" = {fmt_int(self.attack_damage)}"


def attack_damage(*, damage: int, armor: int, cover: bool = False, mods: int = 0) -> int:
    """Damage − ARM − 3 in partial cover ± MODs; saves fail on a face at or below it.

    **Decision:** the cover −3 is a MOD, so like every roll's MODs the sum of cover and
    ``mods`` is held to ±12 (seed 002: "the total of MODs applicable to a roll").
    """
    check_range("damage", damage, DAMAGE_RANGE)
    check_range("armor", armor, ARMOR_RANGE)
    check_range("mods", mods, MODS_RANGE)
    return damage - armor + _save_mods(cover, mods)


def _save_mods(cover: bool, mods: int) -> int:
    return clamp_mods(mods + (COVER_MOD if cover else 0))


def save_target(damage: int, armor: int, cover: bool, mods: int, hits: int) -> int:
    """Check a saving roll's inputs and give the attack damage its faces must beat."""
    target = attack_damage(damage=damage, armor=armor, cover=cover, mods=mods)
    check_range("hits", hits, HITS_RANGE)
    return target


def fail_fraction(target: int) -> Fraction:
    """P(one save fails): the faces 1..target of a d20."""
    return Fraction(max(0, min(D20, target)), D20)


def save(
    dice: Dice, *, damage: int, armor: int, cover: bool = False, mods: int = 0, hits: int = 1
) -> SaveResult:
    """Saving rolls against ``hits`` hits (one d20 each, in order); each failure is a Wound."""
    target = save_target(damage, armor, cover, mods, hits)
    rolled = tuple(SaveDie(f, f > target) for f in (dice.roll(D20) for _ in range(hits)))
    wounds = sum(not d.saved for d in rolled)
    return SaveResult(
        mods=mods,
        applied_mods=_save_mods(cover, mods),
        dice=rolled,
        damage=damage,
        armor=armor,
        cover=cover,
        hits=hits,
        attack_damage=target,
        wounds=wounds,
    )
