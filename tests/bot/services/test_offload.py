"""Exact odds run in a worker thread under a time budget (bot/services/offload.py)."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from bot.services import offload


def _slow(*, seconds: float) -> float:
    time.sleep(seconds)
    return seconds


async def test_odds_run_off_the_event_loop() -> None:
    loop_thread = threading.get_ident()
    assert await offload.odds(threading.get_ident) != loop_thread


async def test_odds_that_miss_the_budget_are_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(offload, "ODDS_SECONDS", 0.05)
    ticks = 0

    async def ticking() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0.005)

    ticker = asyncio.create_task(ticking())
    try:
        assert await offload.odds(_slow, seconds=0.3) is None
    finally:
        ticker.cancel()
    assert ticks >= 5  # the loop kept running meanwhile
