"""Channel settings: read with defaults, or lock-and-update."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.storage.models import ChannelSettings


async def get(session: AsyncSession, channel_id: int) -> ChannelSettings | None:
    return await session.get(ChannelSettings, channel_id)


async def get_for_update(
    session: AsyncSession, channel_id: int, guild_id: int | None
) -> ChannelSettings:
    """The channel's row, created if missing and locked for this transaction."""
    row = (
        await session.execute(
            select(ChannelSettings)
            .where(ChannelSettings.channel_id == channel_id)
            .with_for_update()
        )
    ).scalar_one_or_none()
    if row is None:
        row = ChannelSettings(channel_id=channel_id, guild_id=guild_id, rules={}, secret_mode="gm")
        session.add(row)
        await session.flush()
    return row
