"""Exact chances of CODA tests (RULES.md §1), as functions of what the dice must total.

Every chance depends on the modifiers only through ``need`` (what the dice must total for
margin 0) or, for an opposed test, the ``offset`` between the sides, so the tables below
are built once and the public functions of :mod:`engine.systems.coda` validate their
input and then look up here. The only infinite part is the rolling-6s run, a geometric
series summed term by term until the mass left over is below 1e-12; that rest is added
to the highest results, where it belongs.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from engine.distributions import SERIES_REMAINDER, Pmf, convolve
from engine.systems.coda._degrees import DIE_SIDES, Degree, Ones


def dice_distribution() -> tuple[dict[int, float], float]:
    """The probability of every 2d6 total under rolling 6s, and the mass left unsummed.

    The 35 non-(6,6) outcomes are counted; (6,6) continues with extra dice: ``j`` more
    sixes then a 1..5, each with probability (1/36)(1/6)^(j+1). The series stops when the
    mass not yet summed (the chance of ``j + 1`` more sixes) is below SERIES_REMAINDER.
    """
    pmf: dict[int, float] = {}
    for a in range(1, DIE_SIDES + 1):
        for b in range(1, DIE_SIDES + 1):
            if a == b == DIE_SIDES:
                continue
            pmf[a + b] = pmf.get(a + b, 0.0) + 1 / 36
    remainder = 1 / 36  # the chance of reaching the next extra die
    base = 2 * DIE_SIDES
    while remainder >= SERIES_REMAINDER:
        each = remainder / DIE_SIDES
        for face in range(1, DIE_SIDES):
            pmf[base + face] = pmf.get(base + face, 0.0) + each
        base += DIE_SIDES
        remainder = each  # the chance that this extra die showed 6 as well
    return pmf, remainder


_PMF, _REMAINDER = dice_distribution()
_MAX_SUM = max(_PMF)


def build_tail() -> tuple[float, ...]:
    """P(dice total >= s) for 0 <= s <= _MAX_SUM + 1, the unsummed rest (all above
    _MAX_SUM) included."""
    tail = [0.0] * (_MAX_SUM + 2)
    running = _REMAINDER
    for s in range(_MAX_SUM + 1, -1, -1):
        running += _PMF.get(s, 0.0) if s <= _MAX_SUM else 0.0
        tail[s] = min(1.0, running)
    return tuple(tail)


_TAIL = build_tail()
_ALL_ONES = 1 / 36
_ALL_ONES_SUM = 2


def tail(need: int) -> float:
    """P(dice total >= need)."""
    if need <= 0:
        return 1.0
    if need > _MAX_SUM + 1:
        return 0.0  # below SERIES_REMAINDER
    return _TAIL[need]


@lru_cache(maxsize=4096)
def degree_probabilities(need: int, ones: Ones) -> tuple[float, ...]:
    """P(each degree), worst first, when the dice must total ``need`` for margin 0."""
    probs = []
    for degree in Degree:
        low, high = degree.margins
        upper = 0.0 if high is None else tail(need + high + 1)
        lower = 1.0 if low is None else tail(need + low)
        probs.append(max(0.0, lower - upper))
    cap = ones.cap
    natural = Degree.of(_ALL_ONES_SUM - need)
    if cap is not None and natural > cap:
        probs[natural + 3] -= _ALL_ONES
        probs[cap + 3] += _ALL_ONES
    return tuple(probs)


@lru_cache(maxsize=4096)
def success_probability(need: int, ones: Ones) -> float:
    """P(success) when the dice must total ``need``: the tail, less all 1s where capped."""
    p = tail(need)
    cap = ones.cap
    if cap is not None and not cap.success and need <= _ALL_ONES_SUM:
        p -= _ALL_ONES
    return min(1.0, max(0.0, p))


@lru_cache(maxsize=4096)
def opposed_probabilities(offset: int) -> tuple[float, float, float]:
    """(P(A wins), P(B wins), P(tie)) when A's result = A's dice − B's dice + ``offset``…

    … i.e. ``offset`` = (A's modifier − penalty) − (B's modifier − penalty).
    """
    a_wins = b_wins = 0.0
    for s, p in _PMF.items():
        # A wins when its dice > s − offset; B wins when A's dice < s − offset.
        a_wins += p * tail(s - offset + 1)
        b_wins += p * (1.0 - tail(s - offset))
    # B's unsummed mass lies above every summed total: there B wins but for a vanishing tail.
    b_wins += _REMAINDER
    tie = max(0.0, 1.0 - a_wins - b_wins)
    return a_wins, b_wins, tie


def _contributions(need: int, ones: Ones) -> Pmf:
    """P(each bonus a helper adds to the leader) when its dice must total ``need``."""
    contributions: Pmf = {}
    for degree, p in zip(Degree, degree_probabilities(need, ones), strict=True):
        contributions[degree.contribution] = contributions.get(degree.contribution, 0.0) + p
    return contributions


def combined_probability(helper_needs: Iterable[int], leader_need: int, ones: Ones) -> float:
    """P(the leader of a combined test succeeds) given what each helper's dice must total.

    The helpers' contributions are independent, so the leader's bonus is distributed as
    the convolution of each helper's contribution, read off its degree chances.
    """
    bonus_dist = convolve(*(_contributions(need, ones) for need in helper_needs))
    return min(
        1.0,
        sum(p * success_probability(leader_need - bonus, ones) for bonus, p in bonus_dist.items()),
    )


def clear_caches() -> None:
    """Forget every cached chance (for benchmarks measuring the uncached cost)."""
    degree_probabilities.cache_clear()
    success_probability.cache_clear()
    opposed_probabilities.cache_clear()
