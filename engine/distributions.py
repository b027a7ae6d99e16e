"""Exact discrete distributions, shared by every system whose chances are sums of dice.

A distribution is a plain ``{value: probability}`` dict: the systems build them once per
pool size (cached) and then only add and convolve, so nothing heavier is needed. Where a
rule makes the dice unbounded (exploding 6s), its series is summed term by term until
what is left is below :data:`SERIES_REMAINDER`, one tolerance for every chance shown.
"""

from __future__ import annotations

from collections.abc import Mapping

#: Every infinite series is summed until the mass not yet summed is below this.
SERIES_REMAINDER = 1e-12

Pmf = dict[int, float]


def add_shifted(
    target: Pmf, source: Mapping[int, float], *, shift: int = 0, weight: float = 1.0
) -> None:
    """Add ``weight`` × ``source`` moved by ``shift`` into ``target`` (mixtures, in place)."""
    for value, p in source.items():
        target[value + shift] = target.get(value + shift, 0.0) + weight * p


def convolve(*pmfs: Mapping[int, float], floor: float = 0.0) -> Pmf:
    """The distribution of a sum of independent parts; terms below ``floor`` are dropped
    as they are made, so long sums of many pools stay small."""
    result: Pmf = {0: 1.0}
    for pmf in pmfs:
        terms = [(b, pb) for b, pb in pmf.items() if pb >= floor]
        combined: Pmf = {}
        for a, pa in result.items():
            for b, pb in terms:
                combined[a + b] = combined.get(a + b, 0.0) + pa * pb
        result = {value: p for value, p in combined.items() if p >= floor}
    return result
