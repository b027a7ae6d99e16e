"""The tree counts each command once by its outcome (``narrator_commands_total``): a command
that completed is "ok", a refusal "refused", and an autocomplete is no command at all."""

from __future__ import annotations

import math

from bot.gateway import Admission
from tests.conftest import Table


def commands_total(table: Table, command: str, outcome: str) -> float:
    value = table.bot.metrics.registry.get_sample_value(
        "narrator_commands_total", {"command": command, "outcome": outcome}
    )
    return value or 0.0


async def test_a_completed_command_is_counted_ok_once(table: Table) -> None:
    await table.alice.slash(table.channel, "roll", expression="2d6")
    await table.alice.slash(table.channel, "roll", expression="1d20")
    assert commands_total(table, "roll", "ok") == 2
    assert commands_total(table, "roll", "refused") == 0


async def test_a_refused_command_is_not_counted_ok(table: Table) -> None:
    await table.alice.slash(table.channel, "sheet create", name="William", system="drama")
    # Bob is no GM: a penalty on Alice's sheet is refused, with a short reason.
    refused = await table.bob.slash(table.channel, "penalty add", character="William", amount=1)
    assert refused.ephemeral
    assert commands_total(table, "penalty add", "refused") == 1
    assert commands_total(table, "penalty add", "ok") == 0
    assert commands_total(table, "sheet create", "ok") == 1


async def test_autocomplete_counts_no_command(table: Table) -> None:
    await table.alice.slash(table.channel, "sheet create", name="William", system="drama")
    await table.gm.autocomplete(table.channel, "penalty add", "character", "")
    assert commands_total(table, "penalty add", "ok") == 0
    assert commands_total(table, "penalty add", "refused") == 0


def test_the_admission_bound_is_a_gauge(table: Table) -> None:
    """``narrator_admission_limit`` reads the adaptive bound at each scrape (NaN without
    admission control, as in SimCord)."""
    registry = table.bot.metrics.registry
    limit = registry.get_sample_value("narrator_admission_limit")
    assert limit is not None and math.isnan(limit)
    table.bot.admission = Admission(max_in_flight=40)
    assert registry.get_sample_value("narrator_admission_limit") == 40
    table.bot.admission.limit = 12.5
    assert registry.get_sample_value("narrator_admission_limit") == 12.5


def latency_sample(table: Table, command: str, suffix: str) -> float:
    value = table.bot.metrics.registry.get_sample_value(
        f"narrator_command_seconds_{suffix}", {"command": command}
    )
    return value or 0.0


async def test_each_finished_command_is_timed_once_in_its_own_series(table: Table) -> None:
    """``narrator_command_seconds`` observes every finished command once, into its own
    command's series (the tree keeps each series' methods, looked up once)."""
    await table.alice.slash(table.channel, "roll", expression="2d6")
    await table.alice.slash(table.channel, "roll", expression="1d20")
    await table.alice.slash(table.channel, "sheet create", name="William", system="drama")
    assert latency_sample(table, "roll", "count") == 2
    assert latency_sample(table, "sheet create", "count") == 1
    assert latency_sample(table, "roll", "sum") > 0
