"""Drama in History (RULES.md §5): every rule pinned with ScriptedDice, chances checked
against a brute-force enumeration and a seeded sample."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dice import ScriptedDice, SeededDice
from engine.errors import InputError
from engine.systems import drama
from engine.systems.drama import DramaDie, OpposedOutcome, Outcome, Pools, _odds
from tests.hypothesis_profiles import examples


def roll(
    base: Sequence[int],
    resistance: Sequence[int] = (),
    drama_faces: Sequence[int] = (),
    *,
    drama_dice: int | None = None,
    criticals: bool = False,
) -> drama.DramaResult:
    """Roll with a script that must be used up exactly."""
    dice = ScriptedDice([*base, *resistance, *drama_faces])
    result = drama.test(
        dice,
        base=len(base),
        resistance=len(resistance),
        drama=len(drama_faces) if drama_dice is None else drama_dice,
        criticals=criticals,
    )
    assert dice.remaining == 0
    return result


# --- The worked examples in RULES.md §5 -----------------------------------------------


def test_first_check_bd_5531_vs_rd_4431_nets_one() -> None:
    result = roll([5, 5, 3, 1], [4, 4, 3, 1])
    assert (result.base_successes, result.resistance_losses, result.net) == (2, 1, 1)
    assert result.outcome is Outcome.YES_BUT
    assert result.outcome == "yes-but"
    assert result.outcome.label == "Yes, but…"
    assert result.penalty_gained == 0  # Bd and Rd 1s never cost penalty dice


def test_second_check_bd_664311_vs_rd_6532_nets_one() -> None:
    result = roll([6, 6, 4, 3, 1, 1], [6, 5, 3, 2])
    assert result.net == 1
    assert result.outcome is Outcome.YES_BUT


def test_third_check_two_drama_sixes_explode_into_4_and_1() -> None:
    # The marbles example: 4Bd {5,3,2,2} + 2Dd {6,6} whose explosions show {4,1}.
    result = roll([5, 3, 2, 2], [], [6, 6, 4, 1], drama_dice=2)
    assert result.drama_faces == (
        DramaDie(6),
        DramaDie(6),
        DramaDie(4, extra=True),
        DramaDie(1, extra=True),
    )
    assert result.exploded == 2
    assert result.drama_net == 2
    assert result.net == 3
    assert result.outcome is Outcome.SUCCESS
    assert result.penalty_gained == 1  # the extra die's 1


def test_working_together_example_one_combines_to_two() -> None:
    dice = ScriptedDice([5, 5, 3, 1, 4, 4, 3, 1, 6, 6, 4, 3, 1, 1, 6, 5, 3, 2])
    result = drama.together(dice, pools=[Pools(4, 4), Pools(6, 4)])
    assert dice.remaining == 0
    assert [t.net for t in result.tests] == [1, 1]
    assert result.net == 2
    assert result.outcome is Outcome.SUCCESS


def test_working_together_example_two_combines_to_one() -> None:
    dice = ScriptedDice([6, 5, 2, 2, 5, 2, 1, 1, 5, 5, 4, 1, 1, 6, 4, 4, 3])
    result = drama.together(dice, pools=[Pools(4, 4), Pools(5, 4)])
    assert [t.net for t in result.tests] == [-1, 2]  # negative nets count too
    assert result.net == 1
    assert result.outcome is Outcome.YES_BUT


def test_marbles_opposed_b_wins_by_one() -> None:
    dice = ScriptedDice([5, 5, 2, 1, 1, 5, 3, 2, 2, 6, 6, 4, 1])
    result = drama.opposed(dice, a=Pools(5), b=Pools(4, drama=2))
    assert dice.remaining == 0
    assert (result.a.net, result.b.net) == (2, 3)
    assert result.outcome is OpposedOutcome.WIN
    assert (result.winner, result.level) == ("b", 1)


# --- Faces, order and counting ---------------------------------------------------------


@pytest.mark.parametrize(
    ("face", "bd", "rd", "dd"),
    [(1, 0, -1, -1), (2, 0, -1, 0), (3, 0, 0, 0), (4, 0, 0, 1), (5, 1, 0, 1), (6, 1, 0, 1)],
)
def test_what_each_face_counts(face: int, bd: int, rd: int, dd: int) -> None:
    assert (drama.base_value(face), drama.resistance_value(face), drama.drama_value(face)) == (
        bd,
        rd,
        dd,
    )


def test_order_is_all_bd_then_all_rd_then_dd_then_extras_in_order() -> None:
    # 2Bd, 1Rd, 3Dd {6, 2, 6}; extras for the 1st and 3rd six: {6, 3}; the extra 6 -> {5}.
    result = roll([5, 1], [2], [6, 2, 6, 6, 3, 5], drama_dice=3)
    assert result.base_faces == (5, 1)
    assert result.resistance_faces == (2,)
    assert result.drama_face_values == (6, 2, 6, 6, 3, 5)
    assert [d.extra for d in result.drama_faces] == [False, False, False, True, True, True]
    assert result.exploded == 3
    assert result.drama_net == 4  # 6, 6, 6 and 5
    assert result.net == 1 - 1 + 4


def test_drama_ones_cost_a_penalty_die_each_including_extras() -> None:
    result = roll([3], [], [1, 1, 6, 1], drama_dice=3)
    assert result.drama_net == -3 + 1
    assert result.penalty_gained == 3
    assert result.penalty_total == 3


@pytest.mark.parametrize(
    ("faces", "outcome"),
    [([5, 5], Outcome.SUCCESS), ([5, 3], Outcome.YES_BUT), ([3, 3], Outcome.FAILURE)],
)
def test_outcome_thresholds(faces: list[int], outcome: Outcome) -> None:
    assert roll(faces).outcome is outcome
    assert roll(faces).success is (outcome is Outcome.SUCCESS)


def test_empty_pools_net_zero() -> None:
    result = roll([])
    assert (result.net, result.outcome) == (0, Outcome.FAILURE)


# --- Criticals ----------------------------------------------------------------------------


def test_criticals_add_sixes_minus_resistance_ones() -> None:
    # Bd {6,6,2}, Rd {1,4}, Dd {6} -> extra {3}: three 6s, one Rd 1 -> +2.
    on = roll([6, 6, 2], [1, 4], [6, 3], drama_dice=1, criticals=True)
    assert (on.sixes, on.critical_bonus, on.critical) == (3, 2, True)
    assert on.net == 2 - 1 + 1 + 2
    off = roll([6, 6, 2], [1, 4], [6, 3], drama_dice=1)
    assert (off.critical_bonus, off.critical, off.net) == (0, False, 2)


def test_criticals_need_three_sixes() -> None:
    result = roll([6, 6, 5], [3], criticals=True)
    assert (result.sixes, result.critical_bonus, result.net) == (2, 0, 3)


def test_criticals_never_lower_a_net() -> None:
    # Decision: Rd 1s cancel 6s down to zero, never below: five 1s against three 6s add 0.
    result = roll([6, 6, 6], [1, 1, 1, 1, 1], criticals=True)
    assert (result.critical, result.critical_bonus) == (True, 0)
    assert result.net == 3 - 5
    off = roll([6, 6, 6], [1, 1, 1, 1, 1])
    assert result.net == off.net
    # Exactly as many 1s as 6s: still 0; one fewer: +1.
    assert roll([6, 6, 6], [1, 1, 1], criticals=True).critical_bonus == 0
    assert roll([6, 6, 6], [1, 1, 3], criticals=True).critical_bonus == 1


def test_rd_sixes_are_not_criticals() -> None:
    result = roll([6, 6], [6, 6], criticals=True)
    assert (result.sixes, result.critical_bonus) == (2, 0)


# --- Paying the price ----------------------------------------------------------------------


def test_pay_the_price_turns_yes_but_into_success_for_one_penalty_die() -> None:
    yes_but = roll([5, 3])
    paid = drama.pay_price(yes_but)
    assert paid.outcome is Outcome.SUCCESS and paid.price_paid
    assert paid.net == 1  # the dice still say 1
    assert paid.penalty_total == yes_but.penalty_gained + drama.PRICE_PENALTY
    with pytest.raises(drama.DramaError, match="already been paid"):
        drama.pay_price(paid)
    with pytest.raises(drama.DramaError, match="Yes, but"):
        drama.pay_price(roll([5, 5]))


# --- Building pools -------------------------------------------------------------------------


def test_attribute_test_doubles_the_attribute() -> None:
    pools = drama.attribute_pools(2)
    assert (pools.base, pools.resistance, pools.drama) == (4, 0, 0)
    assert drama.attribute_pools(-1).base == 0


@pytest.mark.parametrize(
    ("attribute", "skill", "bd", "rd"),
    [
        (3, 2, 5, 0),  # trained Riding with Agility 3
        (2, 3, 5, 1),  # seed 004: Agility 2 with Dancer 3 picks up 1 Rd (lower than)
        (2, 2, 4, 0),  # equal: no Rd
        (2, 4, 6, 1),
        (1, 2, 3, 1),
        (3, 6, 9, 1),
        (4, 5, 9, 1),
        (0, 3, 3, 2),  # attribute 0 or less: +2 Rd
        (-1, 2, 1, 2),
        (-3, 1, 0, 2),  # a negative pool rolls no Bd
    ],
)
def test_skill_test_pools(attribute: int, skill: int, bd: int, rd: int) -> None:
    pools = drama.skill_pools(attribute, skill)
    assert (pools.base, pools.resistance) == (bd, rd)


def test_backgrounds_direct_and_indirect() -> None:
    monk = drama.background_pools(2, 2)
    assert (monk.base, monk.resistance) == (4, 0)
    merchant = drama.background_pools(2, 2, fit="indirect")
    assert (merchant.base, merchant.resistance) == (4, 2)
    # Standing in for a skill, the parent-attribute rule applies with backgrounds as skill.
    weak = drama.background_pools(1, 2)
    assert (weak.base, weak.resistance) == (3, 1)
    # +1 Rd when the number counted is higher than the attribute, not "half or less".
    assert drama.background_pools(2, 3).resistance == 1
    assert drama.background_pools(3, 3).resistance == 0
    assert drama.background_pools(0, 1).resistance == 2
    assert drama.background_pools(-1, 3, fit="indirect").resistance == 3 + 2
    with pytest.raises(drama.DramaError, match="between 1 and 3"):
        drama.background_pools(2, 4)
    with pytest.raises(drama.DramaError, match="direct"):
        drama.background_pools(2, 1, fit="sideways")


@pytest.mark.parametrize(
    ("name", "bd", "rd"),
    [
        ("Very Easy", 4, 0),
        ("Straightforward", 2, 0),
        ("Some Difficulty", 0, 0),
        ("Troublesome", 0, 2),
        ("difficult", 0, 4),
        ("Very Challenging", 0, 6),
        ("Extremely Hard", 0, 8),
        ("Formidable", 0, 10),
    ],
)
def test_difficulties(name: str, bd: int, rd: int) -> None:
    pools = drama.attribute_pools(2, difficulty=name)
    assert (pools.base, pools.resistance) == (4 + bd, rd)


def test_unknown_difficulty() -> None:
    with pytest.raises(drama.DramaError, match="Formidable"):
        drama.attribute_pools(2, difficulty="Tough")


def test_situation_target_penalty_drama_helpers_and_parts_add_up() -> None:
    pools = drama.skill_pools(
        3, 2, difficulty="Difficult", resistance=1, target=3, drama=2, penalty=4, hands=[2, 0]
    )
    assert (pools.base, pools.resistance, pools.drama) == (5 + 2, 4 + 1 + 3 + 4, 2)
    assert sum(p.base for p in pools.parts) == pools.base
    assert sum(p.resistance for p in pools.parts) == pools.resistance
    labels = [p.label for p in pools.parts]
    assert "penalty dice" in labels and "target's stat" in labels
    assert pools.plus(drama.PoolPart("x", resistance=1)).resistance == pools.resistance + 1


def test_pools_over_sixty_dice_are_refused() -> None:
    with pytest.raises(drama.DramaError, match="Resistance dice"):
        drama.attribute_pools(2, difficulty="Formidable", resistance=51)


def test_penalty_dice_never_lock_a_character_out() -> None:
    """Issue 12: a pool of 71 penalty dice made every test fail with "not 71"."""
    pools = drama.attribute_pools(2, difficulty="Formidable", resistance=50, penalty=71)
    assert (pools.base, pools.resistance) == (4, 131)
    assert pools.parts[-1] == drama.PoolPart("penalty dice", resistance=71, penalty=True)
    faces = [6, 6, 6, 6] + [3] * 131  # no Rd 1s: nothing cancelled
    result = drama.roll_pools(ScriptedDice(faces), pools)
    assert (result.net, result.outcome) == (4, drama.Outcome.SUCCESS)
    assert drama.outcome_chances(base=4, resistance=131)[drama.Outcome.SUCCESS] < 1e-6
    with pytest.raises(drama.DramaError, match="Resistance dice"):  # the cap on the rest
        drama.attribute_pools(2, difficulty="Formidable", resistance=51, penalty=71)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"base": 61},
        {"base": -1},
        {"base": 2, "resistance": 1060},  # 60 added + 999 penalty dice at most
        {"base": 2, "drama": 61},
        {"base": True},
        {"base": 2.0},
    ],
)
def test_bounds(kwargs) -> None:
    with pytest.raises(InputError, match="must be"):
        drama.test(ScriptedDice([]), **kwargs)
    with pytest.raises(ValueError, match="must be"):
        drama.chance(**kwargs)


# --- Opposed and together -------------------------------------------------------------------


def _side(net: int) -> drama.DramaResult:
    faces = [5] * net if net >= 0 else []
    rd = [1] * -net if net < 0 else []
    return roll(faces, rd)


@pytest.mark.parametrize(
    ("a", "b", "outcome", "winner", "level"),
    [
        (3, 1, OpposedOutcome.WIN, "a", 2),
        (2, 1, OpposedOutcome.WIN, "a", 1),
        (2, 5, OpposedOutcome.WIN, "b", 3),
        (1, 1, OpposedOutcome.BOTH_FAIL, None, 0),
        (1, -2, OpposedOutcome.BOTH_FAIL, None, 0),
        (3, 3, OpposedOutcome.DRAW, None, 0),
    ],
)
def test_opposed_outcomes(a: int, b: int, outcome, winner, level: int) -> None:
    result = drama.read_opposed(_side(a), _side(b))
    assert (result.outcome, result.winner, result.level) == (outcome, winner, level)


def test_a_draw_is_settled_by_momentum() -> None:
    result = drama.read_opposed(_side(2), _side(2), momentum="b")
    assert result.outcome is OpposedOutcome.DRAW
    assert result.winner == "b" and result.by_momentum
    # Momentum does not turn a loss or a double failure around.
    assert drama.read_opposed(_side(4), _side(2), momentum="b").winner == "a"
    assert drama.read_opposed(_side(1), _side(0), momentum="a").winner is None
    with pytest.raises(drama.DramaError, match="Momentum"):
        drama.read_opposed(_side(2), _side(2), momentum="c")


def test_together_bounds() -> None:
    with pytest.raises(drama.DramaError, match="work together"):
        drama.together(ScriptedDice([]), pools=[])
    with pytest.raises(drama.DramaError, match="Base dice"):
        drama.together(ScriptedDice([]), pools=[Pools(99)])


# --- Chances against independent computations ------------------------------------------------

CHAIN_DEPTH = 16  # a chain of 16 sixes has chance 6**-16 ≈ 3.5e-13


def _drama_chains() -> Counter[tuple[int, int, int]]:
    """Every way one drama die can go, face by face: (value, sixes, ones) -> probability."""
    outcomes: Counter[tuple[int, int, int]] = Counter()

    def walk(value: int, sixes: int, p: float, depth: int) -> None:
        for face in range(1, 7):
            q = p / 6
            if face == 6:
                if depth < CHAIN_DEPTH:
                    walk(value + 1, sixes + 1, q, depth + 1)
                continue
            gain = {1: -1, 2: 0, 3: 0, 4: 1, 5: 1}[face]
            outcomes[(value + gain, sixes, int(face == 1))] += q

    walk(0, 0, 1.0, 0)
    return outcomes


def _faces(count: int, key) -> Counter:
    """All 6**count face tuples of a pool, grouped by ``key``; each tuple weighs 6**-count."""
    grouped: Counter = Counter()
    for faces in itertools.product(range(1, 7), repeat=count):
        grouped[key(faces)] += 6.0**-count
    return grouped


def brute_force_chance(base: int, resistance: int, drama_dice: int, criticals: bool) -> float:
    bd = _faces(base, lambda f: (sum(x >= 5 for x in f), f.count(6)))
    rd = _faces(resistance, lambda f: (sum(x <= 2 for x in f), f.count(1)))
    chain = _drama_chains()
    dd: Counter = Counter({(0, 0): 1.0})
    for _ in range(drama_dice):
        nxt: Counter = Counter()
        for (v, s), p in dd.items():
            for (cv, cs, _ones), q in chain.items():
                nxt[(v + cv, s + cs)] += p * q
        dd = nxt
    total = 0.0
    for (b, b6), pb in bd.items():
        for (r, r1), pr in rd.items():
            for (d, d6), pd in dd.items():
                net = b - r + d
                if criticals and b6 + d6 >= 3:
                    net += max(0, b6 + d6 - r1)
                if net >= 2:
                    total += pb * pr * pd
    return total


@pytest.mark.parametrize("criticals", [False, True])
@pytest.mark.parametrize(
    ("base", "resistance", "drama_dice"),
    [
        (0, 0, 0),
        (1, 0, 0),
        (2, 1, 0),
        (4, 2, 0),
        (3, 3, 1),
        (2, 0, 2),
        (4, 1, 2),
        (1, 2, 3),
        (0, 0, 3),
        (3, 5, 1),  # more Rd than 6s can be: the bonus floor at 0 matters
        (5, 6, 2),
        (6, 4, 0),
    ],
)
def test_chance_matches_brute_force(base: int, resistance: int, drama_dice: int, criticals) -> None:
    expected = brute_force_chance(base, resistance, drama_dice, criticals)
    got = drama.chance(base=base, resistance=resistance, drama=drama_dice, criticals=criticals)
    assert got == pytest.approx(expected, abs=1e-9)


def test_agility_2_dance_3_shows_the_chance_with_its_resistance_die() -> None:
    pools = drama.skill_pools(2, 3)
    assert (pools.base, pools.resistance) == (5, 1)
    got = drama.chance(base=pools.base, resistance=pools.resistance)
    assert got == pytest.approx(brute_force_chance(5, 1, 0, False), abs=1e-12)
    assert round(got, 3) == 0.429


def _reference_critical_success(base: int, resistance: int, drama_dice: int) -> float:
    """P(net ≥ 2) with criticals, summed cell by cell from the rule (no pruning, no tricks):
    Bd (successes c, sixes s), Rd (losses r, ones o), Dd sixes k (negative binomial) and the
    non-6 ends of the chains t."""

    def pool(n: int) -> dict[tuple[int, int], float]:
        # (counted, special): 1/6 special and counted, 1/6 counted only, 4/6 neither.
        cells: dict[tuple[int, int], float] = {}
        for special in range(n + 1):
            for counted in range(special, n + 1):
                ways = math.comb(n, special) * math.comb(n - special, counted - special)
                cells[(counted, special)] = ways * (1 / 6) ** counted * (4 / 6) ** (n - counted)
        return cells

    ends: Counter = Counter({0: 1.0})
    for _ in range(drama_dice):
        step: Counter = Counter()
        for value, p in ends.items():
            for face_value, q in ((-1, 0.2), (0, 0.4), (1, 0.4)):
                step[value + face_value] += p * q
        ends = step
    sixes = [math.comb(drama_dice + k - 1, k) * (1 / 6) ** k * (5 / 6) ** drama_dice
             for k in range(80)]  # fmt: skip
    total = 0.0
    for (c, s6), pb in pool(base).items():
        for (r, o), pr in pool(resistance).items():
            for k, pk in enumerate(sixes):
                m = s6 + k
                bonus = max(0, m - o) if m >= 3 else 0
                for t, pt in ends.items():
                    if c - r + k + t + bonus >= 2:
                        total += pb * pr * pk * pt
    return total


def test_the_criticals_chance_of_mid_pools_matches_a_cell_by_cell_sum() -> None:
    for base, resistance, drama_dice in ((12, 10, 3), (6, 12, 2)):
        got = drama.chance(base=base, resistance=resistance, drama=drama_dice, criticals=True)
        expected = _reference_critical_success(base, resistance, drama_dice)
        assert got == pytest.approx(expected, abs=1e-9)


def test_distribution_sums_to_one_and_has_every_outcome() -> None:
    for criticals in (False, True):
        pmf = drama.net_distribution(base=20, resistance=15, drama=10, criticals=criticals)
        assert math.fsum(pmf.values()) == pytest.approx(1.0, abs=1e-11)
        chances = drama.outcome_chances(base=20, resistance=15, drama=10, criticals=criticals)
        assert math.fsum(chances.values()) == pytest.approx(1.0, abs=1e-11)
        assert all(0 < p < 1 for p in chances.values())


def test_the_largest_pools_are_a_valid_chance() -> None:
    p = drama.chance(base=60, resistance=60, drama=60, criticals=True)
    assert 0.0 < p < 1.0


def _within_five_sigma(hits: int, n: int, p: float) -> None:
    sigma = math.sqrt(max(p * (1 - p), 1e-12) / n)
    assert abs(hits / n - p) <= 5 * sigma + 1 / n


@pytest.mark.parametrize("criticals", [False, True])
def test_chance_matches_a_seeded_sample_of_big_pools(criticals: bool) -> None:
    dice = SeededDice(f"drama-{criticals}")
    n = 8000
    hits = sum(
        drama.test(dice, base=9, resistance=6, drama=4, criticals=criticals).success
        for _ in range(n)
    )
    _within_five_sigma(hits, n, drama.chance(base=9, resistance=6, drama=4, criticals=criticals))


def test_opposed_and_together_chances_match_a_seeded_sample() -> None:
    a, b = Pools(6, 2, 1), Pools(5, 1, 2)
    chances = drama.opposed_chances(a=a, b=b)
    assert math.fsum(chances.values()) == pytest.approx(1.0, abs=1e-11)
    dice = SeededDice("opposed")
    n = 4000
    seen: Counter[str] = Counter()
    for _ in range(n):
        result = drama.opposed(dice, a=a, b=b)
        key = {
            OpposedOutcome.WIN: result.winner,
            OpposedOutcome.DRAW: "draw",
            OpposedOutcome.BOTH_FAIL: "both fail",
        }[result.outcome]
        seen[key] += 1
    for key, p in chances.items():
        _within_five_sigma(seen[key], n, p)
    together = drama.together_chance(pools=[Pools(4, 4), Pools(5, 4)])
    hits = sum(drama.together(dice, pools=[Pools(4, 4), Pools(5, 4)]).success for _ in range(n))
    _within_five_sigma(hits, n, together)


# --- Properties ---------------------------------------------------------------------------


@settings(max_examples=examples(150), deadline=None)
@given(
    base=st.integers(0, 8),
    resistance=st.integers(0, 8),
    drama_dice=st.integers(0, 5),
    criticals=st.booleans(),
    seed=st.integers(0, 2**32),
)
def test_every_roll_recounts_to_its_net(base, resistance, drama_dice, criticals, seed) -> None:
    result = drama.test(
        SeededDice(seed), base=base, resistance=resistance, drama=drama_dice, criticals=criticals
    )
    assert len(result.base_faces) == base and len(result.resistance_faces) == resistance
    asked = [d for d in result.drama_faces if not d.extra]
    assert len(asked) == drama_dice
    assert result.exploded == sum(d.face == 6 for d in result.drama_faces)
    assert result.penalty_gained == sum(d.face == 1 for d in result.drama_faces)
    recount = (
        sum(f >= 5 for f in result.base_faces)
        - sum(f <= 2 for f in result.resistance_faces)
        + sum(d.face >= 4 for d in result.drama_faces)
        - result.penalty_gained
    )
    sixes = result.base_faces.count(6) + sum(d.face == 6 for d in result.drama_faces)
    if criticals and sixes >= 3:
        recount += max(0, sixes - result.resistance_faces.count(1))
    assert result.net == recount
    assert result.outcome is Outcome.of(recount)


def test_penalty_dice_as_a_risk_move_from_rd_to_dd() -> None:
    plain = drama.skill_pools(3, 2, penalty=3, drama=1)
    risky = drama.skill_pools(3, 2, penalty=3, drama=1, risk=True)
    assert (plain.base, plain.resistance, plain.drama) == (5, 3, 1)
    assert (risky.base, risky.resistance, risky.drama) == (5, 0, 4)
    assert risky.parts[-1] == drama.PoolPart("penalty dice as a risk", drama=3, penalty=True)
    # Rolled as Dd: 4s-6s count, 6s explode, 1s cost a penalty die (Order: Bd, Rd, Dd).
    result = drama.roll_pools(ScriptedDice([5, 3, 2, 1, 1, 6, 4, 5, 1, 3]), risky)
    assert result.drama_face_values == (6, 4, 5, 1, 3)
    assert (result.net, result.penalty_gained) == (1 + 3 - 1, 1)
    with pytest.raises(drama.DramaError, match="no penalty dice"):
        drama.attribute_pools(2, risk=True)
    with pytest.raises(drama.DramaError, match="Drama dice"):
        drama.attribute_pools(2, penalty=61, risk=True)


def test_given_pools_take_the_situation_too() -> None:
    pools = drama.given_pools(5, difficulty="Troublesome", drama=1, penalty=3)
    assert (pools.base, pools.resistance, pools.drama) == (5, 5, 1)
    with pytest.raises(drama.DramaError, match="Base dice"):
        drama.given_pools(61)


def test_the_contract_names_are_fields() -> None:
    import dataclasses

    names = {f.name for f in dataclasses.fields(drama.DramaResult)}
    assert {
        "base_faces",
        "resistance_faces",
        "drama_faces",
        "net",
        "outcome",
        "penalty_gained",
    } <= names


def test_together_chances_are_the_convolution_of_the_nets() -> None:
    single = drama.together_chances(pools=[Pools(5, 2, 1)])
    expected = drama.outcome_chances(base=5, resistance=2, drama=1)
    for outcome in Outcome:
        assert single[outcome] == pytest.approx(expected[outcome], abs=1e-12)
    # Two 1Bd helpers against nothing: net = successes of 2 dice (each 1/3).
    pair = drama.together_chances(pools=[Pools(1), Pools(1)])
    assert pair[Outcome.SUCCESS] == pytest.approx(1 / 9, abs=1e-12)
    assert pair[Outcome.YES_BUT] == pytest.approx(4 / 9, abs=1e-12)
    assert pair[Outcome.FAILURE] == pytest.approx(4 / 9, abs=1e-12)
    with pytest.raises(drama.DramaError, match="Between 1 and 11"):
        drama.together_chances(pools=[Pools(1)] * 12)


def test_together_chances_of_big_pools_keep_their_exactness() -> None:
    # The negligible sums dropped along the way change nothing measurable: compare with the
    # full convolution of the exact distributions.
    pools = [Pools(30, 20, 5), Pools(25, 20), Pools(25, 20), Pools(10, 30)]
    full: Counter[int] = Counter({0: 1.0})
    for p in pools:
        pmf = drama.net_distribution(base=p.base, resistance=p.resistance, drama=p.drama)
        nxt: Counter[int] = Counter()
        for a, pa in full.items():
            for b, pb in pmf.items():
                nxt[a + b] += pa * pb
        full = nxt
    got = drama.together_chances(pools=pools)
    assert got[Outcome.YES_BUT] == pytest.approx(full[1], abs=1e-11)
    assert got[Outcome.FAILURE] == pytest.approx(
        sum(p for n, p in full.items() if n < 1), abs=1e-11
    )
    assert got[Outcome.SUCCESS] == pytest.approx(
        sum(p for n, p in full.items() if n >= 2), abs=1e-11
    )


def test_a_full_penalty_pool_still_has_exact_odds() -> None:
    """Rd reaches MAX_POOL + MAX_PENALTY dice (1,059): the chance is worked out, not an
    OverflowError (binomial coefficients of 653+ dice hold no float), and the net's
    distribution still sums to one."""
    resistance = drama.MAX_POOL + drama.MAX_PENALTY
    for criticals in (False, True):
        dist = drama.net_distribution(
            base=drama.MAX_POOL, resistance=resistance, drama=drama.MAX_POOL, criticals=criticals
        )
        assert abs(sum(dist.values()) - 1.0) < 1e-9
        assert 0.0 <= drama.chance(base=5, resistance=resistance, drama=3) < 1e-9


def test_the_pool_table_matches_the_exact_binomial_count() -> None:
    """The table of counted dice (log-space terms from the mode outwards) equals the exact
    integer count for a pool small enough to count exactly."""
    n = 40
    table = _odds.counted_with_sixes(n)
    for special in range(n + 1):
        for counted in range(special, n + 1):
            exact = (
                math.comb(n, special)
                * math.comb(n - special, counted - special)
                * Fraction(1, 6) ** counted
                * Fraction(4, 6) ** (n - counted)
            )
            assert abs(table[special].get(counted, 0.0) - float(exact)) < 1e-15
