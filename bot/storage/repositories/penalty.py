"""Penalty pools and their log: read a pool, lock it for a change, append to its log.

A character has one pool, wherever it plays (RULES.md), so a pool is found by character."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.storage.models import PenaltyLogEntry, PenaltyPool
from bot.storage.repositories._atomic import insert_missing


async def get(
    session: AsyncSession, character_id: int, *, for_update: bool = False
) -> PenaltyPool | None:
    query = select(PenaltyPool).where(PenaltyPool.character_id == character_id)
    if for_update:
        query = query.with_for_update().execution_options(populate_existing=True)
    return (await session.execute(query)).scalar_one_or_none()


async def get_for_update(
    session: AsyncSession, character_id: int, guild_id: int | None
) -> PenaltyPool:
    """The pool, created empty if missing (by whichever command comes first), locked for this
    transaction."""
    await insert_missing(
        session,
        PenaltyPool,
        ["character_id"],
        guild_id=guild_id,
        character_id=character_id,
        dice=0,
    )
    pool = await get(session, character_id, for_update=True)
    assert pool is not None  # inserted above or by a concurrent command, and never deleted here
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
