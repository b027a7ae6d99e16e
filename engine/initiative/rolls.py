"""Initiative rolls per system, kept apart from the turn-order state machine.

Each system rolls initiative its own way, always through that system's own module so a
rule lives in one place:

- Hogwarts 1990 (RULES.md §2): a standard roll (two d20, keep the higher) + the Finesse
  attribute of the initiating action's category; a stress roll (keep the lower) for a
  surprised participant. Doubles mean nothing without a difficulty.
- CODA (RULES.md §1): 2d6 + modifier with rolling 6s. That is exactly a two-die CODA
  damage roll (the extra die comes only when every die shows 6), so it reuses
  :func:`engine.systems.coda.damage` rather than a copy of the rolling-6s loop.
- Every other system: 1d20 + modifier.
- Any notation (``dice``) overrides the system's roll, through :mod:`engine.notation`.

Order: the dice of the roll as its system draws them (H90: die 1, die 2; CODA: the two
dice, then each extra die; d20: one die).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.dice import Dice
from engine.errors import N_, whole_number
from engine.initiative.errors import InitiativeError
from engine.notation import roll_expression
from engine.systems import coda, hogwarts1990

__all__ = [
    "CODA",
    "HOGWARTS1990",
    "MODIFIER_MAX",
    "MODIFIER_MIN",
    "InitiativeRoll",
    "canonical_system",
    "coda_initiative",
    "d20_initiative",
    "hogwarts1990_initiative",
    "notation_initiative",
    "roll_initiative",
]

CODA = "coda"
#: The keys of ``engine.systems.SYSTEMS``.
HOGWARTS1990 = "h90"
_ALIASES = {
    "hogwarts1990": HOGWARTS1990,
    "hogwarts": HOGWARTS1990,
    "hogwarts 1990": HOGWARTS1990,
}
MODIFIER_MIN, MODIFIER_MAX = -100, 100
D20_SIDES = 20


@dataclass(frozen=True, slots=True)
class InitiativeRoll:
    """One initiative roll: how it was rolled, every face in draw order, and the total."""

    method: str
    """``h90``, ``coda``, ``d20`` or ``notation``."""
    total: int
    faces: tuple[int, ...]
    detail: str
    """A one-line breakdown for the tracker, e.g. ``2d20 (14, 7) keep 14 + 3``."""
    modifier: int = 0
    stress: bool = False


def canonical_system(system: str | None) -> str:
    """The system key initiative dispatches on (``hogwarts1990`` and friends → ``h90``)."""
    name = (system or "").strip().casefold()
    return _ALIASES.get(name, name)


def _check_modifier(
    modifier: int,
    what: str = N_("The initiative modifier"),
    low: int = MODIFIER_MIN,
    high: int = MODIFIER_MAX,
) -> None:
    whole_number(modifier, what, low, high, error=InitiativeError)


def _signed(value: int) -> str:
    """`` + 3`` / `` − 2``, and nothing for 0 (``2d6 (5, 2)`` rather than ``… + 0``)."""
    if value == 0:
        return ""
    return f" + {value}" if value > 0 else f" − {-value}"


def hogwarts1990_initiative(dice: Dice, *, finesse: int, stress: bool = False) -> InitiativeRoll:
    """Standard roll (stress roll when surprised) + the named Finesse attribute."""
    # Hogwarts 1990's own bounds, checked here so the player reads an initiative message.
    _check_modifier(
        finesse, N_("The Finesse bonus"), hogwarts1990.BONUS_MIN, hogwarts1990.BONUS_MAX
    )
    result = hogwarts1990.roll(dice, bonus=finesse, stress=stress)
    keep = N_("keep lower") if stress else N_("keep higher")
    a, b = result.dice
    return InitiativeRoll(
        method=HOGWARTS1990,
        total=result.total,
        faces=result.faces,
        modifier=finesse,
        stress=stress,
        detail=f"2d20 ({a}, {b}) {keep} {result.kept}{_signed(finesse)}",
    )


def coda_initiative(dice: Dice, *, modifier: int = 0) -> InitiativeRoll:
    """2d6 + modifier, rolling 6s (an extra d6 while every die so far shows 6)."""
    _check_modifier(modifier)
    result = coda.damage(dice, count=coda.TEST_DICE, modifier=modifier)
    faces = ", ".join(map(str, result.faces))
    sixes = " " + N_("rolling 6s!") if result.exploded else ""
    return InitiativeRoll(
        method=CODA,
        total=result.total,
        faces=result.faces,
        modifier=modifier,
        detail=f"2d6 ({faces}){sixes}{_signed(modifier)}",
    )


def d20_initiative(dice: Dice, *, modifier: int = 0) -> InitiativeRoll:
    """1d20 + modifier: the default for systems without their own initiative roll."""
    _check_modifier(modifier)
    face = dice.roll(D20_SIDES)
    return InitiativeRoll(
        method="d20",
        total=face + modifier,
        faces=(face,),
        modifier=modifier,
        detail=f"1d20 ({face}){_signed(modifier)}",
    )


def notation_initiative(dice: Dice, expression: str) -> InitiativeRoll:
    """Any dice notation (``1d20+3``, ``2d6kh1``…), overriding the system's roll."""
    result = roll_expression(dice, expression)
    # d20's breakdown ends in "= `total`"; the tracker adds the total itself ("… = **48**").
    detail, equals, total = result.breakdown.rpartition(" = `")
    if not equals or not total.endswith("`"):
        detail = result.breakdown
    return InitiativeRoll(
        method="notation", total=result.total, faces=result.faces, detail=detail[:200]
    )


def roll_initiative(
    dice: Dice,
    *,
    system: str | None,
    modifier: int = 0,
    stress: bool = False,
    expression: str | None = None,
) -> InitiativeRoll:
    """The initiative roll for ``system``; ``expression`` (if given) overrides it.

    ``modifier`` is the Finesse attribute for Hogwarts 1990, else a flat modifier (added to
    a notation roll too). ``stress`` (a surprised participant) is Hogwarts 1990's rule only.
    """
    name = canonical_system(system)
    if stress and (expression or name != HOGWARTS1990):
        raise InitiativeError(N_("A stress roll for initiative is a Hogwarts 1990 rule."))
    if expression is not None and expression.strip():
        _check_modifier(modifier)
        rolled = notation_initiative(dice, expression)
        if modifier:
            rolled = replace(
                rolled,
                total=rolled.total + modifier,
                modifier=modifier,
                detail=f"{rolled.detail}{_signed(modifier)}",
            )
        return rolled
    if name == HOGWARTS1990:
        return hogwarts1990_initiative(dice, finesse=modifier, stress=stress)
    if name == CODA:
        return coda_initiative(dice, modifier=modifier)
    return d20_initiative(dice, modifier=modifier)
