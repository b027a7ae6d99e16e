"""Quidditch matches (one active per channel) and the guild's house-points table."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.storage.models import HousePoints, QuidditchMatch
from bot.storage.repositories import _channel_state
from bot.storage.repositories._atomic import insert_missing


async def active(
    session: AsyncSession, channel_id: int, *, for_update: bool = False
) -> QuidditchMatch | None:
    """The channel's match in play, locked for this transaction when ``for_update``."""
    return await _channel_state.active(session, QuidditchMatch, channel_id, for_update=for_update)


def start(session: AsyncSession, **columns: Any) -> QuidditchMatch:
    return _channel_state.start(session, QuidditchMatch, **columns)


def close(match: QuidditchMatch, status: str) -> None:
    """The match leaves play ("finished" or "abandoned") and frees its channel."""
    _channel_state.close(match, status)


async def latest(
    session: AsyncSession, channel_id: int, *, for_update: bool = False
) -> QuidditchMatch | None:
    """The channel's most recent match, running or not (an undo may reopen a finished one)."""
    query = (
        select(QuidditchMatch)
        .where(QuidditchMatch.channel_id == channel_id)
        .order_by(QuidditchMatch.id.desc())
        .limit(1)
    )
    if for_update:
        query = query.with_for_update()
    return (await session.execute(query)).scalar_one_or_none()


def reopen(match: QuidditchMatch) -> None:
    """A finished match is played again (its last turn was undone)."""
    match.status = "active"
    match.active_channel_id = match.channel_id


async def award(
    session: AsyncSession, guild_id: int, house: str, points: int, *, wins: int = 1
) -> HousePoints:
    """Add ``wins`` (one) worth ``points`` to ``house`` in the guild's table, creating its
    row; an undone win passes negative numbers.

    Two matches may end at once with a house new to the table: whichever inserts first
    creates the row, and the other adds to it once the first commits.
    """
    key = house.casefold()
    await insert_missing(
        session,
        HousePoints,
        ["guild_id", "house_key"],
        guild_id=guild_id,
        house_key=key,
        house=house,
        points=0,
        wins=0,
    )
    query = (
        select(HousePoints)
        .where(HousePoints.guild_id == guild_id, HousePoints.house_key == key)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    row = (await session.execute(query)).scalar_one()
    row.points += points
    row.wins += wins
    if row.wins <= 0 and row.points == 0:
        await session.delete(row)  # its only win was undone: off the table again
    return row


async def table(session: AsyncSession, guild_id: int) -> list[HousePoints]:
    query = (
        select(HousePoints)
        .where(HousePoints.guild_id == guild_id)
        .order_by(HousePoints.points.desc(), HousePoints.house)
    )
    return list((await session.execute(query)).scalars())
