"""Initiative encounters: the channel's active one (locked when it is to change)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.storage.models.initiative import InitiativeEncounter


async def active(
    session: AsyncSession, channel_id: int, *, for_update: bool = False
) -> InitiativeEncounter | None:
    """The channel's running encounter, locked for this transaction when ``for_update``."""
    query = select(InitiativeEncounter).where(InitiativeEncounter.active_channel_id == channel_id)
    if for_update:
        query = query.with_for_update()
    return (await session.execute(query)).scalar_one_or_none()


def start(
    session: AsyncSession,
    *,
    guild_id: int | None,
    channel_id: int,
    started_by: int,
    attribute: str | None,
    dice: str | None,
    state: dict,
) -> InitiativeEncounter:
    row = InitiativeEncounter(
        guild_id=guild_id,
        channel_id=channel_id,
        active_channel_id=channel_id,
        started_by=started_by,
        status="active",
        attribute=attribute,
        dice=dice,
        state=state,
    )
    session.add(row)
    return row


def close(row: InitiativeEncounter) -> None:
    """The encounter ends and frees its channel for the next one."""
    row.status = "ended"
    row.active_channel_id = None
