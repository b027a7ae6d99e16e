"""Quidditch matches (one active per channel) and the guild's house-points table."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.storage.models.quidditch import HousePoints, QuidditchMatch


async def active(
    session: AsyncSession, channel_id: int, *, for_update: bool = False
) -> QuidditchMatch | None:
    """The channel's match in play, locked for this transaction when ``for_update``."""
    query = select(QuidditchMatch).where(QuidditchMatch.active_channel_id == channel_id)
    if for_update:
        query = query.with_for_update()
    return (await session.execute(query)).scalar_one_or_none()


def start(
    session: AsyncSession,
    *,
    guild_id: int | None,
    channel_id: int,
    started_by: int,
    state: dict,
) -> QuidditchMatch:
    match = QuidditchMatch(
        guild_id=guild_id,
        channel_id=channel_id,
        active_channel_id=channel_id,
        started_by=started_by,
        status="active",
        state=state,
    )
    session.add(match)
    return match


def close(match: QuidditchMatch, status: str) -> None:
    """The match leaves play ("finished" or "abandoned") and frees its channel."""
    match.status = status
    match.active_channel_id = None


async def award(session: AsyncSession, guild_id: int, house: str, points: int) -> HousePoints:
    """Add a win worth ``points`` to ``house`` in the guild's table, creating its row."""
    key = house.casefold()
    row = (
        await session.execute(
            select(HousePoints)
            .where(HousePoints.guild_id == guild_id, HousePoints.house_key == key)
            .with_for_update()
        )
    ).scalar_one_or_none()
    if row is None:
        row = HousePoints(guild_id=guild_id, house_key=key, house=house, points=0, wins=0)
        session.add(row)
    row.points += points
    row.wins += 1
    return row


async def table(session: AsyncSession, guild_id: int) -> list[HousePoints]:
    query = (
        select(HousePoints)
        .where(HousePoints.guild_id == guild_id)
        .order_by(HousePoints.points.desc(), HousePoints.house)
    )
    return list((await session.execute(query)).scalars())
