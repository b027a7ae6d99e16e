"""A mark per channel that moves whenever its page would change (turn order, roll log): what
the web's live page polls, for every watched channel in one read (docs: bot/web/_events)."""

from __future__ import annotations

from collections.abc import Collection

from bot.storage import Database
from bot.storage.repositories import channel_activity

#: At most this many channels in one read (a poll of more is split).
MAX_CHANNELS = 500


async def marks(db: Database, channel_ids: Collection[int]) -> dict[int, str]:
    """``{channel_id: mark}``: equal marks mean nothing the page shows has changed."""
    ids = sorted(set(channel_ids))
    found: dict[int, str] = {}
    async with db.unit_of_work(read_only=True) as session:
        for start in range(0, len(ids), MAX_CHANNELS):
            found.update(await channel_activity.marks(session, ids[start : start + MAX_CHANNELS]))
    return found
