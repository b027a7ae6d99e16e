"""Exact odds run in a worker thread under a time budget (bot/services/offload.py)."""

from __future__ import annotations

import asyncio
import threading

import pytest

from bot.services import offload

#: Seconds a test waits for what must happen before it gives up (never reached when it works).
FAILSAFE = 60.0


async def test_odds_run_off_the_event_loop() -> None:
    loop_thread = threading.get_ident()
    assert await offload.odds(threading.get_ident) != loop_thread


async def test_odds_that_miss_the_budget_are_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """Work that cannot finish within the budget (it waits for the test) is left out, and
    the loop runs on meanwhile: the reply does not wait for it."""
    monkeypatch.setattr(offload, "ODDS_SECONDS", 0.05)
    release = threading.Event()
    ticks = 0

    def unfinished() -> bool:
        return release.wait(FAILSAFE)

    async def ticking() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0.005)

    ticker = asyncio.create_task(ticking())
    try:
        # The reply went on while the work was still running (it ends only when released).
        assert await offload.odds(unfinished) is None
        assert not release.is_set()
        assert ticks >= 1  # and so did the rest of the loop
    finally:
        release.set()
        ticker.cancel()
