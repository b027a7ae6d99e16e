"""Channel settings: read with defaults, or lock-and-update."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.storage.models import ChannelSettings
from bot.storage.repositories._atomic import insert_missing


async def get(session: AsyncSession, channel_id: int) -> ChannelSettings | None:
    return await session.get(ChannelSettings, channel_id)


async def get_for_update(
    session: AsyncSession, channel_id: int, guild_id: int | None
) -> ChannelSettings:
    """The channel's row, created if missing (by whichever command comes first) and locked
    for this transaction."""
    await insert_missing(
        session,
        ChannelSettings,
        ["channel_id"],
        channel_id=channel_id,
        guild_id=guild_id,
        rules={},
        secret_mode="gm",
    )
    query = (
        select(ChannelSettings)
        .where(ChannelSettings.channel_id == channel_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    return (await session.execute(query)).scalar_one()
