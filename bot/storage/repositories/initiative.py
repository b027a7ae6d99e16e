"""Initiative encounters: the channel's active one (locked when it is to change)."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.storage.models import InitiativeEncounter
from bot.storage.repositories import _channel_state

ENDED = "ended"


async def active(
    session: AsyncSession, channel_id: int, *, for_update: bool = False
) -> InitiativeEncounter | None:
    return await _channel_state.active(
        session, InitiativeEncounter, channel_id, for_update=for_update
    )


def start(session: AsyncSession, **columns: Any) -> InitiativeEncounter:
    return _channel_state.start(session, InitiativeEncounter, **columns)


def store(row: InitiativeEncounter, state: dict[str, Any]) -> None:
    """Write the encounter's new state and bump its revision, in the same UPDATE.

    The row is locked by the caller's transaction (``active(..., for_update=True)``), so
    the increment cannot be lost; every writer of ``state`` goes through here.
    """
    row.state = state
    row.revision += 1


def close(row: InitiativeEncounter) -> None:
    _channel_state.close(row, ENDED)
