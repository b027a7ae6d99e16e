"""Infinity MODs by name (cover, mimetism, range bands) and a Burst split among targets."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dice import ScriptedDice, SeededDice
from engine.systems import infinity
from engine.systems.infinity import (
    Band,
    InfinityError,
    Target,
    attack_mods,
    band_for,
    parse_bands,
    split_face_to_face,
    split_odds,
)
from tests.engine.systems.infinity.test_infinity import _judge_ftf
from tests.hypothesis_profiles import examples

COMBI = "40:+3,80:-3,120:-6"  # seed 002's Combi Rifle


# --- range bands ----------------------------------------------------------------------------


def test_the_combi_rifles_bands() -> None:
    bands = parse_bands(COMBI)
    assert bands == (Band(40, 3), Band(80, -3), Band(120, -6))
    assert parse_bands(" 40 : +3 ; 80:−3 ") == (Band(40, 3), Band(80, -3))


@pytest.mark.parametrize(
    ("distance", "mod"), [(0, 3), (40, 3), (41, -3), (60, -3), (80, -3), (81, -6), (120, -6)]
)
def test_a_band_includes_its_top_distance(distance: int, mod: int) -> None:
    assert band_for(parse_bands(COMBI), distance).mod == mod


def test_beyond_the_last_band_is_out_of_range() -> None:
    with pytest.raises(InfinityError, match="out of range"):
        band_for(parse_bands(COMBI), 121)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "distance:MOD"),
        ("40", "not a range band"),
        ("40:+3,30:-3", "nearest to the farthest"),
        ("40:+13", "at most ±12"),
        ("0:+3", "up to 1"),
        (",".join(f"{10 * i}:0" for i in range(1, 12)), "at most 10 range bands"),
    ],
)
def test_bad_bands_are_explained(text: str, message: str) -> None:
    with pytest.raises(InfinityError, match=message):
        parse_bands(text)


# --- named MODs -----------------------------------------------------------------------------


def test_each_mod_is_named_and_summed() -> None:
    mods = attack_mods(cover=True, mimetism=-3, bands=COMBI, distance=60, mods=1)
    assert [(m.name, m.value) for m in mods.named] == [
        ("Range 60 (up to 80)", -3),
        ("Cover", -3),
        ("Mimetism", -3),
        ("MODs", 1),
    ]
    assert (mods.total, mods.applied, mods.capped) == (-8, -8, False)
    assert mods.text() == "Range 60 (up to 80) −3 · Cover −3 · Mimetism −3 · MODs +1 = −8"


def test_the_cap_is_shown_when_it_bites() -> None:
    mods = attack_mods(cover=True, mimetism=-6, bands=COMBI, distance=100, mods=-2)
    assert (mods.total, mods.applied, mods.capped) == (-17, -12, True)
    assert mods.text().endswith("= −17, capped at −12 (MODs are held to ±12)")
    # A roll takes the sum; past what a roll accepts it takes the cap (the same SV).
    assert mods.for_roll == -17
    assert attack_mods(mods=-50, cover=True, mimetism=-6).for_roll == -12
    plain = attack_mods(mods=4)
    assert not plain.named_beyond_plain and plain.for_roll == 4


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"mimetism": -4}, "Mimetism is −3 or −6"),
        ({"bands": COMBI}, "both the weapon's range bands and the distance"),
        ({"distance": 40}, "both"),
        ({"bands": COMBI, "distance": 200}, "out of range"),
        ({"mods": 51}, "between -50 and 50"),
    ],
)
def test_bad_mods_are_refused(options, message) -> None:
    with pytest.raises(InfinityError, match=message):
        attack_mods(**options)


def test_cover_gives_the_save_three() -> None:
    # The same +3 for the target's saving roll: the attack damage drops by 3.
    plain = infinity.attack_damage(damage=13, armor=2)
    assert infinity.attack_damage(damage=13, armor=2, cover=True) == plain - 3


# --- a Burst split among targets ------------------------------------------------------------


def test_each_target_faces_only_the_dice_aimed_at_it() -> None:
    # BS 13 with B3: 2 dice at a BS 11 trooper, 1 at a PH 10 one. Attacker 12, 5, 9 drawn
    # first (in the order given), then target 1's 8, then target 2's 10.
    dice = ScriptedDice([12, 5, 9, 8, 10])
    result = split_face_to_face(
        dice,
        a_attribute=13,
        targets=[Target(11, aimed=2, name="Fusilier"), Target(10, aimed=1, name="Warband")],
    )
    assert dice.remaining == 0
    assert result.attack.faces == (12, 5, 9)
    first, second = result.duels
    # Target 1: the 12 beats its 8 and survives; the 5 is cancelled by the higher 8.
    assert first.a.faces == (12, 5) and first.b.faces == (8,)
    assert first.winner == "a" and [d.face for d in first.a_hits] == [12]
    # Target 2: the 9 faces only the 10 (a Critical at SV 10): the target wins.
    assert second.a.faces == (9,) and second.b.faces == (10,)
    assert second.winner == "b" and second.decision is infinity.Decision.CRITICAL


def test_a_split_attack_below_sv_1_rolls_nothing_at_anyone() -> None:
    dice = ScriptedDice([4, 7])
    result = split_face_to_face(
        dice, a_attribute=5, a_mods=-12, targets=[Target(11), Target(12, burst=1)]
    )
    assert result.attack.faces == () and result.attack.auto_fail
    assert [d.winner for d in result.duels] == ["b", "b"]


@pytest.mark.parametrize(
    ("targets", "message"),
    [
        ([], "1 to 10 targets"),
        ([Target(11, aimed=0)], "at least one die"),
        ([Target(11, aimed=6), Target(11, aimed=5)], "burst must be between 1 and 10"),
        ([Target(41)], "attribute must be between 0 and 40"),
    ],
)
def test_bad_splits_are_refused(targets, message) -> None:
    with pytest.raises(InfinityError, match=message):
        split_face_to_face(ScriptedDice([]), a_attribute=13, targets=targets)


def _brute_share(sv_a: int, n: int, sv_b: int, k: int) -> tuple[Fraction, Fraction]:
    """P(A wins), P(B wins) over every face of one share and its target (independent judge)."""
    a_win = b_win = 0
    for faces in itertools.product(range(1, 21), repeat=n + k):
        ha, hb = _judge_ftf(faces[:n], sv_a, faces[n:], sv_b)
        a_win += ha > 0
        b_win += hb > 0
    total = 20 ** (n + k)
    return Fraction(a_win, total), Fraction(b_win, total)


def test_each_targets_odds_match_an_independent_count() -> None:
    targets = [Target(11, aimed=2), Target(14, mods=-3, burst=1, aimed=1), Target(23, aimed=1)]
    odds = split_odds(a_attribute=13, a_mods=-1, targets=targets)
    for target, got in zip(targets, odds, strict=True):
        a_win, b_win = _brute_share(12, target.aimed, target.attribute + target.mods, target.burst)
        assert got.a_wins == pytest.approx(float(a_win), abs=1e-12)
        assert got.b_wins == pytest.approx(float(b_win), abs=1e-12)


@settings(max_examples=examples(60), deadline=None)
@given(
    aims=st.lists(st.integers(1, 3), min_size=1, max_size=3),
    attribute=st.integers(5, 24),
    seed=st.integers(0, 2**32),
)
def test_every_share_is_judged_by_the_rules_alone(aims, attribute, seed) -> None:
    targets = [Target(10 + i, aimed=aimed) for i, aimed in enumerate(aims)]
    result = split_face_to_face(SeededDice(seed), a_attribute=attribute, targets=targets)
    assert len(result.attack.faces) == sum(aims)
    start = 0
    for target, duel in zip(targets, result.duels, strict=True):
        share = result.attack.faces[start : start + target.aimed]
        start += target.aimed
        assert duel.a.faces == share
        a_hits, b_hits = _judge_ftf(share, attribute, duel.b.faces, target.attribute)
        assert (len(duel.a_hits), len(duel.b_hits)) == (a_hits, b_hits)
