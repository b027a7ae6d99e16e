"""``/odds`` numbers are the engine's exact chances, split into disjoint bars that sum to 1."""

from __future__ import annotations

import pytest

from bot.actor import Actor
from bot.services import channel_settings, odds
from bot.storage import Database
from engine.systems import coda, drama, infinity, rps
from engine.systems import hogwarts1990 as h90

ACTOR = Actor(user_id=1, channel_id=10, guild_id=100, gm_role=True)


def assert_distribution(table: odds.OddsTable) -> None:
    if table.stacked:
        for index in range(len(table.categories)):
            assert sum(s.values[index] for s in table.series) == pytest.approx(1.0, abs=1e-9)
    else:
        for series in table.series:
            assert sum(series.values) == pytest.approx(1.0, abs=1e-9)
            assert all(v >= 0 for v in series.values)


async def test_coda_degrees_follow_the_channels_ones_rule(db: Database) -> None:
    table = await odds.coda_odds(db, ACTOR, modifier=3, tn=11, penalty=1)
    exact = coda.degree_chances(modifier=3, tn=11, penalty=1, ones="off")
    assert table.series[0].values == tuple(exact.values())
    assert table.categories == tuple(d.label for d in exact)
    assert table.notes[0].value == coda.chance(modifier=3, tn=11, penalty=1)
    assert_distribution(table)
    await channel_settings.set_rule(db, ACTOR, "coda.ones", "complete-failure")
    # +12 vs TN 11 always reaches the TN, unless the rule caps a pair of 1s.
    ruled = await odds.coda_odds(db, ACTOR, modifier=12, tn=11)
    exact = coda.degree_chances(modifier=12, tn=11, ones="complete-failure")
    assert ruled.series[0].values == tuple(exact.values())
    assert exact != coda.degree_chances(modifier=12, tn=11, ones="off")


async def test_h90_with_and_without_stress_and_advantage() -> None:
    table = await odds.h90_odds(ACTOR, bonus=4, difficulty=15)
    assert [s.name for s in table.series] == [v[0] for v in odds.H90_VARIANTS]
    for series, (_, stress, advantage) in zip(table.series, odds.H90_VARIANTS, strict=True):
        exact = h90.odds(bonus=4, difficulty=15, stress=stress, advantage=advantage)
        critical, failure, success, exceptional = series.values
        assert critical == exact.critical_failure
        assert critical + failure == pytest.approx(exact.failure, abs=1e-15)
        assert success + exceptional == pytest.approx(exact.success, abs=1e-15)
        assert exceptional == exact.exceptional
    assert_distribution(table)


async def test_infinity_per_burst_combination() -> None:
    table = await odds.infinity_odds(
        ACTOR, a_attribute=13, a_mods=3, a_burst=3, b_attribute=12, b_burst=2
    )
    assert table.categories == ("B1 v B1", "B1 v B2", "B2 v B1", "B2 v B2", "B3 v B1", "B3 v B2")
    exact = infinity.ftf_odds(a_attribute=13, a_mods=3, a_burst=3, b_attribute=12, b_burst=2)
    wins, loses, neither = (s.values[-1] for s in table.series)
    assert (wins, loses, neither) == (exact.a_wins, exact.b_wins, exact.neither)
    hits = {note.label: note.value for note in table.notes}
    assert hits["B3 v B2: A's expected hits"] == exact.a_expected_hits
    assert hits["B3 v B2: B's expected hits"] == exact.b_expected_hits
    assert_distribution(table)
    capped = await odds.infinity_odds(ACTOR, a_attribute=13, a_burst=5, b_attribute=12, b_burst=5)
    assert len(capped.categories) == odds.MAX_FTF_BURST**2


async def test_rps_success_levels() -> None:
    table = await odds.rps_odds(base=12)
    levels = dict(rps.success_levels(12))
    every = range(min(levels), max(levels) + 1)  # the levels no roll gives are there, at 0
    assert table.categories == tuple(f"SL {level}" for level in every)
    assert table.series[0].values == tuple(levels.get(level, 0.0) for level in every)
    assert table.gaps
    assert table.notes[0].value == rps.chance(base=12)
    assert_distribution(table)


async def test_drama_nets_with_and_without_criticals() -> None:
    table = await odds.drama_odds(ACTOR, base=6, resistance=2, drama_dice=1)
    for series, criticals in zip(table.series, (False, True), strict=True):
        exact = drama.net_distribution(base=6, resistance=2, drama=1, criticals=criticals)
        for category, value in zip(table.categories, series.values, strict=True):
            assert value == exact.get(int(category.replace("−", "-")), 0.0)
        shown = sum(series.values)
        assert 1 - odds.DRAMA_SHOWN * 10 < shown <= 1 + 1e-9  # only the far tails left off
    notes = {note.label: note.value for note in table.notes}
    for rule, criticals in (("off", False), ("on", True)):
        exact = drama.outcome_chances(base=6, resistance=2, drama=1, criticals=criticals)
        for outcome, p in exact.items():
            assert notes[f"criticals {rule}: {outcome.value}"] == p
