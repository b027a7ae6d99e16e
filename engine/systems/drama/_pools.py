"""Building a Drama test's pools (RULES.md §5): named difficulties, attribute, skill and
background tests, and what every test adds (situational Rd, the target's stat, drama
dice, penalty dice, helpers lending a hand), each die labelled with where it came from.

It exists so the rules for how big each pool is stay apart from rolling it
(:mod:`engine.systems.drama._dice`) and from its chances.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict, Unpack

from engine.dice import Dice
from engine.errors import N_
from engine.systems.drama._dice import (
    MAX_ATTRIBUTE,
    MAX_BACKGROUNDS,
    MAX_HELPERS,
    MAX_PENALTY,
    MAX_POOL,
    MIN_ATTRIBUTE,
    DramaError,
    DramaResult,
    checked_int,
    checked_pools,
    test,
)


@dataclass(frozen=True, slots=True)
class Difficulty:
    """A named difficulty: easy ones add Bd, hard ones add Rd."""

    name: str
    base: int = 0
    resistance: int = 0


DIFFICULTIES: tuple[Difficulty, ...] = (
    Difficulty(N_("Very Easy"), base=4),
    Difficulty(N_("Straightforward"), base=2),
    Difficulty(N_("Some Difficulty")),
    Difficulty(N_("Troublesome"), resistance=2),
    Difficulty(N_("Difficult"), resistance=4),
    Difficulty(N_("Very Challenging"), resistance=6),
    Difficulty(N_("Extremely Hard"), resistance=8),
    Difficulty(N_("Formidable"), resistance=10),
)
_DIFFICULTY_BY_KEY = {d.name.casefold(): d for d in DIFFICULTIES}


def difficulty(name: str) -> Difficulty:
    """Look a difficulty up by name, ignoring case."""
    found = _DIFFICULTY_BY_KEY.get(name.strip().casefold())
    if found is None:
        names = ", ".join(d.name for d in DIFFICULTIES)
        raise DramaError(
            N_("Unknown Drama difficulty {name}; choose one of: {names}."),
            name=repr(name),
            names=names,
        )
    return found


# The pool builders take a ``difficulty`` keyword, which hides the function inside them.
_find_difficulty = difficulty


@dataclass(frozen=True, slots=True)
class PoolPart:
    """One line of a pool's breakdown, so the embed can say where every die came from."""

    label: str
    base: int = 0
    resistance: int = 0
    drama: int = 0
    penalty: bool = False  # the actor's penalty dice: over the cap on what a player adds


@dataclass(frozen=True, slots=True)
class Pools:
    """The three pool sizes of one test and how they were built."""

    base: int
    resistance: int = 0
    drama: int = 0
    parts: tuple[PoolPart, ...] = ()

    def plus(self, part: PoolPart) -> Pools:
        """These pools with one more part (used to add penalty dice at roll time)."""
        return Pools(
            base=self.base + part.base,
            resistance=self.resistance + part.resistance,
            drama=self.drama + part.drama,
            parts=(*self.parts, part),
        )

    def validated(self) -> Pools:
        """The pools, or :class:`DramaError` naming where each die of a too-large pool came
        from. The cap (``MAX_POOL`` a pool) is on what the player adds; the actor's penalty
        dice always join on top, so a full penalty pool never locks a character out of a test.
        """
        added = [p for p in self.parts if not p.penalty] if self.parts else [self.as_part()]
        on_top = len(added) < len(self.parts)
        for what, field in (
            (N_("Base dice (Bd)"), "base"),
            (N_("Resistance dice (Rd)"), "resistance"),
            (N_("Drama dice (Dd)"), "drama"),
        ):
            total = sum(getattr(p, field) for p in added)
            if total > MAX_POOL:
                sources = " + ".join(
                    f"{getattr(p, field)} from {p.label}" for p in added if getattr(p, field)
                )
                raise DramaError(
                    N_(
                        "The {what} you add would be {total} ({sources}): at most {high} dice "
                        "(penalty dice come on top)."
                    )
                    if on_top
                    else N_(
                        "The {what} you add would be {total} ({sources}): at most {high} dice."
                    ),
                    what=what,
                    total=total,
                    sources=sources,
                    high=MAX_POOL,
                )
        checked_pools(self.base, self.resistance, self.drama)
        return self

    def as_part(self) -> PoolPart:
        return PoolPart(N_("pools"), self.base, self.resistance, self.drama)


class Situation(TypedDict, total=False):
    """What every kind of test adds to its pools (see :func:`_situation`)."""

    difficulty: str | None
    resistance: int
    target: int
    drama: int
    penalty: int
    risk: bool
    hands: Sequence[int]


class BackgroundFit(enum.StrEnum):
    DIRECT = "direct"
    INDIRECT = "indirect"


def given_pools(base: int, **situation: Unpack[Situation]) -> Pools:
    """A test whose Bd the player gives as a number (an NPC, or a pool built by hand)."""
    base = checked_int(base, N_("The Base dice (Bd)"), 0, MAX_POOL)
    return _situation((PoolPart(N_("Base dice"), base=base),), **situation)


def attribute_pools(
    attribute: int, *, name: str = "attribute", **situation: Unpack[Situation]
) -> Pools:
    """An attribute test: Bd = 2 × attribute (none if that is below 0).

    ``name`` (and the skill's) only label the breakdown, so the embed can say "2 × Physical 2".
    """
    attribute = checked_int(attribute, N_("The attribute"), MIN_ATTRIBUTE, MAX_ATTRIBUTE)
    part = PoolPart(f"2 × {name} {attribute}", base=max(0, 2 * attribute))
    return _situation((part,), **situation)


