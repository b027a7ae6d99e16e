"""Deleting what is no longer needed, in small batches (each its own short transaction)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.storage.models import (
    AttackExchange,
    CodaAttack,
    DramaPriceOffer,
    PenaltyLogEntry,
    RollLog,
    SideRequest,
)


async def roll_channels_over(session: AsyncSession, keep: int) -> list[int]:
    """Channels with more than ``keep`` rolls (an index-only scan of (channel_id, id))."""
    query = select(RollLog.channel_id).group_by(RollLog.channel_id).having(func.count() > keep)
    return list((await session.execute(query)).scalars())


async def oldest_kept_roll(session: AsyncSession, channel_id: int, keep: int) -> int | None:
    """The id of the channel's ``keep``-th newest roll: everything older may go."""
    query = (
        select(RollLog.id)
        .where(RollLog.channel_id == channel_id)
        .order_by(RollLog.id.desc())
        .offset(keep - 1)
        .limit(1)
    )
    return (await session.execute(query)).scalar_one_or_none()


async def delete_rolls_before(
    session: AsyncSession, channel_id: int, before_id: int, *, batch: int
) -> int:
    """Delete up to ``batch`` of the channel's rolls older than ``before_id``; how many went."""
    ids = (
        select(RollLog.id)
        .where(RollLog.channel_id == channel_id, RollLog.id < before_id)
        .order_by(RollLog.id)
        .limit(batch)
    )
    return await _delete_ids(session, RollLog, ids)


async def penalty_pools_over(session: AsyncSession, keep: int) -> list[int]:
    """Penalty pools with more than ``keep`` log entries (an index-only scan of (pool_id, id))."""
    query = (
        select(PenaltyLogEntry.pool_id)
        .group_by(PenaltyLogEntry.pool_id)
        .having(func.count() > keep)
    )
    return list((await session.execute(query)).scalars())


async def oldest_kept_penalty_entry(session: AsyncSession, pool_id: int, keep: int) -> int | None:
    """The id of the pool's ``keep``-th newest log entry: everything older may go."""
    query = (
        select(PenaltyLogEntry.id)
        .where(PenaltyLogEntry.pool_id == pool_id)
        .order_by(PenaltyLogEntry.id.desc())
        .offset(keep - 1)
        .limit(1)
    )
    return (await session.execute(query)).scalar_one_or_none()


async def delete_penalty_entries_before(
    session: AsyncSession, pool_id: int, before_id: int, *, batch: int
) -> int:
    """Delete up to ``batch`` of the pool's log entries older than ``before_id``."""
    ids = (
        select(PenaltyLogEntry.id)
        .where(PenaltyLogEntry.pool_id == pool_id, PenaltyLogEntry.id < before_id)
        .order_by(PenaltyLogEntry.id)
        .limit(batch)
    )
    return await _delete_ids(session, PenaltyLogEntry, ids)


async def delete_exchanges_closed_before(
    session: AsyncSession, model: type[Any], before: datetime, *, batch: int
) -> int:
    """Delete up to ``batch`` attack exchanges (CODA's or Hogwarts 1990's) that finished, or
    whose answer window closed, before ``before``."""
    ids = (
        select(model.id)
        .where(or_(model.finished_at < before, model.expires_at < before))
        .order_by(model.id)
        .limit(batch)
    )
    return await _delete_ids(session, model, ids)


EXCHANGE_MODELS = (CodaAttack, AttackExchange)


async def delete_offers_expired_before(
    session: AsyncSession, before: datetime, *, batch: int
) -> int:
    """Delete up to ``batch`` price offers that expired before ``before``."""
    ids = (
        select(DramaPriceOffer.id)
        .where(DramaPriceOffer.expires_at < before)
        .order_by(DramaPriceOffer.id)
        .limit(batch)
    )
    return await _delete_ids(session, DramaPriceOffer, ids)


async def delete_requests_expired_before(
    session: AsyncSession, before: datetime, *, batch: int
) -> int:
    """Delete up to ``batch`` "roll your side / part" requests whose window closed before
    ``before`` (answered or not: the window bounds them all)."""
    ids = (
        select(SideRequest.id)
        .where(SideRequest.expires_at < before)
        .order_by(SideRequest.id)
        .limit(batch)
    )
    return await _delete_ids(session, SideRequest, ids)


async def delete_ended_before(
    session: AsyncSession, model: type[Any], before: datetime, *, batch: int
) -> int:
    """Delete up to ``batch`` ended rows of a per-channel state (encounters, matches) whose
    last change is older than ``before``; running ones are never touched."""
    ids = (
        select(model.id)
        .where(model.active_channel_id.is_(None), model.updated_at < before)
        .order_by(model.id)
        .limit(batch)
    )
    return await _delete_ids(session, model, ids)


async def _delete_ids(session: AsyncSession, model: type[Any], ids: Any) -> int:
    # Materialise the ids first: SQLite and PostgreSQL alike, no DELETE … LIMIT needed.
    chosen = list((await session.execute(ids)).scalars())
    if chosen:
        await session.execute(delete(model).where(model.id.in_(chosen)))
    return len(chosen)
