"""Exact odds off the event loop, under a time budget.

Most odds cost well under a millisecond, but a few grow with what a player may type: Drama
pools of 60 dice each with criticals take tens of milliseconds, eleven of them working
together a few hundred, and a big penalty pool more. Run on the event loop, that work would
delay every other player's command; in a worker thread, the loop keeps answering (it gets
the interpreter back at least every switch interval, 5 ms by default). Odds that miss the
budget are left out of the reply rather than keeping the player waiting; the thread runs
on and its result fills the engine's cache for the next identical roll.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

ODDS_SECONDS = 2.0
"""How long a reply waits for its odds (Discord's window is 3 s)."""


async def odds(work: Callable[..., T], /, **kwargs: Any) -> T | None:
    """``work(**kwargs)`` in a worker thread; None when it takes more than ``ODDS_SECONDS``."""
    try:
        return await asyncio.wait_for(asyncio.to_thread(work, **kwargs), ODDS_SECONDS)
    except TimeoutError:
        return None
