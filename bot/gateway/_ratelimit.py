"""Fair use: a token bucket per user and per channel, checked before any command or button.

A user may send ``burst`` commands at once, then ``per_second`` more each second; a channel
the same with its own (larger) figures, so many accounts cannot flood one channel either.
A user's refused commands never take a channel's tokens, so one user's flood leaves the
others in that channel their share. Buckets live in process memory: a limit is about the
load on this process, and a restart forgetting it is harmless.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

import discord

from bot.i18n import _
from bot.render.limits import MESSAGE, clip

MAX_BUCKETS = 50_000
"""Buckets kept per kind before the full (idle) ones are forgotten: memory stays bounded."""


@dataclass(frozen=True, slots=True)
class Rate:
    """``burst`` commands at once, refilled at ``per_second``; a burst of 0 turns it off."""

    burst: int
    per_second: float

    @property
    def enabled(self) -> bool:
        return self.burst > 0 and self.per_second > 0


class _Buckets:
    """Token buckets by key: ``tokens`` and the time they were counted."""

    __slots__ = ("_state", "rate")

    def __init__(self, rate: Rate) -> None:
        self.rate = rate
        self._state: dict[int, tuple[float, float]] = {}

    def tokens(self, key: int, now: float) -> float:
        tokens, then = self._state.get(key, (self.rate.burst, now))
        return min(self.rate.burst, tokens + (now - then) * self.rate.per_second)

    def wait(self, key: int, now: float) -> float:
        """Seconds until ``key`` has a token (0 when it has one now)."""
        missing = 1 - self.tokens(key, now)
        return 0.0 if missing <= 0 else missing / self.rate.per_second

    def take(self, key: int, now: float) -> None:
        if len(self._state) >= MAX_BUCKETS:
            self._forget_full(now)
        self._state[key] = (self.tokens(key, now) - 1, now)

    def _forget_full(self, now: float) -> None:
        full = [k for k in self._state if self.tokens(k, now) >= self.rate.burst]
        for key in full:
            del self._state[key]
        if len(self._state) >= MAX_BUCKETS:  # all busy at once: start over rather than grow
            self._state.clear()


class RateLimiter:
    """The bot's limits; :meth:`check` says how long to wait, or 0 to go ahead (and counts it)."""

    def __init__(
        self, user: Rate, channel: Rate, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.user, self.channel = user, channel
        self._users = _Buckets(user)
        self._channels = _Buckets(channel)
        self._clock = clock
        self._told: dict[int, float] = {}  # user → until when they know to wait

    def tell(self, user_id: int, wait: float) -> bool:
        """Whether to answer this refusal: once per wait. Each reply costs the bot an HTTP
        call (milliseconds of its event loop), so a flood past the limit is answered once
        and then ignored until the user may send again."""
        now = self._clock()
        if self._told.get(user_id, 0.0) > now:
            return False
        if len(self._told) >= MAX_BUCKETS:
            self._told = {u: t for u, t in self._told.items() if t > now}
        self._told[user_id] = now + wait
        return True

    def check(self, user_id: int, channel_id: int) -> float:
        """0 when the command may run (its tokens taken), else the seconds to wait."""
        now = self._clock()
        wait = self._users.wait(user_id, now) if self.user.enabled else 0.0
        if self.channel.enabled:
            wait = max(wait, self._channels.wait(channel_id, now))
        if wait > 0:
            return wait
        if self.user.enabled:
            self._users.take(user_id, now)
        if self.channel.enabled:
            self._channels.take(channel_id, now)
        return 0.0


def slow_down(wait: float) -> str:
    return _("Slow down: try again in {seconds} s.", seconds=max(1, math.ceil(wait)))


async def within_limits(interaction: discord.Interaction) -> bool:
    """True when ``interaction`` (a command or a button) may run; else it must not run, and
    the first refusal of a wait is answered with a short ephemeral "slow down"."""
    limiter: RateLimiter | None = getattr(interaction.client, "rate_limiter", None)
    if limiter is None or interaction.user is None:
        return True
    wait = limiter.check(interaction.user.id, interaction.channel_id or 0)
    if wait <= 0:
        return True
    if not limiter.tell(interaction.user.id, wait):
        return False  # told already: the rest of a flood goes unanswered
    with contextlib.suppress(discord.HTTPException):  # a courtesy: refused either way
        await interaction.response.send_message(clip(slow_down(wait), MESSAGE), ephemeral=True)
    return False
