"""A fair gate for heavy work that stays in this process (a large aggregate query, say): the
same admission as the pool's (a user's, a channel's and the waiting line's bounds, refused at
once with :class:`Busy`), in front of a few slots taken first come, first served.

Without it, five players' bursts of ``/dice stats`` (ten each within their rate limit) ran
fifty aggregate queries at once: they took every pooled database connection, and other
players' ``/roll`` waited behind them up to 1.5 s.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.workers._holders import Holders


class FairGate:
    """At most ``slots`` holders at once; per user, per channel and waiting, bounded."""

    def __init__(
        self, slots: int, *, per_user: int = 1, per_channel: int = 2, max_waiting: int = 8
    ) -> None:
        if slots < 1:
            raise ValueError("a gate needs at least one slot")
        self.slots, self.per_user, self.per_channel = slots, per_user, per_channel
        self.max_waiting = max_waiting
        self._holders = Holders()
        self._inside = 0
        self._waiting = 0
        self._turns: asyncio.Condition | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def _condition(self) -> asyncio.Condition:
        # One per event loop (the console and each test bring their own).
        loop = asyncio.get_running_loop()
        if self._turns is None or self._loop is not loop:
            self._turns, self._loop = asyncio.Condition(), loop
            self._inside = self._waiting = 0
            self._holders.clear()
        return self._turns

    @asynccontextmanager
    async def enter(
        self, user: int | None, channel: int | None, *, what: str = ""
    ) -> AsyncIterator[None]:
        """Hold a slot for the block; :class:`Busy` at once when a bound is reached (``what``
        the work is: :class:`Busy`'s ``held`` names it to the user's next request)."""
        turns = self._condition()
        full = self._inside >= self.slots and self._waiting >= self.max_waiting
        self._holders.admit(
            user,
            channel,
            per_user=self.per_user,
            per_channel=self.per_channel,
            pool_full=full,
            what=what,
        )
        try:
            async with turns:
                self._waiting += 1
                try:
                    await turns.wait_for(lambda: self._inside < self.slots)
                finally:
                    self._waiting -= 1
                self._inside += 1
            try:
                yield
            finally:
                async with turns:
                    self._inside -= 1
                    turns.notify()
        finally:
            self._holders.leave(user, channel, what)
