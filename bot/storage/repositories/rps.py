"""RPS sustained actions: the channel's one task, read plain or locked for a change."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.storage.models import RpsSustainedTask
from bot.storage.repositories._atomic import insert_missing


async def get(
    session: AsyncSession, channel_id: int, *, for_update: bool = False
) -> RpsSustainedTask | None:
    query = select(RpsSustainedTask).where(RpsSustainedTask.channel_id == channel_id)
    if for_update:
        query = query.with_for_update().execution_options(populate_existing=True)
    return (await session.execute(query)).scalar_one_or_none()


async def get_or_create_for_update(
    session: AsyncSession, channel_id: int, *, guild_id: int | None, started_by: int
) -> RpsSustainedTask:
    """The channel's row, locked; a new one (``status`` empty, to be filled) if it had none.

    Two first starts at once: one inserts, the other waits for its lock and then sees the
    winner's action in progress.
    """
    await insert_missing(
        session,
        RpsSustainedTask,
        ["channel_id"],
        channel_id=channel_id,
        guild_id=guild_id,
        started_by=started_by,
        goal=0,
        status="",
        log=[],
        participants=[],
    )
    row = await get(session, channel_id, for_update=True)
    assert row is not None  # inserted above or by a concurrent command
    return row


async def delete(session: AsyncSession, row: RpsSustainedTask) -> None:
    await session.delete(row)
