"""RPS sustained actions: the channel's one task, read plain or locked for a change."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.storage.models import RpsSustainedTask


async def get(
    session: AsyncSession, channel_id: int, *, for_update: bool = False
) -> RpsSustainedTask | None:
    query = select(RpsSustainedTask).where(RpsSustainedTask.channel_id == channel_id)
    if for_update:
        query = query.with_for_update()
    return (await session.execute(query)).scalar_one_or_none()


def add(session: AsyncSession, row: RpsSustainedTask) -> RpsSustainedTask:
    session.add(row)
    return row


async def delete(session: AsyncSession, row: RpsSustainedTask) -> None:
    await session.delete(row)
