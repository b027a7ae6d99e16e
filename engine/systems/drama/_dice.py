"""Drama in History dice (RULES.md §5): rolling one test's Base, Resistance and Drama pools
and reading its net, outcome, criticals and the price of a "Yes, but…".

Bd 5–6 count +1, Rd 1–2 count −1, Dd 4–6 count +1 and Dd 1s −1 (each also a penalty die
for the roller); every Dd 6 explodes into one more Dd. Net ≥ 2 succeeds, net 1 is
"Yes, but…", less fails. Dice are drawn all Bd, all Rd, the Dd asked for, then one extra
Dd per 6 in the order the 6s appeared, so a ScriptedDice pins one result.

It exists as the bottom of the Drama modules: the bounds, the error and the result types
that the chances (:mod:`engine.systems.drama._odds`), the pool builders
(:mod:`engine.systems.drama._pools`) and opposed and joint tests all share.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import partial

from engine.dice import Dice
from engine.errors import N_, InputError, whole_number

SIDES = 6
MAX_POOL = 60
SUCCESS_NET = 2
YES_BUT_NET = 1
# Paying the price of a "Yes, but…" costs this many penalty dice.
PRICE_PENALTY = 1
# Criticals need at least this many 6s among Bd and Dd together.
CRITICAL_SIXES = 3
MIN_ATTRIBUTE = -20
MAX_ATTRIBUTE = 60
MAX_BACKGROUNDS = 3
MAX_HELPERS = 10
MAX_PENALTY = 999
# The Rd a test may roll: what the player adds (≤ MAX_POOL) and every penalty die on top.
MAX_ROLLED_RESISTANCE = MAX_POOL + MAX_PENALTY
# A fair die ends an explosion chain within a few dice; this only stops a broken source.
MAX_EXPLOSIONS = 10_000
# Probabilities below this are dropped while summing many nets (see together_chances).
NEGLIGIBLE = 1e-16


class DramaError(InputError):
    """Inputs a Drama test cannot roll; the message is written to be shown to the user."""


checked_int = partial(whole_number, error=DramaError)


class Outcome(enum.StrEnum):
    SUCCESS = "success"
    YES_BUT = "yes-but"
    FAILURE = "failure"

    @property
    def label(self) -> str:
        return _OUTCOME_LABELS[self]

    @classmethod
    def of(cls, net: int) -> Outcome:
        if net >= SUCCESS_NET:
            return cls.SUCCESS
        if net == YES_BUT_NET:
            return cls.YES_BUT
        return cls.FAILURE


_OUTCOME_LABELS = {
    Outcome.SUCCESS: N_("Success"),
    Outcome.YES_BUT: N_("Yes, but…"),
    Outcome.FAILURE: N_("Failure"),
}


def base_value(face: int) -> int:
    """What one Bd face counts: 5 and 6 are a success."""
    return 1 if face >= 5 else 0


def resistance_value(face: int) -> int:
    """What one Rd face counts: 1 and 2 cancel a success."""
    return -1 if face <= 2 else 0


def drama_value(face: int) -> int:
    """What one Dd face counts: 4–6 a success, 1 a loss (and a penalty die)."""
    if face >= 4:
        return 1
    return -1 if face == 1 else 0


@dataclass(frozen=True, slots=True)
class DramaDie:
    """One drama die; ``extra`` marks a die rolled because an earlier 6 exploded."""

    face: int
    extra: bool = False

    @property
    def value(self) -> int:
        return drama_value(self.face)

    @property
    def explodes(self) -> bool:
        return self.face == SIDES

    @property
    def penalty(self) -> bool:
        return self.face == 1


@dataclass(frozen=True, slots=True)
class DramaResult:
    """One Drama test: every face of the three pools, the counts, the net and the outcome."""

    base: int
    resistance: int
    drama: int
    criticals: bool
    base_faces: tuple[int, ...]
    resistance_faces: tuple[int, ...]
    drama_faces: tuple[DramaDie, ...]
    base_successes: int
    resistance_losses: int
    drama_net: int
    sixes: int
    critical_bonus: int
    net: int
    outcome: Outcome
    penalty_gained: int
    price_paid: bool = False

    @property
    def success(self) -> bool:
        return self.outcome is Outcome.SUCCESS

    @property
    def critical(self) -> bool:
        """The criticals rule applied to this roll (it was on and there were 3+ sixes)."""
        return self.criticals and self.sixes >= CRITICAL_SIXES

    @property
    def exploded(self) -> int:
        """How many extra drama dice the 6s added."""
        return sum(die.extra for die in self.drama_faces)

    @property
    def drama_face_values(self) -> tuple[int, ...]:
        return tuple(die.face for die in self.drama_faces)

    @property
    def penalty_total(self) -> int:
        """Penalty dice this roll costs its roller: drama 1s plus the price, if paid."""
        return self.penalty_gained + (PRICE_PENALTY if self.price_paid else 0)


def checked_pools(
    base: int,
    resistance: int,
    drama: int,
    *,
    resistance_cap: int = MAX_ROLLED_RESISTANCE,
    whose: str = "",
) -> tuple[int, int, int]:
    """Bounds-check pool sizes. What a player adds is at most ``MAX_POOL`` a pool (checked
    with the default cap lowered, by the pool builders); penalty dice come on top, so the
    Rd rolled may reach ``MAX_ROLLED_RESISTANCE``."""
    return (
        checked_int(base, N_("The Base dice (Bd)") + whose, 0, MAX_POOL),
        checked_int(resistance, N_("The Resistance dice (Rd)") + whose, 0, resistance_cap),
        checked_int(drama, N_("The Drama dice (Dd)") + whose, 0, MAX_POOL),
    )


def test(
    dice: Dice, *, base: int, resistance: int = 0, drama: int = 0, criticals: bool = False
) -> DramaResult:
    """Roll the three pools and read the net (RULES.md §5, Order and Criticals)."""
    base, resistance, drama = checked_pools(base, resistance, drama)
    base_faces = tuple(dice.roll(SIDES) for _ in range(base))
    resistance_faces = tuple(dice.roll(SIDES) for _ in range(resistance))
    drama_faces = [DramaDie(dice.roll(SIDES)) for _ in range(drama)]
    # Walking the list while appending rolls extras breadth-first: one per 6, in order,
    # and an extra's own 6 gets its extra after the 6s that came before it.
    index = 0
    while index < len(drama_faces):
        if drama_faces[index].explodes:
            if len(drama_faces) - drama >= MAX_EXPLOSIONS:
                raise DramaError(N_("The drama dice exploded too many times; the dice are broken."))
            drama_faces.append(DramaDie(dice.roll(SIDES), extra=True))
        index += 1
    return _read(base, resistance, drama, criticals, base_faces, resistance_faces, drama_faces)


# pytest would otherwise collect an imported ``test`` as a test function.
test.__test__ = False  # type: ignore[attr-defined]


def _read(
    base: int,
    resistance: int,
    drama: int,
    criticals: bool,
    base_faces: tuple[int, ...],
    resistance_faces: tuple[int, ...],
    drama_faces: Sequence[DramaDie],
) -> DramaResult:
    base_successes = sum(map(base_value, base_faces))
    resistance_losses = -sum(map(resistance_value, resistance_faces))
    drama_net = sum(die.value for die in drama_faces)
    sixes = base_faces.count(SIDES) + sum(die.explodes for die in drama_faces)
    critical_bonus = 0
    if criticals and sixes >= CRITICAL_SIXES:
        # Decision (RULES.md §5): Rd 1s cancel 6s only down to zero; the bonus never lowers a net.
        critical_bonus = max(0, sixes - resistance_faces.count(1))
    net = base_successes - resistance_losses + drama_net + critical_bonus
    return DramaResult(
        base=base,
        resistance=resistance,
        drama=drama,
        criticals=bool(criticals),
        base_faces=base_faces,
        resistance_faces=resistance_faces,
        drama_faces=tuple(drama_faces),
        base_successes=base_successes,
        resistance_losses=resistance_losses,
        drama_net=drama_net,
        sixes=sixes,
        critical_bonus=critical_bonus,
        net=net,
        outcome=Outcome.of(net),
        penalty_gained=sum(die.penalty for die in drama_faces),
    )


def pay_price(result: DramaResult) -> DramaResult:
    """Turn a "Yes, but…" into a success; the roller takes :data:`PRICE_PENALTY` more."""
    if result.price_paid:
        raise DramaError(N_("The price for this roll has already been paid."))
    if result.outcome is not Outcome.YES_BUT:
        raise DramaError(N_('Only a "Yes, but…" result can be turned into a success.'))
    return replace(result, outcome=Outcome.SUCCESS, price_paid=True)
