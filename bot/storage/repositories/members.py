"""Members as the bot last saw them: written when they changed, read by the web."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sqlalchemy import and_, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.storage.models import Member
from bot.storage.models.base import utcnow
from bot.storage.repositories._atomic import upsert

#: Channels remembered per member: the web lists them; a player rarely has more tables.
MAX_CHANNELS = 50


async def record(
    session: AsyncSession,
    guild_id: int,
    user_id: int,
    *,
    display_name: str,
    guild_name: str,
    gm_role: bool,
    role_ids: Sequence[int],
    channel: tuple[int, str] | None = None,
) -> None:
    """Insert or update the member's row, adding ``channel`` (id, name) to their channels
    (at most ``MAX_CHANNELS``, the most recent kept)."""
    row = await session.get(Member, (guild_id, user_id), with_for_update=True)
    channels = dict(row.channels) if row is not None else {}
    if channel is not None:
        channels.pop(str(channel[0]), None)
        channels[str(channel[0])] = channel[1][:100]
        while len(channels) > MAX_CHANNELS:
            del channels[next(iter(channels))]
    await upsert(
        session,
        Member,
        ("guild_id", "user_id"),
        ("display_name", "guild_name", "gm_role", "role_ids", "channels", "last_seen"),
        guild_id=guild_id,
        user_id=user_id,
        display_name=display_name[:100],
        guild_name=guild_name[:100],
        gm_role=gm_role,
        role_ids=sorted(role_ids),
        channels=channels,
        last_seen=utcnow(),
    )


async def of_user(session: AsyncSession, user_id: int) -> list[Member]:
    """Every guild's record of ``user_id``, by guild name."""
    query = select(Member).where(Member.user_id == user_id).order_by(Member.guild_name)
    return list((await session.scalars(query)).all())


async def in_guild(session: AsyncSession, guild_id: int) -> list[Member]:
    """Everyone the bot has seen in ``guild_id``, by name."""
    query = select(Member).where(Member.guild_id == guild_id).order_by(Member.display_name)
    return list((await session.scalars(query)).all())


async def some(session: AsyncSession, keys: Iterable[tuple[int, int]]) -> list[Member]:
    """The records of these (guild, user) pairs that exist, in one query."""
    pairs = sorted(set(keys))
    if not pairs:
        return []
    query = select(Member).where(
        or_(*(and_(Member.guild_id == guild, Member.user_id == user) for guild, user in pairs))
    )
    return list((await session.scalars(query)).all())


async def get(session: AsyncSession, guild_id: int, user_id: int) -> Member | None:
    return await session.get(Member, (guild_id, user_id))
