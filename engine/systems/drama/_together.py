"""Drama tests between two sides and tests worked on together (RULES.md §5): rolling them,
reading who wins, and their exact chances.

It exists because these combine whole tests: it sits above the rolling
(:mod:`engine.systems.drama._dice`), the chances (:mod:`engine.systems.drama._odds`) and the
pools (:mod:`engine.systems.drama._pools`) and adds only how two or more tests are read.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.dice import Dice
from engine.distributions import convolve
from engine.errors import N_
from engine.systems.drama._dice import (
    MAX_HELPERS,
    NEGLIGIBLE,
    SUCCESS_NET,
    YES_BUT_NET,
    DramaError,
    DramaResult,
    Outcome,
)
from engine.systems.drama._odds import net_distribution
from engine.systems.drama._pools import Pools, roll_pools


class OpposedOutcome(enum.StrEnum):
    WIN = "win"
    DRAW = "draw"
    BOTH_FAIL = "both fail"


@dataclass(frozen=True, slots=True)
class OpposedResult:
    """Two sides' tests. ``winner`` is "a", "b" or None; a draw goes to ``momentum`` if named."""

    a: DramaResult
    b: DramaResult
    outcome: OpposedOutcome
    winner: str | None
    level: int
    momentum: str | None

    @property
    def by_momentum(self) -> bool:
        return self.outcome is OpposedOutcome.DRAW and self.winner is not None


def read_opposed(a: DramaResult, b: DramaResult, *, momentum: str | None = None) -> OpposedResult:
    """A side needs net ≥ 2 and more than the other; the level is the difference."""
    if momentum not in (None, "a", "b"):
        raise DramaError(N_("Momentum goes to side 'a' or side 'b'."))
    if a.net < SUCCESS_NET and b.net < SUCCESS_NET:
        return OpposedResult(a, b, OpposedOutcome.BOTH_FAIL, None, 0, momentum)
    if a.net == b.net:
        return OpposedResult(a, b, OpposedOutcome.DRAW, momentum, 0, momentum)
    winner = "a" if a.net > b.net else "b"
    return OpposedResult(a, b, OpposedOutcome.WIN, winner, abs(a.net - b.net), momentum)


def opposed(
    dice: Dice,
    *,
    a: Pools,
    b: Pools,
    criticals: bool = False,
    momentum: str | None = None,
) -> OpposedResult:
    """Side a rolls all its pools, then side b (each in the test's own order)."""
    first = roll_pools(dice, a, criticals=criticals)
    second = roll_pools(dice, b, criticals=criticals)
    return read_opposed(first, second, momentum=momentum)


def _pools_pmf(pools: Pools, criticals: bool) -> Mapping[int, float]:
    return net_distribution(
        base=pools.base, resistance=pools.resistance, drama=pools.drama, criticals=criticals
    )


def opposed_chances(*, a: Pools, b: Pools, criticals: bool = False) -> dict[str, float]:
    """Exact chances of "a" winning, "b" winning, a "draw" and "both fail"."""
    pa, pb = _pools_pmf(a, criticals), _pools_pmf(b, criticals)
    result = {"a": 0.0, "b": 0.0, "draw": 0.0, "both fail": 0.0}
    for na, p in pa.items():
        for nb, q in pb.items():
            if na < SUCCESS_NET and nb < SUCCESS_NET:
                result["both fail"] += p * q
            elif na == nb:
                result["draw"] += p * q
            else:
                result["a" if na > nb else "b"] += p * q
    return result


@dataclass(frozen=True, slots=True)
class TogetherResult:
    """Helpers working together: each test in order; the nets add up."""

    tests: tuple[DramaResult, ...]
    net: int
    outcome: Outcome

    @property
    def success(self) -> bool:
        return self.outcome is Outcome.SUCCESS


# The actor and up to 10 helpers working together.
MAX_TOGETHER = 1 + MAX_HELPERS


def _together(pools: Sequence[Pools]) -> Sequence[Pools]:
    if not 1 <= len(pools) <= MAX_TOGETHER:
        raise DramaError(N_("Between 1 and {count} people can work together."), count=MAX_TOGETHER)
    return [p.validated() for p in pools]


def together(dice: Dice, *, pools: Sequence[Pools], criticals: bool = False) -> TogetherResult:
    """Each one rolls their own pools (with the full resistance), in the order given."""
    tests = tuple(roll_pools(dice, p, criticals=criticals) for p in _together(pools))
    net = sum(t.net for t in tests)
    return TogetherResult(tests=tests, net=net, outcome=Outcome.of(net))


def together_chances(*, pools: Sequence[Pools], criticals: bool = False) -> dict[Outcome, float]:
    """Exact chance of each outcome of the summed nets (within 1e-11).

    Sums that improbable are dropped along the way: 11 pools of 60 dice have a few thousand
    sums, most below 1e-30, and carrying them costs half a second for nothing.
    """
    pmfs = [_pools_pmf(p, criticals) for p in _together(pools)]
    combined = convolve(*pmfs, floor=NEGLIGIBLE)
    yes_but = failure = 0.0
    for net, p in combined.items():
        if net == YES_BUT_NET:
            yes_but += p
        elif net < YES_BUT_NET:
            failure += p
    # What was dropped is at most (sums kept) × 1e-16 per step; give it to the success side.
    return {
        Outcome.SUCCESS: min(1.0, max(0.0, 1.0 - yes_but - failure)),
        Outcome.YES_BUT: yes_but,
        Outcome.FAILURE: failure,
    }


def together_chance(*, pools: Sequence[Pools], criticals: bool = False) -> float:
    """Exact chance that the summed nets reach 2."""
    return together_chances(pools=pools, criticals=criticals)[Outcome.SUCCESS]
