"""Who may open a channel's campaign page: a member of the channel's guild, as the web's
login says (the guilds Discord listed for the viewer), the guild read from the bot's stored
state, never from the browser. The :class:`~bot.actor.Actor` it returns carries the viewer
into every other read of this package, so the GM rule is :func:`bot.services.permissions.is_gm`
as in Discord: the GM role and roles as the bot last recorded them
(:func:`bot.services.members.actor_for`), and who started the channel's encounter or match;
a member the bot never saw there acts with no role."""

from __future__ import annotations

from bot.actor import Actor
from bot.errors import UserError
from bot.i18n import _
from bot.services import members
from bot.storage import Database
from bot.storage.repositories import channel_activity


class NoSuchChannel(UserError):
    """Nothing of this channel is stored, or the viewer is not in its guild: the same answer
    for both, so a page does not tell outsiders which channels exist."""


async def channel_actor(
    db: Database,
    *,
    user_id: int,
    name: str,
    guild_ids: frozenset[int],
    channel_id: int,
) -> Actor:
    """The viewer as an actor of ``channel_id``, or :class:`NoSuchChannel`."""
    async with db.unit_of_work(read_only=True) as session:
        guild_id = await channel_activity.guild_of(session, channel_id)
    if guild_id is None or guild_id not in guild_ids:
        raise NoSuchChannel(_("No channel of yours has that id."))
    recorded = await members.actor_for(db, user_id, guild_id, channel_id)
    if recorded is not None:  # the GM role and roles as the bot last saw them in Discord
        return recorded
    return Actor(
        user_id=user_id,
        channel_id=channel_id,
        guild_id=guild_id,
        display_name=name,
    )
