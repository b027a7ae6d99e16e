"""Who stands above a channel's crowd: what the fair-use limits read to never refuse a GM,
or the player whose turn it is, because other people flood the channel.

One read-only unit of work gathers the database's half of the GM rule
(:mod:`bot.services.permissions`: the server's own GM roles, who started what is running in
the channel) and the current combatant's player (:mod:`bot.services.initiative`). The
Discord half (a GM role by name, Manage Channels) is the caller's: it needs no database.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.services.initiative import current_player
from bot.services.permissions import channel_starters
from bot.storage import Database
from bot.storage.repositories import gm_roles


@dataclass(frozen=True, slots=True)
class Standing:
    """A channel's GMs by the database, and whose turn it is there."""

    gm_role_ids: frozenset[int] = frozenset()
    starters: frozenset[int] = frozenset()
    current_player: int | None = None

    def above_the_crowd(self, user_id: int, role_ids: frozenset[int]) -> bool:
        """A GM of the channel by the stored rules, or the player whose turn it is."""
        return (
            user_id in self.starters
            or user_id == self.current_player
            or not self.gm_role_ids.isdisjoint(role_ids)
        )


async def standing(db: Database, guild_id: int | None, channel_id: int) -> Standing:
    """The channel's :class:`Standing`, read in one read-only unit of work."""
    async with db.unit_of_work(read_only=True) as session:
        roles = await gm_roles.role_ids(session, guild_id) if guild_id is not None else []
        starters = await channel_starters(session, channel_id)
        turn = await current_player(session, channel_id)
    return Standing(frozenset(roles), frozenset(starters), turn)
