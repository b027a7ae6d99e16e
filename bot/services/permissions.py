"""Who is a GM of a channel: the one reusable check, with one refusal message.

DESIGN.md: a GM holds the guild's GM role, has Manage Channels, or started the channel's
current encounter or match. The first two come from Discord (``Actor.gm_role``), as do the
roles a server adds with ``/settings gm-role`` (``Actor.role_ids``, matched here); a feature
that starts things registers a :data:`GmSource` naming who started it in a channel, so the
check stays one function and secret rolls can reach those GMs too.

What remembers GM facts read earlier (the attack exchanges' press guard) hears of each
change this process commits (:func:`gm_changed`), so a GM made by a command here is never
refused from an old memory.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import PermissionDenied
from bot.i18n import N_, _
from bot.storage import Database
from bot.storage.repositories import gm_roles

#: Where a refusal sends a player to read who counts as a GM (kept to one line).
WHO_IS_GM = N_("who is one: `/help command:gm`")

#: Who started something still running in a channel (``None``: nothing is running).
GmSource = Callable[[AsyncSession, int], Awaitable[int | None]]
_gm_sources: list[GmSource] = []

#: Told that this process committed a change of who is a GM in a database.
GmWatcher = Callable[[Database], None]
_gm_watchers: list[GmWatcher] = []


def register_gm_source(source: GmSource) -> GmSource:
    """Let a feature say who started it in a channel (usable as a decorator)."""
    if source not in _gm_sources:
        _gm_sources.append(source)
    return source


def watch_gm_changes(watcher: GmWatcher) -> GmWatcher:
    """Hear of every :func:`gm_changed` (usable as a decorator)."""
    if watcher not in _gm_watchers:
        _gm_watchers.append(watcher)
    return watcher


def gm_changed(db: Database) -> None:
    """Who is a GM in ``db`` just changed (a server's GM roles, a new encounter or match and
    so its starter): call it *after* the commit, so what re-reads the facts finds the new
    ones. Whoever remembers GM facts drops them (:func:`watch_gm_changes`)."""
    for watcher in _gm_watchers:
        watcher(db)


async def channel_starters(session: AsyncSession, channel_id: int) -> set[int]:
    """The users who are GMs of the channel because they started what is running there."""
    starters = {await source(session, channel_id) for source in _gm_sources}
    return {user_id for user_id in starters if user_id is not None}


async def is_gm(session: AsyncSession, actor: Actor) -> bool:
    if actor.gm_role:
        return True
    if actor.role_ids and actor.guild_id is not None:
        added = await gm_roles.role_ids(session, actor.guild_id)
        if actor.role_ids.intersection(added):
            return True
    return actor.user_id in await channel_starters(session, actor.channel_id)


async def require_gm(session: AsyncSession, actor: Actor, action: str) -> None:
    """Raise :class:`PermissionDenied` unless ``actor`` is a GM of the channel."""
    if not await is_gm(session, actor):
        raise not_a_gm(action)


def not_a_gm(action: str) -> PermissionDenied:
    """The one refusal for a non-GM, for callers that already know whether the actor is one.

    ``action`` is English, marked ``N_("…")`` where it is written, and translated here.
    """
    return PermissionDenied(
        _("Only the channel's GM can {action} ({who}).", action=_(action), who=_(WHO_IS_GM))
    )
