"""What changed in channels, cheaply: one mark per channel that moves whenever its turn order
or roll log does (the web's live pages poll it for every watched channel at once: one round
of queries per poll, not one per open page)."""

from __future__ import annotations

from collections.abc import Collection

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.storage.models import InitiativeEncounter, RollLog


async def marks(session: AsyncSession, channel_ids: Collection[int]) -> dict[int, str]:
    """``{channel_id: mark}`` for every channel asked (an unchanged channel keeps its mark).

    The mark joins the newest encounter's id, the sum of the encounters' revisions (every
    state write bumps one: migration 0230), how many are running (an end closes one) and the
    newest roll's id. Two grouped queries over indexed columns, whatever the number of
    channels.
    """
    ids = list(channel_ids)
    if not ids:
        return {}
    found: dict[int, list[int]] = {cid: [0, 0, 0, 0] for cid in ids}
    encounters = select(
        InitiativeEncounter.channel_id,
        func.max(InitiativeEncounter.id),
        func.sum(InitiativeEncounter.revision),
        func.count(InitiativeEncounter.active_channel_id),
    ).where(InitiativeEncounter.channel_id.in_(ids))
    for channel_id, newest, revisions, running in await session.execute(
        encounters.group_by(InitiativeEncounter.channel_id)
    ):
        found[channel_id][:3] = [newest or 0, revisions or 0, running or 0]
    rolls = (
        select(RollLog.channel_id, func.max(RollLog.id))
        .where(RollLog.channel_id.in_(ids))
        .group_by(RollLog.channel_id)
    )
    for channel_id, newest in await session.execute(rolls):
        found[channel_id][3] = newest or 0
    return {cid: ".".join(map(str, parts)) for cid, parts in found.items()}
