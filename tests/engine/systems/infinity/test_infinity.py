"""Infinity CodeOne (RULES.md section 3): every rule pinned with ScriptedDice, the seed's worked
examples with their exact faces, and the exact chances against an independent count."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dice import DiceError, ScriptedDice, SeededDice
from engine.errors import InputError
from engine.systems import infinity
from engine.systems.infinity import Decision, DieStatus, InfinityError
from tests.hypothesis_profiles import examples

C, S, F, X = DieStatus.CRITICAL, DieStatus.SUCCESS, DieStatus.FAILURE, DieStatus.CANCELLED


def statuses(result: infinity.NormalResult) -> list[DieStatus]:
    return [d.status for d in result.dice]


def ftf(faces, a, b, *, a_burst=1, b_burst=1, a_mods=0, b_mods=0):
    dice = ScriptedDice(faces)
    result = infinity.face_to_face(
        dice,
        a_attribute=a,
        a_mods=a_mods,
        a_burst=a_burst,
        b_attribute=b,
        b_mods=b_mods,
        b_burst=b_burst,
    )
    assert dice.remaining == 0, "the roll drew fewer dice than scripted"
    return result


# --------------------------------------------------------------------------- Success Value


class TestSuccessValue:
    def test_attribute_plus_mods(self):
        assert infinity.success_value(attribute=12, mods=-3) == 9

    @pytest.mark.parametrize(
        ("mods", "applied"), [(-15, -12), (-12, -12), (-11, -11), (12, 12), (13, 12), (50, 12)]
    )
    def test_mod_sum_is_clamped_to_12(self, mods, applied):
        assert infinity.clamp_mods(mods) == applied
        assert infinity.success_value(attribute=13, mods=mods) == 13 + applied

    def test_seed_maximum_modifier_example(self):
        # Seed 002: Combi Rifle BS 13, MODs −6 −3 −6 = −15, capped at −12: SV 1.
        result = infinity.normal(ScriptedDice([1]), attribute=13, mods=-6 - 3 - 6)
        assert (result.mods, result.applied_mods, result.sv) == (-15, -12, 1)
        assert result.mods_clamped
        assert result.arithmetic == "13 + MOD −15 (clamped to −12) = SV 1"
        assert result.describe("BS") == "BS 13 + MOD −15 (clamped to −12) = SV 1"
        assert statuses(result) == [C]  # a 1 on SV 1 is exactly the SV

    def test_unclamped_arithmetic_says_nothing_about_the_cap(self):
        assert infinity.describe_sv(12, -3) == "12 + MOD −3 = SV 9"
        assert infinity.describe_sv(12, 0, "BS") == "BS 12 = SV 12"
        assert infinity.describe_sv(12, 0) == "SV 12"
        assert not infinity.normal(ScriptedDice([1]), attribute=12, mods=-3).mods_clamped

    def test_above_20_arithmetic_gives_the_excess_and_crit_range(self):
        text = "CC 23 = SV 23 — SV 20, +3 to every die, Critical on 17+"
        assert infinity.describe_sv(23, 0, "CC") == text

    def test_below_1_arithmetic_says_automatic_failure(self):
        assert infinity.describe_sv(5, -8).endswith("SV −3 — automatic failure, no dice rolled")

    @pytest.mark.parametrize(
        ("sv", "first"), [(0, None), (1, 1), (12, 12), (20, 20), (21, 19), (23, 17), (40, 1)]
    )
    def test_crit_from(self, sv, first):
        assert infinity.crit_from(sv) == first


# --------------------------------------------------------------------------- normal rolls


class TestNormal:
    def test_seed_normal_roll_example(self):
        # Seed 002: Fusilier BS 12 with MOD −3 has SV 9; an 8 succeeds, a 12 fails.
        hit = infinity.normal(ScriptedDice([8]), attribute=12, mods=-3)
        miss = infinity.normal(ScriptedDice([12]), attribute=12, mods=-3)
        assert hit.sv == 9 and hit.success and statuses(hit) == [S]
        assert not miss.success and statuses(miss) == [F]

    def test_face_equal_to_sv_is_critical_below_success_above_failure(self):
        result = infinity.normal(ScriptedDice([10, 9, 11, 1, 20]), attribute=10, burst=5)
        assert statuses(result) == [C, S, F, S, F]
        assert [d.value for d in result.dice] == [10, 9, 11, 1, 20]
        assert result.criticals == 1 and result.successes == 3
        assert result.critical and result.success
        assert len(result.hits) == 3

    def test_sv_20_crits_on_20_only(self):
        result = infinity.normal(ScriptedDice([20, 19, 1]), attribute=20, burst=3)
        assert statuses(result) == [C, S, S]

    def test_sv_below_1_fails_automatically_without_rolling(self):
        dice = ScriptedDice([])  # drawing anything would raise
        result = infinity.normal(dice, attribute=5, mods=-8, burst=3)
        assert result.auto_fail and result.sv == -3
        assert result.dice == () and not result.success and dice.used == 0

    def test_sv_exactly_0_fails_automatically(self):
        assert infinity.normal(ScriptedDice([]), attribute=0).auto_fail
        assert infinity.normal(ScriptedDice([]), attribute=12, mods=-12).auto_fail
        assert not infinity.normal(ScriptedDice([1]), attribute=13, mods=-12).auto_fail

    def test_seed_cc_23_example(self):
        # Seed 002: CC 23 adds 3 to the die (4 + 3 = 7), every roll succeeds, 17+ crits.
        faces = [4, 16, 17, 18, 19, 20, 1]
        result = infinity.normal(ScriptedDice(faces), attribute=23, burst=len(faces))
        assert [d.value for d in result.dice] == [7, 19, 20, 21, 22, 23, 4]
        assert statuses(result) == [S, S, C, C, C, C, S]
        assert all(d.success for d in result.dice)
        assert result.excess == 3 and result.crit_from == 17

    def test_mods_can_push_sv_above_20(self):
        result = infinity.normal(ScriptedDice([15, 14]), attribute=18, mods=7, burst=2)
        assert result.sv == 25 and statuses(result) == [C, S]
        assert [d.value for d in result.dice] == [20, 19]

    def test_burst_draws_that_many_dice(self):
        dice = ScriptedDice([1, 2, 3, 4, 5, 6])
        result = infinity.normal(dice, attribute=12, burst=4)
        assert result.faces == (1, 2, 3, 4) and dice.remaining == 2

    def test_normal_roll_has_no_cancelled_dice(self):
        result = infinity.normal(SeededDice(3), attribute=15, burst=10)
        assert all(d.status is not X for d in result.dice)


# --------------------------------------------------------------------------- face to face


class TestFaceToFaceSeedExamples:
    def test_1v1_higher_success_wins(self):
        # Fusilier BS 12 (+3 range −3 cover) vs Zhanshi BS 11: her 7 beats his lower success.
        result = ftf([4, 7], 12, 11, a_mods=3 - 3, b_mods=3 - 3)
        assert result.a.sv == 12 and result.b.sv == 11
        assert result.winner == "b" and [d.value for d in result.b_hits] == [7]
        assert statuses(result.a) == [X] and result.decision is Decision.HIGHER

    def test_both_critical_with_full_burst_cancels_everything(self):
        # Fusilier full Burst 3 vs Zhanshi A: both roll a Critical; nobody hits.
        result = ftf([12, 3, 8, 11], 12, 11, a_burst=3)
        assert result.winner is None and result.a_hits == () and result.b_hits == ()
        assert statuses(result.a) == [X, X, X] and statuses(result.b) == [X]
        assert result.decision is Decision.BOTH_CRITICAL
        # Zhanshi B's separate normal roll: 14 against SV 11 misses.
        assert not infinity.normal(ScriptedDice([14]), attribute=11).success

    def test_split_burst_first_roll_the_9_wins(self):
        # Two shots vs Zhanshi A: her 5 cancels his 4, his 9 wins: Zhanshi A is hit once.
        result = ftf([4, 9, 5], 12, 11, a_burst=2)
        assert result.winner == "a"
        assert [d.face for d in result.a_hits] == [9]
        assert statuses(result.a) == [X, S] and statuses(result.b) == [X]

    def test_split_burst_second_roll_both_11_zhanshi_crits(self):
        # The brief's example: SV 12 rolling 11 vs SV 11 rolling 11 -> the SV 11 side wins
        # with a Critical.
        result = ftf([11, 11], 12, 11)
        assert result.winner == "b"
        assert statuses(result.a) == [X] and statuses(result.b) == [C]
        assert result.b_hits[0].critical and result.a_hits == ()
        assert result.decision is Decision.CRITICAL


class TestCancellation:
    def test_all_of_a_then_all_of_b(self):
        result = ftf([3, 4, 5], 12, 11, a_burst=2)
        assert result.a.faces == (3, 4) and result.b.faces == (5,)
        assert result.dice == result.a.dice + result.b.dice

    def test_one_critical_beats_many_successes(self):
        result = ftf([12, 10, 9, 8], 12, 11, b_burst=3)
        assert result.winner == "a" and len(result.a_hits) == 1
        assert statuses(result.b) == [X, X, X]

    def test_one_critical_beats_a_higher_success(self):
        result = ftf([5, 16], 5, 17)
        assert result.winner == "a" and statuses(result.b) == [X]

    def test_one_critical_against_two_criticals_cancels_all(self):
        # Above 20 both sides: A SV 23 rolls a 17 (20, crit); B SV 25 rolls 16 and 18 (crits).
        result = ftf([17, 16, 18], 23, 25, b_burst=2)
        assert result.winner is None and statuses(result.a) == [X]
        assert statuses(result.b) == [X, X] and result.decision is Decision.BOTH_CRITICAL

    def test_both_critical_also_discards_plain_successes(self):
        result = ftf([12, 11, 2, 11, 10], 12, 11, a_burst=3, b_burst=2)
        assert result.winner is None
        assert statuses(result.a) == [X, X, X] and statuses(result.b) == [X, X]

    def test_equal_values_cancel_each_other(self):
        result = ftf([7, 7], 12, 11)
        assert result.winner is None and result.decision is Decision.TIE
        assert statuses(result.a) == [X] and statuses(result.b) == [X]

    def test_equal_best_values_cancel_and_take_the_lower_ones_along(self):
        result = ftf([7, 9, 9, 3], 12, 11, a_burst=2, b_burst=2)
        assert result.winner is None and statuses(result.a) == [X, X]
        assert statuses(result.b) == [X, X]

    def test_every_success_above_the_other_best_is_a_hit(self):
        result = ftf([10, 8, 11, 9], 12, 11, a_burst=3)
        assert result.winner == "a"
        assert [d.face for d in result.a_hits] == [10, 11]
        assert statuses(result.a) == [S, X, S] and statuses(result.b) == [X]

    def test_critical_survives_but_plain_success_falls_to_a_higher_enemy_success(self):
        # RULES.md: a plain success survives only if the other side has no success >= it,
        # even one that is itself cancelled by our Critical.
        result = ftf([12, 5, 14], 12, 15, a_burst=2)
        assert result.winner == "a" and statuses(result.a) == [C, X]
        assert [d.face for d in result.a_hits] == [12] and statuses(result.b) == [X]

    def test_critical_and_a_plain_success_above_the_enemy_both_hit(self):
        result = ftf([12, 9, 6], 12, 15, a_burst=2)
        assert statuses(result.a) == [C, S] and len(result.a_hits) == 2

    def test_above_20_values_compare_face_plus_excess(self):
        # A: SV 22 rolls 10 -> value 12; B: SV 15 rolls 13 -> B's 13 is higher.
        result = ftf([10, 13], 22, 15)
        assert result.a.dice[0].value == 12 and result.winner == "b"
        # A: 11 -> 13 equals B's 13: both cancelled.
        tie = ftf([11, 13], 22, 15)
        assert tie.winner is None and tie.decision is Decision.TIE
        # A: 12 -> 14 beats B's 13 though the face 12 is lower than 13.
        win = ftf([12, 13], 22, 15)
        assert win.winner == "a" and win.a_hits[0].face == 12

    def test_above_20_critical_beats_plain_success(self):
        result = ftf([18, 14], 22, 15)  # 18 + 2 = 20: Critical
        assert result.winner == "a" and result.a_hits[0].critical

    def test_failures_stay_failures(self):
        result = ftf([15, 3, 20], 12, 11, a_burst=2)
        assert statuses(result.a) == [F, S] and statuses(result.b) == [F]
        assert result.winner == "a" and result.decision is Decision.UNOPPOSED

    def test_both_fail(self):
        result = ftf([15, 20], 12, 11)
        assert result.winner is None and result.decision is Decision.BOTH_FAILED

    def test_automatic_failure_side_rolls_nothing(self):
        result = ftf([5], 5, 11, a_mods=-8)
        assert result.a.auto_fail and result.a.dice == ()
        assert result.b.faces == (5,) and result.winner == "b"

    def test_cancelled_die_keeps_its_own_judgement(self):
        result = ftf([4, 7], 12, 11)
        cancelled = result.a.dice[0]
        assert cancelled.success and cancelled.cancelled and not cancelled.hit

    def test_script_too_short_raises(self):
        with pytest.raises(DiceError):
            infinity.face_to_face(ScriptedDice([3]), a_attribute=12, b_attribute=11)


def _judge_faces(faces, sv):
    """Independent reading of RULES.md: (kind, value) per die, kind 2 crit / 1 success / 0 fail."""
    out = []
    for f in faces:
        if sv > 20:
            v = f + sv - 20
            out.append((2 if v >= 20 else 1, v))
        else:
            out.append((2 if f == sv else 1 if f < sv else 0, f))
    return out


def _judge_ftf(a_faces, sv_a, b_faces, sv_b):
    """Returns (a hits, b hits) by pairwise cancellation, written apart from the engine."""
    a = _judge_faces(a_faces, sv_a) if sv_a >= 1 else []
    b = _judge_faces(b_faces, sv_b) if sv_b >= 1 else []

    def survivors(mine, theirs):
        out = 0
        for kind, value in mine:
            if kind == 0:
                continue
            beaten = False
            for other_kind, other_value in theirs:
                if other_kind == 2 or (other_kind == 1 and kind == 1 and other_value >= value):
                    beaten = True
            out += not beaten
        return out

    return survivors(a, b), survivors(b, a)


SVS = [-2, 1, 2, 9, 11, 12, 19, 20, 21, 23, 28, 40]


def _brute_ftf(sv_a, n, sv_b, k):
    a_win = b_win = a_hits = b_hits = 0
    rolls_a = n if sv_a >= 1 else 0
    rolls_b = k if sv_b >= 1 else 0
    for faces in itertools.product(range(1, 21), repeat=rolls_a + rolls_b):
        ha, hb = _judge_ftf(faces[:rolls_a], sv_a, faces[rolls_a:], sv_b)
        a_win += ha > 0
        b_win += hb > 0
        a_hits += ha
        b_hits += hb
    total = 20 ** (rolls_a + rolls_b)
    return [Fraction(x, total) for x in (a_win, b_win, a_hits, b_hits)]


def _attr(sv):
    """An (attribute, mods) pair reaching any sv in -12..40."""
    return (sv, 0) if sv >= 0 else (0, sv)


def _exact_odds(sv_a, n, sv_b, k):
    (aa, am), (ba, bm) = _attr(sv_a), _attr(sv_b)
    return infinity.ftf_odds(
        a_attribute=aa, a_mods=am, a_burst=n, b_attribute=ba, b_mods=bm, b_burst=k
    )


class TestFaceToFaceAgainstIndependentJudge:
    @pytest.mark.parametrize(("sv_a", "sv_b"), [(12, 11), (23, 15), (11, 11), (22, 21)])
    def test_engine_roll_matches_judge_on_every_2v1_face(self, sv_a, sv_b):
        (aa, am), (ba, bm) = _attr(sv_a), _attr(sv_b)
        for faces in itertools.product(range(1, 21), repeat=3):
            r = infinity.face_to_face(
                ScriptedDice(faces),
                a_attribute=aa,
                a_mods=am,
                a_burst=2,
                b_attribute=ba,
                b_mods=bm,
                b_burst=1,
            )
            assert (len(r.a_hits), len(r.b_hits)) == _judge_ftf(faces[:2], sv_a, faces[2:], sv_b)


class TestChances:
    @pytest.mark.parametrize("sv", [-3, 0, 1, 5, 12, 19, 20, 21, 30])
    @pytest.mark.parametrize("burst", [1, 2, 3])
    def test_normal_chance_against_enumeration(self, sv, burst):
        attribute, mods = _attr(sv)
        rolls = burst if sv >= 1 else 0
        any_success = any_crit = successes = crits = 0
        for faces in itertools.product(range(1, 21), repeat=rolls):
            kinds = [k for k, _ in _judge_faces(faces, sv)]
            any_success += any(k >= 1 for k in kinds)
            any_crit += 2 in kinds
            successes += sum(k >= 1 for k in kinds)
            crits += kinds.count(2)
        total = 20**rolls
        odds = infinity.normal_odds(attribute=attribute, mods=mods, burst=burst)
        assert odds.success == pytest.approx(any_success / total, abs=1e-12)
        assert odds.critical == pytest.approx(any_crit / total, abs=1e-12)
        assert odds.expected_successes == pytest.approx(successes / total, abs=1e-12)
        assert odds.expected_criticals == pytest.approx(crits / total, abs=1e-12)
        assert infinity.chance(attribute=attribute, mods=mods, burst=burst) == odds.success

    def test_normal_chance_values(self):
        assert infinity.chance(attribute=12, mods=-3) == pytest.approx(9 / 20)
        assert infinity.chance(attribute=11, burst=3) == pytest.approx(1 - (9 / 20) ** 3)
        assert infinity.chance(attribute=0) == 0.0
        assert infinity.chance(attribute=23) == 1.0

    @pytest.mark.parametrize("sv_a", SVS)
    @pytest.mark.parametrize("sv_b", SVS)
    def test_1v1_against_enumeration(self, sv_a, sv_b):
        self._check(sv_a, 1, sv_b, 1)

    @pytest.mark.parametrize(
        ("sv_a", "sv_b"), [(12, 11), (11, 12), (1, 20), (23, 15), (21, 25), (40, 9), (-1, 14)]
    )
    def test_2v1_and_1v2_against_enumeration(self, sv_a, sv_b):
        self._check(sv_a, 2, sv_b, 1)
        self._check(sv_a, 1, sv_b, 2)

    @pytest.mark.parametrize(("sv_a", "sv_b"), [(12, 11), (22, 17)])
    def test_2v2_against_enumeration(self, sv_a, sv_b):
        self._check(sv_a, 2, sv_b, 2)

    def test_the_benchmarked_b3_against_b1(self):
        # The figures docs/performance.md quotes, counted once over all 20^4 faces by a separate
        # enumeration (too slow to repeat here): SV 12 B3 against SV 11 B1.
        odds = infinity.ftf_odds(a_attribute=12, a_burst=3, b_attribute=11, b_burst=1)
        assert odds.a_wins == float(Fraction(119_447, 160_000))
        assert odds.b_wins == float(Fraction(29_484, 160_000))
        assert odds.a_expected_hits == float(Fraction(207_600, 160_000))
        assert odds.b_expected_hits == float(Fraction(29_484, 160_000))

    @staticmethod
    def _check(sv_a, n, sv_b, k):
        a_win, b_win, a_hits, b_hits = _brute_ftf(sv_a, n, sv_b, k)
        odds = _exact_odds(sv_a, n, sv_b, k)
        assert odds.a_wins == pytest.approx(float(a_win), abs=1e-12)
        assert odds.b_wins == pytest.approx(float(b_win), abs=1e-12)
        assert odds.neither == pytest.approx(float(1 - a_win - b_win), abs=1e-12)
        assert odds.a_expected_hits == pytest.approx(float(a_hits), abs=1e-12)
        assert odds.b_expected_hits == pytest.approx(float(b_hits), abs=1e-12)

    @pytest.mark.parametrize(
        ("a", "n", "b", "k", "seed"), [(13, 6, 12, 6, 1), (24, 10, 14, 3, 2), (9, 3, 11, 1, 3)]
    )
    def test_large_bursts_against_seeded_simulation(self, a, n, b, k, seed):
        samples = 3000
        dice = SeededDice(seed)
        a_wins = b_wins = a_hits = b_hits = 0
        for _ in range(samples):
            r = infinity.face_to_face(dice, a_attribute=a, a_burst=n, b_attribute=b, b_burst=k)
            # The roll itself must agree with the independent judge.
            expected = _judge_ftf(r.a.faces, r.a.sv, r.b.faces, r.b.sv)
            assert (len(r.a_hits), len(r.b_hits)) == expected
            a_wins += r.winner == "a"
            b_wins += r.winner == "b"
            a_hits += len(r.a_hits)
            b_hits += len(r.b_hits)
        odds = infinity.ftf_odds(a_attribute=a, a_burst=n, b_attribute=b, b_burst=k)
        for p, count in ((odds.a_wins, a_wins), (odds.b_wins, b_wins)):
            sigma = math.sqrt(p * (1 - p) / samples)
            assert abs(count / samples - p) <= 5 * sigma + 1e-9
        # Hits per roll lie in 0..burst, so their standard deviation is at most burst / 2.
        sides = ((odds.a_expected_hits, a_hits, n), (odds.b_expected_hits, b_hits, k))
        for mean, total, burst in sides:
            assert abs(total / samples - mean) <= 5 * (burst / 2) / math.sqrt(samples)

    def test_ftf_chance_is_the_pair_of_win_chances(self):
        odds = infinity.ftf_odds(a_attribute=12, a_burst=3, b_attribute=11)
        pair = infinity.ftf_chance(a_attribute=12, a_burst=3, b_attribute=11)
        assert pair == (odds.a_wins, odds.b_wins)
        assert 0 < odds.neither < 1 and sum(pair) + odds.neither == pytest.approx(1)

    def test_ftf_chance_is_symmetric(self):
        one = infinity.ftf_odds(a_attribute=14, a_burst=4, b_attribute=22, b_mods=-3, b_burst=2)
        two = infinity.ftf_odds(a_attribute=22, a_mods=-3, a_burst=2, b_attribute=14, b_burst=4)
        assert (one.a_wins, one.a_expected_hits) == (two.b_wins, two.b_expected_hits)

    def test_auto_fail_side_never_wins(self):
        odds = infinity.ftf_odds(a_attribute=3, a_mods=-5, a_burst=6, b_attribute=11)
        assert odds.a_wins == 0 and odds.b_wins == pytest.approx(11 / 20)

    def test_cache_clears(self):
        infinity.ftf_chance(a_attribute=12, a_burst=6, b_attribute=12, b_burst=6)
        infinity.clear_caches()
        assert infinity.ftf_exact.cache_info().currsize == 0


# --------------------------------------------------------------------------- saving rolls


class TestSave:
    def test_face_at_or_below_attack_damage_costs_a_wound(self):
        # Combi Rifle damage 13 against ARM 3: attack damage 10.
        result = infinity.save(ScriptedDice([10, 11, 1]), damage=13, armor=3, hits=3)
        assert result.attack_damage == 10
        assert [d.saved for d in result.dice] == [False, True, False]
        assert result.wounds == 2 and result.saved == 1
        assert result.arithmetic == "13 − ARM 3 = 10"

    def test_partial_cover_takes_3_off(self):
        result = infinity.save(ScriptedDice([8]), damage=13, armor=3, cover=True)
        assert result.attack_damage == 7 and result.wounds == 0
        assert result.arithmetic == "13 − ARM 3 −3 (cover: +3 to the save) = 7"
        assert result.describe("BTS") == "13 − BTS 3 −3 (cover: +3 to the save) = 7"

    def test_mods_apply_and_are_clamped_with_cover(self):
        result = infinity.save(ScriptedDice([1]), damage=20, armor=0, cover=True, mods=-11)
        assert result.applied_mods == -12 and result.attack_damage == 8 and result.mods_clamped
        assert "clamped to −12" in result.arithmetic
        plus = infinity.save(ScriptedDice([1]), damage=5, armor=1, mods=4)
        assert plus.attack_damage == 8 and not plus.mods_clamped

    def test_one_die_per_hit_in_order(self):
        dice = ScriptedDice([5, 15, 6, 20])
        result = infinity.save(dice, damage=14, armor=4, hits=3)
        assert result.faces == (5, 15, 6) and dice.remaining == 1

    def test_attack_damage_at_or_below_zero_always_saves(self):
        result = infinity.save(ScriptedDice([1, 1]), damage=3, armor=5, hits=2)
        assert result.attack_damage == -2 and result.wounds == 0
        assert result.arithmetic == "3 − ARM 5 = −2"

    def test_attack_damage_20_or_more_always_wounds(self):
        result = infinity.save(ScriptedDice([20, 20]), damage=25, armor=0, hits=2)
        assert result.wounds == 2

    @pytest.mark.parametrize(
        ("damage", "armor", "cover", "mods"),
        [
            (13, 3, False, 0),
            (13, 3, True, 0),
            (2, 5, False, 0),
            (30, 1, False, 0),
            (14, 1, True, 2),
        ],
    )
    @pytest.mark.parametrize("hits", [1, 2, 3])
    def test_save_odds_against_enumeration(self, damage, armor, cover, mods, hits):
        counts = [0] * (hits + 1)
        for faces in itertools.product(range(1, 21), repeat=hits):
            r = infinity.save(
                ScriptedDice(faces), damage=damage, armor=armor, cover=cover, mods=mods, hits=hits
            )
            counts[r.wounds] += 1
        total = 20**hits
        odds = infinity.save_odds(damage=damage, armor=armor, cover=cover, mods=mods, hits=hits)
        for w in range(hits + 1):
            assert odds.wounds[w] == pytest.approx(counts[w] / total, abs=1e-12)
        mean = sum(w * c for w, c in enumerate(counts)) / total
        assert odds.expected_wounds == pytest.approx(mean, abs=1e-12)
        assert odds.no_wounds == pytest.approx(counts[0] / total, abs=1e-12)
        chance = infinity.save_chance(damage=damage, armor=armor, cover=cover, mods=mods, hits=hits)
        assert chance == odds.no_wounds


# --------------------------------------------------------------------------- input bounds


class TestBounds:
    @pytest.mark.parametrize(
        ("kwargs", "field"),
        [
            ({"attribute": -5}, "attribute"),
            ({"attribute": 41}, "attribute"),
            ({"attribute": 12, "burst": 0}, "burst"),
            ({"attribute": 12, "burst": 50}, "burst"),
            ({"attribute": 12, "mods": -51}, "mods"),
            ({"attribute": 12, "mods": 51}, "mods"),
            ({"attribute": 12.5}, "attribute"),
            ({"attribute": True}, "attribute"),
        ],
    )
    def test_normal_refuses(self, kwargs, field):
        with pytest.raises(InfinityError) as caught:
            infinity.normal(ScriptedDice([]), **kwargs)
        assert caught.value.field == field
        assert isinstance(caught.value, InputError) and isinstance(caught.value, ValueError)
        with pytest.raises(InfinityError):
            infinity.chance(**kwargs)

    def test_negative_attribute_message_is_clear(self):
        with pytest.raises(InfinityError, match=r"attribute must be between 0 and 40 \(got -5\)"):
            infinity.normal(ScriptedDice([]), attribute=-5)

    @pytest.mark.parametrize(
        ("kwargs", "field", "text"),
        [
            ({"a_burst": 0}, "a_burst", "side A burst"),
            ({"b_burst": 50}, "b_burst", "side B burst"),
            ({"a_attribute": -5}, "a_attribute", "side A attribute"),
            ({"b_mods": 99}, "b_mods", "side B MODs"),
        ],
    )
    def test_face_to_face_refuses_naming_the_side(self, kwargs, field, text):
        args = {"a_attribute": 12, "b_attribute": 11, **kwargs}
        for fn in (
            lambda: infinity.face_to_face(ScriptedDice([]), **args),
            lambda: infinity.ftf_odds(**args),
            lambda: infinity.ftf_chance(**args),
        ):
            with pytest.raises(InfinityError, match=text) as caught:
                fn()
            assert caught.value.field == field

    @pytest.mark.parametrize(
        ("kwargs", "field"),
        [
            ({"hits": 0}, "hits"),
            ({"hits": 21}, "hits"),
            ({"damage": -1}, "damage"),
            ({"damage": 41}, "damage"),
            ({"armor": -1}, "armor"),
            ({"armor": 41}, "armor"),
            ({"mods": 60}, "mods"),
        ],
    )
    def test_save_refuses(self, kwargs, field):
        args = {"damage": 13, "armor": 3, **kwargs}
        with pytest.raises(InfinityError) as caught:
            infinity.save(ScriptedDice([]), **args)
        assert caught.value.field == field
        with pytest.raises(InfinityError):
            infinity.save_odds(**args)

    def test_bounds_are_accepted_at_the_edges(self):
        infinity.normal(ScriptedDice([1] * 10), attribute=40, mods=50, burst=10)
        infinity.save(ScriptedDice([1] * 20), damage=40, armor=40, mods=-50, hits=20)


# --------------------------------------------------------------------------- properties


@settings(max_examples=examples(150), deadline=None)
@given(
    a=st.integers(0, 40),
    am=st.integers(-15, 15),
    n=st.integers(1, 10),
    b=st.integers(0, 40),
    bm=st.integers(-15, 15),
    k=st.integers(1, 10),
    seed=st.integers(0, 2**32),
)
def test_face_to_face_invariants(a, am, n, b, bm, k, seed):
    r = infinity.face_to_face(
        SeededDice(seed), a_attribute=a, a_mods=am, a_burst=n, b_attribute=b, b_mods=bm, b_burst=k
    )
    assert not (r.a_hits and r.b_hits)
    assert len(r.a.dice) == (0 if r.a.auto_fail else n)
    assert len(r.b.dice) == (0 if r.b.auto_fail else k)
    for side, hits in ((r.a, r.a_hits), (r.b, r.b_hits)):
        assert hits == tuple(d for d in side.dice if d.hit)
        for d in side.dice:
            assert d.status is (F if not d.success else d.status)
            assert d.status is not X or d.success
            assert d.status is not C or d.critical
    assert r.winner == ("a" if r.a_hits else "b" if r.b_hits else None)
    assert r.hits == {"a": r.a_hits, "b": r.b_hits, None: ()}[r.winner]
