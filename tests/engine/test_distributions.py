"""The shared distribution helpers, against counts written out by hand."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from engine.distributions import add_shifted, convolve

D6 = {face: 1 / 6 for face in range(1, 7)}


def test_convolve_two_d6_is_the_count_of_each_total():
    counts: dict[int, int] = {}
    for a, b in product(range(1, 7), repeat=2):
        counts[a + b] = counts.get(a + b, 0) + 1
    got = convolve(D6, D6)
    assert sorted(got) == sorted(counts)
    for total, n in counts.items():
        assert got[total] == pytest.approx(n / 36, abs=1e-15)


def test_convolve_of_nothing_is_a_certain_zero():
    assert convolve() == {0: 1.0}


def test_convolve_drops_terms_below_the_floor():
    rare = {0: 1 - 1e-9, 1: 1e-9}
    assert convolve(rare, rare, floor=1e-12) == pytest.approx({0: (1 - 1e-9) ** 2, 1: 2e-9})
    assert 2 not in convolve(rare, rare, floor=1e-12)  # 1e-18 is below the floor
    assert 2 in convolve(rare, rare)


def test_add_shifted_mixes_in_place():
    target = {0: 0.5}
    add_shifted(target, {0: 1.0, 1: 1.0}, shift=1, weight=0.25)
    assert target == {0: 0.5, 1: 0.25, 2: 0.25}
    exact = {k: Fraction(v).limit_denominator() for k, v in target.items()}
    assert sum(exact.values()) == 1
