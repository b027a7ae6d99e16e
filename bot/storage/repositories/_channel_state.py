"""Queries for per-channel states built on :class:`ChannelStateMixin` (encounter, match)."""

from __future__ import annotations

import functools
from typing import Any, TypeVar

from sqlalchemy import Select, bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.storage.models import ACTIVE, ChannelStateMixin

Row = TypeVar("Row", bound=ChannelStateMixin)


@functools.cache
def _active_query(model: type[Row], for_update: bool) -> Select[Row]:
    # Built once: building a SELECT costs more than running it (docs/decisions/hot-path.md).
    query = select(model).where(model.active_channel_id == bindparam("channel_id"))
    return query.with_for_update() if for_update else query


async def active(
    session: AsyncSession, model: type[Row], channel_id: int, *, for_update: bool = False
) -> Row | None:
    """The channel's running row, locked for this transaction when ``for_update``."""
    query = _active_query(model, for_update)  # type: ignore[arg-type]  # mypy: a class is Hashable
    return (await session.execute(query, {"channel_id": channel_id})).scalar_one_or_none()


def start(
    session: AsyncSession,
    model: type[Row],
    *,
    guild_id: int | None,
    channel_id: int,
    started_by: int,
    state: dict[str, Any],
    **columns: Any,
) -> Row:
    """A new running row for the channel; the unique constraint refuses a second one."""
    row = model(
        guild_id=guild_id,
        channel_id=channel_id,
        active_channel_id=channel_id,
        started_by=started_by,
        status=ACTIVE,
        state=state,
        **columns,
    )
    session.add(row)
    return row


def close(row: ChannelStateMixin, status: str) -> None:
    """The row stops running (``status`` says how) and frees its channel for the next one."""
    row.status = status
    row.active_channel_id = None
