"""The roll log: append one entry per roll, read a channel's latest."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.storage.models import RollLog


def add(
    session: AsyncSession,
    actor: Actor,
    *,
    system: str,
    input: str,
    faces: Sequence[Any],
    outcome: str,
    secret: bool = False,
    label: str | None = None,
) -> RollLog:
    """Add an entry to the current unit of work; it commits with the command's other changes."""
    entry = RollLog(
        guild_id=actor.guild_id,
        channel_id=actor.channel_id,
        user_id=actor.user_id,
        system=system,
        input=input[:2000],
        label=label[:100] if label else None,
        macro=actor.macro,
        faces=list(faces),
        outcome=outcome[:2000],
        secret=secret,
    )
    session.add(entry)
    return entry


async def latest(
    session: AsyncSession,
    channel_id: int,
    *,
    count: int,
    include_secret: bool,
    viewer_id: int | None = None,
) -> list[RollLog]:
    """The channel's newest rolls; secret ones with ``include_secret`` (GMs), else only the
    ``viewer_id``'s own (a roller saw their secret roll already)."""
    query = select(RollLog).where(RollLog.channel_id == channel_id)
    if not include_secret:
        visible = RollLog.secret.is_(False)
        if viewer_id is not None:
            visible = or_(visible, RollLog.user_id == viewer_id)
        query = query.where(visible)
    query = query.order_by(RollLog.id.desc()).limit(count)
    return list((await session.execute(query)).scalars())
