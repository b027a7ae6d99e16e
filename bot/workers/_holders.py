"""Who holds work now, per user and per channel: the one bookkeeping of the pool's queues
and of :class:`~bot.workers.FairGate`, so that both refuse a user's or a channel's next job
by the same rule (:class:`Busy` at once, never a wait)."""

from __future__ import annotations

from collections import Counter
from typing import Any


class Busy(Exception):
    """Refused at once: the ``scope`` ("user", "channel" or "pool") has enough work queued.

    ``held``: for "user", what the user's own job that fills their queue is (the ``what`` it
    was admitted with: ``"odds"``, ``"stats"``…; ``""`` when not told), so the refusal names
    what is really still running, whatever the new request is.
    """

    def __init__(self, scope: str, held: str = "") -> None:
        super().__init__(f"too much work queued for this {scope}")
        self.scope, self.held = scope, held


class Holders:
    """Jobs held (running or waiting) per user and per channel. The bounds are the owner's
    (a pool or a gate, whose bounds may be changed while it runs), given at each admission.
    Entries at zero are dropped, so the counts stay as small as the work."""

    def __init__(self) -> None:
        self._users: Counter[int] = Counter()
        self._channels: Counter[int] = Counter()
        self._what: Counter[tuple[int, str]] = Counter()  # a user's jobs by what they are

    def admit(
        self,
        user: int | None,
        channel: int | None,
        *,
        per_user: int,
        per_channel: int,
        pool_full: bool,
        what: str = "",
    ) -> None:
        """Count one more job of ``user`` in ``channel`` (``what`` it is, for the user's next
        refusal); :class:`Busy` (nothing counted) when either is at its bound, or when the
        pool has no room (``pool_full``)."""
        if user is not None and self._users[user] >= per_user:
            held = next((w for (u, w) in self._what if u == user), "")
            raise Busy("user", held)
        if channel is not None and self._channels[channel] >= per_channel:
            raise Busy("channel")
        if pool_full:
            raise Busy("pool")
        if user is not None:
            self._users[user] += 1
            self._what[user, what] += 1
        if channel is not None:
            self._channels[channel] += 1

    def leave(self, user: int | None, channel: int | None, what: str = "") -> None:
        """One job of ``user`` in ``channel`` is over (done, refused later, or cancelled)."""
        counted: tuple[tuple[Counter[Any], Any], ...] = (
            (self._users, user),
            (self._channels, channel),
            (self._what, None if user is None else (user, what)),
        )
        for counts, key in counted:
            if key is not None:
                counts[key] -= 1
                if counts[key] <= 0:
                    del counts[key]

    def __bool__(self) -> bool:
        """Whether any job is counted (admitted and not yet over)."""
        return bool(self._users or self._channels)

    def clear(self) -> None:
        """Forget every holder (a new event loop: the old loop's jobs are gone with it)."""
        self._users.clear()
        self._channels.clear()
        self._what.clear()
