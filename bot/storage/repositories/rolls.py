"""The roll log: append one entry per roll, read a channel's latest."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot import commitment
from bot.actor import Actor
from bot.storage.models import RollLog
from bot.storage.models.base import utcnow

#: ``session.info`` key of the secret entries added in this unit of work (see :func:`sealed`).
_SEALED = "narrator.sealed_rolls"


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
        created_at=utcnow(),
    )
    if secret:
        _seal(entry)
        sealed(session).append(entry)
    session.add(entry)
    return entry


def _seal(entry: RollLog) -> None:
    """Commit to a secret roll as it is logged: the record, a fresh salt and their SHA-256."""
    entry.record = commitment.record(
        system=entry.system,
        input=entry.input,
        label=entry.label,
        faces=entry.faces,
        outcome=entry.outcome,
        time=entry.created_at,
        roller=entry.user_id,
        channel=entry.channel_id,
        guild=entry.guild_id,
    )
    entry.salt = commitment.new_salt()
    entry.commitment = commitment.commit(entry.record, entry.salt)


def sealed(session: AsyncSession) -> list[RollLog]:
    """The secret entries this unit of work logs, in order: the one list every secret roll's
    reply reads its commitments from (it fills as :func:`add` runs)."""
    entries: list[RollLog] = session.info.setdefault(_SEALED, [])
    return entries


async def get(session: AsyncSession, roll_id: int, *, channel_id: int) -> RollLog | None:
    """One entry of this channel's log by its id (another channel's id finds nothing)."""
    entry = await session.get(RollLog, roll_id)
    return entry if entry is not None and entry.channel_id == channel_id else None


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


async def faces_since(
    session: AsyncSession,
    channel_id: int,
    *,
    systems: Sequence[str],
    user_id: int | None,
    since: datetime | None,
    limit: int,
) -> list[tuple[str, str, list[Any]]]:
    """The newest ``limit`` public entries' (system, input, faces) of this channel, for dice
    statistics: only the columns they need, newest first, bounded before the query runs."""
    query = select(RollLog.system, RollLog.input, RollLog.faces).where(
        RollLog.channel_id == channel_id,
        RollLog.system.in_(list(systems)),
        RollLog.secret.is_(False),
    )
    if user_id is not None:
        query = query.where(RollLog.user_id == user_id)
    if since is not None:
        query = query.where(RollLog.created_at >= since)
    query = query.order_by(RollLog.id.desc()).limit(limit)
    return [(row.system, row.input, row.faces) for row in await session.execute(query)]
