"""Exact chances of a Drama test (RULES.md §5), without rolling.

The chances are exact distributions of the net: Bd and Rd are binomial, and the Dd pool is
split into its number of 6s K (negative binomial: every chain of explosions ends on one
non-6) and the sum T of the non-6 faces; the series over K is summed until what is left
is below 1e-12.

It exists apart from the rolling (:mod:`engine.systems.drama._dice`) because it is the
costly, cached part: its tables and their caches live here, with :func:`clear_caches`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from math import exp, lgamma, log, log1p

from engine.distributions import SERIES_REMAINDER, Pmf, add_shifted, convolve
from engine.systems.drama._dice import CRITICAL_SIXES, NEGLIGIBLE, Outcome, checked_pools


def _negated(pmf: Mapping[int, float]) -> Pmf:
    return {-value: p for value, p in pmf.items()}


#: Table cells below this are left out: thousands of them together stay far below 1e-12.
_TINY = 1e-30


def _binomial(n: int, p: float) -> Pmf:
    """P(k successes in n trials of chance p), every term of at least ``_TINY``.

    Computed from the mode outwards in log space (the distribution is unimodal, so the walk
    stops where the terms fall below ``_TINY``): a pool of a thousand dice costs a few dozen
    terms, not a thousand big-integer binomial coefficients, which no float holds anyway.
    """
    if n == 0:
        return {0: 1.0}
    log_p, log_q, log_n = log(p), log1p(-p), lgamma(n + 1)

    def term(k: int) -> float:
        return exp(log_n - lgamma(k + 1) - lgamma(n - k + 1) + k * log_p + (n - k) * log_q)

    mode = min(n, int((n + 1) * p))
    pmf: Pmf = {}
    for step in (-1, 1):
        k = mode if step < 0 else mode + 1
        while 0 <= k <= n:
            value = term(k)
            if value < _TINY:
                break
            pmf[k] = value
            k += step
    return pmf


@lru_cache(maxsize=256)
def counted_with_sixes(dice: int) -> tuple[Pmf, ...]:
    """For a pool where 2 faces of 6 count, ``[s][c]`` = P(c counted and s of them special).

    A Bd counts on 5 or 6 and is a critical 6 on a 6; an Rd counts on 1 or 2 and is a
    critical-cancelling 1 on a 1. Both are the same shape: 1/6 special, 1/6 plain, 4/6 not:
    s is binomial (n, 1/6), and of the other n − s dice each is plain with chance 1/5. With
    penalty dice an Rd pool reaches about a thousand dice, so cells below ``_TINY`` are left
    out (their rows stay, empty).
    """
    table: list[Pmf] = [{} for _ in range(dice + 1)]
    for special, p_special in _binomial(dice, 1 / 6).items():
        table[special] = {
            special + plain: p_special * p_plain
            for plain, p_plain in _binomial(dice - special, 1 / 5).items()
            if p_special * p_plain >= _TINY
        }
    return tuple(table)


def _marginal(rows: Sequence[Mapping[int, float]], *, special_weight: int) -> Pmf:
    """P(counted + special_weight × special) over a ``counted_with_sixes`` table."""
    result: Pmf = {}
    for special, row in enumerate(rows):
        add_shifted(result, row, shift=special_weight * special)
    return result


@lru_cache(maxsize=256)
def _drama_terminals(dice: int) -> Pmf:
    """Sum of the non-6 face ending each explosion chain: −1 (a 1) 1/5, 0 2/5, +1 2/5."""
    return convolve(*([{-1: 0.2, 0: 0.4, 1: 0.4}] * dice))


def _sixes_series(dice: int) -> list[float]:
    """P(K = k), K the number of Dd 6s, until the unlisted remainder is below 1e-12."""
    p = (5 / 6) ** dice
    series = [p]
    total = p
    k = 0
    while 1.0 - total >= SERIES_REMAINDER and dice > 0:
        p *= (dice + k) / (k + 1) / 6
        k += 1
        series.append(p)
        total += p
    return series


@lru_cache(maxsize=4096)
def _net_pmf(
    base: int, resistance: int, drama: int, criticals: bool
) -> tuple[tuple[int, float], ...]:
    base_rows = counted_with_sixes(base)
    resistance_rows = counted_with_sixes(resistance)
    sixes = _sixes_series(drama)
    terminals = _drama_terminals(drama)
    plain_against = _negated(_marginal(resistance_rows, special_weight=0))
    net: Pmf = {}
    if not criticals:
        plain = convolve(_marginal(base_rows, special_weight=0), plain_against, terminals)
        for k, pk in enumerate(sixes):
            add_shifted(net, plain, shift=k, weight=pk)
    else:
        net = _critical_net(base_rows, resistance_rows, sixes, plain_against, terminals)
    return tuple(sorted((value, p) for value, p in net.items() if p > 0.0))


def _critical_net(
    base_rows: Sequence[Mapping[int, float]],
    resistance_rows: Sequence[Mapping[int, float]],
    sixes: Sequence[float],
    plain_against: Mapping[int, float],
    terminals: Mapping[int, float],
) -> Pmf:
    """net = X + T − R + bonus, X = Bd successes + Dd 6s, m = Bd 6s + Dd 6s, O = Rd 1s and
    bonus = max(0, m − O) when m ≥ 3 (else 0).

    Once m reaches the most Rd 1s that can happen, O ≤ m and the bonus is m − O: all those
    m share one −(R + O), and their X + m is the whole X + m (a cheap convolution) less the
    few small m. Only m below that (and m < 3, no bonus) are gathered one by one, jointly
    with X (``joint[m]`` = P(m, X)), each with its own Rd distribution.
    """
    # Cells this improbable change no chance shown (all of them together stay below 1e-12):
    # dropping them keeps 60/60/60 from convolving thousands of ~0 terms.
    negated = [
        {v: p for v, p in _negated(row).items() if p >= NEGLIGIBLE} for row in resistance_rows
    ]
    ones_seen = [ones for ones, row in enumerate(negated) if row]
    first_beyond = max(CRITICAL_SIXES, max(ones_seen, default=0))
    joint: dict[int, Pmf] = {}
    for base_sixes, full_row in enumerate(base_rows[:first_beyond]):
        row = {v: p for v, p in full_row.items() if p >= NEGLIGIBLE}
        for k, pk in enumerate(sixes[: first_beyond - base_sixes]):
            add_shifted(joint.setdefault(base_sixes + k, {}), row, shift=k, weight=pk)
    # X + m over every m (B + S6 + 2K), less the m gathered one by one.
    beyond: Pmf = {}
    with_sixes = _marginal(base_rows, special_weight=1)
    for k, pk in enumerate(sixes):
        add_shifted(beyond, with_sixes, shift=2 * k, weight=pk)
    ordinary: Pmf = {}
    mixed: Pmf = {}
    for m, cells in joint.items():
        add_shifted(beyond, cells, shift=m, weight=-1.0)
        if m < CRITICAL_SIXES:
            add_shifted(ordinary, cells)
        else:
            against_m: Pmf = {}
            for ones in ones_seen:
                add_shifted(against_m, negated[ones], shift=max(0, m - ones))
            add_shifted(mixed, convolve(cells, against_m, floor=NEGLIGIBLE))
    against_all = _negated(_marginal(resistance_rows, special_weight=1))
    add_shifted(mixed, convolve(ordinary, plain_against, floor=NEGLIGIBLE))
    add_shifted(mixed, convolve(beyond, against_all, floor=NEGLIGIBLE))
    return convolve(mixed, terminals, floor=NEGLIGIBLE)


def net_distribution(
    *, base: int, resistance: int = 0, drama: int = 0, criticals: bool = False
) -> dict[int, float]:
    """Exact P(net = n) for every n (the unlisted tail of big nets is below 1e-12)."""
    base, resistance, drama = checked_pools(base, resistance, drama)
    return dict(_net_pmf(base, resistance, drama, bool(criticals)))


def chance(*, base: int, resistance: int = 0, drama: int = 0, criticals: bool = False) -> float:
    """Exact chance of net ≥ 2, explosions and (if on) the criticals rule included."""
    return outcome_chances(base=base, resistance=resistance, drama=drama, criticals=criticals)[
        Outcome.SUCCESS
    ]


def outcome_chances(
    *, base: int, resistance: int = 0, drama: int = 0, criticals: bool = False
) -> dict[Outcome, float]:
    """Exact chance of each outcome (before any price is paid)."""
    base, resistance, drama = checked_pools(base, resistance, drama)
    return dict(zip(Outcome, _outcomes(base, resistance, drama, bool(criticals)), strict=True))


@lru_cache(maxsize=4096)
def _outcomes(base: int, resistance: int, drama: int, criticals: bool) -> tuple[float, ...]:
    by_outcome = dict.fromkeys(Outcome, 0.0)
    for net, p in _net_pmf(base, resistance, drama, criticals):
        by_outcome[Outcome.of(net)] += p
    # The truncated tail (< 1e-12) is all large nets, i.e. successes.
    yes_but, failure = by_outcome[Outcome.YES_BUT], by_outcome[Outcome.FAILURE]
    return (min(1.0, max(0.0, 1.0 - yes_but - failure)), yes_but, failure)


def clear_caches() -> None:
    """Forget every cached distribution (for benchmarks that time the computation)."""
    for cached in (_outcomes, _net_pmf, counted_with_sixes, _drama_terminals):
        cached.cache_clear()
