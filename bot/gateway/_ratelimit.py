"""Fair use: token buckets per user and per channel, with a fair share of the channel.

Every interaction kind counts, at the gateway: commands, buttons, selects, modal submits and
autocomplete (:func:`bot.gateway._interactions.install_interaction_hook` calls :func:`gate` on the
raw payload before discord.py builds anything, so no command or view can forget it, and a
refused one costs no Interaction object, no command lookup and no database read: a flood
past the limits holds the event loop for the least possible time).

* **A user** may send ``burst`` interactions at once, then ``per_second`` more each second,
  wherever they send them.
* **A channel** the same with its own (larger) figures, shared fairly: a third of its burst
  (:data:`RESERVE_SHARE`) is kept for its *quiet* users, those who have used at most half of
  their share there lately (a meter per user and channel: :attr:`RateLimiter.share`). A busy
  user draws only on the rest, so a few accounts flooding within their own limits empty the
  common part, never the reserve, and a refill goes to the reserve first.
* **A GM of the channel, or the player whose turn it is** there, is never refused because the
  channel is full (only by their own user limit). Who they are is read only when the channel
  would refuse someone (:class:`Standings`, cached per channel for a few seconds), so a
  channel that is not crowded costs no database read.
* **Autocomplete** has its own, more generous, budget per user; past it the suggestions are
  an empty list, sent at the gateway without touching the database.

A refused command or press is answered once per wait ("slow down"); the rest of a flood goes
unanswered, since each reply costs the bot an HTTP call. Buckets live in process memory: a
limit is about the load on this process, and a restart forgetting it is harmless.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

import discord

from bot.i18n import _
from bot.internals import send_interaction_callback
from bot.render.limits import MESSAGE, clip
from bot.services.standing import Standing, standing
from bot.storage import Database

log = logging.getLogger(__name__)

MAX_BUCKETS = 50_000
"""Buckets kept per kind before the full (idle) ones are forgotten: memory stays bounded."""
RESERVE_SHARE = 3
"""A channel keeps 1/RESERVE_SHARE of its burst for its quiet users."""
QUIET_PER_SECOND = 0.5
"""A user stays one of a channel's quiet users at one interaction there every 2 s (after a
burst of up to half the reserve)."""
STANDING_TTL = 5.0
"""Seconds a channel's GMs and current turn are trusted once read."""
_MANAGE = (1 << 3) | (1 << 4)  # Administrator, Manage Channels
_AUTOCOMPLETE_RESULT, _CHANNEL_MESSAGE, _EPHEMERAL = 8, 4, 64


@dataclass(frozen=True, slots=True)
class Rate:
    """``burst`` interactions at once, refilled at ``per_second``; a burst of 0 turns it off."""

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
        self._state: dict[Hashable, tuple[float, float]] = {}

    def tokens(self, key: Hashable, now: float) -> float:
        tokens, then = self._state.get(key, (self.rate.burst, now))
        return min(self.rate.burst, tokens + (now - then) * self.rate.per_second)

    def wait(self, key: Hashable, now: float, need: float = 1.0) -> float:
        """Seconds until ``key`` has ``need`` tokens (0 when it has them now)."""
        missing = need - self.tokens(key, now)
        return 0.0 if missing <= 0 else missing / self.rate.per_second

    def take(self, key: Hashable, now: float, floor: float = -math.inf) -> None:
        self.put(key, now, max(floor, self.tokens(key, now) - 1))

    def put(self, key: Hashable, now: float, tokens: float) -> None:
        """``key`` holds ``tokens`` at ``now`` (:meth:`take` with its count read already).

        Forgetting the full buckets first changes no count: a full bucket reads ``burst``
        whether it is kept or forgotten."""
        if len(self._state) >= MAX_BUCKETS:
            self._forget_full(now)
        self._state[key] = (tokens, now)

    def _forget_full(self, now: float) -> None:
        full = [k for k in self._state if self.tokens(k, now) >= self.rate.burst]
        for key in full:
            del self._state[key]
        if len(self._state) >= MAX_BUCKETS:  # all busy at once: start over rather than grow
            self._state.clear()


