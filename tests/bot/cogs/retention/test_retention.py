"""The pruning task: first pass a while after start-up, then every hour, failures logged."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.cogs.retention import _cog
from bot.services import retention
from tests.conftest import Table


async def test_prunes_on_schedule_with_the_configured_roll_log_size(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[dict[str, Any]] = []

    async def prune(db: Any, **kwargs: Any) -> retention.Pruned:
        calls.append(kwargs)
        return retention.Pruned(rolls=3)

    monkeypatch.setattr(retention, "prune", prune)
    await table.env.advance_time(_cog.FIRST_PASS_AFTER - 1)
    assert calls == []  # a short-lived bot never prunes
    await table.env.advance_time(1)
    assert [c["keep_rolls"] for c in calls] == [table.bot.settings.roll_log_keep] == [10_000]
    await table.env.advance_time(_cog.PRUNE_EVERY)
    assert len(calls) == 2


async def test_a_failed_pass_is_logged_and_the_next_one_still_runs(
    table: Table, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken(db: Any, **kwargs: Any) -> retention.Pruned:
        raise RuntimeError("disk full")

    monkeypatch.setattr(retention, "prune", broken)
    with caplog.at_level(logging.ERROR, logger=_cog.__name__):
        await table.env.advance_time(_cog.FIRST_PASS_AFTER + _cog.PRUNE_EVERY)
    assert [r.getMessage() for r in caplog.records].count(
        "pruning old rows failed; the next pass retries"
    ) == 2
