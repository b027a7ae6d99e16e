"""Which language to answer in, from the choices stored per channel and per user.

A GM picks a channel's language (``/settings language``), anyone their own
(``/settings my-language``); without either, the language of the user's Discord client.
Every interaction needs this before its first word, so the choices are cached in-process:
one query reads both a user's and a channel's choice on a miss, nothing on a hit.

Staleness: a change made through this process forgets the cached entries at once. Another
process (another shard) keeps its cached value until it expires (``ttl``, 60 s): a user who
changes their language in one server may see the old one in a server handled by another
process for up to a minute. Channels belong to one guild, hence to one shard, so a channel's
choice is only stale across processes that share a guild (restarts, rolling deploys).

An expired entry found on an interaction's path (:meth:`LanguageChoices.cached`, which every
command, button and refusal asks) is still used for that interaction while it is read again
beside it: the interactions that find a whole batch expired are not each held up by a
database read in their own way. The re-reads gather into one query per
:data:`REFRESH_BATCH` keys. And each entry lives a random 75–100% of ``ttl``: the entries
cached together (every channel in the minute after a start) do not all expire in the same
second. Spread so, they expire one or two at a time, so a re-read first waits
:data:`REFRESH_GATHER` for more to expire: the expired entries answer meanwhile, so the wait
holds nobody up (a change made in another process shows at most that much later). Reading
each as it expired cost 440 queries in 1,000 commands at 200/s, about 0.4 ms more CPU per
command (a fifth of the load benchmark's), against 5-12 queries gathered (measured on
2026-11-28). Before all this, the choices cached during the load benchmark's set-up expired
together 60 s later, and the next seconds' interactions each waited for a read of their own:
a p99 of 150-410 ms in that run, against 8-33 ms in the next (measured on 2026-11-27).
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from bot.actor import Actor
from bot.errors import UserError
from bot.i18n import N_, _, available_languages
from bot.i18n.choice import choose_language
from bot.services.permissions import require_gm
from bot.storage import Database
from bot.storage.models.languages import CHANNEL, USER
from bot.storage.repositories import languages as repository
from bot.text import UserText

#: The value that removes a choice (back to the default), as the settings commands take it.
DEFAULT = "default"

Key = tuple[str, int]

log = logging.getLogger(__name__)

#: Expired keys read again in one query (an ``IN`` list per scope); the loop runs its other
#: work between two such queries.
REFRESH_BATCH = 50
#: The shortest life of an entry, as a share of ``ttl`` (each draws between this and 1).
TTL_SPREAD = 0.75
#: Seconds a re-read waits for more entries to expire before it reads them all together.
REFRESH_GATHER = 1.0


class LanguageChoices:
    """The stored choices, cached in-process (LRU, ``size`` entries, ``ttl`` seconds)."""

    def __init__(
        self,
        db: Database,
        *,
        ttl: float = 60.0,
        size: int = 50_000,
        clock: Callable[[], float] = time.monotonic,
        gather: float = REFRESH_GATHER,
    ) -> None:
        self.db = db
        self.ttl = ttl
        self.gather = gather
        self.size = size
        self.clock = clock
        self.queries = 0  # database reads so far: the tests count them
        self._cache: OrderedDict[Key, tuple[float, str | None]] = OrderedDict()
        self._expired: set[Key] = set()  # to read again beside the interactions (cached())
        self._refreshing: asyncio.Task[None] | None = None
        self._forgotten = 0  # forget() calls so far: a re-read older than one is not kept

    def cached(self, channel_id: int | None, user_id: int | None) -> tuple[str | None, ...] | None:
        """Both choices when the cache holds them (no query), else None. A hit counts as a
        use, as in :meth:`choices`: what is read often stays cached. An expired entry still
        answers (on a running event loop) and is read again beside the caller (see the
        module's docstring); a key never read, or forgotten, is a miss."""
        now = self.clock()
        cache = self._cache
        channel = user = None
        expired: list[Key] = []
        if channel_id is not None:
            entry = cache.get((CHANNEL, channel_id))
            if entry is None:
                return None
            if entry[0] <= now:
                expired.append((CHANNEL, channel_id))
            channel = entry[1]
        if user_id is not None:
            entry = cache.get((USER, user_id))
            if entry is None:
                return None
            if entry[0] <= now:
                expired.append((USER, user_id))
            user = entry[1]
        if expired and not self._refresh_later(expired):
            return None
        if channel_id is not None:
            cache.move_to_end((CHANNEL, channel_id))
        if user_id is not None:
            cache.move_to_end((USER, user_id))
        return (channel, user)

    def _refresh_later(self, keys: list[Key]) -> bool:
        """Read ``keys`` again in the background (False: no event loop runs here)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return False
        self._expired.update(keys)
        if self._refreshing is None or self._refreshing.done():
            self._refreshing = loop.create_task(self._refresh(), name="language-choices")
        return True

    async def _refresh(self) -> None:
        """Read the expired keys again, :data:`REFRESH_BATCH` at a time, each time after
        ``gather`` seconds in which more expire (those that expire while a read runs wait for
        the next gathering, not for a read of their own). A failed read leaves them expired:
        the next interaction that finds one starts another refresh."""
        while self._expired:
            await asyncio.sleep(self.gather)
            gathered, self._expired = list(self._expired), set()
            for start in range(0, len(gathered), REFRESH_BATCH):
                keys = gathered[start : start + REFRESH_BATCH]
                forgotten = self._forgotten
                now = self.clock()
                try:
                    stored = await self._read(keys)
                except Exception:
                    log.warning("could not read language choices again", exc_info=True)
                    return
                if self._forgotten == forgotten:  # else a choice changed: read when needed
                    for key in keys:
                        if key in self._cache:  # not forgotten, not pushed out meanwhile
                            self._remember(key, stored.get(key), now)

    async def choices(self, channel_id: int | None, user_id: int | None) -> tuple[str | None, ...]:
        """The channel's and the user's choices (None: not chosen), at most one query."""
        keys = [(CHANNEL, channel_id), (USER, user_id)]
        now = self.clock()
        found: dict[Key, str | None] = {}
        missing: list[Key] = []
        for scope, target in keys:
            if target is None:
                continue
            entry = self._cache.get((scope, target))
            if entry is not None and entry[0] > now:
                self._cache.move_to_end((scope, target))
                found[(scope, target)] = entry[1]
            else:
                missing.append((scope, target))
        if missing:
            stored = await self._read(missing)
            for key in missing:
                found[key] = stored.get(key)
                self._remember(key, stored.get(key), now)
        return tuple(
            found.get((scope, target)) if target is not None else None for scope, target in keys
        )

    async def _read(self, keys: list[Key]) -> dict[Key, str]:
        """The stored choices of ``keys`` (absent: not chosen), in one query."""
        self.queries += 1
        async with self.db.unit_of_work(read_only=True) as session:
            return await repository.read(session, keys)

    async def language_for(
        self, client_locale: object, channel_id: int | None, user_id: int | None
    ) -> str:
        """The language to answer this user in this channel."""
        channel, user = await self.choices(channel_id, user_id)
        return choose_language(client_locale, channel, user)

    def forget(self, scope: str, target_id: int) -> None:
        """Drop a cached choice (it changed): the next interaction reads it again."""
        self._cache.pop((scope, target_id), None)
        self._forgotten += 1

    def _remember(self, key: Key, language: str | None, now: float) -> None:
        self._cache[key] = (now + self.ttl * random.uniform(TTL_SPREAD, 1.0), language)
        self._cache.move_to_end(key)
        while len(self._cache) > self.size:
            self._cache.popitem(last=False)


@dataclass(frozen=True, slots=True)
class LanguageSettings:
    """What ``/settings show`` tells about languages here."""

    channel: str | None
    user: str | None


def checked(language: str) -> str | None:
    """A language code from a command, validated; None for :data:`DEFAULT` (remove)."""
    if language == DEFAULT:
        return None
    if language not in available_languages():
        raise UserError(
            _(
                "Unknown language `{language}`. Languages: {languages}.",
                language=UserText(language[:16]),
                languages=", ".join(available_languages()),
            )
        )
    return language


async def set_channel_language(
    db: Database, cache: LanguageChoices, actor: Actor, language: str
) -> str | None:
    """A GM sets (or, with :data:`DEFAULT`, removes) the channel's language."""
    chosen = checked(language)
    async with db.unit_of_work() as session:
        await require_gm(session, actor, N_("set the channel's language"))
        if chosen is None:
            await repository.forget(session, CHANNEL, actor.channel_id)
        else:
            await repository.choose(session, CHANNEL, actor.channel_id, chosen, actor.user_id)
    cache.forget(CHANNEL, actor.channel_id)
    return chosen


async def set_user_language(
    db: Database, cache: LanguageChoices, user_id: int, language: str
) -> str | None:
    """A user sets (or removes) their own language, everywhere."""
    chosen = checked(language)
    async with db.unit_of_work() as session:
        if chosen is None:
            await repository.forget(session, USER, user_id)
        else:
            await repository.choose(session, USER, user_id, chosen, user_id)
    cache.forget(USER, user_id)
    return chosen


async def show(cache: LanguageChoices, channel_id: int, user_id: int) -> LanguageSettings:
    channel, user = await cache.choices(channel_id, user_id)
    return LanguageSettings(channel=channel, user=user)
