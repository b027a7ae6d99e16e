"""The roles that make their holders GMs in one server (``/settings gm-role``)."""

from __future__ import annotations

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.storage.models import GuildGmRole


async def role_ids(session: AsyncSession, guild_id: int) -> list[int]:
    query = (
        select(GuildGmRole.role_id)
        .where(GuildGmRole.guild_id == guild_id)
        .order_by(GuildGmRole.created_at, GuildGmRole.role_id)
    )
    return list((await session.execute(query)).scalars())


async def add(session: AsyncSession, guild_id: int, role_id: int, added_by: int) -> bool:
    """Add the role; False when it was there already."""
    if await session.get(GuildGmRole, (guild_id, role_id)) is not None:
        return False
    session.add(GuildGmRole(guild_id=guild_id, role_id=role_id, added_by=added_by))
    await session.flush()
    return True


async def remove(session: AsyncSession, guild_id: int, role_id: int) -> bool:
    """Remove the role; False when it was not there."""
    result = await session.execute(
        delete(GuildGmRole).where(GuildGmRole.guild_id == guild_id, GuildGmRole.role_id == role_id)
    )
    return bool(result.rowcount)  # type: ignore[attr-defined]
