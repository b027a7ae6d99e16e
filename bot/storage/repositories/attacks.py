"""Attack exchanges of any system (:class:`~bot.storage.models.AttackExchange`)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.storage.models import AttackExchange


async def for_update(session: AsyncSession, system: str, attack_id: int) -> AttackExchange | None:
    """One system's exchange, locked while its defender answers (None when unknown)."""
    query = (
        select(AttackExchange)
        .where(AttackExchange.id == attack_id, AttackExchange.system == system)
        .with_for_update()
    )
    return (await session.execute(query)).scalar_one_or_none()


async def add(session: AsyncSession, row: AttackExchange) -> AttackExchange:
    """Store a new exchange; its id (the buttons' custom id) is set on return."""
    session.add(row)
    await session.flush()
    return row
