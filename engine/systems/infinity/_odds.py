"""Exact chances of Infinity CodeOne rolls (RULES.md section 3): normal rolls, face to face
and saving rolls, with their caches and :func:`clear_caches`.

A face to face is never enumerated die by die (20^(a+b) outcomes): whether a side wins
depends only on the opponent's *best* success and whether it rolled a Critical, so we sum
over the opponent's best non-critical value (at most 20 states) and treat each of our own
dice independently given that state. That answers Burst 10 against Burst 10 in well under a
millisecond, with :class:`fractions.Fraction` arithmetic so the floats returned are
correctly rounded.

It exists apart from the rolling modules because it is the costly, cached part; it reuses
their judging of one face and their input checks, so the chances match the dice exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb

from engine.systems.infinity._rolls import judge_die
from engine.systems.infinity._save import fail_fraction, save_target
from engine.systems.infinity._sv import D20, rolling_sv


@dataclass(frozen=True, slots=True)
class NormalOdds:
    """Exact odds of a normal roll (floats within 1e-15 of the true fractions)."""

    success: float
    """P(at least one success)."""
    critical: float
    """P(at least one Critical)."""
    expected_successes: float
    expected_criticals: float


@lru_cache(maxsize=64)
def _die_counts(sv: int) -> tuple[int, tuple[int, ...], int]:
    """How many of the 20 faces give: a failure, a plain success of each value 0..19, a crit.

    Plain successes always have values below 20 (20 or more is a Critical), so 20 slots do.
    """
    plain = [0] * D20
    fail = crit = 0
    if sv < 1:
        return D20, tuple(plain), 0
    for face in range(1, D20 + 1):
        d = judge_die(face, sv)
        if d.critical:
            crit += 1
        elif d.success:
            plain[d.value] += 1
        else:
            fail += 1
    return fail, tuple(plain), crit


@lru_cache(maxsize=4096)
def _normal_exact(sv: int, burst: int) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    fail, _, crit = _die_counts(sv)
    p_fail = Fraction(fail, D20)
    p_crit = Fraction(crit, D20)
    return (
        1 - p_fail**burst,
        1 - (1 - p_crit) ** burst,
        burst * (1 - p_fail),
        burst * p_crit,
    )


def normal_odds(*, attribute: int, mods: int = 0, burst: int = 1) -> NormalOdds:
    """Exact odds of a normal roll: success, Critical, expected successes and Criticals."""
    sv = rolling_sv(attribute, mods, burst)
    exact = _normal_exact(sv, burst)
    return NormalOdds(*(float(x) for x in exact))


def chance(*, attribute: int, mods: int = 0, burst: int = 1) -> float:
    """P(at least one success) in a normal roll."""
    return normal_odds(attribute=attribute, mods=mods, burst=burst).success


@dataclass(frozen=True, slots=True)
class FaceToFaceOdds:
    """Exact odds of a face to face: who wins, and how many hits each side lands on average."""

    a_wins: float
    b_wins: float
    neither: float
    a_expected_hits: float
    b_expected_hits: float


def _side_odds(
    mine: tuple[int, tuple[int, ...], int], n: int, theirs: tuple[int, tuple[int, ...], int], k: int
) -> tuple[Fraction, Fraction]:
    """P(my side wins) and E[my hits], summed over the other side's crit-free best value.

    If they roll any Critical I land nothing. Otherwise let m be their best plain success
    (0 = none): each of my dice independently survives iff it is a Critical or a plain success
    above m, so P(I win | m) = 1 - (1 - q(m))^n and E[hits | m] = n q(m).
    """
    _, my_plain, my_crit = mine
    their_fail, their_plain, _ = theirs
    total_k = D20**k
    win = Fraction(0)
    hits = Fraction(0)
    below = their_fail  # faces of theirs that are a failure or a plain success <= m
    previous = 0  # P(their best <= m-1 and no crit) * 20^k
    survive = my_crit + sum(my_plain)  # my faces that beat m (crit or value > m), times 20
    for m in range(D20):
        below += their_plain[m]
        survive -= my_plain[m]
        cumulative = below**k
        weight = cumulative - previous  # their state: no crit, best plain value exactly m
        previous = cumulative
        if weight:
            q = Fraction(survive, D20)
            win += weight * (1 - (1 - q) ** n)
            hits += weight * n * q
    return win / total_k, hits / total_k


@lru_cache(maxsize=8192)
def ftf_exact(sv_a: int, burst_a: int, sv_b: int, burst_b: int) -> tuple[Fraction, ...]:
    da, db = _die_counts(sv_a), _die_counts(sv_b)
    a_win, a_hits = _side_odds(da, burst_a, db, burst_b)
    b_win, b_hits = _side_odds(db, burst_b, da, burst_a)
    return a_win, b_win, 1 - a_win - b_win, a_hits, b_hits


def ftf_odds(
    *,
    a_attribute: int,
    a_mods: int = 0,
    a_burst: int = 1,
    b_attribute: int,
    b_mods: int = 0,
    b_burst: int = 1,
) -> FaceToFaceOdds:
    """Exact odds of a face to face: P(A wins), P(B wins), P(neither), expected hits."""
    sv_a = rolling_sv(a_attribute, a_mods, a_burst, "a_")
    sv_b = rolling_sv(b_attribute, b_mods, b_burst, "b_")
    exact = ftf_exact(sv_a, a_burst, sv_b, b_burst)
    return FaceToFaceOdds(*(float(x) for x in exact))


def ftf_chance(
    *,
    a_attribute: int,
    a_mods: int = 0,
    a_burst: int = 1,
    b_attribute: int,
    b_mods: int = 0,
    b_burst: int = 1,
) -> tuple[float, float]:
    """``(P(A wins), P(B wins))``; the rest is "nobody wins". See :func:`ftf_odds` for hits."""
    odds = ftf_odds(
        a_attribute=a_attribute,
        a_mods=a_mods,
        a_burst=a_burst,
        b_attribute=b_attribute,
        b_mods=b_mods,
        b_burst=b_burst,
    )
    return odds.a_wins, odds.b_wins


def clear_caches() -> None:
    """Forget every cached chance (benchmarks measure the uncached cost with this)."""
    _die_counts.cache_clear()
    _normal_exact.cache_clear()
    ftf_exact.cache_clear()
    _save_exact.cache_clear()


@dataclass(frozen=True, slots=True)
class SaveOdds:
    """Exact odds of a saving roll."""

    fail_chance: float
    """P(one save fails) = clamp(attack damage, 0, 20) / 20."""
    no_wounds: float
    """P(every save passes)."""
    expected_wounds: float
    wounds: tuple[float, ...]
    """``wounds[w]`` = P(exactly w Wounds), w = 0..hits."""


@lru_cache(maxsize=1024)
def _save_exact(target: int, hits: int) -> tuple[Fraction, ...]:
    p = fail_fraction(target)
    return tuple(comb(hits, w) * p**w * (1 - p) ** (hits - w) for w in range(hits + 1))


def save_odds(
    *, damage: int, armor: int, cover: bool = False, mods: int = 0, hits: int = 1
) -> SaveOdds:
    """Exact distribution of Wounds from a saving roll."""
    target = save_target(damage, armor, cover, mods, hits)
    distribution = _save_exact(target, hits)
    p = fail_fraction(target)
    return SaveOdds(
        fail_chance=float(p),
        no_wounds=float(distribution[0]),
        expected_wounds=float(hits * p),
        wounds=tuple(float(x) for x in distribution),
    )


def save_chance(
    *, damage: int, armor: int, cover: bool = False, mods: int = 0, hits: int = 1
) -> float:
    """P(every save passes, no Wound) — the defender's chance of success."""
    return save_odds(damage=damage, armor=armor, cover=cover, mods=mods, hits=hits).no_wounds