class RateLimiter:
    """The bot's limits; :meth:`check` says how long to wait, or 0 to go ahead (and counts it)."""

    def __init__(
        self,
        user: Rate,
        channel: Rate,
        *,
        autocomplete: Rate | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.user, self.channel = user, channel
        self.autocomplete = autocomplete if autocomplete is not None else Rate(0, 0)
        #: The tokens of a channel only its quiet users may take.
        self.reserve = channel.burst // RESERVE_SHARE
        #: Each user's meter in each channel: quiet while at least half full.
        self.share = Rate(max(2, self.reserve), QUIET_PER_SECOND if channel.enabled else 0)
        self._users = _Buckets(user)
        self._channels = _Buckets(channel)
        self._shares = _Buckets(self.share)
        self._suggestions = _Buckets(self.autocomplete)
        self._clock = clock
        self._told: dict[int, float] = {}  # user → until when they know to wait
        # Whether each limit is on, read once: a Rate is frozen, and every interaction asks.
        self._user_on = user.enabled
        self._channel_on = channel.enabled

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

    def check(
        self, user_id: int, channel_id: int, *, privileged: bool | None = None
    ) -> float | None:
        """0 when the interaction may run (its tokens taken), else the seconds to wait.

        ``privileged``: whether the user is a GM of the channel or the player whose turn it
        is. Asked only when the channel alone would refuse them: with ``None`` the answer is
        then ``None`` (nothing taken), and the caller asks again with the standing found.
        """
        # Each bucket's count is read once at ``now`` and what is taken is written from it
        # (the same figures as ``wait`` then ``take``, which read it twice each): every
        # interaction passes here, and nothing else moves a bucket in between.
        now = self._clock()
        share = (channel_id, user_id)
        user_tokens = 0.0
        if self._user_on:
            user_tokens = self._users.tokens(user_id, now)
            missing = 1.0 - user_tokens
            if missing > 0:
                self._attempted(share, now)
                return missing / self.user.per_second
        if self._channel_on:
            share_tokens = self._shares.tokens(share, now)
            quiet = share_tokens >= self.share.burst / 2
            channel_tokens = self._channels.tokens(channel_id, now)
            missing = (1.0 if quiet else 1.0 + self.reserve) - channel_tokens
            if missing > 0:
                if privileged is None:
                    return None  # asked again with the standing: not counted twice
                if not privileged:
                    self._attempted(share, now)
                    return missing / self.channel.per_second
            # Above the crowd takes what is left: never into debt, never the wait of others.
            self._channels.put(channel_id, now, max(0.0, channel_tokens - 1))
            self._shares.put(share, now, max(0.0, share_tokens - 1))  # as _attempted does
        if self._user_on:
            self._users.put(user_id, now, user_tokens - 1)
        return 0.0

    def _attempted(self, share: tuple[int, int], now: float) -> None:
        """Every attempt in a channel, refused or not, drains the user's meter there: a user
        whose flood is refused does not become one of its quiet users again."""
        if self._channel_on:
            self._shares.take(share, now, 0.0)

    def suggest(self, user_id: int) -> bool:
        """Whether ``user_id`` may have autocomplete suggestions now (one counted if so)."""
        if not self.autocomplete.enabled:
            return True
        now = self._clock()
        if self._suggestions.wait(user_id, now) > 0:
            return False
        self._suggestions.take(user_id, now)
        return True


class Standings:
    """Each channel's :class:`~bot.services.standing.Standing`, read when the channel is
    crowded and kept ``ttl`` seconds: one read per crowded channel every few seconds."""

    def __init__(
        self,
        db: Database,
        *,
        ttl: float = STANDING_TTL,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.db, self.ttl, self.clock = db, ttl, clock
        self.queries = 0  # reads so far: the tests count them
        self._cache: dict[int, tuple[float, Standing]] = {}

    async def of(self, guild_id: int | None, channel_id: int) -> Standing:
        now = self.clock()
        entry = self._cache.get(channel_id)
        if entry is not None and entry[0] > now:
            return entry[1]
        self.queries += 1
        try:
            found = await standing(self.db, guild_id, channel_id)
        except Exception:  # the database is down: nobody is above the crowd, logged
            log.warning("could not read channel %s's GMs and turn", channel_id, exc_info=True)
            return Standing()
        if len(self._cache) >= MAX_BUCKETS:
            self._cache = {c: e for c, e in self._cache.items() if e[0] > now}
        self._cache[channel_id] = (now + self.ttl, found)
        return found

    def forget(self, channel_id: int) -> None:
        """Read the channel's standing again next time (its turn or its GMs changed)."""
        self._cache.pop(channel_id, None)


def forget_standing(client: Any, channel_id: int | None) -> None:
    """After a change of whose turn it is (or who runs the channel): no stale standing."""
    standings: Standings | None = getattr(client, "standings", None)
    if standings is not None and channel_id is not None:
        standings.forget(channel_id)


@dataclass(frozen=True, slots=True)
class Who:
    """Who sent an interaction, and where: what the limits read (no discord.py objects)."""

    user_id: int
    channel_id: int
    guild_id: int | None = None
    role_ids: frozenset[int] = frozenset()
    permissions: int = 0

    @classmethod
    def of_payload(cls, data: dict[str, Any]) -> Who:
        """From a raw INTERACTION_CREATE payload."""
        member = data.get("member") or {}
        user = member.get("user") or data.get("user") or {}
        guild_id = data.get("guild_id")
        roles = member.get("roles")
        # Every interaction is read here: positional fields and ``map``, no generator.
        return cls(
            int(user.get("id") or 0),
            int(data.get("channel_id") or 0),
            int(guild_id) if guild_id is not None else None,
            frozenset(map(int, roles)) if roles else frozenset(),
            int(member.get("permissions") or 0),
        )


def _gm_by_discord(client: Any, who: Who) -> bool:
    """The Discord half of the GM rule, from the payload: Manage Channels (or Administrator)
    here, or a role named like a GM role (``GM_ROLE_NAMES``)."""
    if who.permissions & _MANAGE:
        return True
    guild = client.get_guild(who.guild_id) if who.guild_id is not None else None
    settings = getattr(client, "settings", None)
    if guild is None or settings is None or not who.role_ids:
        return False
    wanted = {name.casefold() for name in settings.gm_role_names}
    roles = (guild.get_role(role_id) for role_id in who.role_ids)
    return any(role is not None and role.name.casefold() in wanted for role in roles)


async def above_the_crowd(client: Any, who: Who) -> bool:
    """A GM of the channel, or the player whose turn it is there."""
    if _gm_by_discord(client, who):
        return True
    standings: Standings | None = getattr(client, "standings", None)
    if standings is None:
        return False
    found = await standings.of(who.guild_id, who.channel_id)
    return found.above_the_crowd(who.user_id, who.role_ids)


def gate(client: Any, who: Who) -> float | None:
    """The limits' verdict without any database read: 0 go ahead, > 0 the wait, None when
    the channel is crowded and only :func:`admit` (which may read who is a GM) can tell."""
    limiter: RateLimiter | None = getattr(client, "rate_limiter", None)
    if limiter is None or not who.user_id:
        return 0.0
    return limiter.check(who.user_id, who.channel_id)


async def admit(client: Any, who: Who) -> float:
    """0 when the interaction may run (counted), else the seconds to wait."""
    wait = gate(client, who)
    if wait is None:
        privileged = await above_the_crowd(client, who)
        wait = client.rate_limiter.check(who.user_id, who.channel_id, privileged=privileged)
    return wait or 0.0


def slow_down(wait: float) -> str:
    return _("Slow down: try again in {seconds} s.", seconds=max(1, math.ceil(wait)))


def should_tell(client: Any, user_id: int, wait: float) -> bool:
    """Whether this refusal is answered (the first of a wait; the rest of a flood is not)."""
    limiter: RateLimiter | None = getattr(client, "rate_limiter", None)
    return limiter is not None and limiter.tell(user_id, wait)


def suggestions_allowed(client: Any, who: Who) -> bool:
    """Whether an autocomplete interaction is within its user's autocomplete budget."""
    limiter: RateLimiter | None = getattr(client, "rate_limiter", None)
    return limiter is None or not who.user_id or limiter.suggest(who.user_id)


def no_suggestions() -> dict[str, Any]:
    """The raw callback of an autocomplete past its budget: no choices."""
    return {"type": _AUTOCOMPLETE_RESULT, "data": {"choices": []}}


def slow_down_payload(wait: float) -> dict[str, Any]:
    """The raw callback of a refused interaction: the short ephemeral line, in the current
    language."""
    content = clip(slow_down(wait), MESSAGE)
    return {
        "type": _CHANNEL_MESSAGE,
        "data": {"content": content, "flags": _EPHEMERAL, "allowed_mentions": {"parse": []}},
    }


_replies: set[asyncio.Task[None]] = set()


def answer_raw(client: Any, data: dict[str, Any], payload: dict[str, Any]) -> None:
    """Send one raw interaction callback in a task of its own (the gateway never waits)."""

    async def send() -> None:
        try:
            await send_interaction_callback(client, int(data["id"]), data["token"], payload)
        except (TimeoutError, discord.HTTPException, OSError):
            log.info("could not answer a refused interaction", exc_info=True)

    task = asyncio.get_running_loop().create_task(send(), name="refusal-reply")
    _replies.add(task)
    task.add_done_callback(_replies.discard)
