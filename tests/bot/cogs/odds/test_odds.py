"""``/odds`` as a table uses it: a chart and the exact numbers as text, before any roll."""

from __future__ import annotations

import pytest
from simcord.backend.errors import OptionError

from bot import workers
from bot.render.common import percent
from bot.services import offload
from engine.systems import coda, drama, infinity, rps
from engine.systems import hogwarts1990 as h90
from tests.bot.cogs.dice.test_dice_stats import chart_of, png_size
from tests.conftest import Table, embed_of, text_of

pytestmark = pytest.mark.usefixtures("warm_charts")


async def test_coda_odds_before_rolling(table: Table) -> None:
    result = await table.alice.slash(table.channel, "odds coda", modifier=3, tn=11)
    assert not result.ephemeral
    text = text_of(result)
    assert "CODA 2d6 +3 vs TN 11" in embed_of(result).title
    for degree, chance in coda.degree_chances(modifier=3, tn=11).items():
        assert f"**{degree.label}**: {percent(chance)}" in text
    assert f"success (≥ TN; ones rule off): **{percent(coda.chance(modifier=3, tn=11))}**" in text
    assert png_size(await chart_of(result)) == (800, 450)


async def test_h90_odds(table: Table) -> None:
    text = text_of(await table.alice.slash(table.channel, "odds h90", bonus=2, difficulty=14))
    stressed = h90.odds(bonus=2, difficulty=14, stress=True)
    assert f"**exceptional**: plain {percent(h90.odds(bonus=2, difficulty=14).exceptional)}" in text
    assert f"stress: success: **{percent(stressed.success)}**" in text


async def test_infinity_odds(table: Table) -> None:
    result = await table.alice.slash(
        table.channel, "odds infinity", a_attribute=13, a_burst=3, b_attribute=12, b_burst=1
    )
    text = text_of(result)
    exact = infinity.ftf_odds(a_attribute=13, a_burst=3, b_attribute=12, b_burst=1)
    assert f"**B3 v B1**: A wins {percent(exact.a_wins)} · B wins {percent(exact.b_wins)}" in text
    assert f"B3 v B1: A's expected hits: **{exact.a_expected_hits:.2f}**" in text
    await chart_of(result)


async def test_rps_and_drama_odds(table: Table) -> None:
    text = text_of(await table.alice.slash(table.channel, "odds rps", base=12))
    assert f"**SL 1**: {percent(dict(rps.success_levels(12))[1])}" in text
    assert "**SL 15**" in text and "**SL 12**" not in text  # the chart's gaps, not the text's
    result = await table.alice.slash(table.channel, "odds drama", base=5, resistance=1)
    text = text_of(result)
    with_crits = drama.outcome_chances(base=5, resistance=1, criticals=True)
    assert f"criticals on: success: **{percent(with_crits[drama.Outcome.SUCCESS])}**" in text
    await chart_of(result)


async def test_bad_input(table: Table) -> None:
    with pytest.raises(OptionError):
        await table.alice.slash(table.channel, "odds coda", modifier=3, tn=0)
    with pytest.raises(OptionError):
        await table.alice.slash(
            table.channel, "odds infinity", a_attribute=13, b_attribute=12, a_burst=6
        )
    with pytest.raises(OptionError):
        await table.alice.slash(table.channel, "odds drama", base=61)
    with pytest.raises(OptionError):
        await table.alice.slash(table.channel, "odds rps", base=10_000)


@pytest.fixture
def hanging_workers(
    hanging_workers: workers.WorkerPool, monkeypatch: pytest.MonkeyPatch
) -> workers.WorkerPool:
    """tests/conftest.py's hanging workers, with a short budget for the odds' tables."""
    monkeypatch.setattr(offload, "TABLE_SECONDS", 0.5)
    return hanging_workers


async def test_heavy_odds_past_the_budget_are_too_heavy(
    table: Table, hanging_workers: workers.WorkerPool
) -> None:
    result = await table.alice.slash(
        table.channel, "odds drama", base=60, resistance=60, drama_dice=60
    )
    assert result.ephemeral
    assert "Too heavy to work out in time: narrow it" in text_of(result)
    assert hanging_workers.killed == 1 and hanging_workers.processes == 0


async def test_a_second_heavy_odds_waits_for_the_first(
    table: Table, hanging_workers: workers.WorkerPool
) -> None:
    # As if alice's queue were full; nothing of hers runs to be named (a running one is:
    # test_previous_request.py).
    hanging_workers.per_user = 0
    result = await table.alice.slash(table.channel, "odds drama", base=60, resistance=60)
    assert result.ephemeral
    assert "Your previous request is still being worked out" in text_of(result)
    # Cheap odds never queue: they are worked out at once (the chart, a worker's, is left out).
    cheap = await table.alice.slash(table.channel, "odds drama", base=5, resistance=1)
    assert not cheap.ephemeral and "criticals on: success" in text_of(cheap)


async def test_a_heavy_rolls_odds_never_hold_the_roll(
    table: Table, hanging_workers: workers.WorkerPool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(offload, "ODDS_SECONDS", 0.5)
    result = await table.alice.slash(table.channel, "drama test", base=60, resistance=60)
    assert not result.ephemeral
    assert "Chance: too long to work out exactly" in text_of(result)  # and the roll stands
    assert hanging_workers.processes == 0
