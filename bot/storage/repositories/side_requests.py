""" "Roll your side" requests: created with the challenger's side, locked when answered."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.storage.models import SideRequest


async def get_for_update(session: AsyncSession, request_id: int) -> SideRequest | None:
    """The request, locked until the transaction ends: a second press waits, then sees it done."""
    query = select(SideRequest).where(SideRequest.id == request_id).with_for_update()
    return (await session.execute(query)).scalar_one_or_none()


async def add(session: AsyncSession, request: SideRequest) -> SideRequest:
    """Add the request and flush, so its id can go into the button before the commit."""
    session.add(request)
    await session.flush()
    return request