def _parent_attribute_resistance(
    attribute: int, skill: int, attribute_name: str, skill_name: str
) -> tuple[PoolPart, ...]:
    if attribute <= 0:
        return (PoolPart(f"{attribute_name} {attribute} ≤ 0", resistance=2),)
    if attribute < skill:
        label = f"{attribute_name} {attribute} < {skill_name} {skill}"
        return (PoolPart(label, resistance=1),)
    return ()


def skill_pools(
    attribute: int,
    skill: int,
    *,
    attribute_name: str = "attribute",
    skill_name: str = "skill",
    **situation: Unpack[Situation],
) -> Pools:
    """A skill test: Bd = attribute + skill; +1 Rd if 0 < attribute < skill; +2 if ≤ 0.

    Decision (RULES.md §5): seed 004's worked examples (Agility 2, Dancer 3: 1 Rd) and its
    summary say "lower than the skill", not its one "half or less".
    """
    attribute = checked_int(attribute, N_("The attribute"), MIN_ATTRIBUTE, MAX_ATTRIBUTE)
    skill = checked_int(skill, N_("The skill"), 0, MAX_POOL)
    parts = (
        PoolPart(
            f"{attribute_name} {attribute} + {skill_name} {skill}",
            base=max(0, attribute + skill),
        ),
        *_parent_attribute_resistance(attribute, skill, attribute_name, skill_name),
    )
    return _situation(parts, **situation)


def background_pools(
    attribute: int,
    backgrounds: int,
    *,
    fit: BackgroundFit | str = BackgroundFit.DIRECT,
    attribute_name: str = "attribute",
    **situation: Unpack[Situation],
) -> Pools:
    """Backgrounds standing in for a skill: +1 Bd each (at most 3); indirect ones +1 Rd each.

    Decision: since they stand in for the skill, the skill test's parent-attribute rule
    applies with the number of backgrounds counted as the skill: +1 Rd when it is higher
    than an attribute above 0, +2 Rd when the attribute is 0 or less.
    """
    attribute = checked_int(attribute, N_("The attribute"), MIN_ATTRIBUTE, MAX_ATTRIBUTE)
    backgrounds = checked_int(backgrounds, N_("The number of backgrounds"), 1, MAX_BACKGROUNDS)
    try:
        fit = BackgroundFit(fit)
    except ValueError:
        raise DramaError(N_("A background fits either 'direct' or 'indirect'.")) from None
    indirect = fit is BackgroundFit.INDIRECT
    parts = (
        PoolPart(
            f"{attribute_name} {attribute} + {backgrounds} {fit.value} background(s)",
            base=max(0, attribute + backgrounds),
            resistance=backgrounds if indirect else 0,
        ),
        *_parent_attribute_resistance(attribute, backgrounds, attribute_name, "backgrounds"),
    )
    return _situation(parts, **situation)


def _situation(
    parts: tuple[PoolPart, ...],
    *,
    difficulty: str | None = None,
    resistance: int = 0,
    target: int = 0,
    drama: int = 0,
    penalty: int = 0,
    risk: bool = False,
    hands: Sequence[int] = (),
) -> Pools:
    """Add what every kind of test shares: difficulty, situational Rd, the target's stat,
    drama dice, the actor's penalty dice and helpers lending a hand (their attributes).

    ``risk``: the GM turns the penalty dice into an advantage rolled as a risk, so for this
    test they are Dd instead of Rd (RULES.md §5, Penalty pool).
    """
    extra: list[PoolPart] = []
    if difficulty is not None:
        found = _find_difficulty(difficulty)
        if found.base or found.resistance:
            extra.append(PoolPart(found.name, base=found.base, resistance=found.resistance))
    if checked_int(resistance, N_("Situational resistance"), 0, MAX_POOL):
        extra.append(PoolPart(N_("situational resistance"), resistance=resistance))
    if checked_int(target, N_("The target's stat"), 0, MAX_POOL):
        extra.append(PoolPart(N_("target's stat"), resistance=target))
    if len(hands) > MAX_HELPERS:
        raise DramaError(N_("At most {high} helpers can lend a hand."), high=MAX_HELPERS)
    for hand in hands:
        value = checked_int(hand, N_("A helper's attribute"), MIN_ATTRIBUTE, MAX_ATTRIBUTE)
        if value > 0:
            extra.append(PoolPart(f"lending a hand {value}", base=value))
    if checked_int(drama, N_("The Drama dice (Dd)"), 0, MAX_POOL):
        extra.append(PoolPart(N_("drama"), drama=drama))
    if checked_int(penalty, N_("Penalty dice"), 0, MAX_PENALTY):
        if risk:
            extra.append(PoolPart(N_("penalty dice as a risk"), drama=penalty, penalty=True))
        else:
            extra.append(PoolPart(N_("penalty dice"), resistance=penalty, penalty=True))
    elif risk:
        raise DramaError(N_("There are no penalty dice to turn into a risk."))
    all_parts = (*parts, *extra)
    pools = Pools(
        base=sum(p.base for p in all_parts),
        resistance=sum(p.resistance for p in all_parts),
        drama=sum(p.drama for p in all_parts),
        parts=all_parts,
    )
    return pools.validated()


def roll_pools(dice: Dice, pools: Pools, *, criticals: bool = False) -> DramaResult:
    """Roll built pools."""
    return test(
        dice,
        base=pools.base,
        resistance=pools.resistance,
        drama=pools.drama,
        criticals=criticals,
    )
