"""Penalty pools and their log: read a pool, lock it for a change, append to its log.

A character has one pool, wherever it plays (RULES.md), so a pool is found by character."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.storage.models import PenaltyLogEntry, PenaltyPool


async def get(
    session: AsyncSession, character_id: int, *, for_update: bool = False
) -> PenaltyPool | None:
    query = select(PenaltyPool).where(PenaltyPool.character_id == character_id)
    if for_update:
        query = query.with_for_update()
    return (await session.execute(query)).scalar_one_or_none()


async def get_for_update(
    session: AsyncSession, character_id: int, guild_id: int | None
) -> PenaltyPool:
    """The pool, created empty if missing, locked for this transaction."""
    pool = await get(session, character_id, for_update=True)
    if pool is None:
        pool = PenaltyPool(guild_id=guild_id, character_id=character_id, dice=0)
        session.add(pool)
        await session.flush()
    return pool


def log(
    session: AsyncSession,
    pool: PenaltyPool,
    *,
    user_id: int,
    kind: str,
    before: int,
    after: int,
    reason: str = "",
) -> PenaltyLogEntry:
    entry = PenaltyLogEntry(
        pool_id=pool.id,
        user_id=user_id,
        kind=kind,
        before=before,
        after=after,
        reason=reason[:200],
    )
    session.add(entry)
    return entry


async def recent_log(session: AsyncSession, pool_id: int, *, count: int) -> list[PenaltyLogEntry]:
    """The pool's latest entries, newest first."""
    query = (
        select(PenaltyLogEntry)
        .where(PenaltyLogEntry.pool_id == pool_id)
        .order_by(PenaltyLogEntry.id.desc())
        .limit(count)
    )
    return list((await session.execute(query)).scalars())
