"""CODA extended tests: the channel's tasks in progress, read plain or locked for a change."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.storage.models import CodaActionTest, CodaAttack, CodaExtendedTask
from bot.storage.repositories._atomic import lock_parent


def name_key(name: str) -> str:
    """How task names compare: case and spacing do not matter."""
    return " ".join(name.split()).casefold()


async def lock_channel(session: AsyncSession, channel_id: int) -> None:
    """Hold the channel's lock for extended tests (before checking names and the limit)."""
    await lock_parent(session, "coda_extended_tasks", channel_id)


async def in_channel(
    session: AsyncSession, channel_id: int, *, for_update: bool = False
) -> list[CodaExtendedTask]:
    """The channel's tasks, oldest first (locked when ``for_update``)."""
    query = (
        select(CodaExtendedTask)
        .where(CodaExtendedTask.channel_id == channel_id)
        .order_by(CodaExtendedTask.id)
    )
    if for_update:
        query = query.with_for_update()
    return list((await session.execute(query)).scalars())


async def names(session: AsyncSession, channel_id: int) -> list[str]:
    query = (
        select(CodaExtendedTask.name)
        .where(CodaExtendedTask.channel_id == channel_id)
        .order_by(CodaExtendedTask.id)
    )
    return list((await session.execute(query)).scalars())


def add(session: AsyncSession, row: CodaExtendedTask) -> CodaExtendedTask:
    session.add(row)
    return row


async def delete(session: AsyncSession, row: CodaExtendedTask) -> None:
    await session.delete(row)


async def attack_for_update(session: AsyncSession, attack_id: int) -> CodaAttack | None:
    """An attack exchange, locked while its defender answers (None when unknown)."""
    query = select(CodaAttack).where(CodaAttack.id == attack_id).with_for_update()
    return (await session.execute(query)).scalar_one_or_none()


async def add_attack(session: AsyncSession, row: CodaAttack) -> CodaAttack:
    """Store a new exchange; its id (the buttons' custom id) is set on return."""
    session.add(row)
    await session.flush()
    return row


async def action_test_for_update(session: AsyncSession, test_id: int) -> CodaActionTest | None:
    """An action's attribute test, locked while its one press rolls it (None when unknown)."""
    query = select(CodaActionTest).where(CodaActionTest.id == test_id).with_for_update()
    return (await session.execute(query)).scalar_one_or_none()


async def add_action_test(session: AsyncSession, row: CodaActionTest) -> CodaActionTest:
    """Store a test waiting to be rolled; its id (the button's custom id) is set on return."""
    session.add(row)
    await session.flush()
    return row
