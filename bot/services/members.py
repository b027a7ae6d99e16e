"""Who plays where, and who is a GM there, as the bot saw it: the web companion's permissions.

The bot works out who is acting for every command (``Actor``: the GM role by name or Manage
Channels, the member's roles). :class:`MemberRecords` writes that down per guild and user,
but only when it differs from what this process last wrote, so the command path costs a
dictionary lookup; the write itself runs beside the command, never in its way.

The web (``narrator web``, no gateway) then rebuilds an :class:`~bot.actor.Actor` from the
record (:func:`actor_for`) and calls the same services as the cogs, so the GM rule and the
owner rule are decided exactly as in Discord, from stored state, never from the browser.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import NamedTuple

from bot.actor import Actor
from bot.storage import Database
from bot.storage.repositories import gm_roles
from bot.storage.repositories import members as repo

log = logging.getLogger(__name__)

#: Members remembered per process before the memory starts again (a write each, then).
MAX_REMEMBERED = 100_000


class Seen(NamedTuple):
    """What the bot knows of a member at a command, compared with what it last wrote (a
    tuple: built for every command, it must cost next to nothing)."""

    display_name: str
    guild_name: str
    gm_role: bool
    role_ids: frozenset[int]


class MemberRecords:
    """The bot's side: record members when what is known of them changed."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.writes = 0  # the tests count them
        self._written: dict[tuple[int, int], tuple[Seen, set[int]]] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def saw(self, actor: Actor, guild_name: str, channel_name: str) -> None:
        """Called for every command in a guild: schedules a write only on a change."""
        if actor.guild_id is None or not actor.user_id:
            return
        key = (actor.guild_id, actor.user_id)
        # A plain tuple for the comparison (equal to the Seen written, field by field): the
        # NamedTuple is built only for a write, not for every command.
        facts = (actor.display_name, guild_name, actor.gm_role, actor.role_ids)
        known = self._written.get(key)
        if known is not None and known[0] == facts and actor.channel_id in known[1]:
            return
        seen = Seen(*facts)
        if len(self._written) >= MAX_REMEMBERED:
            self._written.clear()
        channels = known[1] if known is not None and known[0] == seen else set()
        self._written[key] = (seen, {*channels, actor.channel_id})
        task = asyncio.get_running_loop().create_task(
            self._write(key, seen, (actor.channel_id, channel_name))
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _write(self, key: tuple[int, int], seen: Seen, channel: tuple[int, str]) -> None:
        try:
            async with self.db.unit_of_work() as session:
                await repo.record(
                    session,
                    key[0],
                    key[1],
                    display_name=seen.display_name,
                    guild_name=seen.guild_name,
                    gm_role=seen.gm_role,
                    role_ids=sorted(seen.role_ids),
                    channel=channel if channel[0] else None,
                )
            self.writes += 1
        except Exception:  # the database is busy or down: try again at their next command
            self._written.pop(key, None)
            log.warning("could not record member %s of guild %s", key[1], key[0], exc_info=True)

    async def settle(self) -> None:
        """Wait for the writes under way (tests, and a clean shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)


@dataclass(frozen=True, slots=True)
class Place:
    """A guild the viewer plays in, with the channels they used there."""

    guild_id: int
    guild_name: str
    display_name: str
    gm: bool
    channels: tuple[tuple[int, str], ...]


async def places_of(db: Database, user_id: int) -> list[Place]:
    """Every guild where the bot has seen ``user_id``, with whether they are a GM there (by
    role; a channel's starter is a GM of that channel only, which :func:`actor_for` covers)."""
    async with db.unit_of_work(read_only=True) as session:
        rows = await repo.of_user(session, user_id)
        places = []
        for row in rows:
            added = set(await gm_roles.role_ids(session, row.guild_id))
            gm = row.gm_role or not added.isdisjoint(row.role_ids)
            channels = tuple(
                sorted(((int(c), name) for c, name in row.channels.items()), key=lambda c: c[1])
            )
            places.append(Place(row.guild_id, row.guild_name, row.display_name, gm, channels))
    return places


async def guild_ids_of(db: Database, user_id: int) -> frozenset[int]:
    """The guilds where the bot has seen ``user_id``."""
    return frozenset(place.guild_id for place in await places_of(db, user_id))


async def actor_for(db: Database, user_id: int, guild_id: int, channel_id: int = 0) -> Actor | None:
    """``user_id`` acting in ``guild_id`` (and ``channel_id``) as the bot last saw them, for
    the services' own permission checks; None when the bot never saw them there."""
    async with db.unit_of_work(read_only=True) as session:
        row = await repo.get(session, guild_id, user_id)
    if row is None:
        return None
    return Actor(
        user_id=user_id,
        channel_id=channel_id,
        guild_id=guild_id,
        display_name=row.display_name,
        gm_role=row.gm_role,
        role_ids=frozenset(row.role_ids),
    )
